<?php
// The members' page: only with a session.
session_start();
if (!isset($_SESSION['user'])) {
    header('Location: index.php');
    exit;
}
$db = new PDO('sqlite:' . __DIR__ . '/app.sqlite');
$logins = $db->query('SELECT COUNT(*) FROM logins')->fetchColumn();
?>
<!DOCTYPE html>
<html><head><title>members</title></head><body>
<h1>Hello, <?= htmlspecialchars($_SESSION['user']) ?> (<?= (int)$logins ?> logins)</h1>
<p><a href="prefs.php">preferences</a> | <a href="prefs.php?theme=1">theme</a> | <a href="index.php">home</a></p>
</body></html>
