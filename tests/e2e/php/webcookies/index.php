<?php
/* culprit web's cookies and uploads (tests/e2e/test_web_cookies.sh): the
 * front page of a small notebook.  It sets the display mode "basic" as a
 * cookie, which no page changes; it offers an upload form (a file input)
 * and a note form without one. */
if (!isset($_COOKIE['mode'])) {
    setcookie('mode', 'basic');
}
?>
<!DOCTYPE html>
<html><head><title>Notebook</title></head><body>
<p><a href="settings.php">Settings</a></p>
<form action="upload.php" method="post" enctype="multipart/form-data">
<input type="text" name="title" value="notes">
<input type="file" name="doc">
<input type="submit" value="Upload">
</form>
<form action="note.php" method="post">
<input type="text" name="text" value="hello">
<input type="submit" value="Save">
</form>
</body></html>
