/*
 * coverage_set.c - the union of per-test coverage files as one spectra
 * (coverage_set.h), shared by the lcov and gcov JSON readers.
 *
 * Elements are sorted by path, line, kind and branch label so that the
 * element table, and with it the program's hash in the store, does not
 * depend on the order of the files on the command line.  qsort has no
 * context argument, so strings are first replaced by their rank in sorted
 * order; keys are then plain integers.
 */
#include "interchange/coverage_set.h"

#include <stdlib.h>
#include <string.h>

#include "core/grow.h"

void coverage_set_init(coverage_set *set)
{
    memset(set, 0, sizeof *set);
    culprit_spectra_init(&set->strings);
}

void coverage_set_free(coverage_set *set)
{
    for (size_t t = 0; t < set->test_count; t++)
        free(set->tests[t].name);
    free(set->tests);
    free(set->records);
    culprit_spectra_free(&set->strings);
    memset(set, 0, sizeof *set);
}

static char *test_name_of(const char *source_path, const char *const *suffixes)
{
    const char *slash = strrchr(source_path, '/');
    const char *base = slash ? slash + 1 : source_path;
    size_t length = strlen(base);
    for (const char *const *suffix = suffixes; *suffix; suffix++) {
        size_t suffix_length = strlen(*suffix);
        if (length > suffix_length && strcmp(base + length - suffix_length, *suffix) == 0) {
            length -= suffix_length;
            break;
        }
    }
    return strndup(base, length);
}

culprit_status coverage_set_begin_test(coverage_set *set, const char *source_path,
                                       const char *const *suffixes, culprit_error *err)
{
    if (!CULPRIT_GROW(set->tests, set->test_capacity, set->test_count + 1, 64))
        return culprit_fail_memory(err);
    char *name = test_name_of(source_path, suffixes);
    if (!name)
        return culprit_fail_memory(err);
    set->tests[set->test_count++] = (coverage_test){
        .name = name, .source = source_path, .first = set->record_count, .end = set->record_count};
    return CULPRIT_OK;
}

culprit_status coverage_set_intern(coverage_set *set, const char *text, uint32_t *id, culprit_error *err)
{
    return culprit_spectra_add_file(&set->strings, text, id, err);
}

culprit_status coverage_set_add(coverage_set *set, culprit_kind kind, uint32_t file, uint32_t line,
                                uint32_t label, uint64_t count, culprit_error *err)
{
    if (!CULPRIT_GROW(set->records, set->record_capacity, set->record_count + 1, 64))
        return culprit_fail_memory(err);
    set->records[set->record_count++] =
        (coverage_record){.file = file, .line = line, .kind = (uint32_t)kind, .label = label, .count = count};
    set->tests[set->test_count - 1].end = set->record_count;
    return CULPRIT_OK;
}

/* ---- sorting ---- */

/* Orders texts with digit runs compared as numbers, so that branch 0:10
 * follows 0:9 and f10.c follows f9.c. */
static int natural_compare(const char *a, const char *b)
{
    while (*a && *b) {
        if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
            while (*a == '0' && a[1] >= '0' && a[1] <= '9')
                a++;
            while (*b == '0' && b[1] >= '0' && b[1] <= '9')
                b++;
            size_t digits_a = strspn(a, "0123456789"), digits_b = strspn(b, "0123456789");
            if (digits_a != digits_b)
                return digits_a < digits_b ? -1 : 1;
            int order = strncmp(a, b, digits_a);
            if (order)
                return order;
            a += digits_a;
            b += digits_b;
        } else if (*a != *b) {
            return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
        } else {
            a++;
            b++;
        }
    }
    return *a ? 1 : *b ? -1 : strcmp(a, b);
}

typedef struct ranked_text {
    const char *text;
    uint32_t id;
} ranked_text;

