#!/bin/sh
# eval_gen.sh - how well `culprit gen` localizes the seeded faults of the
# subject programs from one failing test (issue 17 item 5).  `make eval-gen`
# runs it; BENCHMARKS.md "Generated tests (issue 17)" reports it.
#
# usage: sh bench/eval_gen.sh BUILD_DIR [OUT_DIR]     (OUT_DIR: BUILD_DIR/eval-gen)
#
# For each chosen faulty version NAME/vN of tests/subjects (default: the
# first EVAL_GEN_PER_SUBJECT of each subject by version number):
#   1. the subject's src/ patched with faults/vN.patch, built three ways:
#      culprit-cc --coverage=symbolic (for culprit gen), culprit-cc full mode
#      (the pool and the AFL++ replay), and the unfaulted src/ with plain cc
#      (the reference: its stdout and exit status are the expected ones);
#   2. the baseline: the whole hand-written pool (tests/manifest.txt through
#      bench/eval_manifest.py) with culprit run, then culprit eval;
#   3. the seed: the pool's first failing test; culprit gen gets only its
#      stdin and arguments, with --reference, and for each strategy a budget
#      of EVAL_GEN_BUDGET tests (--stable 0: the whole budget), --faults and
#      --trace, a fresh store each;
#   4. AFL++ (afl-cc, afl-fuzz) seeded with the same input for as long as
#      PCS ran (whole seconds, at least 1); its queue and crashes replayed on
#      the full build with the reference's output as the expected output,
#      then culprit eval.
# bench/eval_gen.py table writes OUT_DIR/table.md from OUT_DIR/results/.
#
# Environment:
#   EVAL_GEN_VERSIONS     exact versions, e.g. "calc/v1 fmt/v4" (overrides the next)
#   EVAL_GEN_PER_SUBJECT  faults per subject (default 5)
#   EVAL_GEN_STRATEGIES   default "base coverage pcs pcs-seq is bisect delta mix"
#   EVAL_GEN_BUDGET       generated tests per strategy (default 100)
#   EVAL_GEN_STABLE       culprit gen --stable (default 0: run the whole budget)
#   EVAL_GEN_AFL          0: skip AFL++ (default 1 when afl-fuzz is installed)
#   EVAL_GEN_SUMMARY_ONLY 1: run nothing, summarise OUT_DIR/results
# Run it under nice on a shared machine.  Exit status 0 when every version
# was evaluated, 1 when some could not be (OUT_DIR/failures.txt), 2 on bad usage.
set -u

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: sh bench/eval_gen.sh BUILD_DIR [OUT_DIR]" >&2
    exit 2
fi
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" 2>/dev/null && pwd) || { echo "eval_gen.sh: no build directory $1" >&2; exit 2; }
out=${2:-$build/eval-gen}
culprit=$build/culprit
cc_wrapper=$build/culprit-cc
for f in "$culprit" "$cc_wrapper"; do
    [ -x "$f" ] || { echo "eval_gen.sh: $f is not built (make BUILD=$1 all)" >&2; exit 2; }
done
subjects_dir=$top/tests/subjects
strategies=${EVAL_GEN_STRATEGIES:-base coverage pcs pcs-seq is bisect delta mix}
budget=${EVAL_GEN_BUDGET:-100}
stable=${EVAL_GEN_STABLE:-0}
per_subject=${EVAL_GEN_PER_SUBJECT:-5}
use_afl=${EVAL_GEN_AFL:-1}
command -v afl-fuzz >/dev/null 2>&1 && command -v afl-cc >/dev/null 2>&1 || use_afl=0
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
log=$out/eval-gen.log
start=$(date +%s)

