#!/bin/sh
# test_input_defects.sh - smaller input defects of issue 19 (item 8):
# - a store the user can only read: every command failed, even `culprit
#   tests` ("attempt to write a readonly database", exit 3); reading
#   commands now work and writing ones say so (exit 2);
# - a store whose schema text is damaged opened, and every query then
#   failed as an internal error (exit 3): it is a corrupt store (exit 2);
# - `culprit test -- ./missing` was recorded as "signal 9" (when the
#   sandbox runs as a user) and the same command in a manifest as "exit
#   status 127, expected 0": both are "command not found", exit status 127;
# - a JSON manifest behind a UTF-8 byte-order mark was read as a plain one
#   and its JSON text run as a shell command;
# - a GZoltar tests file with no names was taken for none, and the matrix
#   rows got invented names.
# As root, the user is nobody (setpriv), since root reads and writes any file.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "$E2E_NAME: note: no python3; skipping"; finish; exit 0; }

# as_user command...: runs the command as an unprivileged user.
if [ "$(id -u)" -eq 0 ]; then
    if command -v setpriv >/dev/null; then
        as_user() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
    else
        as_user=
    fi
else
    as_user() { "$@"; }
fi
chmod 755 "$WORK"

printf 'test,verdict,a.c:1,a.c:2\nt1,pass,1,0\nt2,fail,1,1\n' >spectra.csv
run 0 "$CULPRIT" --store ro import csv spectra.csv

if command -v as_user >/dev/null; then
    # A store the user can read and not write.
    chmod -R a+rX,a-w ro
    for command in "tests" "tests --format json" "rank" "failures" "export csv -o /dev/null"; do
        # shellcheck disable=SC2086
        run 0 as_user "$CULPRIT" --store ro $command
    done
    run 2 as_user "$CULPRIT" --store ro import csv spectra.csv
    expect_contains "$WORK/err" "check the store's permissions"
    if [ -e ro/culprit.db-shm ]; then fail "reading created ro/culprit.db-shm"; else pass; fi
    chmod -R u+w ro

    # A command that does not exist, run by culprit and by a manifest's shell.
    mkdir shared && chmod 777 shared
    cd shared || exit 1
    as_user "$CULPRIT" --store st test --name t -- ./missing >/dev/null 2>&1
    expect_test_field st verdict error
    expect_test_field st exit_status 127
    expect_test_field st signal ""
    expect_test_field st message "command not found"
    printf 't: ./missing --option\n' >tests.txt
    as_user "$CULPRIT" --store st-run run --tests tests.txt >/dev/null 2>&1
    expect_test_field st-run verdict error
    expect_test_field st-run exit_status 127
    expect_test_field st-run message "command not found"
    cd "$WORK" || exit 1
else
    echo "$E2E_NAME: note: root without setpriv; the read-only store and missing command are not checked"
fi

# A damaged column name in the schema: a corrupt store, exit 2 for every command.
cp -r ro damaged
python3 - damaged/culprit.db <<'END'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
# The tests table's (mutant_runs has one too).  The schema outgrew page 1
# (version 6): its text may be on another page, with stale copies left on
# page 1, so every copy is damaged.
at = data.find(b"duration REAL,    hits")
assert at > 0, "no tests.duration in the schema"
while at >= 0:
    data[at + 3] = ord("x")  # "durxtion" ("durAtion" would still work: SQL names ignore case)
    at = data.find(b"duration REAL,    hits", at + 1)
open(sys.argv[1], "wb").write(data)
END
for command in "tests" "rank" "failures" "export json -o /dev/null"; do
    # shellcheck disable=SC2086
    run 2 "$CULPRIT" --store damaged $command
    expect_contains "$WORK/err" "store is corrupt: table 'tests' has the columns"
done

# A JSON manifest that starts with a byte-order mark.
printf '\357\273\277[{"name": "bom", "argv": ["sh", "-c", "echo ran"], "expect_stdout": "ran\\n"}]\n' >bom.json
"$CULPRIT" --store st-bom run --tests bom.json >/dev/null 2>&1
expect_test_field st-bom name bom
expect_test_field st-bom verdict pass

# A GZoltar tests file with GZoltar's header and no names.
printf 'name\na.c:1\n' >gz-spectra.csv
printf '1 +\n0 -\n' >gz-matrix.txt
printf 'name,outcome,runtime,stacktrace\n' >gz-tests.csv
run 2 "$CULPRIT" --store st-gz import gzoltar --spectra gz-spectra.csv --matrix gz-matrix.txt --tests gz-tests.csv
expect_contains "$WORK/err" "gz-tests.csv:2:1: expected a test name per matrix row, found none"
finish
