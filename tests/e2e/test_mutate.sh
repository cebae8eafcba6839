#!/bin/sh
# test_mutate.sh - culprit mutate and the mutation techniques
# (docs/mutation.md §3-§4): grade.c with a relational fault, built with
# culprit-cc --mutants and recorded with `culprit run`, then run on its
# mutants.  Metallaxis and MUSE rank the faulty line first (a mutant
# repairs it: the failing test passes on it); the ranking is the same
# twice and with MALLOC_PERTURB_; a second `culprit mutate` repeats no
# run; and every wrong start gets its own message: a build without
# mutants, a suite with no failing test, the techniques before mutate,
# bad options.
. "$(dirname "$0")/lib.sh"
need_culprit_cc

cp "$TOP/tests/e2e/grade.c" .
# one score a test; grade.c's fault gives 80 a C
scores="100 95 90 89 85 81 80 79 75 70 65 60 59 30 0"
mkdir expected
: >manifest.txt
for s in $scores; do
    python3 -c 'import sys; s = int(sys.argv[1]); print(s, "A" if s >= 90 else "B" if s >= 80 else "C" if s >= 70 else "D" if s >= 60 else "F")' \
        "$s" >"expected/g$s.out"
    echo "g$s: ./grade $s" >>manifest.txt
done
run 0 "$culprit_cc" --mutants -O0 -g -o grade grade.c
run 1 "$CULPRIT" run --tests manifest.txt --expect-dir expected -j 2
expect_contains "$WORK/out" "1 failed"
fault_line=$(grep -n 'the fault' grade.c | cut -d: -f1)

# ---- before mutate: the default is tuples, and the techniques say what to do ----
run 0 "$CULPRIT" rank --top 1 --format csv
expect_contains "$WORK/out" ",tuples:dstar"
run 2 "$CULPRIT" rank --technique metallaxis
expect_contains "$WORK/err" "culprit mutate"
expect_line_count "$WORK/err" 1

# ---- mutate ----
run 0 "$CULPRIT" mutate --tests manifest.txt --expect-dir expected -j 2 --per-line 0
expect_contains "$WORK/out" "lines a failing test ran"
runs=$(sed -n 's/.*; \([0-9]*\) runs (.*/\1/p' "$WORK/out")
if [ "${runs:-0}" -gt 20 ]; then pass; else fail "mutate made ${runs:-no} runs: $(cat "$WORK/out")"; fi
stored=$(sqlite3 .culprit/culprit.db 'SELECT count(*) FROM mutant_runs')
if [ "$stored" = "$runs" ]; then pass; else fail "$runs runs, $stored rows"; fi
# the failing tests ran every mutant chosen; no run is of a test that does not run the mutant's line
if sqlite3 .culprit/culprit.db "SELECT count(*) FROM mutant_runs r JOIN tests t ON t.id = r.test_id
        WHERE t.verdict = 'fail'" | grep -qv '^0$'; then pass; else fail "no mutant ran on a failing test"; fi

# a second mutate repeats nothing
run 0 "$CULPRIT" mutate --tests manifest.txt --expect-dir expected -j 2 --per-line 0
expect_contains "$WORK/out" "; 0 runs (0 killed, 0 timed out), $runs recorded before"

# ---- the rankings: the fault first ----
for technique in metallaxis muse mbfl; do
    run 0 "$CULPRIT" rank --technique "$technique" --format csv
    first=$(awk -F, 'NR == 2' "$WORK/out")
    case "$first" in
    1,*grade.c:$fault_line,*) pass ;;
    *) fail "$technique ranks first: $first" ;;
    esac
    "$CULPRIT" rank --technique "$technique" --format json >"plain-$technique.json"
    "$CULPRIT" rank --technique "$technique" --format csv >"plain-$technique.csv"
    MALLOC_PERTURB_=165 "$CULPRIT" rank --technique "$technique" --format json >"perturbed-$technique.json"
    expect_same "plain-$technique.json" "perturbed-$technique.json"
