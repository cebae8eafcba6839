# test_web_reference.sh - `culprit web --reference REFDIR` (docs/web.md,
# "Reference oracle"): each request runs first in another version of the
# application, in a copy of the same state, and its page is the request's
# expected page.  tests/e2e/php/webref/bad is a pen shop whose bulk price
# is wrong (order.php line 8: 20% off instead of 10%), which no PHP error
# or HTML check sees; webref/good is the correct version.  The front page
# shows the orders in the database and the confirmation reads the session,
# so the reference must run in the same state (its database files, its
# sessions, its cookies) for the other pages to agree.  Without a
# reference nothing fails; with it the bulk orders fail with the wrong
# line of output, `culprit rank` puts order.php:8 first, alone, both
# directories are left as they were, and the replay of STORE/web/tests.json
# (with the expected pages) gives the same verdicts.  Skips only without
# PHP, php-cgi or pdo_sqlite.
. "$(dirname "$0")/lib.sh"

need_php_cgi
if ! php -r 'exit(class_exists("PDO") && in_array("sqlite", PDO::getAvailableDrivers()) ? 0 : 1);'; then
    echo "$E2E_NAME: note: PHP has no pdo_sqlite (Debian: php8.2-sqlite3); skipping"
    finish
    exit 0
fi
cp -R "$TOP/tests/e2e/php/webref/bad" app
cp -R "$TOP/tests/e2e/php/webref/good" ref
for dir in app ref; do
    mkdir "$dir/data"
    php -r '$d = new PDO("sqlite:" . $argv[1]); $d->exec("CREATE TABLE orders (id INTEGER PRIMARY KEY, qty INTEGER)");' \
        "$dir/data/orders.sqlite"
done
cp -R app app.before
cp -R ref ref.before

# ---- without a reference, the wrong total is not seen ----
run 0 "$CULPRIT" --store plain web app --entry index.php --budget 12
expect_contains "$WORK/err" "culprit web: done: 12 requests (0 failing"
expect_contains "$WORK/err" "pass POST order.php qty=20&order=Price+it (state 0)"

# ---- with it, the bulk orders fail, and only they ----
run 1 "$CULPRIT" web app --entry index.php --budget 12 --reference ref
cp "$WORK/err" web.err
expect_contains web.err "web-0001 pass GET index.php (state 0)"
expect_contains web.err "web-0002 pass GET order.php?qty=2 (state 0)"
expect_contains web.err "web-0003 fail POST order.php qty=20&order=Price+it (state 0)"
expect_contains web.err "culprit web: reference: 12 requests judged against ref's pages, 0 without"
grep -q 'no expected page' web.err && fail "a request had no expected page: $(cat web.err)" || pass
# every failing request is a bulk order (qty 10 or more); the pages that
# read the state (the orders in the database, the session's quantity)
# agree with the reference's, so they pass
grep ' fail ' web.err | grep -v -e 'order.php qty=20' -e 'order.php?qty=1[0-9]' >wrong
[ -s wrong ] && fail "failing requests that are not bulk orders: $(cat wrong)" || pass
grep -q ' pass GET confirm.php (state [1-9]' web.err && pass || fail "no confirmation passed: $(cat web.err)"
grep -q ' pass GET index.php (state [1-9]' web.err && pass || fail "no front page after an order: $(cat web.err)"

# the verdict is the difference of the page, on its wrong line
run 0 "$CULPRIT" tests
expect_contains "$WORK/out" "stdout differs from the expected output: 1 wrong line, the first is line 3"
expect_contains "$WORK/out" "-<p>20 pens: 54.00</p>"
expect_contains "$WORK/out" "+<p>20 pens: 48.00</p>"
run 0 "$CULPRIT" failures
expect_contains "$WORK/out" "stdout differs from the expected output"
rank_into default --format csv
case $(sed -n 2p "$WORK/default") in
1,*order.php:8,*) pass ;;
*) fail "expected order.php:8 alone first, got $(sed -n 2,3p "$WORK/default")" ;;
esac
case $(sed -n 3p "$WORK/default") in 1,*) fail "order.php:8 is tied: $(sed -n 3p "$WORK/default")" ;; *) pass ;; esac

# the progress line's S_comb (Apollo's ranking, as it explores) is
# `culprit rank --technique scomb`'s first line: the echo that wrote the
# wrong line (order.php:10), lifted above the computation (line 8)
rank_into scomb --technique scomb --format csv
scomb_first=$(sed -n 2p "$WORK/scomb" | cut -d, -f3)
case $scomb_first in */order.php:10) pass ;; *) fail "scomb first: $scomb_first" ;; esac
grep "S_comb" web.err | tail -n 1 | grep -q "top [^ ]*/order.php:8, S_comb $scomb_first: " && pass ||
    fail "the last progress lines should name S_comb's $scomb_first: $(grep 'S_comb' web.err | tail -2)"

