<?php
/* The panel: an administrator sees the tools, and its fault (line 10, an
 * undefined array key: a warning) is only reached when the posted role is
 * "admin", which no page offers. */
$role = isset($_POST['role']) ? trim($_POST['role']) : '';
$tools = array('users' => 'Users');
echo "<!DOCTYPE html>\n<html><head><title>Panel</title></head><body>\n";
if ($role === 'admin') {
    echo "<p>Tools:</p>\n";
    echo '<p>' . $tools['settings'] . "</p>\n";
} else {
    echo "<p>Nothing for you here.</p>\n";
}
echo "</body></html>\n";
