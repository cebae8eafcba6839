# test_skip_as.sh - `--skip-as` (issue 20 item 6; docs/oracles.md, "Skips
# that hide failures"): an automake suite whose setup gives up with exit
# status 77 when the program crashes turns a crash into a skip, and a skip
# is left out of the ranking.  With --skip-as fail every skip fails; with
# --skip-as fail-if-passed a skip fails only when a test of that name
# passed before in the store (on the original build), so a test that skips
# everywhere stays a skip.  culprit test and culprit run alike.
. "$(dirname "$0")/lib.sh"
need_culprit_cc

# A "suite" test the way gnulib's init.sh treats a setup that dies: run the
# program, and give up with 77 if it was killed by a signal.
cat >prog.c <<'EOF_C'
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 0;
#ifdef FAULTY
    if (n == 3)
        abort(); /* the fault */
#endif
    printf("%d\n", n * 2);
    return 0;
}
EOF_C
cat >setup.sh <<'EOF_SH'
#!/bin/sh
# usage: setup.sh PROG N : 77 when PROG dies of a signal (the setup gave up)
"$1" "$2" >/dev/null
status=$?
[ $status -gt 128 ] && exit 77
exit $status
EOF_SH
cat >always_skips.sh <<'EOF_SH'
#!/bin/sh
exit 77
EOF_SH
chmod +x setup.sh always_skips.sh
"$culprit_cc" -O0 -o prog_original prog.c || fail "cannot build the original"
"$culprit_cc" -DFAULTY -O0 -o prog_faulty prog.c || fail "cannot build the faulty version"
cp prog_original prog

# verdict_of STORE NAME : the verdict `culprit tests` lists for NAME.
verdict_of() {
    "$CULPRIT" --store "$1" tests --format csv 2>/dev/null | awk -F, -v name="$2" '$1 == name { print $2 }'
}

# ---- the default: a skip is a skip ----
run 77 "$CULPRIT" --store default.store test --name t3 -- ./setup.sh ./prog_faulty 3
[ "$(verdict_of default.store t3)" = skip ] && pass || fail "t3: '$(verdict_of default.store t3)', expected skip"

# ---- --skip-as fail: every skip fails ----
run 77 "$CULPRIT" --store fail.store test --skip-as fail --name t3 -- ./setup.sh ./prog_faulty 3
[ "$(verdict_of fail.store t3)" = fail ] && pass || fail "--skip-as fail: t3 is '$(verdict_of fail.store t3)'"
run 0 "$CULPRIT" --store fail.store tests
expect_contains "$WORK/out" "skipped (exit status 77), counted as a failure (--skip-as fail)"

# ---- --skip-as fail-if-passed: the original passed, the faulty skips ----
for n in 1 3; do
    run 0 "$CULPRIT" --store if.store test --skip-as fail-if-passed --name "t$n" -- ./setup.sh ./prog 3
done
run 77 "$CULPRIT" --store if.store test --skip-as fail-if-passed --name always -- ./always_skips.sh
cp prog_faulty prog
run 0 "$CULPRIT" --store if.store test --skip-as fail-if-passed --name t1 -- ./setup.sh ./prog 1
run 77 "$CULPRIT" --store if.store test --skip-as fail-if-passed --name t3 -- ./setup.sh ./prog 3
run 77 "$CULPRIT" --store if.store test --skip-as fail-if-passed --name always -- ./always_skips.sh
[ "$(verdict_of if.store t3)" = fail ] && pass || fail "fail-if-passed: t3 is '$(verdict_of if.store t3)'"
[ "$(verdict_of if.store always)" = skip ] && pass ||
    fail "fail-if-passed: a test that never passed is '$(verdict_of if.store always)', expected skip"
run 0 "$CULPRIT" --store if.store tests
expect_contains "$WORK/out" "counted as a failure: it passed before (--skip-as fail-if-passed)"

# ---- culprit run takes it too ----
cat >manifest.txt <<EOF_M
t3: ./setup.sh ./prog_faulty 3
t1: ./setup.sh ./prog_faulty 1
EOF_M
run 1 "$CULPRIT" --store run.store run --skip-as fail --tests manifest.txt
[ "$(verdict_of run.store t3)" = fail ] && pass || fail "culprit run --skip-as fail: t3 is '$(verdict_of run.store t3)'"

# ---- a bad value ----
run 2 "$CULPRIT" --store bad.store test --skip-as maybe -- ./setup.sh ./prog 1
expect_contains "$WORK/err" "--skip-as expects skip, fail or fail-if-passed, not 'maybe'"
finish
