/*
 * test_rt.c - the runtime (src/rt/) seen from the outside, how processes
 * end: this program plays culprit-cc by hand (rt_scenarios.h: two units it
 * registers and drives itself), runs each scenario in a child (an exec of
 * itself with "scenario NAME") with CULPRIT_COLLECT_DIR set to a fresh
 * directory, and reads the dumps with its own reader (rt_dumps.h).
 * Exits, crashes, signals, fork, vfork and exec are here; what the runtime
 * records while a process runs is in test_rt_output.c.
 *
 * Under ASan the children run with handle_segv/sigbus/sigfpe=0 so that the
 * runtime, which only installs over the default action, gets the crashes;
 * if that does not work the crash scenarios are reported as skipped.
 */
#include "check.h"
#include "rt_dumps.h"

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
    test_thread_signal_stack();
    test_exec_fail();
    test_exec_true();
    test_exec_self();
    test_handlers_installed();
    test_not_collecting(0);
    test_not_collecting(-1);
    if (crash_scenarios_skipped)
        printf("rt: note: %d crash scenarios skipped (the sanitizer handles those signals)\n",
               crash_scenarios_skipped);
    return check_report("rt");
}
