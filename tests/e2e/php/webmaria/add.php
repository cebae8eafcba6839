<?php
// Adds the posted item to the database, then shows the list (post, redirect, get).
$db = new PDO('mysql:dbname=shop', 'shop', 'secret');
$db->prepare('INSERT INTO items (name, price) VALUES (?, ?)')->execute([$_POST['name'] ?? '', (int)($_POST['price'] ?? 0)]);
header('Location: list.php');
echo "<!DOCTYPE html>\n<html><head><title>added</title></head><body><p><a href=\"list.php\">list</a></p></body></html>\n";
