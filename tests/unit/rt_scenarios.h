/*
 * rt_scenarios.h - what the runtime's tests (test_rt.c, test_rt_output.c)
 * run in their child processes: two hand-made units (A full mode, B lines
 * mode) with their maps, counters and descriptors, the scenarios that
 * increment them and end in every way a process can, and run_scenario,
 * which a test binary calls when exec'd as "PROGRAM scenario NAME".  Each
 * binary includes it once; unused parts are fine (the pragmas).
 */
#ifndef CULPRIT_TEST_RT_SCENARIOS_H
#define CULPRIT_TEST_RT_SCENARIOS_H

#include "check.h"
#include "culprit/dump_format.h"
#include "rt/culprit_rt.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

extern char **environ;

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-variable"

/* ---- the two hand-made units: A full mode, B lines mode ---- */

#define HASH_A "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1"
#define HASH_B "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb2"
enum { A_COUNTERS = 8, A_BLOCKS = 6, B_COUNTERS = 4, B_BLOCKS = 4, B_FLAGS = 5 };

static const char map_a[] = "culprit-map\t1\n"
                            "unit\t" HASH_A "\tfull\t8\t6\n"
                            "file\t0\t/src/a.c\n"
                            "function\t0\tmain\t0\t1\n"
                            "block\t0\t0\t0\t1\t1\t2\t5\n"
                            "block\t1\t0\t0\t3\t1\t3\t9\n"
                            "block\t2\t0\t0\t4\t1\t4\t9\n"
                            "block\t3\t0\t0\t5\t1\t5\t9\n"
                            "block\t4\t0\t0\t6\t1\t6\t9\n"
                            "block\t5\t0\t0\t7\t1\t7\t9\n"
                            "line\t0\t1\t0\n"
                            "edge\t6\t0\t1\n"
                            "edge\t7\t0\t2\n"
                            "branch\t6\t0\t1\t5\ttrue\t0\n"
                            "branch\t7\t0\t1\t5\tfalse\t0\n"
                            "end\n";
static const char map_b[] = "culprit-map\t1\n"
                            "unit\t" HASH_B "\tlines\t4\t4\n"
                            "file\t0\t/src/b c.c\n"
                            "function\t0\thelper\t0\t1\n"
                            "block\t0\t0\t0\t1\t1\t1\t9\n"
                            "block\t1\t0\t0\t2\t1\t2\t9\n"
                            "block\t2\t0\t0\t3\t1\t3\t9\n"
                            "block\t3\t0\t0\t4\t1\t4\t9\n"
                            "line\t0\t2\t1\n"
                            "end\n";

static uint64_t counters_a[A_COUNTERS];
static uint8_t counters_b[B_FLAGS];
/* unit_a is a version 1 descriptor, which ends before `implied`. */
static struct culprit_rt_unit unit_a = {.version = 1,
                                        .mode = CULPRIT_RT_MODE_FULL,
                                        .counter_count = A_COUNTERS,
                                        .block_count = A_BLOCKS,
                                        .counters = counters_a,
                                        .map = map_a,
                                        .map_size = sizeof map_a - 1,
                                        .hash = HASH_A};
/* Block 2 has no flag: it was hit if block 3 was; block 0 if block 2 was.
 * The chain is listed backwards, as a function entry implied by a call in
 * a later function is (docs/collector.md §1): one pass in list order would
 * leave block 0 unset.  Block 1 takes its hit from flag 4, an edge's, which
 * no dump shows.  A run that sets flags 3 and 4 dumps all four blocks. */
static const uint32_t implied_b[] = {0, 2, 2, 3, 1, 4};
static struct culprit_rt_unit unit_b = {.version = CULPRIT_RT_UNIT_VERSION,
                                        .mode = CULPRIT_RT_MODE_LINES,
                                        .counter_count = B_COUNTERS,
                                        .block_count = B_BLOCKS,
                                        .counters = counters_b,
                                        .map = map_b,
                                        .map_size = sizeof map_b - 1,
                                        .hash = HASH_B,
                                        .implied = implied_b,
                                        .implied_count = 3,
                                        .flag_count = B_FLAGS};
/* Not a valid hash: the runtime must ignore this unit. */
static uint64_t counters_bad[2];
static struct culprit_rt_unit unit_bad = {.version = 1,
                                          .mode = CULPRIT_RT_MODE_FULL,
                                          .counter_count = 2,
                                          .block_count = 2,
                                          .counters = counters_bad,
                                          .map = "",
                                          .map_size = 0,
                                          .hash = "xyz"};
