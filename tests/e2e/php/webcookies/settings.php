<?php
/* The settings: an expert sees the advanced ones, and its fault (line 9,
 * an undefined array key: a warning) is only reached with the cookie mode
 * "expert", which no page sets. */
$mode = $_COOKIE['mode'] ?? 'basic';
$advanced = array('cache' => 'on');
echo "<!DOCTYPE html>\n<html><head><title>Settings</title></head><body>\n";
if ($mode === 'expert') {
    echo '<p>Debug: ' . $advanced['debug'] . "</p>\n";
} else {
    echo "<p>Mode: " . htmlspecialchars($mode) . "</p>\n";
}
echo "</body></html>\n";
