#!/bin/sh
# test_php_live.sh - a live server (docs/php.md, "Live servers";
# src/php/php_live.c, src/cli/test_live.c): PHP's built-in server, `php -S`
# on the loopback with culprit's extension collecting, serves the requests
# of an end-to-end suite played here with curl, each request carrying
# `X-Culprit-Test: NAME`; the suite judges each page and records the test
# with `culprit test --name NAME --verdict V --collect-dir DIR`.  The page
# is tests/e2e/php/greet.php (seeded fault at line 12: a German greeting
# does not escape the name): the failing test's request ranks it first,
# alone.  A test of two requests sums them; a request without the header
# belongs to no test; a test that made no request is an input error.  The
# server stops itself after 60 s at the latest, and is stopped at the end.
. "$(dirname "$0")/lib.sh"

need_culprit_php
if ! command -v curl >/dev/null 2>&1; then
    echo "$E2E_NAME: note: curl is not installed; skipping"
    finish
    exit 0
fi
mkdir site collect
cp "$TOP/tests/e2e/php/greet.php" site/
echo ready >site/ready.txt # a static file: asking for it runs no PHP

# Starts the server on a free port of the loopback: tries a few.  opcache
# on, as php -S has it by default: the extension turns it off per request.
server=
for try in 1 2 3 4 5; do
    port=$((20000 + ($$ * 7 + try * 1009) % 20000))
    CULPRIT_COLLECT_DIR="$WORK/collect" timeout 60 "$PHP_RUN" -d opcache.enable=1 -S "127.0.0.1:$port" -t site \
        >"$WORK/server.log" 2>&1 &
    server=$!
    waited=0
    while [ $waited -lt 50 ] && kill -0 $server 2>/dev/null &&
        ! curl -sf -o /dev/null "http://127.0.0.1:$port/ready.txt"; do
        sleep 0.1
        waited=$((waited + 1))
    done
    curl -sf -o /dev/null "http://127.0.0.1:$port/ready.txt" && break
    kill $server 2>/dev/null
    server=
done
trap '[ -n "$server" ] && kill $server 2>/dev/null; rm -rf "$WORK"' EXIT
if [ -z "$server" ]; then
    fail "php -S did not start: $(cat "$WORK/server.log")"
    finish
    exit 1
fi
pass

fetch() { # NAME QUERY [COOKIE]
    curl -s -H "X-Culprit-Test: $1" ${3:+-b "$3"} "http://127.0.0.1:$port/greet.php?$2"
}
curl -s -o /dev/null "http://127.0.0.1:$port/greet.php?name=nobody" # no test's
greet_live_suite fetch
# "two pages" ran line 9 (French) and 14 (English) in its two requests.
grep 'greet.php:9,' "$WORK/lines" | grep -q ',0,2,' && pass || fail "line 9: $(grep 'greet.php:9,' "$WORK/lines")"

# Recorded tests' directories are gone; the request of no test is in collect.
ls -d collect/live.* >/dev/null 2>&1 && fail "test directories left: $(ls collect)" || pass
[ "$(ls collect/*.dump | wc -l)" -eq 1 ] && pass || fail "expected the dump of 1 request of no test: $(ls collect)"

# A test without requests; bad usage.
run 2 "$CULPRIT" test --name missing --verdict pass --collect-dir collect
expect_contains "$WORK/err" "no request of test 'missing' in collect: a live server collecting there records the requests that carry the header 'X-Culprit-Test: missing'"
run 2 "$CULPRIT" test --name x --verdict maybe --collect-dir collect
expect_contains "$WORK/err" "--verdict expects pass, fail, error or skip, not 'maybe'"
run 2 "$CULPRIT" test --name x --verdict pass
expect_contains "$WORK/err" "give --collect-dir DIR"
run 2 "$CULPRIT" test --name x --verdict pass --collect-dir collect -- true
expect_contains "$WORK/err" "give no command"
run 2 "$CULPRIT" test --verdict pass --collect-dir collect
expect_contains "$WORK/err" "needs the test's --name"

kill $server 2>/dev/null
wait $server 2>/dev/null
server=
# opcache was on in the server and off for each collected request, quietly
grep -q opcache "$WORK/server.log" && fail "the server's log speaks of opcache: $(cat "$WORK/server.log")" || pass
finish
