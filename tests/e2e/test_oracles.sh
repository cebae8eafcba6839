# test_oracles.sh - the oracle end to end: a program built with culprit-cc
# prints from several functions (buffered printf without a newline, puts,
# fprintf, write(2), and a last line flushed at exit); `culprit test` judges
# it; `culprit output` maps each output line to the statements that wrote
# it; `culprit tests` lists verdicts and wrong lines as text, CSV and JSON,
# with what each wrong line should have been (a diff against the expected
# output, or a validator's and the HTML check's message per line), and
# `culprit output` marks the wrong lines with it;
# `culprit failures` clusters two equal wrong-output failures together and a
# crash apart.  Skips (counting nothing) when culprit-cc is not built.
. "$(dirname "$0")/lib.sh"

BUILD_DIR=$(dirname "$CULPRIT")
CC_WRAPPER="$BUILD_DIR/culprit-cc"
if [ ! -x "$CC_WRAPPER" ] || [ ! -f "$BUILD_DIR/libculprit-rt.a" ]; then
    echo "$E2E_NAME: note: $CC_WRAPPER or the runtime is not built; skipping"
    finish
    exit 0
fi

cat >printer.c <<'EOF'
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void greet(void)
{
    printf("hello ");
}

static void name(const char *who)
{
    puts(who);
}

static void total(int a, int b)
{
    fprintf(stdout, "total %d\n", a + b);
}

static void raw(void)
{
    (void)!write(1, "raw line\n", 9);
}

static void farewell(void)
{
    fputs("bye", stdout);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    greet();
    name("world");
    total(2, strcmp(mode, "bug") == 0 ? 3 : 2);
    if (strcmp(mode, "crash") == 0)
        *(volatile int *)0 = 1;
    fflush(stdout);
    raw();
    farewell();
    return 0;
}
EOF
line_of() { grep -n -F -- "$1" printer.c | head -1 | cut -d: -f1; }
GREET=$(line_of 'printf("hello ");')
NAME=$(line_of 'puts(who);')
TOTAL=$(line_of 'fprintf(stdout,')
RAW=$(line_of 'write(1,')
BYE=$(line_of 'fputs("bye"')

if ! "$CC_WRAPPER" -g -O0 -o printer printer.c 2>"$WORK/cc.err"; then
    fail "culprit-cc printer.c: $(head -c 300 "$WORK/cc.err")"
    finish
    exit 1
fi
printf 'hello world\ntotal 4\nraw line\nbye' >expected

run 0 "$CULPRIT" test --name ok --expect expected -- ./printer
expect_file_equals "$WORK/out" "hello world
total 4
raw line
bye"
run 0 "$CULPRIT" test --name bug1 --expect expected -- ./printer bug
run 0 "$CULPRIT" test --name bug2 --expect expected -- ./printer bug
run 139 "$CULPRIT" test --name crash --expect expected -- ./printer crash

# ---- culprit output: each line to the statements that wrote it ----
run 0 "$CULPRIT" output ok
expect_contains "$WORK/out" "    1 | hello world"
expect_contains "$WORK/out" "printer.c:$GREET (greet)"
expect_contains "$WORK/out" "printer.c:$NAME (name)"
expect_contains "$WORK/out" "    4 | bye"
run 0 "$CULPRIT" output --format json ok
cp "$WORK/out" output.json
if python3 - "$GREET" "$NAME" "$TOTAL" "$RAW" "$BYE" <<'EOF'; then pass; else fail "culprit output --format json: $(cat output.json)"; fi
import json, sys
greet, name, total, raw, bye = (int(a) for a in sys.argv[1:])
doc = json.load(open("output.json"))
lines = doc["lines"]
assert doc["test"] == "ok" and doc["exact"] is True, doc
assert [l["text"] for l in lines] == ["hello world", "total 4", "raw line", "bye"], lines
def wrote(l):
    return [(s["function"], s["line"]) for s in lines[l]["statements"]]
