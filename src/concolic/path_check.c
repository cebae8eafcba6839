/*
 * path_check.c - the well-formedness rules of a path constraint's DAG
 * (culprit/sym_format.h): what each op takes and makes.  The reader
 * applies them node by node, so everything downstream (the solver's
 * translation, similarity, the input model) may assume a well-sorted DAG
 * without cycles.  The switch section's entries are checked against the
 * constraints they belong to.
 */
#include <stdio.h>
#include <stdlib.h>

#include "concolic/path_internal.h"

enum { MAX_FIELD_TEXT = 4096, MAX_WIDTH = 64 };

size_t culprit_path_operand_count(uint8_t op)
{
    if (op >= CULPRIT_SYM_ADD && op <= CULPRIT_SYM_XOR)
        return 2;
    if (op >= CULPRIT_SYM_EQ && op <= CULPRIT_SYM_SLE)
        return 2;
    if (op == CULPRIT_SYM_CONCAT)
        return 2;
    if (op == CULPRIT_SYM_ITE)
        return 3;
    if ((op >= CULPRIT_SYM_ZEXT && op <= CULPRIT_SYM_EXTRACT) || op == CULPRIT_SYM_NOT ||
        op == CULPRIT_SYM_TAG)
        return 1;
    return 0;
}

static bool known_op(uint8_t op)
{
    return op == CULPRIT_SYM_CONST || op == CULPRIT_SYM_BYTE || op == CULPRIT_SYM_FIELD ||
           culprit_path_operand_count(op) > 0;
}

static bool fail(char *problem, size_t size, const char *text)
{
    snprintf(problem, size, "%s", text);
    return false;
}

/* The width each op requires of its result and operands. */
static bool widths_valid(const culprit_path *path, const culprit_path_node *node, char *problem, size_t size)
{
    /* Only the operands the op takes were checked to be earlier nodes; the
     * other fields may hold anything. */
    size_t operands = culprit_path_operand_count(node->op);
    unsigned a = operands > 0 ? path->nodes[node->a].bits : 0,
             b = operands > 1 ? path->nodes[node->b].bits : 0;
    unsigned c = operands > 2 ? path->nodes[node->c].bits : 0, bits = node->bits;
    uint8_t op = node->op;
    if (op >= CULPRIT_SYM_ADD && op <= CULPRIT_SYM_XOR && (a != bits || b != bits))
        return fail(problem, size, "a node whose operands have its width");
    if (op >= CULPRIT_SYM_EQ && op <= CULPRIT_SYM_SLE && (bits != 1 || a != b))
        return fail(problem, size, "a comparison of width 1 between operands of one width");
    if ((op == CULPRIT_SYM_ZEXT || op == CULPRIT_SYM_SEXT) && bits < a)
        return fail(problem, size, "an extension no narrower than its operand");
    if (op == CULPRIT_SYM_TRUNC && bits > a)
        return fail(problem, size, "a truncation no wider than its operand");
    if (op == CULPRIT_SYM_EXTRACT && (node->value >= a || node->value + bits > a))
        return fail(problem, size, "an extraction within its operand's bits");
    if (op == CULPRIT_SYM_CONCAT && bits != a + b)
        return fail(problem, size, "a concatenation as wide as its operands together");
    if (op == CULPRIT_SYM_ITE && (a != 1 || b != bits || c != bits))
        return fail(problem, size, "an if-then-else on a width-1 condition between values of its width");
    if (op == CULPRIT_SYM_NOT && (a != 1 || bits != 1))
        return fail(problem, size, "a negation of width 1");
    if (op == CULPRIT_SYM_TAG && a != bits)
        return fail(problem, size, "a store's value as wide as the value");
    return true;
}

static bool variable_valid(const culprit_path *path, const culprit_path_node *node, char *problem,
                           size_t size)
{
    if (node->a >= path->source_count)
        return fail(problem, size, "a variable whose source is one of the trailer's sources");
    if (node->op == CULPRIT_SYM_BYTE && node->bits != 8)
        return fail(problem, size, "an input byte of width 8");
    if (node->op == CULPRIT_SYM_FIELD && node->bits != 64)
        return fail(problem, size, "a field of width 64");
    if (node->op == CULPRIT_SYM_FIELD && (node->b == 0 || node->b > MAX_FIELD_TEXT))
        return fail(problem, size, "a field's text length from 1 to 4096");
    if (node->op == CULPRIT_SYM_FIELD && node->c > CULPRIT_SYM_FIELD_OCTAL)
        return fail(problem, size, "a field kind 0 to 3 (decimal, unsigned, hex, octal)");
    return true;
}

bool culprit_path_node_valid(const culprit_path *path, uint32_t number, char *problem, size_t size)
{
    const culprit_path_node *node = &path->nodes[number];
    if (!known_op(node->op))
        return fail(problem, size, "a node op of sym_format.h");
    if (node->bits == 0 || node->bits > MAX_WIDTH)
        return fail(problem, size, "a node width from 1 to 64");
    if (node->op == CULPRIT_SYM_BYTE || node->op == CULPRIT_SYM_FIELD)
        return variable_valid(path, node, problem, size);
    size_t operands = culprit_path_operand_count(node->op);
    const uint32_t operand[3] = {node->a, node->b, node->c};
    for (size_t i = 0; i < operands; i++)
        if (operand[i] == 0 || operand[i] >= number)
            return fail(problem, size, "operands that are earlier nodes");
    return widths_valid(path, node, problem, size);
}

/* A violated spec: a width-1 condition that was false, or 0 (concrete);
 * its window starts at an earlier constraint (the reader checks against
 * the count read so far: constraints come in order). */
