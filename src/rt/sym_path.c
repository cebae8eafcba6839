/*
 * sym_path.c - the path constraint: __culprit_sym_branch and
 * __culprit_sym_switch record which way an input-dependent branch went.
 *
 * A constraint names its site as (unit, block): the unit descriptor is
 * turned into its index in the registry when the constraint is recorded
 * (the registry's order is the dump's unit list, and an index outlives a
 * dlclose that replaces the descriptor by a copy).  Three limits keep the
 * path bounded (docs/symbolic.md §2): an identical constraint (same node,
 * same outcome, same site) is recorded once; a site keeps at most
 * CULPRIT_SYM_SITE_CAP distinct ones (SITE_CAP counts the rest); the run
 * keeps CULPRIT_SYM_MAX_CONSTRAINTS (CONSTRAINT_CAP).  A condition that
 * folded to a constant is not a constraint.
 *
 * A switch site's case values (__culprit_sym_switch_cases) are copied into
 * the case pool the first time the site records a constraint: the table
 * lives in the unit's constant data, which a dlclose may unmap before the
 * trailer is written.  They are checked first (count, order, width), since
 * the trailer's reader rejects a trailer whose switch section breaks them.
 */
#include <stdlib.h>

#include "rt/sym_internal.h"

static uint32_t hash_words(uint64_t x, uint64_t y, uint64_t z)
{
    uint64_t h = (x * 0x9e3779b97f4a7c15ull) ^ (y + 0x632be59bd9b4e019ull);
    h = (h ^ (h >> 29)) * 0xbf58476d1ce4e5b9ull;
    h ^= z * 0x94d049bb133111ebull;
    h = (h ^ (h >> 31)) * 0xbf58476d1ce4e5b9ull;
    return (uint32_t)(h ^ (h >> 32));
}

/* Searches the registry from the newest unit (constructors register in
 * order, the running code is usually the last registered); the cache makes
 * it one comparison after the first constraint of each unit. */
int culprit_rt_sym_unit_index(const void *unit, uint32_t *index)
{
    struct rt_sym_unit_cache_entry *entry =
        &culprit_rt_sym_state.unit_cache[((uintptr_t)unit >> 4) & (RT_SYM_UNIT_CACHE - 1)];
    if (unit && entry->unit == unit) {
        *index = entry->index;
        return 1;
    }
    for (uint32_t i = culprit_rt_units_published(); unit && i-- > 0;)
        if (culprit_rt_unit_at(i) == unit) {
            entry->unit = unit;
            entry->index = i;
            *index = i;
            return 1;
        }
    return 0;
}

int culprit_rt_sym_unit_index_locked(const void *unit, uint32_t *index)
{
    if (!culprit_rt_sym_lock())
        return 0;
    int found = culprit_rt_sym_unit_index(unit, index);
    culprit_rt_sym_unlock();
    return found;
}

static int same_constraint(const struct rt_sym_constraint *x, const struct rt_sym_constraint *y)
{
    return x->kind == y->kind && x->expression == y->expression && x->value == y->value &&
           x->site_unit == y->site_unit && x->block == y->block;
}

/* 1 when an identical constraint is recorded; else *slot is where it goes. */
static int is_duplicate(const struct rt_sym_constraint *wanted, uint32_t *slot)
{
    struct rt_sym_state *state = &culprit_rt_sym_state;
    uint32_t at = hash_words(wanted->expression, wanted->value ^ ((uint64_t)wanted->kind << 63),
                             (uintptr_t)wanted->site_unit ^ ((uint64_t)wanted->block << 40)) &
                  state->constraint_hash_mask;
    for (;; at = (at + 1) & state->constraint_hash_mask) {
        uint32_t number = state->constraint_hash[at];
        if (number == 0)
            break;
        if (same_constraint(&state->constraints[number - 1], wanted))
            return 1;
    }
    *slot = at;
    return 0;
}

/* The site's slot: its own, or the empty one where it goes (sites <=
 * constraints: the table is never full). */
static struct rt_sym_site *site_slot(const void *unit, uint32_t block)
{
    struct rt_sym_state *state = &culprit_rt_sym_state;
    uint32_t at = hash_words((uintptr_t)unit, block, 0) & state->site_mask;
    for (;; at = (at + 1) & state->site_mask) {
        struct rt_sym_site *site = &state->sites[at];
        if (site->unit == NULL || (site->unit == unit && site->block == block))
            return site;
    }
}

/* The site's counter, made when new. */
static struct rt_sym_site *site_of(const void *unit, uint32_t block)
{
    struct rt_sym_site *site = site_slot(unit, block);
    if (site->unit == NULL) {
        site->unit = unit;
        site->block = block;
    }
    return site;
}

struct rt_sym_site *culprit_rt_sym_site_find(const void *unit, uint32_t block)
{
    struct rt_sym_site *site = site_slot(unit, block);
    return site->unit ? site : NULL;
}

