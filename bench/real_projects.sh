#!/bin/sh
# Builds real C programs from Debian source packages with culprit-cc, runs
# each package's own test suite, unchanged, with every test recorded by
# culprit through the recipe docs/harness.md gives for its build system, and
# checks that each test the harness ran has a record in the store with the
# harness's verdict:
#   automake (sed diffutils grep   make check with LOG_COMPILE = culprit test ...
#     gzip patch jq)
#   CMake/CTest (cjson jansson)    culprit ctest, compared with a plain ctest run
#   meson (fribidi)                meson test --wrapper 'culprit test --meson --'
#   plain make (zlib)              culprit test --name TARGET -- make TARGET,
#                                  one per test target of `make test`
#   a suite script (m4)            culprit test --name FILE -- check-them FILE,
#                                  one per check file
# Then, for sed, cjson and jansson, seeds a fault, rebuilds, re-runs the suite and
# prints where `culprit rank` puts the faulty line.  At the end, one line per
# package: tests the harness ran, records, verdicts matching, the seeded
# fault's rank.  docs/real-projects.md reports runs.
#
# usage: bench/real_projects.sh BUILD_DIR WORK_DIR [PACKAGE...]
#   BUILD_DIR  a culprit build (make BUILD=DIR all): DIR/culprit, DIR/culprit-cc,
#              DIR/libculprit-rt.a
#   WORK_DIR   where sources, builds and stores go (created; reused if present)
#   PACKAGE    any of sed diffutils grep gzip patch jq m4 cjson jansson fribidi
#              zlib (default: all of them)
#
# Not run by `make check` or `make bench`: it needs root (apt-get build-dep),
# Debian's deb-src archive (it enables it in /etc/apt/sources.list.d if
# missing) and, on a loaded two-core machine, an hour or more for the
# automake packages (configure alone: 14-35 minutes per package; the CMake,
# meson and plain make ones take a minute or two each).  Set JOBS
# (default 2) for make -j.  Exits 1 when a count or verdict does not match.
set -u
build=${1:?usage: bench/real_projects.sh BUILD_DIR WORK_DIR [PACKAGE...]}
work=${2:?usage: bench/real_projects.sh BUILD_DIR WORK_DIR [PACKAGE...]}
shift 2
[ $# -eq 0 ] && set -- sed diffutils grep gzip patch jq m4 cjson jansson fribidi zlib
jobs=${JOBS:-2}
build=$(cd "$build" && pwd) || exit 1
mkdir -p "$work" && work=$(cd "$work" && pwd) || exit 1

# A private copy of the tools: rebuilding culprit while a configure script
# runs would make its checks fail ("Permission denied" on a half-written
# culprit-cc) and silently change what configure decides.
bin=$work/bin
mkdir -p "$bin"
for file in culprit culprit-cc libculprit-rt.a; do
    [ -e "$build/$file" ] || { echo "real_projects.sh: $build/$file is not built" >&2; exit 1; }
    cp "$build/$file" "$bin/.$file.new" && mv "$bin/.$file.new" "$bin/$file" || exit 1
done
culprit=$bin/culprit
ccc=$bin/culprit-cc
failures=0
# What the objects of a package were built with: make cannot tell that the
# compiler changed, so a package built by other tools is cleaned first (a
# reused WORK_DIR once ran the suites on binaries of an older culprit-cc).
tools_fingerprint=$(cat "$bin/culprit-cc" "$bin/libculprit-rt.a" | sha256sum | cut -c1-64)

note() { printf '%s\n' "== $*"; }
problem() {
    printf '%s\n' "MISMATCH: $*"
    failures=$((failures + 1))
}

# ---- sources and build dependencies ----------------------------------------------------------------------

enable_deb_src() {
    grep -qs 'deb-src' /etc/apt/sources.list.d/*.sources /etc/apt/sources.list /etc/apt/sources.list.d/*.list &&
        return 0
    note "enabling deb-src in /etc/apt/sources.list.d/debian.sources"
    sed -i 's/^Types: deb$/Types: deb deb-src/' /etc/apt/sources.list.d/debian.sources || return 1
    apt-get update -qq
}

# source_dir PACKAGE : the unpacked source tree of PACKAGE in $work (fetched once).
source_dir() {
    found=$(find "$work" -maxdepth 1 -type d -name "$1-[0-9]*" | sort | tail -n 1)
    if [ -z "$found" ]; then
        (cd "$work" && apt-get source -qq "$1" >"$work/$1-source.log" 2>&1) || return 1
        found=$(find "$work" -maxdepth 1 -type d -name "$1-[0-9]*" | sort | tail -n 1)
    fi
    printf '%s\n' "$found"
}

# ---- one package ---------------------------------------------------------------------------------------

# check_variables PACKAGE : make variables that wrap every kind of test of an automake
# suite in `culprit test` (docs/harness.md, "automake"): X_LOG_COMPILE, the
# command automake runs each test with, keeping the package's own
# X_LOG_COMPILER and flags after `--` (make still expands the $(...) in a
# command-line value), and XFAIL_TESTS passed on, so that expected failures
# are recorded as skip.  diffutils' and grep's extensionless tests are shell
# scripts without the execute bit, run by LOG_COMPILER = $(SHELL); sed has
# no extensionless tests (LOG_COMPILER = false); a gnulib-tests directory's
# extensionless tests are programs (no LOG_COMPILER): one line serves all.
check_variables() {
    xfail='--xfail-tests "$(XFAIL_TESTS)"'
    for x in '' SH_ PL_; do
        printf '%s\n' "${x}LOG_COMPILE=$culprit test $xfail -- \$(${x}LOG_COMPILER) \$(AM_${x}LOG_FLAGS) \$(${x}LOG_FLAGS)"
    done
    # jq's tests run jq under valgrind when valgrind is installed (it is
    # here, for sed's suite; Debian's build has none), which made its
    # jq.test run for more than 14 minutes: jq's own switch turns it off.
    [ "$1" = jq ] && echo "NO_VALGRIND=1"
    return 0
}

# elapsed STEP COMMAND... : runs it, appends "STEP SECONDS" to $work/times
# (a step skipped because its result is there, like configure, is not listed).
elapsed() {
    start=$(date +%s)
    step=$1
    shift
    "$@"
    status=$?
    echo "$step $(($(date +%s) - start))" >>"$work/times"
    return $status
}

# clang_fixes DIR PACKAGE : source changes clang 14 itself needs (gcc accepts the code).
clang_fixes() {
    case $2 in
    grep)
        # Debian's 1019724-handle-backslash-warning.patch puts a declaration
        # right after the label `stray_backslash:`, which C only allows from
        # C23 on; gcc 12 accepts it, clang 14 says "expected expression".
        # An empty statement after the label is the same program.
        sed -i 's/^        stray_backslash:$/        stray_backslash: ;/' "$1/lib/dfa.c"
        # 05-grep-wrapper-sh.patch leaves src/Makefile.am newer than
        # src/Makefile.in (it only adds SHELL = /bin/sh), so make would run
        # automake, whose version differs from the one that made the
        # tarball: keep the generated files.
        find "$1" -path "$1/.pc" -prune -o -name Makefile.in -exec touch {} +
        ;;
    esac
}

configure_and_make() { # DIR PACKAGE
    clang_fixes "$1" "$2"
    # Debian's dh runs autoreconf (dh_autoreconf) before configure, and two
    # packages need it: jq's source has no configure script, and Debian's
    # patches to patch add tests to tests/Makefile.am, so its Makefile.in is
    # out of date (make would call automake-1.15).  Once per tree.
    case $2 in
    jq | patch)
        [ -f "$1/.culprit-autoreconf" ] || (cd "$1" && autoreconf -fi && rm -f config.status &&
            touch .culprit-autoreconf) >"$work/$2-autoreconf.log" 2>&1 || {
            echo "real_projects.sh: autoreconf of $2 failed; see $work/$2-autoreconf.log" >&2
            return 1
        }
        ;;
    esac
    (cd "$1" || exit 1
        [ -f config.status ] || elapsed configure ./configure CC="$ccc" >"$work/$2-configure.log" 2>&1) || {
        echo "real_projects.sh: configure of $2 failed; see $work/$2-configure.log and $1/config.log" >&2
        return 1
    }
    if [ "$(cat "$work/$2.tools" 2>/dev/null)" != "$tools_fingerprint" ]; then
        (cd "$1" && make clean >"$work/$2-clean.log" 2>&1) || {
            echo "real_projects.sh: make clean of $2 failed; see $work/$2-clean.log" >&2
            return 1
        }
    fi
    (cd "$1" && elapsed make make -j"$jobs" CC="$ccc" >"$work/$2-make.log" 2>&1) || {
        echo "real_projects.sh: make of $2 failed; see $work/$2-make.log" >&2
        return 1
    }
    echo "$tools_fingerprint" >"$work/$2.tools"
}

# suite_target PACKAGE : where its own test suite runs (SUBDIR TARGET).  The
# gnulib-tests directories test the bundled library, not the program, and
# would add hundreds of test programs to build; sed's and jq's suites sit in
# the top directory, whose check-am target leaves the subdirectories out.
suite_target() {
    case $1 in
    sed | jq) echo ". check-am" ;;
    *) echo "tests check" ;;
    esac
}

# run_suite DIR PACKAGE STORE SUBDIR TARGET : make TARGET in DIR/SUBDIR with every test through culprit test.
run_suite() {
    rm -rf "$3"
    (
        cd "$1/$4" || exit 1
        store=$3 target=$5
        # check_variables' values hold spaces: one per line, passed as separate words
        old_ifs=$IFS
        IFS='
'
        set -- $(check_variables "$2")
        IFS=$old_ifs
        # exported: dash does not pass `VAR=value function` on to the function's commands
        CULPRIT_STORE=$store
        export CULPRIT_STORE
        elapsed check make -k -j"$jobs" CC="$ccc" "$@" "$target"
    ) >"$work/$2-check.log" 2>&1
    return 0 # failing tests are expected; the counts below decide
}

# compare_counts DIR PACKAGE STORE : harness results (.trs files) vs store records.
compare_counts() {
    harness=$(find "$1" -name '*.trs' -newer "$work/$2.stamp" -exec sed -n 's/^:test-result: //p' {} + |
        sort | uniq -c | awk '{ printf "%s=%s ", $2, $1 }')
    stored=$(sqlite3 "$3/culprit.db" 'select upper(verdict), count(*) from tests group by verdict' 2>/dev/null |
        awk -F'|' '{ printf "%s=%s ", $1, $2 }')
    total_harness=$(printf '%s\n' "$harness" | tr ' ' '\n' | awk -F= '{ n += $2 } END { print n + 0 }')
    total_stored=$(sqlite3 "$3/culprit.db" 'select count(*) from tests' 2>/dev/null || echo 0)
    echo "harness: $total_harness tests ($harness)"
    echo "store:   $total_stored tests ($stored)"
    [ "$total_harness" -eq "$total_stored" ] || problem "$2: harness ran $total_harness tests, store has $total_stored"
    # With --xfail-tests, automake's XFAIL (an expected failure, listed in
    # XFAIL_TESTS) is recorded as skip, XPASS as pass.  The .trs files do not
    # name the test's command line, so verdicts are compared by count:
    # matching is the sum over verdicts of the smaller count.
    matching=0
    for verdict in PASS FAIL SKIP ERROR; do
        h=$(verdict_count "$harness" $verdict)
        case $verdict in
        PASS) h=$((h + $(verdict_count "$harness" XPASS))) ;;
        SKIP) h=$((h + $(verdict_count "$harness" XFAIL))) ;;
        esac
        s=$(verdict_count "$stored" $verdict)
        matching=$((matching + (h < s ? h : s)))
        [ "$h" -eq "$s" ] || problem "$2: $verdict: harness $h, store $s"
    done
}

# verdict_count "V1=N1 V2=N2 ..." V : N, or 0.
verdict_count() {
    n=$(printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p")
    echo "${n:-0}"
}

# build_system PACKAGE : how the package builds and runs its suite.
build_system() {
    case $1 in
    cjson | jansson) echo cmake ;;
    fribidi) echo meson ;;
    zlib) echo make ;;
    m4) echo script ;;
    *) echo automake ;;
    esac
}

automake_package() { # DIR PACKAGE STORE
    configure_and_make "$1" "$2" || return 1
    touch "$work/$2.stamp"
    run_suite "$1" "$2" "$3" $(suite_target "$2")
    echo "seconds: $(tr '\n' ' ' <"$work/times")"
    compare_counts "$1" "$2" "$3"
}

# ---- CMake and CTest -------------------------------------------------------------------------------------

# cmake_options PACKAGE : options for CMake beyond the compiler (none change the code).
cmake_options() {
    case $1 in
    jansson) echo "-DJANSSON_BUILD_DOCS=OFF" ;; # sphinx is slow and not what is tested
    esac
}

# cmake_package DIR PACKAGE STORE : configures DIR/build-culprit, builds it,
# runs the tests with `culprit ctest` (docs/harness.md, "CTest"), then runs
# plain ctest on the same binaries (the runtime does nothing without
# CULPRIT_COLLECT_DIR) for the harness's own verdicts.
cmake_package() {
    b=$1/build-culprit
    [ -f "$b/CMakeCache.txt" ] || elapsed cmake cmake -S "$1" -B "$b" -DCMAKE_C_COMPILER="$ccc" \
        $(cmake_options "$2") >"$work/$2-configure.log" 2>&1 || {
        echo "real_projects.sh: cmake of $2 failed; see $work/$2-configure.log" >&2
        return 1
    }
    if [ "$(cat "$work/$2.tools" 2>/dev/null)" != "$tools_fingerprint" ]; then
        cmake --build "$b" --target clean >"$work/$2-clean.log" 2>&1
    fi
    elapsed build cmake --build "$b" -j "$jobs" >"$work/$2-make.log" 2>&1 || {
        echo "real_projects.sh: build of $2 failed; see $work/$2-make.log" >&2
        return 1
    }
    echo "$tools_fingerprint" >"$work/$2.tools"
    cmake_suite "$1" "$2" "$3"
    echo "seconds: $(tr '\n' ' ' <"$work/times")"
    compare_lists "$2" "$3" "$work/$2-harness.txt"
}

cmake_suite() { # DIR PACKAGE STORE
    rm -rf "$3"
    (cd "$1/build-culprit" && elapsed ctest "$culprit" ctest --store "$3" -j "$jobs") >"$work/$2-check.log" 2>&1
    # ctest's lines: "  2/19 Test  #2: parse_hex4 .......***Failed    0.01 sec"
    (cd "$1/build-culprit" && ctest -j "$jobs") >"$work/$2-ctest.log" 2>&1
    sed -n 's/^ *[0-9]*\/[0-9]* *Test *#[0-9]*: \([^ ]*\) [ .*]*\([A-Z][a-z]*\).*/\1 \2/p' "$work/$2-ctest.log" |
        awk '{ v = $2 == "Passed" ? "pass" : $2 == "Failed" ? "fail" : $2 == "Timeout" ? "timeout" : \
               $2 == "Skipped" || $2 == "Not" ? "skip" : "error"; print $1, v }' >"$work/$2-harness.txt"
}

# ---- meson ----------------------------------------------------------------------------------------------

meson_options() { # PACKAGE
    case $1 in
    fribidi) echo "-Ddocs=false" ;; # the man pages need c2man, not what is tested
    esac
}

