# test_cc.sh - culprit-cc as a drop-in C compiler: the program map it embeds
# (docs/collector.md §2), the runtime it links, and the command lines build
# systems give it (-c, -o, several sources, -MD, -E, assembly, response
# files, --coverage=lines, errors, plain make, CMake).
# Checks that run an instrumented program need the runtime archive
# (libculprit-rt.a beside culprit-cc); without it they are skipped, and said so.
. "$(dirname "$0")/lib.sh"

CCC="$(cd "$(dirname "$CULPRIT")" && pwd)/culprit-cc"
RUNTIME="$(dirname "$CCC")/libculprit-rt.a"
CLANG=${CULPRIT_CLANG:-clang-14}
MID="$TOP/examples/mid/mid.c"
have_runtime=false
# culprit-cc's temporary files go here, so the last check sees only ours.
export TMPDIR="$WORK/tmp"
mkdir "$TMPDIR"
[ -f "$RUNTIME" ] && have_runtime=true
$have_runtime || echo "$E2E_NAME: note: no $RUNTIME; skipping the checks that link and run programs" >&2

# extract_map BINARY_OR_OBJECT OUT : the culprit_map section's bytes.
extract_map() { objcopy -O binary --only-section=culprit_map "$1" "$2"; }

# field_count FILE AWK_CONDITION : how many tab-separated records satisfy it.
field_count() { awk -F'\t' "$2 { n++ } END { print n + 0 }" "$1"; }

expect_nonzero() { # LABEL NUMBER
    if [ "$2" -gt 0 ]; then pass; else fail "$1: none found"; fi
}

# ---- --help: culprit-cc's own options first, then clang's ------------------------------------------
run 0 "$CCC" --help
[ "$(head -n 1 "$WORK/out" | cut -c1-18)" = "usage: culprit-cc " ] && pass || fail "--help starts with: $(head -n 1 "$WORK/out")"
expect_contains "$WORK/out" "--coverage=lines"
expect_contains "$WORK/out" "clang's own options follow"
expect_contains "$WORK/out" "OVERVIEW: clang"

# ---- the mid() example: map contents and hash -----------------------------------------------------
cp "$MID" mid.c
if $have_runtime; then
    run 0 "$CCC" -o mid mid.c
    binary=mid
else
    run 0 "$CCC" -c -o mid.o mid.c
    binary=mid.o
fi
readelf -S "$binary" >sections
expect_contains sections culprit_map
extract_map "$binary" map
if [ "$(head -n 1 map)" = "$(printf 'culprit-map\t1')" ]; then pass; else fail "map starts with '$(head -n 1 map)'"; fi
for line in 7 8 9 10 11 12 14 15 16 17 19 24 25 28 29; do
    expect_nonzero "line $line in map" "$(field_count map "\$1 == \"line\" && \$2 == 0 && \$3 == $line")"
done
expect_nonzero "function mid" "$(field_count map '$1 == "function" && $3 == "mid" && $5 == 5')"
for line in 8 9 11 14 16; do
    for outcome in true false; do
        expect_nonzero "branch $outcome on line $line" \
            "$(field_count map "\$1 == \"branch\" && \$4 == $line && \$6 == \"$outcome\"")"
    done
done
for class in negative zero positive; do
    # three atoi calls, each with the three integer classes
    if [ "$(field_count map "\$1 == \"return\" && \$8 == \"atoi\" && \$7 == \"$class\"")" -eq 3 ]; then pass; else
        fail "expected 3 return records atoi=$class"
    fi
done
hash=$(awk -F'\t' '$1 == "unit" { print $2 }' map)
body_hash=$(sed -n '3,$p' map | sha256sum | cut -d' ' -f1)
if [ -n "$hash" ] && [ "$hash" = "$body_hash" ]; then pass; else fail "unit hash $hash, body hashes to $body_hash"; fi
if [ "$(tail -n 1 map)" = end ]; then pass; else fail "map does not end with 'end'"; fi
# Rebuilding gives the same map: the hash is the unit's identity.
"$CCC" -c -o again.o mid.c && extract_map again.o map2
if [ "$(awk -F'\t' '$1 == "unit" { print $2 }' map2)" = "$hash" ]; then pass; else fail "rebuild changed the hash"; fi

