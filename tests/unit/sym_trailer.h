/*
 * sym_trailer.h - a test-only reader of the path-constraint trailer
 * (include/culprit/sym_format.h) that runs with CULPRIT_SYM write after a
 * dump.  Written from the format header, not from src/rt: it walks the
 * dump's fixed part (dump_format.h) to find where the trailer starts,
 * decodes it (version 2: the switch section after the statistics), and
 * insists that it ends the file and that every node's operands are
 * earlier nodes.
 */
#ifndef CULPRIT_TEST_SYM_TRAILER_H
#define CULPRIT_TEST_SYM_TRAILER_H

#include "culprit/dump_format.h"
#include "culprit/sym_format.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

enum { TRAILER_MAX_SOURCES = 16, TRAILER_MAX_NODES = 4096, TRAILER_MAX_CONSTRAINTS = 256 };

struct trailer_source {
    uint32_t kind, index, flags;
    uint64_t length;
    char name[256];
};

struct trailer_node {
    uint32_t op, bits, a, b, c;
    uint64_t value;
};

struct trailer_constraint {
    uint32_t kind, expression, unit, block;
    uint64_t value;
};

enum { TRAILER_MAX_SWITCHES = 16, TRAILER_MAX_CASES = 64 };

struct trailer_switch {
    uint32_t unit, block, case_count;
    uint64_t cases[TRAILER_MAX_CASES];
};

struct trailer {
    uint32_t source_count, node_count, constraint_count, switch_count;
    struct trailer_source sources[TRAILER_MAX_SOURCES];
    struct trailer_node nodes[TRAILER_MAX_NODES + 1]; /* numbered from 1 */
    struct trailer_constraint constraints[TRAILER_MAX_CONSTRAINTS];
    uint64_t stats[CULPRIT_SYM_STAT_COUNT];
    struct trailer_switch switches[TRAILER_MAX_SWITCHES]; /* the writer's order */
};

struct trailer_cursor {
    const unsigned char *data;
    size_t size, at;
    int ok;
};

static inline uint64_t trailer_le(struct trailer_cursor *cursor, size_t bytes)
{
    uint64_t value = 0;
    if (cursor->size - cursor->at < bytes) {
        cursor->ok = 0;
        return 0;
    }
    for (size_t i = 0; i < bytes; i++)
        value |= (uint64_t)cursor->data[cursor->at + i] << (8 * i);
    cursor->at += bytes;
    return value;
}

static inline void trailer_skip(struct trailer_cursor *cursor, uint64_t bytes)
{
    if (cursor->size - cursor->at < bytes)
        cursor->ok = 0;
    else
        cursor->at += bytes;
}

/* Skips the dump proper; the cursor then stands at the trailer (or the end). */
static inline void trailer_skip_dump(struct trailer_cursor *cursor)
{
    cursor->at = CULPRIT_DUMP_OFF_UNIT_COUNT;
    uint32_t units = (uint32_t)trailer_le(cursor, 4);
    cursor->at = CULPRIT_DUMP_OFF_STACK_DEPTH;
    trailer_skip(cursor, (uint64_t)CULPRIT_DUMP_FRAME_SIZE * trailer_le(cursor, 4));
    for (uint32_t i = 0; i < units && cursor->ok; i++) {
        trailer_skip(cursor, CULPRIT_DUMP_HASH_SIZE + 4);
        trailer_skip(cursor, (uint64_t)CULPRIT_DUMP_ENTRY_SIZE * trailer_le(cursor, 4));
    }
    uint32_t outputs = (uint32_t)trailer_le(cursor, 4);
    for (uint32_t i = 0; i < outputs && cursor->ok; i++) {
        trailer_skip(cursor, 20);
        trailer_skip(cursor, (uint64_t)CULPRIT_DUMP_FRAME_SIZE * trailer_le(cursor, 4));
    }
}

static inline int trailer_operands(uint32_t op)
{
    if (op == CULPRIT_SYM_CONST || op == CULPRIT_SYM_BYTE || op == CULPRIT_SYM_FIELD)
        return 0;
    if (op >= CULPRIT_SYM_ZEXT && op <= CULPRIT_SYM_EXTRACT)
        return 1;
    if (op == CULPRIT_SYM_NOT)
        return 1;
    return op == CULPRIT_SYM_ITE ? 3 : 2;
}

/* Decodes the dump's trailer: 1 when present and well formed, 0 when the
 * dump has none (*present = 0) or it is malformed. */
