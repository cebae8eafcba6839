/*
 * sym_expr.c - the expression table: hash-consed nodes (the same operation
 * on the same operands is one node, so a loop over input makes few), with
 * constant folding and the rewrites that keep expressions small, and the
 * value builders of culprit_sym.h on top of it.
 *
 * Nodes live in one array mapped at start (CULPRIT_SYM_MAX_NODES + 1
 * entries, reserved but only paid for when touched) and are never freed or
 * moved; a node's operands are always older nodes, which is what lets the
 * trailer writer order them without recursion.  Past the cap new nodes
 * are refused (NODE_CAP): the value is then concrete.
 *
 * Rewrites (each keeps the meaning, each makes the table smaller):
 *   extract of a whole value, of an extract, of a concat or a zext that
 *   covers the bits; concat of adjacent extracts of one value (what a load
 *   of a stored word sees); concat with a zero high part as a zext;
 *   zext/sext chains; a zero-extended value compared (== / !=) with a
 *   constant as the narrow comparison; ite with a constant condition or
 *   equal arms; x == x and friends.  A builder of the ABI returns 0 when
 *   its result folds to a constant: a constant is a concrete value.
 */
#include "rt/sym_internal.h"

#include <string.h>

const struct rt_sym_node *culprit_rt_sym_node(culprit_sym_expr e)
{
    return &culprit_rt_sym_state.nodes[e];
}

uint32_t culprit_rt_sym_bits(culprit_sym_expr e)
{
    return culprit_rt_sym_state.nodes[e].bits;
}

int culprit_rt_sym_is_const(culprit_sym_expr e, uint64_t *value)
{
    const struct rt_sym_node *node = &culprit_rt_sym_state.nodes[e];
    if (e == 0 || node->op != CULPRIT_SYM_CONST)
        return 0;
    *value = node->value;
    return 1;
}

static uint32_t hash_node(const struct rt_sym_node *node)
{
    uint64_t h = 0x9e3779b97f4a7c15ull * (node->op | (uint64_t)node->bits << 8);
    h = (h ^ node->a) * 0xff51afd7ed558ccdull;
    h = (h ^ node->b) * 0xc4ceb9fe1a85ec53ull;
    h = (h ^ node->c) * 0xff51afd7ed558ccdull;
    h = (h ^ node->value) * 0xc4ceb9fe1a85ec53ull;
    return (uint32_t)(h ^ (h >> 32));
}

static int same_node(const struct rt_sym_node *x, const struct rt_sym_node *y)
{
    return x->op == y->op && x->bits == y->bits && x->a == y->a && x->b == y->b && x->c == y->c &&
           x->value == y->value;
}

/* The node equal to *wanted, made if new; 0 when the table is full (or the
 * lock is this thread's already). */
static culprit_sym_expr intern(const struct rt_sym_node *wanted)
{
    struct rt_sym_state *state = &culprit_rt_sym_state;
    if (!state->nodes || !culprit_rt_sym_lock())
        return 0;
    uint32_t slot = hash_node(wanted) & state->node_hash_mask;
    culprit_sym_expr found = 0;
    for (;; slot = (slot + 1) & state->node_hash_mask) {
        uint32_t number = state->node_hash[slot];
        if (number == 0)
            break;
        if (same_node(&state->nodes[number], wanted)) {
            found = number;
            break;
        }
    }
    if (!found) {
        uint32_t count = atomic_load_explicit(&state->node_count, memory_order_relaxed);
        if (count > state->max_nodes) {
            culprit_rt_sym_count(CULPRIT_SYM_STAT_NODE_CAP);
        } else {
            state->nodes[count] = *wanted;
            state->node_hash[slot] = count;
            atomic_store_explicit(&state->node_count, count + 1, memory_order_release);
            culprit_rt_sym_count(CULPRIT_SYM_STAT_NODES);
            found = count;
        }
    }
    culprit_rt_sym_unlock();
    return found;
}

