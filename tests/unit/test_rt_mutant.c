/*
 * test_rt_mutant.c - the runtime's choice of the active mutant
 * (src/rt/rt_mutant.c, docs/mutation.md §2): registering a version 5
 * descriptor sets its slot from CULPRIT_MUTANT="<hash>:<N>" when the hash
 * is the unit's and 1 <= N <= mutant_count, and to 0 for anything else; a
 * version 4 descriptor (which has no slot) is left alone.  Registering the
 * same descriptor again selects again, as a fork server's test does.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rt/culprit_rt.h"

#define HASH "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

static uint64_t counters[2];
static uint32_t slot, old_slot;

static struct culprit_rt_unit unit = {.version = CULPRIT_RT_UNIT_VERSION,
                                      .mode = CULPRIT_RT_MODE_FULL,
                                      .counter_count = 2,
                                      .block_count = 2,
                                      .counters = counters,
                                      .hash = HASH,
                                      .mutant = &slot,
                                      .mutant_count = 12};

/* A version 4 unit whose bytes past flag_count happen to look like a slot. */
static struct culprit_rt_unit old_unit = {.version = 4,
                                          .mode = CULPRIT_RT_MODE_FULL,
                                          .counter_count = 2,
                                          .block_count = 2,
                                          .counters = counters,
                                          .hash = HASH,
                                          .mutant = &old_slot,
                                          .mutant_count = 12};

/* The slot after registering with CULPRIT_MUTANT=value (NULL: unset). */
static uint32_t selected(const char *value)
{
    slot = 99; /* something no selection leaves */
    if (value)
        setenv("CULPRIT_MUTANT", value, 1);
    else
        unsetenv("CULPRIT_MUTANT");
    __culprit_rt_register(&unit);
    return slot;
}

int main(void)
{
    unsetenv("CULPRIT_COLLECT_DIR");
    CHECK_INT(selected(HASH ":1"), 1);
    CHECK_INT(selected(HASH ":12"), 12);
    CHECK_INT(selected(HASH ":7"), 7);
    CHECK_INT(selected(NULL), 0);
    CHECK_INT(selected(""), 0);
    CHECK_INT(selected(HASH ":13"), 0); /* past mutant_count */
    CHECK_INT(selected(HASH ":0"), 0);  /* the program itself */
    CHECK_INT(selected(HASH ":"), 0);
    CHECK_INT(selected(HASH ":3x"), 0);
    CHECK_INT(selected(HASH ":-3"), 0);
    CHECK_INT(selected(HASH ":99999999999999999999"), 0);
    CHECK_INT(selected(HASH "3"), 0);
    CHECK_INT(selected("1123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef:3"),
              0); /* another unit */
    CHECK_INT(selected("0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef:3"), 0);
    CHECK_INT(selected("0123:3"), 0);
    CHECK_INT(selected("3"), 0);
    setenv("CULPRIT_MUTANT", HASH ":5", 1);
    __culprit_rt_register(&old_unit);
    CHECK_INT(old_slot, 0);
    return check_report("test_rt_mutant");
}
