/* point_fixed.c - the reference for point.c (tests/e2e/test_gen.sh):
 * the same program with the origin left unscaled, the fix seeds/001
 * assumes. */
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
        factor = magnitude == 0 ? 1 : scale / magnitude;
    printf("%ld %ld %ld\n", x * factor, y * factor, p);
    return 0;
}
