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
 */
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

/* The site's counter, made when new (sites <= constraints: never full). */
static struct rt_sym_site *site_of(const void *unit, uint32_t block)
{
    struct rt_sym_state *state = &culprit_rt_sym_state;
    uint32_t at = hash_words((uintptr_t)unit, block, 0) & state->site_mask;
    for (;; at = (at + 1) & state->site_mask) {
        struct rt_sym_site *site = &state->sites[at];
        if (site->unit == NULL) {
            site->unit = unit;
            site->block = block;
            return site;
        }
        if (site->unit == unit && site->block == block)
            return site;
    }
}

static void record_locked(struct rt_sym_constraint *wanted)
{
    struct rt_sym_state *state = &culprit_rt_sym_state;
    uint32_t slot;
    if (is_duplicate(wanted, &slot))
        return;
    uint32_t count = atomic_load_explicit(&state->constraint_count, memory_order_relaxed);
    if (count >= state->max_constraints) {
        culprit_rt_sym_count(CULPRIT_SYM_STAT_CONSTRAINT_CAP);
        return;
    }
    struct rt_sym_site *site = site_of(wanted->site_unit, wanted->block);
    if (site->count >= state->site_cap) {
        culprit_rt_sym_count(CULPRIT_SYM_STAT_SITE_CAP);
        return;
    }
    site->count++;
    state->constraints[count] = *wanted;
    state->constraint_hash[slot] = count + 1;
    atomic_store_explicit(&state->constraint_count, count + 1, memory_order_release);
    culprit_rt_sym_count(CULPRIT_SYM_STAT_CONSTRAINTS);
}

static void record(uint32_t kind, culprit_sym_expr expression, uint64_t value, const void *unit,
                   uint32_t block)
{
    uint64_t constant;
    if (culprit_rt_sym_is_const(expression, &constant))
        return;
    struct rt_sym_constraint wanted = {
        .kind = kind, .expression = expression, .block = block, .value = value, .site_unit = unit};
    if (!culprit_rt_sym_lock())
        return;
    if (culprit_rt_sym_unit_index(unit, &wanted.unit))
        record_locked(&wanted);
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
    record(CULPRIT_SYM_BRANCH, condition, taken != 0, unit, block);
}

void __culprit_sym_switch(culprit_sym_expr condition, uint64_t value, uint32_t bits, const void *unit,
                          uint32_t block)
{
    if (condition == 0 || !culprit_rt_sym_on())
        return;
    if (!culprit_rt_sym_valid(condition) || bits == 0 || bits > 64 ||
        culprit_rt_sym_bits(condition) != bits) {
        culprit_rt_sym_count(CULPRIT_SYM_STAT_CONCRETIZED_OTHER);
        return;
    }
    record(CULPRIT_SYM_SWITCH, condition, bits >= 64 ? value : value & ((1ull << bits) - 1), unit, block);
}
