# test_recipes.sh - the harness recipes of README.md and docs/harness.md, each
# copied from the document and run as written (with culprit's build
# directory on PATH, as an installed culprit would be): automake's `make
# check LOG_COMPILE=...` on a package whose test scripts need its own
# LOG_COMPILER = $(SHELL) and that has an XFAIL test, with CC recorded by
# configure as an absolute path and make check run without culprit-cc on
# PATH; `culprit ctest` on a CMake project that knows nothing of culprit;
# meson's `meson test --wrapper 'culprit test --meson --'`; and the plain
# shell loop with a test of an error path.  Each must record every test
# under its harness's name with the harness's verdict, and leave the
# harness's own view (exit statuses, 77 = skip) unchanged.  Then what
# `culprit test` does beside: a culprit test inside a culprit test, a
# command that cannot start, --expect-failure, and concurrent first saves.
. "$(dirname "$0")/lib.sh"

case $CULPRIT in /*) ;; *) CULPRIT=$TOP/$CULPRIT ;; esac
BUILD_DIR=$(dirname "$CULPRIT")
if [ ! -x "$BUILD_DIR/culprit-cc" ] || ! command -v sqlite3 >/dev/null; then
    echo "$E2E_NAME: note: culprit-cc or sqlite3 is missing; skipping"
    finish
    exit 0
fi
PLAIN_PATH=$PATH
PATH="$BUILD_DIR:$PATH" # the recipes say `culprit` and `command -v culprit-cc`
# Only culprit, for make check: culprit-cc must come from configure's record.
mkdir only-culprit && ln -s "$CULPRIT" only-culprit/culprit

# recipe FILE TEXT : the first line of FILE holding TEXT, without its comment.
recipe() {
    line=$(grep -m1 -F -- "$2" "$TOP/$1" | sed 's/   *# .*$//')
    [ -n "$line" ] || fail "$1 has no recipe line with '$2'"
    printf '%s\n' "$line"
}
# block FILE HEADING : the first ```sh block after the heading.
block() {
    awk -v heading="$2" '$0 == heading { found = 1 } found && /^```sh/ { inside = 1; next }
        inside && /^```/ { exit } inside { print }' "$TOP/$1"
}
# verdicts: "TEST=VERDICT ..." sorted, TEST the last word of the name
# without ./ (automake's names are command lines: /bin/bash ./add_zero).
verdicts() {
    sqlite3 "$CULPRIT_STORE/culprit.db" "SELECT name || '=' || verdict FROM tests" |
        sed 's/^.* //; s|^\./||' | sort | tr '\n' ' '
}
expect_verdicts() {
    got=$(verdicts)
    if [ "$got" = "$1" ]; then pass; else fail "$2: recorded '$got', expected '$1'"; fi
}
message_of() { # the judgement message of the test whose name ends in $1
    sqlite3 "$CULPRIT_STORE/culprit.db" \
        "SELECT j.message FROM judgements j JOIN tests t ON t.id = j.test_id WHERE t.name LIKE '%$1'"
}

# One subject for all recipes: a tiny calculator with a fault, and an
# error path (division by zero) whose right answer is exit status 2.
mkdir -p src
cp "$TOP/tests/e2e/recipe_calc.c" src/calc.c

# ---- automake: README's configure and make check lines ----
if command -v autoreconf >/dev/null && command -v automake >/dev/null; then
    mkdir am && cd am || exit 1
    cp ../src/calc.c .
    cat >configure.ac <<'EOF'
AC_INIT([calc], [1.0])
AM_INIT_AUTOMAKE([foreign subdir-objects])
AC_PROG_CC
AC_CONFIG_FILES([Makefile])
AC_OUTPUT
EOF
    # Test scripts without the execute bit, run by the package's own
    # LOG_COMPILER = $(SHELL) (as patch, diffutils and grep do), and a known
    # failure in XFAIL_TESTS.
    printf 'exec ./calc add 2 0\n' >add_zero
    printf 'exec ./calc add 2 3\n' >add_three
    printf 'exec ./calc mul 2 3\n' >mul
    printf 'exec ./calc skip 0 0\n' >skipped
    printf 'exec ./calc add 1 1\n' >known_bug
    cat >Makefile.am <<'EOF'
check_PROGRAMS = calc
calc_SOURCES = calc.c
TESTS = add_zero add_three mul skipped known_bug
XFAIL_TESTS = known_bug
LOG_COMPILER = $(SHELL)
EOF
    export CULPRIT_STORE="$WORK/am-store"
    configure_line=$(recipe README.md "./configure && make")
    check_line=$(recipe README.md "make check LOG_COMPILE=")
    if autoreconf -i >autoreconf.log 2>&1 && eval "$configure_line" >configure.log 2>&1; then
        pass
        grep -q "^CC = /" Makefile && pass || fail "configure recorded CC as '$(grep '^CC =' Makefile)', not a path"
        # make check without culprit-cc on PATH: the recorded path must do.
        (PATH="$WORK/only-culprit:/usr/bin:/bin" && eval "$check_line") >check.log 2>&1
        [ $? -ne 0 ] && pass || fail "make check passed, but add_three fails"
        expect_contains check.log "PASS: add_zero"
        expect_contains check.log "FAIL: add_three"
        expect_contains check.log "SKIP: skipped"
        expect_contains check.log "XFAIL: known_bug"
        expect_verdicts "add_three=fail add_zero=pass known_bug=skip mul=pass skipped=skip " automake
        case $(message_of known_bug) in
        "expected failure (XFAIL): exit status 1"*) pass ;;
        *) fail "XFAIL message: '$(message_of known_bug)'" ;;
        esac
        expect_contains add_three.log "-1" # the test's stdout still reaches the harness's log
        # Parallel: make -j with the same store.
        rm -rf "$CULPRIT_STORE" ./*.log ./*.trs
        (PATH="$WORK/only-culprit:/usr/bin:/bin" && eval "$check_line -j4") >check.log 2>&1
        expect_verdicts "add_three=fail add_zero=pass known_bug=skip mul=pass skipped=skip " "automake -j4"
    else
        fail "autotools project did not configure: $(tail -5 autoreconf.log configure.log)"
    fi
    cd "$WORK" || exit 1
else
    echo "$E2E_NAME: note: autoconf/automake missing; automake recipe not tested"
fi

# ---- CTest: culprit ctest, CMakeLists.txt knowing nothing of culprit ----
if command -v cmake >/dev/null && command -v ctest >/dev/null; then
    mkdir ct && cd ct || exit 1
    cp ../src/calc.c .
    cat >CMakeLists.txt <<'EOF'
cmake_minimum_required(VERSION 3.13)
project(calc C)
add_executable(calc calc.c)
enable_testing()
add_test(NAME add_zero COMMAND calc add 2 0)
add_test(NAME add_three COMMAND calc add 2 3)
add_test(NAME mul COMMAND calc mul 2 3)
add_test(NAME mul_wrong_output COMMAND calc mul 2 3)
set_tests_properties(mul_wrong_output PROPERTIES PASS_REGULAR_EXPRESSION "^7")
add_test(NAME div_zero COMMAND calc div 1 0)
set_tests_properties(div_zero PROPERTIES WILL_FAIL TRUE)
add_test(NAME skipped COMMAND calc skip 0 0)
set_tests_properties(skipped PROPERTIES SKIP_RETURN_CODE 77)
EOF
    export CULPRIT_STORE="$WORK/ct-store"
    cmake_line=$(recipe docs/harness.md "cmake -S . -B build -DCMAKE_C_COMPILER=")
    ctest_line=$(recipe README.md "culprit ctest")
    if eval "$cmake_line" >cmake.log 2>&1 && cmake --build build >build.log 2>&1; then
        (cd build && ctest >../ctest.log 2>&1)
        expect_contains ctest.log "***Failed  Required regular expression not found"
        (eval "$ctest_line" >ctest-culprit.log 2>&1)
        status=$?
        [ $status -eq 1 ] && pass || fail "culprit ctest: exit status $status, expected 1 (failures): $(cat ctest-culprit.log)"
        expect_verdicts "add_three=fail add_zero=pass div_zero=pass mul=pass mul_wrong_output=fail skipped=skip " \
            "culprit ctest"
    else
        fail "cmake project did not build: $(tail -5 cmake.log build.log)"
    fi
    cd "$WORK" || exit 1
else
    echo "$E2E_NAME: note: cmake missing; CTest recipe not tested"
fi

# ---- meson test --wrapper 'culprit test --meson --' ----
if command -v meson >/dev/null && command -v ninja >/dev/null; then
    mkdir ms && cd ms || exit 1
    cp ../src/calc.c .
    cat >meson.build <<'EOF'
project('calc', 'c')
calc = executable('calc', 'calc.c')
test('add_zero', calc, args : ['add', '2', '0'])
test('add_three', calc, args : ['add', '2', '3'])
test('mul', calc, args : ['mul', '2', '3'])
test('mul_env', calc, args : ['mul', '2', '3'], env : ['CALC_MODE=x'])
test('skipped', calc, args : ['skip', '0', '0'])
EOF
    export CULPRIT_STORE="$WORK/ms-store"
    setup_line=$(recipe docs/harness.md "meson setup build")
    meson_line=$(recipe README.md "meson test -C build --wrapper")
    if eval "$setup_line" >setup.log 2>&1 && ninja -C build >build.log 2>&1; then
        eval "$meson_line" >test.log 2>&1
        expect_contains test.log "Skipped:            1"
        expect_verdicts "add_three=fail add_zero=pass mul=pass mul_env=pass skipped=skip " "meson test --wrapper"
        # Outside a meson build directory, --meson says so and names by the command.
        (cd "$WORK" && "$CULPRIT" test --meson -- ms/build/calc mul 1 1 >"$WORK/ms/outside.out" 2>&1)
        expect_contains outside.out "culprit: warning: --meson: no test in $WORK/ms/build/meson-info/intro-tests.json has the command 'ms/build/calc'"
        (cd / && "$CULPRIT" test --meson -- true >"$WORK/ms/nowhere.out" 2>&1)
        expect_contains nowhere.out "culprit: warning: --meson: no meson-info/intro-tests.json in the working directory, the directory of 'true' or above them"
    else
        fail "meson project did not build: $(tail -5 setup.log build.log)"
    fi
    cd "$WORK" || exit 1
else
    echo "$E2E_NAME: note: meson missing; meson recipe not tested"
fi

# ---- a plain shell loop, with a test of an error path ----
mkdir loop && cd loop || exit 1
"$BUILD_DIR/culprit-cc" -o prog ../src/calc.c 2>cc.err || fail "culprit-cc calc.c: $(head -c 300 cc.err)"
mkdir tests
for t in "add_zero:add 2 0:2" "add_three:add 2 3:5" "mul:mul 2 3:6" "skipped:skip 0 0:" "div_zero:div 1 0:"; do
    name=${t%%:*} rest=${t#*:}
    echo "${rest%%:*}" >"tests/$name.args"
    [ -n "${rest#*:}" ] && echo "${rest#*:}" >"tests/$name.out" || : >"tests/$name.out"
done
echo 2 >tests/div_zero.exit
export CULPRIT_STORE="$WORK/loop-store"
block docs/harness.md "### A plain shell loop" >loop.sh
[ -s loop.sh ] && pass || fail "docs/harness.md has no shell loop recipe"
sh loop.sh >loop.out 2>&1
expect_verdicts "add_three=fail add_zero=pass div_zero=pass mul=pass skipped=skip " "shell loop"
expect_contains loop.out "calc: division by zero" # stderr passes through
# The README's line for an error path says the same.
error_line=$(recipe README.md "--expect-exit 2")
eval "$(printf '%s\n' "$error_line" | sed 's|--name t2|--name t2_readme|; s|bad-args|div 1 0|')" >readme.out 2>&1
[ "$(message_of t2_readme)" = "" ] && [ "$(sqlite3 "$CULPRIT_STORE/culprit.db" "SELECT verdict FROM tests WHERE name = 't2_readme'")" = pass ] &&
    pass || fail "README's --expect-exit line: '$(message_of t2_readme)'"
rm -rf "$CULPRIT_STORE"

# ---- make targets as tests (zlib's make test) ----
cat >Makefile <<'MAKEFILE'
teststatic:
	test "$$(./prog add 2 0)" = 2
testshared:
	test "$$(./prog add 2 3)" = 5
test64:
	test "$$(./prog mul 2 3)" = 6
MAKEFILE
block docs/harness.md "### Suites run by make targets" >targets.sh
[ -s targets.sh ] && pass || fail "docs/harness.md has no make-targets recipe"
sh targets.sh >targets.out 2>&1
expect_verdicts "test64=pass testshared=fail teststatic=pass " "make targets"
"$CULPRIT" rank --format csv >targets-rank.csv 2>&1 && grep -q 'calc.c' targets-rank.csv &&
    pass || fail "make targets: no ranking of calc.c: $(head -c 300 targets-rank.csv)"
rm -rf "$CULPRIT_STORE" Makefile

# ---- a suite script run once per test file (m4's check-them) ----
mkdir -p m4like/checks m4like/src m4like/examples && ln -s ../../prog m4like/src/prog || exit 1
cat >m4like/checks/check-them <<'SCRIPT'
#!/bin/sh
# check-them -I DIR FILE: runs prog with FILE's first line, expects its second
shift 2
args=$(sed -n 1p "$1") want=$(sed -n 2p "$1")
if [ "$args" = skip ]; then printf 'Skipped checks were:\n %s\n' "$1"; exit 0; fi
[ "$(prog $args)" = "$want" ] && { echo "All checks successful"; exit 0; }
printf 'Failed checks were:\n %s\n' "$1"
exit 1
SCRIPT
chmod +x m4like/checks/check-them
printf 'add 2 0\n2\n' >m4like/checks/001.add_zero
printf 'add 2 3\n5\n' >m4like/checks/002.add_three
printf 'skip\n\n' >m4like/checks/003.skipped
block docs/harness.md "### Suites run by their own script" >m4like/script.sh
[ -s m4like/script.sh ] && pass || fail "docs/harness.md has no suite-script recipe"
(cd m4like && sh script.sh >script.out 2>&1)
expect_verdicts "001.add_zero=pass 002.add_three=fail 003.skipped=skip " "suite script"
rm -rf "$CULPRIT_STORE"

# ---- culprit test beside the recipes ----
# A culprit test that the test runs in turn, on the same (protected) store:
# the inner one's command is part of the outer test, recorded once, with its
# coverage.
"$CULPRIT" test --name outer -- sh -c '"$0" test --name inner -- ./prog add 2 0' "$CULPRIT" >nested.out 2>&1
status=$?
if grep -q "without store protection" nested.out; then
    echo "$E2E_NAME: note: no sandbox here; nested culprit test not tested"
else
    [ $status -eq 0 ] && pass || fail "nested culprit test exited $status: $(cat nested.out)"
    expect_verdicts "outer=pass " "nested culprit test"
    grep -q "wrote no coverage" nested.out && fail "the nested test lost its coverage: $(cat nested.out)" || pass
fi
rm -rf "$CULPRIT_STORE"
# --normalize: the oracle's comparisons that ignore blanks.
printf '6  \n' >six.out
"$CULPRIT" test --name exact --expect six.out -- ./prog mul 2 3 >/dev/null 2>&1
"$CULPRIT" test --name trailing --normalize trailing --expect six.out -- ./prog mul 2 3 >/dev/null 2>&1
printf '  6\n' >six.out
"$CULPRIT" test --name leading --normalize trailing --expect six.out -- ./prog mul 2 3 >/dev/null 2>&1
"$CULPRIT" test --name whitespace --normalize whitespace --expect six.out -- ./prog mul 2 3 >/dev/null 2>&1
expect_verdicts "exact=fail leading=fail trailing=pass whitespace=pass " "--normalize"
rm -rf "$CULPRIT_STORE"
# --xfail-tests finds the test an interpreter runs from another directory
# (automake's $(srcdir)/TEST in a VPATH build), not a test of that name's prefix.
printf 'exec ./prog add 2 3\n' >known_bug
mkdir build && cd build && ln -s ../prog prog || exit 1
"$CULPRIT" test --name vpath --xfail-tests "other known_bug" -- /bin/sh ../known_bug >/dev/null 2>&1
"$CULPRIT" test --name prefix --xfail-tests "bug" -- /bin/sh ../known_bug >/dev/null 2>&1
cd .. || exit 1
expect_verdicts "prefix=fail vpath=skip " "--xfail-tests through an interpreter"
rm -rf "$CULPRIT_STORE"
# Wrong options: each says what, exit status 2.
run 2 "$CULPRIT" test --expect-exit 256 -- ./prog add 1 1
expect_contains "$WORK/err" "culprit test: --expect-exit expects an exit status from 0 to 255, not '256'"
run 2 "$CULPRIT" test --expect-exit two -- ./prog add 1 1
expect_contains "$WORK/err" "culprit test: --expect-exit expects an exit status from 0 to 255, not 'two'"
run 2 "$CULPRIT" test --normalize blanks --expect six.out -- ./prog add 1 1
expect_contains "$WORK/err" "culprit test: --normalize expects whitespace, trailing or numbers, not 'blanks'"
run 2 "$CULPRIT" test --normalize trailing -- ./prog add 1 1
expect_contains "$WORK/err" "culprit test: --normalize compares with --expect FILE, which is missing"
run 2 "$CULPRIT" test --meson --name x -- ./prog add 1 1
expect_contains "$WORK/err" "culprit test: --meson and --name both name the test; give one"
# A command that cannot start is recorded as an error, with the reason,
# and culprit test exits 127 as a shell would.
"$CULPRIT" test --name typo -- ./no-such-calc add 1 1 >typo.out 2>&1
[ $? -eq 127 ] && pass || fail "culprit test of a missing program did not exit 127"
expect_contains typo.out "cannot run './no-such-calc'"
expect_verdicts "typo=error " "typo"
"$CULPRIT" tests >tests.out 2>&1
expect_contains tests.out "command not found"
# --expect-failure: a known failure is a skip that says why; the exit status is the command's.
"$CULPRIT" test --expect-failure --name known -- ./prog add 2 3 >known.out 2>&1
[ $? -eq 1 ] && pass || fail "culprit test --expect-failure changed the command's exit status"
[ "$(verdicts)" = "known=skip typo=error " ] && [ "$(message_of known)" = "expected failure (XFAIL): exit status 1, expected 0" ] &&
    pass || fail "--expect-failure: '$(message_of known)'"
# Eight at once on a store that does not exist yet (make -j on a clean
# tree): they all create it and switch it to WAL mode; none may be lost.
lost=0
for round in 1 2 3 4 5; do
    rm -rf burst-store
    for n in 1 2 3 4 5 6 7 8; do
        CULPRIT_STORE=burst-store "$CULPRIT" test --name "t$n" -- ./prog add 1 1 >/dev/null 2>"burst.$n.err" &
    done
    wait
    got=$(sqlite3 burst-store/culprit.db "SELECT count(*) FROM tests" 2>/dev/null)
    [ "$got" = 8 ] || lost=$((lost + 1))
done
[ $lost -eq 0 ] && pass || fail "concurrent culprit test on a new store lost tests in $lost of 5 rounds: $(cat burst.*.err)"
cd "$WORK" || exit 1
PATH=$PLAIN_PATH

finish
