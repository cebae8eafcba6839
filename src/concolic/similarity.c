/*
 * similarity.c - how alike two runs are (seeds/001 §4): path-constraint
 * similarity over the conditions they evaluated (subset and subsequence
 * forms), and input similarity over their inputs' fields.
 *
 * A condition is keyed by its branch site and its occurrence at that site
 * (the third evaluation of the loop test at line 12 is one condition), so a
 * loop that runs once more in one run adds conditions instead of shifting
 * every later one out of line, and the subset form stays meaningful.  The
 * search (search.c) scores a candidate on its predicted path, before any
 * input is solved for it: paths are cheap, inputs are not.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "concolic/path_internal.h"
#include "core/fnv.h"
#include "culprit/concolic.h"

uint64_t culprit_condition_site(const char *unit_hash, uint32_t block)
{
    uint64_t hash = culprit_fnv1a(CULPRIT_FNV1A_START, unit_hash, strlen(unit_hash));
    return culprit_fnv1a(hash, &block, sizeof block);
}

static int compare_u64(const void *left, const void *right)
{
    uint64_t a = *(const uint64_t *)left, b = *(const uint64_t *)right;
    return a < b ? -1 : a > b;
}

uint64_t culprit_constraint_outcome(const culprit_path *path, const culprit_path_constraint *constraint)
{
    const culprit_path_switch *entry = culprit_path_switch_of(path, constraint);
    if (!entry ||
        bsearch(&constraint->value, entry->cases, entry->case_count, sizeof *entry->cases, compare_u64))
        return constraint->value;
    return CULPRIT_OUTCOME_DEFAULT;
}

culprit_status culprit_path_conditions(const culprit_path *path, const culprit_dump *dump,
                                       culprit_condition **conditions, culprit_error *err)
{
    *conditions = NULL;
    if (path->constraint_count == 0)
        return CULPRIT_OK;
    *conditions = malloc(path->constraint_count * sizeof **conditions);
    if (!*conditions)
        return culprit_fail_memory(err);
    for (size_t i = 0; i < path->constraint_count; i++) {
        const culprit_path_constraint *constraint = &path->constraints[i];
        char index[32];
        const char *unit = index;
        if (dump && constraint->unit < dump->unit_count)
            unit = dump->units[constraint->unit].hash;
        else
            snprintf(index, sizeof index, "#%u", (unsigned)constraint->unit);
        (*conditions)[i] = (culprit_condition){culprit_condition_site(unit, constraint->block),
                                               culprit_constraint_outcome(path, constraint)};
    }
    return CULPRIT_OK;
}

/* ---- path-constraint similarity ---- */

typedef struct keyed {
    uint64_t site, occurrence, outcome;
    size_t position;
} keyed;

static int by_site_then_position(const void *left, const void *right)
{
    const keyed *a = left, *b = right;
    if (a->site != b->site)
        return a->site < b->site ? -1 : 1;
    return a->position < b->position ? -1 : a->position > b->position;
}

static int by_key(const void *left, const void *right)
{
    const keyed *a = left, *b = right;
    if (a->site != b->site)
        return a->site < b->site ? -1 : 1;
    return a->occurrence < b->occurrence ? -1 : a->occurrence > b->occurrence;
}

/* The conditions with their occurrence numbers, sorted by key; NULL when
 * count is 0 or memory runs out (*failed then). */
static keyed *key_conditions(const culprit_condition *conditions, size_t count, bool *failed)
{
    if (count == 0)
        return NULL;
    keyed *keys = malloc(count * sizeof *keys);
    if (!keys) {
        *failed = true;
        return NULL;
    }
    for (size_t i = 0; i < count; i++)
        keys[i] = (keyed){conditions[i].site, 0, conditions[i].outcome, i};
    qsort(keys, count, sizeof *keys, by_site_then_position);
    for (size_t i = 1; i < count; i++)
        if (keys[i].site == keys[i - 1].site)
            keys[i].occurrence = keys[i - 1].occurrence + 1;
    return keys;
}

/* The keys in either run and those evaluated identically in both; sorts
 * the keys by key. */
static void count_keys(keyed *a, size_t a_count, keyed *b, size_t b_count, size_t *union_count,
                       size_t *same_count)
{
    if (a_count)
        qsort(a, a_count, sizeof *a, by_key);
    if (b_count)
        qsort(b, b_count, sizeof *b, by_key);
    size_t i = 0, j = 0;
    *union_count = *same_count = 0;
    while (i < a_count || j < b_count) {
        int order = i == a_count ? 1 : j == b_count ? -1 : by_key(&a[i], &b[j]);
        (*union_count)++;
        if (order == 0 && a[i].outcome == b[j].outcome && a[i].outcome != CULPRIT_OUTCOME_OTHER)
            (*same_count)++;
        i += order <= 0;
        j += order >= 0;
    }
}