assert wrote(0) == [("greet", greet), ("name", name)], wrote(0)
assert wrote(1) == [("total", total)], wrote(1)
assert wrote(2) == [("raw", raw)], wrote(2)
assert wrote(3) == [("farewell", bye)], wrote(3)
assert all(s["file"].endswith("printer.c") for l in lines for s in l["statements"])
EOF

# ---- culprit tests: verdicts, wrong lines, in three formats ----
run 0 "$CULPRIT" tests
expect_contains "$WORK/out" "wrong output lines: 2"
# the expected line beside the actual one, as a unified diff
expect_block "$WORK/out" "        wrong output lines: 2
        --- expected
        +++ actual
        @@ -2 +2 @@
        -total 4
        +total 5"
run 0 "$CULPRIT" tests --format csv
case $(head -1 "$WORK/out") in
name,verdict,*wrong_output_lines,differences) pass ;;
*) fail "CSV header is '$(head -1 "$WORK/out")'" ;;
esac
expect_contains "$WORK/out" "bug1,fail,"
expect_contains "$WORK/out" ',2,--- expected\n+++ actual\n@@ -2 +2 @@\n-total 4\n+total 5'
expect_line_count "$WORK/out" 5
run 0 "$CULPRIT" tests --format json
cp "$WORK/out" tests.json
if python3 - <<'EOF'; then pass; else fail "culprit tests --format json: $(cat tests.json)"; fi
import json
doc = json.load(open("tests.json"))
tests = {t["name"]: t for t in (doc["tests"] if isinstance(doc, dict) else doc)}
assert set(tests) == {"ok", "bug1", "bug2", "crash"}, tests
for t in tests.values():
    assert {"name", "verdict", "wrong_output_lines", "duration", "exit_status", "signal", "signature"} <= set(t)
assert tests["ok"]["verdict"] == "pass" and tests["ok"]["wrong_output_lines"] == []
assert tests["bug1"]["verdict"] == "fail" and tests["bug1"]["wrong_output_lines"] == [2], tests["bug1"]
assert tests["bug1"]["exit_status"] == 0
assert tests["crash"]["verdict"] == "fail" and tests["crash"]["signal"] == 11, tests["crash"]
assert "SIGSEGV" in tests["crash"]["signature"] and "printer.c" in tests["crash"]["signature"], tests["crash"]
assert tests["bug1"]["signature"] == tests["bug2"]["signature"]
assert list(tests["bug1"])[-2:] == ["differences", "differences_omitted"], list(tests["bug1"])
assert tests["bug1"]["differences"] == [{"kind": "changed", "actual_line": 2, "expected_line": 2,
    "expected": "total 4", "actual": "total 5", "message": None, "no_newline": None}], tests["bug1"]
assert tests["bug1"]["differences_omitted"] == 0 and tests["ok"]["differences"] == []
EOF

# ---- culprit output: the wrong line marked, with what it should have been ----
run 0 "$CULPRIT" output bug1
expect_contains "$WORK/out" "    1 | hello world"
expect_block "$WORK/out" "    2 ! total 5
        expected: total 4"
run 0 "$CULPRIT" output --format json bug1
cp "$WORK/out" output-bug1.json
if python3 - <<'EOF'; then pass; else fail "culprit output --format json bug1: $(cat output-bug1.json)"; fi
import json
doc = json.load(open("output-bug1.json"))
assert [l["wrong"] for l in doc["lines"]] == [False, True, False, False], doc["lines"]
assert [(d["kind"], d["actual_line"], d["expected"], d["actual"]) for d in doc["differences"]] == \
    [("changed", 2, "total 4", "total 5")], doc["differences"]
EOF