done
# the why: the faulty line's best mutant is the repair, which the failing test passes on
run 0 "$CULPRIT" rank --technique metallaxis --top 1
expect_contains "$WORK/out" 'best mutant `> -> >=` (ror): killed 1 of 1 failing tests (1 now pass), 0 of'
if command -v script >/dev/null; then # on a terminal too (the coloured view, src/report/terminal.c)
    script -qc "'$CULPRIT' rank --technique metallaxis --top 1" /dev/null >tty.out 2>&1
    expect_contains tty.out 'best mutant `> -> >=` (ror)'
fi
run 0 "$CULPRIT" rank --technique muse --top 1 --format json
expect_contains "$WORK/out" '"why": "best mutant `> -> >=` (ror)'
# with mutant runs, the default method is muse-first, MUSE's repairs then
# the spectra (docs/mutation.md §5): a mutant repairs the fault, so MUSE
# lifts it above every line without one (2 + its MUSE score)
run 0 "$CULPRIT" rank --top 1 --format csv
case $(awk -F, 'NR == 2' "$WORK/out") in
1,2.*,$WORK/grade.c:$fault_line,*,muse-first) pass ;;
*) fail "the default with mutants ranks first: $(awk -F, 'NR == 2' "$WORK/out")" ;;
esac
run 0 "$CULPRIT" rank --kind line --top 1 --format csv # an explicit kind: no default method
expect_contains "$WORK/out" ",dstar"
# each line says how many of its mutants ran (the technique's extra column)
run 0 "$CULPRIT" rank --technique metallaxis --format csv
expect_contains "$WORK/out" "rank,score,element,confidence,ef,ep,nf,np,mutants,method"
# culprit eval counts them with --technique all
echo "grade.c:$fault_line" >faults.txt
run 0 "$CULPRIT" eval --faults faults.txt --formula ochiai --technique all --format csv
expect_contains "$WORK/out" "metallaxis"
expect_contains "$WORK/out" "muse"

# ---- --per-line samples ----
rm -rf .culprit
run 1 "$CULPRIT" run --tests manifest.txt --expect-dir expected -j 2
run 0 "$CULPRIT" mutate --tests manifest.txt --expect-dir expected -j 1 --per-line 1 --seed 7
one=$(sed -n 's/^mutate: \([0-9]*\) of .* mutants chosen on \([0-9]*\) lines.*/\1 \2/p' "$WORK/out")
set -- $one
if [ "${1:-x}" = "${2:-y}" ]; then pass; else fail "--per-line 1 chose '$one' (mutants, lines)"; fi
sqlite3 .culprit/culprit.db 'SELECT DISTINCT mutant FROM mutant_runs' | sort >all-lines.txt
# the same in a checkout elsewhere: the streams are seeded by file name, not path
mkdir -p elsewhere/deeper && cp -r grade.c manifest.txt expected elsewhere/deeper/
(cd elsewhere/deeper && export CULPRIT_STORE="$WORK/elsewhere/deeper/.culprit" &&
    "$culprit_cc" --mutants -O0 -g -o grade grade.c &&
    { "$CULPRIT" run --tests manifest.txt --expect-dir expected -j 2 >/dev/null; [ $? = 1 ]; } && "$CULPRIT" mutate --tests manifest.txt --expect-dir expected -j 1 \
    --per-line 1 --seed 7 >/dev/null)
sqlite3 elsewhere/deeper/.culprit/culprit.db 'SELECT DISTINCT mutant FROM mutant_runs' | sort >elsewhere.txt
if [ -s elsewhere.txt ] && cmp -s elsewhere.txt all-lines.txt; then pass; else
    fail "another directory chose $(tr '\n' ' ' <elsewhere.txt), here $(tr '\n' ' ' <all-lines.txt)"
