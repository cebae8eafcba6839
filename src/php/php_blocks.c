/*
 * php_blocks.c - cuts a compiled PHP function into blocks (php_blocks.h).
 *
 * A block's count is the most any of its opcodes ran (the extension counts
 * every opcode the VM runs, php_unit.c), so a block must begin wherever
 * control can enter, and should end where a line ends: PHP has no columns,
 * lines are what a developer reads, and a block that ran to the middle of
 * its lines would credit the lines after a fatal error.
 */
#include "php/php_blocks.h"

bool php_op_has_line(const php_op_shape *op)
{
    return op->line != 0 && !(op->flags & PHP_OP_NO_LINE);
}

static bool begins_block(const php_op_shape *ops, uint32_t i, uint32_t *last_line)
{
    if (i == 0 || (ops[i].flags & PHP_OP_TARGET) || (ops[i - 1].flags & PHP_OP_ENDS_BLOCK))
        return true;
    /* A line change splits unless the opcode carries no line of its own. */
    if (!php_op_has_line(&ops[i]) || (ops[i].flags & PHP_OP_STICKY))
        return false;
    return *last_line != 0 && ops[i].line != *last_line;
}

uint32_t php_blocks_partition(const php_op_shape *ops, uint32_t count, uint32_t first_block,
                              uint32_t *op_block, uint32_t *leaders)
{
    uint32_t blocks = 0, last_line = 0;
    for (uint32_t i = 0; i < count; i++) {
        if (begins_block(ops, i, &last_line)) {
            leaders[blocks++] = i;
            last_line = 0;
        }
        if (php_op_has_line(&ops[i]) && !(ops[i].flags & PHP_OP_STICKY))
            last_line = ops[i].line;
        op_block[i] = first_block + blocks - 1;
    }
    return blocks;
}
