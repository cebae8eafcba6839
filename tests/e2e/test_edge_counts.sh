#!/bin/sh
# test_edge_counts.sh - culprit-cc's split edges and its shadow stack at -O2.
# The edges of conditional branches are counted on the edges themselves (a
# new block per counted edge) or by their single-entry destinations
# (docs/collector.md §1): every branch outcome, edge and block count must
# equal the total computed here, for a run that ends normally and for one
# that crashes half-way, in a block entered only through counted edges.
# The crash site must be that block even though the function is a leaf
# inlined into its caller, after longjmps have skipped frames (and in the
# function that called setjmp, whose depth must be set back); a crash in a
# leaf that only reads (whose frame the optimiser once dropped, blaming the
# caller) must name the leaf's line, and so must a crash in an inlined
# callee that makes calls and a division by zero in a loop that neither
# calls nor touches memory (whose frame stores the optimiser once sank out
# of the loop).
. "$(dirname "$0")/lib.sh"
need_culprit_cc

cat >edges.c <<'END'
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

static jmp_buf again;
static long *volatile nowhere; /* null, and the optimiser cannot know it */

struct node {
    long key, next;
};

static long find(const struct node *n, long key)
{
    for (;;) {
        if (n->key == key)  /* @find */
            return n->next;
        if (n->next == 0)
            return -1;
        n += n->next;
    }
}

static long classify(long v, long *out)
{
    long r = 0;
    if (v % 3 == 0 ||   /* @three */
        v % 5 == 0) {   /* @five */
        *out += v;      /* @sum */
        r += 2;
    }
    if (v > 20)         /* @big */
        r -= 1;
    while (v > 1 &&     /* @halve */
           r < 100)
        v /= 2, r++;
    return r;
}

/* Calls, but not in its loop, and touches no memory there: the optimiser
 * would sink the frame's stores out of the loop. */
static long spin(long n, long d)
{
    long s = 0;
    for (long i = 0; i < n; i++) {
        if (i & 1)
            s ^= i;
        s += 1000 / (d - i); /* @divide */
    }
    if (s == 7)
        puts("seven");
    return s;
}

static void bail(long v)
{
    if (v % 4 == 1)     /* @bail */
        longjmp(again, 1);
}

static long fetch(const long *p, long v)
{
    if (v == 7)         /* @seven */
        puts("seven");
    return *p;          /* @fetch */
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 0;
    long crash_at = argc > 2 ? atol(argv[2]) : 0;
    long fetch_at = argc > 3 ? atol(argv[3]) : 0;
    long find_at = argc > 4 ? atol(argv[4]) : 0;
    long main_at = argc > 5 ? atol(argv[5]) : 0;
    long divide_at = argc > 6 ? atol(argv[6]) : 0;
    long total = 0, jumps = 0;
    struct node nodes[3] = {{1, 1}, {2, 1}, {3, 0}};
    for (long v = 1; v <= n; v++) {
        if (setjmp(again) == 0)
            bail(v);
        else
            jumps++;
        if (v == main_at)
            total += *nowhere; /* @main */
        total += classify(v, v == crash_at ? nowhere : &total);
        total += fetch(v == fetch_at ? nowhere : &jumps, v);
        nodes[1].next = v == find_at ? 1L << 40 : 1;
        total += find(nodes, 3);
        total += spin(8, v == divide_at ? 5 : 100);
    }
    printf("%ld %ld\n", total, jumps);
    return 0;
}
END
line_of() { grep -n "@$1 " edges.c | cut -d: -f1; }
run 0 "$culprit_cc" -O2 -g -o edges edges.c

# What every count must be for values 1..n (the last one entering @sum when it crashes there).
cat >expected.py <<'END'
def expected(n):
    c = {k: 0 for k in ("three true", "three false", "five true", "five false", "sum entered",
                        "big true", "big false", "halve true", "halve false",
                        "loop true", "loop false")}
    for v in range(1, n + 1):
        r = 0
        if v % 3 == 0:
            c["three true"] += 1
        else:
            c["three false"] += 1
            c["five true" if v % 5 == 0 else "five false"] += 1
        if v % 3 == 0 or v % 5 == 0:
            c["sum entered"] += 1
            r += 2
        c["big true" if v > 20 else "big false"] += 1
        r -= v > 20
        while True:
            c["halve true" if v > 1 else "halve false"] += 1
            go = v > 1 and r < 100
            c["loop true" if go else "loop false"] += 1
            if not go:
                break
            v //= 2
            r += 1
    return c
