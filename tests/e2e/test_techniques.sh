# test_techniques.sh - culprit techniques and culprit rank --technique end
# to end: a program built with culprit-cc, tests recorded with
# `culprit test --expect`, every technique producing a full line ranking;
# a crash inside a block shows as a transition rate below 1 for that
# block's lines; techniques lacking data (an imported matrix: no CFG) say
# so in one line and exit 2.  Skips the collector parts when culprit-cc or
# the runtime has not been built.
. "$(dirname "$0")/lib.sh"

TECHNIQUES="tuples blockrank cp cbi des-cbi sober des-sober nearest-neighbor set-union set-intersection"

# ---- the listing ----
run 0 "$CULPRIT" techniques
for t in $TECHNIQUES metallaxis muse mbfl muse-first sat sat-tar; do expect_contains "$WORK/out" "$t"; done
expect_contains "$WORK/out" "COMPSAC 2011"
run 0 "$CULPRIT" techniques --format csv
expect_contains "$WORK/out" "name,title,needs,summary,reference"
expect_line_count "$WORK/out" 19 # header + 18 techniques (smap, scomb, metallaxis, muse, mbfl, muse-first, sat and sat-tar included)
run 0 "$CULPRIT" techniques --format json
expect_contains "$WORK/out" '"name": "blockrank"'
run 2 "$CULPRIT" techniques --format xml

# ---- an imported matrix has no CFG: one line, exit 2 ----
printf 'a.c:1\na.c:2\na.c:3\n' >spectra.txt
cat >matrix.txt <<'M'
1 1 0 +
1 0 1 -
0 1 1 -
M
run 0 "$CULPRIT" import gzoltar --matrix matrix.txt --spectra spectra.txt
run 2 "$CULPRIT" rank --technique blockrank
expect_line_count "$WORK/err" 1
expect_contains "$WORK/err" "blockrank needs the program's structure"
run 2 "$CULPRIT" rank --technique sober
expect_line_count "$WORK/err" 1
run 0 "$CULPRIT" rank --technique set-union --format csv
expect_line_count "$WORK/out" 4
run 0 "$CULPRIT" rank --technique nearest-neighbor --format csv
expect_line_count "$WORK/out" 4
run 2 "$CULPRIT" rank --technique no-such-technique

BUILD_DIR=$(dirname "$CULPRIT")
CC_WRAPPER="$BUILD_DIR/culprit-cc"
if [ ! -x "$CC_WRAPPER" ] || [ ! -f "$BUILD_DIR/libculprit-rt.a" ]; then
    echo "$E2E_NAME: note: $CC_WRAPPER or the runtime is not built; skipping the collected parts"
    finish
    exit 0
fi

# ---- a program that crashes inside a block for some inputs ----
export CULPRIT_STORE="$WORK/crash-store"
cat >walk.c <<'EOF2'
#include <stdio.h>
#include <stdlib.h>
static int table[4];
static int *slot(int i) { return i >= 0 && i < 4 ? &table[i] : NULL; }
int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 0;
    int total = 0;
    for (int i = 0; i < n; i++) {
        int *p = slot(i % 5);
        if (i % 2 == 0 && n > 0) {
            *p = i;                 /* line 12: crashes when slot() gave NULL */
            total += *p;
        }
        total++;
    }
    printf("%d\n", total);
    return 0;
}
EOF2
"$CC_WRAPPER" -g -o walk walk.c 2>"$WORK/cc.err" || fail "culprit-cc walk.c: $(head -c 300 "$WORK/cc.err")"
walk_test() { # NAME N EXPECTED STATUS
    printf '%s\n' "$3" >"$WORK/expect.$1"
    run "$4" "$CULPRIT" test --name "$1" --expect "$WORK/expect.$1" -- ./walk "$2"
}
walk_test t0 0 0 0
walk_test t1 1 1 0
walk_test t2 2 2 0
walk_test t3 3 5 0
walk_test t4 4 8 0
walk_test c5 5 - 139
walk_test c9 9 - 139

