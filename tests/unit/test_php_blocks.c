/*
 * test_php_blocks.c - how the PHP extension cuts a function's opcodes into
 * blocks (src/php/php_blocks.c): leaders at targets, after jumps and at
 * line changes, but never on a sticky opcode (a conditional jump the VM may
 * skip) or on one without a line.
 *
 * The extension is not in libculprit, and this part needs no PHP headers,
 * so its source is compiled into the test.
 */
#include "php/php_blocks.c"

#include "check.h"

enum { T = PHP_OP_TARGET, E = PHP_OP_ENDS_BLOCK, N = PHP_OP_NO_LINE, S = PHP_OP_STICKY };

/* `if ($a < $b) { x; } y;` as PHP 8.2 compiles it:
 *   0 IS_SMALLER (line 2)  1 JMPZ -> 3 (line 2)  2 ASSIGN (line 3)
 *   3 ECHO (line 5, target)  4 RETURN null (line 6, implicit) */
static void test_if_statement(void)
{
    php_op_shape ops[] = {{2, 0}, {2, E | S}, {3, 0}, {5, T}, {6, E | N}};
    uint32_t op_block[5], leaders[5];
    uint32_t blocks = php_blocks_partition(ops, 5, 10, op_block, leaders);
    CHECK_INT(blocks, 3);
    CHECK_INT(op_block[0], 10);
    CHECK_INT(op_block[1], 10);
    CHECK_INT(op_block[2], 11);
    CHECK_INT(op_block[3], 12);
    CHECK_INT(op_block[4], 12); /* line-less: no block of its own */
    CHECK_INT(leaders[0], 0);
    CHECK_INT(leaders[1], 2);
    CHECK_INT(leaders[2], 3);
    CHECK(php_op_has_line(&ops[3]));
    CHECK(!php_op_has_line(&ops[4]));
}

/* A multi-line condition: the comparison is on line 3, its JMPZ on line 2.
 * The jump is sticky: a block beginning on it would count only the runs
 * that did not fuse it with the comparison. */
static void test_sticky_jump_stays(void)
{
    php_op_shape ops[] = {{3, 0}, {2, E | S}, {4, 0}};
    uint32_t op_block[3], leaders[3];
    CHECK_INT(php_blocks_partition(ops, 3, 0, op_block, leaders), 2);
    CHECK_INT(op_block[1], 0);
    CHECK_INT(op_block[2], 1);
}

/* Line changes split a straight run; NOP and OP_DATA do not. */
static void test_line_changes(void)
{
    php_op_shape ops[] = {{1, 0}, {1, 0}, {0, N}, {2, 0}, {2, N | S}, {3, N}, {3, 0}, {4, T}};
    uint32_t op_block[8], leaders[8];
    CHECK_INT(php_blocks_partition(ops, 8, 0, op_block, leaders), 4);
    CHECK_INT(op_block[2], 0);
    CHECK_INT(op_block[3], 1);
    CHECK_INT(op_block[4], 1);
    CHECK_INT(op_block[5], 1); /* line-less on line 3 */
    CHECK_INT(op_block[6], 2);
    CHECK_INT(op_block[7], 3);
}

static void test_empty(void)
{
    uint32_t op_block[1], leaders[1];
    CHECK_INT(php_blocks_partition(NULL, 0, 0, op_block, leaders), 0);
}

int main(void)
{
    test_if_statement();
    test_sticky_jump_stays();
    test_line_changes();
    test_empty();
    return check_report("test_php_blocks");
}
