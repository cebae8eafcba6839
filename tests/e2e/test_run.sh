# test_run.sh - culprit run end to end (issue 4): both manifest forms, the
# hostile tests of the acceptance list (a hang, a segfault, a lingering
# child, a 1 GiB printer, a store vandal, an output wrong on lines 3 and
# 7), resuming after kill -9 and Ctrl-C, and culprit test's pass-through.
# Programs are built with the culprit-cc beside $CULPRIT; skips when it or
# the runtime is missing.
. "$(dirname "$0")/lib.sh"

BUILD_DIR=$(dirname "$CULPRIT")
CC_WRAPPER="$BUILD_DIR/culprit-cc"
if [ ! -x "$CC_WRAPPER" ] || [ ! -f "$BUILD_DIR/libculprit-rt.a" ]; then
    echo "$E2E_NAME: note: $CC_WRAPPER or the runtime is not built; skipping"
    finish
    exit 0
fi
export TMPDIR="$WORK/tmp" # what a kill -9 leaves behind goes with $WORK
mkdir -p "$TMPDIR"
sql() { sqlite3 "$CULPRIT_STORE/culprit.db" "$1"; }
if ! command -v sqlite3 >/dev/null; then
    echo "$E2E_NAME: note: sqlite3 is missing; skipping"
    finish
    exit 0
fi

# expect_sql QUERY EXPECTED
expect_sql() {
    got=$(sql "$1")
    if [ "$got" = "$2" ]; then pass; else fail "'$1' gave '$got', expected '$2'"; fi
}

# ---- the subject programs ----
cat >prog.c <<'EOF'
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static void hang(void) { for (;;) pause(); }
static void segfault(void) { volatile int *p = NULL; *p = 1; }
static void linger(void)
{
    if (fork() == 0) { sleep(30); _exit(0); } /* keeps stdout open */
    printf("parent done\n");
}
static void flood(void)
{
    static char chunk[1 << 20];
    memset(chunk, 'x', sizeof chunk);
    for (int i = 0; i < 1024; i++)
        if (fwrite(chunk, 1, sizeof chunk, stdout) != sizeof chunk) exit(3);
}
static void lines(int wrong)
{
    for (int i = 1; i <= 8; i++)
        printf("line %d%s\n", i, wrong && (i == 3 || i == 7) ? " WRONG" : "");
}
int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";
    if (strcmp(what, "hang") == 0) hang();
    else if (strcmp(what, "segv") == 0) segfault();
    else if (strcmp(what, "linger") == 0) linger();
    else if (strcmp(what, "flood") == 0) flood();
    else if (strcmp(what, "lines") == 0) lines(argc > 2);
    else if (strcmp(what, "exit") == 0) return atoi(argv[2]);
    else printf("%s\n", what);
    return 0;
}
EOF
if ! "$CC_WRAPPER" -g -o prog prog.c 2>"$WORK/cc.err"; then
    fail "culprit-cc prog.c: $(head -c 300 "$WORK/cc.err")"
    finish
    exit 1
fi
./prog lines >lines.expected

# ---- the acceptance suite (JSON form) ----
cat >suite.json <<'EOF'
[
  {"name": "echo", "argv": ["./prog", "hello"], "expect_stdout": "hello\n"},
  {"name": "hang", "cmd": "./prog hang", "timeout": 1},
  {"name": "segv", "argv": ["./prog", "segv"]},
  {"name": "linger", "cmd": "./prog linger", "expect_stdout": "parent done\n"},
  {"name": "flood", "cmd": "./prog flood"},
  {"name": "vandal", "cmd": "rm -rf .culprit; echo junk > .culprit/culprit.db; ./prog vandal"},
  {"name": "lines", "argv": ["./prog", "lines", "wrong"], "expect_stdout": {"file": "lines.expected"}},
  {"name": "status", "cmd": "./prog exit 3", "expect_exit": 3},
  {"name": "stdin", "cmd": "cat; ./prog x", "stdin": "from stdin\n", "expect_stdout": "from stdin\nx\n"},
  {"name": "env", "cmd": "echo $GREETING; ./prog y", "env": {"GREETING": "hi"}, "expect_stdout": "hi\ny\n"}
]
EOF
start=$(date +%s)
run 1 "$CULPRIT" run --tests suite.json -j 2 --output-cap 1M
elapsed=$(($(date +%s) - start))
[ "$elapsed" -lt 15 ] && pass || fail "the acceptance suite took $elapsed s (lingering child or flood delayed it?)"
[ ! -s "$WORK/err" ] && pass || fail "culprit run wrote to a non-terminal stderr: $(head -c 300 "$WORK/err")"
expect_contains "$WORK/out" "culprit run: 10 tests: 7 passed"
expect_sql "SELECT verdict FROM tests WHERE name = 'hang'" timeout
expect_sql "SELECT count(*) > 0 FROM test_units u JOIN tests t ON t.id = u.test_id WHERE t.name = 'hang'" 1
expect_sql "SELECT verdict FROM tests WHERE name = 'segv'" fail
expect_sql "SELECT r.signal FROM test_runs r JOIN tests t ON t.id = r.test_id WHERE t.name = 'segv'" 11
expect_sql "SELECT r.crash LIKE '%prog.c%' FROM test_runs r JOIN tests t ON t.id = r.test_id WHERE t.name = 'segv'" 1
expect_sql "SELECT verdict FROM tests WHERE name = 'linger'" pass
expect_sql "SELECT verdict FROM tests WHERE name = 'flood'" pass
expect_contains "$WORK/out" "pass: flood [output truncated at the cap]"
expect_sql "SELECT verdict FROM tests WHERE name = 'lines'" fail
expect_sql "SELECT hex(j.wrong_lines) FROM judgements j JOIN tests t ON t.id = j.test_id WHERE t.name = 'lines'" \
    020304 # varints: 2 lines, 3, then +4 = 7