# meson_package DIR PACKAGE STORE : meson test with culprit test --meson as
# the wrapper (docs/harness.md, "meson"); meson's own verdicts are in
# meson-logs/testlog.json.
meson_package() {
    b=$1/build-culprit
    [ -f "$b/build.ninja" ] || (cd "$1" && elapsed setup env CC="$ccc" meson setup build-culprit \
        $(meson_options "$2")) >"$work/$2-configure.log" 2>&1 || {
        echo "real_projects.sh: meson setup of $2 failed; see $work/$2-configure.log" >&2
        return 1
    }
    if [ "$(cat "$work/$2.tools" 2>/dev/null)" != "$tools_fingerprint" ]; then
        ninja -C "$b" clean >"$work/$2-clean.log" 2>&1
    fi
    elapsed ninja ninja -C "$b" -j "$jobs" >"$work/$2-make.log" 2>&1 || {
        echo "real_projects.sh: ninja of $2 failed; see $work/$2-make.log" >&2
        return 1
    }
    echo "$tools_fingerprint" >"$work/$2.tools"
    meson_suite "$1" "$2" "$3"
    echo "seconds: $(tr '\n' ' ' <"$work/times")"
    compare_lists "$2" "$3" "$work/$2-harness.txt"
}

meson_suite() { # DIR PACKAGE STORE
    rm -rf "$3"
    logs=$1/build-culprit/meson-logs
    rm -f "$logs"/testlog*.json
    elapsed test env CULPRIT_STORE="$3" meson test -C "$1/build-culprit" --num-processes "$jobs" \
        --wrapper "$culprit test --meson --" >"$work/$2-check.log" 2>&1
    # testlog-culprit.json (meson names the log after the wrapper), one JSON
    # object a line; meson's results: OK FAIL SKIP EXPECTEDFAIL UNEXPECTEDPASS TIMEOUT ERROR
    python3 -c 'import json, sys
verdict = {"OK": "pass", "FAIL": "fail", "SKIP": "skip", "TIMEOUT": "timeout",
           "UNEXPECTEDPASS": "fail", "EXPECTEDFAIL": "skip"}
for line in open(sys.argv[1]):
    t = json.loads(line)
    print(t["name"], verdict.get(t["result"], "error"))' "$logs"/testlog*.json >"$work/$2-harness.txt"
}

