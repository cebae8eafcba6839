#!/bin/sh
# test_process_ends.sh - ways a process ends that the runtime once got
# wrong (issue 19, item 6; docs/collector.md §4):
# - dlclose of an instrumented library: the registry kept the unloaded
#   descriptor and the dump at exit read unmapped memory, so a passing
#   test crashed at exit with no hits.  Now the library's hits survive it,
#   in an instrumented program and in a plain one (where the runtime itself
#   lives in the library and is unloaded with it), and across a reload;
#   a crash after the unload still dies of its own signal;
# - quick_exit: only at_quick_exit handlers run, and none dumped;
# - abort() after other statements of its block (a signal handler's
#   `got = sig; abort();`) was placed on the block's first line: a call
#   that never returns now begins its own block;
# - SIGXFSZ was "signal 25 (a signal)": every signal has its name.
. "$(dirname "$0")/lib.sh"
need_culprit_cc clang-14

cat >lib.c <<'END'
int lib_add(int a, int b)
{
    if (a > b)
        return a - b; /* @greater */
    return a + b; /* @sum */
}
END
cat >reload.c <<'END'
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

static int call(const char *path, int a)
{
    void *library = dlopen(path, RTLD_NOW);
    if (!library) {
        fprintf(stderr, "%s\n", dlerror());
        exit(2);
    }
    int (*add)(int, int) = (int (*)(int, int))dlsym(library, "lib_add");
    int result = add(a, 2);
    dlclose(library);
    return result;
}

int main(int argc, char **argv)
{
    printf("%d\n", call(argv[1], 1)); /* @first_call */
    if (argc > 2 && argv[2][0] == 'r')
        printf("%d\n", call(argv[1], 5)); /* @second_call */
    if (argc > 2 && argv[2][0] == 'a')
        abort();
    return 0;
}
END
cat >quick.c <<'END'
#include <stdio.h>
#include <stdlib.h>

static void last_words(void)
{
    puts("bye"); /* @handler */
}

int main(int argc, char **argv)
{
    at_quick_exit(last_words);
    if (argc > 1)
        puts("argument"); /* @argument */
    quick_exit(3);
}
END
cat >handler.c <<'END'
#include <signal.h>
#include <stdlib.h>

volatile sig_atomic_t got;
volatile int counter;

static void on_usr1(int sig)
{
    got = sig;
    counter += 2;
    abort(); /* @abort */
}

int main(void)
{
    signal(SIGUSR1, on_usr1);
    counter = 1;
    raise(SIGUSR1);
    return 0;
}
END
cat >bigfile.c <<'END'
#include <signal.h>

int main(void)
{
    raise(SIGXFSZ); /* @raise */
    return 0;
}
END
line_of() { grep -n "@$1 " "$2" | cut -d: -f1; }

expect_hits() { # STORE FILE:LINE...
    run 0 "$CULPRIT" --store "$1" export json -o "$1.json"
    hit_lines "$1.json" >hits.txt
    store=$1
    shift
    for want in "$@"; do
        if grep -qx "$want" hits.txt; then pass; else fail "$store: $want not hit (hits: $(tr '\n' ' ' <hits.txt))"; fi
    done
}

sum=lib.c:$(line_of sum lib.c) greater=lib.c:$(line_of greater lib.c)
first=reload.c:$(line_of first_call reload.c) second=reload.c:$(line_of second_call reload.c)
for mode in lines full; do
    mkdir -p "$mode"
    run 0 "$culprit_cc" --coverage=$mode -g -O2 -shared -fPIC -o "$mode/libx.so" lib.c
    run 0 "$culprit_cc" --coverage=$mode -g -O2 -o "$mode/reload" reload.c -ldl
    run 0 clang-14 -g -O2 -o "$mode/plain_reload" reload.c -ldl
    for program in reload plain_reload; do
        # Load, call, unload, exit 0: a pass with the library's hits.
        store=st-$mode-$program
        run 0 "$CULPRIT" --store "$store" test --name t -- "./$mode/$program" "$PWD/$mode/libx.so"
        expect_test_field "$store" verdict pass
        expect_hits "$store" "$sum"
        [ $program = reload ] && expect_hits "$store" "$first"
        # Twice, each time a new copy of the library: both copies' hits.
        store=st-$mode-$program-reload
        run 0 "$CULPRIT" --store "$store" test --name t -- "./$mode/$program" "$PWD/$mode/libx.so" r
        expect_test_field "$store" verdict pass
        expect_hits "$store" "$sum" "$greater"
        [ $program = reload ] && expect_hits "$store" "$first" "$second"
        # abort() after the unload dies of SIGABRT, not of a handler left in unmapped code.
        store=st-$mode-$program-abort
        run 134 "$CULPRIT" --store "$store" test --name t -- "./$mode/$program" "$PWD/$mode/libx.so" a
        expect_test_field "$store" signal 6
        expect_hits "$store" "$sum"
    done

    # quick_exit: the hits, the status, and the program's own handler's hit and output.
    run 0 "$culprit_cc" --coverage=$mode -g -O2 -o "$mode/quick" quick.c
    store=st-$mode-quick
    run 3 "$CULPRIT" --store "$store" test --name t -- "./$mode/quick" x
    expect_test_field "$store" exit_status 3
    expect_hits "$store" "quick.c:$(line_of argument quick.c)" "quick.c:$(line_of handler quick.c)"
    rm -rf dumps && mkdir dumps
    CULPRIT_COLLECT_DIR="$PWD/dumps" "./$mode/quick" >/dev/null
    count=$(find dumps -name '*.dump' | wc -l)
    if [ "$count" -eq 1 ]; then pass; else fail "$mode quick_exit: $count dumps, expected 1"; fi

    # abort() in a signal handler, after other statements: the crash site is its line.
    for level in 0 2; do
        run 0 "$culprit_cc" --coverage=$mode -g -O$level -o "$mode/handler" handler.c
        store=st-$mode-$level-handler
        run 134 "$CULPRIT" --store "$store" test --name t -- "./$mode/handler"
        expect_hits "$store" "handler.c:$(line_of abort handler.c)"
        if [ $mode = full ]; then
            expect_test_field "$store" crash_site "$PWD/handler.c:$(line_of abort handler.c) (on_usr1)"
        fi
    done
done

# Every signal by its name.
run 0 "$culprit_cc" -g -o bigfile bigfile.c
"$CULPRIT" --store st-bigfile test --name t -- ./bigfile >/dev/null 2>&1
expect_test_field st-bigfile message "killed by signal $(kill -l XFSZ 2>/dev/null || echo 25) (SIGXFSZ)"
finish
