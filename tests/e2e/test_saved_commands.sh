#!/bin/sh
# test_saved_commands.sh - the commands `culprit test` saves (docs/harness.md,
# "Running recorded tests again"): a suite of shell scripts that need what
# their harness put in the environment (as automake's AM_TESTS_ENVIRONMENT
# does) is recorded with `culprit test` from another directory, then run
# again without that harness: `culprit export manifest` gives a manifest
# `culprit run` reproduces the verdicts from, and `culprit mutate` without
# --tests runs the mutants on the saved commands (with --top-lines, only on
# the lines the spectra rank first) and Metallaxis ranks the fault first.
# Secrets (by name, or a URL's password), culprit's own variables and
# make's job-server flags are not saved; --no-save-command saves nothing,
# and a store without saved commands says so; a test whose directory is
# gone is left out, said; one whose name is not UTF-8 is saved without.
. "$(dirname "$0")/lib.sh"
need_culprit_cc

cp "$TOP/tests/e2e/grade.c" .
run 0 "$culprit_cc" --mutants -O0 -g -o grade grade.c
fault_line=$(grep -n 'the fault' grade.c | cut -d: -f1)
mkdir suite
# one script a score; it finds the program and its expected grade only
# through the environment its harness sets
for s in 100 95 90 85 80 75 70 65 60 30; do
    expected=$(python3 -c 'import sys; s = int(sys.argv[1]); print("A" if s >= 90 else "B" if s >= 80 else "C" if s >= 70 else "D" if s >= 60 else "F")' "$s")
    cat >"suite/g$s.sh" <<EOF
#!/bin/sh
test -n "\$GRADE_PROGRAM" || exit 99
out=\$("\$GRADE_PROGRAM" $s) || exit 1
test "\$out" = "$s $expected"
EOF
    chmod +x "suite/g$s.sh"
done
# the harness: its own directory, its environment, a secret and make's flags beside
(
    cd suite || exit 1
    for script in g*.sh; do
        GRADE_PROGRAM="$WORK/grade" API_TOKEN=hunter2 MAKEFLAGS=" -j2 --jobserver-auth=3,4" SMTP_PASS=x \
            MYSQL_PWD=x DATABASE_URL=postgres://u:pw@db/x GIT_AUTHOR_NAME=ann \
            "$CULPRIT" test --name "${script%.sh}" -- ./"$script" >/dev/null 2>&1
    done
)
"$CULPRIT" tests --format csv >tests.csv 2>&1
if grep -q "^g80,fail" tests.csv && [ "$(grep -c ',fail' tests.csv)" = 1 ]; then pass; else
    fail "the recorded suite: $(cat tests.csv)"
fi

# ---- what was saved ----
run 0 "$CULPRIT" export manifest -o saved.json
python3 - saved.json "$WORK" <<'EOF' >check.out 2>&1
import json, sys
tests = json.load(open(sys.argv[1]))
work = sys.argv[2]
assert [t["name"] for t in tests] == ["g100", "g30", "g60", "g65", "g70", "g75", "g80", "g85", "g90", "g95"], tests
for t in tests:
    assert t["argv"] == ["./" + t["name"] + ".sh"], t["argv"]
    assert t["cwd"] == work + "/suite", t["cwd"]
    env = t["env"]
    assert env["GRADE_PROGRAM"] == work + "/grade", env
    assert env["GIT_AUTHOR_NAME"] == "ann", env
    for hidden in ("API_TOKEN", "MAKEFLAGS", "CULPRIT_STORE", "SMTP_PASS", "MYSQL_PWD", "DATABASE_URL"):
        assert hidden not in env, hidden
print("ok")
EOF
if [ "$(cat check.out)" = ok ]; then pass; else fail "saved.json: $(cat check.out)"; fi
run 0 "$CULPRIT" export manifest
expect_same "$WORK/out" saved.json

# ---- run again without the harness, from elsewhere ----
mkdir elsewhere
(cd elsewhere && "$CULPRIT" --store "$WORK/again" run --tests ../saved.json >../again.out 2>&1)
expect_contains again.out "10 tests: 9 passed, 1 failed"

# ---- merged stores keep them ----
run 0 "$CULPRIT" --store "$WORK/merged" merge "$WORK/.culprit"
run 0 "$CULPRIT" --store "$WORK/merged" export manifest
expect_same "$WORK/out" saved.json

# ---- a test whose directory is gone is left out, said; one whose name is
# not UTF-8 is recorded without a command, said ----
mkdir gone
(cd gone && GRADE_PROGRAM="$WORK/grade" "$CULPRIT" test --name gone -- "$WORK/suite/g100.sh" >/dev/null 2>&1)
rmdir gone
(cd suite && GRADE_PROGRAM="$WORK/grade" "$CULPRIT" test --name "$(printf 'caf\351')" -- ./g95.sh >/dev/null 2>"$WORK/latin.err")
expect_contains "$WORK/latin.err" "how to run it again is not saved"

# ---- mutate on the saved commands ----
# --top-lines 1: only the lines that share the spectra's first place
run 0 "$CULPRIT" rank --kind line --ties best --format csv
first=$(awk -F, 'NR > 1 && $1 == 1' "$WORK/out" | wc -l)
run 0 "$CULPRIT" rank --format csv --ties best
tied=$(awk -F, 'NR > 1 && $1 == 1' "$WORK/out" | wc -l)
run 2 "$CULPRIT" mutate --top-lines 1 --exclude '*grade.c' # the ranks --top-lines counts are rank's, filtered
expect_contains "$WORK/err" "keep none of the program's"
run 0 "$CULPRIT" mutate -j 2 --per-line 0 --top-lines 1
expect_contains "$WORK/out" "on $tied lines a failing test ran"
expect_contains "$WORK/err" "warning: test 'gone' cannot run again as culprit test saved it"
if [ "$tied" -ge 1 ] && [ "$tied" -lt 10 ]; then pass; else fail "$tied lines tie first (plain lines: $first)"; fi
run 0 "$CULPRIT" mutate -j 2 --per-line 0
expect_contains "$WORK/out" "lines a failing test ran"
runs=$(sed -n 's/.*; \([0-9]*\) runs (.*/\1/p' "$WORK/out")
if [ "${runs:-0}" -gt 10 ]; then pass; else fail "mutate made ${runs:-no} runs: $(cat "$WORK/out")"; fi
run 0 "$CULPRIT" rank --technique metallaxis --format csv
case $(awk -F, 'NR == 2' "$WORK/out") in
1,*grade.c:$fault_line,*) pass ;;
*) fail "metallaxis ranks first: $(awk -F, 'NR == 2' "$WORK/out")" ;;
esac

# ---- a test recorded again: its command replaced; --no-save-command: none ----
(cd suite && GRADE_PROGRAM="$WORK/grade" MARK=again "$CULPRIT" test --name g100 -- ./g100.sh >/dev/null 2>&1)
run 0 "$CULPRIT" export manifest
expect_contains "$WORK/out" '"MARK":"again"'
export CULPRIT_STORE="$WORK/unsaved"
(cd suite && GRADE_PROGRAM="$WORK/grade" "$CULPRIT" test --no-save-command --name g100 -- ./g100.sh >/dev/null 2>&1)
run 2 "$CULPRIT" export manifest
expect_contains "$WORK/err" "no test of the program has a saved command"
run 2 "$CULPRIT" mutate
expect_contains "$WORK/err" "no --tests FILE, and no recorded test has a saved command"
run 2 "$CULPRIT" export nonsense
expect_contains "$WORK/err" "expected gzoltar, csv, json or manifest"

finish
