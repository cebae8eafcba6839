/*
 * classify.c - a small tokenizer for tests/e2e/test_gen_tables.sh: every
 * decision it takes on a character goes through a table, glibc's ctype
 * macros (isspace, isdigit, isalpha: __ctype_b_loc()), toupper, or a
 * table of its own (hexval), so its path constraint is empty unless
 * table loads through a symbolic index are modelled.  Built with
 * -DFIXED it is the reference; without, words are counted twice (the
 * fault: the seed, made of words, fails).
 */
#include <ctype.h>
#include <stdio.h>

static const signed char hexval[256] = {['0'] = 0,  ['1'] = 1,  ['2'] = 2,  ['3'] = 3,  ['4'] = 4,  ['5'] = 5,
                                        ['6'] = 6,  ['7'] = 7,  ['8'] = 8,  ['9'] = 9,  ['a'] = 10, ['b'] = 11,
                                        ['c'] = 12, ['d'] = 13, ['e'] = 14, ['f'] = 15, ['A'] = 10, ['B'] = 11,
                                        ['C'] = 12, ['D'] = 13, ['E'] = 14, ['F'] = 15};

int main(void)
{
    int c, words = 0, numbers = 0, others = 0, exes = 0, fifteens = 0;
    int in_token = 0;
    while ((c = getchar()) != EOF) {
        if (isspace(c)) {
            in_token = 0;
            continue;
        }
        if (!in_token) {
            in_token = 1;
            if (isdigit(c)) {
                numbers++;
            } else if (isalpha(c)) {
#ifdef FIXED
                words++;
#else
                words += 2; /* the fault */
#endif
            } else {
                others++;
            }
        }
        if (toupper(c) == 'X')
            exes++;
        if (hexval[(unsigned char)c] == 15)
            fifteens++;
    }
    printf("words %d numbers %d others %d x %d f %d\n", words, numbers, others, exes, fifteens);
    return 0;
}
