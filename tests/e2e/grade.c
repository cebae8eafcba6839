/* grade.c - the program tests/e2e/test_mutate.sh builds with culprit-cc
 * --mutants: the letter grade of each score on the command line, with a
 * seeded fault that a relational-operator mutant repairs (80 must be a B). */
#include <stdio.h>
#include <stdlib.h>

static char grade(int score)
{
    if (score >= 90)
        return 'A';
    if (score > 80) /* the fault: score >= 80 is meant */
        return 'B';
    if (score >= 70)
        return 'C';
    if (score >= 60)
        return 'D';
    return 'F';
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        int score = atoi(argv[i]);
        if (score < 0 || score > 100) {
            fprintf(stderr, "grade: %s is not a score from 0 to 100\n", argv[i]);
            return 2;
        }
        printf("%d %c\n", score, grade(score));
    }
    return 0;
}
