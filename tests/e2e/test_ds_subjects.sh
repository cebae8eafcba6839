# test_ds_subjects.sh - the data-structure subjects with specifications stay
# valid under culprit (issue 23 item 4, tests/subjects/README.md): each
# correct version, built by culprit-cc (which finds <culprit/contract.h>
# itself), passes its whole pool under `culprit run`; two faulty versions
# fail by the spec they violate - ds-list v1, the paper's sizeErr, by
# list_ok in list_remove, and ds-bst v4, a missing parent update, by bst_ok
# in bst_remove - as one cluster each, and Ochiai ranks the faulty line
# where bench/eval.sh found it (4th and 7th at worst).  Each subject's check.sh (plain cc, every faulty version)
# is not run here: it takes 6-8 s a subject.
. "$(dirname "$0")/lib.sh"
need_culprit_cc

# prepare NAME [vN] : a copy of the subject (faulty when vN is given) built
# by culprit-cc in $WORK/NAME-V, with its manifest as culprit's JSON
prepare() {
    subject=$TOP/tests/subjects/$1
    dir=$WORK/$1-${2:-correct}
    mkdir "$dir" && cp -R "$subject/src" "$dir/src" && ln -s "$subject/tests" "$dir/tests" || exit 1
    if [ -n "${2:-}" ]; then
        (cd "$dir" && patch -s -p1 <"$subject/faults/$2.patch") && pass || fail "$1/$2: patch does not apply"
    fi
    run 0 sh -c "cd '$dir' && '$culprit_cc' -std=c11 -O0 -g -o '$1' src/*.c"
    run 0 python3 "$TOP/bench/eval_manifest.py" "$subject" "$dir/manifest.json"
}

for s in ds-list ds-bst ds-heap ds-sortedset; do
    prepare "$s"
    run 0 "$CULPRIT" --store "$dir/.culprit" run --tests "$dir/manifest.json" -j 2
    expect_contains "$WORK/out" "120 tests: 120 passed, 0 failed"
done

# check NAME vN FAILING CLUSTER FAULT_LINE WORST_RANK
check() {
    prepare "$1" "$2"
    run 1 "$CULPRIT" --store "$dir/.culprit" run --tests "$dir/manifest.json" -j 2
    expect_contains "$WORK/out" "120 tests: $((120 - $3)) passed, $3 failed"
    run 0 "$CULPRIT" --store "$dir/.culprit" failures
    expect_contains "$WORK/out" "cluster 1: $3 tests: $4"
    [ "$(grep -c '^cluster' "$WORK/out")" -eq 1 ] && pass || fail "$1/$2: more than one cluster: $(cat "$WORK/out")"
    run 0 "$CULPRIT" --store "$dir/.culprit" eval --faults "$subject/faults/$2.lines" --formula ochiai \
        --format json
    python3 - "$WORK/out" "$5" "$6" <<'PY' && pass || fail "$1/$2: Ochiai should rank line $5 by $6th: $(cat "$WORK/out")"
import json, sys
res = json.load(open(sys.argv[1]))["results"][0]
assert res["first_fault"]["line"] == int(sys.argv[2]), res
assert res["worst"] <= int(sys.argv[3]), res
PY
}

check ds-list v1 16 "invariant \`list_ok(l)' violated (SIGABRT) at src/list.c:192 (list_remove)" 191 4
check ds-bst v4 10 "invariant \`bst_ok(t)' violated (SIGABRT) at src/bst.c:153 (bst_remove)" 146 7
finish
