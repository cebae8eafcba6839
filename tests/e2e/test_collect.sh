# test_collect.sh - culprit test end to end: programs built with culprit-cc,
# run through `culprit test`, ranked with `culprit rank`.  Covers the mid
# example (the fault must rank first), a crash, a fork, a timeout, and a
# program built without culprit-cc.  Skips (counting nothing) when
# culprit-cc or the runtime has not been built.
. "$(dirname "$0")/lib.sh"

BUILD_DIR=$(dirname "$CULPRIT")
CC_WRAPPER="$BUILD_DIR/culprit-cc"
if [ ! -x "$CC_WRAPPER" ] || [ ! -f "$BUILD_DIR/libculprit-rt.a" ]; then
    echo "$E2E_NAME: note: $CC_WRAPPER or the runtime is not built; skipping"
    finish
    exit 0
fi
if ! "$CC_WRAPPER" -g -o mid "$TOP/examples/mid/mid.c" 2>"$WORK/cc.err"; then
    echo "$E2E_NAME: note: culprit-cc cannot build examples/mid yet; skipping: $(head -c 300 "$WORK/cc.err")"
    finish
    exit 0
fi

# ---- mid: six tests, one failing; the fault is mid.c:12 ----
mid_test() { # NAME EXPECTED X Y Z EXIT
    printf '%s\n' "$2" >"$WORK/expect.$1"
    run "$6" "$CULPRIT" test --name "$1" --expect "$WORK/expect.$1" -- ./mid "$3" "$4" "$5"
}
mid_test t1 3 3 3 5 0
mid_test t2 2 1 2 3 0
mid_test t3 2 3 2 1 0
mid_test t4 5 5 5 5 0
mid_test t5 4 5 3 4 0
mid_test t6 2 2 1 3 0 # the faulty program prints 1: the verdict is fail, the exit status still 0
expect_file_equals "$WORK/out" "1"

# Plain lines (--kind line): the default would score lines by their tuples.
run 0 "$CULPRIT" rank --kind line --formula tarantula --format csv
first=$(sed -n 2p "$WORK/out")
case $first in
*mid.c:12,*) pass ;;
*) fail "tarantula ranks '$first' first, expected mid.c:12" ;;
esac
case $first in
1,0.83333333333333*) pass ;;
*) fail "tarantula's first entry is '$first', expected rank 1 and score 0.8333" ;;
esac
run 0 "$CULPRIT" rank --kind line --formula ochiai --format csv
case $(sed -n 2p "$WORK/out") in
*mid.c:12,*) pass ;;
*) fail "ochiai ranks '$(sed -n 2p "$WORK/out")' first, expected mid.c:12" ;;
esac
run 0 "$CULPRIT" rank --kind branch --format csv
expect_contains "$WORK/out" "mid.c:8:"
expect_contains "$WORK/out" ":true"
run 0 "$CULPRIT" rank --kind return --format csv
expect_contains "$WORK/out" "()="
run 0 "$CULPRIT" export json
expect_contains "$WORK/out" '"verdict": "fail"'

# ---- a crash: verdict fail, exit status 128+SIGSEGV, crash site recorded ----
cat >crash.c <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static int *pointer_for(const char *word) { return strcmp(word, "crash") == 0 ? NULL : malloc(sizeof(int)); }
int main(int argc, char **argv)
{
    int *value = pointer_for(argc > 1 ? argv[1] : "");
    printf("storing\n");
    fflush(stdout);
    *value = 42;
    printf("%d\n", *value);
    return 0;
}
EOF
export CULPRIT_STORE="$WORK/crash-store"
"$CC_WRAPPER" -g -o crash crash.c 2>"$WORK/cc.err" || fail "culprit-cc crash.c: $(head -c 300 "$WORK/cc.err")"
run 0 "$CULPRIT" test --name ok -- ./crash fine
run 139 "$CULPRIT" test --name crashing -- ./crash crash
if command -v sqlite3 >/dev/null; then
    verdict=$(sqlite3 "$CULPRIT_STORE/culprit.db" "SELECT verdict FROM tests WHERE name = 'crashing'")
    [ "$verdict" = fail ] && pass || fail "crash verdict is '$verdict'"
    crash=$(sqlite3 "$CULPRIT_STORE/culprit.db" \
        "SELECT r.signal, r.crash FROM test_runs r JOIN tests t ON t.id = r.test_id WHERE t.name = 'crashing'")
    case $crash in
    11\|*'"signal":11'*'crash.c'*) pass ;;
    *) fail "crash site not recorded: '$crash'" ;;
    esac
