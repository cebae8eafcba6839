#!/bin/sh
# eval.sh - how well every formula and technique localizes the seeded faults
# of the subject programs (tests/subjects/, issue 7).  `make eval` runs it.
#
# usage: sh bench/eval.sh BUILD_DIR [OUT_DIR]        (OUT_DIR: BUILD_DIR/eval)
#
# For each faulty version NAME/vN: copy the subject's src/ to a work
# directory (tests/ is a symbolic link to the subject's), apply
# faults/vN.patch, build with BUILD_DIR/culprit-cc, run the test pool with
# `culprit run -j2`, then `culprit eval --format json` with every formula
# and every technique (one results file per version), and with S_comb,
# Tarantula and Ochiai on a random 10% of the passing tests for each seed
# (Apollo's selection variant; one results file per version and seed).
# Finally `culprit eval --summary` aggregates everything into
# summary.{txt,csv,json}, curve.csv, curve.svg (every method) and
# curve-main.svg (eleven methods, one or two per family), and
# bench/eval_table.py writes table.md.  culprit itself is never rebuilt here.
#
# Environment:
#   EVAL_SUBJECTS  subjects to run (default: every C subject of tests/subjects)
#   EVAL_FAULTS    versions to run, e.g. "v1 v3" (default: every faults/vN.patch)
#   EVAL_VERSIONS  exact versions, e.g. "calc/v1 fmt/v4" (overrides the two above)
#   EVAL_JOBS      tests at once (default 2)
#   EVAL_RUN_OPTIONS  more options for `culprit run`, e.g. --fork-server
#   EVAL_MUTATE    options for `culprit mutate` (e.g. "--per-line 2
#                  --max-failing 5"): build with culprit-cc --mutants and
#                  run `culprit mutate` after the suite, so that Metallaxis
#                  and MUSE are evaluated too (docs/mutation.md); unset: no
#                  mutants
#   EVAL_SEEDS     seeds of the 10% passing-sample variant (default "1 2 3";
#                  empty: skip the variant)
#   EVAL_SAMPLE    the fraction of that variant (default 0.1)
#   EVAL_KEEP      1: keep each version's work directory and store
#   EVAL_SUMMARY_ONLY  1: run nothing, summarise the results already in OUT_DIR
#                  (after re-running some versions into it with EVAL_APPEND=1)
#   EVAL_APPEND    1: keep OUT_DIR's results, replacing only the versions run
#
# Exit status: 0 when every version was evaluated, 1 when some version
# could not be (listed in OUT_DIR/failures.txt; the summary covers the
# rest), 2 on bad usage.
set -u

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: sh bench/eval.sh BUILD_DIR [OUT_DIR]" >&2
    exit 2
fi
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" 2>/dev/null && pwd) || { echo "eval.sh: no build directory $1" >&2; exit 2; }
out=${2:-$build/eval}
culprit=$build/culprit
cc=$build/culprit-cc
for f in "$culprit" "$cc"; do
    [ -x "$f" ] || { echo "eval.sh: $f is not built (make BUILD=$1 all)" >&2; exit 2; }