/* An implied pair reading a flag past flag_count: ignored too, or its dump would read out of bounds. */
static uint8_t counters_bad_pairs[2];
static const uint32_t implied_bad[] = {1, 0, 0, 2};
static struct culprit_rt_unit unit_bad_pairs = {.version = CULPRIT_RT_UNIT_VERSION,
                                                .mode = CULPRIT_RT_MODE_LINES,
                                                .counter_count = 2,
                                                .block_count = 2,
                                                .counters = counters_bad_pairs,
                                                .map = map_b,
                                                .map_size = sizeof map_b - 1,
                                                .hash = HASH_A,
                                                .implied = implied_bad,
                                                .implied_count = 2,
                                                .flag_count = 2};
/* An implied pair setting an edge's flag, not a block's: ignored as well. */
static uint8_t counters_bad_node[3];
static const uint32_t implied_bad_node[] = {2, 0};
static struct culprit_rt_unit unit_bad_node = {.version = CULPRIT_RT_UNIT_VERSION,
                                               .mode = CULPRIT_RT_MODE_LINES,
                                               .counter_count = 2,
                                               .block_count = 2,
                                               .counters = counters_bad_node,
                                               .map = map_b,
                                               .map_size = sizeof map_b - 1,
                                               .hash = HASH_A,
                                               .implied = implied_bad_node,
                                               .implied_count = 1,
                                               .flag_count = 3};

/* A shadow-stack frame naming counters[block]. */
static struct culprit_rt_frame frame_in(uint64_t *counters, uint32_t block)
{
    return (struct culprit_rt_frame){.counters = (uintptr_t)counters, .block = block};
}

/* Plays the instrumented code's "block entry" in a function at depth. */
static void enter_block(uint32_t depth, uint32_t block)
{
    __culprit_rt_shadow.depth = depth;
    __culprit_rt_shadow.stack[depth & 63] = frame_in(counters_a, block);
    counters_a[block]++;
}

/* ---- scenarios, run in the child ---- */

/* Counts A = {3,0,1,0,0,0,5,0}, B flags 4 and 3 (implying 1, 2 and 0), stack (A2, A0); exits 7. */
static int scenario_exit(void)
{
    enter_block(1, 0);
    counters_a[0] += 2;
    enter_block(2, 2);
    counters_a[6] += 5;
    counters_b[4] = 1;
    counters_b[3] = 1;
    return 7;
}

static int scenario_underscore_exit(void)
{
    enter_block(1, 1);
    counters_a[7] += 4;
    __culprit_rt__exit(3);
}

/* A crash three frames deep: (A4, A2, A0). */
static void set_crash_stack(void)
{
    enter_block(1, 0);
    enter_block(2, 2);
    enter_block(3, 4);
}

static int scenario_segv(void)
{
    set_crash_stack();
    int *volatile nowhere = (int *)16; /* not NULL: UBSan would catch that one first */
    *nowhere = 1;
    return 0;
}

static volatile unsigned long recursion_limit = ~0ul;

static unsigned long recurse(unsigned long level)
{
    volatile char frame[256];
    frame[0] = (char)level;
    if (level >= recursion_limit)
        return level;
    return recurse(level + 1) + frame[0];
}

static int scenario_overflow(void)
{
    set_crash_stack();
    return (int)recurse(0);
}

/* Is the byte at address in a mapping of /proc/self/maps that cannot be
 * read, written or run (a guard page)? */
static bool in_guard_page(uintptr_t address)
{
    FILE *maps = fopen("/proc/self/maps", "r");
    if (!maps)
        return false;
    char line[512];
    bool guard = false;
    while (fgets(line, sizeof line, maps)) {
        unsigned long low, high;
        char permissions[8];
        if (sscanf(line, "%lx-%lx %7s", &low, &high, permissions) == 3 && address >= low && address < high)
            guard = strncmp(permissions, "---", 3) == 0;
    }
    fclose(maps);
    return guard;
}

/* 1: the thread has an alternate signal stack; 2: and the page below it
 * is a guard, so a handler that overflows it faults instead of writing
 * over whatever was mapped there. */
static void *report_signal_stack(void *unused)
{
    (void)unused;
    stack_t current;
    if (sigaltstack(NULL, &current) != 0 || (current.ss_flags & SS_DISABLE))
        return (void *)(intptr_t)0;
    return (void *)(intptr_t)(in_guard_page((uintptr_t)current.ss_sp - 1) ? 2 : 1);
}

/* Exits 10 when a thread made by culprit-cc's pthread_create had an
 * alternate signal stack with a guard page below, 13 when it had one
 * without, 11 when it had none. */
static int scenario_thread_stack(void)
{
    pthread_t thread;
    void *has_one = NULL;
    if (__culprit_rt_pthread_create(&thread, NULL, report_signal_stack, NULL) != 0 ||
        pthread_join(thread, &has_one) != 0)
        return 12;
    return has_one == (void *)(intptr_t)2 ? 10 : has_one ? 13 : 11;
}

