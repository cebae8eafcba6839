/* mutants.c - the program tests/e2e/test_mutants_cc.sh builds with
 * culprit-cc --mutants: one statement of each kind the operators of
 * docs/mutation.md §1 mutate, each marked with its name for line_of.
 * CONSTRUCTOR_LOG, when defined, names a file a constructor appends to
 * (a fork server runs it once for all its tests). */
#include <stdio.h>
#include <stdlib.h>

static int total;

#ifdef CONSTRUCTOR_LOG
__attribute__((constructor)) static void note_start(void)
{
    FILE *log = fopen(CONSTRUCTOR_LOG, "a");
    if (log) {
        fputs("constructed\n", log);
        fclose(log);
    }
}
#endif

static void note(int v)
{
    total += v; /* @note */
}

static int below(int x, int limit)
{
    return x < limit; /* @less */
}

static int area(int w, int h)
{
    return w * h + 1; /* @area */
}

static int sign(int x)
{
    if (x > 0) /* @positive */
        return 1; /* @one */
    return 0;
}

int main(int argc, char **argv)
{
    int x = argc > 1 ? atoi(argv[1]) : 0;
    int kept = 5;
    kept = x; /* @store */
    note(x); /* @call */
    int b = below(x, 10), a = area(x, 3), s = sign(x);
    printf("below %d area %d sign %d kept %d total %d\n", b, a, s, kept, total); /* @print */
    return 0; /* @exit */
}
