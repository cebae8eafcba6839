#!/bin/sh
# test_rank_why.sh - a ranked line says why it ranks where it does: its
# counts are the line's own (the tests that ran it), whatever element its
# score came from, and every format names that element - "branch `x < z`
# taken true", "`power()` returned negative" - with that element's own
# counts (docs/report.md, "Why a line ranks").
#
# Two programs: mid() (examples/mid), whose tuples give lines the score of
# a branch outcome, and modpow, where the suspicious fact is a return
# class: floored_mod(v, power()) goes wrong exactly when power() returns a
# negative divisor, so the call ranks first as the tuple <30, power() =
# negative>, seen in every failing test and no passing one, while the line
# itself ran in every test.
. "$(dirname "$0")/lib.sh"
need_culprit_cc

# csv_column FILE ROW NAME : the field NAME of data row ROW (1-based) of a CSV file.
csv_column() {
    python3 -c 'import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
row = int(sys.argv[2])
print(rows[row - 1].get(sys.argv[3], "-") if len(rows) >= row else "-")' "$1" "$2" "$3"
}

expect_csv() { # FILE ROW NAME VALUE
    value=$(csv_column "$1" "$2" "$3")
    if [ "$value" = "$4" ]; then pass; else fail "$1 row $2: $3 is '$value', expected '$4'"; fi
}

# ---- mid(): the tuples ranking reports every line's own counts ----
cp "$TOP/examples/mid/mid.c" mid.c
if "$culprit_cc" -g -o mid mid.c 2>cc.err; then pass; else fail "culprit-cc mid.c: $(head -c 300 cc.err)"; fi
for input in "3 3 5" "1 2 3" "3 2 1" "5 5 5" "5 3 4" "2 1 3"; do
    name=mid_$(echo "$input" | tr ' ' _)
    # shellcheck disable=SC2086
    run 0 "$CULPRIT" test --name "$name" --expect "$TOP/examples/mid/expected/$name.out" -- ./mid $input
done
run 0 "$CULPRIT" rank --format csv
cp out mid-tuples.csv
run 0 "$CULPRIT" rank --kind line --format csv
cp out mid-lines.csv
# Each line's ef, ep, nf, np under tuples are those of --kind line: the line's.
python3 - mid-tuples.csv mid-lines.csv >counts.diff <<'PY'
import csv, sys
def counts(path):
    return {r["element"]: (r["ef"], r["ep"], r["nf"], r["np"]) for r in csv.DictReader(open(path))}
tuples, lines = counts(sys.argv[1]), counts(sys.argv[2])
for element, own in sorted(lines.items()):
    if tuples.get(element) != own:
        print(f"{element}: tuples report {tuples.get(element)}, the line ran in {own}")
PY
if [ -s counts.diff ]; then fail "lines report another element's counts: $(head -5 counts.diff)"; else pass; fi
if [ "$(wc -l <mid-tuples.csv)" -eq "$(wc -l <mid-lines.csv)" ]; then pass; else fail "tuples and lines rank different lines"; fi
# Line 11 scores as its branch's true outcome and says so, with that outcome's counts.
run 0 "$CULPRIT" rank
grep 'mid\.c:11 ' out >row11
expect_contains row11 'ef=1 ep=2  scores as branch `x < z` taken true (ef=1 ep=1)'
grep 'mid\.c:16 ' out >row16
# line 16's best outcome (ef=0 ep=1) scores as the line itself: the line decides
if grep -q 'scores as' row16; then fail "row16 names an outcome: $(cat row16)"; else pass; fi
expect_contains row16 'ef=0 ep=1'
# line 12 scores 1/sqrt(2) by itself, line 11 only through its outcome: 12 first
expect_csv mid-tuples.csv 1 why 'line mid.c:12'
expect_csv mid-tuples.csv 2 why 'branch `x < z` taken true'
# Without the source the branch is named by its place.
mv mid.c mid.c.away
run 0 "$CULPRIT" rank
grep 'mid\.c:11 ' out >row11
expect_contains row11 'scores as branch at mid.c:11:20 taken true (ef=1 ep=1)'
mv mid.c.away mid.c
# BlockRank: a line scores as its block.
run 0 "$CULPRIT" rank --technique blockrank --format csv
case $(csv_column out 1 why) in "block b"*" of mid() at mid.c:"*) pass ;; *) fail "blockrank's first why: $(csv_column out 1 why)" ;; esac
# A formula over lines keeps its old columns.
if head -n 1 mid-lines.csv | grep -qx 'rank,score,element,confidence,ef,ep,nf,np,method'; then pass; else
    fail "--kind line's csv header changed: $(head -n 1 mid-lines.csv)"
fi

# ---- modpow: rank 1 is the call, and what made it suspicious is power()'s negative return ----
mkdir modpow && cd modpow || exit 1
export CULPRIT_STORE="$WORK/modpow/.culprit"
cat >modpow.c <<'CODE'
/* V mod BASE^EXPONENT, floored (the result has the divisor's sign). */
#include <stdio.h>
#include <stdlib.h>

static int base, exponent;

static int power(void)
{
    int result = 1;
    for (int i = 0; i < exponent; i++)
        result *= base;
    return result;
}

