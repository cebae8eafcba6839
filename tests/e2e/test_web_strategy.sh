# test_web_strategy.sh - culprit web's strategies and --from (docs/web.md,
# "Strategies"; issue 24 item 1).  On tests/e2e/php/webinputs (a front page
# linking to the reports, whose kind=monthly case divides by zero): an
# exploration that starts from a failing request of the user's manifest
# (--from TEST --tests FILE) runs it first, judged by its own test's
# oracle (a wrong page fails it), then what the strategy picks: base the
# entry queued first, pcs and is the generated request most like the
# failing one; --from a test an earlier exploration recorded, with its
# state; and every bad --from / --strategy said clearly.
# Skips only without PHP or php-cgi.
. "$(dirname "$0")/lib.sh"

need_php_cgi
cp -R "$TOP/tests/e2e/php/webinputs" app
cat >suite.json <<'END'
[
  {"name": "monthly", "request": {"script": "app/report.php", "get": {"kind": "monthly"}}, "env": {"SHOP_MODE": "test"}},
  {"name": "daily", "request": {"script": "app/report.php", "get": {"kind": "daily"}}},
  {"name": "daily_wrong", "request": {"script": "app/report.php", "get": {"kind": "daily"}},
   "expect_stdout": "<p>Yesterday.</p>\n"},
  {"name": "shell", "cmd": "true"},
  {"name": "outside", "request": {"script": "elsewhere.php"}}
]
END
echo '<?php echo "x";' >elsewhere.php

# the request run second: "GET report.php?kind=daily" of "culprit web: ... web-0002 pass GET ..."
second() { sed -n 's/^culprit web: .* web-0002 [a-z]* \([A-Z]* [^ ]*\) (.*/\1/p' "$WORK/err"; }

# ---- --from: the failing request first, then per strategy ----
run 1 "$CULPRIT" --store base web app --from monthly --tests suite.json --entry index.php --budget 3 --strategy base
expect_contains "$WORK/err" "web-0001 fail GET report.php?kind=monthly (state 0, the failing test to start from)"
[ "$(second)" = "GET index.php" ] && pass || fail "base: expected the entry second, not '$(second)'"
for strategy in pcs pcs-seq is; do
    run 1 "$CULPRIT" --store $strategy web app --from monthly --tests suite.json --entry index.php --budget 3 \
        --strategy $strategy
    expect_contains "$WORK/err" "web-0001 fail GET report.php?kind=monthly"
    case "$(second)" in
    "GET report.php?kind="*) pass ;;
    *) fail "$strategy: expected a request of report.php made from the failing one second, not '$(second)'" ;;
    esac
done
# the failing test's "env" is the application's, for every request (and replays)
grep -c '"SHOP_MODE": "test"' pcs/web/tests.json >count
[ "$(cat count)" = 3 ] && pass || fail "expected SHOP_MODE in the 3 requests of pcs/web/tests.json: $(cat pcs/web/tests.json)"
# with no --entry, only what the failing request leads to
run 1 "$CULPRIT" --store noentry web app --from monthly --tests suite.json --budget 5 --strategy pcs
grep -q 'GET index.php' "$WORK/err" && fail "index.php explored with no --entry: $(cat "$WORK/err")" || pass
run 0 "$CULPRIT" --store noentry tests
expect_contains "$WORK/out" "web-0001"
# the failing test's own oracle judges it: a wrong page fails
run 1 "$CULPRIT" --store wrong web app --from daily_wrong --tests suite.json --budget 2
expect_contains "$WORK/err" "web-0001 fail GET report.php?kind=daily"
run 0 "$CULPRIT" --store wrong tests
expect_contains "$WORK/out" "stdout differs from the expected output"

# ---- --from a test an earlier exploration recorded (STORE/web/tests.json) ----
run 1 "$CULPRIT" --store again web app --entry index.php --budget 40
failing=$(sed -n 's/^culprit web: .* \(web-[0-9]*\) fail POST panel.php role=admin .*/\1/p' "$WORK/err" | head -1)
[ -n "$failing" ] && pass || fail "no failing panel request to start from: $(cat "$WORK/err")"
run 1 "$CULPRIT" --store again web app --from "$failing" --budget 3 --strategy is
expect_contains "$WORK/err" "web-0001 fail POST panel.php role=admin"
expect_contains "$WORK/err" "the failing test to start from"

# ---- bad input ----
run 2 "$CULPRIT" --store bad web app --from nope --tests suite.json --budget 3
expect_contains "$WORK/err" "--from nope: no test of that name in suite.json"
run 2 "$CULPRIT" --store bad2 web app --from daily --tests suite.json --budget 3
expect_contains "$WORK/err" "--from daily: the request passed here (recorded as web-0001)"
run 2 "$CULPRIT" --store bad web app --from shell --tests suite.json --budget 3
expect_contains "$WORK/err" "--from shell: not an HTTP request test"
run 2 "$CULPRIT" --store bad web app --from outside --tests suite.json --budget 3
expect_contains "$WORK/err" "its script $PWD/elsewhere.php is not in app"
run 2 "$CULPRIT" --store empty web app --from monthly --budget 3
expect_contains "$WORK/err" "--from monthly: no empty/web/tests.json"
run 2 "$CULPRIT" web app --entry index.php --budget 3 --strategy sat-tar
expect_contains "$WORK/err" "--strategy expects base, coverage, pcs, pcs-seq or is, not 'sat-tar'"
run 2 "$CULPRIT" web app --entry index.php --budget 3 --tests suite.json
expect_contains "$WORK/err" "--tests FILE names the manifest of --from TEST"
echo '[{"name": "x", "request": {"script": 3}}]' >broken.json
run 2 "$CULPRIT" --store bad web app --from x --tests broken.json --budget 3
expect_contains "$WORK/err" "broken.json:1:"

finish
