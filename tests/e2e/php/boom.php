<?php
// boom.php - ends in an uncaught exception (argument > 2), in a fatal
// error (argument 1) or normally (tests/e2e/test_php.sh).
function check($n)
{
    if ($n > 2) {
        throw new RuntimeException("too big: $n");
    }
    return $n;
}

function deep($n)
{
    return check($n) + undefined_function($n);
}

echo check((int)$argv[1]), "\n";
if ($argv[1] == 1) {
    echo deep(1), "\n";
}
