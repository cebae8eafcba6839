/*
 * sym_state.c - the symbolic half's state and start: CULPRIT_SYM and the
 * caps read once from the environment, the tables mapped once, the lock,
 * the statistics, and the thread's call area (culprit_sym.h).
 *
 * Symbolic execution starts at the first builder or wrapper call, or at
 * __culprit_rt_start_main, whichever comes first: in a fork-server test
 * process the environment is the test's only once main is next, and the
 * program's own code (which is what calls builders) runs after that.
 * Without CULPRIT_SYM=1 nothing is mapped, every entry point returns
 * at once, and __culprit_sym_active goes to 0: the instrumented functions
 * then run their twins (src/cc/symbolic_twin.c), a full-mode build's code.
 */
#include "rt/sym_internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

__thread struct culprit_sym_call_area __culprit_sym_call __attribute__((tls_model("initial-exec")));

/* 1 until CULPRIT_SYM is known to be off (culprit_sym.h): code that runs
 * before then takes the instrumented path, whose builders start us. */
_Atomic unsigned char __culprit_sym_active = 1;

/* Set while this thread holds the lock: a re-entry (signal handler) must
 * not spin on a lock its own thread holds. */
static __thread int holding_lock __attribute__((tls_model("initial-exec")));

struct rt_sym_state culprit_rt_sym_state = {
    .start_lock = PTHREAD_MUTEX_INITIALIZER,
    .lock = ATOMIC_FLAG_INIT,
    .stdin_source = -1,
};

void *culprit_rt_sym_map(size_t size)
{
    void *memory =
        mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return memory == MAP_FAILED ? NULL : memory;
}

int culprit_rt_sym_lock(void)
{
    if (holding_lock)
        return 0;
    while (atomic_flag_test_and_set_explicit(&culprit_rt_sym_state.lock, memory_order_acquire))
        ;
    holding_lock = 1;
    return 1;
}

void culprit_rt_sym_unlock(void)
{
    holding_lock = 0;
    atomic_flag_clear_explicit(&culprit_rt_sym_state.lock, memory_order_release);
}

void culprit_rt_sym_after_fork(void)
{
    holding_lock = 0;
    atomic_flag_clear_explicit(&culprit_rt_sym_state.lock, memory_order_release);
}

void culprit_rt_sym_count(enum culprit_sym_stat stat)
{
    atomic_fetch_add_explicit(&culprit_rt_sym_state.stats[stat], 1, memory_order_relaxed);
}

/* A positive decimal cap from the environment, clamped to limit; fallback
 * when unset or malformed. */
static uint32_t env_cap(const char *name, uint32_t fallback, uint32_t limit)
{
    const char *text = getenv(name);
    if (!text || !*text)
        return fallback;
    char *end;
    unsigned long long value = strtoull(text, &end, 10);
    if (*end || value == 0 || text[0] == '-')
        return fallback;
    return value > limit ? limit : (uint32_t)value;
}

static uint32_t power_of_two_above(uint64_t count)
{
    uint32_t size = 16;
    while (size < count)
        size *= 2;
    return size;
}

/* Maps every table; 0 when memory is short (symbolic execution stays off). */
static int map_tables(struct rt_sym_state *state)
{
    uint64_t node_slots = power_of_two_above(2ull * state->max_nodes);
    uint64_t constraint_slots = power_of_two_above(2ull * state->max_constraints);
    state->nodes = culprit_rt_sym_map(((size_t)state->max_nodes + 1) * sizeof *state->nodes);
    state->node_hash = culprit_rt_sym_map(node_slots * sizeof *state->node_hash);
    state->renumber = culprit_rt_sym_map(((size_t)state->max_nodes + 1) * sizeof *state->renumber);
    state->constraints = culprit_rt_sym_map((size_t)state->max_constraints * sizeof *state->constraints);
    state->constraint_hash = culprit_rt_sym_map(constraint_slots * sizeof *state->constraint_hash);
    state->sites = culprit_rt_sym_map(constraint_slots * sizeof *state->sites);
    state->top = culprit_rt_sym_map((size_t)65536 * sizeof *state->top);
    state->names = culprit_rt_sym_map(RT_SYM_NAMES_SIZE);
    state->case_pool = culprit_rt_sym_map((size_t)RT_SYM_CASE_POOL * sizeof *state->case_pool);
    if (!state->nodes || !state->node_hash || !state->renumber || !state->constraints ||
        !state->constraint_hash || !state->sites || !state->top || !state->names || !state->case_pool)
        return 0;
    state->node_hash_mask = (uint32_t)node_slots - 1;
    state->constraint_hash_mask = (uint32_t)constraint_slots - 1;
    state->site_mask = (uint32_t)constraint_slots - 1;
    atomic_store(&state->node_count, 1); /* node 0 is "concrete" */
    return 1;
}

