# test_web_mariadb.sh - culprit web --mariadb SCHEMA (docs/web.md, "MariaDB";
# issue 24 item 1): tests/e2e/php/webmaria is a shop on MariaDB whose list
# page has a seeded fault (list.php:12, an undefined array key) that shows
# only once an item was posted into the database.  culprit starts a
# disposable server on a socket, loads the schema, keeps the databases per
# state (a dump in each state's db/mariadb.sql) and stops the server at the
# end: the exploration must fail the list only in a state with an item,
# rank list.php:12 with the loop that shows items, leave no server running,
# and say clearly what is wrong with a missing or a bad schema.  Skips
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

run 1 "$CULPRIT" web app --entry index.php --budget 12 --mariadb app/schema.sql
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
