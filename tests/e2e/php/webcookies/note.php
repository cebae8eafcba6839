<?php
/* A note, which may come with an attachment that no form offers: its
 * fault (line 8, a DivisionByZeroError) is reached only when a file
 * "attachment" is uploaded, which only negating isset() finds. */
$text = trim($_POST['text'] ?? '');
echo "<!DOCTYPE html>\n<html><head><title>Note</title></head><body>\n";
if (isset($_FILES['attachment'])) {
    echo '<p>Per line: ' . intdiv($_FILES['attachment']['size'], 0) . "</p>\n";
}
echo '<p>' . htmlspecialchars($text) . "</p>\n";
echo "</body></html>\n";
