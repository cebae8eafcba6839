/*
 * gcov_json.c - gcov's JSON intermediate format (`gcov --json-format`, gcc 9
 * and later), one file per test.
 *
 * gcov writes NAME.gcov.json.gz, gzip-compressed; with --stdout it writes
 * plain JSON, one document per object file, one after another.  Both are
 * read here: zlib's gzread passes uncompressed input through unchanged, and
 * documents are parsed one at a time until the input ends.  Every entry of
 * "lines" is an executable line (its "count" the execution count), and the
 * i-th entry of its "branches" the branch element "path:LINE:branch#i".
 * "file" is kept as gcov wrote it (relative to the directory gcc ran in).
 * Syntax errors are reported at their line and column; structural ones by
 * JSON path, as in spectra_json.c.  The decompressed bytes and the JSON
 * values are bounded (core/input_limits.h), so neither /dev/zero nor a
 * gzip bomb can take all memory.
 */
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "core/grow.h"
#include "core/input_limits.h"
#include "core/read_file.h"
#include "culprit/interchange.h"
#include "interchange/coverage_set.h"
#include "interchange/json_bounds.h"

typedef struct gcov_reader {
    const char *path;
    coverage_set *set;
    size_t document; /* 1-based, for messages when a file holds several */
    culprit_error *err;
} gcov_reader;

/* ---- the bytes: gzip or not ---- */

typedef struct byte_buffer {
    char *data;
    size_t length, capacity;
} byte_buffer;

/* zlib's message for the last error, less the "PATH: " it starts with. */
static const char *zlib_message(gzFile file, const char *path, int *code)
{
    const char *message = gzerror(file, code);
    size_t length = strlen(path);
    if (strncmp(message, path, length) == 0 && strncmp(message + length, ": ", 2) == 0)
        message += length + 2;
    return *code == Z_ERRNO ? strerror(errno) : message;
}

static culprit_status read_all(const char *path, byte_buffer *buffer, culprit_error *err)
{
    errno = 0;
    gzFile file = gzopen(path, "rb");
    if (!file)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: cannot open: %s", path,
                            errno ? strerror(errno) : "out of memory");
    culprit_status status = CULPRIT_OK;
    size_t limit =
        (size_t)CULPRIT_LIMIT_IMPORT_MIB * CULPRIT_MIB; /* after decompression: a gzip bomb stops here */
    for (;;) {
        if (buffer->length > limit) {
            status = culprit_fail_too_large(err, path, "an import file, decompressed", limit);
            break;
        }
        /* Room for one gzread of 65536 bytes. */
        if (!CULPRIT_GROW(buffer->data, buffer->capacity, buffer->length + 65536, 262144)) {
            status = culprit_fail_memory(err);
            break;
        }
        int got = gzread(file, buffer->data + buffer->length, 65536);
        if (got < 0) {
            int code;
            status = culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: cannot decompress: %s", path,
                                  zlib_message(file, path, &code));
            break;
        }
        if (got == 0) {
            /* gzread reports a truncated stream only through gzerror. */
            int code;
            const char *message = zlib_message(file, path, &code);
            if (code != Z_OK)
                status = culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: cannot decompress: %s", path, message);
            break;
        }
        buffer->length += (size_t)got;
    }
    gzclose(file);
    return status;
}

/* ---- the structure ---- */

static culprit_status shape_error(const gcov_reader *reader, const char *where, const char *expected)
{
    if (reader->document > 1)
        return culprit_fail(reader->err, CULPRIT_ERROR_INPUT, "%s: document %zu: %s: expected %s",
                            reader->path, reader->document, where, expected);
    return culprit_fail(reader->err, CULPRIT_ERROR_INPUT, "%s: %s: expected %s", reader->path, where,
                        expected);
}

static bool is_count(json_t *value)
{
    return json_is_integer(value) && json_integer_value(value) >= 0;
}

static culprit_status read_branches(gcov_reader *reader, json_t *branches, uint32_t file, uint32_t line,
                                    const char *where)
{
    char label[48], branch_where[256];
    for (size_t b = 0; b < json_array_size(branches); b++) {
        json_t *count = json_object_get(json_array_get(branches, b), "count");
        if (!is_count(count)) {
            snprintf(branch_where, sizeof branch_where, "%s.branches[%zu]", where, b);
            return shape_error(reader, branch_where, "an object with a non-negative integer \"count\"");
        }
        snprintf(label, sizeof label, "branch#%zu", b);
        uint32_t label_id;
        culprit_status status = coverage_set_intern(reader->set, label, &label_id, reader->err);
        if (!status)
            status = coverage_set_add(reader->set, CULPRIT_KIND_BRANCH, file, line, label_id,
                                      (uint64_t)json_integer_value(count), reader->err);
        if (status)
            return status;
    }
    return CULPRIT_OK;
}

static culprit_status read_line(gcov_reader *reader, json_t *entry, uint32_t file, const char *where)
{
    json_t *number = json_object_get(entry, "line_number"), *count = json_object_get(entry, "count");
    json_t *branches = json_object_get(entry, "branches");
    if (!json_is_object(entry))
        return shape_error(reader, where, "an object");
    if (!json_is_integer(number) || json_integer_value(number) < 1 || json_integer_value(number) > UINT32_MAX)
        return shape_error(reader, where, "\"line_number\" to be an integer from 1");
    if (!is_count(count))
        return shape_error(reader, where, "\"count\" to be a non-negative integer");
    if (branches && !json_is_array(branches))
        return shape_error(reader, where, "\"branches\" to be an array");
    uint32_t line = (uint32_t)json_integer_value(number);
    culprit_status status = coverage_set_add(reader->set, CULPRIT_KIND_LINE, file, line, COVERAGE_NO_LABEL,
                                             (uint64_t)json_integer_value(count), reader->err);
    return status ? status : read_branches(reader, branches, file, line, where);
}

