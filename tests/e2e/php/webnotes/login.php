<?php
// The login: the form's token and a user put the user in the session,
// then the notes.
session_start();
$user = trim($_POST['user'] ?? '');
if ($user === '' || ($_POST['token'] ?? '') !== 'n0tes') {
    echo "<!DOCTYPE html>\n<html><head><title>login</title></head><body><p><a href=\"index.php\">again</a></p></body></html>\n";
    exit;
}
$_SESSION['user'] = $user;
header('Location: notes.php');
echo "<!DOCTYPE html>\n<html><head><title>login</title></head><body><p><a href=\"notes.php\">notes</a></p></body></html>\n";
