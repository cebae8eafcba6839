/*
 * test_rt.c - the runtime (src/rt/) seen from the outside: this program
 * plays culprit-cc by hand.  It defines two units (counters, map text,
 * descriptor), registers them, increments counters and sets the shadow
 * stack itself, and runs each scenario in a child process (an exec of
 * itself with "scenario NAME") with CULPRIT_COLLECT_DIR set to a fresh
 * directory.  The parent then reads the dumps with its own reader, written
 * from docs/collector.md §5 rather than from src/rt, and checks them.
 *
 * Under ASan the children run with handle_segv/sigbus/sigfpe=0 so that the
 * runtime, which only installs over the default action, gets the crashes;
 * if that does not work the crash scenarios are reported as skipped.
 */
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

/* ---- the dump reader, from docs/collector.md §5 ---- */

struct frame {
    uint32_t unit, counter;
};
struct dump_unit {
    char hash[65];
    uint32_t counter_count, nonzero_count;
    uint32_t counters[64];
    uint64_t counts[64];
};
struct dump_output {
    uint32_t stream;
    uint64_t offset, length;
    uint32_t depth;
    struct frame frames[8];
};
struct dump {
    long sequence;
    int32_t pid, parent_pid, status;
    uint32_t end, crashed, stack_depth, unit_count, output_count;
    struct frame stack[64];
    struct dump_unit units[4];
    struct dump_output outputs[32];
};

struct reader {
    const unsigned char *data;
    size_t size, at;
    int ok;
};

static uint64_t read_le(struct reader *reader, size_t bytes)
{
    uint64_t value = 0;
    if (reader->size - reader->at < bytes) {
        reader->ok = 0;
        return 0;
    }
    for (size_t i = 0; i < bytes; i++)
        value |= (uint64_t)reader->data[reader->at + i] << (8 * i);
    reader->at += bytes;
    return value;
}

static uint32_t read_u32(struct reader *reader)
{
    return (uint32_t)read_le(reader, 4);
}

static int read_frames(struct reader *reader, struct frame *frames, uint32_t depth, uint32_t capacity)
{
    if (depth > capacity)
        return 0;
    for (uint32_t i = 0; i < depth; i++) {
        frames[i].unit = read_u32(reader);
        frames[i].counter = read_u32(reader);
    }
    return reader->ok;
}

static int read_unit(struct reader *reader, struct dump_unit *unit)
{
    if (reader->size - reader->at < 64)
        return 0;
    memcpy(unit->hash, reader->data + reader->at, 64);
    unit->hash[64] = '\0';
    reader->at += 64;
    unit->counter_count = read_u32(reader);
    unit->nonzero_count = read_u32(reader);
    if (unit->nonzero_count > 64 || unit->nonzero_count > unit->counter_count)
        return 0;
    for (uint32_t i = 0; i < unit->nonzero_count; i++) {
        unit->counters[i] = read_u32(reader);
        unit->counts[i] = read_le(reader, 8);
        if (unit->counters[i] >= unit->counter_count || unit->counts[i] == 0 ||
            (i > 0 && unit->counters[i] <= unit->counters[i - 1]))
            return 0;
    }
    return reader->ok;
}

static int read_output(struct reader *reader, struct dump_output *output)
{
    output->stream = read_u32(reader);
    output->offset = read_le(reader, 8);
    output->length = read_le(reader, 8);
    output->depth = read_u32(reader);
    return reader->ok && (output->stream == 1 || output->stream == 2) &&
           read_frames(reader, output->frames, output->depth, 8);
}

static int parse_dump(const unsigned char *data, size_t size, struct dump *dump)
{
    struct reader reader = {data, size, 0, 1};
    if (size < 8 || memcmp(data, "CULPDMP1", 8) != 0)
        return 0;
    reader.at = 8;
    if (read_u32(&reader) != 1)
        return 0;
    dump->unit_count = read_u32(&reader);
    dump->pid = (int32_t)read_u32(&reader);
    dump->parent_pid = (int32_t)read_u32(&reader);
    dump->end = read_u32(&reader);
    dump->status = (int32_t)read_u32(&reader);
    dump->crashed = read_u32(&reader);
    dump->stack_depth = read_u32(&reader);
    if (!reader.ok || dump->end > 3 || dump->unit_count > 4 ||
        !read_frames(&reader, dump->stack, dump->stack_depth, 64))
        return 0;
    for (uint32_t i = 0; i < dump->unit_count; i++)
        if (!read_unit(&reader, &dump->units[i]))
            return 0;
    dump->output_count = read_u32(&reader);
    if (dump->output_count > 32)
        return 0;
    for (uint32_t i = 0; i < dump->output_count; i++)
        if (!read_output(&reader, &dump->outputs[i]))
            return 0;
    return reader.ok && reader.at == size; /* nothing left over */
}

