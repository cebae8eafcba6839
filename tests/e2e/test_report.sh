#!/bin/sh
# test_report.sh - `culprit report` (HTML, SARIF, JSON) and `culprit rank` on a
# terminal (docs/report.md).
#
# The HTML is rendered in headless Chromium (Debian's chromium, installed
# here when missing); the DOM it rendered is checked for the known faulty
# line at the top of the ranking, for the failing test's expected-against-
# actual diff (the tests panel and the output map), and for an injected
# <script> line shown as text, and screenshots are kept for a person to
# look at (mid-diff.png: the ranking beside the failing test's diff).  The SARIF is
# validated against the official SARIF 2.1.0 schema, shipped in the npm
# package @microsoft/jest-sarif, with ajv; the JSON against
# docs/report-schema.json.  npm packages go to a cache outside the repo
# ($CULPRIT_TEST_CACHE, default ~/.cache/culprit-tests), so after the first
# run the test needs no network.  When a tool cannot be installed, the test
# fails saying so: it never passes without having checked.
. "$(dirname "$0")/lib.sh"
BIN=$(dirname "$CULPRIT")
CACHE=${CULPRIT_TEST_CACHE:-$HOME/.cache/culprit-tests}
SHOTS=${CULPRIT_TEST_OUTPUT:-$TOP/build/test-output}/report
mkdir -p "$SHOTS"

# ---- tools ----
need_apt() { # command package...
    command -v "$1" >/dev/null 2>&1 && return 0
    shift
    [ "$(id -u)" -eq 0 ] || return 1
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"; } \
        >"$WORK/apt.log" 2>&1
}
tools_ok=1
if ! need_apt chromium chromium; then
    fail "chromium is missing and could not be installed (apt-get install chromium): $(tail -3 "$WORK/apt.log" 2>/dev/null)"
    tools_ok=0
fi
if ! need_apt npm nodejs npm; then
    fail "node/npm are missing and could not be installed (apt-get install nodejs npm)"
    tools_ok=0
fi
SARIF_SCHEMA=$CACHE/sarif-schema-2.1.0.json
if [ $tools_ok -eq 1 ] && { [ ! -d "$CACHE/node_modules/ajv-draft-04" ] || [ ! -f "$SARIF_SCHEMA" ]; }; then
    mkdir -p "$CACHE"
    if ! (cd "$CACHE" && npm install --prefix "$CACHE" --no-save --no-audit --no-fund --ignore-scripts \
        ajv@8 ajv-formats@3 ajv-draft-04@1 >"$WORK/npm.log" 2>&1 &&
        npm pack --pack-destination "$CACHE" @microsoft/jest-sarif@1.0.0-beta.0 >>"$WORK/npm.log" 2>&1 &&
        tar -xzf microsoft-jest-sarif-1.0.0-beta.0.tgz -O package/lib/schemas/sarif-2.1.0-rtm.5.json \
            >"$SARIF_SCHEMA.tmp" && mv "$SARIF_SCHEMA.tmp" "$SARIF_SCHEMA"); then
        fail "cannot install ajv and the SARIF schema from npm into $CACHE (offline?): $(tail -5 "$WORK/npm.log")"
        tools_ok=0
    fi
fi
export NODE_PATH="$CACHE/node_modules"
CHECK="$TOP/tests/e2e/report_check.js"

# chromium_run OUT ARGS... : headless Chromium with a fresh profile, no network services.
chromium_run() {
    out=$1
    shift
    profile=$(mktemp -d "$WORK/profile.XXXXXX")
    timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$profile" "$@" >"$out" 2>"$WORK/chromium.err"
}

validate() { # sarif|json SCHEMA FILE
    if node "$CHECK" "$1" "$2" "$3" >"$WORK/check.out" 2>&1; then pass; else
        fail "$3 does not validate against $2: $(head -c 1500 "$WORK/check.out")"
    fi
}