done
subjects_dir=$top/tests/subjects
jobs=${EVAL_JOBS:-2}
seeds=${EVAL_SEEDS-1 2 3}
sample=${EVAL_SAMPLE:-0.1}
# The C subjects: every directory with faulty versions (tests/subjects/php/
# holds the PHP ones, which bench/eval_php.sh evaluates).
subjects=${EVAL_SUBJECTS:-$(for d in "$subjects_dir"/*/; do [ -d "$d/faults" ] && basename "$d"; done)}
versions_wanted=${EVAL_VERSIONS:-}
if [ -n "$versions_wanted" ]; then
    subjects=$(for v in $versions_wanted; do echo "${v%%/*}"; done | awk '!seen[$0]++')
fi

# Every formula and every technique; tuples and S_comb also on the bases
# the literature pairs them with.
TECHNIQUES="all,tuples:ochiai,tuples:tarantula,scomb:ochiai"
SAMPLED_FORMULAS="tarantula,ochiai"
SAMPLED_TECHNIQUES="scomb"

mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
summary_only=${EVAL_SUMMARY_ONLY:-0}
log=$out/eval.log
if [ "$summary_only" = 1 ]; then
    subjects=
elif [ "${EVAL_APPEND:-0}" = 1 ]; then
    rm -rf "$out/work" "$out/manifests" "$out/main-results"
else
    rm -rf "$out/results" "$out/work" "$out/manifests" "$out/main-results"
    : >"$out/failures.txt"
    : >"$log"
fi
mkdir -p "$out/results/all" "$out/results/sample" "$out/work" "$out/manifests" || exit 2
touch "$out/failures.txt" "$log"

start=$(date +%s)
versions=0
failed=0

fail_version() { # ID MESSAGE
    echo "$1: $2" >>"$out/failures.txt"
    echo "eval.sh: $1: $2" >&2
    failed=$((failed + 1))
}

# evaluate ID WORK FAULTS OUTFILE ARGS... : one `culprit eval --format json`.
# When the combined call fails (one technique lacking data, say), each
# method is evaluated alone so that the others still count.
evaluate() { # (sh has no local variables: these names are evaluate's own)
    e_id=$1 e_work=$2 e_faults=$3 e_result=$4
    shift 4
    if "$culprit" --store "$e_work/.culprit" eval --faults "$e_faults" --format json "$@" \
        >"$e_result" 2>>"$log"; then
        return 0
    fi
    rm -f "$e_result"
    echo "eval.sh: $e_id: culprit eval $* failed" >>"$log"
    return 1
}

for subject in $subjects; do
    sdir=$subjects_dir/$subject
    [ -d "$sdir/faults" ] || { fail_version "$subject" "no such subject"; continue; }
    manifest=$out/manifests/$subject.json
    if ! python3 "$top/bench/eval_manifest.py" "$sdir" "$manifest" 2>>"$log"; then
        fail_version "$subject" "cannot convert tests/manifest.txt"
        continue
    fi
    faults_wanted=${EVAL_FAULTS:-$(ls "$sdir/faults" | sed -n 's/^\(v[0-9][0-9]*\)\.patch$/\1/p' | sort -t v -k 2 -n)}
    if [ -n "$versions_wanted" ]; then
        faults_wanted=$(for v in $versions_wanted; do case $v in "$subject"/*) echo "${v#*/}" ;; esac; done)
    fi
    for v in $faults_wanted; do
        id=$subject/$v
        versions=$((versions + 1))
        work=$out/work/$subject-$v
        rm -f "$out/results/all/$subject-$v.json" "$out/results/all/$subject-$v-"*.json \
            "$out/results/sample/$subject-$v-"*.json
        grep -v "^$id:" "$out/failures.txt" >"$out/failures.tmp"; mv "$out/failures.tmp" "$out/failures.txt"
        mkdir -p "$work" && cp -R "$sdir/src" "$work/src" && ln -s "$sdir/tests" "$work/tests" || exit 2
        cp "$manifest" "$work/manifest.json"
        if ! (cd "$work" && patch -s -p1 <"$sdir/faults/$v.patch") >>"$log" 2>&1; then
            fail_version "$id" "patch does not apply"
            continue
        fi
        if ! (cd "$work" && "$cc" ${EVAL_MUTATE:+--mutants} -std=c11 -O0 -g -o "$subject" src/*.c -lm) >>"$log" 2>&1; then
            fail_version "$id" "does not build with culprit-cc"
            continue
        fi
        "$culprit" --store "$work/.culprit" run --tests "$work/manifest.json" -j "$jobs" ${EVAL_RUN_OPTIONS:-} >"$work/run.out" 2>>"$log"
        status=$?
        summary=$(tail -n 1 "$work/run.out")
        echo "$id: $summary" >>"$log"
        if [ $status -ne 1 ]; then # 1: some tests failed, as a faulty version must
            fail_version "$id" "culprit run exited $status ($summary)"
            continue
        fi
        if [ -n "${EVAL_MUTATE:-}" ]; then
            # shellcheck disable=SC2086
            if "$culprit" --store "$work/.culprit" mutate --tests "$work/manifest.json" -j "$jobs" $EVAL_MUTATE \
                >"$work/mutate.out" 2>>"$log"; then
                echo "$id: $(head -n 1 "$work/mutate.out")" >>"$log"
            else
                echo "$id: culprit mutate failed: $(tail -n 1 "$log")" >>"$out/failures.txt"
            fi
        fi
        faults=$sdir/faults/$v.lines
        result=$out/results/all/$subject-$v.json
        if ! evaluate "$id" "$work" "$faults" "$result" --version-name "$id" --formula all --technique "$TECHNIQUES"
        then # one method lacking data, say: evaluate each alone so that the others count
            if ! "$culprit" --store "$work/.culprit" eval --faults "$faults" --formula ochiai >/dev/null 2>"$work/err"
            then # not a method's problem: the version cannot be evaluated at all (faults file...)
                fail_version "$id" "$(tail -n 1 "$work/err")"
                [ "${EVAL_KEEP:-0}" = 1 ] || rm -rf "$work"
                continue
            fi
            n=0
            for method in $("$culprit" formulas --format csv | sed '1d; s/,.*//'); do
                n=$((n + 1))
                evaluate "$id" "$work" "$faults" "${result%.json}-f$n.json" --version-name "$id" --formula "$method" ||
                    echo "$id: formula $method: $(tail -n 1 "$log")" >>"$out/failures.txt"
            done
            for method in $(echo "$TECHNIQUES" | sed 's/^all,//; s/,/ /g') \
                $("$culprit" techniques --format csv | awk -F, 'NR > 1 && $3 !~ /mutants|cores/ { print $1 }'); do
                n=$((n + 1))
                evaluate "$id" "$work" "$faults" "${result%.json}-t$n.json" --version-name "$id" --technique "$method" ||
                    echo "$id: technique $method: $(tail -n 1 "$log")" >>"$out/failures.txt"
            done
        fi
        for seed in $seeds; do
            evaluate "$id" "$work" "$faults" "$out/results/sample/$subject-$v-s$seed.json" \
                --version-name "$id#seed$seed" --formula "$SAMPLED_FORMULAS" --technique "$SAMPLED_TECHNIQUES" \
                --passing-sample "$sample" --seed "$seed" ||
                echo "$id: --passing-sample $sample --seed $seed: $(tail -n 1 "$log")" >>"$out/failures.txt"
        done
        [ "${EVAL_KEEP:-0}" = 1 ] || rm -rf "$work"
        printf '%s  (%ss)\n' "$id: $summary" "$(($(date +%s) - start))"
    done
done
run_seconds=$(($(date +%s) - start))
if [ "$summary_only" = 1 ] || [ "${EVAL_APPEND:-0}" = 1 ]; then # count what the results hold
    failed=$(cut -d: -f1 "$out/failures.txt" | sort -u | wc -l)
    versions=$(($(ls "$out/results/all" | sed 's/-[ft][0-9]*\.json$//; s/\.json$//' | sort -u | wc -l) + failed))
fi

set -- "$out"/results/all/*.json "$out"/results/sample/*.json
results=
for f in "$@"; do [ -f "$f" ] && results=yes; done
if [ -z "$results" ]; then
    echo "eval.sh: no results" >&2
    exit 1
fi
files=$(ls "$out"/results/all/*.json "$out"/results/sample/*.json 2>/dev/null)
# shellcheck disable=SC2086
"$culprit" eval --summary --format text --svg "$out/curve.svg" --curve-csv "$out/curve.csv" $files \
    >"$out/summary.txt" || exit 1
# shellcheck disable=SC2086
"$culprit" eval --summary --format csv $files >"$out/summary.csv" || exit 1
# shellcheck disable=SC2086
"$culprit" eval --summary --format json $files >"$out/summary.json" || exit 1
# The plot of the table's methods only: the same results, filtered.
python3 "$top/bench/eval_table.py" filter "$out/results" "$out/main-results" || exit 1
"$culprit" eval --summary --format text --svg "$out/curve-main.svg" "$out"/main-results/*.json >/dev/null || exit 1
total_seconds=$(($(date +%s) - start))
python3 "$top/bench/eval_table.py" table "$out/summary.json" "$out/results" \
    --versions "$versions" --failed "$failed" --seconds "$total_seconds" >"$out/table.md" || exit 1

cat "$out/table.md"
echo
echo "eval.sh: $versions faulty versions ($failed not evaluated), ${run_seconds}s to run them, ${total_seconds}s in all"
echo "eval.sh: results in $out:"
echo "  table.md summary.txt summary.csv summary.json curve.svg curve-main.svg curve.csv results/ failures.txt eval.log"
[ "$failed" -eq 0 ]
