/*
 * dispatch.c - a one-letter command dispatched by a switch, for
 * tests/e2e/test_gen_switch.sh.  Two faults, in two cases: the seed ('a')
 * reaches the first; the second ('d') is behind a case the seed does not
 * take, which the generator reaches only by aiming at each case of the
 * switch (docs/symbolic.md §4, "Switches").  Built with -DFIXED it is the
 * reference.
 */
#include <stdio.h>

int main(void)
{
    int c = getchar();
    long value = 10;
    switch (c) {
    case 'a':
#ifdef FIXED
        value = value + 1;
#else
        value = value + 2; /* the first fault */
#endif
        break;
    case 'd':
#ifdef FIXED
        value = value * 2;
#else
        value = value * 3; /* the second fault */
#endif
        break;
    case 'n':
        value = -value;
        break;
    case 'z':
        value = 0;
        break;
    default:
        puts("unknown command");
        return 1;
    }
    printf("%ld\n", value);
    return 0;
}