# ---- subject 1: mid.c, its fault on line 12 ----
"$BIN/culprit-cc" -O2 -o mid "$TOP/examples/mid/mid.c" || fail "culprit-cc failed on mid.c"
for input in "3 3 5" "1 2 3" "3 2 1" "5 5 5" "5 3 4" "2 1 3"; do
    name=mid_$(echo "$input" | tr ' ' _)
    # shellcheck disable=SC2086
    "$CULPRIT" test --name "$name" --expect "$TOP/examples/mid/expected/$name.out" -- ./mid $input >/dev/null 2>&1
done
run 0 "$CULPRIT" report --html html --sarif mid.sarif --json mid.json --source-root "$TOP/examples/mid"
expect_contains out "html/index.html"
expect_contains out "mid.sarif"
expect_contains mid.json '"schema": "culprit-report"'
expect_contains mid.sarif '"uri": "mid.c", "uriBaseId": "SRCROOT"'
expect_contains mid.sarif '"failingTests": ["mid_2_1_3"]'
# the failing test's expected line beside the actual one
if python3 - <<'EOF'; then pass; else fail "mid.json: no differences for mid_2_1_3: $(grep -o '"name": "mid_2_1_3".*' mid.json | head -c 600)"; fi
import json
tests = {t["name"]: t for t in json.load(open("mid.json"))["tests"]}
assert tests["mid_2_1_3"]["differences"] == [{"kind": "changed", "actual_line": 1, "expected_line": 1,
    "expected": "2", "actual": "1", "message": None, "no_newline": None}], tests["mid_2_1_3"]
assert tests["mid_2_1_3"]["differences_omitted"] == 0 and tests["mid_3_3_5"]["differences"] == []
EOF
run 2 "$CULPRIT" report
run 0 "$CULPRIT" report --json --technique none --formula tarantula
expect_contains out '"name": "tarantula"'

# Terminal: colors and source text on a tty (script(1) gives one), the old plain rows in a pipe.
if command -v script >/dev/null 2>&1; then
    TERM=xterm script -qc "$CULPRIT rank --formula tarantula" /dev/null </dev/null >tty.out 2>&1
    expect_contains tty.out "$(printf '\033[1;38;5;')"
    expect_contains tty.out "m = y; /* the fault: should be m = x */"
    expect_contains tty.out "(technique tuples, formula tarantula, 1 failing, 5 passing tests; tied entries share the worst rank)"
    NO_COLOR=1 TERM=xterm script -qc "$CULPRIT rank --formula tarantula" /dev/null </dev/null >tty-plain.out 2>&1
    if grep -q "$(printf '\033')" tty-plain.out; then fail "NO_COLOR still colors"; else pass; fi
else
    fail "script(1) (util-linux) is needed to test terminal output"
fi
run 0 "$CULPRIT" rank --kind line --formula tarantula --top 1
expect_contains out "mid.c:12"
expect_contains out "ef=1 ep=1"
if grep -q "$(printf '\033')" out; then fail "piped rank output has escape codes"; else pass; fi

# ---- subject 2: a source line that would end a <script> element ----
cat >xss.c <<'CODE'
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "bad") == 0) {
        puts("</script><script>alert(1)</script>");
        puts("</script><script>document.body.dataset.pwned='1'</script><!--");
        return 1;
    }
    puts("ok");
    return 0;
}
CODE
mkdir -p xss && cd xss && export CULPRIT_STORE="$WORK/xss/.culprit"
"$BIN/culprit-cc" -o xss ../xss.c || fail "culprit-cc failed on xss.c"
"$CULPRIT" test --name good -- ./xss good >/dev/null 2>&1
"$CULPRIT" test --name bad -- ./xss bad >/dev/null 2>&1
# markup in the expected output, shown in the diff, must stay text too
printf '<b id="injected">bold</b>\n' >expected-markup
"$CULPRIT" test --name markup --expect expected-markup -- ./xss good >/dev/null 2>&1
run 0 "$CULPRIT" report --html html --json xss.json --sarif xss.sarif --source-root "$WORK"
cd "$WORK" && export CULPRIT_STORE="$WORK/.culprit"