expect_sql "SELECT verdict FROM tests WHERE name = 'status'" pass
expect_sql "SELECT verdict FROM tests WHERE name = 'stdin'" pass
expect_sql "SELECT verdict FROM tests WHERE name = 'env'" pass
expect_sql "SELECT verdict FROM tests WHERE name = 'vandal'" pass
expect_sql "PRAGMA integrity_check" ok
expect_sql "SELECT count(*) FROM tests" 10
pgrep -f "prog linger" >/dev/null && fail "the lingering child survived" || pass

# A second run resumes: the first test runs again as a probe (the program
# did not change, so the others stay recorded), the recorded failures
# still count.
run 1 "$CULPRIT" run --tests suite.json
expect_contains "$WORK/out" "1 tests: 1 passed"
expect_contains "$WORK/out" "9 already recorded, 3 of them failing"
run 1 "$CULPRIT" run --tests suite.json --rerun --output-cap 1M
expect_contains "$WORK/out" "culprit run: 10 tests"
expect_sql "SELECT count(*) FROM tests" 10

# ---- one worker, many tests: each starts clean ----
# Tests run one after another in a reused directory, started by the
# launcher from one shared environment: a test's settings must not leak
# into the next, an override must win over an inherited variable, and
# files a test leaves in its collection directory must be gone.
cat >isolation.json <<'EOF'
[
  {"name": "sets", "cmd": "echo $LEAK; touch \"$CULPRIT_COLLECT_DIR/left.junk\"; ./prog a", "env": {"LEAK": "yes", "INHERITED": "over"}, "expect_stdout": "yes\na\n"},
  {"name": "inherits", "cmd": "echo ${LEAK:-unset} $INHERITED; ls \"$CULPRIT_COLLECT_DIR\" | grep -c left; ./prog b", "expect_stdout": "unset outer\n0\nb\n"},
  {"name": "overrides", "cmd": "echo $INHERITED; ./prog c", "env": {"INHERITED": "over"}, "expect_stdout": "over\nc\n"},
  {"name": "known", "cmd": "./prog exit 3", "expect_failure": true},
  {"name": "scribbler", "cmd": "./prog d; echo junk > \"$CULPRIT_COLLECT_DIR/9.0.dump\""}
]
EOF
INHERITED=outer run 1 "$CULPRIT" run --tests isolation.json -j 1 --store iso-store
expect_contains "$WORK/out" "culprit run: 5 tests: 3 passed, 0 failed, 1 errors, 0 timeouts, 1 skipped"
# A test that damages its own coverage files is recorded as an error that says so.
got=$(sqlite3 iso-store/culprit.db "SELECT t.verdict || ': ' || j.message FROM judgements j JOIN tests t ON t.id = j.test_id WHERE t.name = 'scribbler'")
case $got in "error: cannot read the test's coverage: "*"9.0.dump"*) pass ;; *) fail "scribbler: '$got'" ;; esac
# The program's map stays in the reused directory; every test still has its spectra.
got=$(sqlite3 iso-store/culprit.db "SELECT count(DISTINCT test_id) FROM test_units")
[ "$got" = 4 ] && pass || fail "tests with spectra: '$got', expected 4"
# A known failure ("expect_failure": true) is a skip that says why.
got=$(sqlite3 iso-store/culprit.db "SELECT j.message FROM judgements j JOIN tests t ON t.id = j.test_id WHERE t.name = 'known'")
[ "$got" = "expected failure (XFAIL): exit status 3, expected 0" ] && pass || fail "known failure: '$got'"

# ---- the plain form, with a header ----
mkdir expected
printf 'a\n' >expected/a.out
printf 'b\n' >expected/b.out
printf 'nope\n' >expected/c.out
printf '4\n' >expected/d.exit
printf '' >expected/d.out
cat >plain.txt <<'EOF'
# a plain manifest
--expect-dir expected
--timeout 5