static int read_environment(struct rt_sym_state *state)
{
    const char *on = getenv("CULPRIT_SYM");
    if (!on || strcmp(on, "1") != 0)
        return 0;
    state->max_nodes = env_cap("CULPRIT_SYM_MAX_NODES", RT_SYM_DEFAULT_MAX_NODES, RT_SYM_LIMIT_NODES);
    state->max_constraints =
        env_cap("CULPRIT_SYM_MAX_CONSTRAINTS", RT_SYM_DEFAULT_MAX_CONSTRAINTS, RT_SYM_LIMIT_CONSTRAINTS);
    state->site_cap = env_cap("CULPRIT_SYM_SITE_CAP", RT_SYM_DEFAULT_SITE_CAP, RT_SYM_LIMIT_CONSTRAINTS);
    state->table_cap = env_cap("CULPRIT_SYM_TABLE_CAP", RT_SYM_DEFAULT_TABLE_CAP, RT_SYM_LIMIT_TABLE_CAP);
    const char *trace_on = getenv("CULPRIT_SYM_TRACE");
    state->trace = trace_on && strcmp(trace_on, "1") == 0;
    if (state->trace && state->max_constraints <= RT_SYM_SPEC_RESERVE)
        state->max_constraints = RT_SYM_SPEC_RESERVE + 1;
    const char *argv_on = getenv("CULPRIT_SYM_ARGV");
    state->argv_symbolic = argv_on && strcmp(argv_on, "1") == 0;
    return map_tables(state);
}

int culprit_rt_sym_start(void)
{
    struct rt_sym_state *state = &culprit_rt_sym_state;
    pthread_mutex_lock(&state->start_lock);
    if (atomic_load(&state->mode) == RT_SYM_UNREAD) {
        int on = read_environment(state);
        if (on)
            culprit_rt_sym_sources_start();
        atomic_store_explicit(&state->mode, on ? RT_SYM_ON : RT_SYM_OFF, memory_order_release);
        if (!on) /* from now on instrumented functions run their uninstrumented twins */
            atomic_store_explicit(&__culprit_sym_active, 0, memory_order_relaxed);
    }
    pthread_mutex_unlock(&state->start_lock);
    return atomic_load(&state->mode) == RT_SYM_ON;
}

void __culprit_sym_call_returned(void)
{
    if (__culprit_sym_call.callee) {
        if (culprit_rt_sym_on())
            culprit_rt_sym_count(CULPRIT_SYM_STAT_CONCRETIZED_CALL);
        __culprit_sym_call.callee = NULL;
    }
}

void __culprit_sym_concretize(culprit_sym_expr value, uint32_t kind)
{
    if (value == 0 || kind >= CULPRIT_SYM_STAT_COUNT || !culprit_rt_sym_on())
        return;
    culprit_rt_sym_count((enum culprit_sym_stat)kind);
}

void culprit_rt_sym_enter(const void *self, culprit_sym_expr *args, int count)
{
    struct culprit_sym_call_area *area = &__culprit_sym_call;
    int taken = area->callee == self;
    for (int i = 0; i < count; i++)
        args[i] = taken && i < CULPRIT_SYM_MAX_ARGS ? area->args[i] : 0;
    area->callee = NULL;
    area->ret = 0;
}

void culprit_rt_sym_return(culprit_sym_expr value)
{
    __culprit_sym_call.ret = value;
    __culprit_sym_call.callee = NULL;
}

culprit_sym_expr culprit_rt_sym_argument(const void *self, int index)
{
    struct culprit_sym_call_area *area = &__culprit_sym_call;
    if (area->callee != self || index < 0 || index >= CULPRIT_SYM_MAX_ARGS)
        return 0;
    area->callee = NULL;
    return area->args[index];
}