# ---- subject 3: imported spectra whose sources are not here ----
run 0 "$CULPRIT" --store imported import gzoltar --matrix "$TOP/examples/mid/matrix.txt" \
    --spectra "$TOP/examples/mid/spectra.csv" --tests "$TOP/examples/mid/tests.csv"
run 0 "$CULPRIT" --store imported report --html imported --json imported.json
expect_contains imported.json '"path": "mid.c", "found": false, "lines": null'

# ---- subject 4: 50,000 lines ----
awk 'BEGIN { print "int big(int x)"; print "{"; for (i = 3; i <= 49999; i++) printf "    x = x * 3 + %d; /* line %d */\n", i, i; print "}" }' >big.c
awk 'BEGIN { print "name"; for (i = 3; i <= 49999; i++) print "big.c:" i }' >big-spectra.csv
# 20 tests; test t runs every line, except that only failing tests (t < 4) run line 31337.
awk 'BEGIN { srand(7); for (t = 0; t < 20; t++) { row = ""; for (i = 3; i <= 49999; i++) {
        hit = (i == 31337) ? (t < 4) : (rand() < 0.6); row = row (hit ? "1 " : "0 ") }
        print row (t < 4 ? "-" : "+") } }' >big-matrix.txt
run 0 "$CULPRIT" --store big import gzoltar --matrix big-matrix.txt --spectra big-spectra.csv
start=$(date +%s%N)
run 0 "$CULPRIT" --store big report --html big --json big.json
report_ms=$((($(date +%s%N) - start) / 1000000))
echo "test_report: 50,000-line report written in ${report_ms} ms ($(wc -c <big/index.html) bytes)"
if [ "$report_ms" -lt 30000 ]; then pass; else fail "the 50,000-line report took ${report_ms} ms"; fi

[ $tools_ok -eq 1 ] || finish
[ $tools_ok -eq 1 ] || exit 1

# ---- validation ----
validate sarif "$SARIF_SCHEMA" mid.sarif
validate sarif "$SARIF_SCHEMA" xss/xss.sarif
validate json "$TOP/docs/report-schema.json" mid.json
validate json "$TOP/docs/report-schema.json" xss/xss.json
validate json "$TOP/docs/report-schema.json" imported.json
validate json "$TOP/docs/report-schema.json" big.json
top=$(node "$CHECK" top mid.json ochiai)
case $top in */mid.c:12) pass ;; *) fail "ochiai's top line in the JSON is '$top', expected mid.c:12" ;; esac

