# test_deterministic.sh - the same store ranked twice gives the same bytes
# (issue 20 item 2): with every technique (`culprit techniques`) and every
# formula, once as is and once with MALLOC_PERTURB_=165, which fills fresh
# and freed memory with a pattern, so that a score read from memory never
# written, or from memory already freed, comes out different.  The store is
# a real one: tests/subjects/calc with its seeded fault v3, built with
# culprit-cc and run with `culprit run`, as bench/eval.sh does.  The
# techniques that need mutant runs are checked in test_mutate.sh.
. "$(dirname "$0")/lib.sh"
need_culprit_cc patch

subject="$TOP/tests/subjects/calc"
mkdir work && cp -R "$subject/src" work/src && ln -s "$subject/tests" work/tests
(cd work && patch -s -p1 <"$subject/faults/v3.patch") && pass || fail "faults/v3.patch does not apply"
python3 "$TOP/bench/eval_manifest.py" "$subject" work/manifest.json && pass || fail "eval_manifest.py failed"
(cd work && "$culprit_cc" -std=c11 -O0 -g -o calc src/*.c -lm) >build.log 2>&1 && pass ||
    fail "calc does not build: $(tail -n 3 build.log)"
# 1: some tests failed, as they must with the fault
run 1 "$CULPRIT" --store work/.culprit run --tests work/manifest.json -j 2

# rank_twice NAME ARGS... : `culprit rank ARGS --format json` with and
# without MALLOC_PERTURB_, byte for byte.
rank_twice() {
    name=$1
    shift
    if ! "$CULPRIT" --store work/.culprit rank "$@" --format json >"plain-$name.json" 2>"plain-$name.err"; then
        fail "rank $* failed: $(head -c 300 "plain-$name.err")"
        return
    fi
    MALLOC_PERTURB_=165 "$CULPRIT" --store work/.culprit rank "$@" --format json >"perturbed-$name.json" \
        2>"perturbed-$name.err"
    expect_same "plain-$name.json" "perturbed-$name.json"
    # and once more as is: no state outlives a run
    "$CULPRIT" --store work/.culprit rank "$@" --format json >"again-$name.json" 2>/dev/null
    expect_same "plain-$name.json" "again-$name.json"
}

for technique in $("$CULPRIT" techniques --format csv | awk -F, 'NR > 1 && $3 !~ /mutants|cores/ { print $1 }'); do
    rank_twice "t-$technique" --technique "$technique"
done
for formula in $("$CULPRIT" formulas --format csv | sed '1d; s/,.*//'); do
    rank_twice "f-$formula" --formula "$formula"
    rank_twice "l-$formula" --formula "$formula" --kind line
done
# The default method, and every element rather than lines.
rank_twice default
rank_twice all-elements --kind all --view element

# The same tests recorded in the opposite order, one at a time: a ranking
# depends on which tests ran, not on the order the store holds them in
# (SOBER summed its evaluation biases in store order, and two of calc's
# lines differed in their last bits).
python3 -c '
import json, sys
tests = json.load(open(sys.argv[1]))
json.dump(tests[::-1], open(sys.argv[2], "w"))' work/manifest.json work/reversed.json
run 1 "$CULPRIT" --store work/.reversed run --tests work/reversed.json -j 1
for technique in $("$CULPRIT" techniques --format csv | awk -F, 'NR > 1 && $3 !~ /mutants|cores/ { print $1 }'); do
    "$CULPRIT" --store work/.reversed rank --technique "$technique" --format json >"reversed-t-$technique.json" \
        2>/dev/null
    expect_same "plain-t-$technique.json" "reversed-t-$technique.json"
done
"$CULPRIT" --store work/.reversed rank --format json >reversed-default.json 2>/dev/null
expect_same plain-default.json reversed-default.json

finish
