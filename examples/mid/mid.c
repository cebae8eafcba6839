#include <stdio.h>
#include <stdlib.h>

/* The middle of three numbers: the classic example of Jones, Harrold and Stasko. */
int mid(int x, int y, int z)
{
    int m = z;
    if (y < z) {
        if (x < y)
            m = y;
        else if (x < z)
            m = y; /* the fault: should be m = x */
    } else {
        if (x > y)
            m = y;
        else if (x > z)
            m = x;
    }
    return m;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: mid X Y Z\n");
        return 2;
    }
    printf("%d\n", mid(atoi(argv[1]), atoi(argv[2]), atoi(argv[3])));
    return 0;
}
