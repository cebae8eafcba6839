/*
 * map_text.c - the program map text of one unit (docs/collector.md §2).
 *
 * Records arrive in whatever order the IR walk meets them; each kind goes to
 * its own buffer so that the text always lists files, functions, blocks,
 * lines, edges, branches, returns, spec sites and mutants in that order.  Lines are collected as
 * (file, line, block) facts and grouped at the end, because a line's blocks
 * are only known once the whole unit has been walked.
 */
#include "cc/map_text.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "core/read_file.h"
#include "core/sha256.h"

/* One source file's text and where its lines start (map_text.h). */
struct cc_map_source {
    bool tried;
    char *bytes;
    size_t size;
    size_t *line_starts; /* line_starts[k] = offset of line k + 1 */
    size_t line_count;
};

culprit_status cc_text_append(cc_text *text, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    char probe[256];
    int needed = vsnprintf(probe, sizeof probe, format, args);
    va_end(args);
    if (needed < 0)
        return CULPRIT_ERROR_INTERNAL;
    size_t wanted = text->size + (size_t)needed + 1;
    if (!CULPRIT_GROW(text->data, text->capacity, wanted, 1024))
        return CULPRIT_ERROR_INTERNAL;
    if ((size_t)needed < sizeof probe) {
        memcpy(text->data + text->size, probe, (size_t)needed + 1);
    } else {
        va_start(args, format);
        vsnprintf(text->data + text->size, (size_t)needed + 1, format, args);
        va_end(args);
    }
    text->size += (size_t)needed;
    return CULPRIT_OK;
}

void cc_text_free(cc_text *text)
{
    free(text->data);
    text->data = NULL;
    text->size = text->capacity = 0;
}

void cc_map_init(cc_map *map, cc_coverage mode)
{
    memset(map, 0, sizeof *map);
    map->mode = mode;
}

void cc_map_free(cc_map *map)
{
    for (size_t i = 0; i < map->path_count; i++)
        free(map->paths[i]);
    free(map->paths);
    cc_text_free(&map->files);
    cc_text_free(&map->functions);
    cc_text_free(&map->blocks);
    cc_text_free(&map->edges);
    cc_text_free(&map->branches);
    cc_text_free(&map->returns);
    cc_text_free(&map->specs);
    cc_text_free(&map->mutants);
    free(map->lines);
    free(map->source_digests);
    for (size_t i = 0; i < map->source_count; i++) {
        free(map->sources[i].bytes);
        free(map->sources[i].line_starts);
    }
    free(map->sources);
    memset(map, 0, sizeof *map);
}

/* Fields are tab-separated and records newline-terminated: a name that holds
 * either cannot be written without an escape syntax the format lacks. */
static culprit_status check_field(const char *what, const char *value, culprit_error *err)
{
    if (strpbrk(value, "\t\n\r"))
        return culprit_fail(err, CULPRIT_ERROR_INPUT,
                            "%s '%s' contains a tab or newline, which a culprit program map cannot hold",
                            what, value);
    return CULPRIT_OK;
}

static culprit_status appended(culprit_status status, culprit_error *err)
{
    return status == CULPRIT_OK ? CULPRIT_OK : culprit_fail_memory(err);
}

culprit_status cc_map_add_file(cc_map *map, const char *path, uint32_t *index, culprit_error *err)
{
    for (size_t i = 0; i < map->path_count; i++) {
        if (strcmp(map->paths[i], path) == 0) {
            *index = (uint32_t)i;
            return CULPRIT_OK;
        }
    }
    culprit_status status = check_field("source path", path, err);
    if (status != CULPRIT_OK)
        return status;
    if (!CULPRIT_GROW(map->paths, map->path_capacity, map->path_count + 1, 16))
        return culprit_fail_memory(err);
    char *copy = strdup(path);
    if (!copy)
        return culprit_fail_memory(err);
    map->paths[map->path_count] = copy;
    *index = (uint32_t)map->path_count++;
    return appended(cc_text_append(&map->files, "file\t%u\t%s\n", *index, path), err);
}

culprit_status cc_map_add_function(cc_map *map, const char *name, uint32_t file, uint32_t line,
                                   uint32_t *index, culprit_error *err)
{
    culprit_status status = check_field("function name", name, err);
    if (status != CULPRIT_OK)
        return status;
    *index = map->function_count++;
    return appended(cc_text_append(&map->functions, "function\t%u\t%s\t%u\t%u\n", *index, name, file, line),
                    err);
}

culprit_status cc_map_add_block(cc_map *map, const cc_map_block *block, culprit_error *err)
{
    return appended(cc_text_append(&map->blocks, "block\t%u\t%u\t%u\t%u\t%u\t%u\t%u\n", block->counter,
                                   block->function, block->file, block->first_line, block->first_column,
                                   block->last_line, block->last_column),
                    err);
}

