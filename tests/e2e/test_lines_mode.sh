#!/bin/sh
# test_lines_mode.sh - culprit-cc --coverage=lines records the same lines as
# full mode, though it gives no flag to blocks whose hit follows from their
# successors' (docs/collector.md §1), and it keeps the hit of the block a
# run crashes in: a division by zero in a loop the optimiser unrolled, an
# access past a global array, a null pointer and abort().  Built at -O0 and
# -O2; at -O2 flag stores the optimiser could move past the crash once were
# (all of an unrolled loop's flags were stored after its divisions), and full
# mode lost the crashing block of a loop whose counters it kept in registers.
# A static function's entry has no flag when every block calling it reaches
# the call (peek crashes there), and keeps it when a call before can end the
# run (after_stop) or the call's by-value copy can fault (first_of).
# A static helper that fills a malloc'd buffer, inlined into the function
# that allocated it (and unrolled), faults on its second store: the
# optimiser knows those stores do not touch the flags, and it moved plain
# flags after them (heap); it deleted the flag of the first turn's i++ as
# overwritten by the second's; the same happened past memset (memset).
# Every flag is now volatile.  fill's entry has no flag: its
# hit comes from the calling block's.
# The join of `a > 0 && b > 0` has no flag of its own: its hit comes from
# b's block and from a flag on a's false edge (a new block, the join's PHI
# rebuilt to come from it); reached by that edge, it crashes (join).
# A crash two calls deep (deep) leaves the lines after each call in its
# caller unrun: blocks end after calls (docs/collector.md §1), or the
# callers' blocks would count as run to their ends.
# The map itself is the same at -O0 and -O2: the cleanup blocks clang adds
# above -O0 for locals' lifetimes are left out.
. "$(dirname "$0")/lib.sh"
need_culprit_cc nm objcopy

cat >shapes.c <<'END'
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static jmp_buf again;
static int table[8];
static int *volatile nowhere; /* null, and the optimiser cannot know it */

static int classify(int v)
{
    int kind = 0;
    if (v < 0 && v > -10)
        kind = 1;
    else if (v == 0 || v == 100)
        kind = 2;
    for (int i = 0; i < 3; i++) {
        if (i == v)
            break;
        kind += i;
    }
    switch (v & 3) {
    case 0:
        kind++;
        /* fall through */
    case 1:
        kind += 2;
        break;
    case 2:
        goto done;
    default:
        kind--;
    }
    do {
        kind++;
    } while (kind < 3);
done:
    return kind;
}

static long divide_all(int n, int zero_at)
{
    long sum = 0;
    for (int i = 0; i < 10; i++) {
        if (i > 2)
            sum += 1000 / (i - zero_at); /* @divide */
        else
            sum += i;
    }
    if (n > 5)
        sum++;
    return sum;
}

static int index_table(long at)
{
    int total = 0;
    for (int i = 0; i < 4; i++)
        total += table[(long)i * at]; /* @index */
    return total;
}

static void maybe_jump(int v)
{
    if (v == 7)
        longjmp(again, 1);
}

/* Static, called only directly: their entries take their hits from the
 * blocks that call them, which must reach the call whenever they run. */
static int peek(const int *p)
{
    return *p; /* @peek */
}

/* Passed by value: the caller copies *from, so a bad pointer stops the
 * run before first_of starts. */
struct big {
    long a[16];
};
static struct big *volatile big_nowhere;

static long first_of(struct big from)
{
    return from.a[0]; /* @first_of */
}

static long heap_stride = 1;
static int *volatile heap_sink; /* keeps the buffer: unused, it is optimised away */

static void fill(int *p, long n)
{
    for (long i = 0; i < n;
         i++) /* @next */
        p[i * heap_stride] = (int)i; /* @heap */
}

/* Out of main, whose setjmp holds the optimiser back. */
__attribute__((noinline)) static int fill_heap(void)
{
    int *buffer = malloc(64 * sizeof *buffer);
    if (!buffer)
        return 0;
    heap_stride = 1L << 40;
    fill(buffer, 16); /* @heap_call */
    heap_sink = buffer;
    return buffer[3];
}

static char *volatile heap_sink_bytes;

static void clear(char *p, long n)
{
    for (long i = 0; i < n; i++)
        memset(p + i * heap_stride, 0, 8); /* @memset */
}

__attribute__((noinline)) static int clear_heap(void)
{
    char *buffer = malloc(16 * 8);
    if (!buffer)
        return 0;
    heap_stride = 1L << 40;
    clear(buffer, 16);
    heap_sink_bytes = buffer;
    return buffer[3];
}

static void stop_here(void)
{
    fflush(stdout);
    _exit(0);
}

static int *volatile join_target; /* null */

static int join_crash(int a, int b)
{
    int both = a > 0 && b > 0;
    return both + *join_target; /* @join */
}