/* More units than one registry chunk holds (a program of thousands of
 * files), full mode, descriptor versions 1 to 3: each has one block, run
 * once, and the shadow stack names the last one's, which the dump must
 * find among them all. */
enum { MANY_UNITS = 9000 };
static struct culprit_rt_unit many_units[MANY_UNITS];
static uint64_t many_counts[MANY_UNITS];

static int scenario_many_units(void)
{
    for (int i = 0; i < MANY_UNITS; i++) {
        many_units[i] = unit_a;
        many_units[i].version = 1 + i % 3; /* every descriptor version the runtime takes */
        many_units[i].counter_count = many_units[i].block_count = 1;
        many_units[i].counters = &many_counts[i];
        many_counts[i] = 1;
        __culprit_rt_register(&many_units[i]);
    }
    __culprit_rt_shadow.depth = 1;
    __culprit_rt_shadow.stack[1] = frame_in(&many_counts[MANY_UNITS - 1], 0);
    return 0;
}

/* Writes to a pipe nobody reads: SIGPIPE, as `prog | head -1` gets. */
static int scenario_pipe(void)
{
    int ends[2];
    if (pipe(ends) != 0)
        return 30;
    close(ends[0]);
    set_crash_stack();
    (void)!write(ends[1], "x", 1);
    return 31;
}

/* The program's own alarm() watchdog fires. */
static int scenario_alarm(void)
{
    set_crash_stack();
    alarm(1);
    for (int waited = 0; waited < 50; waited++)
        pause();
    return 32;
}

static int scenario_abort(void)
{
    set_crash_stack();
    abort();
}

/* Signals readiness on the pipe fd given as argument, then waits to be killed. */
static int scenario_sigterm(const char *ready_fd)
{
    enter_block(1, 3);
    counters_a[3] += 9;
    counters_b[0] = 1;
    if (write(atoi(ready_fd), "r", 1) != 1)
        return 20;
    for (;;)
        pause();
}

/* The parent's side of scenario_fork and scenario_vfork: the child must
 * exit 0, then A2 += 1. */
static int parent_after_child(pid_t child)
{
    int status;
    if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return 21;
    counters_a[2] += 1;
    return 0;
}

/* Parent: A0 += 2, A2 += 1, edge flag B4 (implying B1); child: A0 += 3,
 * A1 += 1, and none of B (the child starts with every flag clear, the
 * edges' too). */
static int scenario_fork(void)
{
    counters_a[0] += 2;
    counters_b[4] = 1;
    pid_t child = fork();
    if (child < 0)
        return 20;
    if (child == 0) {
        counters_a[0] += 3;
        counters_a[1] += 1;
        exit(0);
    }
    return parent_after_child(child);
}

/* A vfork child shares the parent's memory: what it runs counts for the
 * parent, and its execs (one failing, one succeeding) must neither dump nor
 * reset the parent's counters, nor leave the parent's own dump taken. */
static int scenario_vfork(void)
{
    counters_a[0] += 2;
    pid_t child = vfork();
    if (child < 0)
        return 20;
    if (child == 0) {
        counters_a[1] += 1;
        char *const missing[] = {"missing", NULL}, *const succeeding[] = {"true", NULL};
        __culprit_rt_execv("/nonexistent/culprit-test-rt", missing);
        __culprit_rt_execv("/bin/true", succeeding);
        __culprit_rt__exit(40);
    }
    return parent_after_child(child);
}

/* Thread i increments counter i (i+1)*1000 times from its own shadow stack
 * and prints one line. */
static void *thread_body(void *argument)
{
    uint32_t index = (uint32_t)(uintptr_t)argument;
    for (int i = 0; i < 1000 * (int)(index + 1); i++)
        enter_block(1, index);
    __culprit_rt_printf("thread %u\n", index);
    return NULL;
}

static int scenario_threads(void)
{
    pthread_t threads[4];
    for (uintptr_t i = 0; i < 4; i++)
        if (pthread_create(&threads[i], NULL, thread_body, (void *)i) != 0)
            return 20;
    for (int i = 0; i < 4; i++)
        pthread_join(threads[i], NULL);
    return 0;
}

/* A0 = 2 before a failed exec (which must keep errno), A0 = 5 after. */
static int scenario_exec_fail(void)
{
    counters_a[0] = 2;
    char *argv[] = {"nothing", NULL};
    errno = 0;
    int result = __culprit_rt_execv("/nonexistent/culprit-test", argv);
    if (result != -1 || errno != ENOENT)
        return 20;
    counters_a[0] += 5;
    return 0;
}