# ---- running it, with and without collection ------------------------------------------------------
if $have_runtime; then
    mkdir quiet && (cd quiet && ../mid 3 1 2 >../plain.out 2>&1)
    expect_file_equals plain.out 2
    if [ -z "$(ls -A quiet)" ]; then pass; else fail "uncollected run created files: $(ls -A quiet)"; fi
    mkdir collected
    CULPRIT_COLLECT_DIR="$WORK/collected" ./mid 3 1 2 >collected.out 2>&1
    expect_same plain.out collected.out
    if [ -f "collected/$hash.map" ]; then pass; else fail "no collected/$hash.map: $(ls collected)"; fi
    expect_same map "collected/$hash.map"
    if ls collected/*.dump >/dev/null 2>&1; then pass; else fail "no dump in collected/: $(ls collected)"; fi
    run 2 ./mid 1 2
    expect_contains "$WORK/err" "usage: mid X Y Z"
fi

# ---- -c with several sources, -o, linking objects ---------------------------------------------------
mkdir multi && cd multi || exit 1
cat >util.c <<'EOF'
int twice(int x) { return 2 * x; }
EOF
cat >main.c <<'EOF'
#include <stdio.h>
int twice(int x);
int main(void) { printf("%d\n", twice(21)); return 0; }
EOF
run 0 "$CCC" -c util.c main.c
for object in util.o main.o; do
    if [ -f $object ] && readelf -S $object | grep -q culprit_map; then pass; else fail "no instrumented $object"; fi
done
run 0 "$CCC" -c util.c -o sub.o
if [ -f sub.o ] && readelf -S sub.o | grep -q culprit_map; then pass; else fail "-o sub.o not honoured"; fi
run 1 "$CCC" -c util.c main.c -o both.o # clang refuses -o with several outputs
if $have_runtime; then
    run 0 "$CCC" -o prog util.o main.o # link only: the runtime is added
    run 0 ./prog
    expect_file_equals "$WORK/out" 42
    run 0 "$CCC" -O2 -Wall -o prog2 util.c main.c -lm # compile and link in one go
    run 0 ./prog2
    expect_file_equals "$WORK/out" 42
    extract_map prog2 map2
    if [ "$(grep -c '^culprit-map' map2)" -eq 2 ]; then pass; else fail "prog2 should hold two units' maps"; fi
fi
cd "$WORK" || exit 1

# ---- dependency files ----------------------------------------------------------------------------
mkdir deps && cd deps || exit 1
printf '#define VALUE 7\n' >value.h
printf '#include "value.h"\nint value(void) { return VALUE; }\n' >value.c
mkdir obj
run 0 "$CCC" -c value.c -o obj/value.o -MD -MF obj/value.dep
expect_contains obj/value.dep "obj/value.o:"
expect_contains obj/value.dep "value.h"
if grep -q culprit-cc obj/value.dep; then fail "dependency file names a temporary file"; else pass; fi
run 0 "$CCC" -c value.c -o obj/v2.o -MMD -MP
expect_contains obj/v2.d "obj/v2.o:"
expect_contains obj/v2.d "value.h:"
run 0 "$CCC" -c value.c -MD -MT custom-target
expect_contains value.d "custom-target:"
cd "$WORK" || exit 1

# ---- pass-through: -E, assembly, disabled ------------------------------------------------------------
run 0 "$CCC" -E mid.c -DEXTRA=1
cp "$WORK/out" ours.i
"$CLANG" -E mid.c -DEXTRA=1 >theirs.i
expect_same ours.i theirs.i
cat >asm.s <<'EOF'
    .text
    .globl answer
answer:
    movl $42, %eax
    ret
EOF
run 0 "$CCC" -c asm.s -o asm.o
if [ -f asm.o ] && ! readelf -S asm.o | grep -q culprit_map; then pass; else fail "assembly was not passed through"; fi
CULPRIT_CC_DISABLE=1 "$CCC" -c mid.c -o plain.o
if [ -f plain.o ] && ! readelf -S plain.o | grep -q culprit_map; then pass; else fail "CULPRIT_CC_DISABLE=1 instrumented"; fi
run 0 "$CCC" --version
expect_contains "$WORK/out" "clang version"
run 0 "$CCC" --culprit-version
expect_contains "$WORK/out" culprit-cc

# stdin under -x c is compiled by clang uninstrumented, and -x c must not reach the runtime archive.
if $have_runtime; then
    printf 'int main(void) { return 3; }\n' | "$CCC" -x c - -o from-stdin
    run 3 ./from-stdin
fi
printf 'int plain(void) { return 1; }\n__attribute__((naked)) void bare(void) { __asm__("ret"); }\n' >naked.c
run 0 "$CCC" -c naked.c
extract_map naked.o naked.map
if [ "$(field_count naked.map '$1 == "function" && $3 == "bare"')" -eq 0 ]; then pass; else fail "naked function instrumented"; fi

# ---- DWARF version (real projects: sed's valgrind tests) --------------------------------------------
# clang 14's default DWARF 5 makes Debian 12's valgrind print "unhandled dwarf2 abbrev form code" and
# fail tests that compare stderr; culprit-cc writes DWARF 4 unless the user picks a version.
dwarf_version() { readelf --debug-dump=info "$1" 2>/dev/null | awk '/Version:/ { print $2; exit }'; }
run 0 "$CCC" -g -O2 -c mid.c -o dwarf-default.o
if [ "$(dwarf_version dwarf-default.o)" = 4 ]; then pass; else fail "-g gave DWARF $(dwarf_version dwarf-default.o), not 4"; fi
run 0 "$CCC" -g -gdwarf-5 -c mid.c -o dwarf-5.o
if [ "$(dwarf_version dwarf-5.o)" = 5 ]; then pass; else fail "-gdwarf-5 gave DWARF $(dwarf_version dwarf-5.o)"; fi

# ---- sanitizers ------------------------------------------------------------------------------------
# culprit-cc leaves out the lifetime markers of locals (docs/collector.md §1) unless a sanitizer is
# asked for: AddressSanitizer reads them to report a use after the variable's scope ended.
cat >scope.c <<'END'
#include <stdio.h>
int main(int argc, char **argv)
{
    int *p = 0;
    (void)argv;
    {
        int x = argc;
        p = &x;
    }
    printf("%d\n", *p);
    return 0;
}
END
if $have_runtime && clang-14 -fsanitize=address scope.c -o scope-probe 2>/dev/null; then
    run 0 "$CCC" -g -fsanitize=address scope.c -o scope
    ./scope >/dev/null 2>scope.err
    if grep -q stack-use-after-scope scope.err; then pass; else fail "-fsanitize=address lost use-after-scope"; fi
else
    echo "$E2E_NAME: note: no AddressSanitizer runtime; skipping the sanitizer check" >&2
fi

# ---- lifetime markers ------------------------------------------------------------------------------
# Left out by default (the map is the same at every -O), so locals of disjoint scopes do not share
# stack slots; kept with --lifetime-markers and when the build limits frame sizes.
cat >scopes.c <<'END'
void use(char *);
int pick(int k)
{
    switch (k) {
    case 0: { char a[3000]; use(a); return a[1]; }
    case 1: { char b[3000]; use(b); return b[2]; }
    case 2: { char c[3000]; use(c); return c[3]; }
    default: { char d[3000]; use(d); return d[4]; }
    }
}
END
run 0 "$CCC" -O2 -c scopes.c -o scopes-O2.o
run 0 "$CCC" -O0 -c scopes.c -o scopes-O0.o
run 0 "$CCC" -O2 --lifetime-markers -c scopes.c -o scopes-kept.o
for object in scopes-O2 scopes-O0 scopes-kept; do extract_map $object.o $object.map; done
if cmp -s scopes-O0.map scopes-O2.map; then pass; else fail "the -O2 map differs from the -O0 map"; fi
if cmp -s scopes-O0.map scopes-kept.map; then fail "--lifetime-markers had no effect on the map"; else pass; fi
run 0 "$CCC" -O2 -Wframe-larger-than=4096 -Werror -c scopes.c -o scopes-limited.o
run 1 "$CCC" -O2 -Xclang -disable-lifetime-markers -Wframe-larger-than=4096 -Werror -c scopes.c -o never.o

# ---- response files ---------------------------------------------------------------------------------
printf -- '-c "mid.c"\n-o '"'"'from rsp.o'"'"' -DNAME=\\"x\\"\n' >args.rsp
run 0 "$CCC" @args.rsp
if [ -f "from rsp.o" ] && readelf -S "from rsp.o" | grep -q culprit_map; then pass; else fail "@args.rsp not expanded"; fi

# ---- --coverage=lines ---------------------------------------------------------------------------------
run 0 "$CCC" --coverage=lines -c mid.c -o lines.o
extract_map lines.o lines.map
if [ "$(awk -F'\t' '$1 == "unit" { print $3 }' lines.map)" = lines ]; then pass; else fail "mode is not lines"; fi
if [ "$(field_count lines.map '$1 == "branch" || $1 == "return" || $1 == "edge"')" -eq 0 ]; then pass; else
    fail "lines mode map has edge/branch/return records"
fi
expect_nonzero "lines-mode line records" "$(field_count lines.map '$1 == "line"')"
CULPRIT_COVERAGE=lines "$CCC" -c mid.c -o lines2.o && extract_map lines2.o lines2.map
expect_same lines.map lines2.map
if $have_runtime; then
    run 0 "$CCC" --coverage=lines -o mid-lines mid.c
    run 0 ./mid-lines 3 1 2
    expect_file_equals "$WORK/out" 2
fi

# ---- musttail: nothing may come between the call and its ret ------------------------------------------
# Full mode restores the shadow stack's depth before each ret and counts the class of each used call
# result; for a musttail call both would sit between it and its ret, which the verifier rejects.
cat >tail.c <<'END'
#include <stdio.h>
int odd(int n);
int even(int n)
{
    if (n <= 0)
        return 1;
    __attribute__((musttail)) return odd(n - 1);
}
int odd(int n)
{
    if (n <= 0)
        return 0;
    __attribute__((musttail)) return even(n - 1);
}
int main(int argc, char **argv)
{
    (void)argv;
    printf("%d\n", even(argc + 100000));
    return 0;
}
END
if $have_runtime; then
    for options in "-O0" "-O2" "--coverage=lines -O0" "--coverage=lines -O2"; do
        # shellcheck disable=SC2086
        run 0 "$CCC" $options -o tail tail.c
        run 0 ./tail
        expect_file_equals "$WORK/out" 0
    done
fi

# ---- a compile error: clang's diagnostic and status ----------------------------------------------------
printf 'int broken(void) { return 1 }\n' >broken.c
run 1 "$CCC" -c broken.c
expect_contains "$WORK/err" "broken.c:1:"
expect_contains "$WORK/err" "error:"
if [ ! -e broken.o ]; then pass; else fail "broken.o exists"; fi
run 1 "$CCC" --coverage=sometimes -c mid.c
expect_contains "$WORK/err" "culprit-cc: "

# ---- plain make ------------------------------------------------------------------------------------
if $have_runtime; then
    mkdir makeproj && cd makeproj || exit 1
    printf 'int add(int a, int b);\n' >add.h
    printf '#include "add.h"\nint add(int a, int b) { return a + b; }\n' >add.c
    printf '#include <stdio.h>\n#include "add.h"\nint main(void) { printf("%%d\\n", add(2, 3)); return 0; }\n' >app.c
    printf 'app: app.o add.o\n\t$(CC) $(CFLAGS) -o $@ app.o add.o\n%%.o: %%.c add.h\n\t$(CC) $(CFLAGS) -c $< -o $@\n' \
        >Makefile
    run 0 make CC="$CCC" CFLAGS="-O2 -g -Wall"
    run 0 ./app
    expect_file_equals "$WORK/out" 5
    cd "$WORK" || exit 1
fi

# ---- CMake: a static library and an executable ---------------------------------------------------------
if $have_runtime && command -v cmake >/dev/null 2>&1; then
    mkdir cmakeproj && cd cmakeproj || exit 1
    cat >CMakeLists.txt <<'EOF'
cmake_minimum_required(VERSION 3.10)
project(demo C)
add_library(greet STATIC greet.c)
add_executable(hello hello.c)
target_link_libraries(hello greet)
EOF
    printf 'const char *greeting(int loud) { return loud ? "HELLO" : "hello"; }\n' >greet.c
    printf '#include <stdio.h>\nconst char *greeting(int);\nint main(int c, char **v) { (void)v; puts(greeting(c > 1)); return 0; }\n' \
        >hello.c
    run 0 cmake -S . -B build -DCMAKE_C_COMPILER="$CCC" -DCMAKE_BUILD_TYPE=Release
    run 0 cmake --build build
    run 0 ./build/hello
    expect_file_equals "$WORK/out" hello
    mkdir collected
    CULPRIT_COLLECT_DIR="$PWD/collected" ./build/hello loud >loud.out
    expect_file_equals loud.out HELLO
    if [ "$(ls collected/*.map 2>/dev/null | wc -l)" -eq 2 ]; then pass; else fail "expected 2 unit maps: $(ls collected)"; fi
    cd "$WORK" || exit 1
fi

# ---- culprit cc is culprit-cc ------------------------------------------------------------------------------
if [ -x "$CULPRIT" ]; then
    run 0 "$CULPRIT" cc -c mid.c -o via-culprit.o
    if readelf -S via-culprit.o | grep -q culprit_map; then pass; else fail "culprit cc did not instrument"; fi
fi

# No temporary files are left behind, not even by failed compilations.
if [ -z "$(ls -A "$TMPDIR")" ]; then pass; else fail "temporary files left: $(ls -A "$TMPDIR")"; fi

finish
