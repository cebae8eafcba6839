/* point.c - seeds/001's running example (Figure 1) in C, for
 * tests/e2e/test_gen.sh: a point (x, y) scaled by the ratio of another
 * point's magnitude (sx, sy) to its own, read from stdin with a precision p.
 * The fault: the origin has magnitude 0, and the division by it kills the
 * program (SIGFPE) - only when the scale is larger than the point, so the
 * failure needs a relation between the inputs.  (The faulty line has a
 * branch of its own, so that a passing run can take its other side.)  point_fixed.c leaves the
 * origin unscaled. */
#include <stdio.h>

int main(void)
{
    long x, y, sx, sy, p;
    if (scanf("%ld %ld %ld %ld %ld", &x, &y, &sx, &sy, &p) != 5) {
        printf("usage: x y scale_x scale_y precision\n");
        return 0;
    }
    long scale = sx * sx + sy * sy;
    long magnitude = x * x + y * y;
    long factor = 1;
    if (scale > magnitude)
        factor = x != 0 ? scale / magnitude : scale / (y * y); /* the fault: y may be 0 too */
    printf("%ld %ld %ld\n", x * factor, y * factor, p);
    return 0;
}