# ---- rendering ----
# first_location DOM : the data-location of the first ranked line.
first_location() { grep -o 'data-location="[^"]*"' "$1" | head -n 1 | sed 's/data-location="\(.*\)"/\1/'; }
chromium_run mid.dom --dump-dom "file://$WORK/html/index.html" || fail "chromium failed: $(tail -3 "$WORK/chromium.err")"
expect_contains mid.dom 'data-ready="1"'
# The page opens on rank's default, DStar over tuples, which scores the
# fault (12) and line 11 alike and puts 12, the better by itself, first.
case $(first_location mid.dom) in */mid.c:12) pass ;; *) fail "top-ranked line in the page is '$(first_location mid.dom)'" ;; esac
first_method=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["methods"][0]["name"])' mid.json)
if [ "$first_method" = tuples ]; then pass; else fail "the report's first method is '$first_method', not rank's default (tuples)"; fi
first_imported=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["methods"][0]["name"])' imported.json)
if [ "$first_imported" = dstar ]; then pass; else fail "imported (no tuples): first method '$first_imported', not dstar"; fi
expect_contains mid.dom 'id="L0-12" class="ln ran'
expect_contains mid.dom 'm = y; /* the fault: should be m = x */'
# A line says what its score came from, with that element's counts (line
# 11, second, scores as its branch); the top line, which scores by itself,
# is described above the source; and a line that only passing tests ran
# (16, whose best tuple never ran) is colored and counted.
second_item=$(grep -o '<li class="rank-item".*' mid.dom | sed 's|<li class="rank-item"|\n&|g' | grep rank-item | sed -n 2p)
case $second_item in
*mid.c:11*'scores as branch <code>x &lt; z</code> taken true (in 1 failing and 1 passing tests)'*) pass ;;
*) fail "the second ranked line does not name its deciding branch: $second_item" ;;
esac
expect_contains mid.dom '<span id="line-info">line 12: rank 1, run by 1 failing and 1 passing tests'
expect_contains mid.dom 'id="L0-16" class="ln ran'
expect_contains mid.dom 'id="ranking-count">15 lines run by tests (18 ranked)'
chromium_run shot.log --window-size=1400,900 --screenshot="$SHOTS/mid.png" "file://$WORK/html/index.html"
if [ -s "$SHOTS/mid.png" ]; then pass; else fail "no screenshot: $(tail -3 "$WORK/chromium.err")"; fi
# The failing test's diff: the expected line 2 (-) against the actual 1 (+), under its message,
# and in the output map under the wrong line; #T5 opens the page on the test's row.
expect_contains mid.dom '<div class="dl dexp"><span class="dn">1</span><span class="ds">−</span><code>2</code></div><div class="dl dact"><span class="dn">1</span><span class="ds">+</span><code>1</code></div>'
expect_contains mid.dom '<tr class="wrong"><td>1</td><td><code>1</code><div class="expect">expected: <code>2</code></div>'
chromium_run mid-diff.dom --dump-dom "file://$WORK/html/index.html#T5" || fail "chromium failed on #T5"
expect_contains mid-diff.dom '<section class="tab" id="tab-tests">'
expect_contains mid-diff.dom '<tr id="T5"><td>mid_2_1_3</td>'
chromium_run shot.log --window-size=1400,900 --screenshot="$SHOTS/mid-diff.png" "file://$WORK/html/index.html#T5"
if [ -s "$SHOTS/mid-diff.png" ]; then pass; else fail "no screenshot of the diff: $(tail -3 "$WORK/chromium.err")"; fi

chromium_run xss.dom --dump-dom "file://$WORK/xss/html/index.html" || fail "chromium failed on the xss report"
expect_contains xss.dom 'data-ready="1"'
expect_contains xss.dom '&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;'
if grep -qF '<script>alert(1)' xss.dom || grep -q 'data-pwned' xss.dom; then
    fail "the injected <script> line became markup: $(grep -o '.\{80\}<script>alert(1).\{40\}' xss.dom | head -1)"
else pass; fi
expect_contains xss.dom '<code>&lt;b id="injected"&gt;bold&lt;/b&gt;</code>'
if grep -qF '<b id="injected">' xss.dom; then fail "the expected output's markup became markup"; else pass; fi
chromium_run shot.log --window-size=1400,900 --screenshot="$SHOTS/xss.png" "file://$WORK/xss/html/index.html"

chromium_run imported.dom --dump-dom "file://$WORK/imported/index.html"
expect_contains imported.dom 'Source not found for 1 file'
case $(first_location imported.dom) in mid.c:12) pass ;; *) fail "imported: top line '$(first_location imported.dom)'" ;; esac

start=$(date +%s%N)
chromium_run big.dom --dump-dom "file://$WORK/big/index.html"
load_ms=$((($(date +%s%N) - start) / 1000000))
render_ms=$(grep -o 'data-render-ms="[0-9]*"' big.dom | grep -o '[0-9]*')
echo "test_report: 50,000-line page: script rendered in ${render_ms:-?} ms, chromium ran ${load_ms} ms"
case $(first_location big.dom) in big.c:31337) pass ;; *) fail "big: top line '$(first_location big.dom)'" ;; esac
if [ -n "$render_ms" ] && [ "$render_ms" -lt 5000 ]; then pass; else fail "the 50,000-line page rendered in '${render_ms}' ms"; fi
chromium_run shot.log --window-size=1400,900 --screenshot="$SHOTS/big.png" "file://$WORK/big/index.html"
echo "test_report: screenshots in $SHOTS"
finish
