/*
 * rt_units.c - the registry of instrumented units and the runtime's start.
 *
 * Each unit's constructor calls __culprit_rt_register(&descriptor).  The
 * first call reads the environment and, when collecting, installs the exit,
 * fork and signal handlers; every call then appends the unit to the table
 * and writes its map.  The table is chunks of RT_UNIT_CHUNK entries, the
 * first static and the others mapped as units arrive (a large program can
 * have thousands of units); nothing is ever freed or moved, so the dump can
 * read it from signal handlers.  Constructors normally run single-threaded,
 * but dlopen() can run them on any thread, hence the lock; readers never
 * take it: a unit becomes visible by the release-store of unit_count after
 * its slot, and its chunk, are filled.
 *
 * Each unit's destructor calls __culprit_rt_unregister(&descriptor).  When
 * dlclose() unloads the unit's object before this image has dumped, the
 * descriptor and counters are about to be unmapped: the unit's slot then
 * takes a copy the runtime owns (retire_unit), with the counts so far, so
 * the dump at exit still has the library's hits and reads no freed memory.
 * A reloaded library registers again, in a new slot, under the same hash;
 * the collector adds the two up.
 *
 * Registration also sets the unit's active-mutant slot (rt_mutant.c).
 *
 * It also answers the dump's questions about the units: which (unit,
 * counter) a shadow-stack address names, completing implied hits, and
 * zeroing all counters (after fork and after a failed exec).
 */
#include "rt/rt_internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int is_hex_digit(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* Entries of the unit's counters array: in lines mode from version 4 on,
 * the blocks' flags and then the edges' (flag_count). */
static uint32_t counter_slots(const struct culprit_rt_unit *unit)
{
    if ((unit->version == CULPRIT_RT_UNIT_VERSION || unit->version == CULPRIT_RT_UNIT_VERSION_4) &&
        unit->mode == CULPRIT_RT_MODE_LINES)
        return unit->flag_count;
    return unit->counter_count;
}

/* Every implied pair must name a block of the unit and a source among its
 * flags: applying one past them at a dump would write or read outside the
 * flags. */
static int implied_pairs_are_valid(const struct culprit_rt_unit *unit)
{
    if (unit->version == CULPRIT_RT_UNIT_VERSION_1 || unit->implied_count == 0)
        return 1;
    if (!unit->implied || unit->mode != CULPRIT_RT_MODE_LINES)
        return 0;
    for (uint64_t k = 0; k < unit->implied_count; k++)
        if (unit->implied[2 * k] >= unit->block_count || unit->implied[2 * k + 1] >= counter_slots(unit))
            return 0;
    return 1;
}

/* Only descriptors this runtime can dump are registered: a malformed one
 * would otherwise corrupt every dump of the program. */
static int unit_is_valid(const struct culprit_rt_unit *unit)
{
    if (!unit || (unit->version != CULPRIT_RT_UNIT_VERSION && unit->version != CULPRIT_RT_UNIT_VERSION_4 &&
                  unit->version != CULPRIT_RT_UNIT_VERSION_3 && unit->version != CULPRIT_RT_UNIT_VERSION_2 &&
                  unit->version != CULPRIT_RT_UNIT_VERSION_1))
        return 0;
    if (unit->mode != CULPRIT_RT_MODE_FULL && unit->mode != CULPRIT_RT_MODE_LINES)
        return 0;
    if (unit->block_count > unit->counter_count || unit->counter_count > counter_slots(unit) ||
        (counter_slots(unit) && !unit->counters))
        return 0;
    if (!implied_pairs_are_valid(unit))
        return 0;
    if (!unit->hash)
        return 0;
    for (int i = 0; i < CULPRIT_DUMP_HASH_SIZE; i++)
        if (!is_hex_digit(unit->hash[i]))
            return 0;
    return unit->hash[CULPRIT_DUMP_HASH_SIZE] == '\0';
}

struct culprit_rt_unit *culprit_rt_unit_at(uint32_t index)
{
    if (index < RT_UNIT_CHUNK)
        return culprit_rt_state.first_units[index];
    struct culprit_rt_unit **chunk =
        atomic_load_explicit(&culprit_rt_state.unit_chunks[index / RT_UNIT_CHUNK], memory_order_acquire);
    return chunk[index % RT_UNIT_CHUNK];
}

static int unit_is_registered(const struct culprit_rt_unit *unit, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++)
        if (culprit_rt_unit_at(i) == unit)
            return 1;
    return 0;
}

/* The slot of unit index (under register_lock), mapping its chunk, and a
 * sorting array for as many units, the first time; NULL when the table is
 * full or memory is short (the unit is then not collected). */
