# test_ctest.sh - `culprit ctest`: a CMake project whose CMakeLists.txt knows
# nothing of culprit, with tests that use PASS_REGULAR_EXPRESSION,
# FAIL_REGULAR_EXPRESSION, SKIP_REGULAR_EXPRESSION, SKIP_RETURN_CODE,
# WILL_FAIL, ENVIRONMENT, ENVIRONMENT_MODIFICATION, WORKING_DIRECTORY and
# DISABLED, and real failures: culprit's recorded verdict of every test must
# be the verdict ctest itself prints.  Then test selection, and every way
# ctest's list can be wrong (a stand-in ctest prints it), each with its
# message and exit status 2.
. "$(dirname "$0")/lib.sh"

case $CULPRIT in /*) ;; *) CULPRIT=$TOP/$CULPRIT ;; esac
need_culprit_cc cmake ctest sqlite3

cp "$TOP/tests/e2e/recipe_calc.c" calc.c
cat >CMakeLists.txt <<'EOF'
cmake_minimum_required(VERSION 3.13)
project(calc C)
add_executable(calc calc.c)
enable_testing()
add_test(NAME add_zero COMMAND calc add 2 0)
add_test(NAME add_three COMMAND calc add 2 3)
add_test(NAME skipped COMMAND calc skip 0 0)
set_tests_properties(skipped PROPERTIES SKIP_RETURN_CODE 77)
add_test(NAME mul_output COMMAND calc mul 2 3)
set_tests_properties(mul_output PROPERTIES PASS_REGULAR_EXPRESSION "^6\n$")
add_test(NAME mul_wrong_output COMMAND calc mul 2 4)
set_tests_properties(mul_wrong_output PROPERTIES PASS_REGULAR_EXPRESSION "^9")
add_test(NAME add_output COMMAND calc add 2 3)
set_tests_properties(add_output PROPERTIES PASS_REGULAR_EXPRESSION "^-1")
add_test(NAME usage COMMAND calc usage)
set_tests_properties(usage PROPERTIES WILL_FAIL TRUE)
add_test(NAME usage_message COMMAND calc usage)
set_tests_properties(usage_message PROPERTIES WILL_FAIL TRUE PASS_REGULAR_EXPRESSION "usage: calc")
add_test(NAME mul_nine COMMAND calc mul 3 3)
set_tests_properties(mul_nine PROPERTIES FAIL_REGULAR_EXPRESSION "9;99")
add_test(NAME not_yet COMMAND sh -c "echo feature not yet there; exit 1")
set_tests_properties(not_yet PROPERTIES SKIP_REGULAR_EXPRESSION "not (yet|now)")
add_test(NAME environment COMMAND sh -c "test -f CMakeLists.txt && test \"$CALC_MODE\" = on && test \"$CALC_PATH\" = a:b && test \"$CALC_LIST\" = x && exec \"$0\" mul 1 1" $<TARGET_FILE:calc>)
set_tests_properties(environment PROPERTIES WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
    ENVIRONMENT "CALC_MODE=off;CALC_PATH=a"
    ENVIRONMENT_MODIFICATION "CALC_MODE=set:on;CALC_PATH=path_list_append:b;CALC_LIST=cmake_list_append:x")
add_test(NAME disabled COMMAND calc add 1 1)
set_tests_properties(disabled PROPERTIES DISABLED TRUE)
EOF
if ! cmake -S . -B build -DCMAKE_C_COMPILER="$culprit_cc" -DCMAKE_C_FLAGS=--mutants >cmake.log 2>&1 || ! cmake --build build >build.log 2>&1; then
    fail "cmake project did not build: $(tail -5 cmake.log build.log)"
    finish
    exit 1
fi
cd build || exit 1

# ctest's own verdicts, from its report lines "Test #N: NAME ....   Passed".
ctest >ctest.out 2>&1
sed -n 's/^.*Test *#[0-9]*: \([^ ]*\) [. ]*\**\([A-Za-z]*\).*/\1 \2/p' ctest.out |
    sed 's/ Passed$/=pass/; s/ Failed$/=fail/; s/ Skipped$/=skip/; s/ Not$/=notrun/' | sort >ctest.verdicts
expect_line_count ctest.verdicts 12

