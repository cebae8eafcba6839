# test_gen_switch.sh - culprit gen aims at each case of a switch
# (docs/symbolic.md §4, "Switches"): tests/e2e/gen/dispatch.c dispatches a
# one-letter command; the seed 'a' fails on the first fault, the second
# sits in case 'd', which the seed does not take.  From the seed, the
# coverage strategy runs the default and every other case, 'd' among the
# first few tests, and finds the second failure; negated as "any other
# value" (a trailer without the case values, as before version 2) the one
# candidate went to the default and 'd' was never run.
. "$(dirname "$0")/lib.sh"
need_culprit_cc nm

PROGRAM="$TOP/tests/e2e/gen/dispatch.c"
RUNTIME="$(dirname "$culprit_cc")/libculprit-rt.a"
if ! nm "$RUNTIME" 2>/dev/null | grep -q ' T __culprit_sym_switch_cases'; then
    echo "$E2E_NAME: note: the runtime has no __culprit_sym_switch_cases; skipping"
    finish
    exit 0
fi
cc -DFIXED -O0 -o reference "$PROGRAM" || fail "cannot build the reference"
"$culprit_cc" --coverage=symbolic -O0 -o dispatch "$PROGRAM" || fail "cannot build dispatch.c in symbolic mode"
printf 'a\n' >seed.txt

run 0 "$CULPRIT" gen --store s.store --strategy coverage --budget 5 --input seed.txt --reference ./reference \
    -- ./dispatch
expect_contains "$WORK/err" "no candidate left" # the default and three other cases: four candidates
expect_contains "$WORK/err" "branch coverage 100%"
run 0 "$CULPRIT" --store s.store tests
cp "$WORK/out" tests.txt

# the test whose input starts with LETTER ("" when none did)
test_of() {
    for input in s.store/gen/coverage/*/stdin; do
        if [ "$(head -c 1 "$input")" = "$1" ]; then
            basename "$(dirname "$input")"
            return
        fi
    done
}

for letter in d n z; do
    number=$(test_of $letter)
    [ -n "$number" ] && pass || fail "no generated input takes case '$letter'; tests: $(cat tests.txt)"
done
number=$(test_of d)
# 'd' is among the first three generated tests (after the default) and fails: the second fault.
[ -n "$number" ] && [ "$number" -le 3 ] && pass || fail "case 'd' was test ${number:-none}, expected 1..3"
grep -Eq "^fail .* gen/coverage/${number:-none}\$" tests.txt && pass ||
    fail "gen/coverage/${number:-none} (case 'd', the second fault) is not a failing test: $(cat tests.txt)"
generated=$(ls -d s.store/gen/coverage/*/ | wc -l)
[ "$generated" -eq 5 ] && pass || fail "$generated tests (the seed and 4 generated), expected 5"
finish