lines=$(sqlite3 "$CULPRIT_STORE/culprit.db" "SELECT COUNT(*) FROM elements e JOIN programs p ON p.id = e.program_id WHERE e.kind = 'line'" 2>/dev/null || echo "")
for t in $TECHNIQUES; do
    run 0 "$CULPRIT" rank --technique "$t" --format csv
    expect_contains "$WORK/out" "walk.c:12"
    if [ -n "$lines" ]; then
        expect_line_count "$WORK/out" $((lines + 1)) # a full line ranking
    fi
done
run 0 "$CULPRIT" rank --kind tuple --formula ochiai --format csv
expect_contains "$WORK/out" "walk.c:11"

# --kind all in the line view (its default): one entry per source line,
# named file:line whichever element scored it (issue 18, item 14).
run 0 "$CULPRIT" rank --kind all --view line --format csv
cp "$WORK/out" all-lines.csv
not_lines=$(tail -n +2 all-lines.csv | cut -d, -f3 | grep -cv '/walk\.c:[0-9]*$')
[ "$not_lines" -eq 0 ] && pass || fail "--kind all --view line has $not_lines entries that are not lines: $(head -c 600 all-lines.csv)"
if [ -n "$lines" ]; then expect_line_count all-lines.csv $((lines + 1)); fi
run 0 "$CULPRIT" rank --kind all --format csv
expect_same "$WORK/out" all-lines.csv
run 0 "$CULPRIT" rank --kind all --view element --format csv
expect_contains "$WORK/out" "slot()=null"

# The crash site's block: transition rate below 1 on its lines.
run 0 "$CULPRIT" rank --technique blockrank --format json
rate=$(tr '\n' ' ' <"$WORK/out" | sed 's/},/}\n/g' | grep '"line": 12,' | sed -n 's/.*"transition_rate": \([0-9.e-]*\).*/\1/p' | head -n 1)
if [ -n "$rate" ] && awk -v r="$rate" 'BEGIN { exit !(r < 1) }'; then pass; else
    fail "walk.c:12's transition rate is '$rate', expected below 1"
fi
run 0 "$CULPRIT" rank --technique blockrank --kind block --view element --format csv
expect_contains "$WORK/out" "transition_rate"
run 0 "$CULPRIT" rank --technique sober --kind branch --view element --format csv
expect_contains "$WORK/out" "walk.c:11:"
run 0 "$CULPRIT" rank --technique blockrank --top 3
expect_contains "$WORK/out" "technique blockrank"

# ---- export json + import json keeps the structure (issue 18, item 14) ----
# The units' maps and crash stacks travel with the matrix, so the techniques
# that walk the CFG rank the imported program byte for byte as the original.
STRUCTURED="blockrank cp cbi sober"
for t in $STRUCTURED; do
    run 0 "$CULPRIT" rank --technique "$t" --format csv
    cp "$WORK/out" "before-$t.csv"
done
run 0 "$CULPRIT" export json -o walk.json
expect_contains walk.json '"units": ['
expect_contains walk.json '"crash": {'
run 0 "$CULPRIT" --store "$WORK/json-store" import json walk.json
for t in $STRUCTURED; do
    run 0 "$CULPRIT" --store "$WORK/json-store" rank --technique "$t" --format csv
    expect_same "$WORK/out" "before-$t.csv"
