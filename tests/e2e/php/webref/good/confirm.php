<?php
// The confirmation: the quantity the session remembers is the order, the
// first one kept in the database (INSERT OR IGNORE: one order, so the
// exploration ends).
session_start();
$qty = (int)($_SESSION['qty'] ?? 0);
if ($qty > 0) {
    $db = new PDO('sqlite:' . __DIR__ . '/data/orders.sqlite');
    $db->prepare('INSERT OR IGNORE INTO orders (id, qty) VALUES (1, ?)')->execute([$qty]);
}
echo "<!DOCTYPE html>\n<html><head><title>confirm</title></head><body>\n";
echo $qty > 0 ? "<p>Thank you for ordering $qty pens.</p>\n" : "<p>Nothing to confirm.</p>\n";
echo "<p><a href=\"index.php\">home</a></p></body></html>\n";