static bool spec_valid(const culprit_path *path, const culprit_path_constraint *constraint, char *problem,
                       size_t size)
{
    if (constraint->expression > path->node_count)
        return fail(problem, size, "a spec's condition that is a node or 0");
    if (constraint->expression && path->nodes[constraint->expression].bits != 1)
        return fail(problem, size, "a spec's condition of width 1");
    uint64_t operation_constraint = constraint->value >> 32, operation_node = constraint->value & UINT32_MAX;
    if (constraint->unit > path->constraint_count || operation_constraint > constraint->unit)
        return fail(problem, size,
                    "a spec's window that starts at a constraint, after its operation's start");
    if (constraint->block == 0 || constraint->block > path->node_count + 1 || operation_node == 0 ||
        operation_node > constraint->block)
        return fail(problem, size, "a spec's window that starts at a node, after its operation's start");
    return true;
}

bool culprit_path_constraint_valid(const culprit_path *path, const culprit_path_constraint *constraint,
                                   char *problem, size_t size)
{
    if (constraint->kind > CULPRIT_SYM_SPEC)
        return fail(problem, size, "a constraint kind 0 (branch), 1 (switch) or 2 (spec)");
    if (constraint->kind == CULPRIT_SYM_SPEC)
        return spec_valid(path, constraint, problem, size);
    if (constraint->expression == 0 || constraint->expression > path->node_count)
        return fail(problem, size, "a constraint's expression that is a node");
    const culprit_path_node *node = &path->nodes[constraint->expression];
    if (constraint->kind == CULPRIT_SYM_BRANCH && (node->bits != 1 || constraint->value > 1))
        return fail(problem, size, "a branch on a width-1 expression with outcome 0 or 1");
    if (constraint->kind == CULPRIT_SYM_SWITCH && node->bits < 64 && constraint->value >> node->bits)
        return fail(problem, size, "a switch value within its expression's width");
    return true;
}

/* ---- the switch section ---- */

typedef struct switch_key {
    uint32_t unit, block;
    size_t index; /* in trailer order */
} switch_key;

static int by_site(const void *left, const void *right)
{
    const switch_key *a = left, *b = right;
    if (a->unit != b->unit)
        return a->unit < b->unit ? -1 : 1;
    return a->block < b->block ? -1 : a->block > b->block;
}

static bool bad_entry(size_t index, size_t *bad, char *problem, size_t size, const char *text)
{
    *bad = index;
    return fail(problem, size, text);
}

/* Checks the entries against the constraints; keys sorted by site. */
static bool switches_match(const culprit_path *path, const switch_key *keys, bool *named, size_t *bad,
                           char *problem, size_t size)
{
    for (size_t i = 1; i < path->switch_count; i++)
        if (by_site(&keys[i - 1], &keys[i]) == 0)
            return bad_entry(keys[i - 1].index > keys[i].index ? keys[i - 1].index : keys[i].index, bad,
                             problem, size, "a switch site not listed before");
    for (size_t i = 0; i < path->constraint_count; i++) {
        const culprit_path_constraint *constraint = &path->constraints[i];
        switch_key wanted = {constraint->unit, constraint->block, 0};
        const switch_key *key = constraint->kind == CULPRIT_SYM_SWITCH
                                    ? bsearch(&wanted, keys, path->switch_count, sizeof *keys, by_site)
                                    : NULL;
        if (!key)
            continue;
        const culprit_path_switch *entry = &path->switches[key->index];
        unsigned bits = path->nodes[constraint->expression].bits;
        if (bits < 64 && entry->cases[entry->case_count - 1] >> bits)
            return bad_entry(key->index, bad, problem, size,
                             "a switch's case values within its expression's width");
        named[key->index] = true;
    }
    for (size_t i = 0; i < path->switch_count; i++)
        if (!named[i])
            return bad_entry(i, bad, problem, size, "a switch site that a switch constraint names");
    return true;
}

bool culprit_path_switches_valid(culprit_path *path, size_t *bad, char *problem, size_t size)
{
    size_t count = path->switch_count;
    switch_key *keys = calloc(count ? count : 1, sizeof *keys);
    bool *named = calloc(count ? count : 1, sizeof *named);
    culprit_path_switch *sorted = calloc(count ? count : 1, sizeof *sorted);
    bool valid = keys && named && sorted;
    if (!valid) {
        *bad = 0;
        fail(problem, size, "a switch section that fits in memory");
    }
    for (size_t i = 0; valid && i < count; i++)
        keys[i] = (switch_key){path->switches[i].unit, path->switches[i].block, i};
    if (valid && count)
        qsort(keys, count, sizeof *keys, by_site);
    valid = valid && switches_match(path, keys, named, bad, problem, size);
    if (valid) {
        for (size_t i = 0; i < count; i++)
            sorted[i] = path->switches[keys[i].index];
        for (size_t i = 0; i < count; i++)
            path->switches[i] = sorted[i];
    }
    free(keys);
    free(named);
    free(sorted);
    return valid;
}

static int switch_by_site(const void *left, const void *right)
{
    const culprit_path_switch *a = left, *b = right;
    if (a->unit != b->unit)
        return a->unit < b->unit ? -1 : 1;
    return a->block < b->block ? -1 : a->block > b->block;
}

const culprit_path_switch *culprit_path_switch_of(const culprit_path *path,
                                                  const culprit_path_constraint *constraint)
{
    if (constraint->kind != CULPRIT_SYM_SWITCH || path->switch_count == 0)
        return NULL;
    culprit_path_switch wanted = {.unit = constraint->unit, .block = constraint->block};
    return bsearch(&wanted, path->switches, path->switch_count, sizeof *path->switches, switch_by_site);
}
