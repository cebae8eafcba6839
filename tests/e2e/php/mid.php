<?php
// mid.php - the middle of three numbers, with a seeded fault on line 11
// (tests/e2e/test_php.sh): the example of docs/php.md, after examples/mid.
function mid(int $x, int $y, int $z): int
{
    $m = $z;
    if ($y < $z) {
        if ($x < $y) {
            $m = $y;
        } elseif ($x < $z) {
            $m = $y; // correct: $m = $x;
        }
    } else {
        if ($x > $y) {
            $m = $y;
        } elseif ($x > $z) {
            $m = $x;
        }
    }
    return $m;
}

function never_called()
{
    echo "never\n";
}

$values = array_map('intval', array_slice($argv, 1));
$total = 0;
foreach ($values as $v) {
    $total = $total + ($v ?? 0);
}
echo mid($values[0], $values[1], $values[2]), "\n";
