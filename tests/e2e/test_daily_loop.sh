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
# The note when a rebuild starts a new program.
sed 's|return b - a;|return b - a + 0;|' absdiff.c >edited.c && mv edited.c absdiff.c
run 0 "$culprit_cc" -g -o absdiff absdiff.c
run 0 "$CULPRIT" test --name t_5_3 --expect expected/t_5_3.out -- ./absdiff 5 3
expect_contains "$WORK/err" "culprit: note: the program was rebuilt: its tests now go to a new program"

# ---- one program, many test executables (issue 18, item 11) ----
# Tests that #include the library's source (cJSON's suite does) are other
# executables with the same code: their units join one program, whichever
# executable ran them.  Editing the library then starts a new one.
export CULPRIT_STORE="$WORK/many"
mkdir many && cd many || exit 1
cat >lib.c <<'END'
static int clamp(int v, int lo, int hi)
{
    if (v < lo)
        return lo;
    if (v > hi)
        return lo; /* BUG: hi */
    return v;
}
END
for t in low high mid; do
    case $t in low) args="-5 0 10" want=0 ;; high) args="50 0 10" want=10 ;; mid) args="5 0 10" want=5 ;; esac
    cat >test_$t.c <<END
#include <stdio.h>
#include <stdlib.h>
#include "lib.c"
int main(int argc, char **argv) { (void)argc; int r = clamp(atoi(argv[1]), atoi(argv[2]), atoi(argv[3])); printf("%d\\n", r); return r != $want; }
END
    "$culprit_cc" -g -o test_$t test_$t.c || fail "culprit-cc test_$t.c"
done
for t in low high mid low; do
    case $t in low) args="-5 0 10" ;; high) args="50 0 10" ;; mid) args="5 0 10" ;; esac
    # shellcheck disable=SC2086
    "$CULPRIT" test --name "$t" -- ./test_$t $args >/dev/null 2>>notes.txt
done
grep -q "note: the program was rebuilt" notes.txt && fail "a sibling executable started a new program: $(cat notes.txt)" || pass
run 0 "$CULPRIT" tests --format csv
[ "$(grep -c ',pass,\|,fail,' "$WORK/out")" -eq 3 ] && pass || fail "one program should hold the 3 tests: $(cat "$WORK/out")"
run 0 "$CULPRIT" rank --kind line --top 1 --format csv
expect_contains "$WORK/out" "lib.c:6,"
sed 's|return lo; /\* BUG: hi \*/|return hi;|' lib.c >fixed.c && mv fixed.c lib.c
"$culprit_cc" -g -o test_high test_high.c
run 0 "$CULPRIT" test --name high -- ./test_high 50 0 10
expect_contains "$WORK/err" "note: the program was rebuilt"
cd ..
finish