# ---- plain make ------------------------------------------------------------------------------------------

# make_targets PACKAGE : the targets its `make test` (or check) runs, one test each.
make_targets() {
    case $1 in
    zlib) echo "teststatic testshared test64" ;; # test: teststatic testshared; test64 alike for all64
    esac
}

# make_package DIR PACKAGE STORE : ./configure with CC, make, then each test
# target through `culprit test --name TARGET -- make TARGET` (docs/harness.md,
# "Suites run by make targets"): the test's record sums every process the
# target runs, and its verdict is the target's exit status, as for make.
make_package() {
    (cd "$1" || exit 1
        [ -f configure.log ] && [ -f Makefile ] || elapsed configure env CC="$ccc" ./configure) >"$work/$2-configure.log" 2>&1 || {
        echo "real_projects.sh: configure of $2 failed; see $work/$2-configure.log" >&2
        return 1
    }
    if [ "$(cat "$work/$2.tools" 2>/dev/null)" != "$tools_fingerprint" ]; then
        (cd "$1" && make clean) >"$work/$2-clean.log" 2>&1
    fi
    (cd "$1" && elapsed make make -j"$jobs" all all64) >"$work/$2-make.log" 2>&1 || {
        echo "real_projects.sh: make of $2 failed; see $work/$2-make.log" >&2
        return 1
    }
    echo "$tools_fingerprint" >"$work/$2.tools"
    make_suite "$1" "$2" "$3"
    echo "seconds: $(tr '\n' ' ' <"$work/times")"
    compare_lists "$2" "$3" "$work/$2-harness.txt"
}

