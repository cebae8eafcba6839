/*
 * loaded_index.c - placing a stored row among a program's loaded spectra
 * (store_internal.h): its test by name, its line by file and line, each
 * a sorted copy searched by bsearch, for the loaders of the evidence kept
 * per test (mutation.c: mutant runs; cores.c: unsat cores).
 */
#include <stdlib.h>
#include <string.h>

#include "store/store_internal.h"

struct culprit_store_placed_line {
    uint32_t file, line, element;
};

static int compare_named(const void *a, const void *b)
{
    return strcmp(((const culprit_store_named_test *)a)->name, ((const culprit_store_named_test *)b)->name);
}

culprit_store_named_test *culprit_store_tests_by_name(const culprit_spectra *spectra)
{
    culprit_store_named_test *order = malloc((spectra->test_count ? spectra->test_count : 1) * sizeof *order);
    if (!order)
        return NULL;
    for (size_t t = 0; t < spectra->test_count; t++)
        order[t] = (culprit_store_named_test){spectra->tests[t].name, t};
    qsort(order, spectra->test_count, sizeof *order, compare_named);
    return order;
}

size_t culprit_store_find_loaded_test(const culprit_spectra *spectra, const culprit_store_named_test *order,
                                      const char *name)
{
    culprit_store_named_test key = {name, 0};
    const culprit_store_named_test *found =
        spectra->test_count ? bsearch(&key, order, spectra->test_count, sizeof key, compare_named) : NULL;
    return found ? found->test : SIZE_MAX;
}

static int compare_places(const void *a, const void *b)
{
    const struct culprit_store_placed_line *x = a, *y = b;
    if (x->file != y->file)
        return x->file < y->file ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

culprit_status culprit_store_line_index_make(const culprit_spectra *spectra, culprit_store_line_index *index,
                                             culprit_error *err)
{
    index->count = 0;
    index->lines = malloc((spectra->element_count ? spectra->element_count : 1) * sizeof *index->lines);
    if (!index->lines)
        return culprit_fail_memory(err);
    for (size_t e = 0; e < spectra->element_count; e++) {
        const culprit_element *element = &spectra->elements[e];
        if (element->kind == CULPRIT_KIND_LINE)
            index->lines[index->count++] =
                (struct culprit_store_placed_line){element->file, element->line, (uint32_t)e};
    }
    qsort(index->lines, index->count, sizeof *index->lines, compare_places);
    return CULPRIT_OK;
}

uint32_t culprit_store_line_element(const culprit_store_line_index *index, uint32_t file, uint32_t line)
{
    struct culprit_store_placed_line key = {file, line, 0};
    const struct culprit_store_placed_line *found =
        index->count ? bsearch(&key, index->lines, index->count, sizeof key, compare_places) : NULL;
    return found ? found->element : UINT32_MAX;
}
