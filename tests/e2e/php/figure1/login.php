<?php
// login.php - seeds/000 Figure 1(c): checks the credentials and keeps
// them, and whether the user is the administrator, in the session.
require dirname(__FILE__) . '/constants.php';
session_start();
$user = isset($_POST['user']) ? $_POST['user'] : '';
$pw = isset($_POST['pw']) ? $_POST['pw'] : '';
if (!check_password($user, $pw)) {
    echo "<html><head><title>Login</title></head><body><p>Wrong user name or password.</p></body></html>\n";
    exit;
}
$_SESSION[$userTag] = $user;
$_SESSION[$pwTag] = $pw;
if ($user == 'admin') {
    $_SESSION[$typeTag] = 'admin';
}
?>
<html>
<head><title>Login</title></head>
<body>
<p>Hello, <?php echo htmlspecialchars($user); ?>.</p>
<form action="view.php" method="get">
<p>Topic <input type="text" name="topic"></p>
<p><input type="submit" value="View"></p>
</form>
</body>
</html>