static int compare_ranked_texts(const void *a, const void *b)
{
    const ranked_text *x = a, *y = b;
    int order = natural_compare(x->text, y->text);
    return order ? order : strcmp(x->text, y->text);
}

/* An element in rank space: file and label are ranks of their texts. */
typedef struct element_key {
    uint32_t file, line, kind, label;
} element_key;

static int compare_keys(const void *a, const void *b)
{
    const element_key *x = a, *y = b;
    if (x->file != y->file)
        return x->file < y->file ? -1 : 1;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    if (x->label != y->label)
        return x->label < y->label ? -1 : 1;
    return 0;
}

/* What building needs besides the set: the texts in sorted order, the rank
 * of each interned text, and the sorted, distinct element keys. */
typedef struct build_state {
    const coverage_set *set;
    ranked_text *sorted; /* by rank */
    uint32_t *rank;      /* by interned id */
    element_key *keys;
    size_t key_count;
} build_state;

static element_key key_of(const build_state *state, const coverage_record *record)
{
    return (element_key){.file = state->rank[record->file],
                         .line = record->line,
                         .kind = record->kind,
                         .label = record->label == COVERAGE_NO_LABEL ? 0 : state->rank[record->label]};
}

static culprit_status rank_texts(build_state *state, culprit_error *err)
{
    const culprit_spectra *strings = &state->set->strings;
    state->sorted = malloc((strings->file_count + 1) * sizeof *state->sorted);
    state->rank = malloc((strings->file_count + 1) * sizeof *state->rank);
    if (!state->sorted || !state->rank)
        return culprit_fail_memory(err);
    for (uint32_t id = 0; id < strings->file_count; id++)
        state->sorted[id] = (ranked_text){.text = strings->files[id], .id = id};
    qsort(state->sorted, strings->file_count, sizeof *state->sorted, compare_ranked_texts);
    for (uint32_t rank = 0; rank < strings->file_count; rank++)
        state->rank[state->sorted[rank].id] = rank;
    return CULPRIT_OK;
}

static culprit_status collect_keys(build_state *state, culprit_error *err)
{
    const coverage_set *set = state->set;
    state->keys = malloc((set->record_count + 1) * sizeof *state->keys);
    if (!state->keys)
        return culprit_fail_memory(err);
    for (size_t r = 0; r < set->record_count; r++)
        state->keys[r] = key_of(state, &set->records[r]);
    qsort(state->keys, set->record_count, sizeof *state->keys, compare_keys);
    size_t distinct = 0;
    for (size_t r = 0; r < set->record_count; r++)
        if (distinct == 0 || compare_keys(&state->keys[distinct - 1], &state->keys[r]) != 0)
            state->keys[distinct++] = state->keys[r];
    state->key_count = distinct;
    return CULPRIT_OK;
}

static culprit_status add_elements(const build_state *state, culprit_spectra *spectra, culprit_error *err)
{
    culprit_status status = CULPRIT_OK;
    for (size_t k = 0; k < state->key_count && !status; k++) {
        const element_key *key = &state->keys[k];
        const char *path = state->sorted[key->file].text;
        uint32_t file;
        status = culprit_spectra_add_file(spectra, path, &file, err);
        if (status || key->kind == CULPRIT_KIND_LINE) {
            if (!status)
                status = culprit_spectra_add_element(spectra, CULPRIT_KIND_LINE, file, key->line, 0, NULL,
                                                     NULL, err);
            continue;
        }
        const char *label = state->sorted[key->label].text;
        size_t size = strlen(path) + strlen(label) + 16;
        char *name = malloc(size);
        if (!name)
            return culprit_fail_memory(err);
        snprintf(name, size, "%s:%u:%s", path, (unsigned)key->line, label);
        status = culprit_spectra_add_element(spectra, (culprit_kind)key->kind, file, key->line, 0, name, NULL,
                                             err);
        free(name);
    }
    return status;
}

/* ---- rows ---- */