# ---- culprit failures: the two wrong totals together, the crash apart ----
run 0 "$CULPRIT" failures --format json
cp "$WORK/out" failures.json
if python3 - "$TOTAL" <<'EOF'; then pass; else fail "culprit failures --format json: $(cat failures.json)"; fi
import json, sys
clusters = json.load(open("failures.json"))
assert len(clusters) == 2, clusters
assert sorted(clusters[0]["tests"]) == ["bug1", "bug2"] and clusters[0]["size"] == 2, clusters
assert [(s["function"], s["line"]) for s in clusters[0]["statements"]] == [("total", int(sys.argv[1]))], clusters
assert clusters[1]["tests"] == ["crash"], clusters
EOF
run 0 "$CULPRIT" failures
expect_contains "$WORK/out" "cluster 1: 2 tests: stdout differs from the expected output"
expect_contains "$WORK/out" "output written by: "
run 0 "$CULPRIT" failures --format csv
case $(head -1 "$WORK/out") in
cluster,size,signature,test,statements) pass ;;
*) fail "failures CSV header is '$(head -1 "$WORK/out")'" ;;
esac

# ---- a missing final newline, a missing line; validators and HTML say per line what is wrong ----
printf 'hello world\ntotal 4\nraw line\nbye\nthe end\n' >longer
run 0 "$CULPRIT" test --name short --expect longer -- ./printer
run 0 "$CULPRIT" output short
expect_block "$WORK/out" "    4 ! bye
        expected: bye  (with a newline at the end)"
expect_contains "$WORK/out" "      - missing: the end  (expected line 5)"
cat >check-total.sh <<'EOF'
#!/bin/sh
grep -q 'total 4' "$1" && exit 0
echo "2: the total should be 4"
exit 1
EOF
chmod +x check-total.sh
cat >manifest.json <<'EOF'
[{"name": "checked", "argv": ["./printer", "bug"], "validator": "./check-total.sh"},
 {"name": "page", "cmd": "printf '<!DOCTYPE html>\\n<html><head><title>t</title></head>\\n<body>\\n<div>\\n<p>x\\n</body></html>\\n'",
  "oracle": "html"}]
EOF
run 1 "$CULPRIT" run --tests manifest.json
run 0 "$CULPRIT" tests
expect_block "$WORK/out" "        @@ +2 @@ the total should be 4
         total 5"
expect_block "$WORK/out" "        @@ +4 @@ missing </div>
         <div>"
run 0 "$CULPRIT" output checked
expect_block "$WORK/out" "    2 ! total 5
        note: the total should be 4"
# libtidy is opened when a test is first judged as HTML (run/tidy_library.c):
# culprit links none, and without one the HTML oracle says what is missing.
if readelf -d "$CULPRIT" 2>/dev/null | grep -q 'NEEDED.*libtidy'; then
    fail "culprit links libtidy: every process would load it"
else pass; fi
run 3 env CULPRIT_TIDY_LIBRARY=/nonexistent/libtidy.so "$CULPRIT" --store notidy run --tests manifest.json
expect_contains "$WORK/err" "culprit: test page: cannot load libtidy, which the HTML oracle and culprit web need: /nonexistent/libtidy.so"

# ---- whitespace normalization and a validator through culprit test, if it has the options ----
if "$CULPRIT" test --help | grep -q -- '--normalize'; then
    printf 'hello   world\ntotal 4\nraw line\nbye\n' >loose
    run 0 "$CULPRIT" test --name loose --expect loose --normalize whitespace -- ./printer
    run 0 "$CULPRIT" tests --format csv
    expect_contains "$WORK/out" "loose,pass,"
fi

# ---- usage errors ----
run 2 "$CULPRIT" output
run 2 "$CULPRIT" output --format csv ok
run 2 "$CULPRIT" output no-such-test
run 2 "$CULPRIT" tests --format yaml
# a missing expected-output file is named once, with the reason (the error
# used to be formatted into itself: "expected output: expected output: ...")
run 2 "$CULPRIT" test --name h --expect nosuch.out -- true
expect_file_equals "$WORK/err" "culprit: expected output: cannot read nosuch.out: No such file or directory"
finish
