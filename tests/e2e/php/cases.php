<?php
// A switch on five integers and one on two strings (which PHP compiles to
// jump tables, and culprit's extension without), and a match (a jump table
// whatever the compiler is told): test_php.sh checks the case each run took.
function kind($n)
{
    switch ($n) {
        case 1:
            return "one";
        case 2:
            return "two";
        case 3:
            return "three";
        case 4:
            return "four";
        case 5:
            return "five";
        default:
            return "many";
    }
}

function color($c)
{
    switch ($c) {
        case "r":
            return "red";
        case "g":
            return "green";
    }
    return "none";
}

function size($s)
{
    return match ($s) {
        "s", "xs" => 1,
        "m" => 2,
        10 => 3,
        default => 0,
    };
}

echo kind((int)$argv[1]), " ", color($argv[2]), " ", size(is_numeric($argv[3]) ? (int)$argv[3] : $argv[3]), "\n";
