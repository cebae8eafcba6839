# test_output_mapping.sh - the output-mapping techniques end to end (Apollo,
# TECHNIQUES.md §3): a program built with culprit-cc prints from several
# functions; a seeded fault in one print makes the "cube" line wrong for
# x > 3, and a second fault makes the "square" line wrong for x < -1 (a
# second cluster).  Tests are recorded with `culprit test --expect`.
# `culprit rank --technique scomb` localizes the largest cluster, puts the
# faulty print first at 1.1 and ranks the non-faulty failing-only line
# (the "big" header, Fig. 4's line 12) second at 1.0; --cluster,
# --all-failures, smap and a seeded --passing-sample run; a store without
# wrong output lines or failures says so in one line and ranks with the
# base formula instead.  Skips
# the collected parts when culprit-cc or the runtime has not been built.
. "$(dirname "$0")/lib.sh"

# ---- lack of data: an imported matrix has failures but no wrong lines ----
printf 'a.c:1\na.c:2\na.c:3\n' >spectra.txt
printf '1 1 0 +\n1 0 1 -\n0 1 1 -\n' >matrix.txt
run 0 "$CULPRIT" import gzoltar --matrix matrix.txt --spectra spectra.txt
# smap and scomb fall back to their base formula, saying why in one line,
# and rank exactly as that formula does (issue 18, item 9).
run 0 "$CULPRIT" rank --formula tarantula --kind line --format csv
cp "$WORK/out" tarantula.csv
run 0 "$CULPRIT" rank --technique scomb --format csv
expect_line_count "$WORK/err" 1
expect_contains "$WORK/err" "culprit: note: scomb: the output mapping has no wrong output lines"
expect_contains "$WORK/err" "ranking with tarantula alone"
expect_same "$WORK/out" tarantula.csv
run 0 "$CULPRIT" rank --technique smap --all-failures
expect_line_count "$WORK/err" 1
run 2 "$CULPRIT" rank --threshold 0.4
run 2 "$CULPRIT" rank --technique scomb --cluster 1 --all-failures
run 2 "$CULPRIT" rank --passing-sample 0
run 2 "$CULPRIT" rank --seed 3

BUILD_DIR=$(dirname "$CULPRIT")
CC_WRAPPER="$BUILD_DIR/culprit-cc"
if [ ! -x "$CC_WRAPPER" ] || [ ! -f "$BUILD_DIR/libculprit-rt.a" ]; then
    echo "$E2E_NAME: note: $CC_WRAPPER or the runtime is not built; skipping the collected parts"
    finish
    exit 0
fi

export CULPRIT_STORE="$WORK/calc-store"
cat >calc.c <<'EOF2'
#include <stdio.h>
#include <stdlib.h>

static void show_header(int x)
{
    printf("x = %d\n", x);
    if (x > 3)
        puts("big");
}

static void show_square(int x)
{
    int s = x * x;
    if (x < -1)
        s = -s; /* fault 2 */
    printf("square %d\n", s);
}

static void show_cube(int x)
{
    if (x > 3)
        printf("cube %d\n", x * x * x + 1); /* fault 1 */
    else
        printf("cube %d\n", x * x * x);
}

int main(int argc, char **argv)
{
    int x = argc > 1 ? atoi(argv[1]) : 0;
    show_header(x);
    show_square(x);
    show_cube(x);
    puts("done");
    return 0;
}
EOF2
line_of() { grep -n -F -- "$1" calc.c | head -1 | cut -d: -f1; }
FAULT1=$(line_of 'fault 1')
FAULT2=$(line_of 'fault 2')
BIG=$(line_of 'puts("big")')
if ! "$CC_WRAPPER" -g -O0 -o calc calc.c 2>"$WORK/cc.err"; then
    fail "culprit-cc calc.c: $(head -c 300 "$WORK/cc.err")"
    finish
    exit 1
fi

# Before any failure: nothing to map.
printf 'x = 0\nsquare 0\ncube 0\ndone\n' >expect.0
run 0 "$CULPRIT" test --name t0 --expect expect.0 -- ./calc 0
run 0 "$CULPRIT" rank --technique scomb
expect_contains "$WORK/err" "culprit: note: scomb: no test failed, so the output mapping has no wrong output"

