<?php
// A script that raises a warning (line 5) and a silenced one (line 7),
// for tests/e2e/test_php.sh: CULPRIT_PHP_FAIL_ON decides whether it fails.
function lookup($table) {
    return $table["missing"];
}
echo @$undefined;
$value = lookup([1]);
echo "done\n";
