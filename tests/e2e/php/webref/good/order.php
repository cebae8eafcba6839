<?php
// An order's price: 3 a pen, 10% off from 10 pens.  The quantity goes into
// the session, for the confirmation.  The correct version: the reference
// of tests/e2e/test_web_reference.sh (bad/order.php has the fault).
session_start();
$qty = max(1, (int)($_REQUEST['qty'] ?? 1));
$_SESSION['qty'] = $qty;
$rate = $qty >= 10 ? 0.9 : 1.0;
$total = $qty * 3 * $rate;
printf("<!DOCTYPE html>\n<html><head><title>order</title></head><body>\n<p>%d pens: %.2f</p>\n", $qty, $total);
echo "<p><a href=\"confirm.php\">confirm</a> | <a href=\"index.php\">home</a></p></body></html>\n";