fi

# ---- a fork: both processes' hits count ----
cat >fork.c <<'EOF'
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
static void in_child(void) { printf("child\n"); }
static void in_parent(void) { printf("parent\n"); }
int main(void)
{
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
        in_child();
        return 0;
    }
    waitpid(child, NULL, 0);
    in_parent();
    return 0;
}
EOF
export CULPRIT_STORE="$WORK/fork-store"
"$CC_WRAPPER" -g -o fork fork.c 2>"$WORK/cc.err" || fail "culprit-cc fork.c: $(head -c 300 "$WORK/cc.err")"
run 0 "$CULPRIT" test --name forking -- ./fork
run 0 "$CULPRIT" export csv
expect_contains "$WORK/out" "fork.c:4"
# One test: its row must have a 1 under fork.c:4 (child) and fork.c:5 (parent).
row_has() { # COMPONENT
    awk -F, -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if (index($i, c)) col = i } NR == 2 { print $col }' "$WORK/out"
}
[ "$(row_has fork.c:4)" = 1 ] && pass || fail "the child's line is not hit: $(cat "$WORK/out")"
[ "$(row_has fork.c:5)" = 1 ] && pass || fail "the parent's line is not hit"

# ---- a timeout: verdict timeout, spectra kept ----
cat >sleepy.c <<'EOF'
#include <stdio.h>
#include <unistd.h>
int main(void)
{
    printf("going to sleep\n");
    fflush(stdout);
    for (;;)
        sleep(1);
}
EOF
export CULPRIT_STORE="$WORK/sleep-store"
"$CC_WRAPPER" -g -o sleepy sleepy.c 2>"$WORK/cc.err" || fail "culprit-cc sleepy.c: $(head -c 300 "$WORK/cc.err")"
run 143 "$CULPRIT" test --timeout 1 --name sleeping -- ./sleepy
run 0 "$CULPRIT" export csv
expect_contains "$WORK/out" "sleeping,timeout"
[ "$(row_has sleepy.c:5)" = 1 ] && pass || fail "the timed-out test's spectra are lost: $(cat "$WORK/out")"

# ---- not instrumented: recorded, with a warning ----
export CULPRIT_STORE="$WORK/plain-store"
run 3 "$CULPRIT" test --name plain -- sh -c 'exit 3'
expect_contains "$WORK/err" "wrote no coverage; was it built with culprit-cc?"
run 77 "$CULPRIT" test --name skipped -- sh -c 'exit 77'
run 0 "$CULPRIT" export csv
expect_contains "$WORK/out" "plain,fail"
expect_contains "$WORK/out" "skipped,skip"
run 127 "$CULPRIT" test -- ./no-such-program
expect_contains "$WORK/err" "cannot run './no-such-program'"