a: ./prog a
b:   ./prog b
c: ./prog c
d: ./prog exit 4
EOF
export CULPRIT_STORE="$WORK/plain-store"
run 1 "$CULPRIT" run --tests plain.txt -j 1
expect_contains "$WORK/out" "4 tests: 3 passed, 1 failed"
expect_contains "$WORK/out" "fail: c"

# ---- bad input: exit 2 with FILE:LINE:COL ----
printf 'a: ./prog\nno colon here\n' >bad.txt
run 2 "$CULPRIT" run --tests bad.txt
expect_contains "$WORK/err" "bad.txt:2:1: expected 'NAME: COMMAND'"
printf '[{"name": "x", "cmd": "true", "colour": 1}]' >bad.json
run 2 "$CULPRIT" run --tests bad.json
expect_contains "$WORK/err" "bad.json:1:31: unknown key \"colour\""
run 2 "$CULPRIT" run --tests missing.txt

# ---- kill -9 halfway through 200 tests, then resume ----
export CULPRIT_STORE="$WORK/kill-store"
i=0
: >many.txt
while [ $i -lt 200 ]; do
    echo "t$i: ./prog $i && sleep 0.02" >>many.txt
    i=$((i + 1))
done
"$CULPRIT" run --tests many.txt -j 2 >/dev/null 2>&1 &
runner=$!
tries=0
while [ $tries -lt 200 ]; do
    n=$(sql "SELECT count(*) FROM tests" 2>/dev/null || echo 0)
    [ "${n:-0}" -ge 60 ] && break
    sleep 0.05
    tries=$((tries + 1))
done
kill -9 $runner
wait $runner 2>/dev/null
n=$(sql "SELECT count(*) FROM tests")
[ "$n" -gt 0 ] && [ "$n" -lt 200 ] && pass || fail "kill -9 came at $n of 200 tests"
run 0 "$CULPRIT" run --tests many.txt -j 2
expect_sql "SELECT count(*), count(DISTINCT name) FROM tests" "200|200"
expect_sql "PRAGMA integrity_check" ok
expect_contains "$WORK/out" "already recorded"

# ---- Ctrl-C stops cleanly and keeps what finished ----
export CULPRIT_STORE="$WORK/int-store"
"$CULPRIT" run --tests many.txt -j 2 >"$WORK/int.out" 2>&1 &
runner=$!
sleep 1
kill -INT $runner
wait $runner
code=$?
[ $code -eq 130 ] && pass || fail "culprit run exited $code after SIGINT, expected 130"
expect_contains "$WORK/int.out" "interrupted by signal 2"
done_before=$(sql "SELECT count(*) FROM tests")
expect_sql "PRAGMA integrity_check" ok
run 0 "$CULPRIT" run --tests many.txt
expect_contains "$WORK/out" "$done_before already recorded"

# ---- culprit test: pass-through, exit status, the store protected ----
export CULPRIT_STORE="$WORK/.culprit"
run 3 "$CULPRIT" test --name three -- ./prog exit 3
run 77 "$CULPRIT" test --name skipped -- ./prog exit 77
expect_sql "SELECT verdict FROM tests WHERE name = 'skipped'" skip
run 99 "$CULPRIT" test --name hard -- ./prog exit 99
expect_sql "SELECT verdict FROM tests WHERE name = 'hard'" error
run 0 "$CULPRIT" test --name passthrough -- sh -c './prog out; echo err >&2'
expect_file_equals "$WORK/out" "out"
expect_contains "$WORK/err" "err"
run 1 "$CULPRIT" test --name vandal2 -- sh -c 'rm -rf "$CULPRIT_STORE"; ./prog vandal; exit 1'
expect_sql "PRAGMA integrity_check" ok
expect_sql "SELECT verdict FROM tests WHERE name = 'vandal2'" fail
run 143 "$CULPRIT" test --name slow --timeout 0.5 -- ./prog hang
expect_sql "SELECT verdict FROM tests WHERE name = 'slow'" timeout
# Many at once into one store.
i=0
while [ $i -lt 8 ]; do
    "$CULPRIT" test --name "parallel$i" -- ./prog $i >/dev/null 2>&1 &
    i=$((i + 1))
done
wait
expect_sql "SELECT count(*) FROM tests WHERE name LIKE 'parallel%'" 8

# A test name that is not UTF-8 (byte 0xff) still gives valid JSON, with the
# byte as U+FFFD; quotes, a backslash and UTF-8 come back as they were.
# The bytes go to python undecoded: json.loads then rejects invalid UTF-8.
run 1 "$CULPRIT" test --name "$(printf 'bad\377 "q" \\ \303\251')" -- ./prog exit 1
run 0 "$CULPRIT" tests --format json
if python3 -c '
import json, sys
names = [t["name"] for t in json.loads(sys.stdin.buffer.read())]
assert "bad\ufffd \"q\" \\ \u00e9" in names, names
' <"$WORK/out"; then pass; else fail "culprit tests --format json is not valid JSON or lost the name: $(head -c 300 "$WORK/out")"; fi

finish
