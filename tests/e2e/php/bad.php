<?php
// bad.php - does not compile: the brace of line 4 is never closed.
echo "a";
if ($x {
