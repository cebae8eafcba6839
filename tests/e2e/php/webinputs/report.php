<?php
/* The reports: a switch on a GET parameter and an in_array on another;
 * the monthly report divides by a count that is zero (line 13: a fatal
 * DivisionByZeroError), reached only with kind=monthly. */
$kind = $_GET['kind'] ?? 'daily';
$days = 0;
echo "<!DOCTYPE html>\n<html><head><title>Report</title></head><body>\n";
switch ($kind) {
case 'daily':
    echo "<p>Today.</p>\n";
    break;
case 'monthly':
    echo '<p>Average: ' . intdiv(100, $days) . "</p>\n";
    break;
}
if (in_array($_GET['format'] ?? 'html', array('html', 'text'))) {
    echo "<p>Format ok.</p>\n";
}
echo "</body></html>\n";