static int floored_mod(int a, int b)
{
    int r = a % b;
    if (r < 0) /* the fault: should be (r != 0 && (r < 0) != (b < 0)) */
        r += b;
    return r;
}

int main(int argc, char **argv)
{
    if (argc != 4)
        return 2;
    int v = atoi(argv[1]);
    base = atoi(argv[2]);
    exponent = atoi(argv[3]);
    printf("%d\n", floored_mod(v, power()));
    return 0;
}
CODE
if "$culprit_cc" -g -o modpow modpow.c 2>cc.err; then pass; else fail "culprit-cc modpow.c: $(head -c 300 cc.err)"; fi
# V BASE EXPONENT and the right answer: the last three have a negative divisor.
while read -r v b e want; do
    echo "$want" >"want_${v}_${b}_$e"
    run 0 "$CULPRIT" test --name "mod_${v}_${b}_$e" --expect "want_${v}_${b}_$e" -- ./modpow "$v" "$b" "$e"
done <<'TESTS'
7 2 1 1
10 3 2 1
-7 2 2 1
5 -2 2 1
8 5 1 3
-1 3 1 2
9 -3 2 0
7 -3 1 -2
-7 -3 1 -1
10 -2 3 -6
TESTS
run 0 "$CULPRIT" rank --top 1
case $(sed -n 2p "$WORK/out") in
*'1       inf  '*'modpow.c:30 '*'ef=3 ep=7  scores as `power()` returned negative (ef=3 ep=0)') pass ;;
*) fail "rank 1 does not name power()'s negative return with its counts: '$(sed -n 2p "$WORK/out")'" ;;
esac
run 0 "$CULPRIT" rank --format csv
cp "$WORK/out" modpow.csv
expect_csv modpow.csv 1 element "$WORK/modpow/modpow.c:30"
expect_csv modpow.csv 1 ep 7
expect_csv modpow.csv 1 why '`power()` returned negative'
expect_csv modpow.csv 1 decided_by_ef 3
expect_csv modpow.csv 1 decided_by_ep 0
case $(csv_column modpow.csv 1 decided_by) in *"modpow.c:30:"*":power()=negative") pass ;; *) fail "decided_by: $(csv_column modpow.csv 1 decided_by)" ;; esac
run 0 "$CULPRIT" rank --format json --top 1
python3 - "$WORK/out" >json.check <<'PY'
import json, sys
entry = json.load(open(sys.argv[1]))["entries"][0]
decided = entry.get("decided_by", {})
want = {"kind": "return", "description": "`power()` returned negative", "ef": 3, "ep": 0, "nf": 0, "np": 7}
bad = {k: decided.get(k) for k in want if decided.get(k) != want[k]}
if bad or (entry["ef"], entry["ep"]) != (3, 7):
    print(f"line {entry['line']} ef={entry['ef']} ep={entry['ep']}; decided_by differs in {bad}")
PY
if [ -s json.check ]; then fail "json: $(cat json.check)"; else pass; fi
if command -v script >/dev/null 2>&1; then
    TERM=xterm NO_COLOR=1 script -qc "$CULPRIT rank" /dev/null </dev/null >tty.out 2>&1
    expect_contains tty.out 'printf("%d\n", floored_mod(v, power()));'
    expect_contains tty.out 'scores as `power()` returned negative (ef=3 ep=0)'
fi

# The reports: the line's own counts, the element named apart with its counts.
run 0 "$CULPRIT" report --json report.json --sarif report.sarif --source-root "$WORK/modpow"
run 0 "$CULPRIT" rank --kind line --format csv
cp "$WORK/out" lines.csv
python3 - report.json report.sarif lines.csv >report.check <<'PY'
import csv, json, sys
report, sarif = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
ran = [r for r in csv.DictReader(open(sys.argv[3])) if int(r["ef"]) + int(r["ep"]) > 0]
method = report["methods"][0]
ranking = method["ranking"]
problems = []
if method["name"] != "tuples":
    problems.append(f"first method {method['name']}")
if len(ranking["line"]) != len(ran):
    problems.append(f"{len(ranking['line'])} lines shown, {len(ran)} ran")
if method.get("lines_total") != len(list(csv.DictReader(open(sys.argv[3])))):
    problems.append(f"lines_total {method.get('lines_total')}")
top = {k: v[0] for k, v in ranking.items()}
if (top["line"], top["ef"], top["ep"]) != (30, 3, 7):
    problems.append(f"top entry {top}")
if (top.get("decided_by"), top.get("decided_by_ef"), top.get("decided_by_ep")) != ("`power()` returned negative", 3, 0):
    problems.append(f"top entry's decider {top}")
result = sarif["runs"][0]["results"][0]
text = result["message"]["text"]
for part in ("run by 3 of 3 failing and 7 of 7 passing tests.",
             "The score is that of `power()` returned negative, seen in 3 of 3 failing and 0 of 7 passing tests."):
    if part not in text:
        problems.append(f"SARIF message lacks '{part}': {text}")
decided = result["properties"].get("decidedBy", {})
if (decided.get("kind"), decided.get("ef"), decided.get("ep")) != ("return", 3, 0):
    problems.append(f"SARIF decidedBy {decided}")
if problems:
    print("\n".join(problems))
PY
if [ -s report.check ]; then fail "reports: $(cat report.check)"; else pass; fi
finish