/* ---- files and directories ---- */

static char *read_file(const char *path, size_t *size)
{
    FILE *file = fopen(path, "rb");
    if (!file)
        return NULL;
    size_t capacity = 1 << 16, used = 0;
    char *data = malloc(capacity + 1);
    size_t got;
    while (data && (got = fread(data + used, 1, capacity - used, file)) > 0) {
        used += got;
        if (used == capacity) {
            char *larger = realloc(data, 2 * capacity + 1);
            if (!larger) {
                free(data);
                data = NULL;
            }
            data = larger;
            capacity *= 2;
        }
    }
    fclose(file);
    if (data)
        data[used] = '\0';
    *size = used;
    return data;
}

struct sandbox {
    char base[64];
    char collect[96]; /* CULPRIT_COLLECT_DIR (or the cwd when collection is off) */
    char io[96];      /* the child's stdout and stderr */
};

static int sandbox_create(struct sandbox *box)
{
    strcpy(box->base, "/tmp/culprit-test-rt-XXXXXX");
    if (!mkdtemp(box->base))
        return 0;
    snprintf(box->collect, sizeof box->collect, "%s/collect", box->base);
    snprintf(box->io, sizeof box->io, "%s/io", box->base);
    return mkdir(box->collect, 0700) == 0 && mkdir(box->io, 0700) == 0;
}

static void remove_tree(const char *dir)
{
    DIR *stream = opendir(dir);
    struct dirent *entry;
    while (stream && (entry = readdir(stream))) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0)
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, entry->d_name);
        if (entry->d_type == DT_DIR)
            remove_tree(path);
        else
            unlink(path);
    }
    if (stream)
        closedir(stream);
    rmdir(dir);
}

static void sandbox_destroy(struct sandbox *box)
{
    remove_tree(box->base);
}

static int count_files(const char *dir, const char *suffix)
{
    DIR *stream = opendir(dir);
    struct dirent *entry;
    int count = 0;
    while (stream && (entry = readdir(stream))) {
        size_t length = strlen(entry->d_name), suffix_length = strlen(suffix);
        if (entry->d_name[0] != '.' || suffix[0] == '.')
            if (length >= suffix_length && strcmp(entry->d_name + length - suffix_length, suffix) == 0)
                count++;
    }
    if (stream)
        closedir(stream);
    return count;
}

/* Loads every DIR/<pid>.<seq>.dump, ordered by (pid, sequence). */
static int load_dumps(const char *dir, struct dump *dumps, int capacity)
{
    DIR *stream = opendir(dir);
    struct dirent *entry;
    int count = 0;
    while (stream && (entry = readdir(stream))) {
        int pid, end;
        long sequence;
        if (entry->d_name[0] == '.' || sscanf(entry->d_name, "%d.%ld.dump%n", &pid, &sequence, &end) != 2 ||
            entry->d_name[end] != '\0')
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, entry->d_name);
        size_t size;
        unsigned char *data = (unsigned char *)read_file(path, &size);
        struct dump dump;
        int parsed = data && parse_dump(data, size, &dump);
        free(data);
        CHECK_RECORD(parsed, "%s does not parse as a dump", entry->d_name);
        CHECK_RECORD(!parsed || dump.pid == pid, "%s names another pid", entry->d_name);
        if (parsed && count < capacity) {
            dump.sequence = sequence;
            int at = count++;
            while (at > 0 && (dumps[at - 1].pid > dump.pid ||
                              (dumps[at - 1].pid == dump.pid && dumps[at - 1].sequence > sequence))) {
                dumps[at] = dumps[at - 1];
                at--;
            }
            dumps[at] = dump;
        }
    }
    if (stream)
        closedir(stream);
    return count;
}

