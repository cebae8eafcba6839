# test_web_mariadb.sh - culprit web --mariadb SCHEMA (docs/web.md, "MariaDB";
# issue 24 item 1): tests/e2e/php/webmaria is a shop on MariaDB whose list
# page has a seeded fault (list.php:12, an undefined array key) that shows
# only once an item was posted into the database.  culprit starts a
# disposable server on a socket, loads the schema, keeps the databases per
# state (a dump in each state's db/mariadb.sql) and stops the server at the
# end: the exploration must fail the list only in a state with an item,
# rank list.php:12 with the loop that shows items, leave no server running,
# and say clearly what is wrong with a missing or a bad schema.  The
# explored requests must replay under culprit run (STORE/web/tests.json,
# and an --export moved elsewhere), two at a time, each with a server of
# its own that culprit-php-cgi --state starts from the state's dump: the
# same verdicts and messages, the page alone on stdout, no server or
# directory left, also when the request is interrupted; a dump that is not
# SQL is an error of its tests alone, with the server's message.  Skips
# without php-cgi, and without MariaDB's programs or PHP's pdo_mysql
# (make check installs them: scripts/install-deps.sh).
. "$(dirname "$0")/lib.sh"

need_php_cgi
for program in mariadbd mariadb-install-db mariadb mariadb-dump; do
    command -v $program >/dev/null 2>&1 || PATH=$PATH:/usr/sbin command -v $program >/dev/null 2>&1 || {
        echo "$E2E_NAME: skipped: $program is missing (Debian: mariadb-server-core, mariadb-client)"
        exit 0
    }
done
PATH=$PATH:/usr/sbin
php-cgi -m 2>/dev/null | grep -q pdo_mysql || {
    echo "$E2E_NAME: skipped: php-cgi has no pdo_mysql (Debian: php8.2-mysql)"
    exit 0
}
cp -R "$TOP/tests/e2e/php/webmaria" app
# the mariadbd processes running (from /proc: procps may not be installed)
servers() {
    n=0
    for comm in /proc/[0-9]*/comm; do
        [ "$(cat "$comm" 2>/dev/null)" = mariadbd ] && n=$((n + 1))
    done
    echo $n
}
servers_before=$(servers)

run 1 "$CULPRIT" web app --entry index.php --budget 12 --mariadb app/schema.sql --export suite
cp "$WORK/err" web.err
expect_contains web.err "pass POST add.php name=pen&price=3"
# the list passes with no item, fails in a state whose dump has one
first_list=$(grep -m1 ' GET list.php (state' web.err)
case $first_list in *" pass GET list.php (state 0)"*) pass ;; *) fail "the first list: $first_list" ;; esac
grep -q ' fail GET list.php (state [1-9]' web.err && pass || fail "the list never failed after an item: $(cat web.err)"
run 0 "$CULPRIT" failures
expect_contains "$WORK/out" 'Undefined array key "tax" at list.php:12'
rank_into ranked --format csv
grep -q '^[1-4],[^,]*,[^,]*/list.php:12,' "$WORK/ranked" && pass ||
    fail "expected list.php:12 within the first 4 (tied with the loop), got $(sed -n 2,6p "$WORK/ranked")"
# each state keeps its databases: the dumps of the states differ by the rows
grep -l "INSERT INTO \`items\`" "$CULPRIT_STORE"/web/states/*/db/mariadb.sql >with-rows
[ -s with-rows ] && pass || fail "no state's dump has a row: $(ls "$CULPRIT_STORE"/web/states/*/db)"
grep -L "INSERT INTO \`items\`" "$CULPRIT_STORE"/web/states/0/db/mariadb.sql | grep -q . && pass ||
    fail "the first state's dump has rows"
# the server is gone
[ "$(servers)" = "$servers_before" ] && pass || fail "a mariadbd is left: $(servers) running, $servers_before before"

