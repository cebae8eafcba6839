<?php
// An order page for tests/e2e/test_php_output.sh, in the style of
// seeds/000's subjects: rows printed by functions, a summary built in an
// output buffer and returned with ob_get_clean, the page itself buffered
// and flushed at the end.  Seeded fault: line 32 adds the discount instead
// of taking it off, which shows in the total line of orders of 100.00 and
// more only.  usage: php shop.php QTY:CENTS ...
function money(int $cents): string
{
    return sprintf("%d.%02d", intdiv($cents, 100), $cents % 100);
}

function discount(int $total): int
{
    if ($total >= 10000) {
        return intdiv($total, 10);
    }
    return 0;
}

function row(int $qty, int $cents): void
{
    echo "<tr><td>$qty</td><td>", money($qty * $cents), "</td></tr>\n";
}

function summary(int $total): string
{
    ob_start();
    $off = discount($total);
    if ($off > 0) {
        echo "<tr><td>discount</td><td>-", money($off), "</td></tr>\n";
        printf("<tr><td>total</td><td>%s</td></tr>\n", money($total + $off));
    } else {
        printf("<tr><td>total</td><td>%s</td></tr>\n", money($total));
    }
    return ob_get_clean();
}

$total = 0;
ob_start();
?>
<table>
<?php
foreach (array_slice($argv, 1) as $arg) {
    [$qty, $cents] = array_map('intval', explode(':', $arg));
    row($qty, $cents);
    $total += $qty * $cents;
}
echo summary($total);
?>
</table>
<?php
ob_end_flush();
