/*
 * spectra_json.c - the full-fidelity JSON form of a spectra (docs/formats.md):
 * files, elements with kind/file/line/column/name, tests with verdict,
 * duration, hit element ids and sparse counts; and, for a program collected
 * from culprit-cc builds, its structure (culprit/program.h): the units'
 * maps and each test's crash stack, which the techniques that walk the
 * control-flow graph need.  `culprit export json` and `culprit import json`
 * round-trip through it.  Reading uses jansson, whose syntax errors carry
 * line and column; structural errors name the JSON path, and a structure
 * that does not fit the elements (maps that assemble into another table,
 * crash frames naming no block) is refused rather than ranked wrongly.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/input_limits.h"
#include "core/read_file.h"
#include "culprit/interchange.h"
#include "interchange/json_bounds.h"

enum { SPECTRA_JSON_VERSION = 1 };

static json_t *element_to_json(const culprit_spectra *spectra, const culprit_element *element)
{
    return json_pack("{s:s, s:o, s:I, s:I, s:o}", "kind", culprit_kind_name(element->kind), "file",
                     element->file == CULPRIT_NO_FILE ? json_null()
                                                      : json_string(spectra->files[element->file]),
                     "line", (json_int_t)element->line, "column", (json_int_t)element->column, "name",
                     element->name ? json_string(element->name) : json_null());
}

static json_t *test_to_json(const culprit_spectra *spectra, size_t test)
{
    const culprit_test *t = &spectra->tests[test];
    json_t *hits = json_array();
    for (uint32_t e = 0; e < spectra->element_count; e++)
        if (culprit_spectra_hit(spectra, test, e))
            json_array_append_new(hits, json_integer(e));
    json_t *counts = json_array();
    const culprit_counts *c = &spectra->counts[test];
    for (size_t i = 0; i < c->length; i++)
        json_array_append_new(counts,
                              json_pack("[I, I]", (json_int_t)c->elements[i], (json_int_t)c->counts[i]));
    return json_pack("{s:s, s:s, s:o, s:o, s:o}", "name", t->name, "verdict",
                     culprit_verdict_name(t->verdict), "duration",
                     t->duration_seconds >= 0 ? json_real(t->duration_seconds) : json_null(), "hits", hits,
                     "counts", counts);
}

/* Adds the structure to root: "units", the maps, and each crashed test's
 * "crash", the stored crash text as JSON. */
static culprit_status structure_to_json(const culprit_spectra *spectra,
                                        const culprit_program_structure *structure, json_t *root,
                                        culprit_error *err)
{
    json_t *tests = json_object_get(root, "tests");
    for (size_t t = 0; structure->crashes && t < structure->test_count && t < spectra->test_count; t++) {
        if (!structure->crashes[t])
            continue;
        json_t *crash = json_loads(structure->crashes[t], 0, NULL);
        if (!crash || json_object_set_new(json_array_get(tests, t), "crash", crash) != 0)
            return culprit_fail(err, CULPRIT_ERROR_INPUT, "test '%s': its stored crash is not JSON",
                                spectra->tests[t].name);
    }
    json_t *units = json_array();
    if (!units || json_object_set_new(root, "units", units) != 0)
        return culprit_fail_memory(err);
    for (size_t u = 0; u < structure->units.count; u++) {
        const culprit_unit *unit = structure->units.units[u];
        json_t *text = json_stringn(unit->text, unit->text_size);
        if (!text || json_array_append_new(units, text) != 0)
            return culprit_fail(err, CULPRIT_ERROR_INPUT,
                                "unit %.12s: its map is not valid UTF-8, which JSON cannot hold", unit->hash);
    }
    return CULPRIT_OK;
}

culprit_status culprit_json_write(const culprit_spectra *spectra, const culprit_program_structure *structure,
                                  FILE *out, culprit_error *err)
{
    json_t *elements = json_array(), *tests = json_array();
    for (uint32_t e = 0; e < spectra->element_count; e++)
        json_array_append_new(elements, element_to_json(spectra, &spectra->elements[e]));
    for (size_t t = 0; t < spectra->test_count; t++)
        json_array_append_new(tests, test_to_json(spectra, t));
    char hash[65];
    culprit_spectra_program_hash(spectra, hash);
    json_t *root = json_pack("{s:s, s:i, s:s, s:o, s:o}", "format", "culprit-spectra", "version",
                             SPECTRA_JSON_VERSION, "program", hash, "elements", elements, "tests", tests);
    if (!root)
        return culprit_fail_memory(err);
    culprit_status status = CULPRIT_OK;
    if (structure && structure->units.count > 0 &&
        (status = structure_to_json(spectra, structure, root, err))) {
        json_decref(root);
        return status;
    }
    int failed = json_dumpf(root, out, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    json_decref(root);
    if (failed || fputc('\n', out) == EOF || ferror(out))
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "write error while exporting JSON");
    return CULPRIT_OK;
}

