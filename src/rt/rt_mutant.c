/*
 * rt_mutant.c - selecting the active mutant (culprit-cc --mutants;
 * docs/mutation.md §2).
 *
 * A unit built with --mutants has a slot that every mutated instruction
 * reads; 0 runs the program as written.  CULPRIT_MUTANT=<unit hash>:<N>
 * sets the slot of the unit with that hash to N, when 1 <= N <= the
 * unit's mutant_count; every other unit's slot, and every slot when the
 * value is malformed, stays or becomes 0.  The slot is set when the unit
 * registers (before main) and again in each test a fork server starts,
 * from the test's environment: the server's own is not the test's.
 * Nothing here allocates or writes but the slots.
 */
#include "rt/rt_internal.h"

#include <stdlib.h>

/* N, when value is "<this unit's hash>:<N>" with 1 <= N <= mutant_count; else 0. */
static uint32_t requested_mutant(const struct culprit_rt_unit *unit, const char *value)
{
    if (!value)
        return 0;
    for (int i = 0; i < CULPRIT_DUMP_HASH_SIZE; i++)
        if (value[i] != unit->hash[i]) /* also stops at the end of a short value */
            return 0;
    const char *digits = value + CULPRIT_DUMP_HASH_SIZE;
    if (*digits++ != ':')
        return 0;
    uint64_t number = 0;
    int count = 0;
    for (; *digits >= '0' && *digits <= '9' && count < 11; digits++, count++)
        number = number * 10 + (uint64_t)(*digits - '0');
    if (count == 0 || *digits != '\0' || number == 0 || number > unit->mutant_count)
        return 0;
    return (uint32_t)number;
}

void culprit_rt_mutant_select(struct culprit_rt_unit *unit, const char *value)
{
    if (unit->version != CULPRIT_RT_UNIT_VERSION || !unit->mutant)
        return;
    *unit->mutant = requested_mutant(unit, value);
}

void culprit_rt_mutants_select_all(void)
{
    const char *value = getenv("CULPRIT_MUTANT");
    uint32_t count = culprit_rt_units_published();
    for (uint32_t i = 0; i < count; i++)
        culprit_rt_mutant_select(culprit_rt_unit_at(i), value);
}
