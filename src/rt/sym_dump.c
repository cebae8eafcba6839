/*
 * sym_dump.c - writes the path-constraint trailer (sym_format.h) after a
 * dump's output records, when symbolic execution is on.
 *
 * It runs inside the dump writer, so it is async-signal-safe like
 * rt_dump.c: no lock, no allocation, no recursion.  Only the nodes the
 * recorded constraints reach are written, renumbered from 1 with operands
 * first: since a node's operands are always older nodes, one pass from the
 * newest node down marks what is reachable and one pass up numbers it, in
 * the renumbering array mapped at start.  Counts are snapshots taken
 * first (acquire): threads that keep running add nodes and constraints the
 * trailer simply does not include.  The switch section follows the
 * statistics: each switch site a written constraint names, once, found by
 * marking sites in two passes over the constraints (count, then write).
 */
#include "rt/sym_internal.h"

#include <string.h>

/* How many of a node's a, b, c are node numbers. */
static int node_operands(const struct rt_sym_node *node)
{
    switch (node->op) {
    case CULPRIT_SYM_CONST:
    case CULPRIT_SYM_BYTE:
    case CULPRIT_SYM_FIELD:
        return 0;
    case CULPRIT_SYM_ZEXT:
    case CULPRIT_SYM_SEXT:
    case CULPRIT_SYM_TRUNC:
    case CULPRIT_SYM_EXTRACT:
    case CULPRIT_SYM_NOT:
    case CULPRIT_SYM_TAG: /* b, c: the store's site */
        return 1;
    case CULPRIT_SYM_ITE:
        return 3;
    default:
        return 2;
    }
}

/* Marks the nodes reachable from constraints [0, constraints) with 1 in
 * renumber[], then numbers them 1.. in ascending order; returns how many. */
static uint32_t number_reachable(uint32_t nodes, uint32_t constraints)
{
    struct rt_sym_state *state = &culprit_rt_sym_state;
    uint32_t *renumber = state->renumber;
    memset(renumber, 0, (size_t)nodes * sizeof *renumber);
    for (uint32_t i = 0; i < constraints; i++)
        if (state->constraints[i].expression) /* a SPEC's concrete condition is 0 */
            renumber[state->constraints[i].expression] = 1;
    for (uint32_t n = nodes; n-- > 1;) {
        if (!renumber[n])
            continue;
        const struct rt_sym_node *node = &state->nodes[n];
        int operands = node_operands(node);
        if (operands >= 1)
            renumber[node->a] = 1;
        if (operands >= 2)
            renumber[node->b] = 1;
        if (operands >= 3)
            renumber[node->c] = 1;
    }
    uint32_t next = 0;
    for (uint32_t n = 1; n < nodes; n++)
        if (renumber[n])
            renumber[n] = ++next;
    return next;
}

static void write_sources(struct rt_dump_writer *writer, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++) {
        const struct rt_sym_source *source = &culprit_rt_sym_state.sources[i];
        culprit_rt_dump_put_u32(writer, source->kind);
        culprit_rt_dump_put_u32(writer, source->index);
        culprit_rt_dump_put_u64(writer, atomic_load(&source->length));
        culprit_rt_dump_put_u32(writer, atomic_load(&source->flags));
        culprit_rt_dump_put_u32(writer, source->name_length);
        culprit_rt_dump_put(writer, source->name, source->name_length);
    }
}

static void write_nodes(struct rt_dump_writer *writer, uint32_t nodes)
{
    const struct rt_sym_state *state = &culprit_rt_sym_state;
    const uint32_t *renumber = state->renumber;
    for (uint32_t n = 1; n < nodes; n++) {
        if (!renumber[n])
            continue;
        const struct rt_sym_node *node = &state->nodes[n];
        int operands = node_operands(node);
        unsigned char head[4] = {node->op, node->bits, 0, 0};
        culprit_rt_dump_put(writer, head, sizeof head);
        culprit_rt_dump_put_u32(writer, operands >= 1 ? renumber[node->a] : node->a);
        culprit_rt_dump_put_u32(writer, operands >= 2 ? renumber[node->b] : node->b);
        culprit_rt_dump_put_u32(writer, operands >= 3 ? renumber[node->c] : node->c);
        culprit_rt_dump_put_u64(writer, node->value);
    }
}

/* A SPEC's node marks (the first node of a window, of an operation) as
 * written numbers: the first written node at or after the mark (numbering
 * keeps order), or one past the last. */
