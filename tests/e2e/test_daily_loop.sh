# test_daily_loop.sh - the loop a developer walks (issue 18): build a
# program with a bug, run its suite, rank, fix the bug, rebuild, run the
# suite again without --rerun: every test runs again on the new program
# (a rebuilt program is a new program), all pass, exit 0, and the summary
# names the program it judged.  Also: a second run with nothing changed
# runs one probe test and keeps the rest of the records.
. "$(dirname "$0")/lib.sh"
need_culprit_cc

cat >absdiff.c <<'END'
#include <stdio.h>
#include <stdlib.h>

static int absdiff(int a, int b)
{
    if (a > b)
        return a - b;
    return a - b; /* BUG: b - a */
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    printf("%d\n", absdiff(atoi(argv[1]), atoi(argv[2])));
    return 0;
}
END
mkdir expected
: >manifest
for pair in "5 3 2" "9 1 8" "4 4 0" "1 6 5" "2 9 7" "7 2 5"; do
    set -- $pair
    echo "$3" >"expected/t_$1_$2.out"
    echo "t_$1_$2: ./absdiff $1 $2" >>manifest
done

# 1. the buggy build: two tests fail, the bug ranks first
run 0 "$culprit_cc" -g -o absdiff absdiff.c
run 1 "$CULPRIT" run --tests manifest --expect-dir expected
expect_contains "$WORK/out" "culprit run: 6 tests: 4 passed, 2 failed"
expect_contains "$WORK/out" "; program "
first_program=$(sed -n 's/.*; program \([0-9a-f]*\);.*/\1/p' "$WORK/out")
run 0 "$CULPRIT" rank --kind line --top 1 --format csv
expect_contains "$WORK/out" "absdiff.c:8,"

# 2. nothing changed: one probe test runs, the other five stay recorded
run 1 "$CULPRIT" run --tests manifest --expect-dir expected
expect_contains "$WORK/out" "culprit run: 1 tests"
expect_contains "$WORK/out" "5 already recorded, 2 of them failing"
expect_contains "$WORK/out" "; program $first_program;"

# 3. fix, rebuild, run again without --rerun: a new program, every test runs, all pass
sed 's|return a - b; /\* BUG: b - a \*/|return b - a;|' absdiff.c >fixed.c && mv fixed.c absdiff.c
run 0 "$culprit_cc" -g -o absdiff absdiff.c
run 0 "$CULPRIT" run --tests manifest --expect-dir expected
expect_contains "$WORK/out" "culprit run: 6 tests: 6 passed, 0 failed"
second_program=$(sed -n 's/.*; program \([0-9a-f]*\);.*/\1/p' "$WORK/out")
[ -n "$second_program" ] && [ "$second_program" != "$first_program" ] && pass ||
    fail "the rebuilt program was judged as '$second_program' (the first was '$first_program')"
run 0 "$CULPRIT" tests --format csv
[ "$(grep -c ',pass,' "$WORK/out")" -eq 6 ] && pass || fail "tests: $(cat "$WORK/out")"
finish
