/*
 * spectra.c - the spectra matrix: files, elements, tests, hit rows and
 * sparse counts (include/culprit/spectra.h).  The tally that turns the
 * matrix into (ef, ep, nf, np) lives in tally.c.
 *
 * Elements come first and fix the width of every hit row; tests are rows.
 * Rows are stored contiguously so that a whole matrix is one allocation
 * that the tally can stream through.
 */
#include "culprit/spectra.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fnv.h"
#include "core/grow.h"

static const char *const kind_names[CULPRIT_KIND_COUNT] = {
    [CULPRIT_KIND_LINE] = "line",     [CULPRIT_KIND_BLOCK] = "block",
    [CULPRIT_KIND_EDGE] = "edge",     [CULPRIT_KIND_BRANCH] = "branch",
    [CULPRIT_KIND_RETURN] = "return", [CULPRIT_KIND_PREDICATE] = "predicate",
    [CULPRIT_KIND_OPAQUE] = "opaque",
};

static const char *const verdict_names[CULPRIT_VERDICT_COUNT] = {
    [CULPRIT_VERDICT_PASS] = "pass",       [CULPRIT_VERDICT_FAIL] = "fail", [CULPRIT_VERDICT_ERROR] = "error",
    [CULPRIT_VERDICT_TIMEOUT] = "timeout", [CULPRIT_VERDICT_SKIP] = "skip",
};

static int name_lookup(const char *const *names, int count, const char *name)
{
    for (int i = 0; i < count; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    return -1;
}

const char *culprit_kind_name(culprit_kind kind)
{
    return (unsigned)kind < CULPRIT_KIND_COUNT ? kind_names[kind] : "unknown";
}

int culprit_kind_parse(const char *name, culprit_kind *kind)
{
    int found = name_lookup(kind_names, CULPRIT_KIND_COUNT, name);
    if (found < 0)
        return -1;
    *kind = (culprit_kind)found;
    return 0;
}

const char *culprit_verdict_name(culprit_verdict verdict)
{
    return (unsigned)verdict < CULPRIT_VERDICT_COUNT ? verdict_names[verdict] : "unknown";
}

int culprit_verdict_parse(const char *name, culprit_verdict *verdict)
{
    int found = name_lookup(verdict_names, CULPRIT_VERDICT_COUNT, name);
    if (found < 0)
        return -1;
    *verdict = (culprit_verdict)found;
    return 0;
}

culprit_verdict_policy culprit_verdict_policy_default(void)
{
    return (culprit_verdict_policy){.error_as = CULPRIT_OUTCOME_FAILING,
                                    .timeout_as = CULPRIT_OUTCOME_FAILING};
}

culprit_outcome culprit_verdict_outcome(culprit_verdict verdict, const culprit_verdict_policy *policy)
{
    switch (verdict) {
    case CULPRIT_VERDICT_PASS:
        return CULPRIT_OUTCOME_PASSING;
    case CULPRIT_VERDICT_FAIL:
        return CULPRIT_OUTCOME_FAILING;
    case CULPRIT_VERDICT_ERROR:
        return policy->error_as;
    case CULPRIT_VERDICT_TIMEOUT:
        return policy->timeout_as;
    default:
        return CULPRIT_OUTCOME_EXCLUDED;
    }
}

/* ---- the file table: an open-addressing hash from path to index ---- */

typedef struct file_index {
    size_t capacity; /* a power of two */
    uint32_t *slots; /* file index + 1; 0 marks an empty slot */
} file_index;

static uint64_t path_hash(const char *path)
{
    return culprit_fnv1a(CULPRIT_FNV1A_START, path, strlen(path));
}

static size_t file_slot(const culprit_spectra *spectra, const file_index *index, const char *path)
{
    size_t mask = index->capacity - 1;
    size_t slot = (size_t)path_hash(path) & mask;
    while (index->slots[slot] && strcmp(spectra->files[index->slots[slot] - 1], path) != 0)
        slot = (slot + 1) & mask;
    return slot;
}

static int file_index_grow(culprit_spectra *spectra)
{
    file_index *old = spectra->file_index;
    file_index *grown = malloc(sizeof *grown);
    if (!grown)
        return -1;
    grown->capacity = old ? old->capacity * 2 : 64;
    grown->slots = calloc(grown->capacity, sizeof *grown->slots);
    if (!grown->slots) {
        free(grown);
        return -1;
    }
    for (size_t i = 0; i < spectra->file_count; i++)
        grown->slots[file_slot(spectra, grown, spectra->files[i])] = (uint32_t)i + 1;
    if (old)
        free(old->slots);
    free(old);
    spectra->file_index = grown;
    return 0;
}

uint32_t culprit_spectra_find_file(const culprit_spectra *spectra, const char *path)
{
    const file_index *index = spectra->file_index;
    if (!index)
        return CULPRIT_NO_FILE;
    uint32_t found = index->slots[file_slot(spectra, index, path)];
    return found ? found - 1 : CULPRIT_NO_FILE;
}

culprit_status culprit_spectra_add_file(culprit_spectra *spectra, const char *path, uint32_t *index,
                                        culprit_error *err)
{
    uint32_t existing = culprit_spectra_find_file(spectra, path);
    if (existing != CULPRIT_NO_FILE) {
        *index = existing;
        return CULPRIT_OK;
    }
    if (spectra->file_count >= UINT32_MAX - 1)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "too many files");
    file_index *table = spectra->file_index;
    if ((!table || (spectra->file_count + 1) * 2 > table->capacity) && file_index_grow(spectra) != 0)
        return culprit_fail_memory(err);
    if (!CULPRIT_GROW(spectra->files, spectra->file_capacity, spectra->file_count + 1, 16))
        return culprit_fail_memory(err);
    char *copy = strdup(path);
    if (!copy)
        return culprit_fail_memory(err);
    table = spectra->file_index;
    spectra->files[spectra->file_count] = copy;
    table->slots[file_slot(spectra, table, path)] = (uint32_t)spectra->file_count + 1;
    *index = (uint32_t)spectra->file_count++;
    return CULPRIT_OK;
}