double culprit_pcs_subset(const culprit_condition *a, size_t a_count, const culprit_condition *b,
                          size_t b_count)
{
    if (a_count == 0 && b_count == 0)
        return 1.0;
    bool failed = false;
    keyed *a_keys = key_conditions(a, a_count, &failed), *b_keys = key_conditions(b, b_count, &failed);
    size_t union_count = 0, same = 0;
    if (!failed)
        count_keys(a_keys, a_count, b_keys, b_count, &union_count, &same);
    free(a_keys);
    free(b_keys);
    return union_count ? (double)same / (double)union_count : 0.0;
}

static int by_position(const void *left, const void *right)
{
    const keyed *a = left, *b = right;
    return a->position < b->position ? -1 : a->position > b->position;
}

double culprit_pcs_subsequence(const culprit_condition *a, size_t a_count, const culprit_condition *b,
                               size_t b_count)
{
    if (a_count == 0 && b_count == 0)
        return 1.0;
    bool failed = false;
    keyed *a_keys = key_conditions(a, a_count, &failed), *b_keys = key_conditions(b, b_count, &failed);
    size_t union_count = 0, same = 0, longest = 0, run = 0;
    if (!failed) {
        count_keys(a_keys, a_count, b_keys, b_count, &union_count, &same);
        if (a_keys)
            qsort(a_keys, a_count, sizeof *a_keys, by_position);
        if (b_keys)
            qsort(b_keys, b_count, sizeof *b_keys, by_position);
        size_t shorter = a_count < b_count ? a_count : b_count;
        for (size_t i = 0; i < shorter; i++) {
            bool agree = a_keys[i].site == b_keys[i].site && a_keys[i].occurrence == b_keys[i].occurrence &&
                         a_keys[i].outcome == b_keys[i].outcome && a_keys[i].outcome != CULPRIT_OUTCOME_OTHER;
            run = agree ? run + 1 : 0;
            if (run > longest)
                longest = run;
        }
    }
    free(a_keys);
    free(b_keys);
    return union_count ? (double)longest / (double)union_count : 0.0;
}

/* ---- input similarity ---- */

/* A part is text when it has no NUL and at most 1 byte in 20 is neither
 * printable ASCII, a blank nor UTF-8 (>= 0x80). */
static bool is_text(const culprit_input_part *part)
{
    size_t odd = 0;
    for (size_t i = 0; i < part->length; i++) {
        unsigned char c = part->bytes[i];
        if (c == 0)
            return false;
        odd += c < 0x20 && !strchr("\t\n\r\v\f", c);
    }
    return odd * 20 <= part->length;
}

typedef struct field {
    const unsigned char *bytes;
    size_t length;
} field;

/* The part's fields into *fields (malloc'd); false when memory runs out. */
static bool split_fields(const culprit_input_part *part, field **fields, size_t *count)
{
    *fields = malloc((part->length ? part->length : 1) * sizeof **fields);
    *count = 0;
    if (!*fields)
        return false;
    if (part->kind == CULPRIT_SYM_SOURCE_ARGV) {
        (*fields)[(*count)++] = (field){part->bytes, part->length};
    } else if (!is_text(part)) {
        for (size_t i = 0; i < part->length; i++)
            (*fields)[(*count)++] = (field){part->bytes + i, 1};
    } else {
        for (size_t i = 0; i < part->length;) {
            while (i < part->length && culprit_path_is_space(part->bytes[i]))
                i++;
            size_t start = i;
            while (i < part->length && !culprit_path_is_space(part->bytes[i]))
                i++;
            if (i > start)
                (*fields)[(*count)++] = (field){part->bytes + start, i - start};
        }
    }
    return true;
}

/* Fields identical at the same position, and the larger field count. */
static void compare_parts(const culprit_input_part *a, const culprit_input_part *b, size_t *same,
                          size_t *total)
{
    static const culprit_input_part empty = {0};
    field *a_fields = NULL, *b_fields = NULL;
    size_t a_count = 0, b_count = 0;
    if (!split_fields(a ? a : &empty, &a_fields, &a_count) ||
        !split_fields(b ? b : &empty, &b_fields, &b_count)) {
        free(a_fields);
        free(b_fields);
        return;
    }
    size_t shorter = a_count < b_count ? a_count : b_count;
    for (size_t i = 0; i < shorter; i++)
        *same += a_fields[i].length == b_fields[i].length &&
                 memcmp(a_fields[i].bytes, b_fields[i].bytes, a_fields[i].length) == 0;
    *total += a_count > b_count ? a_count : b_count;
    free(a_fields);
    free(b_fields);
}

double culprit_input_similarity(const culprit_input *a, const culprit_input *b)
{
    size_t same = 0, total = 0;
    for (size_t i = 0; i < a->part_count; i++) {
        const culprit_input_part *part = &a->parts[i];
        compare_parts(part, culprit_input_find(b, part->kind, part->index), &same, &total);
    }
    for (size_t i = 0; i < b->part_count; i++) {
        const culprit_input_part *part = &b->parts[i];
        if (!culprit_input_find(a, part->kind, part->index))
            compare_parts(NULL, part, &same, &total);
    }
    return total ? (double)same / (double)total : 1.0;
}