/* ---- running a scenario ---- */

static const char *scenario_asan_options(void)
{
    static char options[512];
    const char *inherited = getenv("ASAN_OPTIONS");
    snprintf(options, sizeof options, "%s%shandle_segv=0:handle_sigbus=0:handle_sigfpe=0",
             inherited ? inherited : "", inherited && inherited[0] ? ":" : "");
    return options;
}

/* mode: 1 collect into box->collect, 0 CULPRIT_COLLECT_DIR unset (cwd is
 * box->collect, which must stay empty), -1 set but empty. */
static pid_t start_scenario(const struct sandbox *box, const char *name, int mode, const char *argument)
{
    fflush(NULL);
    pid_t child = fork();
    if (child != 0)
        return child;
    char out[160], err[160];
    snprintf(out, sizeof out, "%s/stdout", box->io);
    snprintf(err, sizeof err, "%s/stderr", box->io);
    int out_fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err_fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out_fd < 0 || err_fd < 0 || dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0 || chdir(box->collect) != 0)
        _exit(98);
    if (mode == 1)
        setenv("CULPRIT_COLLECT_DIR", box->collect, 1);
    else if (mode == -1)
        setenv("CULPRIT_COLLECT_DIR", "", 1);
    else
        unsetenv("CULPRIT_COLLECT_DIR");
    if (UNDER_ASAN)
        setenv("ASAN_OPTIONS", scenario_asan_options(), 1);
    execl("/proc/self/exe", "test_rt", "scenario", name, argument, (char *)NULL);
    _exit(97);
}

static int wait_for(pid_t child)
{
    int status = -1;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR)
        ;
    return status;
}

static int run_in(const struct sandbox *box, const char *name, int mode)
{
    pid_t child = start_scenario(box, name, mode, NULL);
    return child < 0 ? -1 : wait_for(child);
}

static char *read_io(const struct sandbox *box, const char *stream, size_t *size)
{
    char path[160];
    snprintf(path, sizeof path, "%s/%s", box->io, stream);
    return read_file(path, size);
}

/* ---- checks ---- */

static uint64_t count_of(const struct dump *dump, uint32_t unit, uint32_t counter)
{
    if (unit >= dump->unit_count)
        return 0;
    for (uint32_t i = 0; i < dump->units[unit].nonzero_count; i++)
        if (dump->units[unit].counters[i] == counter)
            return dump->units[unit].counts[i];
    return 0;
}

/* The dump holds exactly these counts for unit A (and B as hit flags). */
static void check_counts(const struct dump *dump, const uint64_t *a, const uint8_t *b)
{
    CHECK_INT(dump->unit_count, 2);
    if (dump->unit_count != 2)
        return;
    CHECK_STR(dump->units[0].hash, HASH_A);
    CHECK_STR(dump->units[1].hash, HASH_B);
    CHECK_INT(dump->units[0].counter_count, A_COUNTERS);
    CHECK_INT(dump->units[1].counter_count, B_COUNTERS);
    uint32_t nonzero_a = 0, nonzero_b = 0;
    for (uint32_t i = 0; i < A_COUNTERS; i++) {
        CHECK_RECORD(count_of(dump, 0, i) == a[i], "unit A counter %u is %llu, expected %llu", i,
                     (unsigned long long)count_of(dump, 0, i), (unsigned long long)a[i]);
        nonzero_a += a[i] != 0;
    }
    for (uint32_t i = 0; i < B_COUNTERS; i++) {
        CHECK_RECORD(count_of(dump, 1, i) == b[i], "unit B counter %u is %llu, expected %u", i,
                     (unsigned long long)count_of(dump, 1, i), b[i]);
        nonzero_b += b[i] != 0;
    }
    CHECK_INT(dump->units[0].nonzero_count, nonzero_a);
    CHECK_INT(dump->units[1].nonzero_count, nonzero_b);
}

