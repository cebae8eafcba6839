/*
 * sym_table.c - a load through a symbolic index into a table whose bounds
 * are known (__culprit_sym_load_table, culprit_sym.h): glibc's ctype
 * tables behind isdigit() and toupper(), and the program's own global
 * arrays (a hex digit's value, a character's class, a keyword's token).
 * Concretizing the index there would lose exactly the branches a parser
 * takes on the kind of character it reads.
 *
 * The value is exact for the table's current contents.  The entries the
 * index can reach (the table's bounds, narrowed by what the index
 * expression can be: a zero-extended byte reaches 0..255 only) are split
 * into runs, maximal ranges of indices whose entries are one constant
 * (v, v, v: a character class) or step with the index (v, v+1, v+2:
 * tolower's identity stretches, a digit's value).  The value is a
 * balanced tree of ite(index < first index of a run, left, right) whose
 * leaves are a run's constant or trunc(index + d).  R runs make R - 1
 * comparisons and ites plus two nodes per stepping leaf; the constants
 * are shared by every lookup, and the same lookup on the same byte is
 * hash-consed into the same nodes.  glibc's classification table over a
 * byte is 16 runs (58 nodes), tolower's 3 (14).
 *
 * Past CULPRIT_SYM_TABLE_CAP runs (default 64), past 65,536 reachable
 * entries, when an entry reached holds a symbolic byte itself, or when
 * the concrete index is out of bounds, the load is concretized as before
 * (counted CONCRETIZED_ADDRESS): the value's shadow is then the bytes'
 * own, which is what a plain load gives.
 *
 * toupper() and tolower() are models (sym_models.h) that make the same
 * expression over glibc's tables: they are calls at -O0.
 *
 * Bounds: only the table's entries are read, and no constraint says the
 * index stays inside them: an index past either end reads as the nearest
 * run (the program itself would read out of bounds there; its own
 * branches usually keep the index in range, and they are recorded).
 */
#include "rt/sym_internal.h"
#include "rt/sym_wrappers.h"

#include <ctype.h>
#include <string.h>

enum { TABLE_MAX_ENTRIES = 1 << 16 };
/* Bounds the instrumenter passes are far below this: first + count never overflows. */
#define TABLE_MAX_COUNT ((int64_t)1 << 48)

/* Entries [start, next run's start) are value (+ (i - start) when steps). */
struct table_run {
    int64_t start;
    uint64_t value;
    int steps;
};

struct table {
    const unsigned char *element0; /* entry 0's bytes (which may lie outside the table) */
    uint64_t stride;
    uint32_t bytes;
};

static void full_range(uint32_t bits, int64_t *low, int64_t *high)
{
    *low = bits >= 64 ? INT64_MIN : -(int64_t)(1ull << (bits - 1));
    *high = bits >= 64 ? INT64_MAX : (int64_t)((1ull << (bits - 1)) - 1);
}

/* The values e can take, as signed integers of its width: a bound that
 * holds (not the tightest), from the shape of the expression. */
static void signed_range(culprit_sym_expr e, int64_t *low, int64_t *high)
{
    const struct rt_sym_node *node = culprit_rt_sym_node(e);
    uint32_t bits = node->bits;
    full_range(bits, low, high);
    uint64_t k;
    int64_t a_low, a_high;
    switch (node->op) {
    case CULPRIT_SYM_ZEXT:
        if (culprit_rt_sym_bits(node->a) < bits) {
            *low = 0;
            *high = (int64_t)culprit_rt_sym_mask(culprit_rt_sym_bits(node->a));
        }
        return;
    case CULPRIT_SYM_SEXT:
        signed_range(node->a, low, high);
        return;
    case CULPRIT_SYM_ADD:
    case CULPRIT_SYM_SUB:
        if (!culprit_rt_sym_is_const(node->b, &k))
            return;
        signed_range(node->a, &a_low, &a_high);
        int64_t shift = culprit_rt_sym_signed(k, bits), min, max, new_low, new_high;
        full_range(bits, &min, &max);
        if (node->op == CULPRIT_SYM_SUB && shift == INT64_MIN)
            return;
        if (node->op == CULPRIT_SYM_SUB)
            shift = -shift;
        if (__builtin_add_overflow(a_low, shift, &new_low) ||
            __builtin_add_overflow(a_high, shift, &new_high) || new_low < min || new_high > max)
            return; /* it may wrap */
        *low = new_low;
        *high = new_high;
        return;
    case CULPRIT_SYM_AND:
        if (culprit_rt_sym_is_const(node->b, &k) && culprit_rt_sym_signed(k, bits) >= 0) {
            *low = 0;
            *high = culprit_rt_sym_signed(k, bits);
        }
        return;
    default:
        return;
    }
}

static uint64_t entry(const struct table *table, int64_t i)
{
    uint64_t value = 0;
    memcpy(&value, table->element0 + i * (int64_t)table->stride, table->bytes); /* little-endian */
    return value;
}

/* Splits entries [low, high] into runs; the count, or cap + 1 past the cap. */
static uint32_t split_runs(const struct table *table, int64_t low, int64_t high, struct table_run *runs,
                           uint32_t cap)
{
    uint64_t mask = culprit_rt_sym_mask(8 * table->bytes);
    uint32_t count = 0;
    for (int64_t i = low; i <= high;) {
        if (count == cap)
            return cap + 1;
        struct table_run *run = &runs[count++];
        run->start = i;
        run->value = entry(table, i);
        run->steps = i < high && entry(table, i + 1) == ((run->value + 1) & mask);
        uint64_t expected = run->value;
        do {
            expected = run->steps ? (expected + 1) & mask : expected;
            i++;
        } while (i <= high && entry(table, i) == expected);
    }
    return count;
}