for x in 1 2 3 -1 4 5 6 -2; do
    {
        printf 'x = %d\n' "$x"
        if [ "$x" -gt 3 ]; then echo big; fi
        printf 'square %d\ncube %d\ndone\n' $((x * x)) $((x * x * x))
    } >"expect.$x"
    run 0 "$CULPRIT" test --name "t$x" --expect "expect.$x" -- ./calc "$x"
done

# ---- the largest cluster (t4 t5 t6) by default ----
run 0 "$CULPRIT" rank --technique scomb --format csv
expect_contains "$WORK/err" "scomb localizes cluster 1 of 2"
head -1 "$WORK/out" | grep -q '^rank,score,element,confidence,ef,ep,nf,np,smap,method$' && pass ||
    fail "header: $(head -1 "$WORK/out")"
row1=$(sed -n 2p "$WORK/out")
case $row1 in
"1,1.1,"*"calc.c:$FAULT1,"*",3,0,0,5,1,scomb:tarantula") pass ;;
*) fail "scomb's first row is '$row1', expected calc.c:$FAULT1 at 1.1 over 3 failing, 5 passing tests" ;;
esac
row2=$(sed -n 3p "$WORK/out")
case $row2 in
"2,1,"*"calc.c:$BIG,"*) pass ;;
*) fail "scomb's second row is '$row2', expected calc.c:$BIG at 1" ;;
esac

# The base formula alone ties the two failing-only lines; smap ties all of
# the blamed block (here the one line) at 1.
run 0 "$CULPRIT" rank --kind line --formula tarantula --cluster 1 --format csv
expect_contains "$WORK/out" "2,1,"
run 0 "$CULPRIT" rank --technique smap --format csv
case $(sed -n 2p "$WORK/out") in
"1,1,"*"calc.c:$FAULT1,"*) pass ;;
*) fail "smap's first row is '$(sed -n 2p "$WORK/out")'" ;;
esac

# ---- choosing the failures ----
run 0 "$CULPRIT" rank --technique scomb --cluster 2 --format json
cp "$WORK/out" cluster2.json
if python3 - "$FAULT2" <<'PY'; then pass; else fail "scomb --cluster 2: $(head -c 600 cluster2.json)"; fi
import json, sys
doc = json.load(open("cluster2.json"))
assert doc["cluster"] == 2 and doc["failing"] == 1 and doc["passing"] == 5, doc
assert doc["threshold"] == 0.5 and doc["bonus"] == 1.1 and doc["formula"] == "tarantula", doc
top = doc["entries"][0]
# the print of the wrong square line ran in every test (0.5): not lifted; the fault tops at 1.0
assert top["line"] == int(sys.argv[1]) and top["score"] == 1 and top["smap"] == 0, top
assert max(e["score"] for e in doc["entries"]) == 1, doc
PY
run 0 "$CULPRIT" rank --technique scomb --all-failures --format csv
expect_contains "$WORK/out" ",3,0,1,5,1"
case $(sed -n 2p "$WORK/out") in
"1,1.1,"*"calc.c:$FAULT1,"*) pass ;;
*) fail "scomb --all-failures first row is '$(sed -n 2p "$WORK/out")'" ;;
esac
run 2 "$CULPRIT" rank --technique scomb --cluster 3
expect_contains "$WORK/err" "no cluster 3"
run 0 "$CULPRIT" rank --technique scomb --threshold 0.4 --bonus 2 --format csv
case $(sed -n 2p "$WORK/out") in
"1,2,"*"calc.c:$FAULT1,"*) pass ;;
*) fail "scomb --bonus 2 first row is '$(sed -n 2p "$WORK/out")'" ;;
esac

# ---- a seeded sample of the passing tests: same seed, same ranking ----
run 0 "$CULPRIT" rank --technique scomb --passing-sample 0.5 --seed 1 --format json
cp "$WORK/out" sample1.json
run 0 "$CULPRIT" rank --technique scomb --passing-sample 0.5 --seed 1 --format json
expect_same "$WORK/out" sample1.json
if python3 <<'PY'; then pass; else fail "--passing-sample 0.5: $(head -c 400 sample1.json)"; fi
import json
doc = json.load(open("sample1.json"))
assert doc["passing"] == 3 and doc["failing"] == 3 and doc["seed"] == 1, doc
assert doc["entries"][0]["score"] == 1.1, doc["entries"][0]
PY
run 0 "$CULPRIT" rank --formula ochiai --passing-sample 0.5 --seed 2 --format json
expect_contains "$WORK/out" '"passing": 3'
expect_contains "$WORK/out" '"failing": 4'
finish