/* The stack holds exactly these unit-A blocks, frame 0 first. */
static void check_stack(const struct frame *frames, uint32_t depth, const uint32_t *blocks, uint32_t count)
{
    CHECK_INT(depth, count);
    for (uint32_t i = 0; i < depth && i < count; i++) {
        CHECK_RECORD(frames[i].unit == 0 && frames[i].counter == blocks[i],
                     "frame %u is (%u, %u), expected (0, %u)", i, frames[i].unit, frames[i].counter,
                     blocks[i]);
    }
}

static int single_dump(const struct sandbox *box, struct dump *dump)
{
    static struct dump dumps[4];
    int count = load_dumps(box->collect, dumps, 4);
    CHECK_INT(count, 1);
    CHECK_INT(count_files(box->collect, ".tmp"), 0);
    if (count != 1)
        return 0;
    *dump = dumps[0];
    return 1;
}

static void test_exit(void)
{
    struct sandbox box;
    CHECK(sandbox_create(&box));
    int status = run_in(&box, "exit", 1);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 7);
    struct dump dump;
    if (single_dump(&box, &dump)) {
        const uint64_t a[A_COUNTERS] = {3, 0, 1, 0, 0, 0, 5, 0};
        const uint8_t b[B_COUNTERS] = {1, 1, 1, 1}; /* 0, 1 and 2 implied */
        CHECK_INT(dump.end, 0);
        CHECK_INT(dump.status, 7);
        CHECK_INT(dump.crashed, 0);
        CHECK_INT(dump.parent_pid, getpid());
        check_counts(&dump, a, b);
        check_stack(dump.stack, dump.stack_depth, (const uint32_t[]){2, 0}, 2);
        CHECK_INT(dump.output_count, 0);
    }
    sandbox_destroy(&box);
}

static void test_underscore_exit(void)
{
    struct sandbox box;
    CHECK(sandbox_create(&box));
    int status = run_in(&box, "_exit", 1);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 3);
    struct dump dump;
    if (single_dump(&box, &dump)) {
        const uint64_t a[A_COUNTERS] = {0, 1, 0, 0, 0, 0, 0, 4};
        const uint8_t b[B_COUNTERS] = {0};
        CHECK_INT(dump.end, 3);
        CHECK_INT(dump.status, 3);
        CHECK_INT(dump.crashed, 0);
        check_counts(&dump, a, b);
    }
    sandbox_destroy(&box);
}

static int crash_scenarios_skipped;

/* A scenario that must die of signal_number with the crash stack A4 A2 A0. */
static void test_crash(const char *name, int signal_number)
{
    struct sandbox box;
    CHECK(sandbox_create(&box));
    int status = run_in(&box, name, 1);
    if (UNDER_ASAN && !(WIFSIGNALED(status) && WTERMSIG(status) == signal_number)) {
        crash_scenarios_skipped++; /* the sanitizer took the signal */
        sandbox_destroy(&box);
        return;
    }
    CHECK_RECORD(WIFSIGNALED(status) && WTERMSIG(status) == signal_number,
                 "%s: wait status %#x, expected signal %d", name, status, signal_number);
    struct dump dump;
    if (single_dump(&box, &dump)) {
        const uint64_t a[A_COUNTERS] = {1, 0, 1, 0, 1, 0, 0, 0};
        const uint8_t b[B_COUNTERS] = {0};
        CHECK_INT(dump.end, 1);
        CHECK_INT(dump.status, signal_number);
        CHECK_INT(dump.crashed, 1);
        check_counts(&dump, a, b);
        check_stack(dump.stack, dump.stack_depth, (const uint32_t[]){4, 2, 0}, 3);
    }
    sandbox_destroy(&box);
}

static void test_sigterm(void)
{
    struct sandbox box;
    CHECK(sandbox_create(&box));
    int ready[2];
    CHECK(pipe(ready) == 0);
    char argument[16];
    snprintf(argument, sizeof argument, "%d", ready[1]);
    pid_t child = start_scenario(&box, "sigterm", 1, argument);
    close(ready[1]);
    char byte;
    CHECK(read(ready[0], &byte, 1) == 1);
    close(ready[0]);
    kill(child, SIGTERM);
    int status = wait_for(child);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
    struct dump dump;
    if (single_dump(&box, &dump)) {
        const uint64_t a[A_COUNTERS] = {0, 0, 0, 10, 0, 0, 0, 0};
        const uint8_t b[B_COUNTERS] = {1, 0, 0, 0};
        CHECK_INT(dump.end, 1);
        CHECK_INT(dump.status, SIGTERM);
        CHECK_INT(dump.crashed, 1);
        check_counts(&dump, a, b);
        check_stack(dump.stack, dump.stack_depth, (const uint32_t[]){3}, 1);
    }
    sandbox_destroy(&box);
}

