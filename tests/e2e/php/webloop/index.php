<?php
// A page whose first link never ends (tests/e2e/test_web.sh): the request
// times out, and the exploration still reaches the others; the last one's
// HTML is broken, which only --html fails; help/faq.php is in a
// subdirectory.
?>
<!DOCTYPE html>
<html><head><title>loop</title></head><body>
<p><a href="spin.php">spin</a> <a href="ok.php">ok</a> <a href="broken.php">broken</a> <a href="help/faq.php">help</a></p>
</body></html>
