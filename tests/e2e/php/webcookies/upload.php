<?php
/* The upload: its fault (line 7, a warning) is reached only when a file
 * was uploaded, which the front page's form does (a file input). */
echo "<!DOCTYPE html>\n<html><head><title>Upload</title></head><body>\n";
$sizes = array();
if (isset($_FILES['doc'])) {
    echo '<p>Size: ' . $sizes[$_FILES['doc']['name']] . "</p>\n";
} else {
    echo "<p>No file.</p>\n";
}
echo "</body></html>\n";