static void test_fork(void)
{
    struct sandbox box;
    CHECK(sandbox_create(&box));
    int status = run_in(&box, "fork", 1);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    struct dump dumps[4];
    int count = load_dumps(box.collect, dumps, 4);
    CHECK_INT(count, 2);
    if (count == 2) {
        /* The forking process is the one whose parent is this test. */
        int parent_index = dumps[0].parent_pid == getpid() ? 0 : 1;
        const struct dump *parent = &dumps[parent_index], *child = &dumps[1 - parent_index];
        CHECK_INT(parent->parent_pid, getpid());
        CHECK_INT(child->parent_pid, parent->pid);
        const uint64_t parent_a[A_COUNTERS] = {2, 0, 1, 0, 0, 0, 0, 0};
        const uint64_t child_a[A_COUNTERS] = {3, 1, 0, 0, 0, 0, 0, 0};
        const uint8_t parent_b[B_COUNTERS] = {0, 1, 0, 0}, child_b[B_COUNTERS] = {0};
        check_counts(parent, parent_a, parent_b);
        check_counts(child, child_a, child_b);
        CHECK_INT(parent->end, 0);
        CHECK_INT(child->end, 0);
    }
    sandbox_destroy(&box);
}

static void test_vfork(void)
{
    struct sandbox box;
    CHECK(sandbox_create(&box));
    int status = run_in(&box, "vfork", 1);
    CHECK_RECORD(WIFEXITED(status) && WEXITSTATUS(status) == 0, "wait status %#x", status);
    struct dump dump;
    if (single_dump(&box, &dump)) {
        CHECK_INT(dump.parent_pid, getpid()); /* the parent's own dump, not the child's */
        CHECK_INT(dump.end, 0);
        /* Under ASan vfork is a fork: the child's count stays in the child. */
        const uint64_t a[A_COUNTERS] = {2, UNDER_ASAN ? count_of(&dump, 0, 1) : 1, 1, 0, 0, 0, 0, 0};
        const uint8_t b[B_COUNTERS] = {0};
        check_counts(&dump, a, b);
    }
    sandbox_destroy(&box);
}

/* The units of the many_units dump with exactly one count, and its first
 * stack frame (the dump is walked directly: parse_dump keeps four units). */
static uint32_t units_with_one_count(const unsigned char *data, size_t size, uint32_t *unit_count,
                                     struct frame *first)
{
    struct reader reader = {data, size, 12, size >= 40};
    *unit_count = read_u32(&reader);
    reader.at = 36;
    uint32_t depth = read_u32(&reader);
    if (depth > 0)
        read_frames(&reader, first, 1, 1);
    reader.at = 40 + 8 * (size_t)depth;
    uint32_t flagged = 0;
    for (uint32_t i = 0; i < *unit_count && reader.ok && size - reader.at >= 64; i++) {
        reader.at += 64; /* hash */
        uint32_t counter_count = read_u32(&reader), nonzero = read_u32(&reader);
        flagged += counter_count == 1 && nonzero == 1;
        reader.at += 12 * (size_t)nonzero;
    }
    return reader.ok ? flagged : 0;
}

static void test_many_units(void)
{
    struct sandbox box;
    CHECK(sandbox_create(&box));
    int status = run_in(&box, "many_units", 1);
    CHECK_RECORD(WIFEXITED(status) && WEXITSTATUS(status) == 0, "wait status %#x", status);
    DIR *stream = opendir(box.collect);
    struct dirent *entry;
    int dumps = 0;
    while (stream && (entry = readdir(stream))) {
        if (entry->d_name[0] == '.' || !strstr(entry->d_name, ".dump"))
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", box.collect, entry->d_name);
        size_t size = 0;
        unsigned char *data = (unsigned char *)read_file(path, &size);
        uint32_t unit_count = 0;
        struct frame first = {0, 99};
        uint32_t counted = data ? units_with_one_count(data, size, &unit_count, &first) : 0;
        CHECK_INT(unit_count, 2 + MANY_UNITS); /* unit_a and unit_b, then the many */
        CHECK_INT(counted, MANY_UNITS);
        CHECK_INT(first.unit, 2 + MANY_UNITS - 1);
        CHECK_INT(first.counter, 0);
        free(data);
        dumps++;
    }
    if (stream)
        closedir(stream);
    CHECK_INT(dumps, 1);
    sandbox_destroy(&box);
}

