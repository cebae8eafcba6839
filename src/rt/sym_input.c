/*
 * sym_input.c - where symbolic bytes come from (docs/symbolic.md §3): the
 * sources (standard input, the declared files, argv on request), the
 * descriptors and streams that read them, and typed fields.
 *
 * Sources are fixed at start, in trailer order: stdin (unless
 * CULPRIT_SYM_STDIN=0), then each path of CULPRIT_SYM_FILES (identified by
 * device and inode, so any name of the file matches), then argv[1..] when
 * CULPRIT_SYM_ARGV=1, added at __culprit_rt_start_main.  A reader is a
 * descriptor or a stream open on a source, with the offset of the next
 * byte it gives: every modelled reading function advances it (ungetc steps
 * back), so byte k of what a reader gives is BYTE(source, offset + k).
 * Seeks are not modelled: a program that seeks in an input file gets
 * offsets counted from where it started reading.
 */
#include "rt/sym_internal.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A new source (under start_lock or before any reader exists); -1 when full. */
static int add_source(uint32_t kind, uint32_t index, const char *name, uint32_t name_length)
{
    struct rt_sym_state *state = &culprit_rt_sym_state;
    uint32_t count = atomic_load(&state->source_count);
    if (count >= RT_SYM_MAX_SOURCES)
        return -1;
    struct rt_sym_source *source = &state->sources[count];
    source->kind = kind;
    source->index = index;
    source->name = name;
    source->name_length = name_length;
    atomic_store_explicit(&state->source_count, count + 1, memory_order_release);
    return (int)count;
}

static struct rt_sym_reader *free_reader(void)
{
    for (int i = 0; i < RT_SYM_MAX_READERS; i++)
        if (!culprit_rt_sym_state.readers[i].used)
            return &culprit_rt_sym_state.readers[i];
    return NULL;
}

/* Under the lock. */
static void add_reader(int fd, FILE *stream, uint32_t source, uint64_t offset)
{
    struct rt_sym_reader *reader = free_reader();
    if (!reader)
        return;
    *reader =
        (struct rt_sym_reader){.used = 1, .fd = fd, .stream = stream, .source = source, .offset = offset};
}

/* Copies the declared paths into the names area and makes them sources. */
static void add_declared_files(const char *list)
{
    char *names = culprit_rt_sym_state.names;
    size_t used = 0;
    uint32_t index = 0;
    while (*list) {
        size_t length = strcspn(list, "\n");
        if (length > 0 && length < CULPRIT_SYM_MAX_NAME && used + length + 1 <= RT_SYM_NAMES_SIZE) {
            char *name = names + used;
            memcpy(name, list, length);
            name[length] = '\0';
            used += length + 1;
            int number = add_source(CULPRIT_SYM_SOURCE_FILE, index, name, (uint32_t)length);
            struct stat status;
            if (number >= 0 && stat(name, &status) == 0) {
                struct rt_sym_source *source = &culprit_rt_sym_state.sources[number];
                source->device = status.st_dev;
                source->inode = status.st_ino;
                source->declared_exists = 1;
            }
        }
        if (length > 0)
            index++;
        list += length;
        if (*list == '\n')
            list++;
    }
}

void culprit_rt_sym_sources_start(void)
{
    struct rt_sym_state *state = &culprit_rt_sym_state;
    const char *use_stdin = getenv("CULPRIT_SYM_STDIN");
    if (!use_stdin || strcmp(use_stdin, "0") != 0) {
        state->stdin_source = add_source(CULPRIT_SYM_SOURCE_STDIN, 0, "", 0);
        add_reader(-1, stdin, (uint32_t)state->stdin_source, 0);
        add_reader(0, NULL, (uint32_t)state->stdin_source, 0);
    }
    const char *files = getenv("CULPRIT_SYM_FILES");
    if (files)
        add_declared_files(files);
}

void culprit_rt_sym_argv(int argc, char **argv)
{
    if (!culprit_rt_sym_on() || !culprit_rt_sym_state.argv_symbolic || !argv)
        return;
    for (int i = 1; i < argc && argv[i]; i++) {
        size_t length = strlen(argv[i]);
        int source = add_source(CULPRIT_SYM_SOURCE_ARGV, (uint32_t)i, "", 0);
        if (source < 0)
            return;
        atomic_store(&culprit_rt_sym_state.sources[source].length, length);
        for (size_t k = 0; k < length; k++)
            culprit_rt_sym_shadow_set(argv[i] + k, culprit_rt_sym_byte((uint32_t)source, k));
        culprit_rt_sym_shadow_set(argv[i] + length, 0);
    }
}

static struct rt_sym_reader *find_reader(int fd, FILE *stream)
{
    struct rt_sym_reader *found = NULL;
    if (!culprit_rt_sym_lock())
        return NULL;
    for (int i = 0; i < RT_SYM_MAX_READERS && !found; i++) {
        struct rt_sym_reader *reader = &culprit_rt_sym_state.readers[i];
        if (reader->used &&
            ((stream && reader->stream == stream) || (!stream && fd >= 0 && reader->fd == fd)))
            found = reader;
    }
    culprit_rt_sym_unlock();
    return found;
}