# ---- replays: culprit-php-cgi --state starts a server for each request ----
# name, verdict and message of each test in store $1, the application's
# directory left out of the messages (an --export replays from elsewhere)
verdicts() {
    "$CULPRIT" --store "$1" tests --format csv | python3 -c '
import csv, re, sys
for row in csv.DictReader(sys.stdin):
    print(row["name"], row["verdict"], re.sub(r"/[^ ]*/", "", row["message"]))' | sort
}
# the tests of suite $1 that run in state $2
tests_in_state() {
    python3 -c '
import json, sys
for t in json.load(open(sys.argv[1])):
    if t["request"]["state"].endswith("states/" + sys.argv[2]):
        print(t["name"])' "$1" "$2"
}
# no directory of a request left in $TMPDIR: only the template cache
leftovers() {
    ls "$TMPDIR" | grep -v '^culprit-mariadb-cache\.' || true
}
verdicts "$CULPRIT_STORE" >explored.verdicts
grep -q ' fail PHP Warning: Undefined array key "tax" at list.php:12' explored.verdicts && pass ||
    fail "no failing list explored: $(cat explored.verdicts)"
mkdir tmp
export TMPDIR="$WORK/tmp"
PATH="$BUILD_DIR:$PATH" run 1 "$CULPRIT" --store replay run --jobs 2 --tests "$CULPRIT_STORE/web/tests.json"
verdicts replay >replayed.verdicts
expect_same replayed.verdicts explored.verdicts
# state 0's list passes, a list in a state with an item fails the same way
first_list=$(tests_in_state "$CULPRIT_STORE/web/tests.json" 0 | while read -r name; do
    grep "^$name " replayed.verdicts; done | grep -m1 ' pass ')
[ -n "$first_list" ] && pass || fail "no test of state 0 passed in the replay: $(cat replayed.verdicts)"
grep -q ' fail PHP Warning: Undefined array key "tax" at list.php:12' replayed.verdicts && pass ||
    fail "the list did not fail in the replay: $(cat replayed.verdicts)"
[ -z "$(leftovers)" ] && pass || fail "the replays left in TMPDIR: $(leftovers)"
cache="$TMPDIR/culprit-mariadb-cache.$(id -u)"
[ -n "$(find "$cache" -prune -type d -perm 700)" ] && pass || fail "no private template cache: $(ls -la "$TMPDIR")"
[ "$(ls -d "$cache"/build.* | wc -l)" -eq 1 ] && pass || fail "not one template: $(ls -la "$cache")"

# the page alone on stdout, from the state's rows (state 1: one pen)
PATH="$BUILD_DIR:$PATH" run 0 culprit-php-cgi --state suite/states/1 app/list.php
printf '<!DOCTYPE html>\n<html><head><title>items</title></head><body>\n<ul>\n<li>pen</li>\n</ul>\n<p>total 3</p>\n<p><a href="index.php">back</a></p></body></html>\n' >list.expected
expect_same "$WORK/out" list.expected
[ "$(servers)" = "$servers_before" ] && pass || fail "a mariadbd is left after a request: $(servers) running"
[ -z "$(leftovers)" ] && pass || fail "a request left in TMPDIR: $(leftovers)"
# a cache that others could write is not used: the server is installed
# for the request, and nothing is put there
mkdir -p tmp2/culprit-mariadb-cache.$(id -u)
chmod 777 tmp2/culprit-mariadb-cache.$(id -u)
TMPDIR="$WORK/tmp2" PATH="$BUILD_DIR:$PATH" run 0 culprit-php-cgi --state suite/states/1 app/list.php
expect_same "$WORK/out" list.expected
[ -z "$(ls tmp2/culprit-mariadb-cache.$(id -u))" ] && pass || fail "a shared cache was used: $(ls tmp2/*)"

# --export: the suite and the application moved together replay the same
mkdir moved && mv app suite moved/
PATH="$BUILD_DIR:$PATH" run 1 "$CULPRIT" --store movedstore run --jobs 2 --tests moved/suite/tests.json
verdicts movedstore >moved.verdicts
expect_same moved.verdicts explored.verdicts
[ "$(servers)" = "$servers_before" ] && pass || fail "a mariadbd is left after the replays: $(servers) running"
[ -z "$(leftovers)" ] && pass || fail "the moved replays left in TMPDIR: $(leftovers)"

