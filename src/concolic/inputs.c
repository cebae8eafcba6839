/*
 * inputs.c - the input model of a run (docs/symbolic.md §3): its parts
 * (stdin, the declared files, argv strings), the value each symbolic
 * variable had in it, and a solver model applied to it.
 *
 * A typed field is an integer the program parsed from text; the solver
 * gives it a new integer, which is written back as text of the same kind
 * in the same place, so the new input still parses.  Edits are applied
 * from the end of each part, so a field whose text grows or shrinks does
 * not move the offsets of the edits before it.  What cannot be done - a
 * field's text outside its part, two edits on the same bytes, a NUL in an
 * argument - is refused with a message that says which field and why.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "concolic/path_internal.h"
#include "core/fnv.h"
#include "culprit/concolic.h"

enum { FIELD_TEXT_SIZE = 80 };

/* ---- parts ---- */

const culprit_input_part *culprit_input_find(const culprit_input *input, uint32_t kind, uint32_t index)
{
    for (size_t i = 0; i < input->part_count; i++)
        if (input->parts[i].kind == kind && input->parts[i].index == index)
            return &input->parts[i];
    return NULL;
}

static bool part_before(const culprit_input_part *part, uint32_t kind, uint32_t index)
{
    return part->kind < kind || (part->kind == kind && part->index < index);
}

culprit_status culprit_input_set(culprit_input *input, uint32_t kind, uint32_t index, const void *bytes,
                                 size_t length, culprit_error *err)
{
    unsigned char *copy = malloc(length ? length : 1);
    if (!copy)
        return culprit_fail_memory(err);
    if (length)
        memcpy(copy, bytes, length);
    culprit_input_part *existing = (culprit_input_part *)culprit_input_find(input, kind, index);
    if (existing) {
        free(existing->bytes);
        existing->bytes = copy;
        existing->length = length;
        return CULPRIT_OK;
    }
    culprit_input_part *parts = realloc(input->parts, (input->part_count + 1) * sizeof *parts);
    if (!parts) {
        free(copy);
        return culprit_fail_memory(err);
    }
    input->parts = parts;
    size_t at = 0;
    while (at < input->part_count && part_before(&parts[at], kind, index))
        at++;
    memmove(&parts[at + 1], &parts[at], (input->part_count - at) * sizeof *parts);
    parts[at] = (culprit_input_part){kind, index, copy, length};
    input->part_count++;
    return CULPRIT_OK;
}

culprit_status culprit_input_copy(const culprit_input *from, culprit_input *to, culprit_error *err)
{
    *to = (culprit_input){0};
    for (size_t i = 0; i < from->part_count; i++) {
        const culprit_input_part *part = &from->parts[i];
        culprit_status status =
            culprit_input_set(to, part->kind, part->index, part->bytes, part->length, err);
        if (status != CULPRIT_OK) {
            culprit_input_free(to);
            return status;
        }
    }
    return CULPRIT_OK;
}

bool culprit_input_equal(const culprit_input *a, const culprit_input *b)
{
    if (a->part_count != b->part_count)
        return false;
    for (size_t i = 0; i < a->part_count; i++) {
        const culprit_input_part *x = &a->parts[i], *y = &b->parts[i];
        if (x->kind != y->kind || x->index != y->index || x->length != y->length ||
            (x->length && memcmp(x->bytes, y->bytes, x->length) != 0))
            return false;
    }
    return true;
}

uint64_t culprit_input_hash(const culprit_input *input)
{
    uint64_t hash = CULPRIT_FNV1A_START;
    for (size_t i = 0; i < input->part_count; i++) {
        const culprit_input_part *part = &input->parts[i];
        uint64_t header[3] = {part->kind, part->index, part->length};
        hash = culprit_fnv1a(hash, header, sizeof header);
        hash = culprit_fnv1a(hash, part->bytes, part->length);
    }
    return hash;
}

void culprit_input_free(culprit_input *input)
{
    for (size_t i = 0; i < input->part_count; i++)
        free(input->parts[i].bytes);
    free(input->parts);
    *input = (culprit_input){0};
}

void culprit_model_free(culprit_model *model)
{
    free(model->assignments);
    *model = (culprit_model){0};
}

/* ---- variables ---- */

static const culprit_input_part *part_of(const culprit_input *input, const culprit_path *path,
                                         const culprit_path_node *node)
{
    const culprit_path_source *source = &path->sources[node->a];
    return culprit_input_find(input, source->kind, source->index);
}

static int field_base(uint32_t kind)
{
    return kind == CULPRIT_SYM_FIELD_HEX ? 16 : kind == CULPRIT_SYM_FIELD_OCTAL ? 8 : 10;
}