export CULPRIT_STORE="$WORK/store"
run 1 "$CULPRIT" ctest
cp "$WORK/out" culprit.out
expect_contains culprit.out "not run: disabled (DISABLED)"
expect_contains culprit.out "fail: mul_wrong_output (PASS_REGULAR_EXPRESSION '^9' not found in the output)"
expect_contains culprit.out "fail: mul_nine (FAIL_REGULAR_EXPRESSION '9' found in the output)"
expect_contains culprit.out "culprit ctest: 11 tests: 5 passed, 4 failed, 0 errors, 0 timeouts, 2 skipped"
sqlite3 "$CULPRIT_STORE/culprit.db" "SELECT name || '=' || verdict FROM tests" >recorded
echo disabled=notrun >>recorded
sort recorded >culprit.verdicts
expect_same ctest.verdicts culprit.verdicts
message() { sqlite3 "$CULPRIT_STORE/culprit.db" "SELECT j.message FROM judgements j JOIN tests t ON t.id = j.test_id WHERE t.name = '$1'"; }
[ "$(message usage)" = "failed as expected (WILL_FAIL): exit status 99, expected 0" ] && pass ||
    fail "usage: '$(message usage)'"
[ "$(message skipped)" = "skipped (SKIP_RETURN_CODE 77)" ] && pass || fail "skipped: '$(message skipped)'"
# The instrumented tests brought coverage, and the ranking runs on it.
run 0 "$CULPRIT" rank --top 3
expect_contains "$WORK/out" "calc.c"

# Each test is saved with how to run it again, CTest's rules included: the
# exported manifest, run by culprit run (no ctest involved), gives every
# test the verdict ctest gave it (ENVIRONMENT, WORKING_DIRECTORY and the
# patterns come along).
run 0 "$CULPRIT" export manifest -o saved.json
python3 -c '
import json, sys
entries = {e["name"]: e for e in json.load(open("saved.json"))}
assert len(entries) == 11, sorted(entries)
assert entries["mul_output"]["ctest"] == {"pass_regex": ["^6\n$"]}, entries["mul_output"]
assert entries["usage_message"]["ctest"] == {"pass_regex": ["usage: calc"], "will_fail": True}
assert entries["skipped"]["ctest"] == {"skip_return_code": 77}
assert entries["add_zero"]["ctest"] == {}
env = entries["environment"]
assert env["env"]["CALC_MODE"] == "on" and env["env"]["CALC_LIST"] == "x", env["env"]
assert env["cwd"] != entries["add_zero"]["cwd"], env["cwd"]
' && pass || fail "the saved commands are not what ctest ran: $(head -c 600 saved.json)"
run 1 "$CULPRIT" --store "$WORK/replay" run --tests saved.json
sqlite3 "$WORK/replay/culprit.db" "SELECT name || '=' || verdict FROM tests" >replayed
echo disabled=notrun >>replayed
sort replayed >replayed.verdicts
expect_same ctest.verdicts replayed.verdicts
# culprit mutate, with no manifest, runs the mutants on those commands
# (calc is built with --mutants; its verdicts above are the original's).
run 0 "$CULPRIT" mutate -j 2 --per-line 1
runs=$(sed -n 's/.*; \([0-9]*\) runs (.*/\1/p' "$WORK/out")
if [ "${runs:-0}" -gt 5 ]; then pass; else fail "mutate made ${runs:-no} runs: $(cat "$WORK/out" "$WORK/err")"; fi
run 0 "$CULPRIT" rank --technique metallaxis --top 1
# a manifest's CTest pattern that does not compile, or repeats a
# repetition, is an error at its string, before any test runs
printf '[{"name": "a", "argv": ["true"],\n  "ctest": {"fail_regex": ["ok", "x++"]}}]\n' >bad-ctest.json
run 2 "$CULPRIT" --store "$WORK/bad" run --tests bad-ctest.json
expect_contains "$WORK/err" "bad-ctest.json:2:34: FAIL_REGULAR_EXPRESSION 'x++' is not a valid regular expression: nested *?+"
run 1 "$CULPRIT" --store "$WORK/unsaved" ctest --no-save-command
run 2 "$CULPRIT" --store "$WORK/unsaved" export manifest
expect_contains "$WORK/err" "no test of the program has a saved command: 'culprit test' and 'culprit ctest' save"

# Selection goes to ctest; every test runs again, as with ctest.
run 0 "$CULPRIT" ctest -j 2 -- -R '^mul_(output|nine)$' -E nine
expect_contains "$WORK/out" "culprit ctest: 1 tests: 1 passed"
run 0 "$CULPRIT" ctest -- --test-dir "$WORK/build" -R add_zero
cd "$WORK" || exit 1
run 0 "$CULPRIT" ctest -- --test-dir "$WORK/build" -R add_zero
expect_contains "$WORK/out" "culprit ctest: 1 tests: 1 passed"

