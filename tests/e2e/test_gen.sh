# test_gen.sh - culprit gen end to end (docs/symbolic.md §4): seeds/001's
# running example in C (tests/e2e/gen/point.c, a division by zero that
# needs a relation between the inputs), built with culprit-cc
# --coverage=symbolic: PCS from the failing input puts the faulty line
# first within 5 generated tests, base does not; and the bad inputs: a
# program not built in symbolic mode, a seed that passes, usage errors,
# --from a test without a saved input; --faults and --trace (a line per
# test, the same ranks as culprit eval); the reference's exit status as the
# expected one.  The symbolic runs need the
# runtime's symbolic half (__culprit_sym_* in libculprit-rt.a); without it
# they are skipped, and said so.
. "$(dirname "$0")/lib.sh"
need_culprit_cc nm readelf

POINT="$TOP/tests/e2e/gen/point.c"
FIXED="$TOP/tests/e2e/gen/point_fixed.c"
RUNTIME="$(dirname "$culprit_cc")/libculprit-rt.a"
cc -O0 -o fixed "$FIXED" || fail "cannot build the reference"
printf '0 0 1 3 2\n' >failing.txt
printf '5 5 1 1 2\n' >passing.txt

# ---- usage ----
run 0 "$CULPRIT" gen --help
expect_contains "$WORK/out" "--strategy base|coverage|pcs|pcs-seq|is|bisect|delta|mix|sat-tar"
run 2 "$CULPRIT" gen --budget 5 -- ./point
expect_contains "$WORK/err" "--strategy is missing"
run 2 "$CULPRIT" gen --strategy pcs -- ./point
expect_contains "$WORK/err" "--budget is missing"
run 2 "$CULPRIT" gen --strategy random --budget 5 -- ./point
expect_contains "$WORK/err" "--strategy expects base, coverage, pcs, pcs-seq, is, bisect, delta, mix or sat-tar, not 'random'"
run 2 "$CULPRIT" gen --strategy pcs --budget 5 --input-file data.txt -- ./point
expect_contains "$WORK/err" "--input-file data.txt is not one of PROG's arguments"
run 2 "$CULPRIT" gen --strategy pcs --budget 5 --from gen/pcs/7 -- ./point
expect_contains "$WORK/err" "--from gen/pcs/7: no saved input in"

# ---- a program built in full mode: no path constraint, the seed kept ----
"$culprit_cc" --coverage=full -O0 -o point_full "$POINT" || fail "cannot build point.c in full mode"
run 2 "$CULPRIT" gen --store full.store --strategy pcs --budget 5 --input failing.txt --reference ./fixed -- ./point_full
expect_contains "$WORK/err" "no path constraint: the program was not built with culprit-cc --coverage=symbolic"
run 0 "$CULPRIT" --store full.store tests
expect_contains "$WORK/out" "gen/pcs/0"
[ -f full.store/gen/pcs/0/stdin ] && pass || fail "the seed's input was not saved"

# ---- a seed that passes: nothing to localize ----
run 2 "$CULPRIT" gen --store pass.store --strategy pcs --budget 5 --input passing.txt --reference ./fixed -- ./point_full
expect_contains "$WORK/err" "the failing input passes: nothing to localize"

# ---- symbolic mode ----
nm "$RUNTIME" 2>/dev/null | grep -q ' T __culprit_sym_binary' && pass || fail "the runtime has no symbolic half"
"$culprit_cc" --coverage=symbolic -O0 -o point "$POINT" || fail "cannot build point.c in symbolic mode"
FAULT_LINE=$(grep -n 'the fault' "$POINT" | cut -d: -f1)

# top_of STORE : the first line of culprit rank's ranking ("point.c:N").
top_of() {
    "$CULPRIT" --store "$1" rank --format csv >"$WORK/rank.csv" 2>/dev/null
    python3 -c '
import csv, os, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(os.path.basename(rows[0]["element"]) if rows else "-")' "$WORK/rank.csv"
}

run 0 "$CULPRIT" gen --store pcs.store --strategy pcs --budget 5 --input failing.txt --reference ./fixed \
    --export exported -- ./point
expect_contains "$WORK/err" "culprit gen: done:"
if [ "$(top_of pcs.store)" = "point.c:$FAULT_LINE" ]; then pass; else
    fail "pcs: the top of the ranking is $(top_of pcs.store), expected point.c:$FAULT_LINE"
fi
# Z3 is loaded when gen first solves (z3_library.c): culprit links no
# libz3, and without one gen says what is missing.
if readelf -d "$CULPRIT" | grep -q 'NEEDED.*libz3'; then
    fail "culprit links libz3: every process would load it"
else pass; fi
run 3 env CULPRIT_Z3_LIBRARY=/nonexistent/libz3.so "$CULPRIT" gen --store noz3.store --strategy pcs --budget 5 \
    --input failing.txt --reference ./fixed -- ./point
expect_contains "$WORK/err" "cannot load Z3, which culprit gen, culprit web and the unsat cores need: /nonexistent/libz3.so"
expect_contains "$WORK/err" "(the file \$CULPRIT_Z3_LIBRARY names)"
run 0 "$CULPRIT" gen --store base.store --strategy base --budget 5 --input failing.txt --reference ./fixed -- ./point
if [ "$(top_of base.store)" != "point.c:$FAULT_LINE" ]; then pass; else
    fail "base put the faulty line first within 5 tests too: the example does not tell the strategies apart"