static uint32_t renumbered_mark(uint32_t mark, uint32_t nodes, uint32_t written)
{
    for (uint32_t n = mark ? mark : 1; n < nodes; n++)
        if (culprit_rt_sym_state.renumber[n])
            return culprit_rt_sym_state.renumber[n];
    return written + 1;
}

static void write_constraints(struct rt_dump_writer *writer, uint32_t count, uint32_t nodes, uint32_t written)
{
    const struct rt_sym_state *state = &culprit_rt_sym_state;
    for (uint32_t i = 0; i < count; i++) {
        const struct rt_sym_constraint *constraint = &state->constraints[i];
        uint32_t block = constraint->block;
        uint64_t value = constraint->value;
        if (constraint->kind == CULPRIT_SYM_SPEC) {
            block = renumbered_mark(block, nodes, written);
            value = (value >> 32) << 32 | renumbered_mark((uint32_t)value, nodes, written);
        }
        culprit_rt_dump_put_u32(writer, constraint->kind);
        culprit_rt_dump_put_u32(writer, constraint->expression ? state->renumber[constraint->expression] : 0);
        culprit_rt_dump_put_u32(writer, constraint->unit);
        culprit_rt_dump_put_u32(writer, block);
        culprit_rt_dump_put_u64(writer, value);
    }
}

/* The switch site of constraint i when it has case values and is not yet
 * marked counted (counting) or is (writing); NULL otherwise. */
static struct rt_sym_site *switch_site(uint32_t i, uint32_t counted, int writing)
{
    const struct rt_sym_constraint *constraint = &culprit_rt_sym_state.constraints[i];
    if (constraint->kind != CULPRIT_SYM_SWITCH)
        return NULL;
    struct rt_sym_site *site = culprit_rt_sym_site_find(constraint->site_unit, constraint->block);
    if (!site || site->case_count == 0 || (site->written == counted) != writing)
        return NULL;
    atomic_thread_fence(memory_order_acquire); /* the values before their count (sym_path.c) */
    return site;
}

/* The switch section: the case values of each site a written SWITCH
 * constraint names, once.  Two passes over the constraints: the first
 * counts the sites and marks them with a fresh mark, the second writes
 * exactly the marked ones and unmarks them (a site that gains its values
 * meanwhile, from a thread still running, is not written at all). */
static void write_switches(struct rt_dump_writer *writer, uint32_t constraints)
{
    struct rt_sym_state *state = &culprit_rt_sym_state;
    uint32_t counted = ++state->write_mark, count = 0;
    for (uint32_t i = 0; i < constraints; i++) {
        struct rt_sym_site *site = switch_site(i, counted, 0);
        if (site) {
            site->written = counted;
            count++;
        }
    }
    culprit_rt_dump_put_u32(writer, count);
    for (uint32_t i = 0; i < constraints; i++) {
        struct rt_sym_site *site = switch_site(i, counted, 1);
        if (!site)
            continue;
        site->written = 0;
        culprit_rt_dump_put_u32(writer, state->constraints[i].unit);
        culprit_rt_dump_put_u32(writer, site->block);
        culprit_rt_dump_put_u32(writer, site->case_count);
        for (uint32_t k = 0; k < site->case_count; k++)
            culprit_rt_dump_put_u64(writer, state->case_pool[site->cases_at + k]);
    }
}

void culprit_rt_sym_write_trailer(struct rt_dump_writer *writer)
{
    struct rt_sym_state *state = &culprit_rt_sym_state;
    if (atomic_load_explicit(&state->mode, memory_order_acquire) != RT_SYM_ON)
        return;
    uint32_t sources = atomic_load_explicit(&state->source_count, memory_order_acquire);
    uint32_t constraints = atomic_load_explicit(&state->constraint_count, memory_order_acquire);
    uint32_t nodes = atomic_load_explicit(&state->node_count, memory_order_acquire);
    uint32_t written_nodes = number_reachable(nodes, constraints);
    culprit_rt_dump_put(writer, CULPRIT_SYM_MAGIC, CULPRIT_SYM_MAGIC_SIZE);
    culprit_rt_dump_put_u32(writer, CULPRIT_SYM_VERSION);
    culprit_rt_dump_put_u32(writer, sources);
    culprit_rt_dump_put_u32(writer, written_nodes);
    culprit_rt_dump_put_u32(writer, constraints);
    write_sources(writer, sources);
    write_nodes(writer, nodes);
    write_constraints(writer, constraints, nodes, written_nodes);
    for (int i = 0; i < CULPRIT_SYM_STAT_COUNT; i++)
        culprit_rt_dump_put_u64(writer, atomic_load_explicit(&state->stats[i], memory_order_relaxed));
    write_switches(writer, constraints);
}
