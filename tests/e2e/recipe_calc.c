/* recipe_calc.c - the program under test of test_recipes.sh and
 * test_ctest.sh: a tiny calculator with one fault (add subtracts), automake's
 * skip (77) and hard error (99, with a usage message) statuses, and an error
 * path whose right answer is exit status 2 (division by zero). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: calc OP A B\n");
        return 99;
    }
    if (strcmp(argv[1], "skip") == 0)
        return 77;
    int a = atoi(argv[2]), b = atoi(argv[3]);
    if (strcmp(argv[1], "div") == 0) {
        if (b == 0) {
            fprintf(stderr, "calc: division by zero\n");
            return 2;
        }
        printf("%d\n", a / b);
        return 0;
    }
    int sum = a - b; /* the fault: should be a + b */
    if (strcmp(argv[1], "add") == 0) {
        printf("%d\n", sum);
        return sum == a + b ? 0 : 1;
    }
    printf("%d\n", a * b);
    return 0;
}