fi
# --faults and --trace: one JSON line per test, the faulty line's rank
# measured as culprit eval measures it.
echo "point.c:$FAULT_LINE" >faults.txt
run 0 "$CULPRIT" gen --store trace.store --strategy pcs --budget 5 --input failing.txt --reference ./fixed \
    --faults faults.txt --trace trace.jsonl -- ./point
expect_contains "$WORK/err" "the first faulty line, point.c:$FAULT_LINE, ranks 1 (worst"
python3 - trace.jsonl "$FAULT_LINE" <<'PY' && pass || fail "the --trace lines are not as documented"
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
assert [r["index"] for r in rows] == list(range(len(rows))) and len(rows) >= 2, rows
assert rows[0]["test"] == "gen/pcs/0" and rows[0]["verdict"] == "fail" and rows[0]["failing"] == 1
assert all(r["seconds"] >= 0 and r["tests"] == r["index"] + 1 for r in rows)
for r in rows:
    for key in ("default", "ochiai"):
        m = r[key]
        assert m["worst"] >= m["average"] >= 1 and 0 < m["exam"] <= 1, m
        assert m["well_localized"] == (m["exam"] < 0.01)
        assert abs(m["exam"] - m["worst"] / r["executable_lines"]) < 1e-9
        assert abs(m["exam_executed"] - m["worst"] / r["executed_lines"]) < 1e-9
assert rows[0]["default"]["worst"] > 1, "the failing run alone cannot single out the faulty line"
assert rows[-1]["default"]["worst"] == 1, rows[-1]
PY
# The same rank as culprit eval on the store gen leaves.
"$CULPRIT" --store trace.store eval --faults faults.txt --formula ochiai --technique tuples:ochiai --format json >eval.json 2>/dev/null
python3 -c '
import json, sys
rows = [json.loads(line) for line in open("trace.jsonl")]
results = json.load(open("eval.json"))["results"]
tuples = [r for r in results if r.get("technique") == "tuples"][0]
ochiai = [r for r in results if r["formula"] == "ochiai"][0]
assert rows[-1]["default"]["worst"] == tuples["worst"] and rows[-1]["ochiai"]["worst"] == ochiai["worst"]
' && pass || fail "the last --trace line disagrees with culprit eval"
printf 'point.c\n' >bad-faults.txt
run 2 "$CULPRIT" gen --store bad.store --strategy pcs --budget 1 --input failing.txt --reference ./fixed \
    --faults bad-faults.txt -- ./point
expect_contains "$WORK/err" "expected FILE:LINE"

# The reference's exit status is the expected one: a passing input whose
# reference exits 3 fails.
printf '#!/bin/sh\n./fixed "$@"\nexit 3\n' >fixed3.sh && chmod +x fixed3.sh
run 0 "$CULPRIT" gen --store exit.store --strategy pcs --budget 1 --input passing.txt --reference ./fixed3.sh -- ./point
run 0 "$CULPRIT" --store exit.store tests
expect_contains "$WORK/out" "exit status 0, expected 3"

# The exported tests replay with culprit run.
[ -f exported/tests.json ] && pass || fail "no exported manifest"
run 1 "$CULPRIT" --store replay.store run --tests exported/tests.json
run 0 "$CULPRIT" --store replay.store tests
expect_contains "$WORK/out" "gen/pcs/0"

# ---- the reference's exit status is the expected one ----
# Both versions reject a negative number with status 1; the faulty one
# also crashes on 7.  From the seed 7, the flip of n < 0 gives a negative
# input that both reject alike: a pass, not a failure for exiting 1.
cat >reject.c <<'EOF_C'
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
    int n;
    if (scanf("%d", &n) != 1)
        return 2;
    if (n < 0) {
        puts("negative");
        return 1;
    }
#ifdef FAULTY
    if (n == 7)
        abort(); /* the fault */
#endif
    printf("%d\n", n * 2);
    return 0;
}
EOF_C
cc -O0 -o reject_ref reject.c || fail "cannot build reject.c"
"$culprit_cc" --coverage=symbolic -DFAULTY -O0 -o reject reject.c || fail "cannot build reject.c in symbolic mode"
printf '7\n' >seven.txt
run 0 "$CULPRIT" gen --store reject.store --strategy pcs --budget 4 --input seven.txt --reference ./reject_ref \
    --export reject.exported -- ./reject
run 0 "$CULPRIT" --store reject.store tests
negative=$(grep -l '^-' reject.store/gen/pcs/*/stdin 2>/dev/null | head -n 1)
[ -n "$negative" ] && pass || fail "no negative input generated from 7"
test_number=$(basename "$(dirname "$negative")")
grep -Eq "^pass .* gen/pcs/$test_number\$" "$WORK/out" && pass ||
    fail "gen/pcs/$test_number (a negative input both versions reject with status 1) is not a pass"
grep -q '"expect_exit": 1' reject.exported/tests.json && pass || fail "the export lost the reference's exit status"
finish