done
run 0 "$CULPRIT" --store "$WORK/json-store" export json -o walk2.json
expect_same walk2.json walk.json
run 0 "$CULPRIT" --store "$WORK/json-store" tests --format csv
expect_contains "$WORK/out" "walk.c:12 (main)"
# A test of the same build does not join the imported program (its tests
# have no raw counts to re-express): it starts one of its own.
printf '0\n' >"$WORK/expect.j0"
run 0 "$CULPRIT" --store "$WORK/json-store" test --name j0 --expect "$WORK/expect.j0" -- ./walk 0
programs=$(sqlite3 "$WORK/json-store/culprit.db" "SELECT COUNT(*) || ' ' || SUM(source = 'json') FROM programs" 2>/dev/null || echo "2 1")
[ "$programs" = "2 1" ] && pass || fail "after a test, the store holds programs '$programs', expected '2 1'"
# What does not fit the elements is refused, by JSON path.
bad_json() { # NAME PYTHON-EDIT EXPECTED-MESSAGE
    python3 -c "import json, sys
d = json.load(open('walk.json'))
$2
json.dump(d, open('bad-$1.json', 'w'), indent=1)" || fail "python3 could not write bad-$1.json"
    run 2 "$CULPRIT" --store "$WORK/bad-json-store" import json "bad-$1.json"
    expect_file_equals "$WORK/err" "culprit: $3"
}
bad_json units-type 'd["units"] = "x"' 'bad-units-type.json: units: expected an array of program maps (strings)'
bad_json unit-type 'd["units"][0] = 7' "bad-unit-type.json: units[0]: expected a string (a unit's program map)"
bad_json unit-map 'd["units"][0] = "culprit-map\t2\n"' \
    "bad-unit-map.json: units[0]:1:13: expected map version 1"
bad_json fewer 'd["elements"].pop(); [t.update(hits=[h for h in t["hits"] if h < len(d["elements"])], counts=[c for c in t["counts"] if c[0] < len(d["elements"])]) for t in d["tests"]]' \
    "bad-fewer.json: units: expected the maps of the units \"elements\" was assembled from; they make $(python3 -c "import json; print(len(json.load(open('walk.json'))['elements']))") elements, not $(python3 -c "import json; print(len(json.load(open('walk.json'))['elements']) - 1)")"
bad_json renamed 'd["elements"][0]["line"] += 100' \
    "bad-renamed.json: units: expected the maps of the units \"elements\" was assembled from; they make elements[0] line '$(python3 -c "import json; e = json.load(open('walk.json'))['elements'][0]; print('%s:%d' % (e['file'], e['line']))")', not line '$(python3 -c "import json; e = json.load(open('walk.json'))['elements'][0]; print('%s:%d' % (e['file'], e['line'] + 100))")'"
bad_json no-units 'del d["units"]' \
    "bad-no-units.json: tests[5].crash: expected the program's \"units\" beside it (a crash stack names their blocks)"
bad_json crash-type 'd["tests"][5]["crash"] = [1]' \
    "bad-crash-type.json: tests[5].crash: expected an object with a \"stack\" array"
bad_json frame 'd["tests"][5]["crash"]["stack"][0]["block"] = 100000' \
    "bad-frame.json: tests[5].crash.stack[0]: expected {\"unit\": HASH, \"block\": N} naming a block of one of the \"units\""
[ ! -e "$WORK/bad-json-store" ] && pass || fail "a refused import must not leave a store behind"

# ---- what is missing, said precisely (issue 18, item 9) ----
# A lines-mode build has blocks and no edges or predicates; a full-mode
# program without branches has no predicates: neither is "not built with
# culprit-cc".
cat >flat.c <<'END'
#include <stdio.h>
int main(void)
{
    puts("flat");
    return 0;
}
END
export CULPRIT_STORE="$WORK/lines-store"
"$CC_WRAPPER" --coverage=lines -o flat-lines flat.c && run 0 "$CULPRIT" test --name t -- ./flat-lines
run 2 "$CULPRIT" rank --technique cbi
expect_contains "$WORK/err" "cbi needs edges and branch outcomes, and 1 of the program's units were built with culprit-cc --coverage=lines"
export CULPRIT_STORE="$WORK/flat-store"
"$CC_WRAPPER" -o flat-full flat.c && run 0 "$CULPRIT" test --name t -- ./flat-full
run 2 "$CULPRIT" rank --technique sober
expect_contains "$WORK/err" "sober ranks predicates, and the program has none"
run 2 "$CULPRIT" rank --technique cp
expect_contains "$WORK/err" "cp propagates over the control-flow graph's edges, and the program has none"

finish
