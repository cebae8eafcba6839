<?php
// The shop's front page (tests/e2e/test_web.sh): a link, the login form,
// a link to the preferences (which need a login) and two ways off the site.
session_start();
$who = $_SESSION['user'] ?? 'guest';
?>
<!DOCTYPE html>
<html><head><title>shop</title></head><body>
<h1>Welcome, <?= htmlspecialchars($who) ?></h1>
<p><a href="about.php">about us</a> | <a href="prefs.php">preferences</a> |
<a href="https://partner.example.com/deals.php">deals</a></p>
<form action="login.php" method="post">
<input type="hidden" name="token" value="t0k3n">
<p>user <input type="text" name="user" value="guest"></p>
<p>password <input type="password" name="password"></p>
<p><select name="lang"><option value="en">English</option><option value="fr">Français</option></select></p>
<p><input type="submit" name="login" value="Log in"></p>
</form>
<form action="http://payments.example.com/pay.php" method="post">
<p><input type="text" name="card"> <input type="submit" value="Pay"></p>
</form>
</body></html>