fi
# each line samples from its own stream: mutating fewer lines (--top-lines)
# chooses, on each line it keeps, the mutant chosen when every line is
# mutated (one stream over all lines would shift with the lines skipped)
rm -rf .culprit
run 1 "$CULPRIT" run --tests manifest.txt --expect-dir expected -j 2
run 0 "$CULPRIT" mutate --tests manifest.txt --expect-dir expected -j 1 --per-line 1 --seed 7 --top-lines 3
sqlite3 .culprit/culprit.db 'SELECT DISTINCT mutant FROM mutant_runs' | sort >top-lines.txt
if [ -s top-lines.txt ] && [ "$(wc -l <top-lines.txt)" -lt "$(wc -l <all-lines.txt)" ] &&
    [ -z "$(comm -23 top-lines.txt all-lines.txt)" ]; then
    pass
else
    fail "--top-lines 3 chose mutants $(tr '\n' ' ' <top-lines.txt), every line $(tr '\n' ' ' <all-lines.txt)"
fi

# --early-stop: fewer runs (only mutants the failing test kills meet the
# passing tests), and Metallaxis ranks exactly as without it
rm -rf .culprit
run 1 "$CULPRIT" run --tests manifest.txt --expect-dir expected -j 2
run 0 "$CULPRIT" mutate --tests manifest.txt --expect-dir expected -j 2 --per-line 0 --early-stop
early=$(sed -n 's/.*; \([0-9]*\) runs (.*/\1/p' "$WORK/out")
if [ "${early:-0}" -gt 0 ] && [ "$early" -lt "$runs" ]; then pass; else fail "--early-stop made ${early:-no} runs, without $runs"; fi
"$CULPRIT" rank --technique metallaxis --format csv >early-metallaxis.csv # (the why's counts differ)
expect_same plain-metallaxis.csv early-metallaxis.csv

# --max-passing: the same few passing tests for every mutant
rm -rf .culprit
run 1 "$CULPRIT" run --tests manifest.txt --expect-dir expected -j 2
run 0 "$CULPRIT" mutate --tests manifest.txt --expect-dir expected -j 2 --per-line 0 --max-passing 3
expect_contains "$WORK/out" "on 1 failing and 3 passing tests"
used=$(sqlite3 .culprit/culprit.db "SELECT count(DISTINCT test_id) FROM mutant_runs")
if [ "$used" -le 4 ] && [ "$used" -ge 2 ]; then pass; else fail "mutants ran on $used tests, expected at most 1 + 3"; fi

# ---- wrong starts ----
run 2 "$CULPRIT" mutate
expect_contains "$WORK/err" "no --tests FILE, and no recorded test has a saved command"
run 2 "$CULPRIT" mutate --tests manifest.txt --per-line x
run 2 "$CULPRIT" mutate --tests manifest.txt --top-lines -1
expect_contains "$WORK/err" "--top-lines expects a non-negative integer, not '-1'"
run 2 "$CULPRIT" mutate --tests manifest.txt --budget -3
expect_contains "$WORK/err" "--budget expects a positive number of seconds"
run 2 "$CULPRIT" mutate --tests no-such-manifest.txt
expect_contains "$WORK/err" "no-such-manifest.txt"
# a build without mutants
mkdir plain && cd plain
cp ../grade.c ../manifest.txt . && cp -R ../expected .
run 0 "$culprit_cc" -O0 -g -o grade grade.c
run 1 "$CULPRIT" --store plain-store run --tests manifest.txt --expect-dir expected -j 2
run 2 "$CULPRIT" --store plain-store mutate --tests manifest.txt --expect-dir expected
expect_contains "$WORK/err" "has no mutants: build it with culprit-cc --mutants"
# no store at all
run 2 "$CULPRIT" --store no-store mutate --tests manifest.txt
expect_contains "$WORK/err" "no culprit store"
cd ..
# a suite whose tests all pass
grep -E '^g(100|75|0):' manifest.txt >passing.txt
run 0 "$CULPRIT" --store passing-store run --tests passing.txt --expect-dir expected -j 2
run 2 "$CULPRIT" --store passing-store mutate --tests passing.txt --expect-dir expected
expect_contains "$WORK/err" "no test of passing.txt failed"

finish
