<?php
// A status page (tests/e2e/test_web_volatile.sh): its figures change from
// run to run, as a machine's memory use or a clock do, so that its page
// never equals the reference's byte for byte.
$now = hrtime(true);
?>
<!DOCTYPE html>
<html><head><title>status</title></head><body>
<h1>Status</h1>
<p>Served at <?= $now ?> ns, <?= memory_get_usage() + $now % 1000 ?> bytes in use</p>
<p><a href="square.php?n=3">square of 3</a> <a href="square.php?n=12">square of 12</a></p>
<p><a href="token.php">a token</a></p>
</body></html>