static inline int trailer_decode(const unsigned char *data, size_t size, struct trailer *t, int *present)
{
    struct trailer_cursor c = {data, size, 0, size > CULPRIT_DUMP_HEADER_SIZE};
    memset(t, 0, sizeof *t);
    trailer_skip_dump(&c);
    *present = c.ok && c.at < size;
    if (!*present || size - c.at < CULPRIT_SYM_HEADER_SIZE ||
        memcmp(data + c.at, CULPRIT_SYM_MAGIC, CULPRIT_SYM_MAGIC_SIZE) != 0)
        return 0;
    c.at += CULPRIT_SYM_MAGIC_SIZE;
    if (trailer_le(&c, 4) != CULPRIT_SYM_VERSION)
        return 0;
    t->source_count = (uint32_t)trailer_le(&c, 4);
    t->node_count = (uint32_t)trailer_le(&c, 4);
    t->constraint_count = (uint32_t)trailer_le(&c, 4);
    if (t->source_count > TRAILER_MAX_SOURCES || t->node_count > TRAILER_MAX_NODES ||
        t->constraint_count > TRAILER_MAX_CONSTRAINTS)
        return 0;
    for (uint32_t i = 0; i < t->source_count; i++) {
        struct trailer_source *s = &t->sources[i];
        s->kind = (uint32_t)trailer_le(&c, 4);
        s->index = (uint32_t)trailer_le(&c, 4);
        s->length = trailer_le(&c, 8);
        s->flags = (uint32_t)trailer_le(&c, 4);
        uint32_t name_length = (uint32_t)trailer_le(&c, 4);
        if (!c.ok || name_length >= sizeof s->name || size - c.at < name_length)
            return 0;
        memcpy(s->name, data + c.at, name_length);
        c.at += name_length;
    }
    for (uint32_t n = 1; n <= t->node_count; n++) {
        struct trailer_node *node = &t->nodes[n];
        node->op = (uint32_t)trailer_le(&c, 1);
        node->bits = (uint32_t)trailer_le(&c, 1);
        trailer_le(&c, 2);
        node->a = (uint32_t)trailer_le(&c, 4);
        node->b = (uint32_t)trailer_le(&c, 4);
        node->c = (uint32_t)trailer_le(&c, 4);
        node->value = trailer_le(&c, 8);
        int operands = trailer_operands(node->op);
        if ((operands >= 1 && (node->a == 0 || node->a >= n)) ||
            (operands >= 2 && (node->b == 0 || node->b >= n)) ||
            (operands >= 3 && (node->c == 0 || node->c >= n)) || node->bits == 0 || node->bits > 64)
            return 0;
    }
    for (uint32_t i = 0; i < t->constraint_count; i++) {
        struct trailer_constraint *k = &t->constraints[i];
        k->kind = (uint32_t)trailer_le(&c, 4);
        k->expression = (uint32_t)trailer_le(&c, 4);
        k->unit = (uint32_t)trailer_le(&c, 4);
        k->block = (uint32_t)trailer_le(&c, 4);
        k->value = trailer_le(&c, 8);
        if (k->expression == 0 || k->expression > t->node_count)
            return 0;
    }
    for (int i = 0; i < CULPRIT_SYM_STAT_COUNT; i++)
        t->stats[i] = trailer_le(&c, 8);
    t->switch_count = (uint32_t)trailer_le(&c, 4);
    if (t->switch_count > TRAILER_MAX_SWITCHES)
        return 0;
    for (uint32_t i = 0; i < t->switch_count; i++) {
        struct trailer_switch *w = &t->switches[i];
        w->unit = (uint32_t)trailer_le(&c, 4);
        w->block = (uint32_t)trailer_le(&c, 4);
        w->case_count = (uint32_t)trailer_le(&c, 4);
        if (w->case_count == 0 || w->case_count > TRAILER_MAX_CASES)
            return 0;
        for (uint32_t k = 0; k < w->case_count; k++)
            w->cases[k] = trailer_le(&c, 8);
    }
    return c.ok && c.at == size;
}

/* ---- running a scenario in a child ----
 * The runtime reads CULPRIT_SYM once per process, so each scenario runs in
 * a fresh image of the test program: /proc/self/exe PROGRAM scenario NAME
 * BASE, with stdin from BASE/input (holding input_text), dumps collected in
 * BASE/collect, and the settings (NAME=VALUE, NULL ended) in its
 * environment.  Returns its wait status; *t holds the trailer of its dump,
 * *present whether there was one, *decoded whether it decoded. */
static inline int trailer_run_scenario(const char *program, const char *name, const char *base,
                                       const char *input_text, const char *const *settings, struct trailer *t,
                                       int *present, int *decoded)
{
    char collect[256], input[256];
    snprintf(collect, sizeof collect, "%s/collect", base);
    snprintf(input, sizeof input, "%s/input", base);
    mkdir(collect, 0700);
    DIR *dir = opendir(collect);
    for (struct dirent *entry; dir && (entry = readdir(dir));) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", collect, entry->d_name);
        if (strcmp(entry->d_name, ".") != 0 && strcmp(entry->d_name, "..") != 0)
            unlink(path);
    }
    if (dir)
        closedir(dir);
    FILE *file = fopen(input, "w");
    if (file) {
        fputs(input_text, file);
        fclose(file);
    }
    fflush(NULL);
    pid_t child = fork();
    if (child == 0) {
        int fd = open(input, O_RDONLY);
        if (fd < 0 || dup2(fd, 0) < 0)
            _exit(98);
        setenv("CULPRIT_COLLECT_DIR", collect, 1);
        unsetenv("CULPRIT_SYM");
        for (int i = 0; settings[i]; i++)
            putenv((char *)settings[i]);
        execl("/proc/self/exe", program, "scenario", name, base, (char *)NULL);
        _exit(97);
    }
    int status = -1;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR)
        ;
    *present = *decoded = 0;
    dir = opendir(collect);
    for (struct dirent *entry; dir && (entry = readdir(dir));) {
        size_t length = strlen(entry->d_name);
        if (entry->d_name[0] == '.' || length < 5 || strcmp(entry->d_name + length - 5, ".dump") != 0)
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", collect, entry->d_name);
        FILE *dump = fopen(path, "rb");
        static unsigned char data[1 << 20];
        size_t size = dump ? fread(data, 1, sizeof data, dump) : 0;
        if (dump)
            fclose(dump);
        *decoded = trailer_decode(data, size, t, present);
    }
    if (dir)
        closedir(dir);
    return status;
}

#endif
