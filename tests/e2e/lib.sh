# lib.sh - helpers for the end-to-end tests, sourced by tests/e2e/test_*.sh.
# Each test script runs in a fresh temporary directory ($WORK; $TOP is the
# repository), calls the
# binary through $CULPRIT, and ends with `finish`, which prints the
# "NAME: N passed, N failed" line that tests/run.sh adds up.
set -u
: "${CULPRIT:?set CULPRIT to the culprit binary}"
E2E_NAME=$(basename "$0" .sh)
TOP=$(cd "$(dirname "$0")/../.." && pwd) # the repository, before we leave for $WORK
WORK=$(mktemp -d "${TMPDIR:-/tmp}/culprit-e2e.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
export CULPRIT_STORE="$WORK/.culprit"
e2e_passed=0
e2e_failed=0

pass() { e2e_passed=$((e2e_passed + 1)); }
fail() {
    e2e_failed=$((e2e_failed + 1))
    echo "$E2E_NAME: FAIL: $*" >&2
}

# run EXPECTED_STATUS command... : runs the command, keeps stdout in $WORK/out
# and stderr in $WORK/err, and checks the exit status.
run() {
    expected=$1
    shift
    "$@" >"$WORK/out" 2>"$WORK/err"
    actual=$?
    if [ "$actual" -eq "$expected" ]; then pass; else
        fail "'$*' exited $actual, expected $expected; stderr: $(head -c 500 "$WORK/err")"
    fi
}

# expect_file_equals FILE TEXT : the whole file equals TEXT (plus a final newline).
expect_file_equals() {
    if [ "$(cat "$1")" = "$2" ]; then pass; else
        fail "$1 is:
$(head -c 2000 "$1")
expected:
$2"
    fi
}

# expect_contains FILE TEXT : FILE contains the fixed string TEXT.
expect_contains() {
    if grep -qF -- "$2" "$1"; then pass; else fail "$1 lacks '$2'; it has: $(head -c 1000 "$1")"; fi
}

# expect_block FILE TEXT : FILE contains TEXT, line breaks and all (grep -F
# would take each line of TEXT as a pattern of its own).
expect_block() {
    if python3 -c 'import sys; sys.exit(sys.argv[2] not in open(sys.argv[1], errors="replace").read())' \
        "$1" "$2"; then pass; else fail "$1 lacks:
$2
it has:
$(head -c 1500 "$1")"; fi
}

# expect_line_count FILE N
expect_line_count() {
    n=$(wc -l <"$1")
    if [ "$n" -eq "$2" ]; then pass; else fail "$1 has $n lines, expected $2"; fi
}

# expect_same FILE1 FILE2 : byte-identical files.
expect_same() {
    if cmp -s "$1" "$2"; then pass; else fail "$1 and $2 differ: $(diff "$1" "$2" | head -20)"; fi
}

# rank_into NAME ARGS... : `culprit rank ARGS` exits 0 and writes nothing
# on stderr; its stdout becomes $WORK/NAME.
rank_into() {
    rank_into_name=$1
    shift
    run 0 "$CULPRIT" rank "$@"
    cp "$WORK/out" "$WORK/$rank_into_name"
    if [ -s "$WORK/err" ]; then fail "rank $* wrote on stderr: $(head -c 300 "$WORK/err")"; else pass; fi
}

# need_culprit_cc [TOOL...]: sets $culprit_cc (beside $CULPRIT); when it,
# python3 or one of the TOOLs is missing, says so and ends the test, skipped.
need_culprit_cc() {
    culprit_cc="$(dirname "$CULPRIT")/culprit-cc"
    missing=
    [ -x "$culprit_cc" ] || missing=" culprit-cc"
    for tool in python3 "$@"; do
        command -v "$tool" >/dev/null || missing="$missing $tool"
    done
    if [ -n "$missing" ]; then
        echo "$E2E_NAME: note: missing$missing; skipping"
        finish
        exit 0
    fi
}

# need_culprit_php: sets $BUILD_DIR and $PHP_RUN (culprit-php beside
# $CULPRIT); when PHP is not installed, says so and ends the test, skipped;
# when PHP is there but the extension is not built, fails (CI installs PHP,
# so a missing extension is a build defect, not an environment's limit).
need_culprit_php() {
    BUILD_DIR=$(cd "$(dirname "$CULPRIT")" && pwd)
    PHP_RUN="$BUILD_DIR/culprit-php"
    if ! command -v php-config >/dev/null 2>&1 || ! command -v php >/dev/null 2>&1; then
        echo "$E2E_NAME: note: php-config or php is not installed (Debian: php8.2-cli php8.2-dev); skipping"
        finish
        exit 0
    fi
    if [ ! -x "$PHP_RUN" ] || [ ! -f "$BUILD_DIR/culprit.so" ]; then
        fail "PHP is installed but $BUILD_DIR/culprit.so or culprit-php is not built (make php)"
        finish
        exit 1
    fi
}

# need_php_cgi: need_culprit_php, and Debian's php-cgi (requests through
# culprit-php-cgi); skips the test without it.
need_php_cgi() {
    need_culprit_php
    if ! command -v php-cgi >/dev/null 2>&1; then
        echo "$E2E_NAME: note: php-cgi is not installed (Debian: php8.2-cgi); skipping"
        finish
        exit 0
    fi
}

# hit_lines JSON: "file:line" (the file's basename) for each line the
# first test of a `culprit export json` file hit, sorted.
hit_lines() {
    python3 -c '
import json, os, sys
d = json.load(open(sys.argv[1]))
run = d["tests"][0]
for e in sorted({(os.path.basename(d["elements"][i]["file"]), d["elements"][i]["line"])
                 for i in run["hits"] if d["elements"][i]["kind"] == "line"}):
    print("%s:%d" % e)' "$1"
}

# test_field STORE COLUMN: that column of the first row of `culprit tests
# --format csv`; expect_test_field STORE COLUMN EXPECTED checks it.
test_field() {
    "$CULPRIT" --store "$1" tests --format csv | python3 -c '
import csv, sys
rows = list(csv.DictReader(sys.stdin))
print(rows[0][sys.argv[1]] if rows else "")' "$2"
}
expect_test_field() {
    actual=$(test_field "$1" "$2")
    if [ "$actual" = "$3" ]; then pass; else fail "$1: $2 is '$actual', expected '$3'"; fi
}

# greet_live_suite FETCH: the end-to-end suite of a live server serving
# tests/e2e/php/greet.php (test_php_live.sh with php -S, test_php_fpm.sh
# with php-fpm), collecting into $WORK/collect.  `FETCH NAME QUERY [COOKIE]`
# sends one request of test NAME (header X-Culprit-Test: NAME) and prints
# the page's body.  Each page is judged, each test recorded with `culprit
# test --verdict --collect-dir`, and the faulty line 12 must rank first,
# alone; the rank CSV is left in $WORK/lines.
greet_live_suite() {
    live_fetch=$1
    live_request english 'Hello, Ann' 'name=Ann'
    live_request french 'Bonjour, Luc' 'name=Luc' 'lang=fr'
    live_request german 'Hallo, Karl' 'name=Karl' 'lang=de'
    live_request 'german markup' 'Hallo, &lt;Ann &amp; Bob&gt;' 'name=%3CAnn+%26+Bob%3E' 'lang=de'
    live_request 'two pages' 'Hello, guest' ''
    live_request 'two pages' 'Bonjour, guest' '' 'lang=fr'
    for live_name in english french german 'german markup' 'two pages'; do
        if grep -qx "$live_name" "$WORK/failed" 2>/dev/null; then
            run 0 "$CULPRIT" test --name "$live_name" --verdict fail --message "unexpected page" --collect-dir collect
        else
            run 0 "$CULPRIT" test --name "$live_name" --verdict pass --collect-dir collect
        fi
        expect_contains "$WORK/err" "recorded '$live_name'"
    done
    expect_contains "$WORK/err" "recorded 'two pages' (2 requests): pass"
    run 0 "$CULPRIT" tests
    [ "$(grep -c '^pass' "$WORK/out")" -eq 4 ] && pass || fail "expected 4 passing tests: $(cat "$WORK/out")"
    grep -q '^fail.*german markup' "$WORK/out" && pass || fail "german markup should fail: $(cat "$WORK/out")"
    expect_contains "$WORK/out" "unexpected page"
    rank_into lines --kind line --formula ochiai --format csv
    case $(sed -n 2p "$WORK/lines") in
    1,*greet.php:12,*) pass ;;
    *) fail "expected greet.php:12 alone first, got $(sed -n 2,3p "$WORK/lines")" ;;
    esac
    case $(sed -n 3p "$WORK/lines") in 1,*) fail "greet.php:12 is tied: $(sed -n 3p "$WORK/lines")" ;; *) pass ;; esac
}
# live_request NAME EXPECTED-GREETING QUERY [COOKIE]: one request, judged by its page.
live_request() {
    "$live_fetch" "$1" "$3" "${4:-}" >"$WORK/page.$1"
    printf '<html><head><title>greet</title></head><body>\n<h1>%s</h1>\n</body></html>\n' "$2" >"$WORK/expected.$1"
    cmp -s "$WORK/page.$1" "$WORK/expected.$1" || echo "$1" >>"$WORK/failed"
}

finish() {
    echo "$E2E_NAME: $e2e_passed passed, $e2e_failed failed"
    [ "$e2e_failed" -eq 0 ]
}