make_suite() { # DIR PACKAGE STORE
    rm -rf "$3"
    : >"$work/$2-harness.txt"
    : >"$work/$2-check.log"
    start=$(date +%s)
    for target in $(make_targets "$2"); do
        # culprit test exits with make's status: what make test would see
        (cd "$1" && CULPRIT_STORE=$3 "$culprit" test --name "$target" -- make "$target") >>"$work/$2-check.log" 2>&1
        case $? in 0) v=pass ;; *) v=fail ;; esac
        echo "$target $v" >>"$work/$2-harness.txt"
    done
    echo "targets $(($(date +%s) - start))" >>"$work/times"
}

# ---- suites run by their own script -------------------------------------------------------------------

# script_package DIR PACKAGE STORE : autoconf and make as for automake, then
# m4's suite, which `make check` runs as one script over every check file
# (checks/check-them, in checks/check-local): the plain `make check-local`
# gives the harness's verdicts (its "Failed checks were:" and "Skipped checks
# were:" lists), then check-them runs once per file under culprit test,
# exiting 77 (skip) when it reports the file skipped (docs/harness.md,
# "Suites run by their own script").
script_package() {
    configure_and_make "$1" "$2" || return 1
    script_suite "$1" "$2" "$3"
    echo "seconds: $(tr '\n' ' ' <"$work/times")"
    compare_lists "$2" "$3" "$work/$2-harness.txt"
}