static culprit_sym_expr make(uint32_t op, uint32_t bits, uint32_t a, uint32_t b, uint32_t c, uint64_t value)
{
    struct rt_sym_node node = {
        .op = (uint8_t)op, .bits = (uint8_t)bits, .a = a, .b = b, .c = c, .value = value};
    return intern(&node);
}

culprit_sym_expr culprit_rt_sym_const(uint64_t value, uint32_t bits)
{
    return make(CULPRIT_SYM_CONST, bits, 0, 0, 0, value & culprit_rt_sym_mask(bits));
}

culprit_sym_expr culprit_rt_sym_byte(uint32_t source, uint64_t offset)
{
    return make(CULPRIT_SYM_BYTE, 8, source, 0, 0, offset);
}

culprit_sym_expr culprit_rt_sym_field(uint32_t source, uint64_t offset, uint32_t length, uint32_t kind)
{
    return make(CULPRIT_SYM_FIELD, 64, source, length, kind, offset);
}

culprit_sym_expr culprit_rt_sym_concrete_or(culprit_sym_expr e)
{
    uint64_t value;
    return culprit_rt_sym_is_const(e, &value) ? 0 : e;
}

culprit_sym_expr culprit_rt_sym_or_const(culprit_sym_expr s, uint64_t value, uint32_t bits)
{
    return s ? s : culprit_rt_sym_const(value, bits);
}

/* a op b on constants of width bits; 0 when it has no value (division by zero). */
static int fold_binary(uint32_t op, uint64_t a, uint64_t b, uint32_t bits, uint64_t *result)
{
    uint64_t m = culprit_rt_sym_mask(bits);
    a &= m;
    b &= m;
    int64_t sa = culprit_rt_sym_signed(a, bits), sb = culprit_rt_sym_signed(b, bits);
    switch (op) {
    case CULPRIT_SYM_ADD:
        *result = a + b;
        break;
    case CULPRIT_SYM_SUB:
        *result = a - b;
        break;
    case CULPRIT_SYM_MUL:
        *result = a * b;
        break;
    case CULPRIT_SYM_AND:
        *result = a & b;
        break;
    case CULPRIT_SYM_OR:
        *result = a | b;
        break;
    case CULPRIT_SYM_XOR:
        *result = a ^ b;
        break;
    case CULPRIT_SYM_SHL:
        *result = b >= bits ? 0 : a << b;
        break;
    case CULPRIT_SYM_LSHR:
        *result = b >= bits ? 0 : a >> b;
        break;
    case CULPRIT_SYM_ASHR:
        *result = (uint64_t)(sa >> (b >= bits ? bits - 1 : b));
        break;
    case CULPRIT_SYM_UDIV:
        if (!b)
            return 0;
        *result = a / b;
        break;
    case CULPRIT_SYM_UREM:
        if (!b)
            return 0;
        *result = a % b;
        break;
    case CULPRIT_SYM_SDIV:
        if (!b || (sb == -1 && sa == INT64_MIN))
            return 0;
        *result = (uint64_t)(sa / sb);
        break;
    case CULPRIT_SYM_SREM:
        if (!b || (sb == -1 && sa == INT64_MIN))
            return 0;
        *result = (uint64_t)(sa % sb);
        break;
    case CULPRIT_SYM_EQ:
        *result = a == b;
        break;
    case CULPRIT_SYM_NE:
        *result = a != b;
        break;
    case CULPRIT_SYM_UGT:
        *result = a > b;
        break;
    case CULPRIT_SYM_UGE:
        *result = a >= b;
        break;
    case CULPRIT_SYM_ULT:
        *result = a < b;
        break;
    case CULPRIT_SYM_ULE:
        *result = a <= b;
        break;
    case CULPRIT_SYM_SGT:
        *result = sa > sb;
        break;
    case CULPRIT_SYM_SGE:
        *result = sa >= sb;
        break;
    case CULPRIT_SYM_SLT:
        *result = sa < sb;
        break;
    case CULPRIT_SYM_SLE:
        *result = sa <= sb;
        break;
    default:
        return 0;
    }
    return 1;
}