/* Parses a field's text as the program's parser did (strtol's family). */
static uint64_t parse_field(const unsigned char *text, size_t length, uint32_t kind)
{
    char buffer[FIELD_TEXT_SIZE];
    if (length >= sizeof buffer)
        length = sizeof buffer - 1;
    memcpy(buffer, text, length);
    buffer[length] = '\0';
    if (kind == CULPRIT_SYM_FIELD_DECIMAL)
        return (uint64_t)strtoll(buffer, NULL, 10);
    return (uint64_t)strtoull(buffer, NULL, field_base(kind));
}

bool culprit_input_variable_value(const culprit_input *input, const culprit_path *path, uint32_t number,
                                  uint64_t *value)
{
    if (number == 0 || number > path->node_count || !culprit_path_is_variable(&path->nodes[number]))
        return false;
    const culprit_path_node *node = &path->nodes[number];
    const culprit_input_part *part = part_of(input, path, node);
    if (!part)
        return false;
    if (node->op == CULPRIT_SYM_BYTE) {
        *value = node->value < part->length ? part->bytes[node->value] : 0;
        return true;
    }
    if (node->value >= part->length)
        *value = 0;
    else {
        size_t length = node->b;
        if (length > part->length - node->value)
            length = part->length - (size_t)node->value;
        *value = parse_field(part->bytes + node->value, length, node->c);
    }
    return true;
}

/* ---- rendering ---- */

size_t culprit_field_render(uint64_t value, uint32_t kind, const char *original, size_t original_length,
                            char *buffer, size_t size)
{
    size_t skip = 0;
    while (original && skip < original_length && (original[skip] == '+' || original[skip] == '-'))
        skip++;
    bool hex_prefix = original && original_length >= skip + 2 && original[skip] == '0' &&
                      (original[skip + 1] == 'x' || original[skip + 1] == 'X');
    bool octal_prefix = original && original_length >= skip + 2 && original[skip] == '0';
    int length;
    if (kind == CULPRIT_SYM_FIELD_DECIMAL)
        length = snprintf(buffer, size, "%" PRId64, (int64_t)value);
    else if (kind == CULPRIT_SYM_FIELD_UNSIGNED)
        length = snprintf(buffer, size, "%" PRIu64, value);
    else if (kind == CULPRIT_SYM_FIELD_HEX)
        length = snprintf(buffer, size, "%s%" PRIx64, hex_prefix ? "0x" : "", value);
    else if (kind == CULPRIT_SYM_FIELD_OCTAL)
        length = snprintf(buffer, size, "%s%" PRIo64, octal_prefix && value ? "0" : "", value);
    else
        return 0;
    return length < 0 || (size_t)length >= size ? 0 : (size_t)length;
}

/* ---- applying a model ---- */

typedef struct edit {
    size_t part;           /* index in the child's parts */
    size_t offset, length; /* the bytes replaced */
    size_t text_length;
    char text[FIELD_TEXT_SIZE];
    uint32_t node;
} edit;

static void describe_source(const culprit_path *path, const culprit_path_node *node, char *out, size_t size)
{
    const culprit_path_source *source = &path->sources[node->a];
    if (source->kind == CULPRIT_SYM_SOURCE_STDIN)
        snprintf(out, size, "stdin");
    else if (source->kind == CULPRIT_SYM_SOURCE_ARGV)
        snprintf(out, size, "argv[%u]", (unsigned)source->index);
    else
        snprintf(out, size, "input file %u%s%s%s", (unsigned)source->index + 1, source->name[0] ? " (" : "",
                 source->name, source->name[0] ? ")" : "");
}

static culprit_status cannot_render(const culprit_path *path, const culprit_path_node *node,
                                    culprit_error *err, const char *why)
{
    char source[CULPRIT_SYM_MAX_NAME + 32];
    describe_source(path, node, source, sizeof source);
    return culprit_fail(err, CULPRIT_ERROR_INPUT, "cannot re-render the %s at byte %" PRIu64 " of %s: %s",
                        node->op == CULPRIT_SYM_FIELD ? "field" : "byte", node->value, source, why);
}

/* The edit for a field: its leading blanks stay, the rest is rendered. */
static culprit_status field_edit(const culprit_input_part *part, const culprit_path *path,
                                 const culprit_assignment *assignment, edit *out, culprit_error *err)
{
    const culprit_path_node *node = &path->nodes[assignment->node];
    if (node->value > part->length || node->b > part->length - node->value) {
        char why[160];
        snprintf(why, sizeof why, "its text (%u bytes) ends past the input's end (%zu bytes)",
                 (unsigned)node->b, part->length);
        return cannot_render(path, node, err, why);
    }
    size_t offset = (size_t)node->value, length = node->b;
    while (length > 1 && culprit_path_is_space(part->bytes[offset])) {
        offset++;
        length--;
    }
    out->offset = offset;
    out->length = length;
    out->text_length = culprit_field_render(assignment->value, node->c, (const char *)part->bytes + offset,
                                            length, out->text, sizeof out->text);
    if (out->text_length == 0)
        return cannot_render(path, node, err, "the value has no text in the field's kind");
    return CULPRIT_OK;
}