# both directories as they were: the databases (the confirmations wrote to
# them), no session or other file left in the reference
expect_same app/data/orders.sqlite app.before/data/orders.sqlite
expect_same ref/data/orders.sqlite ref.before/data/orders.sqlite
diff -r ref ref.before >ref.diff && pass || fail "the reference changed: $(cat ref.diff)"
diff -r app app.before >app.diff && pass || fail "the application changed: $(cat app.diff)"
[ -f "$CULPRIT_STORE/web/reference/db/0" ] && pass || fail "no copy of the reference's database in STORE/web/reference"

# ---- the replay compares with the saved expected pages ----
expect_contains "$CULPRIT_STORE/web/tests.json" '"expect_stdout": {"file": "expected/web-0003.html"}'
expect_contains "$CULPRIT_STORE/web/expected/web-0003.html" "<p>20 pens: 54.00</p>"
"$CULPRIT" tests | awk '{print $1, $NF}' | grep ' web-' | sort >explored.verdicts
PATH="$BUILD_DIR:$PATH" run 1 "$CULPRIT" --store replay run --jobs 1 --tests "$CULPRIT_STORE/web/tests.json"
"$CULPRIT" --store replay tests | awk '{print $1, $NF}' | grep ' web-' | sort >replayed.verdicts
expect_same replayed.verdicts explored.verdicts
grep -q '^fail web-0003$' replayed.verdicts && pass || fail "web-0003 should fail replayed: $(cat replayed.verdicts)"
rm -rf app && cp -R app.before app

# ---- a script the reference lacks: judged without, said once ----
cp -R ref.before partial
rm partial/confirm.php
run 1 "$CULPRIT" --store partialstore web app --entry index.php --budget 12 --reference partial
expect_contains "$WORK/err" "culprit web: no expected page for confirm.php: the reference has no "
[ "$(grep -c 'no expected page' "$WORK/err")" -eq 1 ] && pass || fail "said more than once: $(cat "$WORK/err")"
grep -q ' pass GET confirm.php' "$WORK/err" && pass || fail "confirm.php should pass: $(cat "$WORK/err")"
grep -q ' fail POST order.php qty=20' "$WORK/err" && pass || fail "the bulk order should fail: $(cat "$WORK/err")"
expect_same partial/data/orders.sqlite ref.before/data/orders.sqlite

# ---- a reference that writes to its database and never ends ----
# Its run times out: no expected page (the request is judged without);
# stopped by a signal, the exploration ends before the application runs
# the request.  Either way the reference's database is put back.
cp -R ref.before slow
cat >slow/index.php <<'EOF'
<?php
$db = new PDO('sqlite:' . __DIR__ . '/data/orders.sqlite');
$db->exec('INSERT INTO orders (qty) VALUES (7)');
sleep(30);
EOF
cp slow/data/orders.sqlite slow.sqlite
run 0 "$CULPRIT" --store slowstore web app --entry index.php --budget 1 --reference slow --timeout 1 --kill-grace 1
expect_contains "$WORK/err" "culprit web: no expected page for index.php: the reference timed out"
expect_contains "$WORK/err" "web-0001 pass GET index.php (state 0)"
expect_same slow/data/orders.sqlite slow.sqlite
"$CULPRIT" --store signalstore web app --entry index.php --budget 5 --reference slow >signal.out 2>signal.err &
web_pid=$!
# signal once the reference's page has written to its database (in its sleep)
tries=0
while cmp -s slow/data/orders.sqlite slow.sqlite && [ $tries -lt 100 ]; do
    sleep 0.1
    tries=$((tries + 1))
done
sleep 0.2
kill -TERM $web_pid
wait $web_pid
code=$?
[ $code -eq 2 ] && pass || fail "stopped by SIGTERM: exit status $code, expected 2: $(cat signal.err)"
expect_contains signal.err "stopped by signal 15"
grep -q 'web-0001' signal.err && fail "the request ran after the signal: $(cat signal.err)" || pass
expect_same slow/data/orders.sqlite slow.sqlite
diff -r app app.before >app.diff && pass || fail "the application changed: $(cat app.diff)"

# ---- bad input: exit 2 before anything runs, the last exploration kept ----
run 2 "$CULPRIT" web app --entry index.php --budget 5 --reference nowhere
expect_contains "$WORK/err" "culprit: --reference nowhere: not a directory"
run 2 "$CULPRIT" web app --entry index.php --budget 5 --reference "$WORK/app/."
expect_contains "$WORK/err" "the same directory as APPDIR app"
run 2 "$CULPRIT" web app --entry index.php --budget 5 --reference app/data
expect_contains "$WORK/err" "is inside the other"
[ -f "$CULPRIT_STORE/web/expected/web-0003.html" ] && pass || fail "a refused --reference removed STORE/web"
run 0 "$CULPRIT" help web
expect_contains "$WORK/out" "--reference DIR"
diff -r app app.before >app.diff && pass || fail "the application changed: $(cat app.diff)"

finish