static int is_comparison(uint32_t op)
{
    return op >= CULPRIT_SYM_EQ && op <= CULPRIT_SYM_SLE;
}

/* x op x for a comparison: 1 when op holds on equal operands. */
static int reflexive_result(uint32_t op)
{
    return op == CULPRIT_SYM_EQ || op == CULPRIT_SYM_UGE || op == CULPRIT_SYM_ULE || op == CULPRIT_SYM_SGE ||
           op == CULPRIT_SYM_SLE;
}

/* zext(y) ==/!= k: y ==/!= k when k fits y, else a constant. */
static culprit_sym_expr narrow_equality(uint32_t op, culprit_sym_expr a, culprit_sym_expr b)
{
    uint64_t k;
    const struct rt_sym_node *node = culprit_rt_sym_node(a);
    if (node->op != CULPRIT_SYM_ZEXT || !culprit_rt_sym_is_const(b, &k))
        return 0;
    uint32_t narrow = culprit_rt_sym_bits(node->a);
    if (k > culprit_rt_sym_mask(narrow))
        return culprit_rt_sym_const(op == CULPRIT_SYM_NE, 1);
    return culprit_rt_sym_op2(op, node->a, culprit_rt_sym_const(k, narrow));
}

culprit_sym_expr culprit_rt_sym_op2(uint32_t op, culprit_sym_expr a, culprit_sym_expr b)
{
    if (!a || !b)
        return 0;
    uint32_t bits = culprit_rt_sym_bits(a);
    if (bits != culprit_rt_sym_bits(b))
        return 0;
    uint64_t va, vb, folded;
    if (culprit_rt_sym_is_const(a, &va) && culprit_rt_sym_is_const(b, &vb))
        return fold_binary(op, va, vb, bits, &folded)
                   ? culprit_rt_sym_const(folded, is_comparison(op) ? 1 : bits)
                   : make(op, is_comparison(op) ? 1 : bits, a, b, 0, 0);
    if (is_comparison(op)) {
        if (a == b)
            return culprit_rt_sym_const(reflexive_result(op), 1);
        if (op == CULPRIT_SYM_EQ || op == CULPRIT_SYM_NE) {
            culprit_sym_expr narrow = narrow_equality(op, a, b);
            if (!narrow)
                narrow = narrow_equality(op, b, a);
            if (narrow)
                return narrow;
        }
        return make(op, 1, a, b, 0, 0);
    }
    return make(op, bits, a, b, 0, 0);
}

culprit_sym_expr culprit_rt_sym_extract(culprit_sym_expr a, uint32_t low, uint32_t bits)
{
    if (!a)
        return 0;
    const struct rt_sym_node *node = culprit_rt_sym_node(a);
    uint32_t width = node->bits;
    if (bits == 0 || low + bits > width)
        return 0;
    if (low == 0 && bits == width)
        return a;
    uint64_t value;
    if (culprit_rt_sym_is_const(a, &value))
        return culprit_rt_sym_const(value >> low, bits);
    if (node->op == CULPRIT_SYM_EXTRACT)
        return culprit_rt_sym_extract(node->a, (uint32_t)node->value + low, bits);
    if (node->op == CULPRIT_SYM_CONCAT) {
        uint32_t low_width = culprit_rt_sym_bits(node->b);
        if (low + bits <= low_width)
            return culprit_rt_sym_extract(node->b, low, bits);
        if (low >= low_width)
            return culprit_rt_sym_extract(node->a, low - low_width, bits);
    }
    if (node->op == CULPRIT_SYM_ZEXT) {
        uint32_t inner = culprit_rt_sym_bits(node->a);
        if (low >= inner)
            return culprit_rt_sym_const(0, bits);
        if (low + bits <= inner)
            return culprit_rt_sym_extract(node->a, low, bits);
    }
    return make(CULPRIT_SYM_EXTRACT, bits, a, 0, 0, low);
}

