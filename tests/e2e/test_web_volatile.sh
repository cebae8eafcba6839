# test_web_volatile.sh - `culprit web --reference` on pages that change
# from run to run (docs/web.md, "Reference oracle"; docs/oracles.md,
# "numbers").  tests/e2e/php/webvolatile: index.php shows a clock and the
# memory in use, so its page never equals the reference's byte for byte;
# token.php shows a shuffled token, which changes beyond its numbers;
# square.php is stable, and bad/square.php (the faulty version's only
# difference) is one too many from 10 on.
# A page that differs makes the reference run the request again: index.php's
# pages are then compared without their numbers and pass, token.php's
# requests get no expected page (said once), and the wrong square fails,
# exactly; the correct version explored against itself fails nothing;
# the replay manifest says "numbers" for index.php and gives the same
# verdicts.  Skips only without PHP or php-cgi.
. "$(dirname "$0")/lib.sh"

need_php_cgi
cp -R "$TOP/tests/e2e/php/webvolatile/good" ref
cp -R ref good
cp -R ref app && cp "$TOP/tests/e2e/php/webvolatile/bad/square.php" app/ # the faulty version

# ---- the correct version against itself: nothing fails ----
run 0 "$CULPRIT" --store same web good --entry index.php --budget 10 --reference ref
expect_contains "$WORK/err" "(0 failing"
expect_contains "$WORK/err" "culprit web: no expected page for token.php: the reference's page changes from run to run, beyond its numbers"
expect_contains "$WORK/err" "pass GET index.php (state 0)"

# ---- the faulty one: only the wrong square fails ----
run 1 "$CULPRIT" web app --entry index.php --budget 10 --reference ref
cp "$WORK/err" web.err
expect_contains web.err "web-0001 pass GET index.php (state 0)"
expect_contains web.err "fail GET square.php?n=1"
[ "$(grep -c 'no expected page for token.php' web.err)" = 1 ] && pass ||
    fail "token.php's missing page should be said once: $(cat web.err)"
grep ' fail ' web.err | grep -v 'square.php?n=[1-9][0-9]' >wrong
[ -s wrong ] && fail "failing requests that are not squares from 10 on: $(cat wrong)" || pass
run 0 "$CULPRIT" rank --top 1
expect_contains "$WORK/out" "square.php:4"

# index.php's entry compares without numbers; square.php's exactly
python3 - "$CULPRIT_STORE/web/tests.json" >oracles <<'EOF_PY'
import json, sys
for test in json.load(open(sys.argv[1])):
    oracle = test.get("oracle", "exact")
    script = test["request"]["script"].rsplit("/", 1)[-1]
    print(script, json.dumps(oracle), "expected" if "expect_stdout" in test else "none")
EOF_PY
sort -u oracles >oracles.sorted
expect_contains oracles.sorted 'index.php ["html", "numbers"] expected'
expect_contains oracles.sorted 'square.php "html" expected'
expect_contains oracles.sorted 'token.php "html" none'

# ---- the replay gives the same verdicts ----
"$CULPRIT" tests | awk '{print $1, $NF}' | grep ' web-' | sort >explored.verdicts
PATH="$BUILD_DIR:$PATH" run 1 "$CULPRIT" --store replay run --jobs 1 --tests "$CULPRIT_STORE/web/tests.json"
"$CULPRIT" --store replay tests | awk '{print $1, $NF}' | grep ' web-' | sort >replayed.verdicts
expect_same replayed.verdicts explored.verdicts

finish
