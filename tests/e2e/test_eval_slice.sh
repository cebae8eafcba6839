# test_eval_slice.sh - a CI-sized slice of the effectiveness evaluation
# (issue 7): 2 subjects x 3 seeded faults of tests/subjects/, run through
# bench/eval.sh exactly as `make eval` runs the whole suite (patch, build
# with culprit-cc, culprit run, culprit eval --technique ...), then checks
# that the known faulty line of each version stays within a stated rank for
# the main techniques.  The limits are the ranks measured when the test was
# written (in the comments), doubled plus 5: a regression in collection,
# ranking, a technique or the evaluation that pushes a faulty line down
# fails here.  Also checks culprit eval's --technique and --passing-sample
# options on one of the stores.  Skips when culprit-cc or the runtime has
# not been built.
. "$(dirname "$0")/lib.sh"

BUILD_DIR=$(cd "$(dirname "$CULPRIT")" && pwd)
if [ ! -x "$BUILD_DIR/culprit-cc" ] || [ ! -f "$BUILD_DIR/libculprit-rt.a" ]; then
    echo "$E2E_NAME: note: $BUILD_DIR/culprit-cc or the runtime is not built; skipping"
    finish
    exit 0
fi

# version  method  largest accepted rank (worst of ties) = 2 x measured + 5   measured
# (measured 2026-11-22 by bench/eval.sh; calc has 357 executable lines, fmt 198)
LIMITS='
calc/v1  tarantula          21   8
calc/v1  ochiai             21   8
calc/v1  dstar              21   8
calc/v1  tuples:ochiai       7   1
calc/v1  scomb:tarantula    33   14
calc/v1  blockrank         159   77
calc/v5  tarantula           9   2
calc/v5  ochiai              9   2
calc/v5  dstar               9   2
calc/v5  tuples:ochiai       9   2
calc/v5  scomb:tarantula    21   8
calc/v5  blockrank         187   91
calc/v9  tarantula          23   9
calc/v9  ochiai             15   5
calc/v9  dstar              15   5
calc/v9  tuples:ochiai      17   6
calc/v9  scomb:tarantula    29   12
calc/v9  blockrank          45   20
fmt/v1   tarantula          27   11
fmt/v1   ochiai             15   5
fmt/v1   dstar              15   5
fmt/v1   tuples:ochiai      23   9
fmt/v1   scomb:tarantula    39   17
fmt/v1   blockrank         143   69
fmt/v4   tarantula          11   3
fmt/v4   ochiai             11   3
fmt/v4   dstar              11   3
fmt/v4   tuples:ochiai       7   1
fmt/v4   scomb:tarantula    23   9
fmt/v4   blockrank          59   27
fmt/v7   tarantula           7   1
fmt/v7   ochiai              7   1
fmt/v7   dstar               7   1
fmt/v7   tuples:ochiai       9   2
fmt/v7   scomb:tarantula    19   7
fmt/v7   blockrank          29   12
'
VERSIONS=$(echo "$LIMITS" | awk 'NF { print $1 }' | awk '!seen[$0]++')

# ---- the slice, through the same script as `make eval` ----
# shellcheck disable=SC2086
run 0 env EVAL_VERSIONS="$(echo $VERSIONS)" EVAL_SEEDS= EVAL_KEEP=1 sh "$TOP/bench/eval.sh" "$BUILD_DIR" "$WORK/eval"
cp "$WORK/out" "$WORK/eval.out"
for f in summary.txt summary.csv curve.svg curve.csv table.md; do
    if [ -s "$WORK/eval/$f" ]; then pass; else fail "bench/eval.sh wrote no $f"; fi
done
expect_contains "$WORK/eval/summary.txt" "blockrank"
expect_contains "$WORK/eval/curve.svg" "<svg"

# rank RESULTS_FILE METHOD: the `rank` of METHOD in a results file.
rank() {
    python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
print(next((r["rank"] for r in doc["results"] if r["formula"] == sys.argv[2]), "missing"))' "$1" "$2" 2>/dev/null ||
        echo missing
}

echo "$LIMITS" | while read -r version method limit measured; do
    [ -n "$version" ] || continue
    file=$WORK/eval/results/all/$(echo "$version" | tr / -).json
    actual=$(rank "$file" "$method")
    printf '%s\n' "$version $method $actual $limit" >>"$WORK/ranks"
done
echo "$E2E_NAME: version method rank limit:" && sed 's/^/  /' "$WORK/ranks"
while read -r version method actual limit; do
    case $actual in
    missing) fail "$version: no result for $method (eval.log: $(tail -n 3 "$WORK/eval/eval.log"))" ;;
    *) if awk -v a="$actual" -v l="$limit" 'BEGIN { exit !(a <= l) }'; then pass; else
        fail "$version: $method ranks the faulty line at $actual, worse than the limit $limit"
    fi ;;
    esac
done <"$WORK/ranks"

# ---- culprit eval --technique / --passing-sample on one kept store ----
first=$(echo "$VERSIONS" | head -n 1)
subject=${first%/*} v=${first#*/}
export CULPRIT_STORE="$WORK/eval/work/$subject-$v/.culprit"
faults=$TOP/tests/subjects/$subject/faults/$v.lines
run 0 "$CULPRIT" eval --faults "$faults" --technique blockrank,tuples:dstar,scomb --format csv
expect_line_count "$WORK/out" 4
expect_contains "$WORK/out" "tuples:dstar,"
expect_contains "$WORK/out" "scomb:tarantula,"
run 0 "$CULPRIT" eval --faults "$faults" --formula ochiai --technique all,blockrank --format json
expect_contains "$WORK/out" '"technique": "set-intersection"'
expect_contains "$WORK/out" '"blamed_lines": '
if [ "$(grep -c '"formula": "blockrank"' "$WORK/out")" -eq 1 ]; then pass; else fail "blockrank evaluated twice"; fi
run 0 "$CULPRIT" eval --faults "$faults" --formula ochiai --technique scomb --passing-sample 0.1 --seed 7 --format csv
cp "$WORK/out" "$WORK/sample1"
expect_contains "$WORK/sample1" "ochiai@p0.1,"
expect_contains "$WORK/sample1" "scomb:tarantula@p0.1,"
run 0 "$CULPRIT" eval --faults "$faults" --formula ochiai --technique scomb --passing-sample 0.1 --seed 7 --format csv
expect_same "$WORK/sample1" "$WORK/out"
run 2 "$CULPRIT" eval --faults "$faults" --technique no-such-technique
run 2 "$CULPRIT" eval --faults "$faults" --technique blockrank:ochiai
run 2 "$CULPRIT" eval --faults "$faults" --formula ochiai --seed 3
run 2 "$CULPRIT" eval --faults "$faults" --formula ochiai --passing-sample 1.5
run 2 "$CULPRIT" eval --faults "$faults" --technique cbi --kind branch

finish