# ---- a relative TMPDIR (gnulib's test setup sets TMPDIR=.) and a test that cd's away ----
# The collection directory must be absolute, or a program the test starts
# from another directory writes its dumps where nobody looks, and every
# hit is lost.
cat >wanderer.c <<'END'
#include <stdio.h>
int main(int argc, char **argv)
{
    puts(argc > 1 ? argv[1] : "home");
    return 0;
}
END
mkdir -p wander/tmp
if "$CC_WRAPPER" -o wander/wanderer wanderer.c 2>"$WORK/cc.err"; then
    (cd wander && TMPDIR=tmp CULPRIT_DUMP_TMPDIR= CULPRIT_STORE="$WORK/wander/store" \
        "$CULPRIT" test --name away -- sh -c "cd / && $WORK/wander/wanderer" >/dev/null 2>"$WORK/err") &&
        pass || fail "culprit test: $(cat "$WORK/err")"
    printf 'away2: cd / && %s x\n' "$WORK/wander/wanderer" >wander/manifest
    (cd wander && TMPDIR=. CULPRIT_DUMP_TMPDIR= CULPRIT_STORE="$WORK/wander/store" \
        "$CULPRIT" run --tests manifest >/dev/null 2>"$WORK/err") && pass || fail "culprit run: $(cat "$WORK/err")"
    run 0 "$CULPRIT" --store "$WORK/wander/store" rank --kind line --top 0 --format csv
    expect_contains "$WORK/out" "wanderer.c:4,,0,2,0,0,"
    [ -z "$(ls wander/tmp)" ] && pass || fail "the relative TMPDIR kept: $(ls wander/tmp)"
else
    fail "culprit-cc wanderer.c: $(cat "$WORK/cc.err")"
fi

# ---- where the dumps go: a tmpfs (docs/harness.md, "The collection directory") ----
# CULPRIT_DUMP_TMPDIR names the parent of the collection directories (else
# /dev/shm when it is a tmpfs with room; empty: the test's temporary
# directory, under TMPDIR).  The hits are recorded from there, and nothing
# is left behind.
export CULPRIT_STORE="$WORK/dump-store"
mkdir -p dumps tmp
printf '#!/bin/sh\necho "$CULPRIT_COLLECT_DIR" >"%s/collect.$1"\nexec "%s" 3 3 5\n' "$WORK" "$WORK/mid" >where.sh
chmod +x where.sh
shm_kind=$(stat -f -c %T /dev/shm 2>/dev/null)
for place in dumps none default; do
    case $place in
    dumps) TMPDIR="$WORK/tmp" CULPRIT_DUMP_TMPDIR="$WORK/dumps" run 0 "$CULPRIT" test --name "at-$place" -- ./where.sh "$place" ;;
    none) TMPDIR="$WORK/tmp" CULPRIT_DUMP_TMPDIR= run 0 "$CULPRIT" test --name "at-$place" -- ./where.sh "$place" ;;
    default) (unset CULPRIT_DUMP_TMPDIR && TMPDIR="$WORK/tmp" run 0 "$CULPRIT" test --name "at-$place" -- ./where.sh "$place") ;;
    esac
    collect=$(cat "$WORK/collect.$place")
    case $place:$shm_kind:$collect in
    dumps:*:"$WORK"/dumps/culprit-test.*) pass ;;
    none:*:"$WORK"/tmp/culprit-test.*/collect) pass ;;
    default:tmpfs:/dev/shm/culprit-test.*) pass ;;
    default:tmpfs:*) fail "the collection directory was $collect beside a tmpfs /dev/shm" ;;
    default:*:"$WORK"/tmp/culprit-test.*/collect) pass ;;
    *) fail "$place: the collection directory was $collect" ;;
    esac
    [ -e "$collect" ] && fail "$place: $collect is left" || pass
done
left=$(ls dumps tmp | grep -v -e '^culprit-maps-' -e '^$' -e ':$') # the kept maps stay (harness_keep_maps)
[ -z "$left" ] && pass || fail "left behind: $left"
# each of the three runs' hits was collected: mid.c:12 ran in all three (ep = 3)
run 0 "$CULPRIT" rank --kind line --top 0 --format csv
expect_contains "$WORK/out" "mid.c:12,,0,3,"
run 0 "$CULPRIT" export csv
for place in dumps none default; do expect_contains "$WORK/out" "at-$place,pass"; done

finish