static void file_index_free(culprit_spectra *spectra)
{
    file_index *index = spectra->file_index;
    if (index)
        free(index->slots);
    free(index);
    spectra->file_index = NULL;
}

culprit_status culprit_spectra_keep_files(culprit_spectra *spectra, const bool *kept_files,
                                          uint32_t *renumbered, culprit_error *err)
{
    size_t count = 0;
    for (size_t f = 0; f < spectra->file_count; f++) {
        if (kept_files[f]) {
            renumbered[f] = (uint32_t)count;
            spectra->files[count++] = spectra->files[f];
        } else {
            renumbered[f] = CULPRIT_NO_FILE;
            free(spectra->files[f]);
        }
    }
    spectra->file_count = count;
    for (size_t e = 0; e < spectra->element_count; e++) {
        culprit_element *element = &spectra->elements[e];
        if (element->file != CULPRIT_NO_FILE)
            element->file = renumbered[element->file];
    }
    /* The index maps paths to the old numbers: build it anew. */
    file_index_free(spectra);
    while (count > 0 && (!spectra->file_index || count * 2 > ((file_index *)spectra->file_index)->capacity))
        if (file_index_grow(spectra) != 0)
            return culprit_fail_memory(err);
    return CULPRIT_OK;
}

void culprit_spectra_init(culprit_spectra *spectra)
{
    memset(spectra, 0, sizeof *spectra);
}

void culprit_spectra_free(culprit_spectra *spectra)
{
    for (size_t i = 0; i < spectra->file_count; i++)
        free(spectra->files[i]);
    free(spectra->files);
    file_index_free(spectra);
    for (size_t i = 0; i < spectra->element_count; i++)
        free(spectra->elements[i].name);
    free(spectra->elements);
    for (size_t i = 0; i < spectra->test_count; i++) {
        free(spectra->tests[i].name);
        free(spectra->counts[i].elements);
        free(spectra->counts[i].counts);
    }
    free(spectra->tests);
    free(spectra->counts);
    free(spectra->hits);
    culprit_spectra_init(spectra);
}

void culprit_spectra_clear_tests(culprit_spectra *spectra)
{
    for (size_t i = 0; i < spectra->test_count; i++) {
        free(spectra->tests[i].name);
        free(spectra->counts[i].elements);
        free(spectra->counts[i].counts);
        spectra->counts[i] = (culprit_counts){0};
    }
    spectra->test_count = 0;
}

culprit_status culprit_spectra_add_element(culprit_spectra *spectra, culprit_kind kind, uint32_t file,
                                           uint32_t line, uint32_t column, const char *name, uint32_t *index,
                                           culprit_error *err)
{
    if (spectra->test_count > 0)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "elements must be added before the first test");
    if ((unsigned)kind >= CULPRIT_KIND_COUNT)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "unknown element kind %d", (int)kind);
    if (file != CULPRIT_NO_FILE && file >= spectra->file_count)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "element refers to file %u of %zu", file,
                            spectra->file_count);
    if (spectra->element_count >= UINT32_MAX - 1)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "too many elements");
    if (!CULPRIT_GROW(spectra->elements, spectra->element_capacity, spectra->element_count + 1, 16))
        return culprit_fail_memory(err);
    char *copy = NULL;
    if (name && !(copy = strdup(name)))
        return culprit_fail_memory(err);
    spectra->elements[spectra->element_count] =
        (culprit_element){.kind = kind, .file = file, .line = line, .column = column, .name = copy};
    if (index)
        *index = (uint32_t)spectra->element_count;
    spectra->element_count++;
    return CULPRIT_OK;
}

/* Asks for transparent huge pages on a large hit matrix: the tally reads
 * fifteen rows side by side, and loading touches every page once, so 4 KiB
 * pages cost TLB misses and page faults (measured in BENCHMARKS.md).  Only
 * advice: where the kernel declines, nothing changes. */