if [ "${EVAL_GEN_SUMMARY_ONLY:-0}" != 1 ]; then
    versions=${EVAL_GEN_VERSIONS:-}
    if [ -z "$versions" ]; then
        for d in "$subjects_dir"/*/; do
            s=$(basename "$d")
            [ -d "$d/faults" ] || continue
            for v in $(ls "$d/faults" | sed -n 's/^\(v[0-9][0-9]*\)\.patch$/\1/p' | sort -t v -k 2 -n |
                head -n "$per_subject"); do
                versions="$versions $s/$v"
            done
        done
    fi
    rm -rf "$out/results" "$out/work"
    mkdir -p "$out/results" "$out/work" "$out/manifests" || exit 2
    : >"$out/failures.txt"
    : >"$log"
fi

fail_version() { # ID MESSAGE
    echo "$1: $2" >>"$out/failures.txt"
    echo "eval_gen.sh: $1: $2" >&2
}

# json_meta FILE KEY=VALUE... : a flat JSON object of strings and numbers.
json_meta() {
    f=$1
    shift
    python3 -c 'import json, sys
d = {}
for a in sys.argv[2:]:
    k, _, v = a.partition("=")
    try:
        d[k] = int(v)
    except ValueError:
        try:
            d[k] = float(v)
        except ValueError:
            d[k] = v
json.dump(d, open(sys.argv[1], "w"))' "$f" "$@"
}

# run_afl ID WORK SECONDS RESULT_DIR : AFL++ for SECONDS from the seed,
# its queue and crashes replayed on the full build, culprit eval.
run_afl() {
    a_id=$1 a_work=$2 a_seconds=$3 a_result=$4
    subject=${a_id%%/*}
    if ! (cd "$a_work" && afl-cc -std=c11 -O0 -g -I"$top/include" -o "$subject-afl" src/*.c -lm) >>"$log" 2>&1; then
        afl_note="afl-cc failed"
        return 1
    fi
    rm -rf "$a_work/afl-in" "$a_work/afl-out"
    mkdir -p "$a_work/afl-in" && cp "$a_work/seed/stdin" "$a_work/afl-in/seed"
    # No CPU governor or core pinning here (a shared container): the
    # variables AFL++ documents for that, and no UI.  A seed that crashes
    # is refused by afl-fuzz unless AFL_SKIP_CRASHES (then the queue starts
    # empty and AFL++ cannot run: said so in the table).
    # shellcheck disable=SC2046
    (cd "$a_work" && AFL_SKIP_CPUFREQ=1 AFL_NO_AFFINITY=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 \
        AFL_NO_UI=1 AFL_SKIP_CRASHES=1 \
        afl-fuzz -i afl-in -o afl-out -V "$a_seconds" -t 2000 -- "./$subject-afl" $(cat seed/args)) \
        >"$a_work/afl.log" 2>&1
    if [ ! -d "$a_work/afl-out/default/queue" ]; then
        afl_note="afl-fuzz did not run: $(grep -a 'PROGRAM ABORT\|\[-\]' "$a_work/afl.log" | head -n 1 |
            sed 's/\x1b\[[0-9;]*m//g')"
        return 1
    fi
    python3 "$top/bench/eval_gen.py" afl-manifest "$a_work/afl-out/default/queue" "$a_work/afl-out/default/crashes" \
        --program "$a_work/$subject-full" --reference "$a_work/reference" --args "$a_work/seed/args" \
        --out "$a_work/afl-tests" >"$a_work/afl-count" 2>>"$log" || { afl_note="manifest failed"; return 1; }
    "$culprit" --store "$a_work/afl.store" run --tests "$a_work/afl-tests/tests.json" -j 2 >>"$log" 2>&1
    "$culprit" --store "$a_work/afl.store" eval --faults "$subjects_dir/$subject/faults/${a_id#*/}.lines" \
        --format json --version-name "$a_id" --formula ochiai --technique tuples:ochiai >"$a_result/afl.json" \
        2>>"$log" || { rm -f "$a_result/afl.json"; afl_note="no failing test in the AFL++ queue"; return 1; }
    return 0
}

