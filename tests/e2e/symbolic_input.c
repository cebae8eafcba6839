/* symbolic_input.c - a small input-processing program for
 * tests/e2e/test_symbolic_cc.sh: every construct the symbolic
 * instrumentation handles (docs/symbolic.md §1) meets bytes of standard
 * input - arithmetic, a loop, a switch, PHIs (?: and &&), calls with
 * symbolic arguments and results, recursion, an indirect call, a qsort
 * callback called from uninstrumented code, struct copies and by-value
 * structs, memcpy, strtol, atoi, sscanf, global arrays indexed by an input
 * byte, and a function that does only constant, local work. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pair {
    int key;
    long value;
    char tag[12];
};

static const int weights[256] = {[0] = 1, ['a'] = 7, ['z'] = 26, [200] = 3};
static int histogram[256];

static int classify(int c)
{
    switch (c) {
    case 'a':
        return 1;
    case 'b':
        return 2;
    case '0':
    case '1':
    case '2':
        return 3;
    case '\n':
        return 4;
    default:
        return c > 127 ? 5 : 0;
    }
}

static int fib(int n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static long mix(long a, long b)
{
    return (a * 31) ^ (b >> 2);
}

/* No input reaches it: the instrumentation gives it no builder call. */
int constant_work(void)
{
    int s = 0;
    for (int i = 0; i < 10; i++)
        s += i * i;
    return s;
}

static int by_value(struct pair p)
{
    return p.key + (int)p.value;
}

static int compare(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int main(void)
{
    char buffer[256];
    size_t n = fread(buffer, 1, sizeof buffer - 1, stdin);
    buffer[n] = '\0';
    int sum = 0, kinds[6] = {0};
    long acc = 1;
    int (*classifier)(int) = classify;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)buffer[i];
        sum += c * 3 - (c >> 1);
        kinds[classifier(c)]++;
        histogram[c]++;
        acc = mix(acc, c);
        sum += weights[c];
        sum ^= c & 1 ? c / 3 : c % 7;
        if (c == 'x' && i + 1 < n && buffer[i + 1] == 'y')
            sum += 1000;
    }
    struct pair p = {n > 0 ? buffer[0] : 0, (long)n, "tag"}, q;
    q = p;
    memcpy(q.tag, buffer, n < 11 ? n : 11);
    q.tag[11] = 0;
    int values[8];
    for (int i = 0; i < 8; i++)
        values[i] = i < (int)n ? buffer[i] * (i + 1) % 17 : i;
    qsort(values, 8, sizeof *values, compare);
    long parsed = strtol(buffer, NULL, 10);
    int number = atoi(buffer);
    int scanned = 0;
    sscanf(buffer, "%d", &scanned);
    double half = n > 0 ? (double)buffer[0] / 2.0 : 0;
    int depth = n > 0 ? fib(buffer[0] % 12) : 0;
    printf("%d %ld %d %d %d %d %d %d %d\n", sum, acc, kinds[0], kinds[1], kinds[3], kinds[4], kinds[5],
           histogram['a'], depth);
    printf("%d %s %d %ld %d %d %.1f %d\n", by_value(q), q.tag, values[0] + values[7], parsed, number, scanned,
           half, constant_work());
    if (parsed > 100)
        return 3;
    return number == 42 ? 2 : 0;
}