/* Whether cases is a table the trailer may carry for a switch of bits. */
static int cases_valid(const uint64_t *cases, uint32_t bits)
{
    if (!cases || cases[0] == 0 || cases[0] > CULPRIT_SYM_MAX_CASES)
        return 0;
    for (uint64_t i = 1; i <= cases[0]; i++)
        if ((bits < 64 && cases[i] >> bits) || (i > 1 && cases[i] <= cases[i - 1]))
            return 0;
    return 1;
}

/* Copies a switch site's case values into the pool, once. */
static void keep_cases(struct rt_sym_site *site, const uint64_t *cases, uint32_t bits)
{
    struct rt_sym_state *state = &culprit_rt_sym_state;
    if (site->case_count || !cases_valid(cases, bits) || RT_SYM_CASE_POOL - state->case_pool_used < cases[0])
        return;
    uint32_t count = (uint32_t)cases[0];
    for (uint32_t i = 0; i < count; i++)
        state->case_pool[state->case_pool_used + i] = cases[1 + i];
    site->cases_at = state->case_pool_used;
    atomic_thread_fence(memory_order_release); /* the trailer writer takes no lock */
    site->case_count = count;
    state->case_pool_used += count;
}

static void record_locked(struct rt_sym_constraint *wanted, const uint64_t *cases, uint32_t bits)
{
    struct rt_sym_state *state = &culprit_rt_sym_state;
    /* Trace mode keeps every constraint in order (the trace formula wants
     * each check's window whole) and leaves room for the violated specs. */
    uint32_t slot = 0;
    if (!state->trace && is_duplicate(wanted, &slot))
        return;
    uint32_t count = atomic_load_explicit(&state->constraint_count, memory_order_relaxed);
    if (count >= state->max_constraints - (state->trace ? RT_SYM_SPEC_RESERVE : 0)) {
        culprit_rt_sym_count(CULPRIT_SYM_STAT_CONSTRAINT_CAP);
        return;
    }
    struct rt_sym_site *site = site_of(wanted->site_unit, wanted->block);
    if (site->count >= state->site_cap && !state->trace) {
        culprit_rt_sym_count(CULPRIT_SYM_STAT_SITE_CAP);
        return;
    }
    site->count++;
    if (cases)
        keep_cases(site, cases, bits);
    state->constraints[count] = *wanted;
    if (!state->trace)
        state->constraint_hash[slot] = count + 1;
    atomic_store_explicit(&state->constraint_count, count + 1, memory_order_release);
    culprit_rt_sym_count(CULPRIT_SYM_STAT_CONSTRAINTS);
}

static void record(uint32_t kind, culprit_sym_expr expression, uint64_t value, const void *unit,
                   uint32_t block, const uint64_t *cases)
{
    uint64_t constant;
    if (culprit_rt_sym_is_const(expression, &constant))
        return;
    culprit_rt_sym_spec_after_violation();
    struct rt_sym_constraint wanted = {
        .kind = kind, .expression = expression, .block = block, .value = value, .site_unit = unit};
    if (!culprit_rt_sym_lock())
        return;
    if (culprit_rt_sym_unit_index(unit, &wanted.unit))
        record_locked(&wanted, cases, culprit_rt_sym_bits(expression));
    culprit_rt_sym_unlock();
}

void __culprit_sym_branch(culprit_sym_expr condition, uint32_t taken, const void *unit, uint32_t block)
{
    if (condition == 0 || !culprit_rt_sym_on())
        return;
    if (!culprit_rt_sym_valid(condition) || culprit_rt_sym_bits(condition) != 1) {
        culprit_rt_sym_count(CULPRIT_SYM_STAT_CONCRETIZED_OTHER);
        return;
    }
    record(CULPRIT_SYM_BRANCH, condition, taken != 0, unit, block, NULL);
}

static void record_switch(culprit_sym_expr condition, uint64_t value, uint32_t bits, const void *unit,
                          uint32_t block, const uint64_t *cases)
{
    if (condition == 0 || !culprit_rt_sym_on())
        return;
    if (!culprit_rt_sym_valid(condition) || bits == 0 || bits > 64 ||
        culprit_rt_sym_bits(condition) != bits) {
        culprit_rt_sym_count(CULPRIT_SYM_STAT_CONCRETIZED_OTHER);
        return;
    }
    record(CULPRIT_SYM_SWITCH, condition, bits >= 64 ? value : value & ((1ull << bits) - 1), unit, block,
           cases);
}

void __culprit_sym_switch(culprit_sym_expr condition, uint64_t value, uint32_t bits, const void *unit,
                          uint32_t block)
{
    record_switch(condition, value, bits, unit, block, NULL);
}

void __culprit_sym_switch_cases(culprit_sym_expr condition, uint64_t value, uint32_t bits, const void *unit,
                                uint32_t block, const uint64_t *cases)
{
    record_switch(condition, value, bits, unit, block, cases);
}