/* e seen as bits [low, low + width) of base (itself when not an extract). */
static void as_extract(culprit_sym_expr e, culprit_sym_expr *base, uint32_t *low)
{
    const struct rt_sym_node *node = culprit_rt_sym_node(e);
    if (node->op == CULPRIT_SYM_EXTRACT) {
        *base = node->a;
        *low = (uint32_t)node->value;
    } else {
        *base = e;
        *low = 0;
    }
}

culprit_sym_expr culprit_rt_sym_concat(culprit_sym_expr high, culprit_sym_expr low)
{
    if (!high || !low)
        return 0;
    uint32_t high_bits = culprit_rt_sym_bits(high), low_bits = culprit_rt_sym_bits(low);
    uint32_t bits = high_bits + low_bits;
    if (bits > 64)
        return 0;
    uint64_t vh, vl;
    int high_const = culprit_rt_sym_is_const(high, &vh);
    if (high_const && culprit_rt_sym_is_const(low, &vl))
        return culprit_rt_sym_const(vh << low_bits | vl, bits);
    if (high_const && vh == 0)
        return culprit_rt_sym_cast(CULPRIT_SYM_ZEXT, low, bits);
    culprit_sym_expr high_base, low_base;
    uint32_t high_low, low_low;
    as_extract(high, &high_base, &high_low);
    as_extract(low, &low_base, &low_low);
    if (high_base == low_base && high_low == low_low + low_bits)
        return culprit_rt_sym_extract(high_base, low_low, bits);
    return make(CULPRIT_SYM_CONCAT, bits, high, low, 0, 0);
}

culprit_sym_expr culprit_rt_sym_cast(uint32_t op, culprit_sym_expr a, uint32_t bits)
{
    if (!a || bits == 0 || bits > 64)
        return 0;
    uint32_t from = culprit_rt_sym_bits(a);
    if (op == CULPRIT_SYM_TRUNC || bits < from)
        return culprit_rt_sym_extract(a, 0, bits);
    if (bits == from)
        return a;
    uint64_t value;
    if (culprit_rt_sym_is_const(a, &value))
        return culprit_rt_sym_const(
            op == CULPRIT_SYM_SEXT ? (uint64_t)culprit_rt_sym_signed(value, from) : value, bits);
    const struct rt_sym_node *node = culprit_rt_sym_node(a);
    if (node->op == op && (op == CULPRIT_SYM_ZEXT || op == CULPRIT_SYM_SEXT))
        return culprit_rt_sym_cast(op, node->a, bits);
    if (op == CULPRIT_SYM_SEXT && node->op == CULPRIT_SYM_ZEXT)
        return culprit_rt_sym_cast(CULPRIT_SYM_ZEXT, node->a, bits); /* its sign bit is 0 */
    return make(op, bits, a, 0, 0, 0);
}

culprit_sym_expr culprit_rt_sym_resize(culprit_sym_expr e, uint32_t bits)
{
    return culprit_rt_sym_cast(CULPRIT_SYM_ZEXT, e, bits);
}

culprit_sym_expr culprit_rt_sym_ite(culprit_sym_expr condition, culprit_sym_expr a, culprit_sym_expr b)
{
    if (!condition || !a || !b || culprit_rt_sym_bits(a) != culprit_rt_sym_bits(b))
        return 0;
    uint64_t value;
    if (culprit_rt_sym_is_const(condition, &value))
        return value ? a : b;
    if (a == b)
        return a;
    return make(CULPRIT_SYM_ITE, culprit_rt_sym_bits(a), condition, a, b, 0);
}

/* ---- the ABI's builders ---- */

static int bits_are_valid(uint32_t bits)
{
    return bits >= 1 && bits <= 64;
}

/* The shadow as an operand of width bits; 0 when it has another width
 * (an instrumenter's mismatch: the value is used concretely). */
static culprit_sym_expr operand(culprit_sym_expr shadow, uint64_t value, uint32_t bits)
{
    if (!shadow)
        return culprit_rt_sym_const(value, bits);
    if (shadow >= atomic_load_explicit(&culprit_rt_sym_state.node_count, memory_order_acquire) ||
        culprit_rt_sym_bits(shadow) != bits) {
        culprit_rt_sym_count(CULPRIT_SYM_STAT_CONCRETIZED_OTHER);
        return 0;
    }
    return shadow;
}