# interrupted (a timeout's SIGTERM to its process group): the server is
# stopped and its directory removed all the same
mkdir slow
printf '<?php\nsleep(3);\necho "late\\n";\n' >slow/slow.php
PATH="$BUILD_DIR:$PATH" setsid culprit-php-cgi --state moved/suite/states/1 slow/slow.php >slow.out 2>slow.err &
slow=$!
tries=0
until [ -f tmp/culprit-mariadb.*/mariadbd.pid ] || [ $tries -ge 100 ]; do sleep 0.1; tries=$((tries + 1)); done
server=$(cat tmp/culprit-mariadb.*/mariadbd.pid 2>/dev/null)
[ -n "$server" ] && pass || fail "no server started for the slow request: $(cat slow.err)"
sleep 0.3
kill -TERM -"$slow"
wait "$slow"
status=$?
[ "$status" -eq 143 ] && pass || fail "the interrupted request exited $status, expected 143"
[ -n "$server" ] && [ ! -d "/proc/$server" ] && pass || fail "the interrupted request's server $server is left"
[ -z "$(leftovers)" ] && pass || fail "the interrupted request left in TMPDIR: $(leftovers)"

# a dump that is not SQL: its state's tests are errors with the server's
# message, the others as they were
cp -R moved/suite moved/bad
echo 'CREATE DATABSE x;' >moved/bad/states/1/db/mariadb.sql
tests_in_state moved/bad/tests.json 1 >state1
[ -s state1 ] && pass || fail "no test in state 1"
PATH="$BUILD_DIR:$PATH" run 1 "$CULPRIT" --store badstore run --jobs 2 --tests moved/bad/tests.json
verdicts badstore >bad.verdicts
grep -v -F -f state1 bad.verdicts >bad.others
grep -v -F -f state1 explored.verdicts >explored.others
expect_same bad.others explored.others
"$CULPRIT" --store badstore tests --format csv >bad.csv
for name in $(cat state1); do
    grep -q "^$name,error,[^,]*,99,,hard error (exit status 99): culprit-php-cgi: --state [^ ]*: the server refused its db/mariadb.sql: ERROR 1064 (42000) at line 1" bad.csv && pass ||
        fail "$name is not an error with the server's message: $(grep "^$name," bad.csv)"
done
PATH="$BUILD_DIR:$PATH" run 99 culprit-php-cgi --state moved/bad/states/1 moved/app/list.php
expect_contains "$WORK/err" "the server refused its db/mariadb.sql: ERROR 1064"
[ -s "$WORK/out" ] && fail "a broken state wrote on stdout: $(cat "$WORK/out")" || pass
[ "$(servers)" = "$servers_before" ] && pass || fail "a mariadbd is left after a bad dump: $(servers) running"
[ -z "$(leftovers)" ] && pass || fail "a bad dump left in TMPDIR: $(leftovers)"
unset TMPDIR
mv moved/app app

# ---- bad input ----
run 2 "$CULPRIT" --store bad web app --entry index.php --budget 3 --mariadb nope.sql
expect_contains "$WORK/err" "--mariadb nope.sql: cannot read it"
echo 'CREATE DATABSE x;' >bad.sql
run 2 "$CULPRIT" --store bad web app --entry index.php --budget 3 --mariadb bad.sql
expect_contains "$WORK/err" "--mariadb bad.sql: the server refused it: ERROR 1064"
[ "$(servers)" = "$servers_before" ] && pass || fail "a mariadbd is left after a bad schema"
# without --mariadb the application cannot reach its database: said once
run 1 "$CULPRIT" --store nodb web app --entry index.php --budget 4
expect_contains "$WORK/err" "the application cannot reach its database"

finish