/* ---- reading ---- */

typedef struct json_reader {
    const char *path;
    culprit_spectra *spectra;
    culprit_program_structure *structure; /* NULL: "units" and "crash" are not read */
    culprit_error *err;
} json_reader;

static culprit_status shape_error(const json_reader *reader, const char *where, const char *expected)
{
    return culprit_fail(reader->err, CULPRIT_ERROR_INPUT, "%s: %s: expected %s", reader->path, where,
                        expected);
}

static int read_uint32(json_t *value, uint32_t *out)
{
    if (!json_is_integer(value) || json_integer_value(value) < 0 || json_integer_value(value) > UINT32_MAX)
        return -1;
    *out = (uint32_t)json_integer_value(value);
    return 0;
}

static culprit_status read_element(json_reader *reader, size_t index, json_t *object)
{
    char where[64];
    snprintf(where, sizeof where, "elements[%zu]", index);
    json_t *kind_value = json_object_get(object, "kind"), *file_value = json_object_get(object, "file");
    json_t *name_value = json_object_get(object, "name");
    culprit_kind kind;
    uint32_t line = 0, column = 0, file = CULPRIT_NO_FILE;
    if (!json_is_object(object))
        return shape_error(reader, where, "an object");
    if (!json_is_string(kind_value) || culprit_kind_parse(json_string_value(kind_value), &kind) != 0)
        return shape_error(reader, where,
                           "\"kind\" to be line, block, edge, branch, return, predicate or opaque");
    if (read_uint32(json_object_get(object, "line"), &line) != 0 ||
        read_uint32(json_object_get(object, "column"), &column) != 0)
        return shape_error(reader, where, "\"line\" and \"column\" to be non-negative integers");
    if (!(json_is_null(file_value) || json_is_string(file_value)) ||
        !(json_is_null(name_value) || json_is_string(name_value)))
        return shape_error(reader, where, "\"file\" and \"name\" to be strings or null");
    if (kind == CULPRIT_KIND_OPAQUE && !(json_is_string(name_value) && *json_string_value(name_value)))
        return shape_error(reader, where, "a non-empty string \"name\" for an opaque element");
    if (json_is_string(file_value)) {
        culprit_status status =
            culprit_spectra_add_file(reader->spectra, json_string_value(file_value), &file, reader->err);
        if (status)
            return status;
    }
    return culprit_spectra_add_element(reader->spectra, kind, file, line, column,
                                       json_is_string(name_value) ? json_string_value(name_value) : NULL,
                                       NULL, reader->err);
}

static culprit_status read_counts(json_reader *reader, size_t test, json_t *array, const char *where)
{
    size_t length = json_array_size(array);
    uint32_t *elements = malloc((length + 1) * sizeof *elements);
    uint64_t *counts = malloc((length + 1) * sizeof *counts);
    culprit_status status = elements && counts ? CULPRIT_OK : culprit_fail_memory(reader->err);
    for (size_t i = 0; i < length && !status; i++) {
        json_t *pair = json_array_get(array, i), *count = json_array_get(pair, 1);
        if (json_array_size(pair) != 2 || read_uint32(json_array_get(pair, 0), &elements[i]) != 0 ||
            !json_is_integer(count) || json_integer_value(count) < 0)
            status = shape_error(reader, where,
                                 "\"counts\" to be [element, count] pairs of non-negative integers");
        else
            counts[i] = (uint64_t)json_integer_value(count);
    }
    if (!status)
        status = culprit_spectra_set_counts(reader->spectra, test, length, elements, counts, reader->err);
    free(elements);
    free(counts);
    return status;
}

/* ---- the structure: "units" and each test's "crash" ---- */

/* The element the maps give (assembled) and the one the file lists, in
 * words for a message: "block 'main:b3'". */
static void describe_element(const culprit_spectra *spectra, uint32_t element, char *buffer, size_t size)
{
    char label[512];
    culprit_spectra_element_label(spectra, element, label, sizeof label);
    snprintf(buffer, size, "%s '%s'", culprit_kind_name(spectra->elements[element].kind), label);
}

