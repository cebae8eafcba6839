#!/bin/sh
# test_mutants_cc.sh - culprit-cc --mutants (docs/mutation.md §1-§2): the
# map lists each operator's mutants at the line it mutates; with no mutant
# selected the program prints, counts and maps what the plain full build
# does; CULPRIT_MUTANT=<hash>:<id> selects one mutant, which changes the
# output as its description says (a relation at its boundary, an operator,
# a constant, a deleted store and call, a negated condition, a replaced
# return value), also in a test a fork server forks, whatever the server's
# own environment selected; a malformed selection selects nothing; and
# --mutants is refused with lines coverage.
. "$(dirname "$0")/lib.sh"
need_culprit_cc

cp "$TOP/tests/e2e/mutants.c" .
line_of() { grep -n "@$1 " mutants.c | cut -d: -f1; }
run 0 "$culprit_cc" -O2 -g -o plain mutants.c
run 0 "$culprit_cc" --mutants -O2 -g -o mutants mutants.c
run 0 "$culprit_cc" --mutants -O0 -o mutants-O0 mutants.c

# ---- the map: each operator at its line ----
mkdir collected
CULPRIT_COLLECT_DIR=collected ./mutants 4 >/dev/null
map=$(ls collected/*.map)
hash=$(awk -F'\t' '$1 == "unit" { print $2 }' "$map")
# mutant_id LINE OPERATOR DESCRIPTION: the id of that mutant in the map ("" when none)
mutant_id() {
    awk -F'\t' -v line="$1" -v op="$2" -v what="$3" \
        '$1 == "mutant" && $5 == line && $7 == op && $8 == what { print $2 }' "$map"
}
# expect_mutant LINE OPERATOR DESCRIPTION
expect_mutant() {
    if [ -n "$(mutant_id "$@")" ]; then pass; else fail "no $2 mutant '$3' on line $1 in: $(grep '^mutant' "$map")"; fi
}
expect_mutant "$(line_of less)" ror "< -> <="
expect_mutant "$(line_of less)" ror "< -> true"
expect_mutant "$(line_of less)" rvr "return -1"
expect_mutant "$(line_of area)" aor "* -> +"
expect_mutant "$(line_of area)" crp "1 -> 0"
expect_mutant "$(line_of note)" aor "+ -> -"
expect_mutant "$(line_of positive)" ror "> -> >="
expect_mutant "$(line_of positive)" crp "0 -> 1"
expect_mutant "$(line_of positive)" neg "negate the condition"
expect_mutant "$(line_of one)" rvr "return 0"
expect_mutant "$(line_of store)" sdl "delete the assignment"
expect_mutant "$(line_of call)" sdl "delete call to note"
expect_mutant "$(line_of print)" sdl "delete call to printf"
# The store into the return slot at `return 1;` is rvr's, not sdl's.
if [ -z "$(mutant_id "$(line_of one)" sdl "delete the assignment")" ]; then pass; else fail "return 1; was deleted"; fi
# Ids number the records from 1 in order.
awk -F'\t' '$1 == "mutant" { if ($2 != ++n) bad = 1 } END { exit bad || n == 0 }' "$map" && pass ||
    fail "mutant ids are not 1..N in order: $(grep '^mutant' "$map" | cut -f2 | tr '\n' ' ')"
# CULPRIT_MUTANTS=1 in the environment asks for the same.
CULPRIT_MUTANTS=1 run 0 "$culprit_cc" -O2 -g -o mutants-env mutants.c
mkdir collected-env
CULPRIT_COLLECT_DIR=collected-env ./mutants-env 4 >/dev/null
expect_same "$map" "$(ls collected-env/*.map)"

# ---- no mutant selected: the plain full build's map, output and counts ----
mkdir collected-plain
CULPRIT_COLLECT_DIR=collected-plain ./plain 4 >/dev/null
grep -v '^unit' "$(ls collected-plain/*.map)" >plain.body
grep -v '^unit' "$map" | grep -v '^mutant' >mutants.body
expect_same plain.body mutants.body
for x in -3 0 4 9 10 11 42; do
    ./plain "$x" >plain.out
    ./mutants "$x" >mutants.out
    expect_same plain.out mutants.out
done
# the counts of a run, element by element
run 0 "$CULPRIT" --store plain-store test --name t -- ./plain 10
run 0 "$CULPRIT" --store mutants-store test --name t -- ./mutants 10
cat >counts.py <<'END'
import json, sys
d = json.load(open(sys.argv[1]))
counts = dict(d["tests"][0]["counts"])
for i, e in enumerate(d["elements"]):
    print(e["kind"], e.get("name"), e.get("line"), counts.get(i, 0))
END
run 0 "$CULPRIT" --store plain-store export json -o plain.json
run 0 "$CULPRIT" --store mutants-store export json -o mutants.json
python3 counts.py plain.json >plain.counts
python3 counts.py mutants.json >mutants.counts
expect_same plain.counts mutants.counts
[ "$(wc -l <plain.counts)" -gt 20 ] && pass || fail "too few elements counted: $(cat plain.counts)"

# ---- one mutant selected: the output changes as its description says ----
# expect_output ID ARGUMENT EXPECTED [PROGRAM]
expect_output() {
    CULPRIT_MUTANT="$hash:$1" "./${4:-mutants}" "$2" >selected.out
    expect_file_equals selected.out "$3"
}
expect_file_equals plain.out "below 0 area 127 sign 1 kept 42 total 42"
./plain 10 >ten.out
expect_file_equals ten.out "below 0 area 31 sign 1 kept 10 total 10"
less_or_equal=$(mutant_id "$(line_of less)" ror "< -> <=")
expect_output "$less_or_equal" 10 "below 1 area 31 sign 1 kept 10 total 10"
expect_output "$less_or_equal" 9 "below 1 area 28 sign 1 kept 9 total 9"
expect_output "$(mutant_id "$(line_of area)" aor "* -> +")" 4 "below 1 area 8 sign 1 kept 4 total 4"
expect_output "$(mutant_id "$(line_of area)" crp "1 -> 0")" 4 "below 1 area 12 sign 1 kept 4 total 4"
expect_output "$(mutant_id "$(line_of note)" aor "+ -> -")" 4 "below 1 area 13 sign 1 kept 4 total -4"
expect_output "$(mutant_id "$(line_of store)" sdl "delete the assignment")" 4 "below 1 area 13 sign 1 kept 5 total 4"
expect_output "$(mutant_id "$(line_of call)" sdl "delete call to note")" 4 "below 1 area 13 sign 1 kept 4 total 0"
expect_output "$(mutant_id "$(line_of print)" sdl "delete call to printf")" 4 ""
expect_output "$(mutant_id "$(line_of positive)" neg "negate the condition")" 4 "below 1 area 13 sign 0 kept 4 total 4"
expect_output "$(mutant_id "$(line_of positive)" neg "negate the condition")" -4 "below 1 area -11 sign 1 kept -4 total -4"
expect_output "$(mutant_id "$(line_of one)" rvr "return 0")" 4 "below 1 area 13 sign 0 kept 4 total 4"
expect_output "$(mutant_id "$(line_of less)" rvr "return -1")" 4 "below -1 area 13 sign 1 kept 4 total 4"
# the same at -O0, where nothing is optimised away
expect_output "$less_or_equal" 10 "below 1 area 31 sign 1 kept 10 total 10" mutants-O0
expect_output "$(mutant_id "$(line_of store)" sdl "delete the assignment")" 4 "below 1 area 13 sign 1 kept 5 total 4" mutants-O0
# main's `return 0;` becomes 1: the exit status says so
CULPRIT_MUTANT="$hash:$(mutant_id "$(line_of exit)" rvr "return 1")" ./mutants 4 >/dev/null
[ $? -eq 1 ] && pass || fail "main's return 1 mutant did not exit 1"

# ---- a malformed selection selects nothing ----
count=$(grep -c '^mutant' "$map")
for bad in "$hash:0" "$hash:$((count + 1))" "$hash:x" "$hash:" "$hash" "${hash}0:$less_or_equal" \
    "0000000000000000000000000000000000000000000000000000000000000000:$less_or_equal" "$less_or_equal" ""; do
    CULPRIT_MUTANT="$bad" ./mutants 10 >bad.out
    expect_same bad.out ten.out
done

# ---- a fork server's tests: each test's own CULPRIT_MUTANT, none meaning none ----
run 0 "$culprit_cc" --mutants -O2 -DCONSTRUCTOR_LOG="\"$WORK/constructors.log\"" -o served mutants.c
mkdir collected-served
CULPRIT_COLLECT_DIR=collected-served ./served 1 >/dev/null
map=$(ls collected-served/*.map) # the constructor's mutants come first: other ids
served_hash=$(awk -F'\t' '$1 == "unit" { print $2 }' "$map")
served_less=$(mutant_id "$(line_of less)" ror "< -> <=")
delete_note=$(mutant_id "$(line_of call)" sdl "delete call to note")
cat >manifest.json <<END
[
  {"name": "boundary", "argv": ["./served", "10"], "env": {"CULPRIT_MUTANT": "$served_hash:$served_less"},
   "expect_stdout": "below 1 area 31 sign 1 kept 10 total 10\n"},
  {"name": "original", "argv": ["./served", "10"], "env": {"CULPRIT_MUTANT": ""},
   "expect_stdout": "below 0 area 31 sign 1 kept 10 total 10\n"},
  {"name": "no-note", "argv": ["./served", "10"], "env": {"CULPRIT_MUTANT": "$served_hash:$delete_note"},
   "expect_stdout": "below 0 area 31 sign 1 kept 10 total 0\n"},
  {"name": "inherited", "argv": ["./served", "10"],
   "expect_stdout": "below 0 area 31 sign 1 kept 10 total 0\n"}
]
END
rm -f constructors.log
# The server starts with the first test's environment (boundary's mutant
# selected); the next test has an empty CULPRIT_MUTANT, which selects none,
# and the last inherits culprit's own, which selects the no-note mutant.
CULPRIT_MUTANT="$served_hash:$delete_note" run 0 "$CULPRIT" run --tests manifest.json -j 1 --fork-server \
    --store served-store
"$CULPRIT" tests --store served-store --format csv | cut -d, -f1,2 | sort >served.list
expect_file_equals served.list "boundary,pass
inherited,pass
name,verdict
no-note,pass
original,pass"
expect_file_equals constructors.log "constructed" # one process served all four

# ---- lines coverage has no mutants ----
run 1 "$culprit_cc" --mutants --coverage=lines -c -o lines.o mutants.c
expect_contains "$WORK/err" "culprit-cc: --mutants does not work with --coverage=lines: mutants need full coverage"
CULPRIT_MUTANTS=1 CULPRIT_COVERAGE=lines run 1 "$culprit_cc" -c -o lines.o mutants.c
expect_contains "$WORK/err" "culprit-cc: CULPRIT_MUTANTS=1 does not work with CULPRIT_COVERAGE=lines"
run 0 "$culprit_cc" --mutants --coverage=symbolic -O1 -o symbolic mutants.c
expect_output "$less_or_equal" 10 "below 1 area 31 sign 1 kept 10 total 10" symbolic

finish
