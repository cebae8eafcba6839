# test_messages.sh - the small things a new user trips over (issue 18,
# items 7 and 10): errors that name every valid choice and their reason, a second
# --kind refused instead of silently winning, report paths printed as a
# user would write them, a missing store pointing at every way to fill it,
# and rank's header saying how tied entries are numbered.
. "$(dirname "$0")/lib.sh"
MID="$TOP/examples/mid"

run 2 "$CULPRIT" rank
expect_contains "$WORK/err" "no culprit store at"
expect_contains "$WORK/err" "'culprit test', 'culprit run' or 'culprit import'"

run 0 "$CULPRIT" import gzoltar --matrix "$MID/matrix.txt" --spectra "$MID/spectra.csv" --tests "$MID/tests.csv"

run 2 "$CULPRIT" rank --kind lines
expect_contains "$WORK/err" "unknown kind 'lines' (expected tuple, line, block, edge, branch, return, predicate, opaque or all)"
run 2 "$CULPRIT" rank --kind line --kind tuple
expect_contains "$WORK/err" "--kind given twice ('line', then 'tuple'); give one"
run 2 "$CULPRIT" eval --faults "$MID/faults.txt" --kind line --kind block
expect_contains "$WORK/err" "--kind given twice ('line', then 'block')"

run 0 "$CULPRIT" rank --top 3
expect_contains "$WORK/out" "tied entries share the worst rank)"
run 0 "$CULPRIT" rank --top 3 --ties best
expect_contains "$WORK/out" "tied entries share the best rank)"

run 0 "$CULPRIT" report --html report/
expect_file_equals "$WORK/out" "report/index.html"
run 2 "$CULPRIT" report --sarif /nonexistent/x.sarif
expect_contains "$WORK/err" "cannot write /nonexistent/x.sarif: No such file or directory"

# Verdicts without coverage (the tests never ran an instrumented build):
# an error that says so, not an empty ranking with exit 0 (item 10).
export CULPRIT_STORE="$WORK/uncovered"
run 0 "$CULPRIT" test --name ok -- true
run 1 "$CULPRIT" test --name ko -- false
for command in "rank" "rank --technique blockrank" "eval --faults $MID/faults.txt" "report --json r.json"; do
    # shellcheck disable=SC2086
    run 2 "$CULPRIT" $command
    expect_contains "$WORK/err" "the program's 2 tests have verdicts but no coverage"
done
finish
