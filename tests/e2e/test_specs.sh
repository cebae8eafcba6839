# test_specs.sh - specifications in C (issue 23 item 1; docs/specs.md):
# <culprit/contract.h> is found by culprit-cc without -I; its checks and
# assert() are spec sites in the program map; a violated check fails the
# test with the violated spec as its message and failure signature, worded
# the same whether the program was built by culprit-cc or a plain compiler;
# NDEBUG removes the checks only outside culprit-cc.
. "$(dirname "$0")/lib.sh"
need_culprit_cc gcc

cp "$TOP/tests/e2e/spec_list.c" list.c
line_of() { grep -n -F -- "$1" list.c | head -1 | cut -d: -f1; }
requires_line=$(line_of 'CULPRIT_REQUIRES(l->size < 16)')
invariant_line=$(line_of 'CULPRIT_INVARIANT(list_ok, l)')
ensures_line=$(line_of 'CULPRIT_ENSURES(l->size > 0)')
assert_line=$(line_of 'assert(l.size == argc - 1)')

# ---- the header without -I, the spec sites in the map ----
run 0 "$culprit_cc" -O1 -o list list.c
mkdir collect
CULPRIT_COLLECT_DIR="$WORK/collect" ./list 3 1 2 >sorted.out 2>/dev/null
expect_file_equals sorted.out "1
2
3"
cat collect/*.map | grep '^spec' | cut -f3,5,7 >specs.txt
expect_file_equals specs.txt "assert	$assert_line	l.size == argc - 1
requires	$requires_line	l->size < 16
invariant	$invariant_line	list_ok(l)
ensures	$ensures_line	l->size > 0"
# symbolic mode lists the same sites
run 0 "$culprit_cc" --coverage=symbolic -O1 -o list_symbolic list.c
mkdir collect_symbolic
CULPRIT_COLLECT_DIR="$WORK/collect_symbolic" ./list_symbolic 3 1 2 >/dev/null 2>&1
cat collect_symbolic/*.map | grep '^spec' | cut -f3,5,7 >specs_symbolic.txt
expect_same specs.txt specs_symbolic.txt

# ---- a violation fails the test, the spec is the signature ----
# (culprit test exits with the test's own status: 134 for an abort)
run 0 "$CULPRIT" test --name sorted -- ./list 3 1 2
run 0 "$CULPRIT" test --name no-seven -- ./list 9 8
run 134 "$CULPRIT" test --name seven-last -- ./list 8 7
run 0 "$CULPRIT" test --name seven-first -- ./list 7 8
run 0 "$CULPRIT" failures
expect_contains "$WORK/out" "invariant \`list_ok(l)' violated (SIGABRT) at list.c:$invariant_line (insert)"
run 0 "$CULPRIT" rank --top 3
expect_contains "$WORK/out" "list.c:"

# ---- the plain build says the same words ----
run 0 gcc -I"$TOP/include" -o list_gcc list.c
./list_gcc 8 7 >/dev/null 2>plain.err
[ $? -eq 134 ] && pass || fail "the plain build did not abort on the violation"
expect_contains plain.err "list.c:$invariant_line: insert: invariant \`list_ok(l)' violated"
CULPRIT_COLLECT_DIR= ./list 8 7 >/dev/null 2>culprit.err
expect_same plain.err culprit.err
run 134 "$CULPRIT" --store plain.store test --name seven-last -- ./list_gcc 8 7
run 0 "$CULPRIT" --store plain.store failures
expect_contains "$WORK/out" "invariant \`list_ok(l)' violated (SIGABRT) at list.c:$invariant_line (insert)"

# ---- NDEBUG: checks vanish from a plain build, stay under culprit-cc ----
run 0 gcc -DNDEBUG -I"$TOP/include" -o list_ndebug list.c
run 0 ./list_ndebug 8 7
run 0 "$culprit_cc" -DNDEBUG -o list_culprit_ndebug list.c
CULPRIT_COLLECT_DIR= ./list_culprit_ndebug 8 7 >/dev/null 2>&1
[ $? -eq 134 ] && pass || fail "NDEBUG removed a check under culprit-cc"

# ---- a precondition, and a hand-made call that is no site ----
cat >pre.c <<'EOF_C'
#include <culprit/contract.h>
#include <stdlib.h>
static int half(int n)
{
    CULPRIT_REQUIRES(n % 2 == 0);
    return n / 2;
}
int main(int argc, char **argv)
{
    const char *texts[] = {"computed", "text"};
    __culprit_rt_spec(2, texts[argc % 2], "pre.c", 1, "main", 1); /* not constant: no site */
    return half(atoi(argv[1])) > 100;
}
EOF_C
run 0 "$culprit_cc" -o pre pre.c
mkdir collect_pre
CULPRIT_COLLECT_DIR="$WORK/collect_pre" ./pre 4
grep -c '^spec' collect_pre/*.map >pre_specs.txt
expect_file_equals pre_specs.txt 1
run 134 "$CULPRIT" --store pre.store test --name odd -- ./pre 3
run 0 "$CULPRIT" --store pre.store tests
expect_contains "$WORK/out" "precondition \`n % 2 == 0' violated (SIGABRT)"

finish
