#!/bin/sh
# test_shared_objects.sh - programs with instrumented shared objects keep
# one runtime per process (docs/collector.md §1): culprit-cc links the whole
# runtime into each program and exports its entry points, so a library
# linked with the program (-lx, which the linker sees before the runtime)
# or loaded with dlopen binds to the program's copy.  With a copy each, a
# crash in a dlopen'ed library lost all of the library's hits: only the
# program's copy installed crash handlers.  An uninstrumented program that
# loads the library uses the library's own copy, and with two libraries the
# second binds to the first's.  In both modes, for a run
# that ends normally and one that crashes in the library: the library's
# lines up to the crash are hit, and each process leaves one dump.
. "$(dirname "$0")/lib.sh"
need_culprit_cc clang-14

cat >lib.c <<'END'
#include <stdlib.h>

int *volatile nowhere;

int lib_add(int a, int b)
{
    if (a > b)
        return a - b; /* @greater */
    if (getenv("CRASH"))
        return *nowhere; /* @crash */
    return a + b; /* @sum */
}
END
cat >linked.c <<'END'
#include <stdio.h>

int lib_add(int a, int b);

int main(int argc, char **argv)
{
    printf("%d\n", lib_add(argc, 2)); /* @linked_call */
    return 0;
}
END
cat >loader.c <<'END'
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    void *library = dlopen(argv[1], RTLD_NOW);
    if (!library) {
        fprintf(stderr, "%s\n", dlerror());
        return 2;
    }
    int (*add)(int, int) = (int (*)(int, int))dlsym(library, "lib_add");
    printf("%d\n", add(argc, 2)); /* @loader_call */
    return 0;
}
END
cat >liba.c <<'END'
int a_twice(int v) { return 2 * v; }
END
cat >two.c <<'END'
#include <stdio.h>

int a_twice(int v);
int lib_add(int a, int b);

int main(int argc, char **argv)
{
    printf("%d\n", a_twice(lib_add(argc, 2)));
    return 0;
}
END
line_of() { grep -n "@$1 " "$2" | cut -d: -f1; }

# expect_hits JSON FILE:LINE... / expect_no_hits JSON FILE:LINE...
expect_hits() {
    hit_lines "$1" >hits.txt
    shift
    for want in "$@"; do
        if grep -qx "$want" hits.txt; then pass; else fail "$want not hit (hits: $(tr '\n' ' ' <hits.txt))"; fi
    done
}
expect_no_hits() {
    hit_lines "$1" >hits.txt
    shift
    for unwanted in "$@"; do
        if grep -qx "$unwanted" hits.txt; then fail "$unwanted hit though it never ran"; else pass; fi
    done
}

crash=lib.c:$(line_of crash lib.c) sum=lib.c:$(line_of sum lib.c) greater=lib.c:$(line_of greater lib.c)
for mode in lines full; do
    mkdir -p "$mode"
    run 0 "$culprit_cc" --coverage=$mode -g -O2 -shared -fPIC -o "$mode/libx.so" lib.c
    run 0 "$culprit_cc" --coverage=$mode -g -O2 -o "$mode/linked" linked.c -L"$mode" -lx -Wl,-rpath,"$PWD/$mode"
    run 0 "$culprit_cc" --coverage=$mode -g -O2 -o "$mode/loader" loader.c -ldl
    run 0 clang-14 -g -O2 -o "$mode/plain_loader" loader.c -ldl
    # The program exports the runtime's entry points for the library to bind to.
    if nm -D "$mode/loader" | grep -q " T __culprit_rt_register"; then pass; else
        fail "$mode: the program does not export __culprit_rt_register"
    fi
    for program in linked loader plain_loader; do
        args=
        [ "$program" = linked ] || args="$PWD/$mode/libx.so"
        # lib_add faults when CRASH is set; NO_CRASH sets nothing it reads.
        for crash_env in NO_CRASH=1 CRASH=1; do
            store="st-$mode-$program-$crash_env"
            # shellcheck disable=SC2086
            env $crash_env "$CULPRIT" --store "$store" test --name t -- "./$mode/$program" $args >/dev/null 2>&1
            run 0 "$CULPRIT" --store "$store" export json -o "$store.json"
            if [ $crash_env = CRASH=1 ]; then
                expect_hits "$store.json" "$crash"
                expect_no_hits "$store.json" "$sum" "$greater"
            else
                expect_hits "$store.json" "$sum"
                expect_no_hits "$store.json" "$crash" "$greater"
            fi
            case $program in
            linked) expect_hits "$store.json" "linked.c:$(line_of linked_call linked.c)" ;;
            loader) expect_hits "$store.json" "loader.c:$(line_of loader_call loader.c)" ;;
            esac
            # One runtime in the process: one dump, naming the program's and the library's units.
            rm -rf dumps && mkdir dumps
            # shellcheck disable=SC2086
            env $crash_env CULPRIT_COLLECT_DIR="$PWD/dumps" "./$mode/$program" $args >/dev/null 2>&1
            count=$(find dumps -name '*.dump' | wc -l)
            if [ "$count" -eq 1 ]; then pass; else fail "$mode $program $crash_env: $count dumps, expected 1"; fi
        done
    done
    # An uninstrumented program linked with two instrumented libraries: the
    # second binds to the first's runtime, which catches the crash in it.
    run 0 "$culprit_cc" --coverage=$mode -g -O2 -shared -fPIC -o "$mode/liba.so" liba.c
    run 0 clang-14 -g -O2 -o "$mode/two" two.c -L"$mode" -la -lx -Wl,-rpath,"$PWD/$mode"
    CRASH=1 "$CULPRIT" --store "st-$mode-two" test --name t -- "./$mode/two" >/dev/null 2>&1
    run 0 "$CULPRIT" --store "st-$mode-two" export json -o "st-$mode-two.json"
    expect_hits "st-$mode-two.json" "$crash"
    expect_no_hits "st-$mode-two.json" "liba.c:1"
    rm -rf dumps && mkdir dumps
    CRASH=1 CULPRIT_COLLECT_DIR="$PWD/dumps" "./$mode/two" >/dev/null 2>&1
    count=$(find dumps -name '*.dump' | wc -l)
    if [ "$count" -eq 1 ]; then pass; else fail "$mode two libraries: $count dumps, expected 1"; fi
done
# Static links export nothing; a -static-pie program with an exported
# thread-local shadow stack crashed relocating itself at start.
for flag in -static -static-pie; do
    run 0 "$culprit_cc" -g -O2 $flag -o "static$flag" linked.c lib.c
    "$CULPRIT" --store "st$flag" test --name t -- "./static$flag" >/dev/null 2>&1
    run 0 "$CULPRIT" --store "st$flag" export json -o "st$flag.json"
    expect_hits "st$flag.json" "$sum" "linked.c:$(line_of linked_call linked.c)"
done
finish