# Wrong input: each says what and exits 2.
run 2 "$CULPRIT" ctest
expect_contains "$WORK/err" "ctest lists no tests here (run culprit ctest in a CMake build directory"
run 2 "$CULPRIT" ctest stray
expect_contains "$WORK/err" "unexpected argument 'stray' (ctest's own arguments go after --)"
run 2 "$CULPRIT" ctest -j 0
expect_contains "$WORK/err" "--jobs expects a number from 1 to 1024, not '0'"
CTEST_PARALLEL_LEVEL=many "$CULPRIT" ctest >"$WORK/out" 2>"$WORK/err"
[ $? -eq 2 ] && pass || fail "a bad CTEST_PARALLEL_LEVEL was accepted"
expect_contains "$WORK/err" "CTEST_PARALLEL_LEVEL"
run 2 "$CULPRIT" ctest --ctest "$WORK/no-such-ctest"
expect_contains "$WORK/err" "cannot run '$WORK/no-such-ctest': No such file or directory"

# A stand-in ctest prints what a broken or unusual ctest could.
cat >fake-ctest <<'EOF'
#!/bin/sh
cat "$FAKE_LIST"
EOF
chmod +x fake-ctest
listing() { # listing TESTS-JSON: a ctest list of version 1 with these tests
    printf '{"kind": "ctestInfo", "version": {"major": 1, "minor": 0}, "tests": [%s]}\n' "$1" >list.json
}
expect_input_error() { # expect_input_error MESSAGE
    FAKE_LIST=list.json "$CULPRIT" ctest --ctest ./fake-ctest >"$WORK/out" 2>"$WORK/err"
    status=$?
    [ $status -eq 2 ] && pass || fail "exit status $status for '$1'"
    expect_contains "$WORK/err" "$1"
}
test_json() { printf '{"name": "%s", "command": ["/bin/true"], "properties": [%s]}' "$1" "$2"; }
printf 'not json' >list.json
expect_input_error "ctest --show-only=json-v1: line 1: "
printf '{"kind": "ctestInfo", "version": {"major": 2}, "tests": []}' >list.json
expect_input_error "ctest --show-only=json-v1 printed no test list of version 1 (major version 2)"
listing "$(test_json t1 '{"name": "PASS_REGULAR_EXPRESSION", "value": ["(unclosed"]}')"
expect_input_error "test 't1': PASS_REGULAR_EXPRESSION '(unclosed' is not a valid regular expression: "
listing "$(test_json t1 '{"name": "WILL_FAIL", "value": "yes"}')"
expect_input_error "test 't1': property WILL_FAIL is not a boolean"
listing "$(test_json t1 '{"name": "ENVIRONMENT", "value": ["JUSTNAME"]}')"
expect_input_error "test 't1': ENVIRONMENT entry JUSTNAME is not NAME=VALUE"
listing "$(test_json t1 '{"name": "ENVIRONMENT_MODIFICATION", "value": ["X=frobnicate:1"]}')"
expect_input_error "test 't1': ENVIRONMENT_MODIFICATION 'X=frobnicate:1': unknown operation 'frobnicate'"
listing "$(test_json t1 '{"name": "ENVIRONMENT_MODIFICATION", "value": ["HOME=unset:"]}')"
expect_input_error "test 't1': ENVIRONMENT_MODIFICATION unsets HOME, which culprit cannot remove"
listing "$(test_json t1 '{"name": "TIMEOUT", "value": "soon"}')"
expect_input_error "test 't1': property TIMEOUT is not a number"
listing "$(test_json t1 ''), $(test_json t1 '')"
expect_input_error "ctest lists two tests named 't1'"
# What ctest runs without culprit's help is fine: unset of a variable we
# do not have, a test ctest has no executable for (a failure, as in ctest),
# a missing REQUIRED_FILES.
listing "$(test_json t1 '{"name": "ENVIRONMENT_MODIFICATION", "value": ["CULPRIT_NO_SUCH_VARIABLE=unset:"]}'), {\"name\": \"t2\", \"properties\": []}, $(test_json t3 '{"name": "REQUIRED_FILES", "value": ["/no/such/file"]}')"
FAKE_LIST=list.json "$CULPRIT" ctest --ctest ./fake-ctest >"$WORK/out" 2>"$WORK/err"
[ $? -eq 1 ] && pass || fail "tests ctest cannot run did not fail the run: $(cat "$WORK/out" "$WORK/err")"
expect_contains "$WORK/out" "not run: t2 (ctest finds no executable for it)"
expect_contains "$WORK/out" "not run: t3 (required file /no/such/file is missing)"
expect_contains "$WORK/out" "culprit ctest: 1 tests: 1 passed"

finish