script_suite() { # DIR PACKAGE STORE
    rm -rf "$3"
    (cd "$1/checks" && make check-local) >"$work/$2-harness.log" 2>&1
    awk '/^Checking / { n = split($2, p, "/"); name[p[n]] = "pass"; order[++count] = p[n] }
        /^Failed checks were:/ { list = "fail"; next }
        /^Skipped checks were:/ { list = "skip"; next }
        list != "" { for (i = 1; i <= NF; i++) { f = $i; sub(/:.*/, "", f); n = split(f, p, "/"); name[p[n]] = list }; list = "" }
        END { for (i = 1; i <= count; i++) print order[i], name[order[i]] }' "$work/$2-harness.log" >"$work/$2-harness.txt"
    start=$(date +%s)
    (
        cd "$1/checks" || exit 1
        PATH=$1/src:$PATH CULPRIT_STORE=$3
        export PATH CULPRIT_STORE
        for file in [0-9][0-9][0-9].* stackovf.test; do
            "$culprit" test --name "$file" -- sh -c 'out=$("$0" -I ../examples "$1"); status=$?
                printf "%s\n" "$out"
                case $out in *"Skipped checks were:"*) exit 77 ;; esac
                exit $status' ./check-them "./$file"
        done
    ) >"$work/$2-check.log" 2>&1
    echo "check $(($(date +%s) - start))" >>"$work/times"
}

