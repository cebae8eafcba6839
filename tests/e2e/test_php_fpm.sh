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

# fetch NAME QUERY [COOKIE]: one FastCGI request of test NAME, its body
# (the CGI headers cut off at the blank line).
fetch() {
    env -i SCRIPT_FILENAME="$WORK/site/greet.php" SCRIPT_NAME=/greet.php REQUEST_METHOD=GET \
        QUERY_STRING="$2" SERVER_PROTOCOL=HTTP/1.1 GATEWAY_INTERFACE=CGI/1.1 HTTP_X_CULPRIT_TEST="$1" \
        ${3:+HTTP_COOKIE="$3"} cgi-fcgi -bind -connect "$WORK/fpm.sock" | tr -d '\r' | sed '1,/^$/d'
}
greet_live_suite fetch

kill $server 2>/dev/null
wait $server 2>/dev/null
finish
