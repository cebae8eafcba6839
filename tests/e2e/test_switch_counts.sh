#!/bin/sh
# test_switch_counts.sh - culprit-cc counts every outcome of a switch exactly,
# whether it takes the constant-time table (dense cases) or the select chain
# (few or sparse cases), including the default and values outside the range.
. "$(dirname "$0")/lib.sh"
culprit_cc="$(dirname "$CULPRIT")/culprit-cc"

cat >sw.c <<'END'
#include <stdio.h>
#include <stdlib.h>

static int dense(int v)
{
    switch (v) {
    case 0: return 10;
    case 1: return 11;
    case 2: return 12;
    case 3: return 13;
    case 5: return 15;
    case 6: return 16;
    default: return -1;
    }
}

static int sparse(long v)
{
    switch (v) {
    case -100000: return 1;
    case 7: return 2;
    case 4096: return 3;
    case 1L << 40: return 4;
    default: return 0;
    }
}

int main(int argc, char **argv)
{
    long total = 0;
    for (int i = 1; i < argc; i++) {
        long v = atol(argv[i]);
        total += dense((int)v) + sparse(v);
    }
    printf("%ld\n", total);
    return 0;
}
END
run 0 "$culprit_cc" -O2 -o sw sw.c
# dense: 0 x2 and (int)(1 << 40) == 0 -> case 0 x3; 3 x1; 5 x1; 4 (a hole), -7 and 99
# (outside), 7 and 4096 -> default x5
# sparse: 7 x1, 4096 x1, 1099511627776 x1, others default
run 0 "$CULPRIT" test --name counts -- ./sw 0 0 3 5 4 -7 99 7 4096 1099511627776
run 0 "$CULPRIT" export json -o spectra.json
python3 - spectra.json >counts.txt <<'END'
import json, sys
d = json.load(open(sys.argv[1]))
elements = d["elements"]
test = d["tests"][0]
counts = {elements[e]["name"]: c for e, c in test["counts"]}
for e in elements:
    if e["kind"] == "branch" and e["line"] in (6, 19):
        print(e["line"], e["name"].rsplit(":", 1)[1], counts.get(e["name"], 0))
END
# the switch statements: dense on line 6, sparse on line 19
expect_contains counts.txt "6 case 0 3"
expect_contains counts.txt "6 case 1 0"
expect_contains counts.txt "6 case 3 1"
expect_contains counts.txt "6 case 5 1"
expect_contains counts.txt "6 case 6 0"
expect_contains counts.txt "6 default 5"
expect_contains counts.txt "19 case 7 1"
expect_contains counts.txt "19 case 4096 1"
expect_contains counts.txt "19 case 1099511627776 1"
expect_contains counts.txt "19 case -100000 0"
expect_contains counts.txt "19 default 7"
finish
