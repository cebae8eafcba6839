<?php
// A page whose text changes from run to run beyond its numbers (a
// shuffled token): no reference page can judge it.
?>
<!DOCTYPE html>
<html><head><title>token</title></head><body>
<p>Token: <?= str_shuffle('abcdefghij') ?></p>
</body></html>