culprit_status cc_map_add_line(cc_map *map, uint32_t file, uint32_t line, uint32_t block, culprit_error *err)
{
    if (!CULPRIT_GROW(map->lines, map->line_capacity, map->line_count + 1, 256))
        return culprit_fail_memory(err);
    map->lines[map->line_count++] = (cc_map_line_fact){.file = file, .line = line, .block = block};
    return CULPRIT_OK;
}

culprit_status cc_map_add_edge(cc_map *map, int64_t counter, uint32_t from, uint32_t to, culprit_error *err)
{
    culprit_status status;
    if (counter < 0)
        status = cc_text_append(&map->edges, "edge\t-\t%u\t%u\n", from, to);
    else
        status = cc_text_append(&map->edges, "edge\t%lld\t%u\t%u\n", (long long)counter, from, to);
    return appended(status, err);
}

culprit_status cc_map_add_branch(cc_map *map, uint32_t edge_counter, cc_map_location condition_at,
                                 const char *outcome, uint32_t condition, culprit_error *err)
{
    return appended(cc_text_append(&map->branches, "branch\t%u\t%u\t%u\t%u\t%s\t%u\n", edge_counter,
                                   condition_at.file, condition_at.line, condition_at.column, outcome,
                                   condition),
                    err);
}

culprit_status cc_map_add_return(cc_map *map, uint32_t counter, uint32_t block, cc_map_location call_at,
                                 const char *class_name, const char *callee, culprit_error *err)
{
    culprit_status status = check_field("callee name", callee, err);
    if (status != CULPRIT_OK)
        return status;
    return appended(cc_text_append(&map->returns, "return\t%u\t%u\t%u\t%u\t%u\t%s\t%s\n", counter, block,
                                   call_at.file, call_at.line, call_at.column, class_name, callee),
                    err);
}

culprit_status cc_map_add_spec(cc_map *map, uint32_t block, const char *kind, cc_map_location at,
                               const char *text, culprit_error *err)
{
    /* A stringized condition may hold a tab from the source; no tab or
     * newline may reach the record. */
    char *flat = strdup(text);
    if (!flat)
        return culprit_fail_memory(err);
    for (char *c = flat; *c; c++)
        if (*c == '\t' || *c == '\n' || *c == '\r')
            *c = ' ';
    culprit_status status = cc_text_append(&map->specs, "spec\t%u\t%s\t%u\t%u\t%u\t%s\n", block, kind,
                                           at.file, at.line, at.column, flat);
    free(flat);
    return appended(status, err);
}

static int compare_line_facts(const void *left, const void *right)
{
    const cc_map_line_fact *a = left, *b = right;
    if (a->file != b->file)
        return a->file < b->file ? -1 : 1;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    if (a->block != b->block)
        return a->block < b->block ? -1 : 1;
    return 0;
}

/* One `line` record per distinct (file, line), its blocks ascending and unique. */
static culprit_status write_lines(cc_map *map, cc_text *body)
{
    if (map->line_count > 1)
        qsort(map->lines, map->line_count, sizeof *map->lines, compare_line_facts);
    for (size_t i = 0; i < map->line_count;) {
        const cc_map_line_fact *first = &map->lines[i];
        if (cc_text_append(body, "line\t%u\t%u\t%u", first->file, first->line, first->block) != CULPRIT_OK)
            return CULPRIT_ERROR_INTERNAL;
        size_t j = i + 1;
        for (; j < map->line_count && map->lines[j].file == first->file && map->lines[j].line == first->line;
             j++)
            if (map->lines[j].block != map->lines[j - 1].block &&
                cc_text_append(body, ",%u", map->lines[j].block) != CULPRIT_OK)
                return CULPRIT_ERROR_INTERNAL;
        if (cc_text_append(body, "\n") != CULPRIT_OK)
            return CULPRIT_ERROR_INTERNAL;
        i = j;
    }
    return CULPRIT_OK;
}

/* One `source FILE HASH` record per file whose content was digested. */
static culprit_status write_sources(const cc_map *map, cc_text *body)
{
    for (size_t i = 0; map->source_digests && i < map->path_count; i++)
        if (map->source_digests[i][0] && cc_text_append(body, "source\t%zu\t%s\n", i, map->source_digests[i]))
            return CULPRIT_ERROR_INTERNAL;
    return CULPRIT_OK;
}

culprit_status cc_map_add_mutant(cc_map *map, uint32_t block, cc_map_location at, const char *operator_name,
                                 const char *description, uint32_t *id, culprit_error *err)
{
    culprit_status status = check_field("mutant description", description, err);
    if (status != CULPRIT_OK)
        return status;
    *id = ++map->mutant_count;
    return appended(cc_text_append(&map->mutants, "mutant\t%u\t%u\t%u\t%u\t%u\t%s\t%s\n", *id, block, at.file,
                                   at.line, at.column, operator_name, description),
                    err);
}