static void test_threads(void)
{
    struct sandbox box;
    CHECK(sandbox_create(&box));
    int status = run_in(&box, "threads", 1);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    struct dump dump;
    size_t size = 0;
    char *out = read_io(&box, "stdout", &size);
    if (single_dump(&box, &dump) && out) {
        const uint64_t a[A_COUNTERS] = {1000, 2000, 3000, 4000, 0, 0, 0, 0};
        const uint8_t b[B_COUNTERS] = {0};
        check_counts(&dump, a, b);
        /* Four records that tile stdout, each from its thread's block. */
        CHECK_INT(dump.output_count, 4);
        uint64_t covered = 0;
        for (uint32_t i = 0; i < dump.output_count; i++) {
            const struct dump_output *record = &dump.outputs[i];
            CHECK(record->offset + record->length <= size && record->depth == 1);
            if (record->offset + record->length > size || record->depth != 1)
                continue;
            char expected[32];
            snprintf(expected, sizeof expected, "thread %u\n", record->frames[0].counter);
            CHECK_INT(record->length, strlen(expected));
            CHECK(memcmp(out + record->offset, expected, strlen(expected)) == 0);
            covered += record->length;
        }
        CHECK_INT(covered, size);
    }
    free(out);
    sandbox_destroy(&box);
}

static void test_exec_fail(void)
{
    struct sandbox box;
    CHECK(sandbox_create(&box));
    int status = run_in(&box, "exec_fail", 1);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    struct dump dumps[4];
    int count = load_dumps(box.collect, dumps, 4);
    CHECK_INT(count, 2);
    if (count == 2) {
        const uint64_t before[A_COUNTERS] = {2}, after[A_COUNTERS] = {5};
        const uint8_t b[B_COUNTERS] = {0};
        CHECK_INT(dumps[0].end, 2);
        CHECK_INT(dumps[0].status, 0);
        check_counts(&dumps[0], before, b);
        CHECK_INT(dumps[1].end, 0);
        check_counts(&dumps[1], after, b);
        CHECK_INT(dumps[0].pid, dumps[1].pid);
    }
    sandbox_destroy(&box);
}

static void test_exec_true(void)
{
    struct sandbox box;
    CHECK(sandbox_create(&box));
    int status = run_in(&box, "exec_true", 1);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    struct dump dump;
    if (single_dump(&box, &dump)) {
        const uint64_t a[A_COUNTERS] = {0, 0, 0, 0, 0, 1, 0, 0};
        const uint8_t b[B_COUNTERS] = {0};
        CHECK_INT(dump.end, 2);
        CHECK_INT(dump.crashed, 0);
        check_counts(&dump, a, b);
    }
    sandbox_destroy(&box);
}

/* Two images under one pid: sequence numbers must not collide. */
static void test_exec_self(void)
{
    struct sandbox box;
    CHECK(sandbox_create(&box));
    int status = run_in(&box, "exec_self", 1);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 7);
    struct dump dumps[4];
    int count = load_dumps(box.collect, dumps, 4);
    CHECK_INT(count, 2);
    if (count == 2) {
        const uint64_t before[A_COUNTERS] = {0, 0, 0, 0, 6, 0, 0, 0},
                       after[A_COUNTERS] = {3, 0, 1, 0, 0, 0, 5, 0};
        const uint8_t no_b[B_COUNTERS] = {0}, b[B_COUNTERS] = {1, 1, 1, 1};
        CHECK_INT(dumps[0].pid, dumps[1].pid);
        CHECK(dumps[0].sequence < dumps[1].sequence);
        CHECK_INT(dumps[0].end, 2);
        check_counts(&dumps[0], before, no_b);
        CHECK_INT(dumps[1].end, 0);
        CHECK_INT(dumps[1].status, 7);
        check_counts(&dumps[1], after, b);
    }
    CHECK_INT(count_files(box.collect, ".map"), 2);
    sandbox_destroy(&box);
}