static culprit_status read_source_file(gcov_reader *reader, json_t *entry, size_t index)
{
    char where[128];
    snprintf(where, sizeof where, "files[%zu]", index);
    json_t *name = json_object_get(entry, "file"), *lines = json_object_get(entry, "lines");
    if (!json_is_string(name) || json_string_length(name) == 0 || !json_is_array(lines))
        return shape_error(reader, where, "an object with a non-empty string \"file\" and a \"lines\" array");
    uint32_t file;
    culprit_status status = coverage_set_intern(reader->set, json_string_value(name), &file, reader->err);
    for (size_t i = 0; i < json_array_size(lines) && !status; i++) {
        snprintf(where, sizeof where, "files[%zu].lines[%zu]", index, i);
        status = read_line(reader, json_array_get(lines, i), file, where);
    }
    return status;
}

/* format_version "1" is gcc 9 to 13's, "2" gcc 14's (block ids and
 * conditions added; lines, counts and branches unchanged). */
static culprit_status read_document(gcov_reader *reader, json_t *root)
{
    json_t *version = json_object_get(root, "format_version"), *files = json_object_get(root, "files");
    if (!json_is_object(root))
        return shape_error(reader, "top level", "an object (gcov --json-format output)");
    if (!json_is_string(version) ||
        (strcmp(json_string_value(version), "1") != 0 && strcmp(json_string_value(version), "2") != 0))
        return shape_error(reader, "format_version", "\"1\" or \"2\" (gcov --json-format of gcc 9 or later)");
    if (!json_is_array(files))
        return shape_error(reader, "files", "an array");
    culprit_status status = CULPRIT_OK;
    for (size_t i = 0; i < json_array_size(files) && !status; i++)
        status = read_source_file(reader, json_array_get(files, i), i);
    return status;
}

/* ---- documents one after another ---- */

/* Advances (*line, *column) over text[0 .. length). */
static void advance_position(const char *text, size_t length, size_t *line, size_t *column)
{
    for (size_t i = 0; i < length; i++) {
        if (text[i] == '\n') {
            (*line)++;
            *column = 1;
        } else {
            (*column)++;
        }
    }
}

static culprit_status syntax_error(const gcov_reader *reader, const json_error_t *error, size_t line,
                                   size_t column)
{
    if (error->line < 1)
        return culprit_fail(reader->err, CULPRIT_ERROR_INPUT, "%s: %s", reader->path, error->text);
    /* jansson counts from where this document's parse began. */
    size_t error_column = error->column > 0 ? (size_t)error->column : 1;
    if (error->line == 1)
        error_column += column - 1;
    return culprit_fail_at(reader->err, reader->path, line + (size_t)error->line - 1, error_column, "%s",
                           error->text);
}

static culprit_status read_documents(gcov_reader *reader, const byte_buffer *buffer)
{
    size_t offset = 0, line = 1, column = 1;
    culprit_status status = CULPRIT_OK;
    while (!status) {
        size_t blanks = strspn(buffer->data + offset, " \t\r\n");
        advance_position(buffer->data + offset, blanks, &line, &column);
        offset += blanks;
        if (offset >= buffer->length)
            break;
        json_error_t error;
        json_t *root = json_loadb(buffer->data + offset, buffer->length - offset,
                                  JSON_DISABLE_EOF_CHECK | JSON_REJECT_DUPLICATES, &error);
        if (!root)
            return syntax_error(reader, &error, line, column);
        reader->document++;
        status = read_document(reader, root);
        json_decref(root);
        advance_position(buffer->data + offset, error.position, &line, &column);
        offset += error.position;
    }
    return status;
}

static culprit_status read_gcov_file(coverage_set *set, const char *path, culprit_error *err)
{
    static const char *const suffixes[] = {".gcov.json.gz", ".gcov.json", ".json.gz", ".json", NULL};
    byte_buffer buffer = {0};
    culprit_status status = coverage_set_begin_test(set, path, suffixes, err);
    if (!status)
        status = read_all(path, &buffer, err);
    if (!status && memchr(buffer.data, '\0', buffer.length))
        status = culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: expected JSON text, found a NUL byte", path);
    if (!status)
        status = json_check_bounds(buffer.data, buffer.length, path, err);
    if (!status) {
        buffer.data[buffer.length] = '\0'; /* read_all leaves room: strspn needs an end */
        gcov_reader reader = {.path = path, .set = set, .err = err};
        status = read_documents(&reader, &buffer);
    }
    free(buffer.data);
    return status;
}

culprit_status culprit_gcov_json_read(const char *const *paths, size_t count,
                                      const culprit_verdict_list *verdicts, culprit_spectra *spectra,
                                      culprit_error *err)
{
    coverage_set set;
    coverage_set_init(&set);
    culprit_status status = CULPRIT_OK;
    for (size_t i = 0; i < count && !status; i++)
        status = read_gcov_file(&set, paths[i], err);
    if (!status)
        status = coverage_set_build(&set, verdicts, spectra, err);
    coverage_set_free(&set);
    return status;
}