/* The value of runs [first, last) for the index x (64 bits). */
static culprit_sym_expr tree(culprit_sym_expr x, const struct table_run *runs, uint32_t first, uint32_t last,
                             uint32_t bits)
{
    if (last - first == 1) {
        const struct table_run *run = &runs[first];
        if (!run->steps)
            return culprit_rt_sym_const(run->value, bits);
        uint64_t difference = run->value - (uint64_t)run->start;
        return culprit_rt_sym_extract(
            culprit_rt_sym_op2(CULPRIT_SYM_ADD, x, culprit_rt_sym_const(difference, 64)), 0, bits);
    }
    uint32_t middle = first + (last - first) / 2;
    culprit_sym_expr below =
        culprit_rt_sym_op2(CULPRIT_SYM_SLT, x, culprit_rt_sym_const((uint64_t)runs[middle].start, 64));
    return culprit_rt_sym_ite(below, tree(x, runs, first, middle, bits), tree(x, runs, middle, last, bits));
}

/* The exact value of the load, or 0 when it cannot be made (then concretized). */
static culprit_sym_expr table_value(const struct table *table, int64_t first, uint64_t count,
                                    culprit_sym_expr index, int64_t concrete)
{
    culprit_sym_expr x = culprit_rt_sym_cast(CULPRIT_SYM_SEXT, index, 64);
    if (!x)
        return 0;
    int64_t low, high;
    signed_range(x, &low, &high);
    int64_t last = first + (int64_t)count - 1;
    low = low > first ? low : first;
    high = high < last ? high : last;
    if (concrete < low || concrete > high || (uint64_t)(high - low) >= TABLE_MAX_ENTRIES)
        return 0;
    const unsigned char *start = table->element0 + low * (int64_t)table->stride;
    if (culprit_rt_sym_shadow_any(start, (size_t)(high - low) * table->stride + table->bytes))
        return 0;
    struct table_run runs[RT_SYM_LIMIT_TABLE_CAP + 1];
    uint32_t cap = culprit_rt_sym_state.table_cap;
    uint32_t run_count = split_runs(table, low, high, runs, cap);
    if (run_count > cap)
        return 0;
    return tree(x, runs, 0, run_count, 8 * table->bytes);
}

culprit_sym_expr __culprit_sym_load_table(const void *address, const void *element0, int64_t first,
                                          uint64_t count, uint64_t stride, uint32_t bytes,
                                          culprit_sym_expr index, uint64_t index_value, uint32_t index_bits)
{
    if (index == 0 || !culprit_rt_sym_on())
        return __culprit_sym_load(address, bytes);
    if (bytes == 0 || bytes > 8 || stride < bytes || count == 0 || count > TABLE_MAX_COUNT ||
        index_bits == 0 || index_bits > 64 || first < -TABLE_MAX_COUNT || first > TABLE_MAX_COUNT ||
        index >= atomic_load_explicit(&culprit_rt_sym_state.node_count, memory_order_acquire) ||
        culprit_rt_sym_bits(index) != index_bits) {
        culprit_rt_sym_count(CULPRIT_SYM_STAT_CONCRETIZED_OTHER);
        return __culprit_sym_load(address, bytes);
    }
    struct table table = {.element0 = element0, .stride = stride, .bytes = bytes};
    culprit_sym_expr value =
        table_value(&table, first, count, index, culprit_rt_sym_signed(index_value, index_bits));
    if (!value) {
        culprit_rt_sym_count(CULPRIT_SYM_STAT_CONCRETIZED_ADDRESS);
        return __culprit_sym_load(address, bytes);
    }
    return culprit_rt_sym_concrete_or(value);
}

/* ---- toupper, tolower ----
 * glibc computes them as table[c] for c in -128..255 and c elsewhere; at
 * -O0 they are calls (the inline versions come with optimisation), so
 * they are models that make the same table expression. */

static culprit_sym_expr case_model(culprit_sym_expr shadow, int c, const int32_t *table)
{
    if (!shadow || !culprit_rt_sym_on())
        return 0;
    if (c < -128 || c > 255) {
        culprit_rt_sym_count(CULPRIT_SYM_STAT_CONCRETIZED_ADDRESS);
        return 0;
    }
    return __culprit_sym_load_table(table + c, table, -128, 384, sizeof *table, sizeof *table, shadow,
                                    (uint32_t)c, 32);
}

int __culprit_sym_w_toupper(int character)
{
    culprit_sym_expr args[1];
    culprit_rt_sym_enter((const void *)__culprit_sym_w_toupper, args, 1);
    int result = toupper(character);
    culprit_rt_sym_return(case_model(args[0], character, *__ctype_toupper_loc()));
    return result;
}

int __culprit_sym_w_tolower(int character)
{
    culprit_sym_expr args[1];
    culprit_rt_sym_enter((const void *)__culprit_sym_w_tolower, args, 1);
    int result = tolower(character);
    culprit_rt_sym_return(case_model(args[0], character, *__ctype_tolower_loc()));
    return result;
}
