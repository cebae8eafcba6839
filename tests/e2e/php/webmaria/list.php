<?php
// The items and their total.  The seeded fault is line 12: the total is
// read from a key the row does not have (an undefined array key, a
// warning) - only once an item is in the database.
$db = new PDO('mysql:dbname=shop', 'shop', 'secret');
$items = $db->query('SELECT name, price FROM items')->fetchAll(PDO::FETCH_ASSOC);
echo "<!DOCTYPE html>\n<html><head><title>items</title></head><body>\n<ul>\n";
$total = 0;
foreach ($items as $item) {
    echo '<li>' . htmlspecialchars($item['name']) . "</li>\n";
    $total += $item['price'];
    $total += $item['tax'];
}
echo "</ul>\n<p>total $total</p>\n<p><a href=\"index.php\">back</a></p></body></html>\n";
