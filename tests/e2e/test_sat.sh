# test_sat.sh - specifications and unsat cores end to end (issue 23 item 2;
# docs/specs.md, docs/symbolic.md §6): a linked list whose remove updates
# its size wrongly (tests/e2e/sat/list.c) violates its invariant; culprit
# gen --core records the failing run in trace mode and saves the unsat
# core of its trace formula, which names the faulty store and the two
# branches that decide it; culprit rank --technique sat and sat-tar rank
# the store first where Tarantula ties it with the lines every removal
# runs.  Trace mode runs on through the checks that follow a violated one
# (a wrong header: with the size postcondition after the invariant, the
# core names the header, not the size).  The bad inputs: a failing run that
# violates no check (wrong output only), a trace over --max-trace, a rank
# with no cores, options out of range.
. "$(dirname "$0")/lib.sh"
need_culprit_cc nm

LIST="$TOP/tests/e2e/sat/list.c"
cp "$LIST" list.c
FAULT_LINE=$(grep -n '/\* the fault \*/' list.c | cut -d: -f1)
"$culprit_cc" --coverage=symbolic -g -O0 -o list list.c || fail "cannot build list.c in symbolic mode"
printf 'a 7\na 1\nr 7\n' >failing.txt

# ---- usage ----
run 0 "$CULPRIT" gen --help
expect_contains "$WORK/out" "--core"
run 2 "$CULPRIT" gen --core --core-timeout 0 --strategy pcs --budget 2 --input failing.txt -- ./list
expect_contains "$WORK/err" "--core-timeout expects 1 to 86400 seconds, not '0'"
run 2 "$CULPRIT" gen --core --max-trace none --strategy pcs --budget 2 --input failing.txt -- ./list
expect_contains "$WORK/err" "--max-trace expects a number, not 'none'"

# ---- no cores yet: sat says what to do ----
run 0 "$CULPRIT" --store empty.store test --name a -- ./list </dev/null
run 2 "$CULPRIT" --store empty.store rank --technique sat
expect_contains "$WORK/err" "sat needs the unsat cores of failing runs, and the program has none recorded"

# ---- the core names the faulty store ----
run 0 "$CULPRIT" gen --core --strategy pcs --budget 6 --input failing.txt -- ./list
# the faulty store, and the two branches that decide whether it runs (the
# loop over the nodes and the key's test: relaxing either frees the store)
LOOP_LINE=$(grep -n 'for (node \*n = l->head; n; prev = n' list.c | cut -d: -f1)
expect_contains "$WORK/err" "gen/pcs/0: unsat core of 3 lines"
expect_contains "$WORK/err" "list.c:$LOOP_LINE (branch) $WORK/list.c:$((LOOP_LINE + 1)) (branch) $WORK/list.c:$FAULT_LINE (store)"
# SAT-TAR's round after each test: the test, its verdict, the top lines
expect_contains "$WORK/err" "culprit gen: round 0: gen/pcs/0 (fail); sat-tar top: $WORK/list.c:$LOOP_LINE 2.000 (confidence 1.000)"
expect_contains "$WORK/err" "$WORK/list.c:$FAULT_LINE 2.000 (confidence 1.000)"
# rank_top TECHNIQUE : the first line of the ranking ("list.c:N")
rank_top() {
    "$CULPRIT" rank --technique "$1" --format csv >"$WORK/rank.csv" 2>"$WORK/rank.err" ||
        fail "culprit rank --technique $1: $(cat "$WORK/rank.err")"
    python3 -c '
import csv, os, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(os.path.basename(rows[0]["element"]) if rows else "-")' "$WORK/rank.csv"
}
[ "$(rank_top sat)" = "list.c:$FAULT_LINE" ] && pass || fail "sat ranks $(rank_top sat) first, not list.c:$FAULT_LINE"
[ "$(rank_top sat-tar)" = "list.c:$FAULT_LINE" ] && pass ||
    fail "sat-tar ranks $(rank_top sat-tar) first, not list.c:$FAULT_LINE"
run 0 "$CULPRIT" rank --technique sat --top 3
expect_contains "$WORK/out" "list.c:$FAULT_LINE"
# the core is stored per failing test, and a test recorded again loses it
run 0 sqlite3 .culprit/culprit.db "SELECT t.name, c.line, c.kind FROM trace_cores c JOIN tests t ON t.id = c.test_id WHERE t.name = 'gen/pcs/0'"
expect_contains "$WORK/out" "gen/pcs/0|$FAULT_LINE|store"

# a damaged row of trace_cores is a corrupt store, said so
cp -r .culprit damaged.store
run 0 sqlite3 damaged.store/culprit.db "UPDATE trace_cores SET line = -line"
run 2 "$CULPRIT" --store damaged.store rank --technique sat
expect_contains "$WORK/err" "damaged.store/culprit.db: store is corrupt: a row of trace_cores is malformed"

