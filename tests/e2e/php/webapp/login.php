<?php
// The login form's target: a non-empty user and the form's token log in
// (the session remembers the user, the database counts the logins), then
// the members' page.
session_start();
$user = trim($_POST['user'] ?? '');
if ($user === '' || ($_POST['token'] ?? '') !== 't0k3n') {
    echo "<!DOCTYPE html>\n<html><head><title>login</title></head><body><p>Who are you? <a href=\"index.php\">back</a></p></body></html>\n";
    exit;
}
$_SESSION['user'] = $user;
$db = new PDO('sqlite:' . __DIR__ . '/app.sqlite');
$db->prepare('INSERT INTO logins (user) VALUES (?)')->execute([$user]);
header('Location: members.php');
echo "<!DOCTYPE html>\n<html><head><title>login</title></head><body><p><a href=\"members.php\">members</a></p></body></html>\n";
