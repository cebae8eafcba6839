#!/bin/sh
# compare-builds.sh - does a change keep every ranking, report and listing
# byte-for-byte?  Runs the read-only commands of two builds of culprit on
# the same stores and compares their stdout, stderr and exit status.
#
# usage: sh scripts/compare-builds.sh OLD_BUILD NEW_BUILD
#
# The stores are made once, with NEW_BUILD's culprit-cc and culprit, so both
# builds read exactly the same data: the bundled mid() example (tuples,
# wrong output lines), three faulty versions of subjects from tests/subjects
# (crashes, clusters, output maps, predicates) and a GZoltar import (no
# tuples).  For each store it runs `culprit rank` with every kind, formula
# family and technique, `eval` with every formula and technique,
# `tests`, `failures`, `output`, `report --json/--sarif` and a few error
# cases, and prints one line per difference and a closing count.
# Exit status: 0 when everything matched, 1 otherwise, 2 on bad usage.
set -u
[ $# -eq 2 ] || { echo "usage: sh scripts/compare-builds.sh OLD_BUILD NEW_BUILD" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
old=$(cd "$1" && pwd) && new=$(cd "$2" && pwd) || exit 2
for b in "$old" "$new"; do [ -x "$b/culprit" ] || { echo "compare-builds: no $b/culprit" >&2; exit 2; }; done
work=$(mktemp -d "${TMPDIR:-/tmp}/culprit-compare.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
compared=0
differ=0

# ---- the stores ----
make_mid() { # the demo's example
    mkdir -p "$work/mid" && cd "$work/mid" || exit 2
    "$new/culprit-cc" -O2 -o mid "$top/examples/mid/mid.c" || exit 2
    for input in "3 3 5" "1 2 3" "3 2 1" "5 5 5" "5 3 4" "2 1 3"; do
        name=mid_$(echo "$input" | tr ' ' _)
        # shellcheck disable=SC2086
        "$new/culprit" --store "$work/mid/store" test --name "$name" \
            --expect "$top/examples/mid/expected/$name.out" -- ./mid $input >/dev/null 2>&1
    done
    cp "$top/examples/mid/faults.txt" "$work/mid/faults.txt"
}
make_subject() { # SUBJECT VERSION: through bench/eval.sh, which keeps the store
    EVAL_VERSIONS="$1/$2" EVAL_SEEDS= EVAL_KEEP=1 sh "$top/bench/eval.sh" "$new" "$work/eval-$1-$2" \
        >/dev/null 2>&1
    dir=$work/eval-$1-$2/work/$1-$2
    [ -d "$dir" ] || { echo "compare-builds: eval.sh kept no store for $1/$2" >&2; exit 2; }
    mkdir -p "$work/$1-$2"
    cp -r "$dir"/. "$work/$1-$2/"
    cp "$top/tests/subjects/$1/faults/$2.lines" "$work/$1-$2/faults.txt"
}
make_gzoltar() {
    mkdir -p "$work/gzoltar" && cd "$work/gzoltar" || exit 2
    "$new/culprit" --store "$work/gzoltar/store" import gzoltar --matrix "$top/examples/mid/matrix.txt" \
        --spectra "$top/examples/mid/spectra.csv" --tests "$top/examples/mid/tests.csv" >/dev/null || exit 2
    cp "$top/examples/mid/faults.txt" "$work/gzoltar/faults.txt"
}

# ---- running both builds ----
store_of() { # a store directory under a work directory
    if [ -d "$1/store" ]; then echo "$1/store"; else find "$1" -name culprit.db -printf '%h\n' | head -n 1; fi
}
compare() { # LABEL DIR ARGS...: runs both builds in a copy of DIR each
    label=$1 dir=$2
    shift 2
    for side in old new; do
        rm -rf "$work/run-$side" && cp -r "$dir" "$work/run-$side"
        eval "bin=\$$side"
        store=$(store_of "$work/run-$side")
        (cd "$work/run-$side" && "$bin/culprit" --store "$store" "$@" >"$work/$side.out" 2>"$work/$side.err"
         echo "exit $?" >>"$work/$side.err")
        # report files: compare what the command wrote, too
        for f in report.json report.sarif; do
            [ -f "$work/run-$side/$f" ] && cat "$work/run-$side/$f" >>"$work/$side.out"
        done
        sed -i "s|$work/run-$side|WORK|g" "$work/$side.out" "$work/$side.err"
    done
    compared=$((compared + 1))
    if ! cmp -s "$work/old.out" "$work/new.out" || ! cmp -s "$work/old.err" "$work/new.err"; then
        differ=$((differ + 1))
        echo "differs: $label: culprit $*"
        diff "$work/old.out" "$work/new.out" | head -n 5
        diff "$work/old.err" "$work/new.err" | head -n 5
    fi
}
techniques=$("$new/culprit" techniques 2>/dev/null | awk '/^[a-z]/ { print $1 }')
compare_store() { # LABEL DIR
    label=$1 dir=$2
    compare "$label" "$dir" rank --top 0 --format csv
    compare "$label" "$dir" rank --top 0 --format json
    compare "$label" "$dir" rank --top 10
    for kind in line tuple branch return block edge all; do
        compare "$label" "$dir" rank --kind "$kind" --top 0 --format csv
    done
    compare "$label" "$dir" rank --kind all --view line --top 0 --format csv
    for formula in tarantula ochiai dstar op2 jaccard sbi; do
        compare "$label" "$dir" rank --formula "$formula" --ties average --top 0 --format csv
    done
    for technique in $techniques tuples:dstar scomb:ochiai; do
        compare "$label" "$dir" rank --technique "$technique" --top 0 --format csv
    done
    compare "$label" "$dir" rank --technique scomb --cluster 1 --top 0 --format csv
    compare "$label" "$dir" rank --technique smap --all-failures --top 0 --format csv
    compare "$label" "$dir" rank --passing-sample 0.5 --seed 3 --top 0 --format csv
    compare "$label" "$dir" eval --faults faults.txt --formula all --technique all --format json
    compare "$label" "$dir" eval --faults faults.txt --formula all --format csv
    compare "$label" "$dir" tests --format json
    compare "$label" "$dir" tests --format csv
    compare "$label" "$dir" failures --format json
    compare "$label" "$dir" report --json report.json --sarif report.sarif
    compare "$label" "$dir" rank --program 0000nosuch
    compare "$label" "$dir" export json -o /dev/stdout
}

make_mid
make_gzoltar
make_subject schedule v3
make_subject htmlgen v2
make_subject calc v1
compare_store mid "$work/mid"
compare "mid" "$work/mid" output mid_3_3_5
compare_store gzoltar "$work/gzoltar"
for s in schedule-v3 htmlgen-v2 calc-v1; do compare_store "$s" "$work/$s"; done
compare "none" "$work/mid" --store "$work/nosuch" rank
echo "compare-builds: $compared commands compared, $differ differ"
[ "$differ" -eq 0 ]