# ---- --strategy sat-tar: implies --core, aims at the cores' suspects ----
run 0 "$CULPRIT" --store sattar.store gen --strategy sat-tar --budget 3 --input failing.txt -- ./list
expect_contains "$WORK/err" "gen/sat-tar/0: unsat core of 3 lines"
expect_contains "$WORK/err" "culprit gen: round 3: gen/sat-tar/3"
run 0 "$CULPRIT" --store sattar.store rank --technique sat-tar --top 3
expect_contains "$WORK/out" "list.c:$FAULT_LINE"

# ---- plain assert(): no culprit code runs, the branch into the failing
# assertion is its window, the whole run its operation ----
sed 's|#include <culprit/contract.h>|#include <assert.h>|; s|    CULPRIT_INVARIANT(list_ok, l);||' list.c |
    sed 's|\(.*/\* the fault \*/\)|\1 assert(l->size >= 0);|' >asserting.c
"$culprit_cc" --coverage=symbolic -g -O0 -o asserting asserting.c || fail "cannot build asserting.c"
printf 'a 7\nr 7\n' >negative.txt
run 0 "$CULPRIT" --store assert.store gen --core --strategy pcs --budget 1 --input negative.txt -- ./asserting
expect_contains "$WORK/err" "gen/pcs/0: unsat core of"
expect_contains "$WORK/err" "asserting.c:$FAULT_LINE (store)"

# ---- the whole postcondition: trace mode runs on through the checks that
# follow a violated one, and the core keeps what every explanation needs.
# remove sets the header wrong (to NULL) and the size right: the invariant
# alone (count == size) is mended by the header or by the size; with the
# size postcondition after it, which held, only by the header ----
sed 's|    node \*prev = NULL;|    node *prev = NULL;\n    int old = l->size;|
     s|l->size = l->size - (n->value > 5 ? 2 : 1); /\* the fault \*/|l->size = l->size - 1; /* the size */|
     s|                l->head = n->next;|                l->head = NULL; /* the header */|' list.c >header.c
awk '/^static void remove_value/ { in_remove = 1 }
     in_remove && /CULPRIT_INVARIANT\(list_ok, l\);/ { print; print "    CULPRIT_ENSURES(l->size == old - 1);"; in_remove = 0; next }
     { print }' header.c >header_post.c
HEADER_LINE=$(grep -n '/\* the header \*/' header.c | cut -d: -f1)
SIZE_LINE=$(grep -n '/\* the size \*/' header.c | cut -d: -f1)
printf 'a 3\na 1\na 2\nr 2\n' >head.txt
for variant in header header_post; do
    "$culprit_cc" --coverage=symbolic -g -O0 -o $variant $variant.c || fail "cannot build $variant.c"
done
run 0 "$CULPRIT" --store header.store gen --core --strategy pcs --budget 1 --input head.txt -- ./header
expect_contains "$WORK/err" "header.c:$HEADER_LINE (store) $WORK/header.c:$SIZE_LINE (store)"
run 0 "$CULPRIT" --store header_post.store gen --core --strategy pcs --budget 1 --input head.txt -- ./header_post
expect_contains "$WORK/err" "header_post.c:$HEADER_LINE (store)"
grep -q "header_post.c:$SIZE_LINE (store)" "$WORK/err" &&
    fail "the core names the size, which the postcondition after the invariant says was right" || pass

# ---- a trace over the cap: said, and the generation goes on ----
run 0 "$CULPRIT" --store cap.store gen --core --max-trace 1 --strategy pcs --budget 1 --input failing.txt -- ./list
expect_contains "$WORK/err" "gen/pcs/0: no core: the sliced trace has"
expect_contains "$WORK/err" "over the cap of 1"

# ---- a failing run that violates no check: no core, said ----
sed 's/printf("%d\\n", n->value)/printf("%d\\n", n->value + 1)/; s/(n->value > 5 ? 2 : 1)/1/' list.c >wrong_output.c
"$culprit_cc" --coverage=symbolic -g -O0 -o wrong_output wrong_output.c || fail "cannot build wrong_output.c"
sed 's/(n->value > 5 ? 2 : 1)/1/' list.c >fixed.c
cc -I"$TOP/include" -o fixed fixed.c || fail "cannot build the reference"
run 0 "$CULPRIT" --store output.store gen --core --strategy pcs --budget 1 --input failing.txt --reference ./fixed -- ./wrong_output
expect_contains "$WORK/err" "gen/pcs/0: no core: the run violated no specification it recorded"

finish
