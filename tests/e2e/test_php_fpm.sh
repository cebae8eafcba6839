#!/bin/sh
# test_php_fpm.sh - php-fpm as the live server (docs/php.md, "Live
# servers"): Debian's php-fpm with culprit's extension, two static workers
# on a Unix socket in the test's directory, driven over FastCGI by cgi-fcgi
# (what a web server in front of php-fpm sends: the script, the query, the
# request headers as HTTP_* parameters).  Each request of the suite carries
# X-Culprit-Test; `culprit test --verdict --collect-dir` records each test
# from the dumps the workers wrote, and the seeded fault of
# tests/e2e/php/greet.php (line 12) ranks first, alone, as with `php -S`.
# Skips only without php-fpm or cgi-fcgi (Debian: php8.2-fpm, libfcgi-bin).
. "$(dirname "$0")/lib.sh"
need_culprit_php
fpm=$(command -v php-fpm8.2 || command -v php-fpm || true)
if [ -z "$fpm" ] || ! command -v cgi-fcgi >/dev/null 2>&1; then
    echo "$E2E_NAME: note: php-fpm or cgi-fcgi is not installed (Debian: php8.2-fpm libfcgi-bin); skipping"
    finish
    exit 0
fi
mkdir site collect
cp "$TOP/tests/e2e/php/greet.php" site/
cat >fpm.conf <<END
[global]
error_log = $WORK/fpm.log
daemonize = no
[tests]
listen = $WORK/fpm.sock
pm = static
pm.max_children = 2
; the workers keep CULPRIT_COLLECT_DIR (php-fpm clears the environment otherwise)
clear_env = no
END
# -n: no php.ini, nothing but culprit's extension (and no opcache, which
# Debian's php-fpm enables); -R: the test may run as root.
CULPRIT_COLLECT_DIR="$WORK/collect" timeout 60 "$fpm" -n -R -y fpm.conf -d "extension=$BUILD_DIR/culprit.so" \
    >"$WORK/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$WORK"' EXIT
waited=0
while [ $waited -lt 100 ] && [ ! -S fpm.sock ] && kill -0 $server 2>/dev/null; do
    sleep 0.1
    waited=$((waited + 1))
done
if [ -S fpm.sock ]; then pass; else
    fail "php-fpm did not start: $(cat "$WORK/server.log" "$WORK/fpm.log" 2>/dev/null | tail -5)"
    finish
    exit 1
fi

page() { # GREETING
    printf '<html><head><title>greet</title></head><body>\n<h1>%s</h1>\n</body></html>\n' "$1"
}
# request NAME EXPECTED-GREETING QUERY [COOKIE]: one FastCGI request of test
# NAME, judged by its page (the CGI headers cut off at the blank line).
request() {
    env -i SCRIPT_FILENAME="$WORK/site/greet.php" SCRIPT_NAME=/greet.php REQUEST_METHOD=GET \
        QUERY_STRING="$3" SERVER_PROTOCOL=HTTP/1.1 GATEWAY_INTERFACE=CGI/1.1 HTTP_X_CULPRIT_TEST="$1" \
        ${4:+HTTP_COOKIE="$4"} cgi-fcgi -bind -connect "$WORK/fpm.sock" |
        tr -d '\r' | sed '1,/^$/d' >"$WORK/page.$1"
    page "$2" >"$WORK/expected.$1"
    cmp -s "$WORK/page.$1" "$WORK/expected.$1" || echo "$1" >>"$WORK/failed"
}
record_test() { # NAME
    if grep -qx "$1" "$WORK/failed" 2>/dev/null; then
        run 0 "$CULPRIT" test --name "$1" --verdict fail --message "unexpected page" --collect-dir collect
    else
        run 0 "$CULPRIT" test --name "$1" --verdict pass --collect-dir collect
    fi
}
request english 'Hello, Ann' 'name=Ann'
request french 'Bonjour, Luc' 'name=Luc' 'lang=fr'
request german 'Hallo, Karl' 'name=Karl' 'lang=de'
request 'german markup' 'Hallo, &lt;Ann &amp; Bob&gt;' 'name=%3CAnn+%26+Bob%3E' 'lang=de'
request 'two pages' 'Hello, guest' ''
request 'two pages' 'Bonjour, guest' '' 'lang=fr'
for name in english french german 'german markup' 'two pages'; do
    record_test "$name"
    expect_contains "$WORK/err" "recorded '$name'"
done
expect_contains "$WORK/err" "recorded 'two pages' (2 requests): pass"
run 0 "$CULPRIT" tests
[ "$(grep -c '^pass' "$WORK/out")" -eq 4 ] && pass || fail "expected 4 passing tests: $(cat "$WORK/out")"
grep -q '^fail.*german markup' "$WORK/out" && pass || fail "german markup should fail: $(cat "$WORK/out")"
rank_into lines --kind line --formula ochiai --format csv
case $(sed -n 2p "$WORK/lines") in
1,*greet.php:12,*) pass ;;
*) fail "expected greet.php:12 alone first, got $(sed -n 2,3p "$WORK/lines")" ;;
esac
case $(sed -n 3p "$WORK/lines") in 1,*) fail "greet.php:12 is tied: $(sed -n 3p "$WORK/lines")" ;; *) pass ;; esac

kill $server 2>/dev/null
wait $server 2>/dev/null
finish
