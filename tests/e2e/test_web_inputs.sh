# test_web_inputs.sh - culprit web's input constraints (docs/web.md,
# "Input constraints"; issue 24 item 2).  tests/e2e/php/webinputs is a small
# admin area whose two faults are behind values no page offers: the panel's
# (panel.php:10, a warning) only when the posted role is "admin", compared
# with ===; the reports' (report.php:13, a DivisionByZeroError) only with
# kind=monthly, a case of a switch on a GET parameter.  The extension must
# record the comparisons (culprit-php-cgi --inputs), and the exploration
# must negate them into the requests that reach both faults, and rank them
# first;
# without input constraints (--no-inputs, also with --fill) nothing fails.
# Skips only without PHP or php-cgi.
. "$(dirname "$0")/lib.sh"

need_php_cgi
cp -R "$TOP/tests/e2e/php/webinputs" app
APP=$(cd app && pwd -P)

# ---- the records of one request ----
CULPRIT_COLLECT_DIR=$WORK "$BUILD_DIR/culprit-php-cgi" --form 'role=guest' --inputs records.txt app/panel.php >page.html
expect_contains records.txt "isset 1 post role id $APP/panel.php:5"
expect_contains records.txt "eq 0 post role id $APP/panel.php:8 admin"
CULPRIT_COLLECT_DIR=$WORK "$BUILD_DIR/culprit-php-cgi" --query 'kind=Daily%20&format=pdf' --inputs records.txt \
    app/report.php >page.html
# (the extension compiles switches without jump tables, php_module.c: each
# case is a comparison on its own line)
expect_contains records.txt "eq 0 get kind id $APP/report.php:9 daily"
expect_contains records.txt "eq 0 get kind id $APP/report.php:12 monthly"
expect_contains records.txt "in 0 get format id $APP/report.php:16 html text"
# a field compared after trim() and strtolower() is still the field's
cat >app/lower.php <<'END'
<?php
$mode = strtolower(trim($_GET['mode'] ?? ''));
if ($mode == 'expert' || strcmp($_GET['mode'] ?? '', 'x') == 0 || (int)($_GET['n'] ?? 0) < 10) echo "ok\n";
if (is_numeric($_GET['n'] ?? '') && empty($_GET['missing'])) echo "n\n";
if (strlen(trim($_GET['mode'] ?? '')) > 8 || 3 >= strlen($_GET['n'] ?? '')) echo "long\n";
END
CULPRIT_COLLECT_DIR=$WORK "$BUILD_DIR/culprit-php-cgi" --query 'mode=+Novice&n=42' --inputs records.txt app/lower.php >page.html
expect_contains records.txt "eq 0 get mode lower $APP/lower.php:3 expert"
expect_contains records.txt "eq 0 get mode id $APP/lower.php:3 x"
expect_contains records.txt "lt 0 get n int $APP/lower.php:3 10"
expect_contains records.txt "numeric 1 get n id $APP/lower.php:4"
expect_contains records.txt "empty 1 get missing id $APP/lower.php:4"
# strlen() of a field (of its trim()) against an integer: "len"
expect_contains records.txt "gt 0 get mode len $APP/lower.php:5 8"
expect_contains records.txt "le 1 get n len $APP/lower.php:5 3" # 3 >= strlen(): mirrored
rm app/lower.php
# without --inputs, no file; without collection, none either
CULPRIT_COLLECT_DIR=$WORK "$BUILD_DIR/culprit-php-cgi" --form 'role=guest' app/panel.php >page.html
"$BUILD_DIR/culprit-php-cgi" --form 'role=guest' --inputs nothing.txt app/panel.php >page.html
[ -s nothing.txt ] && fail "records without collection: $(cat nothing.txt)" || pass

# ---- the exploration ----
run 1 "$CULPRIT" web app --entry index.php --budget 40
cp "$WORK/err" web.err
expect_contains web.err "fail POST panel.php role=admin (state 0, from inputs)"
expect_contains web.err "fail GET report.php?kind=monthly (state 0, from inputs)"
expect_contains web.err "culprit web: input constraints: "
grep -q 'input constraints: 0 requests' web.err && fail "no request from input constraints" || pass
run 0 "$CULPRIT" failures
expect_contains "$WORK/out" 'Undefined array key "settings" at panel.php:10'
expect_contains "$WORK/out" 'DivisionByZeroError: Division by zero in report.php:N at report.php:13'
# no request runs twice in a state (a generated request equal to a default
# one is not run again)
sed -n 's/^culprit web: .* web-[0-9]* [a-z]* \(.*\) (state \([0-9]*\).*/\1 \2/p' web.err | sort | uniq -d >twice
[ -s twice ] && fail "explored twice: $(cat twice)" || pass
# both faulty lines lead the ranking (one failing request each: tied with
# the other lines only failing requests ran, the panel's branch and echo
# and the report's `case 'monthly'`, whose outcome true only the failing
# request took), run by no passing request
rank_into ranked --format csv
for line in panel.php:10 report.php:13; do
    grep -q "^[1-5],[^,]*,[^,]*/$line,[^,]*,[1-9][0-9]*,0," "$WORK/ranked" && pass ||
        fail "expected $line within the first 5, run by no passing request: $(head -8 "$WORK/ranked")"
done

# ---- without input constraints: nothing fails ----
run 0 "$CULPRIT" --store plain web app --entry index.php --budget 40 --no-inputs
expect_contains "$WORK/err" "(0 failing"
grep -q 'from inputs' "$WORK/err" && fail "a request from inputs under --no-inputs" || pass
run 0 "$CULPRIT" --store filled web app --entry index.php --budget 40 --no-inputs --fill --each-option --match values
expect_contains "$WORK/err" "(0 failing"

finish
