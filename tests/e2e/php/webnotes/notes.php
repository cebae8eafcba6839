<?php
// The notes of the user in the session (none without one: back to the
// front page).  A posted note is stored in notes.sqlite and the page
// redirects to itself (post, redirect, get).  The seeded fault is line
// 25: the label of a count has only the entry for no notes, so a user
// with a note in the database gets an undefined array key warning - only
// after a login (the session) and a posted note (the database).
session_start();
if (!isset($_SESSION['user'])) {
    header('Location: index.php');
    exit;
}
$db = new PDO('sqlite:' . __DIR__ . '/notes.sqlite');
$db->exec('CREATE TABLE IF NOT EXISTS notes (user TEXT, text TEXT)');
if (trim($_POST['note'] ?? '') !== '') {
    $db->prepare('INSERT INTO notes (user, text) VALUES (?, ?)')->execute([$_SESSION['user'], trim($_POST['note'])]);
    header('Location: notes.php');
    exit;
}
$query = $db->prepare('SELECT text FROM notes WHERE user = ?');
$query->execute([$_SESSION['user']]);
$notes = $query->fetchAll(PDO::FETCH_COLUMN);
$labels = [0 => 'no notes yet'];
$count = count($notes);
$label = $count == 0 ? $labels[0] : $labels[$count];
echo "<!DOCTYPE html>\n<html><head><title>notes</title></head><body>\n<p>" . htmlspecialchars($label) . "</p>\n<ul>\n";
foreach ($notes as $note) {
    echo '<li>' . htmlspecialchars($note) . "</li>\n";
}
echo "</ul>\n<form action=\"notes.php\" method=\"post\"><p><textarea name=\"note\">remember the milk</textarea></p>\n";
echo "<p><input type=\"submit\" value=\"Add\"></p></form>\n</body></html>\n";
