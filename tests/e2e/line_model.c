/* line_model.c - every shape of statement whose executable lines
 * tests/e2e/test_line_model.sh checks against a fixed list and gcov's:
 * `}`, `} else {`, loops, multi-line statements and calls, `break`,
 * `continue`, `goto`, `return`, `switch`, function headers.  Line numbers
 * are in the test: edit both together. */
#include <stdio.h>
#include <stdlib.h>

struct pair { int a, b; };

static int twice(int x)
{
    return 2 * x;
}

int classify(int x)
{
    int r = 0;
    if (x < 0) {
        r = -1;
    } else if (x == 0) {
        r = 0;
    } else {
        r = 1;
    }
    return r;
}

int sum_to(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++) {
        if (i == 7)
            break;
        if (i % 2)
            continue;
        s += i;
    }
    while (s > 100) {
        s -= 100;
    }
    do {
        s++;
    } while (s < 3);
    return s;
}

int longcall(int a,
             int b)
{
    int v = twice(a) +
            twice(b) +
            1;
    printf("%d %d\n",
           a,
           b);
    return v;
}

void early(int *p)
{
    if (!p)
        return;
    *p = 1;
}

int pick(int k)
{
    switch (k) {
    case 1:
        return 10;
    case 2:
        k += 3;
        break;
    default:
        k = 0;
    }
    return k;
}

int search(const int *v, int n, int want)
{
    int i;
    for (i = 0; i < n; i++)
        if (v[i] == want)
            goto found;
    return -1;
found:
    return i;
}

struct pair make(int a, int b)
{
    struct pair p = {
        a,
        b,
    };
    return p;
}

#define GIVE_UP goto out

int spin(int x)
{
    for (;;) {
        if (x < 0)
            GIVE_UP;
        if (--x < 3)
            break;
    }
    x *= 2;
out:
    return x;
}

int main(int argc, char **argv)
{
    int x = argc > 1 ? atoi(argv[1]) : 3;
    int v[4] = {1, 2, 3, 4};
    early(&x);
    early(NULL);
    struct pair p = make(x, 2);
    printf("%d %d %d %d %d %d %d\n", classify(x), sum_to(x * 20), longcall(x, p.b),
           pick(x), pick(2), search(v, 4, 3), search(v, 4, 9));
    return spin(x) > 100;
}