END
cat >counts.py <<'END'
import json, sys
sys.path.insert(0, ".")
from expected import expected
spectra, test, n, lines = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
d = json.load(open(spectra))
elements = d["elements"]
run = [t for t in d["tests"] if t["name"] == test][0]
counts = {e: c for e, c in run["counts"]}
line_names = dict(zip(map(int, lines[1::2]), lines[0::2]))
got = {}
for i, e in enumerate(elements):
    name = line_names.get(e["line"])
    if name is None:
        continue
    if e["kind"] == "branch":
        column, outcome = e["name"].rsplit(":", 2)[1:]
        # `while (a && b)` branches twice on its line: on a, and (column
        # of `while`) on the value of a && b, a PHI.
        if name == "halve" and column == "5":
            name = "loop"
        got[name + " " + outcome] = counts.get(i, 0)
    elif e["kind"] == "block" and name == "sum" and e["name"].startswith("classify:"):
        got["sum entered"] = counts.get(i, 0)
for key, value in sorted(expected(n).items()):
    print(key, value, got.get(key, "missing"))
END
names="three $(line_of three) five $(line_of five) sum $(line_of sum) big $(line_of big)"
names="$names halve $(line_of halve)"

# ---- a run that ends normally: every count exact ----
run 0 "$CULPRIT" test --name whole -- ./edges 60
run 0 "$CULPRIT" export json -o spectra.json
# shellcheck disable=SC2086
python3 counts.py spectra.json whole 60 $names >counts.txt || fail "counts.py failed"
while read -r key outcome want have; do
    [ "$want" = "$have" ] && pass || fail "$key $outcome: expected $want, recorded $have"
done <counts.txt

# ---- a crash in @sum, a block entered only through counted edges ----
run 139 "$CULPRIT" test --name crash -- ./edges 60 45
run 0 "$CULPRIT" tests --format json
expect_contains "$WORK/out" "\"crash_site\": \"$WORK/edges.c:$(line_of sum) (classify)\""
run 0 "$CULPRIT" export json -o spectra.json
# shellcheck disable=SC2086
python3 counts.py spectra.json crash 45 $names >counts.txt || fail "counts.py failed"
while read -r key outcome want have; do
    # Values after 45 never ran; the crashing one reached @sum and no further.
    case "$key $outcome" in
    "big "* | "halve "* | "loop "*) continue ;;
    esac
    [ "$want" = "$have" ] && pass || fail "crash run: $key $outcome: expected $want, recorded $have"
done <counts.txt

# ---- a crash in an inlined callee that makes calls: the callee's line ----
run 139 "$CULPRIT" test --name fetch -- ./edges 60 0 12
run 0 "$CULPRIT" tests --format json
expect_contains "$WORK/out" "\"crash_site\": \"$WORK/edges.c:$(line_of fetch) (fetch)\""

# ---- a crash in main itself after longjmps skipped bail's returns ----
run 139 "$CULPRIT" test --name main -- ./edges 60 0 0 0 30
run 0 "$CULPRIT" tests --format json
expect_contains "$WORK/out" "\"crash_site\": \"$WORK/edges.c:$(line_of main) (main)\""

# ---- a division by zero in a loop that neither calls nor touches memory ----
run 136 "$CULPRIT" test --name divide -- ./edges 60 0 0 0 0 30
run 0 "$CULPRIT" tests --format json
expect_contains "$WORK/out" "\"crash_site\": \"$WORK/edges.c:$(line_of divide) (spin)\""

# ---- a crash in a leaf that only reads ----
run 139 "$CULPRIT" test --name find -- ./edges 60 0 0 30
run 0 "$CULPRIT" tests --format json
expect_contains "$WORK/out" "\"crash_site\": \"$WORK/edges.c:$(line_of find) (find)\""
finish