static struct culprit_rt_unit **unit_slot(uint32_t index)
{
    if (index < RT_UNIT_CHUNK)
        return &culprit_rt_state.first_units[index];
    uint32_t chunk_index = index / RT_UNIT_CHUNK;
    if (chunk_index >= RT_UNIT_CHUNKS)
        return NULL;
    struct culprit_rt_unit **chunk =
        atomic_load_explicit(&culprit_rt_state.unit_chunks[chunk_index], memory_order_relaxed);
    if (!chunk) {
        size_t capacity = (size_t)(chunk_index + 1) * RT_UNIT_CHUNK;
        uint32_t *sorted = culprit_rt_map_zeroed(capacity * sizeof *sorted);
        chunk = culprit_rt_map_zeroed(RT_UNIT_CHUNK * sizeof *chunk);
        if (!sorted || !chunk) {
            if (sorted)
                munmap(sorted, capacity * sizeof *sorted);
            if (chunk)
                munmap(chunk, RT_UNIT_CHUNK * sizeof *chunk);
            return NULL;
        }
        /* The old sorting array stays mapped: a dump may be reading it. */
        atomic_store_explicit(&culprit_rt_state.sorted_units, sorted, memory_order_release);
        atomic_store_explicit(&culprit_rt_state.unit_chunks[chunk_index], chunk, memory_order_release);
    }
    return &chunk[index % RT_UNIT_CHUNK];
}

/* Runs once, under register_lock, before the first unit is added.  The
 * handlers are installed only after collecting and dir are final, so no
 * handler ever sees them change. */
static void start_runtime(void)
{
    culprit_rt_state.initialised = 1;
    if (!culprit_rt_env_read())
        return;
    culprit_rt_state.pid = getpid();
    culprit_rt_state.parent_pid = getppid();
    atomic_store(&culprit_rt_state.collecting, 1);
    culprit_rt_exit_install();
    culprit_rt_fork_install();
    culprit_rt_signals_install();
}

void __culprit_rt_register(struct culprit_rt_unit *unit)
{
    if (!unit_is_valid(unit))
        return;
    culprit_rt_mutant_select(unit, getenv("CULPRIT_MUTANT")); /* before any of its code runs */
    pthread_mutex_lock(&culprit_rt_state.register_lock);
    if (!culprit_rt_state.initialised)
        start_runtime();
    uint32_t count = atomic_load_explicit(&culprit_rt_state.unit_count, memory_order_relaxed);
    struct culprit_rt_unit **slot = unit_is_registered(unit, count) ? NULL : unit_slot(count);
    int added = slot != NULL;
    if (added) {
        *slot = unit;
        atomic_store_explicit(&culprit_rt_state.unit_count, count + 1, memory_order_release);
    }
    pthread_mutex_unlock(&culprit_rt_state.register_lock);
    if (added && atomic_load(&culprit_rt_state.collecting))
        culprit_rt_write_map(unit);
}

uint32_t culprit_rt_units_published(void)
{
    return atomic_load_explicit(&culprit_rt_state.unit_count, memory_order_acquire);
}

static size_t counter_size(const struct culprit_rt_unit *unit)
{
    return unit->mode == CULPRIT_RT_MODE_FULL ? sizeof(uint64_t) : sizeof(uint8_t);
}

/* Not async-signal-safe by need: called after fork (in the child, which has
 * a single thread) and after a failed exec. */
void culprit_rt_units_zero_counters(void)
{
    uint32_t count = culprit_rt_units_published();
    for (uint32_t i = 0; i < count; i++) {
        const struct culprit_rt_unit *unit = culprit_rt_unit_at(i);
        memset(unit->counters, 0, (size_t)counter_slots(unit) * counter_size(unit));
    }
}

/* Sets the flags of the blocks that have none of their own (descriptor's
 * `implied`) from their sources', until a pass sets none: a function's
 * entry can follow from a call site in a function later in the list
 * (docs/collector.md §1), so one pass in list order is not always enough.
 * Every pass but the last sets a flag, so there are at most block_count + 1.
 * Only ever sets flags of blocks that ran, so doing it again at a later
 * dump, or while threads run, is harmless.  Async-signal-safe. */
void culprit_rt_unit_complete_hits(const struct culprit_rt_unit *unit)
{
    if (unit->version == CULPRIT_RT_UNIT_VERSION_1 || unit->mode != CULPRIT_RT_MODE_LINES)
        return;
    volatile uint8_t *flags = unit->counters;
    int changed = 1;
    while (changed) {
        changed = 0;
        for (uint32_t k = 0; k < unit->implied_count; k++)
            if (flags[unit->implied[2 * k + 1]] && !flags[unit->implied[2 * k]]) {
                flags[unit->implied[2 * k]] = 1;
                changed = 1;
            }
    }
}

/* A retired unit: the descriptor, its hash and its counters, in one
 * mapping the runtime owns.  Version 1: no implied pairs (they were
 * applied before the copy), no map (it was written at registration). */
struct rt_retired_unit {
    struct culprit_rt_unit unit;
    char hash[CULPRIT_DUMP_HASH_SIZE + 1];
};

/* When even the copy cannot be mapped: a unit with no counters whose hash
 * names no map, so the test is recorded with unreadable coverage instead
 * of the dump reading unmapped memory. */
static char lost_hash[CULPRIT_DUMP_HASH_SIZE + 1] =
    "0000000000000000000000000000000000000000000000000000000000000000";
static struct culprit_rt_unit lost_unit = {
    .version = CULPRIT_RT_UNIT_VERSION_1, .mode = CULPRIT_RT_MODE_LINES, .hash = lost_hash};

