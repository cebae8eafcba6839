<?php
// A number's square: a page without volatile figures, compared exactly.
$n = isset($_GET['n']) ? (int)$_GET['n'] : 0;
$square = $n * $n;
?>
<!DOCTYPE html>
<html><head><title>square</title></head><body>
<p><?= $n ?> squared is <?= $square ?></p>
</body></html>