struct rt_sym_reader *culprit_rt_sym_reader_fd(int fd)
{
    return fd < 0 ? NULL : find_reader(fd, NULL);
}

struct rt_sym_reader *culprit_rt_sym_reader_stream(FILE *stream)
{
    return stream ? find_reader(-1, stream) : NULL;
}

/* The declared source that fd's file is, -1 for none. */
static int declared_source_of(int fd, struct stat *status)
{
    struct rt_sym_state *state = &culprit_rt_sym_state;
    uint32_t count = atomic_load_explicit(&state->source_count, memory_order_acquire);
    for (uint32_t i = 0; i < count; i++) {
        const struct rt_sym_source *source = &state->sources[i];
        if (source->kind == CULPRIT_SYM_SOURCE_FILE && source->declared_exists &&
            source->device == (uint64_t)status->st_dev && source->inode == (uint64_t)status->st_ino)
            return (int)i;
    }
    return -1;
}

void culprit_rt_sym_opened(int fd, FILE *stream, int reading)
{
    struct stat status;
    if (!reading || fd < 0 || fstat(fd, &status) != 0 || !S_ISREG(status.st_mode))
        return;
    int source = declared_source_of(fd, &status);
    if (source < 0) {
        culprit_rt_sym_count(CULPRIT_SYM_STAT_UNDECLARED_INPUT);
        return;
    }
    if (!culprit_rt_sym_lock())
        return;
    /* A stream's descriptor reads the source too: bc reads its files with
     * read(fileno(f)), and saw no input bytes while only the stream was
     * a reader.  The two keep their own offsets, as fd 0 and stdin do. */
    if (stream)
        add_reader(-1, stream, (uint32_t)source, 0);
    add_reader(fd, NULL, (uint32_t)source, 0);
    culprit_rt_sym_unlock();
}

void culprit_rt_sym_adopted(FILE *stream, int fd)
{
    struct rt_sym_reader *from = culprit_rt_sym_reader_fd(fd);
    if (!from || !stream || !culprit_rt_sym_lock())
        return;
    add_reader(-1, stream, from->source, from->offset);
    culprit_rt_sym_unlock();
}

void culprit_rt_sym_closed(int fd, FILE *stream)
{
    if (!culprit_rt_sym_lock())
        return;
    for (int i = 0; i < RT_SYM_MAX_READERS; i++) {
        struct rt_sym_reader *reader = &culprit_rt_sym_state.readers[i];
        if (reader->used && ((stream && reader->stream == stream) || (fd >= 0 && reader->fd == fd)))
            reader->used = 0;
    }
    culprit_rt_sym_unlock();
}

void culprit_rt_sym_consumed(struct rt_sym_reader *reader, void *buffer, size_t size)
{
    if (!reader) {
        culprit_rt_sym_shadow_clear(buffer, size);
        return;
    }
    unsigned char *bytes = buffer;
    for (size_t i = 0; bytes && i < size; i++)
        culprit_rt_sym_shadow_set(bytes + i, culprit_rt_sym_byte(reader->source, reader->offset + i));
    reader->offset += size;
    _Atomic uint64_t *length = &culprit_rt_sym_state.sources[reader->source].length;
    uint64_t seen = atomic_load(length);
    while (seen < reader->offset && !atomic_compare_exchange_weak(length, &seen, reader->offset))
        ;
}

void culprit_rt_sym_read_past_end(struct rt_sym_reader *reader)
{
    if (reader)
        atomic_fetch_or(&culprit_rt_sym_state.sources[reader->source].flags,
                        CULPRIT_SYM_SOURCE_READ_PAST_END);
}

culprit_sym_expr culprit_rt_sym_field_of_text(const char *text, size_t length, uint32_t kind)
{
    if (length == 0 || length > UINT32_MAX)
        return 0;
    int symbolic = culprit_rt_sym_shadow_any(text, length);
    if (!symbolic)
        return 0;
    uint32_t source = 0;
    uint64_t offset = 0;
    for (size_t i = 0; i < length; i++) {
        culprit_sym_expr byte = culprit_rt_sym_shadow_byte(text + i);
        const struct rt_sym_node *node = byte ? culprit_rt_sym_node(byte) : NULL;
        if (!node || node->op != CULPRIT_SYM_BYTE ||
            (i > 0 && (node->a != source || node->value != offset + i))) {
            culprit_rt_sym_count(CULPRIT_SYM_STAT_CONCRETIZED_OTHER);
            return 0;
        }
        if (i == 0) {
            source = node->a;
            offset = node->value;
        }
    }
    return culprit_rt_sym_field(source, offset, (uint32_t)length, kind);
}