typedef struct element_count {
    uint32_t element;
    uint64_t count;
} element_count;

static int compare_element_counts(const void *a, const void *b)
{
    const element_count *x = a, *y = b;
    return x->element < y->element ? -1 : x->element > y->element;
}

/* Sorts pairs by element, adds up repeated elements and drops zeros;
 * returns how many pairs are left. */
static size_t merge_counts(element_count *pairs, size_t length)
{
    qsort(pairs, length, sizeof *pairs, compare_element_counts);
    size_t kept = 0;
    for (size_t i = 0; i < length; i++) {
        if (kept && pairs[kept - 1].element == pairs[i].element) {
            uint64_t sum = pairs[kept - 1].count + pairs[i].count;
            pairs[kept - 1].count = sum < pairs[i].count ? UINT64_MAX : sum;
        } else {
            pairs[kept++] = pairs[i];
        }
    }
    size_t nonzero = 0;
    for (size_t i = 0; i < kept; i++)
        if (pairs[i].count)
            pairs[nonzero++] = pairs[i];
    return nonzero;
}

static culprit_status fill_row(const build_state *state, const coverage_test *test, size_t row,
                               culprit_spectra *spectra, culprit_error *err)
{
    size_t length = test->end - test->first;
    element_count *pairs = malloc((length + 1) * sizeof *pairs);
    uint32_t *elements = malloc((length + 1) * sizeof *elements);
    uint64_t *counts = malloc((length + 1) * sizeof *counts);
    culprit_status status = pairs && elements && counts ? CULPRIT_OK : culprit_fail_memory(err);
    for (size_t i = 0; i < length && !status; i++) {
        element_key key = key_of(state, &state->set->records[test->first + i]);
        const element_key *found = bsearch(&key, state->keys, state->key_count, sizeof key, compare_keys);
        pairs[i] = (element_count){.element = (uint32_t)(found - state->keys),
                                   .count = state->set->records[test->first + i].count};
    }
    if (!status) {
        length = merge_counts(pairs, length);
        for (size_t i = 0; i < length; i++) {
            elements[i] = pairs[i].element;
            counts[i] = pairs[i].count;
        }
        status = culprit_spectra_set_counts(spectra, row, length, elements, counts, err);
    }
    free(pairs);
    free(elements);
    free(counts);
    return status;
}

/* ---- verdicts ---- */

static int compare_test_names(const void *a, const void *b)
{
    const coverage_test *const *x = a, *const *y = b;
    int order = strcmp((*x)->name, (*y)->name);
    return order ? order : (*x < *y ? -1 : *x > *y);
}

/* Two files may not name the same test: the store keys tests by name. */
static culprit_status check_test_names(const coverage_set *set, culprit_error *err)
{
    const coverage_test **sorted = malloc((set->test_count + 1) * sizeof *sorted);
    if (!sorted)
        return culprit_fail_memory(err);
    for (size_t t = 0; t < set->test_count; t++)
        sorted[t] = &set->tests[t];
    qsort(sorted, set->test_count, sizeof *sorted, compare_test_names);
    culprit_status status = CULPRIT_OK;
    for (size_t t = 0; t < set->test_count && !status; t++) {
        if (t > 0 && strcmp(sorted[t - 1]->name, sorted[t]->name) == 0)
            status = culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: test '%s' already comes from %s",
                                  sorted[t]->source, sorted[t]->name, sorted[t - 1]->source);
    }
    free(sorted);
    return status;
}

static int compare_entries(const void *a, const void *b)
{
    const culprit_verdict_entry *const *x = a, *const *y = b;
    int order = strcmp((*x)->name, (*y)->name);
    return order ? order : (*x < *y ? -1 : *x > *y);
}

static int compare_entry_to_name(const void *name, const void *entry)
{
    return strcmp(name, (*(const culprit_verdict_entry *const *)entry)->name);
}

