<?php
namespace App;
// Return classes for tests/e2e/test_php.sh: calls of the program's
// functions whose result is used, and calls of PHP's own (not counted).
function sign($x) { return $x <=> 0; }
function name($n) { return $n ? "x" : ""; }
function maybe($a) { return $a ? [1] : null; }
class A { function get() { return $this; } }
$s = 0;
foreach ([-2, 0, 3, 4] as $v) {
    $s += sign($v);
}
$t = name(1) . name(0);
$m = maybe(0);
$o = (new A)->get();
$l = strlen("abc");
$d = (new \DateTime('2020-01-02'))->format('Y');
sign(1);
echo "$s $t $l $d\n";