static int deep_inner(const int *p)
{
    return *p; /* @deep */
}

static int deep_outer(const int *p, int n)
{
    int value = deep_inner(p); /* @deep_call */
    value *= n; /* @deep_after */
    return value;
}

static int after_stop(int v)
{
    return v + 1; /* @after_stop */
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 0;
    const char *mode = argc > 2 ? argv[2] : "";
    long total = 0;
    table[n & 7] = n;
    for (int v = -3; v < n; v++)
        total += classify(v);
    if (setjmp(again) == 0)
        maybe_jump(n);
    else
        total += 1000;
    if (strcmp(mode, "divide") == 0)
        total += divide_all(n, n);
    else
        total += divide_all(n, 99);
    if (strcmp(mode, "index") == 0)
        total += index_table(1L << 40);
    else
        total += index_table(1);
    if (strcmp(mode, "null") == 0)
        total += *nowhere; /* @null */
    if (strcmp(mode, "abort") == 0)
        abort(); /* @abort */
    if (strcmp(mode, "peek") == 0)
        total += peek(nowhere);
    if (strcmp(mode, "heap") == 0)
        total += fill_heap();
    if (strcmp(mode, "memset") == 0)
        total += clear_heap();
    if (strcmp(mode, "join") == 0)
        total += join_crash(0, n);
    if (strcmp(mode, "deep") == 0) {
        total += deep_outer(nowhere, n);
        total += n * 3; /* @deep_main_after */
    }
    if (strcmp(mode, "byval") == 0)
        total += first_of(*big_nowhere);
    if (strcmp(mode, "stop") == 0) {
        stop_here();
        total += after_stop(n);
    }
    printf("%ld\n", total);
    return 0;
}
END
line_of() { grep -n "@$1 " shapes.c | cut -d: -f1; }

# hits.py JSON TEST KIND: the sorted lines (or blocks) of KIND that TEST hit.
cat >hits.py <<'END'
import json, sys
d = json.load(open(sys.argv[1]))
run = [t for t in d["tests"] if t["name"] == sys.argv[2]][0]
hits = sorted({(e["line"], e["name"] or "") for e in (d["elements"][i] for i in run["hits"])
               if e["kind"] == sys.argv[3]})
for line, name in hits:
    print(line, name)
END

# The program map describes the code as written, whatever the -O.
for mode in lines full; do
    for level in O0 O2; do
        run 0 "$culprit_cc" --coverage=$mode -$level -g -c -o map-$level.o shapes.c
        run 0 objcopy -O binary --only-section=culprit_map map-$level.o map-$level.bin
    done
    if [ -s map-O0.bin ] && cmp -s map-O0.bin map-O2.bin; then pass; else
        fail "$mode: the map at -O2 differs from the map at -O0"
    fi
done

tests="plain:9 small:2 jump:7 divide:9:divide index:9:index null:9:null abort:9:abort peek:9:peek byval:9:byval stop:9:stop heap:9:heap memset:9:memset join:9:join deep:9:deep"
for level in O0 O2; do
    run 0 "$culprit_cc" --coverage=lines -$level -g -o lines-$level shapes.c
    run 0 "$culprit_cc" -$level -g -o full-$level shapes.c
    # The derivation must be at work, or the comparison below proves nothing about it.
    if nm lines-$level | grep -q __culprit_implied; then pass; else fail "-$level: no implied-hit table"; fi
    for mode in lines full; do
        for t in $tests; do
            name=${t%%:*} args=$(echo "${t#*:}" | tr : ' ')
            # shellcheck disable=SC2086
            "$CULPRIT" --store "st-$mode-$level" test --name "$name" -- ./$mode-$level $args >/dev/null 2>&1
        done
        run 0 "$CULPRIT" --store "st-$mode-$level" export json -o "$mode-$level.json"
    done
    for t in $tests; do
        name=${t%%:*}
        python3 hits.py lines-$level.json "$name" line >lines.txt
        python3 hits.py full-$level.json "$name" line >full.txt
        # At -O2 full mode's counters of index_table's loop stay in registers, and the
        # crash loses them; the collector counts the blocks on the crash stack instead.
        expect_same lines.txt full.txt
        case $name in
        divide | index | null | abort | peek | heap | memset | join | deep)
            if grep -q "^$(line_of "$name") " lines.txt; then pass; else
                fail "-$level $name: the crash line $(line_of "$name") is not hit in lines mode"
            fi
            ;;
        esac
    done
    # fill's entry takes its hit from the calling block (made volatile for
    # it; no case here is known to sink a plain one), which ran.
    python3 hits.py lines-$level.json heap line >lines.txt
    if grep -q "^$(line_of heap_call) " lines.txt; then pass; else fail "-$level heap: the call of fill is not hit"; fi
    # The first turn's i++ ran before the second turn's store faulted.
    if grep -q "^$(line_of next) " lines.txt; then pass; else fail "-$level heap: the first turn's i++ is not hit"; fi
    # The crash in deep_inner: its call ran, what follows it in either caller did not.
    python3 hits.py lines-$level.json deep line >lines.txt
    python3 hits.py full-$level.json deep line >full.txt
    for file in lines.txt full.txt; do
        if grep -q "^$(line_of deep_call) " $file; then pass; else fail "-$level deep ($file): the call line is not hit"; fi
        for after in deep_after deep_main_after; do
            if grep -q "^$(line_of $after) " $file; then
                fail "-$level deep ($file): line $(line_of $after) after the crashing call is hit"
            else pass; fi
        done
    done
    # Lines never run are not hit.
    python3 hits.py lines-$level.json plain line >lines.txt
    for never in null abort peek after_stop heap memset join deep deep_after; do
        if grep -q "^$(line_of $never) " lines.txt; then fail "-$level plain hit line $(line_of $never)"; else pass; fi
    done
    # The call of after_stop follows one that never returns: its block ran, the function did not.
    python3 hits.py lines-$level.json stop line >lines.txt
    if grep -q "^$(line_of after_stop) " lines.txt; then fail "-$level stop hit after_stop"; else pass; fi
    # The copy of a struct passed by value faulted in the caller: first_of never started.
    python3 hits.py lines-$level.json byval line >lines.txt
    if grep -q "^$(line_of first_of) " lines.txt; then fail "-$level byval hit first_of"; else pass; fi
