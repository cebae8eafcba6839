# test_web.sh - `culprit web` (docs/web.md): Apollo's exploration of a PHP
# application with no tests.  tests/e2e/php/webapp is a small shop: a
# front page with a link, a login form (a hidden token, a select, a submit
# button) and two ways off the site; the login puts the user in the
# session and a row in an SQLite database and redirects to the members'
# page; the preferences, behind the login, have a seeded warning (prefs.php
# line 12).  The exploration must follow the form with the session it set,
# find the failure, keep the database as it was, never follow the other
# hosts, and `culprit rank` must put prefs.php:12 first, alone.  Then
# tests/e2e/php/webloop, whose page never ends (a timeout, and the
# exploration goes on) and another's HTML is broken (libtidy fails it
# unless --no-html), and bad input.  Skips only without PHP or php-cgi.
. "$(dirname "$0")/lib.sh"

need_php_cgi
if ! php -r 'exit(class_exists("PDO") && in_array("sqlite", PDO::getAvailableDrivers()) ? 0 : 1);'; then
    echo "$E2E_NAME: note: PHP has no pdo_sqlite (Debian: php8.2-sqlite3); skipping"
    finish
    exit 0
fi
cp -R "$TOP/tests/e2e/php/webapp" shop
php -r '$d = new PDO("sqlite:shop/app.sqlite"); $d->exec("CREATE TABLE logins (user TEXT)");'
cp shop/app.sqlite app.sqlite.before

run 1 "$CULPRIT" web shop --entry index.php --budget 25
expect_contains "$WORK/err" "web-0001 pass GET index.php (state 0)"
expect_contains "$WORK/err" "POST login.php token=t0k3n&user=guest&password=&lang=en&login=Log+in"
expect_contains "$WORK/err" "culprit web: not following https://partner.example.com/deals.php (page of web-0001)"
expect_contains "$WORK/err" "culprit web: not following http://payments.example.com/pay.php (page of web-0001)"
expect_contains "$WORK/err" "culprit web: done: 25 requests"
expect_contains "$WORK/err" "culprit web: lines run: "
# localization as it explores: each progress line has the lines run so far
# and, once a request failed, the line that tops the ranking
expect_contains "$WORK/err" "top -, S_comb -: web-0001 pass GET index.php (state 0)"
grep -q "lines run [0-9]*%, top [^ ]*prefs.php:12, S_comb -: " "$WORK/err" && pass ||
    fail "no progress line names prefs.php:12 as the top line: $(grep 'top ' "$WORK/err" | tail -2)"
cp "$WORK/err" web.err
grep -E 'web-[0-9]+ .*example\.com' "$WORK/err" && fail "an off-site URL was requested" || pass
[ "$(grep -c 'not following' "$WORK/err")" -eq 2 ] && pass || fail "each off-site URL said once: $(cat "$WORK/err")"
# The database the exploration wrote to (a login each time) is as it was.
expect_same shop/app.sqlite app.sqlite.before

# The preferences fail only with the session the login form set: not
# logged in, prefs.php redirects (and passes).
run 0 "$CULPRIT" tests
expect_contains "$WORK/out" 'PHP Warning: Undefined array key "colour" at '
grep -q '^fail .*web-' "$WORK/out" && pass || fail "no failing request: $(cat "$WORK/out")"
first_prefs=$(grep -m1 'GET prefs.php (state' web.err)
case $first_prefs in *" pass GET prefs.php (state "*) pass ;; *) fail "prefs.php before the login: $first_prefs" ;; esac
grep -q ' fail GET prefs.php (state' web.err && pass || fail "prefs.php after the login should fail: $(cat web.err)"
run 0 "$CULPRIT" failures
expect_contains "$WORK/out" 'Undefined array key "colour" at prefs.php:12'

# The faulty line first, alone, with the default method and with Ochiai.
rank_into default --format csv
case $(sed -n 2p "$WORK/default") in
1,*prefs.php:12,*) pass ;;
*) fail "expected prefs.php:12 alone first, got $(sed -n 2,3p "$WORK/default")" ;;
esac
case $(sed -n 3p "$WORK/default") in 1,*) fail "prefs.php:12 is tied: $(sed -n 3p "$WORK/default")" ;; *) pass ;; esac

# State matching: no request runs twice in the same state (the same
# script, input names and state are one transition), and a page reached
# again in the same state (index.php from about.php) is not run again.
sed -n 's/^culprit web: .* web-[0-9]* [a-z]* //p' web.err | sort | uniq -d >twice
[ -s twice ] && fail "explored twice: $(cat twice)" || pass
[ "$(grep -c ' GET index.php (state 1)$' web.err)" -eq 1 ] && pass || fail "index.php in state 1: $(cat web.err)"

# ---- the explored requests replay, each in its state ----
# STORE/web/tests.json runs them again (one at a time: the states' database
# files go into the application); the same verdicts, the database as it was.
"$CULPRIT" tests | awk '{print $1, $NF}' | sort >explored.verdicts
PATH="$BUILD_DIR:$PATH" run 1 "$CULPRIT" --store replay run --jobs 1 --tests "$CULPRIT_STORE/web/tests.json"
"$CULPRIT" --store replay tests | awk '{print $1, $NF}' | sort >replayed.verdicts
expect_same replayed.verdicts explored.verdicts
grep -q '^fail web-' replayed.verdicts && pass || fail "no failing replay: $(cat replayed.verdicts)"
cp app.sqlite.before shop/app.sqlite

