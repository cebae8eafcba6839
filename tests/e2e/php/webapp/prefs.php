<?php
// The preferences: only with a session; without one, back to the front
// page.  The seeded fault is line 12: the key is 'color', not 'colour' (a
// warning: Undefined array key), and only a logged-in user who does not
// ask for the theme gets there.
session_start();
$settings = ['theme' => 'dark', 'color' => 'green'];
if (!isset($_SESSION['user'])) {
    header('Location: index.php');
    exit;
}
$shown = isset($_GET['theme']) ? $settings['theme'] : $settings['colour'];
$user = htmlspecialchars($_SESSION['user']);
echo "<!DOCTYPE html>\n<html><head><title>preferences</title></head><body>\n<p>$user likes $shown</p>\n";
echo "<p><a href=\"prefs.php?theme=1\">theme</a> | <a href=\"members.php\">members</a></p></body></html>\n";