culprit_sym_expr __culprit_sym_binary(uint32_t op, culprit_sym_expr a, culprit_sym_expr b, uint64_t va,
                                      uint64_t vb, uint32_t bits)
{
    if ((a | b) == 0 || !culprit_rt_sym_on() || !bits_are_valid(bits) || op < CULPRIT_SYM_ADD ||
        op > CULPRIT_SYM_XOR)
        return 0;
    return culprit_rt_sym_concrete_or(culprit_rt_sym_op2(op, operand(a, va, bits), operand(b, vb, bits)));
}

culprit_sym_expr __culprit_sym_compare(uint32_t op, culprit_sym_expr a, culprit_sym_expr b, uint64_t va,
                                       uint64_t vb, uint32_t bits)
{
    if ((a | b) == 0 || !culprit_rt_sym_on() || !bits_are_valid(bits) || !is_comparison(op))
        return 0;
    return culprit_rt_sym_concrete_or(culprit_rt_sym_op2(op, operand(a, va, bits), operand(b, vb, bits)));
}

culprit_sym_expr __culprit_sym_cast(uint32_t op, culprit_sym_expr a, uint64_t va, uint32_t from_bits,
                                    uint32_t to_bits)
{
    if (a == 0 || !culprit_rt_sym_on() || !bits_are_valid(from_bits) || !bits_are_valid(to_bits) ||
        (op != CULPRIT_SYM_ZEXT && op != CULPRIT_SYM_SEXT && op != CULPRIT_SYM_TRUNC))
        return 0;
    return culprit_rt_sym_concrete_or(culprit_rt_sym_cast(op, operand(a, va, from_bits), to_bits));
}

culprit_sym_expr __culprit_sym_select(culprit_sym_expr condition, culprit_sym_expr a, culprit_sym_expr b,
                                      uint64_t vcondition, uint64_t va, uint64_t vb, uint32_t bits)
{
    if ((condition | a | b) == 0 || !culprit_rt_sym_on() || !bits_are_valid(bits))
        return 0;
    if (!condition)
        return (vcondition & 1) ? a : b;
    culprit_sym_expr c = operand(condition, vcondition, 1);
    return culprit_rt_sym_concrete_or(culprit_rt_sym_ite(c, operand(a, va, bits), operand(b, vb, bits)));
}

/* Trace mode (CULPRIT_SYM_TRACE=1, docs/symbolic.md §6): the value a store
 * writes becomes a TAG node naming the store's site, so the trace formula
 * can relax the statement; a concrete value becomes its constant first,
 * so stores of constants and of values computed from concrete memory are
 * statements too and what is loaded from memory they wrote is symbolic.
 * Every store executed is a new node.
 * Outside trace mode the shadow is returned as it is. */
culprit_sym_expr __culprit_sym_tag(culprit_sym_expr value, uint64_t concrete, uint32_t bits, const void *unit,
                                   uint32_t block, uint32_t line)
{
    if (!culprit_rt_sym_on() || !culprit_rt_sym_state.trace || !bits_are_valid(bits))
        return value;
    culprit_rt_sym_spec_after_violation();
    culprit_sym_expr e = operand(value, concrete, bits);
    uint32_t index;
    if (!e || !culprit_rt_sym_unit_index_locked(unit, &index))
        return value;
    /* Each store executed is its own node (the instance in the high
     * half): hash-consed, a store of 0 at a site in the failing operation
     * would be the node an earlier operation made, and count as its
     * pre-state. */
    uint64_t instance =
        atomic_fetch_add_explicit(&culprit_rt_sym_state.tag_instances, 1, memory_order_relaxed);
    culprit_sym_expr tagged = make(CULPRIT_SYM_TAG, bits, e, index, block, (instance + 1) << 32 | line);
    return tagged ? tagged : value;
}
