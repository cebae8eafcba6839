/*
 * path_internal.h - what the concolic module's files share about the
 * path model: the DAG's well-formedness rules (path_check.c), used by the
 * reader and by tests that build paths by hand.
 */
#ifndef CULPRIT_CONCOLIC_PATH_INTERNAL_H
#define CULPRIT_CONCOLIC_PATH_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "culprit/concolic.h"

/* Whether node number `number` of path (its operands already checked) is
 * well formed: operands are earlier nodes, widths suit the op, a variable
 * names a source.  Otherwise problem says what was expected. */
bool culprit_path_node_valid(const culprit_path *path, uint32_t number, char *problem, size_t size);

/* Whether constraint names a node of path of a width its kind allows. */
bool culprit_path_constraint_valid(const culprit_path *path, const culprit_path_constraint *constraint,
                                   char *problem, size_t size);

/* Whether the switch section of path (read in trailer order) is well
 * formed: every entry names a site some SWITCH constraint names, its
 * values fit that constraint's expression, no site comes twice.  Sorts
 * path->switches by (unit, block) when it is; otherwise *bad is the entry
 * (in trailer order) and problem says what was expected. */
bool culprit_path_switches_valid(culprit_path *path, size_t *bad, char *problem, size_t size);

/* Whether the node is a variable (BYTE or FIELD). */
static inline bool culprit_path_is_variable(const culprit_path_node *node)
{
    return node->op == CULPRIT_SYM_BYTE || node->op == CULPRIT_SYM_FIELD;
}

/* How many of a node's operands (a, b, c) are node numbers. */
size_t culprit_path_operand_count(uint8_t op);

/* Whitespace as C's isspace in the C locale: what separates the text
 * fields of an input (similarity.c) and what may precede a field's digits
 * (inputs.c). */
static inline bool culprit_path_is_space(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

#endif