static struct culprit_rt_unit *retired_copy(const struct culprit_rt_unit *unit)
{
    size_t counters_size = (size_t)unit->counter_count * counter_size(unit);
    struct rt_retired_unit *copy = culprit_rt_map_zeroed(sizeof *copy + counters_size);
    if (!copy)
        return &lost_unit;
    culprit_rt_unit_complete_hits(unit);
    void *counters = copy + 1; /* the struct's size keeps its 8-byte alignment */
    memcpy(counters, unit->counters, counters_size);
    memcpy(copy->hash, unit->hash, CULPRIT_DUMP_HASH_SIZE);
    copy->unit = (struct culprit_rt_unit){.version = CULPRIT_RT_UNIT_VERSION_1,
                                          .mode = unit->mode,
                                          .counter_count = unit->counter_count,
                                          .block_count = unit->block_count,
                                          .counters = counters,
                                          .hash = copy->hash};
    return &copy->unit;
}

/* The slot holding unit, searched from the newest: destructors run in the
 * reverse order of the constructors, so at exit each is found at once. */
static struct culprit_rt_unit **registered_slot(const struct culprit_rt_unit *unit)
{
    for (uint32_t i = culprit_rt_units_published(); i-- > 0;) {
        struct culprit_rt_unit **slot =
            i < RT_UNIT_CHUNK ? &culprit_rt_state.first_units[i]
                              : &atomic_load_explicit(&culprit_rt_state.unit_chunks[i / RT_UNIT_CHUNK],
                                                      memory_order_acquire)[i % RT_UNIT_CHUNK];
        if (*slot == unit)
            return slot;
    }
    return NULL;
}

/* Nothing to do once this image has dumped (the normal exit: on_exit runs
 * before the destructors) or when not collecting (nothing will read the
 * unit).  Otherwise the object is being unloaded while the program goes
 * on, and its slot takes a copy.  A dump on another thread at this very
 * moment may still read the old descriptor, which is mapped until the
 * destructors return. */
void __culprit_rt_unregister(struct culprit_rt_unit *unit)
{
    if (!atomic_load(&culprit_rt_state.collecting) ||
        atomic_load(&culprit_rt_state.dump_phase) == RT_DUMP_DONE)
        return;
    pthread_mutex_lock(&culprit_rt_state.register_lock);
    struct culprit_rt_unit **slot = registered_slot(unit);
    if (slot)
        *slot = retired_copy(unit);
    pthread_mutex_unlock(&culprit_rt_state.register_lock);
}

static uintptr_t counters_base(uint32_t unit)
{
    return (uintptr_t)culprit_rt_unit_at(unit)->counters;
}

/* The sorting array, which has room for every published unit. */
static uint32_t *sorted_units(void)
{
    uint32_t *mapped = atomic_load_explicit(&culprit_rt_state.sorted_units, memory_order_acquire);
    return mapped ? mapped : culprit_rt_state.first_sorted;
}

/* Fills the sorting array with the full-mode units (the only ones with a
 * shadow stack) in ascending counter address.  Insertion sort into memory
 * mapped beforehand: no allocation, async-signal-safe, and units usually
 * arrive almost sorted. */
void culprit_rt_units_sort_by_address(uint32_t count)
{
    uint32_t *sorted = sorted_units(); /* loaded after count was published: room for count */
    uint32_t sorted_count = 0;
    for (uint32_t i = 0; i < count; i++) {
        const struct culprit_rt_unit *unit = culprit_rt_unit_at(i);
        if (unit->mode != CULPRIT_RT_MODE_FULL || unit->block_count == 0)
            continue;
        uint32_t at = sorted_count++;
        while (at > 0 && counters_base(sorted[at - 1]) > (uintptr_t)unit->counters) {
            sorted[at] = sorted[at - 1];
            at--;
        }
        sorted[at] = i;
    }
    culprit_rt_state.sorted_in = sorted;
    culprit_rt_state.sorted_count = sorted_count;
}

/* Maps a shadow-stack entry (the address of a block counter) to its unit
 * index and block counter; 0 for anything else (a stale or zero entry).
 * Binary search over the array culprit_rt_units_sort_by_address filled (not
 * a newer one a registration may have mapped since, still empty). */
int culprit_rt_units_resolve(uintptr_t address, uint32_t *unit, uint32_t *counter)
{
    const uint32_t *sorted = culprit_rt_state.sorted_in;
    if (!sorted)
        return 0;
    uint32_t low = 0, high = culprit_rt_state.sorted_count; /* first base > address is in [low, high] */
    while (low < high) {
        uint32_t middle = low + (high - low) / 2;
        if (counters_base(sorted[middle]) <= address)
            low = middle + 1;
        else
            high = middle;
    }
    if (low == 0)
        return 0;
    uint32_t index = sorted[low - 1];
    uintptr_t offset = address - counters_base(index);
    if (offset % sizeof(uint64_t) != 0 || offset / sizeof(uint64_t) >= culprit_rt_unit_at(index)->block_count)
        return 0;
    *unit = index;
    *counter = (uint32_t)(offset / sizeof(uint64_t));
    return 1;
}