/* ---- checks (trace mode, docs/symbolic.md §6) ----
 * CULPRIT_REQUIRES, _ENSURES and _INVARIANT call __culprit_sym_spec_begin
 * before they evaluate their condition: the constraints and nodes made
 * from then on, up to the check, are the check's window, its own
 * evaluation (a repOk() that returns 0 from inside a loop has a concrete
 * result and only its branches).  A check that holds marks the end of an
 * operation: what the program did before it is the next operation's
 * pre-state, given, not suspect (SAT-TAR's formula is one method run on
 * its input structure).  A violated check records a SPEC constraint
 * (sym_format.h) naming both.  Checks nest (a repOk() that checks a
 * precondition): a small stack per thread, deeper checks share the
 * outermost window. */
enum {
    SPEC_WINDOW_DEPTH = 8,
    /* stores and branches the checks after a violation may record before
     * the run aborts anyway (a check walking a structure the fault made
     * cyclic would never end) */
    SPEC_AFTER_VIOLATION_LIMIT = 1000000
};
struct spec_mark {
    uint32_t constraints, nodes;
};
static __thread struct spec_mark spec_window[SPEC_WINDOW_DEPTH] __attribute__((tls_model("initial-exec")));
static __thread uint32_t spec_depth __attribute__((tls_model("initial-exec")));
static __thread struct spec_mark last_holding __attribute__((tls_model("initial-exec")));
/* Trace mode: a check was violated and the run goes on through the checks
 * that follow it (the rest of the operation's postcondition); events: the
 * stores and branches recorded since. */
static __thread int violated __attribute__((tls_model("initial-exec")));
static __thread uint32_t violated_events __attribute__((tls_model("initial-exec")));

void culprit_rt_sym_spec_after_violation(void)
{
    if (violated && (spec_depth == 0 || ++violated_events > SPEC_AFTER_VIOLATION_LIMIT))
        abort();
}

static struct spec_mark mark_now(void)
{
    struct rt_sym_state *state = &culprit_rt_sym_state;
    return (struct spec_mark){atomic_load_explicit(&state->constraint_count, memory_order_acquire),
                              atomic_load_explicit(&state->node_count, memory_order_acquire)};
}

void __culprit_sym_spec_begin(void)
{
    if (!culprit_rt_sym_on() || !culprit_rt_sym_state.trace)
        return;
    if (spec_depth < SPEC_WINDOW_DEPTH)
        spec_window[spec_depth] = mark_now();
    spec_depth++;
}

static void record_spec(culprit_sym_expr condition, struct spec_mark window)
{
    struct rt_sym_state *state = &culprit_rt_sym_state;
    if (!culprit_rt_sym_lock())
        return;
    uint32_t count = atomic_load_explicit(&state->constraint_count, memory_order_relaxed);
    if (count < state->max_constraints) { /* not deduplicated, no site cap: one per violation */
        state->constraints[count] = (struct rt_sym_constraint){
            .kind = CULPRIT_SYM_SPEC,
            .expression = condition,
            .unit = window.constraints,
            .block = window.nodes,
            .value = (uint64_t)last_holding.constraints << 32 | last_holding.nodes};
        atomic_store_explicit(&state->constraint_count, count + 1, memory_order_release);
        culprit_rt_sym_count(CULPRIT_SYM_STAT_CONSTRAINTS);
    } else {
        culprit_rt_sym_count(CULPRIT_SYM_STAT_CONSTRAINT_CAP);
    }
    culprit_rt_sym_unlock();
}

/* After a violation, a check that holds is recorded too (its condition
 * is part of what the formula asks to hold), unless its value is
 * concrete: then it constrains nothing.  A violated one always is (a
 * concrete condition: its window says why it failed). */
int culprit_rt_sym_spec_checked(culprit_sym_expr condition, int holds)
{
    if (!culprit_rt_sym_on() || !culprit_rt_sym_state.trace || spec_depth == 0)
        return 0;
    uint32_t depth = --spec_depth;
    struct spec_mark window = spec_window[depth < SPEC_WINDOW_DEPTH ? depth : SPEC_WINDOW_DEPTH - 1];
    if (holds && !violated) {
        if (depth == 0)
            last_holding = mark_now();
        return 0;
    }
    if (condition && !culprit_rt_sym_valid(condition))
        condition = 0;
    /* holds is an int: the check holds when it is not 0 */
    if (condition && culprit_rt_sym_bits(condition) != 1)
        condition = culprit_rt_sym_op2(CULPRIT_SYM_NE, condition,
                                       culprit_rt_sym_const(0, culprit_rt_sym_bits(condition)));
    uint64_t constant;
    if (condition && culprit_rt_sym_is_const(condition, &constant))
        condition = 0;
    if (!holds || condition)
        record_spec(condition, window);
    /* nested checks (a repOk() checking a precondition) abort as before:
     * only a whole check's violation is followed */
    if (!holds && depth == 0)
        violated = 1;
    return violated && depth == 0;
}
