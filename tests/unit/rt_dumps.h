/*
 * rt_dumps.h - the runtime tests' side of a dump: a reader written from
 * docs/collector.md §5 rather than from src/rt, scratch directories,
 * starting a scenario in a child with CULPRIT_COLLECT_DIR set, and the
 * checks of counts and stacks.
 */
#ifndef CULPRIT_TEST_RT_DUMPS_H
#define CULPRIT_TEST_RT_DUMPS_H

#include "rt_scenarios.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-variable"

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
    /* Ignored signals stay ignored across exec: under `nohup make check`
     * SIGHUP would be, and probe_handlers would blame the runtime. */
    for (int sig = 1; sig < NSIG; sig++)
        if (sig != SIGKILL && sig != SIGSTOP)
            signal(sig, SIG_DFL);
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

#pragma GCC diagnostic pop

#endif
