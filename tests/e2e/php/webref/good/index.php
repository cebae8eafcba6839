<?php
// A pen shop's front page (tests/e2e/test_web_reference.sh): the orders
// so far, read from the database (so that the reference must see the same
// database as the application), a link to a small order and a form for a
// bulk one.
$db = new PDO('sqlite:' . __DIR__ . '/data/orders.sqlite');
$orders = (int)$db->query('SELECT COUNT(*) FROM orders')->fetchColumn();
?>
<!DOCTYPE html>
<html><head><title>pens</title></head><body>
<h1>Pens, 3 each</h1>
<p>Orders so far: <?= $orders ?></p>
<p><a href="order.php?qty=2">two pens</a></p>
<form action="order.php" method="post">
<p><select name="qty"><option value="20">20 pens</option><option value="5">5 pens</option></select></p>
<p><input type="submit" name="order" value="Price it"></p>
</form>
</body></html>
