#!/bin/sh
# culprit gen on a real program (issue 17): GNU bc, from Debian's source
# package, built with culprit-cc in symbolic mode with a seeded fault, and
# localized from one failing input.  docs/gen-real.md reports a run.
#
# usage: sh bench/gen_real.sh BUILD_DIR WORK_DIR [BUDGET [STRATEGY...]]
#   BUILD_DIR  a culprit build (make BUILD=DIR all)
#   WORK_DIR   sources, builds and stores (created; the builds are reused)
#   BUDGET     generated tests per strategy (default 40)
#   STRATEGY   the strategies to compare (default: pcs base)
#
# What it does:
#   1. fetches bc's upstream tarball with `apt-get source --download-only bc`
#      (enabling deb-src when missing; needs root) and unpacks it.  Debian's
#      patches are not applied: one edits bc/Makefile.am, and make would
#      then want automake-1.14.
#   2. builds the reference, unfaulted, with clang-14 -O2, and one subject
#      per fault of bench/gen_real/ (NAME.patch, its faulty line in
#      NAME.lines) with CC=culprit-cc and CULPRIT_COVERAGE=symbolic.  Both
#      faults are in _bc_do_sub, the digit-by-digit subtraction of
#      magnitudes, and fail on a relation between the operands' digits:
#        bc-sub-borrow     a borrow adds BASE - 1 instead of BASE (line 482):
#                          wrong whenever a digit of the subtrahend, plus
#                          the borrow, exceeds the minuend's (52 - 13 prints
#                          38; 58 - 13 prints 45, right)
#        bc-sub-minus-one  `val < 0` became `val < -1` (line 480): wrong only
#                          when a digit difference is exactly -1 (52 - 13
#                          prints 4/; 50 - 18 prints 32, right); the faulty
#                          line runs in every subtraction, failing or not
#   3. for each fault and strategy, in a fresh store:
#        culprit gen --strategy S --budget N --stable 0 --input seed.bc \
#            --reference REF/bc/bc -- SUBJECT/bc/bc
#      from the seed `52 - 13`, and prints the time, the tests, the top of
#      `culprit rank` and the rank of the faulty line.
#
# Not run by `make check` or `make bench` (network, root, a few minutes).
# Exits 1 when a step fails.
set -u
build=${1:?usage: sh bench/gen_real.sh BUILD_DIR WORK_DIR [BUDGET]}
work=${2:?usage: sh bench/gen_real.sh BUILD_DIR WORK_DIR [BUDGET]}
budget=${3:-40}
shift 2
[ $# -gt 0 ] && shift
strategies=${*:-pcs base}
here=$(cd "$(dirname "$0")" && pwd) || exit 1
build=$(cd "$build" && pwd) || exit 1
mkdir -p "$work" && work=$(cd "$work" && pwd) || exit 1
clang=${CULPRIT_CLANG:-clang-14}

say() { printf '%s\n' "$*"; }
fail() {
    say "gen_real.sh: $*" >&2
    exit 1
}

# A private copy of the tools, so that rebuilding culprit meanwhile changes nothing here.
mkdir -p "$work/bin"
for file in culprit culprit-cc libculprit-rt.a; do
    [ -e "$build/$file" ] || fail "$build/$file is not built"
    cp "$build/$file" "$work/bin/.$file.new" && mv "$work/bin/.$file.new" "$work/bin/$file" || exit 1
done
culprit=$work/bin/culprit
tools=$(cat "$work/bin/culprit-cc" "$work/bin/libculprit-rt.a" | cksum | cut -d' ' -f1)

# ---- sources ---------------------------------------------------------------------------------

enable_deb_src() {
    grep -qs 'deb-src' /etc/apt/sources.list.d/*.sources /etc/apt/sources.list /etc/apt/sources.list.d/*.list &&
        return 0
    say "== enabling deb-src in /etc/apt/sources.list.d/debian.sources"
    sed -i 's/^Types: deb$/Types: deb deb-src/' /etc/apt/sources.list.d/debian.sources && apt-get update -qq
}

tarball=$(find "$work" -maxdepth 1 -name 'bc_*.orig.tar.*' | head -n 1)
if [ -z "$tarball" ]; then
    enable_deb_src || fail "could not enable deb-src"
    (cd "$work" && apt-get source --download-only bc) >"$work/fetch.log" 2>&1 ||
        fail "apt-get source --download-only bc failed; see $work/fetch.log"
    tarball=$(find "$work" -maxdepth 1 -name 'bc_*.orig.tar.*' | head -n 1)
    [ -n "$tarball" ] || fail "apt-get source left no upstream tarball in $work"
fi
say "== source: $(basename "$tarball")"

# unpack DIR: a fresh upstream tree in $work/DIR
unpack() {
    rm -rf "${work:?}/$1" "$work/$1.tmp" && mkdir "$work/$1.tmp" && tar -xf "$tarball" -C "$work/$1.tmp" &&
        mv "$work/$1.tmp"/* "$work/$1" && rmdir "$work/$1.tmp"
}

# ---- builds ----------------------------------------------------------------------------------

now() { date +%s.%N; }
since() { awk -v start="$1" -v end="$(now)" 'BEGIN { printf "%.1f", end - start }'; }

# The reference: plain clang, no fault.
if [ ! -x "$work/ref/bc/bc" ]; then
    start=$(now)
    unpack ref || fail "could not unpack $tarball"
    (cd "$work/ref" && CC=$clang CFLAGS="-g -O2" ./configure && make) >"$work/ref.log" 2>&1 ||
        fail "the reference build failed; see $work/ref.log"
    say "== reference built (clang -O2, no fault): $(since "$start") s"
fi

# build_subject NAME: $work/NAME, symbolic mode, NAME.patch applied; rebuilt
# when the tools or the patch change.
build_subject() {
    patch_file=$here/gen_real/$1.patch
    fingerprint="$tools $(cksum <"$patch_file")"
    [ -x "$work/$1/bc/bc" ] && [ "$(cat "$work/$1/.culprit-fingerprint" 2>/dev/null)" = "$fingerprint" ] &&
        return 0
    start=$(now)
    unpack "$1" || fail "could not unpack $tarball"
    (cd "$work/$1" && patch -p1 <"$patch_file") >"$work/$1.log" 2>&1 || fail "$1.patch does not apply"
    # CULPRIT_COVERAGE reaches every compile: configure's and make's.
    (cd "$work/$1" && CULPRIT_COVERAGE=symbolic CC=$work/bin/culprit-cc CFLAGS="-g -O2" ./configure &&
        CULPRIT_COVERAGE=symbolic make) >>"$work/$1.log" 2>&1 ||
        fail "the symbolic build of $1 failed; see $work/$1.log"
    echo "$fingerprint" >"$work/$1/.culprit-fingerprint"
    say "== $1 built (culprit-cc --coverage=symbolic, fault seeded): $(since "$start") s"
}
ref=$work/ref/bc/bc
printf '52 - 13\n' >"$work/seed.bc"

# ---- generation ------------------------------------------------------------------------------

: >"$work/summary"
for patch in "$here"/gen_real/*.patch; do
    fault=$(basename "$patch" .patch)
    faulty_line=$(head -n 1 "$here/gen_real/$fault.lines") || fail "no $fault.lines"
    build_subject "$fault"
    sym=$work/$fault/bc/bc
    say
    say "== $fault: 52 - 13 -> $(echo '52 - 13' | "$sym") (reference: $(echo '52 - 13' | "$ref")); faulty line $faulty_line"
    [ "$("$sym" <"$work/seed.bc")" != "$("$ref" <"$work/seed.bc")" ] || fail "the seed does not fail with $fault"
    for strategy in $strategies; do
        store=$work/store-$fault-$strategy
        rm -rf "$store"
        say
        say "== $fault: culprit gen --strategy $strategy --budget $budget --stable 0 --input seed.bc" \
            "--reference REF -- SUBJECT"
        start=$(now)
        "$culprit" --store "$store" gen --strategy "$strategy" --budget "$budget" --stable 0 \
            --input "$work/seed.bc" --reference "$ref" -- "$sym" >"$work/gen.out" 2>"$work/gen.err" ||
            fail "culprit gen --strategy $strategy failed: $(tail -n 3 "$work/gen.err")"
        seconds=$(since "$start")
        tail -n 1 "$work/gen.err"
        say "  wall time: $seconds s"
        "$culprit" --store "$store" rank --top 8 | sed "s|$work/$fault/||g"
        "$culprit" --store "$store" rank --format csv >"$work/rank.csv" || fail "culprit rank failed"
        # rank,score,element,...: the faulty line's rank (ties share the worst), the lines ranked
        rank=$(awk -F, -v line="$work/$fault/$faulty_line" '$3 == line { print $1; exit }' "$work/rank.csv")
        lines=$(($(wc -l <"$work/rank.csv") - 1))
        tests=$(sed -n 's/.*done: \([0-9]*\) tests (\([0-9]*\) failing.*/\1 \2/p' "$work/gen.err")
        echo "$fault $strategy $seconds ${tests:-? ?} ${rank:--} $lines" >>"$work/summary"
    done
done

say
say "== summary: the faulty line's rank (technique tuples, Ochiai: culprit rank's default; ties at their worst)"
printf '  %-17s %-9s %9s %7s %9s %12s %8s\n' fault strategy "time (s)" tests failing "faulty rank" "of lines"
while read -r fault strategy seconds tests failing rank lines; do
    printf '  %-17s %-9s %9s %7s %9s %12s %8s\n' "$fault" "$strategy" "$seconds" "$tests" "$failing" "$rank" "$lines"
done <"$work/summary"
exit 0
