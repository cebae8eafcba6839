/*
 * php_match.c - the outcomes of a `match` (docs/php.md, "Branches").
 *
 * The extension compiles switches without jump tables (php_module.c), so
 * that each case is a comparison and a two-way jump.  A `match` on integer
 * or string constants is compiled to a jump table whatever the compiler's
 * options say: one ZEND_MATCH opcode that lands on the arm of its operand
 * or on its default (the default arm, or the UnhandledMatchError the
 * compiler adds).  Such a match is one branch of several outcomes: the
 * arms its table lands on, in table order, each once however many values
 * lead to it, then the default.  An outcome is named by its values as PHP
 * writes them: "case 1", "case 's'|'m'", "default".
 */
#include "php/php_internal.h"

#include <stdio.h>
#include <string.h>

/* The opcode the table entry (an offset from the MATCH) lands on. */
static uint32_t landing(const zend_op_array *op_array, const zend_op *op, zend_long offset)
{
    return (uint32_t)(ZEND_OFFSET_TO_OPLINE(op, offset) - op_array->opcodes);
}

static bool listed(const uint32_t *targets, uint32_t count, uint32_t target)
{
    for (uint32_t i = 0; i < count; i++)
        if (targets[i] == target)
            return true;
    return false;
}

uint32_t php_match_targets(const zend_op_array *op_array, const zend_op *op, uint32_t *targets)
{
    uint32_t count = 0;
    const zval *table = RT_CONSTANT(op, op->op2), *entry;
    uint32_t found[PHP_MATCH_OUTCOMES];
    if (Z_TYPE_P(table) == IS_ARRAY) {
        ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(table), entry)
        {
            if (Z_TYPE_P(entry) != IS_LONG || count + 1 >= PHP_MATCH_OUTCOMES)
                continue;
            uint32_t target = landing(op_array, op, Z_LVAL_P(entry));
            if (!listed(found, count, target))
                found[count++] = target;
        }
        ZEND_HASH_FOREACH_END();
    }
    found[count++] = landing(op_array, op, (zend_long)op->extended_value); /* the default, last */
    if (targets)
        memcpy(targets, found, count * sizeof *found);
    return count;
}

/* A string key as PHP writes it in single quotes, into piece (size
 * bytes); bytes outside printable ASCII and the quote itself as \xNN, so
 * the name stays one line.  A key too long for piece is cut before the
 * byte that does not fit, and still closed: always a value the map
 * format takes. */
static void quoted(const zend_string *key, char *piece, size_t size)
{
    size_t used = 0;
    piece[used++] = '\'';
    for (size_t i = 0; i < ZSTR_LEN(key); i++) {
        unsigned char c = (unsigned char)ZSTR_VAL(key)[i];
        bool plain = c >= 0x20 && c < 0x7f && c != '\'' && c != '\\';
        size_t width = plain ? 1 : 4;
        if (used + width + 2 > size) /* the closing quote and the NUL */
            break;
        if (plain)
            piece[used++] = (char)c;
        else
            used += (size_t)snprintf(piece + used, size - used, "\\x%02x", c);
    }
    piece[used++] = '\'';
    piece[used] = '\0';
}

void php_match_outcome_name(const zend_op_array *op_array, const zend_op *op, uint32_t target,
                            bool is_default, char *out, size_t size)
{
    if (is_default) {
        snprintf(out, size, "default");
        return;
    }
    snprintf(out, size, "case ");
    const zval *table = RT_CONSTANT(op, op->op2), *entry;
    zend_ulong number;
    zend_string *key;
    ZEND_HASH_FOREACH_KEY_VAL(Z_ARRVAL_P(table), number, key, entry)
    {
        if (Z_TYPE_P(entry) != IS_LONG || landing(op_array, op, Z_LVAL_P(entry)) != target)
            continue;
        size_t used = strlen(out);
        bool first = used == strlen("case ");
        char piece[128];
        if (key)
            quoted(key, piece, first ? size - used : sizeof piece);
        else
            snprintf(piece, sizeof piece, ZEND_LONG_FMT, (zend_long)number);
        /* whole values only: a name cut inside its list would not parse */
        if (used + !first + strlen(piece) + 1 > size)
            break;
        snprintf(out + used, size - used, "%s%s", first ? "" : "|", piece);
    }
    ZEND_HASH_FOREACH_END();
}