done

# Where blocks end after calls.  A loop body `total += f(i);` whose only
# other line is the `}` of its jump stays one block (a split there would
# cost a flag every turn), with or without lifetime markers; the two calls
# of `b = f(1), a = f(2);` on one line stay in one block too (the store of
# a's value, after the second call, goes with the next line's block).  And
# the choice is linear in the
# block: 40,000 calls on 40,000 lines make 40,000 blocks, instrumented in a
# few times clang's own time (a quadratic version took 13 times as long).
cat >splits.c <<'END'
int f(int);
int g;
int loop(int n)
{
    int total = 0;
    for (int i = 0; i < n; i++) {
        total += f(i); /* @body */
    }
    int b = f(1), a = f(2); /* @pair */
    return total + a + b;
}
END
for options in "-O0" "-O2" "-O2 --lifetime-markers"; do
    # shellcheck disable=SC2086
    run 0 "$culprit_cc" --coverage=lines $options -g -c -o splits.o splits.c
    run 0 objcopy -O binary --only-section=culprit_map splits.o splits.map
    line=$(grep -n "@body " splits.c | cut -d: -f1)
    blocks=$(awk -F'\t' -v line="$line" '$1 == "line" && $3 == line { print $4 }' splits.map)
    case $blocks in
    *,*) fail "$options: line $line (body) is split over blocks $blocks" ;;
    "") fail "$options: line $line (body) is not in the map" ;;
    *) pass ;;
    esac
    # block records: block id function file first_line first_column last_line last_column
    line=$(grep -n "@pair " splits.c | cut -d: -f1)
    first=$(awk -v line="$line" 'NR == line { print index($0, "f(1)") }' splits.c)
    second=$(awk -v line="$line" 'NR == line { print index($0, "f(2)") }' splits.c)
    if awk -F'\t' -v line="$line" -v first="$first" -v second="$second" '
        $1 == "block" && $5 == line && $6 <= first && ($7 > line || $8 >= second) { found = 1 }
        END { exit !found }' splits.map; then pass; else
        fail "$options: the calls of line $line are not in one block"
    fi
done
python3 -c "
print('void f(int);\nvoid big(void) {')
for i in range(40000): print('    f(%d);' % i)
print('}')" >big.c
start=$(date +%s.%N)
run 0 clang-14 -O0 -g -c -o big-clang.o big.c
middle=$(date +%s.%N)
run 0 "$culprit_cc" --coverage=lines -O0 -g -c -o big.o big.c
end=$(date +%s.%N)
run 0 objcopy -O binary --only-section=culprit_map big.o big.map
blocks=$(grep -ac '^block' big.map)
if [ "$blocks" -eq 40000 ]; then pass; else fail "40,000 calls on 40,000 lines: $blocks blocks"; fi
if awk -v a="$start" -v b="$middle" -v c="$end" 'BEGIN { exit !((c - b) < 8 * (b - a) + 1) }'; then pass; else
    fail "culprit-cc took $(awk -v b="$middle" -v c="$end" 'BEGIN { print c - b }') s on 40,000 calls, clang $(awk -v a="$start" -v b="$middle" 'BEGIN { print b - a }') s"
fi
finish