static bool same_text(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

static bool same_element(const culprit_spectra *a, const culprit_spectra *b, uint32_t e)
{
    const culprit_element *x = &a->elements[e], *y = &b->elements[e];
    return x->kind == y->kind && x->line == y->line && x->column == y->column &&
           same_text(x->name, y->name) &&
           same_text(x->file == CULPRIT_NO_FILE ? NULL : a->files[x->file],
                     y->file == CULPRIT_NO_FILE ? NULL : b->files[y->file]);
}

/* The units must be those "elements" was assembled from: techniques build
 * the program's graph from them against that table. */
static culprit_status check_assembly(json_reader *reader)
{
    culprit_spectra assembled;
    culprit_spectra_init(&assembled);
    culprit_program_layout layout = {0};
    culprit_status status =
        culprit_program_build(&reader->structure->units, &assembled, &layout, reader->err);
    const culprit_spectra *listed = reader->spectra;
    char expected[600], found[600], problem[1400];
    if (!status && assembled.element_count != listed->element_count) {
        snprintf(problem, sizeof problem,
                 "the maps of the units \"elements\" was assembled from; they make %zu elements, not %zu",
                 assembled.element_count, listed->element_count);
        status = shape_error(reader, "units", problem);
    }
    for (uint32_t e = 0; !status && e < listed->element_count; e++) {
        if (same_element(&assembled, listed, e))
            continue;
        describe_element(&assembled, e, expected, sizeof expected);
        describe_element(listed, e, found, sizeof found);
        snprintf(problem, sizeof problem,
                 "the maps of the units \"elements\" was assembled from; they make elements[%u] %s, not %s",
                 e, expected, found);
        status = shape_error(reader, "units", problem);
    }
    culprit_program_layout_free(&layout);
    culprit_spectra_free(&assembled);
    return status;
}

/* "units": one string per unit, its whole program map. */
static culprit_status read_units(json_reader *reader, json_t *units)
{
    if (!json_is_array(units))
        return shape_error(reader, "units", "an array of program maps (strings)");
    culprit_status status = CULPRIT_OK;
    for (size_t i = 0; i < json_array_size(units) && !status; i++) {
        char where[80];
        snprintf(where, sizeof where, "units[%zu]", i);
        json_t *map = json_array_get(units, i);
        if (!json_is_string(map))
            return shape_error(reader, where, "a string (a unit's program map)");
        char source[4200];
        snprintf(source, sizeof source, "%s: %s", reader->path, where);
        status = culprit_map_parse(json_string_value(map), json_string_length(map), source,
                                   &reader->structure->units, reader->err);
    }
    culprit_unit_set_sort(&reader->structure->units);
    return status || json_array_size(units) == 0 ? status : check_assembly(reader);
}

/* One frame of a crash stack names a block of one of the units. */
static bool known_block(const culprit_unit_set *units, json_t *frame)
{
    const char *hash = json_string_value(json_object_get(frame, "unit"));
    json_t *block = json_object_get(frame, "block");
    const culprit_unit *unit = hash && strlen(hash) == 64 ? culprit_unit_set_find(units, hash) : NULL;
    return unit && json_is_integer(block) && json_integer_value(block) >= 0 &&
           json_integer_value(block) < (json_int_t)unit->block_count;
}

/* A test's "crash", as test_runs.crash holds it: {"pid", "signal",
 * "stack": [{"unit": HASH, "block": N, ...}, ...]}; kept as its text. */
static culprit_status read_crash(json_reader *reader, size_t test, json_t *crash, const char *test_where)
{
    char where[128];
    snprintf(where, sizeof where, "%s.crash", test_where);
    const culprit_unit_set *units = &reader->structure->units;
    json_t *stack = json_object_get(crash, "stack");
    if (units->count == 0)
        return shape_error(reader, where,
                           "the program's \"units\" beside it (a crash stack names their blocks)");
    if (!json_is_object(crash) || !json_is_array(stack))
        return shape_error(reader, where, "an object with a \"stack\" array");
    for (size_t i = 0; i < json_array_size(stack); i++)
        if (!known_block(units, json_array_get(stack, i))) {
            snprintf(where, sizeof where, "%s.crash.stack[%zu]", test_where, i);
            return shape_error(reader, where,
                               "{\"unit\": HASH, \"block\": N} naming a block of one of the \"units\"");
        }
    reader->structure->crashes[test] = json_dumps(crash, JSON_COMPACT | JSON_PRESERVE_ORDER);
    return reader->structure->crashes[test] ? CULPRIT_OK : culprit_fail_memory(reader->err);
}

static culprit_status read_test(json_reader *reader, size_t index, json_t *object)
{
    char where[64];
    snprintf(where, sizeof where, "tests[%zu]", index);
    json_t *name = json_object_get(object, "name"), *verdict_value = json_object_get(object, "verdict");
    json_t *duration = json_object_get(object, "duration"), *hits = json_object_get(object, "hits");
    json_t *counts = json_object_get(object, "counts");
    culprit_verdict verdict;
    if (!json_is_object(object) || !json_is_string(name))
        return shape_error(reader, where, "an object with a string \"name\"");
    if (!json_is_string(verdict_value) ||
        culprit_verdict_parse(json_string_value(verdict_value), &verdict) != 0)
        return shape_error(reader, where, "\"verdict\" to be pass, fail, error, timeout or skip");
    if (!json_is_array(hits) || (counts && !json_is_array(counts)) ||
        (duration && !json_is_null(duration) && !json_is_number(duration)))
        return shape_error(reader, where,
                           "\"hits\" (and \"counts\") arrays and a numeric or null \"duration\"");
    size_t test;
    culprit_status status =
        culprit_spectra_add_test(reader->spectra, json_string_value(name), verdict, &test, reader->err);
    if (status)
        return status;
    if (json_is_number(duration))
        reader->spectra->tests[test].duration_seconds = json_number_value(duration);
    for (size_t i = 0; i < json_array_size(hits); i++) {
        uint32_t element;
        if (read_uint32(json_array_get(hits, i), &element) != 0 || element >= reader->spectra->element_count)
            return shape_error(reader, where,
                               "\"hits\" to hold element indices below the number of elements");
        culprit_spectra_set_hit(reader->spectra, test, element);
    }
    status = counts ? read_counts(reader, test, counts, where) : CULPRIT_OK;
    json_t *crash = json_object_get(object, "crash");
    if (!status && crash && reader->structure)
        status = read_crash(reader, test, crash, where);
    return status;
}

static culprit_status read_root(json_reader *reader, json_t *root)
{
    json_t *format = json_object_get(root, "format"), *version = json_object_get(root, "version");
    json_t *elements = json_object_get(root, "elements"), *tests = json_object_get(root, "tests");
    if (!json_is_object(root) || !json_is_string(format) ||
        strcmp(json_string_value(format), "culprit-spectra"))
        return shape_error(reader, "top level", "an object with \"format\": \"culprit-spectra\"");
    if (!json_is_integer(version) || json_integer_value(version) != SPECTRA_JSON_VERSION)
        return shape_error(reader, "version", "1");
    if (!json_is_array(elements) || !json_is_array(tests))
        return shape_error(reader, "top level", "\"elements\" and \"tests\" arrays");
    culprit_status status = CULPRIT_OK;
    for (size_t i = 0; i < json_array_size(elements) && !status; i++)
        status = read_element(reader, i, json_array_get(elements, i));
    json_t *units = json_object_get(root, "units");
    if (!status && units && reader->structure)
        status = read_units(reader, units);
    if (!status && reader->structure) {
        reader->structure->test_count = json_array_size(tests);
        reader->structure->crashes = calloc(json_array_size(tests) + 1, sizeof(char *));
        if (!reader->structure->crashes)
            status = culprit_fail_memory(reader->err);
    }
    for (size_t i = 0; i < json_array_size(tests) && !status; i++)
        status = read_test(reader, i, json_array_get(tests, i));
    return status;
}

culprit_status culprit_json_read(const char *path, culprit_spectra *spectra,
                                 culprit_program_structure *structure, culprit_error *err)
{
    json_error_t error;
    char *text = NULL;
    size_t size = 0;
    culprit_status read = culprit_read_bounded(path, (size_t)CULPRIT_LIMIT_IMPORT_MIB * CULPRIT_MIB,
                                               "an import file", &text, &size, err);
    if (read == CULPRIT_OK)
        read = json_check_bounds(text, size, path, err);
    json_t *root = read == CULPRIT_OK ? json_loadb(text, size, JSON_REJECT_DUPLICATES, &error) : NULL;
    free(text);
    if (read != CULPRIT_OK)
        return read;
    if (!root) {
        if (error.line < 0)
            return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: %s", path, error.text);
        return culprit_fail_at(err, path, (size_t)error.line, (size_t)(error.column > 0 ? error.column : 1),
                               "%s", error.text);
    }
    json_reader reader = {.path = path, .spectra = spectra, .structure = structure, .err = err};
    culprit_status status = read_root(&reader, root);
    json_decref(root);
    return status;
}
