<?php
// A notebook (tests/e2e/test_web_login.sh): log in, then keep notes.  The
// front page is the login form; its defaults log in as ann.
?>
<!DOCTYPE html>
<html><head><title>notebook</title></head><body>
<form action="login.php" method="post">
<input type="hidden" name="token" value="n0tes">
<p>user <input type="text" name="user" value="ann"></p>
<p><input type="submit" value="Log in"></p>
</form>
</body></html>
