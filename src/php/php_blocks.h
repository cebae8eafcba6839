/*
 * php_blocks.h - how the PHP extension cuts a compiled function into the
 * blocks of its program map (docs/php.md, "Blocks and lines").
 *
 * The extension (culprit_php_unit.c) describes each opcode of a Zend op
 * array by its line and a few flags; this module, which knows nothing of
 * PHP's headers, decides where blocks begin, which block each opcode is in,
 * and which lines are executable, so that the rules can be unit tested on
 * their own (tests/unit/test_php_blocks.c).
 */
#ifndef CULPRIT_PHP_BLOCKS_H
#define CULPRIT_PHP_BLOCKS_H

#include <stdbool.h>
#include <stdint.h>

enum php_op_flags {
    /* The next opcode begins a block: a jump, a return, a throw. */
    PHP_OP_ENDS_BLOCK = 1u << 0,
    /* Some jump lands here (a jump target, a catch, a finally). */
    PHP_OP_TARGET = 1u << 1,
    /* Gives its line no executable statement: NOP, OP_DATA (the second half
     * of the opcode before it), the implicit `return null` every function
     * ends with (on its closing brace or past the file's last line). */
    PHP_OP_NO_LINE = 1u << 2,
    /* Never begins a block because its line differs from the opcode before,
     * nor makes the next one begin a block that way: OP_DATA, and a
     * conditional jump, which the VM skips altogether when the comparison
     * before it jumps itself ("smart branches"), so a block that began on
     * it would never be counted. */
    PHP_OP_STICKY = 1u << 3
};

typedef struct php_op_shape {
    uint32_t line;  /* 0 when the opcode has none */
    uint32_t flags; /* enum php_op_flags */
} php_op_shape;

/* Numbers the blocks of one function from first_block on: op_block[i] is the
 * block of opcode i, and leaders[k] the first opcode of block
 * first_block + k (room for count entries).  A block begins at opcode 0, at
 * a target, after an opcode that ends one, and where the line changes (but
 * on a sticky or line-less opcode), so that every block but a few sticky
 * ones lies on one line and a run that stops in the middle of a function
 * (an exception, a fatal error) leaves the lines after it unrun.  Returns
 * the number of blocks. */
uint32_t php_blocks_partition(const php_op_shape *ops, uint32_t count, uint32_t first_block,
                              uint32_t *op_block, uint32_t *leaders);

/* Whether opcode i puts its block on its line in the map. */
bool php_op_has_line(const php_op_shape *op);

#endif
