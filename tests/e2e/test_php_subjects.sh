# test_php_subjects.sh - the PHP web subjects stay valid (issue 21 item 4,
# tests/subjects/README.md): faqdesk's check.sh on its correct version and
# three faulty versions (a list left open: malformed HTML; a missing isset:
# a PHP warning; a title not escaped), the rules holding; then one faulty
# version evaluated as bench/eval_php.sh does, S_comb ranking its faulty
# line within the first 1% of the executed lines.  The whole suite of every
# subject is `make eval-php`'s (a few minutes).  Skips without PHP or php-cgi.
. "$(dirname "$0")/lib.sh"

need_php_cgi
subject=$TOP/tests/subjects/php/faqdesk

run 0 env CULPRIT_BUILD="$BUILD_DIR" sh "$subject/check.sh" v1 v4 v10
expect_contains "$WORK/out" "check.sh: faqdesk: all rules hold"
for row in "correct        0/68" "v1             5/68" "v4             1/68" "v10            3/68"; do
    expect_contains "$WORK/out" "$row"
done

# v10: the breadcrumbs' title not escaped (src/inc/layout.php:69).
PATH="$BUILD_DIR:$PATH"
export PATH
mkdir app
cp -R "$subject/src" "$subject/tests" app/
(cd app && patch -s -p1 <"$subject/faults/v10.patch") && pass || fail "v10.patch does not apply"
run 1 "$CULPRIT" run --tests app/tests/manifest.json -j 2
run 0 "$CULPRIT" eval --faults "$subject/faults/v10.lines" --technique scomb --format json
python3 - "$WORK/out" <<'PY' && pass || fail "S_comb should place inc/layout.php:69 within 1% of the executed lines: $(cat "$WORK/out")"
import json, sys
r = json.load(open(sys.argv[1]))
res = r["results"][0]
assert res["formula"] == "scomb:tarantula", res
assert res["first_fault"]["line"] == 69, res
assert res["exam_executed"] < 0.01, res
PY
finish