/* The edit an assignment makes, or none (*made false) when the variable
 * keeps the parent's value. */
static culprit_status make_edit(const culprit_input *child, const culprit_input *parent,
                                const culprit_path *path, const culprit_assignment *assignment, edit *out,
                                bool *made, culprit_error *err)
{
    uint64_t old = 0;
    *made = false;
    if (!culprit_input_variable_value(parent, path, assignment->node, &old))
        return culprit_fail(err, CULPRIT_ERROR_INPUT,
                            "the solver's model sets node %u, which is not an input variable of a source "
                            "the input has",
                            (unsigned)assignment->node);
    if (old == assignment->value)
        return CULPRIT_OK;
    const culprit_path_node *node = &path->nodes[assignment->node];
    const culprit_input_part *part = part_of(child, path, node);
    *out = (edit){.part = (size_t)(part - child->parts), .node = assignment->node};
    *made = true;
    if (node->op == CULPRIT_SYM_FIELD)
        return field_edit(part, path, assignment, out, err);
    unsigned char byte = (unsigned char)assignment->value;
    if (byte == 0 && part->kind == CULPRIT_SYM_SOURCE_ARGV)
        return cannot_render(path, node, err, "it would be a NUL byte, which an argument cannot hold");
    *out = (edit){
        .part = out->part, .offset = (size_t)node->value, .length = 1, .text_length = 1, .node = out->node};
    out->text[0] = (char)byte;
    return CULPRIT_OK;
}

static int by_place_descending(const void *left, const void *right)
{
    const edit *a = left, *b = right;
    if (a->part != b->part)
        return a->part < b->part ? 1 : -1;
    return a->offset < b->offset ? 1 : a->offset > b->offset ? -1 : 0;
}

/* Sorted from the end: an edit must end before the next one (in reading
 * order) starts. */
static culprit_status check_overlaps(const edit *edits, size_t count, const culprit_path *path,
                                     culprit_error *err)
{
    for (size_t i = 1; i < count; i++) {
        const edit *later = &edits[i - 1], *earlier = &edits[i];
        if (later->part == earlier->part && earlier->offset + earlier->length > later->offset) {
            const edit *field = path->nodes[earlier->node].op == CULPRIT_SYM_FIELD ? earlier : later;
            const edit *other = field == earlier ? later : earlier;
            char why[200];
            snprintf(why, sizeof why, "its text overlaps the changed %s at byte %" PRIu64,
                     path->nodes[other->node].op == CULPRIT_SYM_FIELD ? "field" : "byte",
                     path->nodes[other->node].value);
            return cannot_render(path, &path->nodes[field->node], err, why);
        }
    }
    return CULPRIT_OK;
}

/* Replaces part's bytes [offset, offset + length) with text; a byte past
 * the end grows the part (the gap is zeros). */
static culprit_status splice(culprit_input_part *part, const edit *change, culprit_error *err)
{
    size_t end = change->offset + change->length;
    size_t tail = end < part->length ? part->length - end : 0;
    size_t new_length = change->offset + change->text_length + tail;
    unsigned char *bytes = calloc(new_length ? new_length : 1, 1);
    if (!bytes)
        return culprit_fail_memory(err);
    memcpy(bytes, part->bytes, change->offset < part->length ? change->offset : part->length);
    memcpy(bytes + change->offset, change->text, change->text_length);
    if (tail)
        memcpy(bytes + change->offset + change->text_length, part->bytes + end, tail);
    free(part->bytes);
    part->bytes = bytes;
    part->length = new_length;
    return CULPRIT_OK;
}

static culprit_status apply_edits(culprit_input *child, const culprit_input *parent, const culprit_path *path,
                                  const culprit_model *model, edit *edits, culprit_error *err)
{
    size_t count = 0;
    culprit_status status = CULPRIT_OK;
    for (size_t i = 0; i < model->count && status == CULPRIT_OK; i++) {
        bool made = false;
        status = make_edit(child, parent, path, &model->assignments[i], &edits[count], &made, err);
        count += made;
    }
    if (status != CULPRIT_OK)
        return status;
    qsort(edits, count, sizeof *edits, by_place_descending);
    status = check_overlaps(edits, count, path, err);
    for (size_t i = 0; i < count && status == CULPRIT_OK; i++)
        status = splice(&child->parts[edits[i].part], &edits[i], err);
    return status;
}

culprit_status culprit_input_apply(const culprit_input *parent, const culprit_path *path,
                                   const culprit_model *model, culprit_input *child, culprit_error *err)
{
    culprit_status status = culprit_input_copy(parent, child, err);
    if (status != CULPRIT_OK)
        return status;
    edit *edits = calloc(model->count ? model->count : 1, sizeof *edits);
    if (!edits)
        status = culprit_fail_memory(err);
    else
        status = apply_edits(child, parent, path, model, edits, err);
    free(edits);
    if (status != CULPRIT_OK)
        culprit_input_free(child);
    return status;
}