# ---- comparing ----------------------------------------------------------------------------------------

# compare_lists PACKAGE STORE HARNESS_FILE : the harness's "NAME VERDICT" lines
# against the store's records, test by test.
compare_lists() {
    sqlite3 -separator ' ' "$2/culprit.db" 'select name, verdict from tests' 2>/dev/null |
        sort >"$work/$1-store.txt"
    sort -o "$work/$1-harness-sorted.txt" "$3"
    counts() { awk '{ n[toupper($2)]++ } END { for (v in n) printf "%s=%s ", v, n[v] }' "$1"; }
    total_harness=$(wc -l <"$3")
    total_stored=$(wc -l <"$work/$1-store.txt")
    echo "harness: $total_harness tests ($(counts "$3"))"
    echo "store:   $total_stored tests ($(counts "$work/$1-store.txt"))"
    matching=$(comm -12 "$work/$1-harness-sorted.txt" "$work/$1-store.txt" | wc -l)
    [ "$total_harness" -eq "$total_stored" ] || problem "$1: harness ran $total_harness tests, store has $total_stored"
    comm -3 "$work/$1-harness-sorted.txt" "$work/$1-store.txt" |
        awk -F'\t' '{ print ($1 != "" ? "harness: " $1 : "store:   " $2) }' |
        while IFS= read -r line; do problem "$1: $line"; done
    [ "$matching" -eq "$total_harness" ] || failures=$((failures + total_harness - matching))
}

one_package() { # PACKAGE
    note "$1 ($(build_system "$1"))"
    dir=$(source_dir "$1") && [ -n "$dir" ] || {
        echo "real_projects.sh: apt-get source $1 failed; see $work/$1-source.log" >&2
        return 1
    }
    echo "source: $dir ($(dpkg-parsechangelog -l "$dir/debian/changelog" -S Version 2>/dev/null))"
    apt-get build-dep -y -qq "$1" >"$work/$1-build-dep.log" 2>&1 || echo "warning: apt-get build-dep $1 failed"
    : >"$work/times"
    total_harness=0 total_stored=0 matching=0
    "$(build_system "$1")_package" "$dir" "$1" "$work/store-$1" || return 1
    "$culprit" --store "$work/store-$1" rank --top 5 || problem "$1: culprit rank failed"
    echo "$1 $total_harness $total_stored $matching" >>"$work/summary"
}

# ---- the seeded faults -----------------------------------------------------------------------------------

# fault PACKAGE : FILE (relative to the source), the original text and the
# faulty text, one a line; nothing when the package has no seeded fault.
fault() {
    case $1 in
    sed) # 'l' wraps one column late
        echo sed/execute.c
        echo 'if (width+olen >= line_len && line_len > 0) {'
        echo 'if (width+olen > line_len && line_len > 0) {'
        ;;
    cjson) # parse_hex4 no longer takes the digit 'F'
        echo cJSON.c
        echo "else if ((input[i] >= 'A') && (input[i] <= 'F'))"
        echo "else if ((input[i] >= 'A') && (input[i] < 'F'))"
        ;;
    jansson) # a surrogate pair decodes 0xF000 too low (a digit lost)
        echo src/load.c
        echo '((value - 0xD800) << 10) + (value2 - 0xDC00) + 0x10000;'
        echo '((value - 0xD800) << 10) + (value2 - 0xDC00) + 0x1000;'
        ;;
    esac
}