static int scenario_exec_true(void)
{
    counters_a[5] = 1;
    __culprit_rt_execl("/bin/true", "true", (char *)NULL);
    return 20;
}

/* Same pid, two images: an exec dump, then scenario_exit's dump. */
static int scenario_exec_self(void)
{
    counters_a[4] = 6;
    __culprit_rt_execle("/proc/self/exe", "test_rt", "scenario", "exit", (char *)NULL, environ);
    return 20;
}

static int vprintf_through(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    int written = __culprit_rt_vprintf(format, args);
    va_end(args);
    return written;
}

static int vfprintf_through(FILE *stream, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    int written = __culprit_rt_vfprintf(stream, format, args);
    va_end(args);
    return written;
}

/* Each output call from its own block; the expected records are in
 * check_output (stdout: one record per line of expected_stdout). */
static int scenario_output(void)
{
    enter_block(1, 0);
    __culprit_rt_printf("hello %d\n", 42);
    enter_block(1, 1);
    __culprit_rt_puts("puts line");
    enter_block(1, 1);
    enter_block(2, 2);
    __culprit_rt_fwrite("abc", 1, 3, stdout);
    fflush(stdout); /* write(2) bypasses the buffer: keep the file in call order */
    enter_block(1, 3);
    __culprit_rt_write(1, "raw\n", 4);
    enter_block(1, 4);
    __culprit_rt_fprintf(stderr, "err %s\n", "one");
    vfprintf_through(stderr, "%s\n", "two");
    enter_block(1, 5);
    __culprit_rt_putchar('x');
    __culprit_rt_fputc('y', stdout);
    __culprit_rt_putc('z', stdout);
    __culprit_rt_fputs("fputs\n", stdout);
    vprintf_through("v%d\n", 1);
    enter_block(1, 0);
    __culprit_rt_printf("tail\n"); /* still buffered when exit runs the dump */
    return 5;
}

/* Exits 0 when the six fatal signals all have their default action. */
static int scenario_probe_handlers(void)
{
    const int signals[] = {SIGSEGV, SIGBUS,  SIGFPE,  SIGILL,  SIGABRT, SIGTERM, SIGHUP,  SIGPIPE,
                           SIGALRM, SIGUSR1, SIGUSR2, SIGXCPU, SIGXFSZ, SIGSYS,  SIGPROF, SIGVTALRM};
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        struct sigaction action;
        if (sigaction(signals[i], NULL, &action) != 0 || action.sa_handler != SIG_DFL)
            return 1;
    }
    return 0;
}

/* The shadow stack after a longjmp-like mismatch: depth 100, a full ring
 * with two entries that are no block counter. */
static int scenario_deep(void)
{
    for (uint32_t i = 0; i < 64; i++)
        __culprit_rt_shadow.stack[(100 - i) & 63] = frame_in(counters_a, i % A_BLOCKS);
    __culprit_rt_shadow.stack[(100 - 5) & 63] =
        frame_in((uint64_t *)counters_b, 0);                             /* lines unit: no stack */
    __culprit_rt_shadow.stack[(100 - 9) & 63] = frame_in(counters_a, 6); /* an edge, not a block */
    __culprit_rt_shadow.depth = 100;
    return 0;
}

static int run_scenario(const char *name, const char *argument)
{
    __culprit_rt_register(&unit_a);
    __culprit_rt_register(&unit_bad);
    __culprit_rt_register(&unit_bad_pairs);
    __culprit_rt_register(&unit_bad_node);
    __culprit_rt_register(&unit_b);
    __culprit_rt_register(&unit_a); /* twice: registered once */
    struct {
        const char *name;
        int (*run)(void);
    } const scenarios[] = {
        {"exit", scenario_exit},           {"_exit", scenario_underscore_exit},
        {"segv", scenario_segv},           {"overflow", scenario_overflow},
        {"abort", scenario_abort},         {"fork", scenario_fork},
        {"threads", scenario_threads},     {"exec_fail", scenario_exec_fail},
        {"exec_true", scenario_exec_true}, {"exec_self", scenario_exec_self},
        {"output", scenario_output},       {"probe_handlers", scenario_probe_handlers},
        {"deep", scenario_deep},           {"thread_stack", scenario_thread_stack},
        {"vfork", scenario_vfork},         {"pipe", scenario_pipe},
        {"alarm", scenario_alarm},         {"many_units", scenario_many_units},
    };
    if (strcmp(name, "sigterm") == 0)
        return scenario_sigterm(argument ? argument : "-1");
    for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++)
        if (strcmp(name, scenarios[i].name) == 0)
            return scenarios[i].run();
    return 99;
}

#pragma GCC diagnostic pop

#endif