static void advise_huge_pages(void *start, size_t bytes)
{
#ifdef MADV_HUGEPAGE
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t first = ((uintptr_t)start + huge - 1) & ~(huge - 1);
    uintptr_t end = ((uintptr_t)start + bytes) & ~(huge - 1);
    if (end > first)
        madvise((void *)first, end - first, MADV_HUGEPAGE);
#else
    (void)start;
    (void)bytes;
#endif
}

/* Grows the test arrays and the hit matrix to hold `wanted` tests. */
static culprit_status grow_tests(culprit_spectra *spectra, size_t wanted, culprit_error *err)
{
    if (spectra->test_count == 0)
        spectra->words_per_test = (spectra->element_count + 63) / 64;
    if (wanted <= spectra->test_capacity)
        return CULPRIT_OK;
    if (spectra->words_per_test && wanted > SIZE_MAX / sizeof(uint64_t) / spectra->words_per_test)
        return culprit_fail_memory(err);
    culprit_test *tests = realloc(spectra->tests, wanted * sizeof *tests);
    if (!tests)
        return culprit_fail_memory(err);
    spectra->tests = tests;
    culprit_counts *counts = realloc(spectra->counts, wanted * sizeof *counts);
    if (!counts)
        return culprit_fail_memory(err);
    spectra->counts = counts;
    size_t row_bytes = spectra->words_per_test * sizeof(uint64_t);
    if (row_bytes) {
        uint64_t *hits = realloc(spectra->hits, wanted * row_bytes);
        if (!hits)
            return culprit_fail_memory(err);
        spectra->hits = hits;
        advise_huge_pages(hits, wanted * row_bytes);
    }
    spectra->test_capacity = wanted;
    return CULPRIT_OK;
}

culprit_status culprit_spectra_reserve_tests(culprit_spectra *spectra, size_t count, culprit_error *err)
{
    return grow_tests(spectra, spectra->test_count + count, err);
}

culprit_status culprit_spectra_add_test(culprit_spectra *spectra, const char *name, culprit_verdict verdict,
                                        size_t *index, culprit_error *err)
{
    if ((unsigned)verdict >= CULPRIT_VERDICT_COUNT)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "unknown verdict %d", (int)verdict);
    size_t doubled = spectra->test_capacity ? spectra->test_capacity * 2 : 16;
    culprit_status status =
        spectra->test_count < spectra->test_capacity ? CULPRIT_OK : grow_tests(spectra, doubled, err);
    if (status)
        return status;
    char *copy = strdup(name);
    if (!copy)
        return culprit_fail_memory(err);
    size_t test = spectra->test_count++;
    spectra->tests[test] = (culprit_test){.name = copy, .verdict = verdict, .duration_seconds = -1};
    spectra->counts[test] = (culprit_counts){0};
    if (spectra->words_per_test)
        memset(culprit_spectra_row(spectra, test), 0, spectra->words_per_test * sizeof(uint64_t));
    if (index)
        *index = test;
    return CULPRIT_OK;
}

culprit_status culprit_spectra_set_counts(culprit_spectra *spectra, size_t test, size_t length,
                                          const uint32_t *elements, const uint64_t *counts,
                                          culprit_error *err)
{
    for (size_t i = 0; i < length; i++) {
        if (elements[i] >= spectra->element_count || (i > 0 && elements[i] <= elements[i - 1]))
            return culprit_fail(err, CULPRIT_ERROR_INPUT,
                                "counts of test '%s': element ids must ascend and be below %zu",
                                spectra->tests[test].name, spectra->element_count);
    }
    culprit_counts copy = {.length = length};
    if (length) {
        copy.elements = malloc(length * sizeof *copy.elements);
        copy.counts = malloc(length * sizeof *copy.counts);
        if (!copy.elements || !copy.counts) {
            free(copy.elements);
            free(copy.counts);
            return culprit_fail_memory(err);
        }
        memcpy(copy.elements, elements, length * sizeof *copy.elements);
        memcpy(copy.counts, counts, length * sizeof *copy.counts);
    }
    free(spectra->counts[test].elements);
    free(spectra->counts[test].counts);
    spectra->counts[test] = copy;
    for (size_t i = 0; i < length; i++)
        if (counts[i])
            culprit_spectra_set_hit(spectra, test, elements[i]);
    return CULPRIT_OK;
}

void culprit_spectra_element_label(const culprit_spectra *spectra, uint32_t element, char *buffer,
                                   size_t size)
{
    const culprit_element *e = &spectra->elements[element];
    if (e->name)
        snprintf(buffer, size, "%s", e->name);
    else if (e->file != CULPRIT_NO_FILE)
        snprintf(buffer, size, "%s:%u", spectra->files[e->file], e->line);
    else
        snprintf(buffer, size, "%s#%u", culprit_kind_name(e->kind), element);
}
