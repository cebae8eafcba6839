<?php
// A page with nothing behind it but a link home.
?>
<!DOCTYPE html>
<html><head><title>about</title></head><body>
<p>We sell tea. <a href="index.php">home</a></p>
</body></html>
