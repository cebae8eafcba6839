# fetch_source.sh - Debian source packages' upstream trees for the
# benchmarks, where their automake suites run and how culprit records them,
# and the order of a round's variants (sourced by bench/overhead.sh,
# bench/build_speed.sh, bench/record_cost.sh, bench/suite_speed.sh and
# bench/eval_debian.sh).
#
# fetch PACKAGE unpacks the upstream tarball of Debian's source package
# PACKAGE into $cache/src/PACKAGE.tree, downloading it once with `apt-get
# source --download-only` (Debian's packaging patches are not applied: they
# change the build, not the code).  The caller sets $cache (with a src/
# directory), $work (a scratch directory) and say(); CULPRIT_BENCH_OFFLINE=1
# uses only what is cached.  Returns 1, having said why, when the sources
# cannot be had.

upstream_tarball() {
    for file in "$cache/src/$1"_*.orig.tar.*; do
        case $file in *.asc) ;; *) [ -f "$file" ] && say "$file" && return 0 ;; esac
    done
    return 1
}

fetch() {
    tarball=$(upstream_tarball "$1")
    if [ -z "$tarball" ]; then
        if [ "${CULPRIT_BENCH_OFFLINE:-0}" = 1 ]; then
            say "  $1: not in $cache/src and CULPRIT_BENCH_OFFLINE=1: skipped"
            return 1
        fi
        if ! (cd "$cache/src" && apt-get source --download-only "$1") >"$work/fetch.log" 2>&1; then
            say "  $1: apt-get source --download-only $1 failed (no network to Debian, or no deb-src"
            say "  line in /etc/apt/sources.list*): $1 is skipped.  Last lines of its output:"
            tail -n 3 "$work/fetch.log" | sed 's/^/    /'
            return 1
        fi
        tarball=$(upstream_tarball "$1")
        [ -n "$tarball" ] || { say "  $1: apt-get source left no upstream tarball: skipped"; return 1; }
    fi
    if [ ! -d "$cache/src/$1.tree" ]; then
        rm -rf "$cache/src/$1.tmp"
        if ! mkdir -p "$cache/src/$1.tmp" || ! tar -xf "$tarball" -C "$cache/src/$1.tmp" ||
            ! mv "$cache/src/$1.tmp"/* "$cache/src/$1.tree"; then
            say "  $1: could not unpack $tarball: skipped"
            return 1
        fi
        rmdir "$cache/src/$1.tmp"
    fi
    say "  $1: $(basename "$tarball") (Debian source package $1)"
}

# rotated ROUND ITEM... : the items, one per line, rotated by ROUND, so that
# no variant always runs first (or right after another) in a benchmark's
# rounds: the machine drifts, and a ratio is taken within a round.
rotated() {
    rotated_round=$1
    shift
    for rotated_item in "$@"; do echo "$rotated_item"; done | awk -v r="$rotated_round" '{ v[NR - 1] = $0 } END {
        for (i = 0; i < NR; i++) print v[(i + r) % NR] }'
}

# suite_target PACKAGE: where its suite runs (SUBDIR TARGET), as in
# real_projects.sh: sed's and jq's at the top (check-am leaves gnulib's
# tests out), the others' in tests/ (grep, gzip, diffutils and patch:
# their own tests, not gnulib-tests/).
suite_target() {
    case $1 in
    sed | jq) say ". check-am" ;;
    *) say "tests check" ;;
    esac
}

# log_compile_variables WRAPPER: automake's LOG_COMPILE, SH_LOG_COMPILE and
# PL_LOG_COMPILE with WRAPPER before each test's command, one a line (the
# recipe of docs/harness.md, "automake").
log_compile_variables() {
    for x in '' SH_ PL_; do
        say "${x}LOG_COMPILE=$1 \$(${x}LOG_COMPILER) \$(AM_${x}LOG_FLAGS) \$(${x}LOG_FLAGS)"
    done
}