/* What scenario_output writes: {stream, text, frame blocks} in call order. */
struct expected_output {
    uint32_t stream;
    const char *text;
    uint32_t depth;
    uint32_t blocks[2];
};
static const struct expected_output expected_outputs[] = {
    {1, "hello 42\n", 1, {0}}, {1, "puts line\n", 1, {1}}, {1, "abc", 2, {2, 1}}, {1, "raw\n", 1, {3}},
    {2, "err one\n", 1, {4}},  {2, "two\n", 1, {4}},       {1, "x", 1, {5}},      {1, "y", 1, {5}},
    {1, "z", 1, {5}},          {1, "fputs\n", 1, {5}},     {1, "v1\n", 1, {5}},   {1, "tail\n", 1, {0}},
};
enum { EXPECTED_OUTPUTS = sizeof expected_outputs / sizeof expected_outputs[0] };

static void check_output_record(const struct dump_output *record, const struct expected_output *expected,
                                const char *out, size_t out_size, const char *err, size_t err_size)
{
    const char *text = record->stream == 1 ? out : err;
    size_t size = record->stream == 1 ? out_size : err_size;
    CHECK_INT(record->stream, expected->stream);
    CHECK_INT(record->length, strlen(expected->text));
    CHECK_RECORD(text && record->offset + record->length <= size &&
                     memcmp(text + record->offset, expected->text, strlen(expected->text)) == 0,
                 "record at %llu does not hold \"%s\"", (unsigned long long)record->offset, expected->text);
    check_stack(record->frames, record->depth, expected->blocks, expected->depth);
}

static void test_output(void)
{
    struct sandbox box;
    CHECK(sandbox_create(&box));
    int status = run_in(&box, "output", 1);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 5);
    size_t out_size = 0, err_size = 0;
    char *out = read_io(&box, "stdout", &out_size), *err = read_io(&box, "stderr", &err_size);
    CHECK_STR(out, "hello 42\nputs line\nabcraw\nxyzfputs\nv1\ntail\n");
    CHECK_STR(err, "err one\ntwo\n");
    struct dump dump;
    if (single_dump(&box, &dump)) {
        CHECK_INT(dump.output_count, EXPECTED_OUTPUTS);
        for (uint32_t i = 0; i < dump.output_count && i < EXPECTED_OUTPUTS; i++)
            check_output_record(&dump.outputs[i], &expected_outputs[i], out, out_size, err, err_size);
    }
    free(out);
    free(err);
    sandbox_destroy(&box);
}

static void check_file_content(const char *dir, const char *name, const char *expected)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    size_t size;
    char *content = read_file(path, &size);
    CHECK_STR(content, expected);
    free(content);
}

/* Maps are written once, with the unit's map text, and never replaced. */
static void test_maps(void)
{
    struct sandbox box;
    CHECK(sandbox_create(&box));
    char path[256];
    snprintf(path, sizeof path, "%s/%s.map", box.collect, HASH_B);
    FILE *old = fopen(path, "w");
    CHECK(old != NULL);
    if (old) {
        fputs("an older copy\n", old);
        fclose(old);
    }
    int status = run_in(&box, "exit", 1);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 7);
    check_file_content(box.collect, HASH_A ".map", map_a);
    check_file_content(box.collect, HASH_B ".map", "an older copy\n");
    CHECK_INT(count_files(box.collect, ".map"), 2);
    CHECK_INT(count_files(box.collect, ".tmp"), 0);
    sandbox_destroy(&box);
}

static void test_deep_stack(void)
{
    struct sandbox box;
    CHECK(sandbox_create(&box));
    int status = run_in(&box, "deep", 1);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    struct dump dump;
    if (single_dump(&box, &dump)) {
        uint32_t blocks[64], count = 0;
        for (uint32_t i = 0; i < 64; i++)
            if (i != 5 && i != 9)
                blocks[count++] = i % A_BLOCKS;
        check_stack(dump.stack, dump.stack_depth, blocks, count);
    }
    sandbox_destroy(&box);
}