static culprit_status assemble_body(cc_map *map, cc_text *body)
{
    if (map->files.size && cc_text_append(body, "%s", map->files.data) != CULPRIT_OK)
        return CULPRIT_ERROR_INTERNAL;
    if (write_sources(map, body) != CULPRIT_OK)
        return CULPRIT_ERROR_INTERNAL;
    const cc_text *before_lines[] = {&map->functions, &map->blocks};
    const cc_text *after_lines[] = {&map->edges, &map->branches, &map->returns, &map->specs, &map->mutants};
    for (size_t i = 0; i < sizeof before_lines / sizeof *before_lines; i++)
        if (before_lines[i]->size && cc_text_append(body, "%s", before_lines[i]->data) != CULPRIT_OK)
            return CULPRIT_ERROR_INTERNAL;
    if (write_lines(map, body) != CULPRIT_OK)
        return CULPRIT_ERROR_INTERNAL;
    for (size_t i = 0; i < sizeof after_lines / sizeof *after_lines; i++)
        if (after_lines[i]->size && cc_text_append(body, "%s", after_lines[i]->data) != CULPRIT_OK)
            return CULPRIT_ERROR_INTERNAL;
    return cc_text_append(body, "end\n");
}

/* The file's text, read on first use; NULL when it cannot be read. */
static struct cc_map_source *source_of(cc_map *map, uint32_t file)
{
    if (file >= map->path_count)
        return NULL;
    if (file >= map->source_count) {
        if (!CULPRIT_GROW(map->sources, map->source_capacity, map->path_count, 16))
            return NULL;
        memset(map->sources + map->source_count, 0,
               (map->path_count - map->source_count) * sizeof *map->sources);
        map->source_count = map->path_count;
    }
    struct cc_map_source *source = &map->sources[file];
    if (source->tried)
        return source->bytes ? source : NULL;
    source->tried = true;
    culprit_error ignored;
    /* no bound of its own: clang has just compiled it */
    if (culprit_read_whole_file(map->paths[file], SIZE_MAX, "a source file", &source->bytes, &source->size,
                                &ignored) != CULPRIT_OK) {
        source->bytes = NULL;
        return NULL;
    }
    size_t count = 1;
    for (size_t i = 0; i < source->size; i++)
        count += source->bytes[i] == '\n';
    source->line_starts = malloc(count * sizeof *source->line_starts);
    if (!source->line_starts) {
        free(source->bytes);
        source->bytes = NULL;
        return NULL;
    }
    source->line_starts[source->line_count++] = 0;
    for (size_t i = 0; i < source->size; i++)
        if (source->bytes[i] == '\n')
            source->line_starts[source->line_count++] = i + 1;
    return source;
}

bool cc_map_source_line(cc_map *map, uint32_t file, uint32_t line, const char **text, size_t *length)
{
    struct cc_map_source *source = source_of(map, file);
    if (!source || line == 0 || line > source->line_count)
        return false;
    size_t start = source->line_starts[line - 1];
    size_t end = line < source->line_count ? source->line_starts[line] - 1 : source->size;
    *text = source->bytes + start;
    *length = end - start;
    return true;
}

culprit_status cc_map_digest_sources(cc_map *map, culprit_error *err)
{
    free(map->source_digests);
    map->source_digests = calloc(map->path_count + 1, sizeof *map->source_digests);
    if (!map->source_digests)
        return culprit_fail_memory(err);
    for (size_t i = 0; i < map->path_count; i++) {
        const struct cc_map_source *source = source_of(map, (uint32_t)i);
        if (!source)
            continue;
        culprit_sha256 sha;
        unsigned char digest[CULPRIT_SHA256_DIGEST_SIZE];
        culprit_sha256_init(&sha);
        culprit_sha256_update(&sha, source->bytes, source->size);
        culprit_sha256_final(&sha, digest);
        culprit_sha256_hex(digest, map->source_digests[i]);
    }
    return CULPRIT_OK;
}

culprit_status cc_map_finish(cc_map *map, uint32_t counter_count, uint32_t block_count, cc_map_result *result,
                             culprit_error *err)
{
    memset(result, 0, sizeof *result);
    cc_text body = {0}, whole = {0};
    if (assemble_body(map, &body) != CULPRIT_OK) {
        cc_text_free(&body);
        return culprit_fail_memory(err);
    }
    /* The hash covers the body only: the unit line that names it cannot be part of it. */
    culprit_sha256 sha;
    unsigned char digest[CULPRIT_SHA256_DIGEST_SIZE];
    culprit_sha256_init(&sha);
    culprit_sha256_update(&sha, body.data, body.size);
    culprit_sha256_final(&sha, digest);
    culprit_sha256_hex(digest, result->hash);
    const char *mode = map->mode == CC_COVERAGE_LINES ? "lines" : "full";
    if (cc_text_append(&whole, "culprit-map\t1\nunit\t%s\t%s\t%u\t%u\n%s", result->hash, mode, counter_count,
                       block_count, body.data) != CULPRIT_OK) {
        cc_text_free(&body);
        cc_text_free(&whole);
        return culprit_fail_memory(err);
    }
    cc_text_free(&body);
    result->text = whole.data;
    result->size = whole.size;
    return CULPRIT_OK;
}
