#!/bin/sh
# test_php_figure1.sh - seeds/000 Figure 1 in PHP (tests/e2e/php/figure1/:
# index.php, constants.php, login.php, view.php): the administrator's view
# opens an <h2> it never closes.  Requests through culprit-php-cgi, judged
# by the HTML oracle (libtidy) and with PHP warnings failing; the view
# pages take their session state (user, password, administrator or not)
# from session files made here, as login.php leaves them.  Tarantula ties
# the faulty line with the other lines only the administrator runs; S_comb,
# through the output map of the malformed line, ranks it first, alone
# (issue 21 acceptance).  Skips only without PHP or php-cgi.
. "$(dirname "$0")/lib.sh"

need_php_cgi
PATH="$BUILD_DIR:$PATH" # the manifest's requests run culprit-php-cgi
export PATH
cp -R "$TOP/tests/e2e/php/figure1" site
fault_line=$(grep -n 'the fault' site/view.php | cut -d: -f1)

# The sessions login.php leaves (PHP's "php" serializer), one per view test.
mkdir sessions
session() { # ID USER PASSWORD [admin]
    printf 'user|s:%d:"%s";pw|s:%d:"%s";' ${#2} "$2" ${#3} "$3" >"sessions/sess_$1"
    [ -z "${4:-}" ] || printf 'type|s:5:"admin";' >>"sessions/sess_$1"
}
session alice1 alice wonder
session alice2 alice wonder
session alice3 alice wonder
session admin1 admin secret admin
session admin2 admin secret admin

test_line() { # NAME SCRIPT [REQUEST MEMBERS]
    printf '  {"name": "%s", "request": {"script": "site/%s"%s}, "oracle": "html",' "$1" "$2" "${3:+, $3}"
    printf ' "env": {"CULPRIT_PHP_FAIL_ON": "warning", "FIGURE1_SESSIONS": "%s"}}' "$WORK/sessions"
}
{
    echo '['
    test_line index index.php; echo ,
    test_line login_alice login.php '"post": {"user": "alice", "pw": "wonder"}'; echo ,
    test_line login_admin login.php '"post": {"user": "admin", "pw": "secret"}'; echo ,
    test_line login_wrong login.php '"post": {"user": "alice", "pw": "guess"}'; echo ,
    test_line view_guest view.php; echo ,
    test_line view_alice_news view.php '"get": {"topic": "news"}, "cookies": {"PHPSESSID": "alice1"}'; echo ,
    test_line view_alice_sports view.php '"get": {"topic": "sports"}, "cookies": {"PHPSESSID": "alice2"}'; echo ,
    test_line view_alice_other view.php '"get": {"topic": "weather"}, "cookies": {"PHPSESSID": "alice3"}'; echo ,
    test_line view_admin_news view.php '"get": {"topic": "news"}, "cookies": {"PHPSESSID": "admin1"}'; echo ,
    test_line view_admin_sports view.php '"get": {"topic": "sports"}, "cookies": {"PHPSESSID": "admin2"}'
    echo ']'
} >tests.json

run 1 "$CULPRIT" run --tests tests.json -j 2
expect_contains "$WORK/out" "8 passed, 2 failed"
run 0 "$CULPRIT" tests --format csv
grep '^view_admin_news,fail' "$WORK/out" | grep -q 'h2' && pass ||
    fail "view_admin_news should fail on the unclosed h2: $(grep view_admin_news "$WORK/out")"

# Tarantula ties the fault with the administrator's other line; S_comb lifts it alone.
run 0 "$CULPRIT" rank --technique scomb --format csv
first=$(awk -F, 'NR == 2' "$WORK/out")
case "$first" in
1,*view.php:$fault_line,*) pass ;;
*) fail "scomb ranks first: $first" ;;
esac
second=$(awk -F, 'NR == 3 { print $1 }' "$WORK/out")
if [ "${second:-1}" -gt 1 ]; then pass; else fail "scomb ties the fault: $(head -4 "$WORK/out")"; fi
run 0 "$CULPRIT" rank --formula tarantula --kind line --format csv
tied=$(awk -F, -v line="view.php:$fault_line" 'index($3, line) { rank = $1 } END { print rank }' "$WORK/out")
if [ "${tied:-1}" -gt 1 ]; then pass; else fail "Tarantula already ranks the fault alone first: $(head -4 "$WORK/out")"; fi

finish