static int directory_is_empty(const char *dir)
{
    DIR *stream = opendir(dir);
    struct dirent *entry;
    int empty = stream != NULL;
    while (stream && (entry = readdir(stream)))
        if (strcmp(entry->d_name, ".") != 0 && strcmp(entry->d_name, "..") != 0)
            empty = 0;
    if (stream)
        closedir(stream);
    return empty;
}

/* Without CULPRIT_COLLECT_DIR (unset or empty): same output and status, no
 * file, no handler. */
static void test_not_collecting(int mode)
{
    struct sandbox box;
    CHECK(sandbox_create(&box));
    int status = run_in(&box, "output", mode);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 5);
    size_t size;
    char *out = read_io(&box, "stdout", &size);
    CHECK_STR(out, "hello 42\nputs line\nabcraw\nxyzfputs\nv1\ntail\n");
    free(out);
    status = run_in(&box, "exit", mode);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 7);
    status = run_in(&box, "probe_handlers", mode);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    status = run_in(&box, "exec_fail", mode);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    if (!UNDER_ASAN) {
        status = run_in(&box, "segv", mode);
        CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);
    }
    CHECK(directory_is_empty(box.collect));
    sandbox_destroy(&box);
}

/* Each thread gets a signal stack for crash dumps when collecting, and the
 * plain pthread_create otherwise (under ASan the sanitizer gives one anyway). */
static void test_thread_signal_stack(void)
{
    struct sandbox box;
    CHECK(sandbox_create(&box));
    int status = run_in(&box, "thread_stack", 1);
    /* Under ASan each thread has the sanitizer's signal stack already (no guard below it). */
    int expected = UNDER_ASAN && WIFEXITED(status) && WEXITSTATUS(status) == 13 ? 13 : 10;
    CHECK_RECORD(WIFEXITED(status) && WEXITSTATUS(status) == expected, "collecting: wait status %#x", status);
    if (!UNDER_ASAN) {
        status = run_in(&box, "thread_stack", 0);
        CHECK_RECORD(WIFEXITED(status) && WEXITSTATUS(status) == 11, "not collecting: wait status %#x",
                     status);
    }
    sandbox_destroy(&box);
}

static void test_handlers_installed(void)
{
    struct sandbox box;
    CHECK(sandbox_create(&box));
    int status = run_in(&box, "probe_handlers", 1);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 1);
    sandbox_destroy(&box);
}

/* The shared header says what §5 says. */
static void test_format_header(void)
{
    CHECK_INT(CULPRIT_DUMP_HEADER_SIZE, 40);
    CHECK_INT(CULPRIT_DUMP_OFF_STACK_DEPTH, 36);
    CHECK_INT(CULPRIT_DUMP_UNIT_HEADER_SIZE, 72);
    CHECK_INT(CULPRIT_DUMP_ENTRY_SIZE, 12);
    CHECK_INT(CULPRIT_DUMP_OUTPUT_HEADER_SIZE, 24);
    CHECK_INT(CULPRIT_DUMP_END__EXIT, 3);
    CHECK_STR(CULPRIT_DUMP_MAGIC, "CULPDMP1");
}

int main(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[1], "scenario") == 0)
        return run_scenario(argv[2], argc >= 4 ? argv[3] : NULL);
    test_format_header();
    test_exit();
    test_underscore_exit();
    test_crash("segv", SIGSEGV);
    test_crash("overflow", SIGSEGV);
    test_crash("abort", SIGABRT);
    test_crash("pipe", SIGPIPE);
    test_crash("alarm", SIGALRM);
    test_sigterm();
    test_fork();
    test_vfork();
    test_many_units();
    test_threads();
    test_thread_signal_stack();
    test_exec_fail();
    test_exec_true();
    test_exec_self();
    test_output();
    test_maps();
    test_deep_stack();
    test_handlers_installed();
    test_not_collecting(0);
    test_not_collecting(-1);
    if (crash_scenarios_skipped)
        printf("rt: note: %d crash scenarios skipped (the sanitizer handles those signals)\n",
               crash_scenarios_skipped);
    return check_report("rt");
}
