#!/bin/sh
# culprit gen on a real program (issue 17): GNU bc, from Debian's source
# package, built with culprit-cc in symbolic mode with a seeded fault, and
# localized from one failing input.  docs/gen-real.md reports a run.
#
# usage: sh bench/gen_real.sh BUILD_DIR WORK_DIR [BUDGET]
#   BUILD_DIR  a culprit build (make BUILD=DIR all)
#   WORK_DIR   sources, builds and stores (created; the builds are reused)
#   BUDGET     generated tests per strategy (default 40)
#
# What it does:
#   1. fetches bc's upstream tarball with `apt-get source --download-only bc`
#      (enabling deb-src when missing; needs root) and unpacks it twice.
#      Debian's patches are not applied: one edits bc/Makefile.am, and make
#      would then want automake-1.14.
#   2. builds the reference, unfaulted, with clang-14 -O2, and the subject
#      with CC=culprit-cc, CULPRIT_COVERAGE=symbolic and
#      bench/gen_real/bc-sub-borrow.patch applied: in _bc_do_sub, a borrow
#      adds BASE - 1 instead of BASE, so a subtraction prints a wrong result
#      exactly when a digit of the smaller operand's magnitude is larger than
#      the larger one's at the same position (counting the borrow): 52 - 13
#      prints 38, 58 - 13 prints 45 as it should.
#   3. for each strategy (pcs, then base), in a fresh store:
#        culprit gen --strategy S --budget N --stable 0 --input seed.bc \
#            --reference REF/bc/bc -- SYM/bc/bc
#      from the seed `52 - 13`, and prints the time, the tests, the top of
#      `culprit rank` and the rank of the faulty line (lib/number.c:482).
#
# Not run by `make check` or `make bench` (network, root, a minute or two).
# Exits 1 when a step fails.
set -u
build=${1:?usage: sh bench/gen_real.sh BUILD_DIR WORK_DIR [BUDGET]}
work=${2:?usage: sh bench/gen_real.sh BUILD_DIR WORK_DIR [BUDGET]}
budget=${3:-40}
here=$(cd "$(dirname "$0")" && pwd) || exit 1
build=$(cd "$build" && pwd) || exit 1
mkdir -p "$work" && work=$(cd "$work" && pwd) || exit 1
patch_file=$here/gen_real/bc-sub-borrow.patch
faulty_line=lib/number.c:482
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
fingerprint=$(cat "$work/bin/culprit-cc" "$work/bin/libculprit-rt.a" "$patch_file" | cksum | cut -d' ' -f1)

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
    rm -rf "$work/$1" "$work/$1.tmp" && mkdir "$work/$1.tmp" && tar -xf "$tarball" -C "$work/$1.tmp" &&
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

# The subject: symbolic mode, the fault seeded.  Rebuilt when the tools or the patch change.
if [ ! -x "$work/sym/bc/bc" ] || [ "$(cat "$work/sym/.culprit-fingerprint" 2>/dev/null)" != "$fingerprint" ]; then
    start=$(now)
    unpack sym || fail "could not unpack $tarball"
    (cd "$work/sym" && patch -p1 <"$patch_file") >"$work/sym.log" 2>&1 || fail "the patch does not apply"
    # CULPRIT_COVERAGE reaches every compile: configure's and make's.
    (cd "$work/sym" && CULPRIT_COVERAGE=symbolic CC=$work/bin/culprit-cc CFLAGS="-g -O2" ./configure &&
        CULPRIT_COVERAGE=symbolic make) >>"$work/sym.log" 2>&1 ||
        fail "the symbolic build failed; see $work/sym.log"
    echo "$fingerprint" >"$work/sym/.culprit-fingerprint"
    say "== subject built (culprit-cc --coverage=symbolic, fault seeded): $(since "$start") s"
fi
ref=$work/ref/bc/bc
sym=$work/sym/bc/bc

# The fault as the script sees it: the seed fails, a neighbour passes.
printf '52 - 13\n' >"$work/seed.bc"
say "== the seed: 52 - 13 -> subject $(echo '52 - 13' | "$sym"), reference $(echo '52 - 13' | "$ref");" \
    "58 - 13 -> $(echo '58 - 13' | "$sym") and $(echo '58 - 13' | "$ref")"
[ "$("$sym" <"$work/seed.bc")" != "$("$ref" <"$work/seed.bc")" ] || fail "the seed does not fail"

# ---- generation ------------------------------------------------------------------------------

: >"$work/summary"
for strategy in pcs base; do
    store=$work/store-$strategy
    rm -rf "$store"
    say
    say "== culprit gen --strategy $strategy --budget $budget --stable 0 --input seed.bc --reference REF -- SUBJECT"
    start=$(now)
    "$culprit" --store "$store" gen --strategy "$strategy" --budget "$budget" --stable 0 --input "$work/seed.bc" \
        --reference "$ref" -- "$sym" >"$work/gen-$strategy.out" 2>"$work/gen-$strategy.err" ||
        fail "culprit gen --strategy $strategy failed: $(tail -n 3 "$work/gen-$strategy.err")"
    seconds=$(since "$start")
    tail -n 1 "$work/gen-$strategy.err"
    say "  wall time: $seconds s"
    "$culprit" --store "$store" rank --top 8 | sed "s|$work/sym/||g"
    "$culprit" --store "$store" rank --format csv >"$work/rank-$strategy.csv" || fail "culprit rank failed"
    # rank,score,element,...: the faulty line's rank (ties share the worst) and how many lines were ranked
    awk -F, -v line="$work/sym/$faulty_line" -v strategy="$strategy" -v seconds="$seconds" '
        NR > 1 { total++ } $3 == line && !found { found = $1; score = $2 }
        END { printf "%s %s %s %s %s\n", strategy, seconds, found ? found : "-", score ? score : "-", total }' \
        "$work/rank-$strategy.csv" >>"$work/summary"
    tests=$(sed -n 's/.*done: \([0-9]*\) tests (\([0-9]*\) failing.*/\1 \2/p' "$work/gen-$strategy.err")
    sed -i "\$s/\$/ $tests/" "$work/summary"
done

say
say "== summary: the faulty line $faulty_line (technique tuples, Ochiai: culprit rank's default)"
printf '  %-9s %9s %7s %9s %12s %8s\n' strategy "time (s)" tests failing "faulty rank" "of lines"
while read -r strategy seconds rank score total tests failing; do
    printf '  %-9s %9s %7s %9s %12s %8s\n' "$strategy" "$seconds" "$tests" "$failing" "$rank" "$total"
done <"$work/summary"
exit 0