/* Prefixes messages about an entry with where it came from. */
static culprit_status entry_error(const culprit_verdict_list *verdicts, const culprit_verdict_entry *entry,
                                  const char *what, culprit_error *err)
{
    if (verdicts->path)
        return culprit_fail_at(err, verdicts->path, entry->line, 1, "%s '%s'", what, entry->name);
    return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s '%s'", what, entry->name);
}

/* Looks up every test's verdict into verdict_of[test]; every entry must
 * name a test, no name may have two entries. */
static culprit_status match_verdicts(const coverage_set *set, const culprit_verdict_list *verdicts,
                                     culprit_verdict *verdict_of, culprit_error *err)
{
    const culprit_verdict_entry **sorted = malloc((verdicts->count + 1) * sizeof *sorted);
    bool *used = calloc(verdicts->count + 1, sizeof *used);
    culprit_status status = sorted && used ? CULPRIT_OK : culprit_fail_memory(err);
    for (size_t e = 0; e < verdicts->count && !status; e++)
        sorted[e] = &verdicts->entries[e];
    if (!status)
        qsort(sorted, verdicts->count, sizeof *sorted, compare_entries);
    for (size_t e = 1; e < verdicts->count && !status; e++)
        if (strcmp(sorted[e - 1]->name, sorted[e]->name) == 0)
            status = entry_error(verdicts, sorted[e], "a second verdict for test", err);
    for (size_t t = 0; t < set->test_count && !status; t++) {
        const culprit_verdict_entry **found =
            bsearch(set->tests[t].name, sorted, verdicts->count, sizeof *sorted, compare_entry_to_name);
        if (found) {
            verdict_of[t] = (*found)->verdict;
            used[*found - verdicts->entries] = true;
        } else if (verdicts->unlisted_pass) {
            verdict_of[t] = CULPRIT_VERDICT_PASS;
        } else {
            status = culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: no verdict for test '%s' (from %s)",
                                  verdicts->path ? verdicts->path : "verdicts", set->tests[t].name,
                                  set->tests[t].source);
        }
    }
    for (size_t e = 0; e < verdicts->count && !status; e++)
        if (!used[e])
            status = entry_error(verdicts, &verdicts->entries[e], "no coverage file for test", err);
    free(sorted);
    free(used);
    return status;
}

/* ---- building ---- */

static culprit_status add_tests(const build_state *state, const culprit_verdict *verdict_of,
                                culprit_spectra *spectra, culprit_error *err)
{
    const coverage_set *set = state->set;
    culprit_status status = culprit_spectra_reserve_tests(spectra, set->test_count, err);
    for (size_t t = 0; t < set->test_count && !status; t++) {
        size_t row;
        status = culprit_spectra_add_test(spectra, set->tests[t].name, verdict_of[t], &row, err);
        if (!status)
            status = fill_row(state, &set->tests[t], row, spectra, err);
    }
    return status;
}

culprit_status coverage_set_build(const coverage_set *set, const culprit_verdict_list *verdicts,
                                  culprit_spectra *spectra, culprit_error *err)
{
    build_state state = {.set = set};
    culprit_verdict *verdict_of = malloc((set->test_count + 1) * sizeof *verdict_of);
    culprit_status status = verdict_of ? check_test_names(set, err) : culprit_fail_memory(err);
    if (!status)
        status = match_verdicts(set, verdicts, verdict_of, err);
    if (!status)
        status = rank_texts(&state, err);
    if (!status)
        status = collect_keys(&state, err);
    if (!status && state.key_count == 0)
        status = culprit_fail(err, CULPRIT_ERROR_INPUT, "no coverage data in any of the %zu input files",
                              set->test_count);
    if (!status)
        status = add_elements(&state, spectra, err);
    if (!status)
        status = add_tests(&state, verdict_of, spectra, err);
    free(verdict_of);
    free(state.sorted);
    free(state.rank);
    free(state.keys);
    return status;
}
