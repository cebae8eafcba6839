#!/bin/sh
# eval_php.sh - how well the formulas and techniques localize the seeded
# faults of the PHP web subjects (tests/subjects/php/*/ with a request
# manifest, issue 21 item 4).  `make eval-php` runs it; `make eval` runs it
# after the C subjects.
#
# usage: sh bench/eval_php.sh BUILD_DIR [OUT_DIR]     (OUT_DIR: BUILD_DIR/eval-php)
#
# For each faulty version NAME/vN: copy the subject's src/ and tests/ to a
# work directory, apply faults/vN.patch, run the request tests with
# `culprit run` (culprit-php-cgi and the extension from BUILD_DIR), then
# `culprit eval --format json` with Tarantula, Ochiai, tuples (over
# Ochiai and over Tarantula), S_map and S_comb (over Tarantula, Apollo's,
# and over Ochiai), and Tarantula, Ochiai and S_comb again on a random 10%
# of the passing tests for seeds 1, 2, 3 (Apollo's "Random" selection,
# seeds/000 Figure 7).  bench/eval_php_table.py then writes table.md: per
# method the share of well-localized faults in seeds/000's sense (EXAM
# over *executed* lines < 1%), the same over executable lines, mean EXAM,
# and top-1/top-5.  culprit itself is never rebuilt here.
#
# Environment:
#   EVAL_PHP_SUBJECTS  subjects (default: every tests/subjects/php/NAME with
#                      tests/manifest.json and faults/)
#   EVAL_PHP_VERSIONS  exact versions, e.g. "faqdesk/v1 c4/v3"
#   EVAL_JOBS          tests at once (default 2)
#   EVAL_SEEDS         seeds of the 10% passing-sample variant (default "1 2 3";
#                      empty: skip it); EVAL_SAMPLE its fraction (default 0.1)
#   EVAL_KEEP          1: keep each version's work directory and store
#
# Exit status: 0 when every version was evaluated, 1 when some version
# could not be (listed in OUT_DIR/failures.txt), 2 on bad usage.
set -u

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: sh bench/eval_php.sh BUILD_DIR [OUT_DIR]" >&2
    exit 2
fi
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" 2>/dev/null && pwd) || { echo "eval_php.sh: no build directory $1" >&2; exit 2; }
out=${2:-$build/eval-php}
culprit=$build/culprit
for f in "$culprit" "$build/culprit-php-cgi" "$build/culprit.so"; do
    [ -e "$f" ] || { echo "eval_php.sh: $f is not built (make BUILD=$1 all php)" >&2; exit 2; }
done
if ! command -v php-cgi >/dev/null 2>&1; then
    echo "eval_php.sh: php-cgi is not installed (Debian: php8.2-cgi); nothing to evaluate" >&2
    exit 0
fi
PATH=$build:$PATH # the manifests' requests run culprit-php-cgi
export PATH
php_dir=$top/tests/subjects/php
jobs=${EVAL_JOBS:-2}
subjects=${EVAL_PHP_SUBJECTS:-$(for d in "$php_dir"/*/; do
    [ -f "$d/tests/manifest.json" ] && [ -d "$d/faults" ] && basename "$d"; done)}
versions_wanted=${EVAL_PHP_VERSIONS:-}
if [ -n "$versions_wanted" ]; then
    subjects=$(for v in $versions_wanted; do echo "${v%%/*}"; done | awk '!seen[$0]++')
fi
FORMULAS=tarantula,ochiai
seeds=${EVAL_SEEDS-1 2 3}
sample=${EVAL_SAMPLE:-0.1}
TECHNIQUES=tuples,tuples:tarantula,smap,scomb,scomb:ochiai

mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
rm -rf "$out/results" "$out/work"
mkdir -p "$out/results" "$out/work" || exit 2
: >"$out/failures.txt"
log=$out/eval.log
: >"$log"
start=$(date +%s)
versions=0
failed=0

fail_version() { # ID MESSAGE
    echo "$1: $2" >>"$out/failures.txt"
    echo "eval_php.sh: $1: $2" >&2
    failed=$((failed + 1))
}

for subject in $subjects; do
    sdir=$php_dir/$subject
    [ -f "$sdir/tests/manifest.json" ] || { fail_version "$subject" "no tests/manifest.json"; continue; }
    faults_wanted=$(ls "$sdir/faults" | sed -n 's/^\(v[0-9][0-9]*\)\.patch$/\1/p' | sort -t v -k 2 -n)
    if [ -n "$versions_wanted" ]; then
        faults_wanted=$(for v in $versions_wanted; do case $v in "$subject"/*) echo "${v#*/}" ;; esac; done)
    fi
    for v in $faults_wanted; do
        id=$subject/$v
        versions=$((versions + 1))
        work=$out/work/$subject-$v
        mkdir -p "$work" && cp -R "$sdir/src" "$work/src" && cp -R "$sdir/tests" "$work/tests" || exit 2
        if ! (cd "$work" && patch -s -p1 <"$sdir/faults/$v.patch") >>"$log" 2>&1; then
            fail_version "$id" "patch does not apply"
            continue
        fi
        "$culprit" --store "$work/.culprit" run --tests "$work/tests/manifest.json" -j "$jobs" >"$work/run.out" 2>>"$log"
        status=$?
        summary=$(tail -n 1 "$work/run.out")
        echo "$id: $summary" >>"$log"
        if [ $status -ne 1 ]; then # 1: some tests failed, as a faulty version must
            fail_version "$id" "culprit run exited $status ($summary)"
            continue
        fi
        if ! "$culprit" --store "$work/.culprit" eval --faults "$sdir/faults/$v.lines" --format json \
            --version-name "$id" --formula "$FORMULAS" --technique "$TECHNIQUES" \
            >"$out/results/$subject-$v.json" 2>>"$log"; then
            rm -f "$out/results/$subject-$v.json"
            fail_version "$id" "culprit eval failed: $(tail -n 1 "$log")"
            continue
        fi
        for seed in $seeds; do
            "$culprit" --store "$work/.culprit" eval --faults "$sdir/faults/$v.lines" --format json \
                --version-name "$id#seed$seed" --formula "$FORMULAS" --technique scomb \
                --passing-sample "$sample" --seed "$seed" >"$out/results/$subject-$v-s$seed.json" 2>>"$log" || {
                rm -f "$out/results/$subject-$v-s$seed.json"
                echo "$id: --passing-sample $sample --seed $seed: $(tail -n 1 "$log")" >>"$out/failures.txt"
            }
        done
        [ "${EVAL_KEEP:-0}" = 1 ] || rm -rf "$work"
        printf '%s  (%ss)\n' "$id: $summary" "$(($(date +%s) - start))"
    done
done
seconds=$(($(date +%s) - start))
set -- "$out"/results/*.json
if [ ! -f "$1" ]; then
    echo "eval_php.sh: no results" >&2
    exit 1
fi
"$culprit" eval --summary --exam executed --format text "$@" >"$out/summary-executed.txt" || exit 1
"$culprit" eval --summary --format text "$@" >"$out/summary.txt" || exit 1
python3 "$top/bench/eval_php_table.py" "$out/results" --failed "$failed" --seconds "$seconds" \
    >"$out/table.md" || exit 1
cat "$out/table.md"
echo
echo "eval_php.sh: $versions faulty versions ($failed not evaluated), ${seconds}s"
echo "eval_php.sh: results in $out: table.md summary-executed.txt summary.txt results/ failures.txt eval.log"
[ "$failed" -eq 0 ]