# replace FILE OLD NEW : every line whose text is OLD (leading blanks kept) becomes NEW.
replace() {
    awk -v old="$2" -v new="$3" '{
        i = index($0, old)
        if (i > 0 && substr($0, i) == old) $0 = substr($0, 1, i - 1) new
        print
    }' "$1" >"$1.tmp" && mv "$1.tmp" "$1"
}

# rebuild DIR PACKAGE : the package's make after a source change.
rebuild() {
    case $(build_system "$2") in
    cmake) cmake --build "$1/build-culprit" -j "$jobs" ;;
    meson) ninja -C "$1/build-culprit" -j "$jobs" ;;
    make) (cd "$1" && make -j"$jobs" all all64) ;;
    *) (cd "$1" && make -j"$jobs" CC="$ccc") ;;
    esac >"$work/$2-seeded-make.log" 2>&1
}

seeded_fault() { # PACKAGE
    fault "$1" >"$work/$1-fault"
    [ -s "$work/$1-fault" ] || return 0
    dir=$(source_dir "$1") || return 1
    file=$dir/$(sed -n 1p "$work/$1-fault")
    original=$(sed -n 2p "$work/$1-fault")
    faulty=$(sed -n 3p "$work/$1-fault")
    note "seeded fault in $1: $file: $faulty"
    replace "$file" "$original" "$faulty"
    line=$(grep -n -F "$faulty" "$file" | cut -d: -f1)
    [ -n "$line" ] || { problem "could not seed the fault in $file"; return 1; }
    rebuild "$dir" "$1" || { problem "$1: rebuild with the seeded fault failed"; replace "$file" "$faulty" "$original"; return 1; }
    store=$work/store-$1-seeded
    : >"$work/times"
    case $(build_system "$1") in
    automake)
        touch "$work/$1.stamp"
        run_suite "$dir" "$1" "$store" $(suite_target "$1")
        compare_counts "$dir" "$1" "$store"
        ;;
    *)
        "$(build_system "$1")_suite" "$dir" "$1" "$store"
        compare_lists "$1" "$store" "$work/$1-harness.txt"
        ;;
    esac
    echo "failing tests: $(sqlite3 "$store/culprit.db" "select name from tests where verdict <> 'pass' and verdict <> 'skip'" | tr '\n' ' ')"
    ranks=
    for formula in ochiai tarantula dstar; do
        for kind in tuple line; do
            "$culprit" --store "$store" rank --formula $formula --kind $kind --format csv >"$work/rank-$1-$formula-$kind.csv"
            # columns: rank,score,element,confidence,ef,ep,nf,np,...
            rank=$(awk -F, -v want="$file:$line" '$3 == want { print $1 " (ef=" $5 ", ep=" $6 ")"; exit }' \
                "$work/rank-$1-$formula-$kind.csv")
            echo "$formula, $kind: $file:$line ranks $rank"
            [ $formula = ochiai ] && ranks="$ranks $kind ${rank%% *}"
        done
    done
    "$culprit" --store "$store" rank --top 10
    echo "$1+fault $total_harness $total_stored $matching$ranks" >>"$work/summary"
    cp "$file" "$file.seeded" && replace "$file" "$faulty" "$original"
    rebuild "$dir" "$1" || problem "$1: rebuild without the seeded fault failed"
}

enable_deb_src || exit 1
: >"$work/summary"
for package in "$@"; do
    one_package "$package" || failures=$((failures + 1))
done
for package in "$@"; do
    seeded_fault "$package" || failures=$((failures + 1))
done
note "summary (rank: the seeded fault's line, Ochiai, by tuples and by lines)"
awk '{ printf "%-14s harness %4d  records %4d  verdicts matching %4d (%s%%)%s\n", $1, $2, $3, $4,
       ($2 ? int(100 * $4 / $2) : 0), (NF > 4 ? "  rank: " $5 " " $6 ", " $7 " " $8 : "") }' "$work/summary"
echo "mismatches and failures: $failures"
[ "$failures" -eq 0 ]