for id in ${versions:-}; do
    subject=${id%%/*} v=${id#*/}
    sdir=$subjects_dir/$subject
    work=$out/work/$subject-$v
    result=$out/results/$subject-$v
    mkdir -p "$work" "$result" || exit 2
    manifest=$out/manifests/$subject.json
    [ -f "$manifest" ] || python3 "$top/bench/eval_manifest.py" "$sdir" "$manifest" 2>>"$log" ||
        { fail_version "$id" "cannot convert tests/manifest.txt"; continue; }
    cp -R "$sdir/src" "$work/src" && cp -R "$sdir/src" "$work/src-fixed" && ln -s "$sdir/tests" "$work/tests" &&
        cp "$manifest" "$work/manifest.json" || exit 2
    if ! (cd "$work" && patch -s -p1 <"$sdir/faults/$v.patch") >>"$log" 2>&1; then
        fail_version "$id" "patch does not apply"
        continue
    fi
    if ! (cd "$work" && cc -std=c11 -O0 -I"$top/include" -o reference src-fixed/*.c -lm &&
        "$cc_wrapper" --coverage=symbolic -std=c11 -O0 -g -o "$subject" src/*.c -lm &&
        "$cc_wrapper" -std=c11 -O0 -g -o "$subject-full" src/*.c -lm) >>"$log" 2>&1; then
        fail_version "$id" "does not build"
        continue
    fi
    # The baseline: the whole pool on the full build (the manifest runs ./NAME).
    sed "s|\"\\./$subject\"|\"./$subject-full\"|g" "$manifest" >"$work/manifest.json"
    pool_start=$(date +%s)
    "$culprit" --store "$work/pool.store" run --tests "$work/manifest.json" -j 2 >"$work/run.out" 2>>"$log"
    "$culprit" --store "$work/pool.store" eval --faults "$sdir/faults/$v.lines" --format json --version-name "$id" \
        --formula ochiai --technique tuples:ochiai >"$result/pool.json" 2>>"$log" || rm -f "$result/pool.json"
    pool_seconds=$(($(date +%s) - pool_start))
    "$culprit" --store "$work/pool.store" tests --format csv >"$work/pool-tests.csv" 2>>"$log"
    if ! seed=$(python3 "$top/bench/eval_gen.py" seed "$work/manifest.json" "$work/pool-tests.csv" "$work/seed" 2>>"$log")
    then
        fail_version "$id" "no failing argv + stdin test in the pool"
        continue
    fi
    pcs_seconds=
    for strategy in $strategies; do
        # shellcheck disable=SC2046
        (cd "$work" && "$culprit" gen --store "gen-$strategy.store" --strategy "$strategy" --budget "$budget" \
            --stable "$stable" --input seed/stdin --reference "$work/reference" \
            --faults "$sdir/faults/$v.lines" --trace "$result/$strategy.jsonl" \
            -- "./$subject" $(cat seed/args)) >"$work/gen-$strategy.out" 2>"$work/gen-$strategy.err"
        status=$?
        echo "$id $strategy: exit $status: $(grep 'done:\|^culprit: ' "$work/gen-$strategy.err" | tail -n 2 | tr '\n' ' ')" >>"$log"
        grep -q 'first faulty line' "$work/gen-$strategy.err" ||
            echo "$id $strategy: $(tail -n 1 "$work/gen-$strategy.err")" >>"$out/failures.txt"
        if [ "$strategy" = pcs ] && [ -s "$result/pcs.jsonl" ]; then
            pcs_seconds=$(tail -n 1 "$result/pcs.jsonl" | python3 -c 'import json, math, sys
print(max(1, math.ceil(json.loads(sys.stdin.read())["seconds"])))')
        fi
    done
    afl_note="not run"
    if [ "$use_afl" = 1 ] && [ -n "$pcs_seconds" ]; then
        run_afl "$id" "$work" "$pcs_seconds" "$result" && afl_note=ran
    elif [ "$use_afl" != 1 ]; then
        afl_note="AFL++ not installed"
    fi
    json_meta "$result/meta.json" "version=$id" "seed=$seed" "pool_seconds=$pool_seconds" \
        "afl_seconds=${pcs_seconds:-0}" "afl_note=$afl_note"
    printf '%s: seed %s, AFL++ %s  (%ss)\n' "$id" "$seed" "$afl_note" "$(($(date +%s) - start))"
    [ "${EVAL_GEN_KEEP:-0}" = 1 ] || rm -rf "$work"
done

total=$(($(date +%s) - start))
python3 "$top/bench/eval_gen.py" table "$out" --seconds "$total" >"$out/table.md" || exit 1
cat "$out/table.md"
echo
echo "eval_gen.sh: results in $out (table.md, results/, failures.txt, eval-gen.log)"
[ ! -s "$out/failures.txt" ]