# ---- a page that never ends: a timeout, and the exploration goes on ----
cp -R "$TOP/tests/e2e/php/webloop" loop
run 1 "$CULPRIT" --store loopstore web loop --entry index.php --budget 10 --timeout 2 --kill-grace 1
expect_contains "$WORK/err" "timeout GET spin.php"
expect_contains "$WORK/err" "pass GET ok.php"
expect_contains "$WORK/err" "fail GET broken.php"
# the page in a subdirectory sees itself as /help/faq.php (--root), and its
# link through PHP_SELF leads back to it
expect_contains "$WORK/err" "pass GET help/faq.php?q=1"
expect_contains "$WORK/err" "culprit web: done: 6 requests (2 failing, 1 timed out, 2 distinct failures)"
expect_contains "$WORK/err" "nothing left to explore"
run 0 "$CULPRIT" --store loopstore tests
grep '^timeout' "$WORK/out" | grep -q web-0002 && pass || fail "spin.php should time out: $(cat "$WORK/out")"
# a budget in seconds: the page that never ends spends it
run 1 "$CULPRIT" --store secondstore web loop --entry index.php --budget 1s --timeout 2 --kill-grace 1
expect_contains "$WORK/err" "culprit web: done: 2 requests (1 failing, 1 timed out"
expect_contains "$WORK/err" "budget reached"
# the broken page fails by libtidy's message; with --no-html it passes
run 0 "$CULPRIT" --store loopstore tests
expect_contains "$WORK/out" "invalid HTML"
run 1 "$CULPRIT" --store htmlstore web loop --entry index.php --budget 10 --timeout 2 --kill-grace 1 --no-html
expect_contains "$WORK/err" "pass GET broken.php"
expect_contains "$WORK/err" "culprit web: done: 6 requests (1 failing, 1 timed out, 1 distinct failures)"

# ---- bad input ----
run 2 "$CULPRIT" web shop --entry nope.php --budget 5
expect_contains "$WORK/err" "culprit: --entry nope.php: no PHP script shop/nope.php"
run 2 "$CULPRIT" web nowhere --entry index.php --budget 5
expect_contains "$WORK/err" "nowhere: not a directory"
run 2 "$CULPRIT" web shop --budget 5
expect_contains "$WORK/err" "--entry is missing"
run 2 "$CULPRIT" web shop --entry index.php
expect_contains "$WORK/err" "--budget is missing"
run 2 "$CULPRIT" web shop --entry index.php --budget 0
expect_contains "$WORK/err" "--budget expects a number of requests or Ns seconds"
run 2 "$CULPRIT" web shop --entry index.php --budget 5 --db missing.sqlite
expect_contains "$WORK/err" "--db missing.sqlite: no file"
run 2 "$CULPRIT" web shop --entry index.php --budget 5 --match everything
expect_contains "$WORK/err" "--match expects names or values"
run 2 "$CULPRIT" web shop --entry index.php --budget 5 --fail-on fatal
expect_contains "$WORK/err" "--fail-on expects error, warning or notice"
# an application whose database culprit cannot provide (its SQLite file is
# not there; a server would be the same): said once, clearly, and the
# exploration goes on
mkdir nodb
printf '%s\n' '<?php' 'echo "<!DOCTYPE html><html><head><title>x</title></head><body><a href=\"other.php\">o</a>";' \
    '$db = new PDO("sqlite:" . __DIR__ . "/data/app.db");' >nodb/index.php
cp nodb/index.php nodb/other.php
run 1 "$CULPRIT" --store nodbstore web nodb --entry index.php --budget 5
expect_contains "$WORK/err" "culprit web: note: web-0001: the application cannot reach its database (PHP Fatal error: Uncaught PDOException: SQLSTATE[HY000] [N] unable to open database file"
expect_contains "$WORK/err" "starts no database server"
expect_contains "$WORK/err" "fail GET other.php"
[ "$(grep -c 'cannot reach its database' "$WORK/err")" = 1 ] && pass || fail "the database note not said once: $(cat "$WORK/err")"
# --fill: the login form's empty password gets a value
run 0 "$CULPRIT" --store fillstore web shop --entry index.php --budget 4 --fill
expect_contains "$WORK/err" "POST login.php token=t0k3n&user=guest&password=password&lang=en&login=Log+in"
cp app.sqlite.before shop/app.sqlite
# --field: the user's value for a field by name (a login's password), not
# for the hidden token
run 0 "$CULPRIT" --store fieldstore web shop --entry index.php --budget 4 --field password=s3cret --field token=x
expect_contains "$WORK/err" "POST login.php token=t0k3n&user=guest&password=s3cret&lang=en&login=Log+in"
cp app.sqlite.before shop/app.sqlite
run 2 "$CULPRIT" --store fieldstore web shop --entry index.php --budget 4 --field =x
expect_contains "$WORK/err" "--field expects NAME=VALUE, not '=x'"
# --each-option (with --match values): the select's other option too
run 0 "$CULPRIT" --store optionstore web shop --entry index.php --budget 5 --each-option --match values
expect_contains "$WORK/err" "POST login.php token=t0k3n&user=guest&password=&lang=fr&login=Log+in"
cp app.sqlite.before shop/app.sqlite
# an entry with a query: the script is checked without it, the query sent
run 0 "$CULPRIT" --store querystore web shop --entry 'about.php?lang=fr' --budget 1
expect_contains "$WORK/err" "web-0001 pass GET about.php?lang=fr (state 0)"
run 0 "$CULPRIT" help web
expect_contains "$WORK/out" "usage: culprit web APPDIR --entry SCRIPT"

# With --fail-on error the warning does not fail: no failing request.
run 0 "$CULPRIT" --store errorstore web shop --entry index.php --budget 12 --fail-on error
expect_contains "$WORK/err" "culprit web: done: 12 requests (0 failing"

finish
