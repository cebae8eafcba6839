/*
 * test_spectra.c - the spectra matrix and its tally: kinds and verdicts by
 * name, the file table, element/test bookkeeping, sparse counts, and the
 * bit-sliced (ef, ep, nf, np) checked against a naive count on random
 * matrices of awkward sizes; and core's array growth (core/grow.h), which
 * the spectra's tables grow by.
 */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "core/grow.h"
#include "culprit/spectra.h"

static void test_names(void)
{
    culprit_kind kind;
    for (int k = 0; k < CULPRIT_KIND_COUNT; k++) {
        CHECK_INT(culprit_kind_parse(culprit_kind_name((culprit_kind)k), &kind), 0);
        CHECK_INT(kind, k);
    }
    CHECK_INT(culprit_kind_parse("statement", &kind), -1);
    culprit_verdict verdict;
    CHECK_INT(culprit_verdict_parse("timeout", &verdict), 0);
    CHECK_INT(verdict, CULPRIT_VERDICT_TIMEOUT);
    CHECK_INT(culprit_verdict_parse("passed", &verdict), -1);
    culprit_verdict_policy policy = culprit_verdict_policy_default();
    CHECK_INT(culprit_verdict_outcome(CULPRIT_VERDICT_ERROR, &policy), CULPRIT_OUTCOME_FAILING);
    CHECK_INT(culprit_verdict_outcome(CULPRIT_VERDICT_TIMEOUT, &policy), CULPRIT_OUTCOME_FAILING);
    CHECK_INT(culprit_verdict_outcome(CULPRIT_VERDICT_SKIP, &policy), CULPRIT_OUTCOME_EXCLUDED);
    policy.error_as = CULPRIT_OUTCOME_EXCLUDED;
    CHECK_INT(culprit_verdict_outcome(CULPRIT_VERDICT_ERROR, &policy), CULPRIT_OUTCOME_EXCLUDED);
}

static void test_tables(void)
{
    culprit_spectra s;
    culprit_error err;
    culprit_spectra_init(&s);
    uint32_t a, b, again, element;
    char file_name[32];
    CHECK_INT(culprit_spectra_add_file(&s, "a.c", &a, &err), 0);
    CHECK_INT(culprit_spectra_add_file(&s, "b.c", &b, &err), 0);
    for (int i = 0; i < 200; i++) { /* forces the file index to grow */
        snprintf(file_name, sizeof file_name, "dir/f%d.c", i);
        CHECK_INT(culprit_spectra_add_file(&s, file_name, &again, &err), 0);
    }
    CHECK_INT(culprit_spectra_add_file(&s, "a.c", &again, &err), 0);
    CHECK_INT(again, a);
    CHECK_INT(culprit_spectra_find_file(&s, "dir/f150.c"), 152);
    CHECK_INT(culprit_spectra_find_file(&s, "zzz.c"), CULPRIT_NO_FILE);
    CHECK_INT(culprit_spectra_add_element(&s, CULPRIT_KIND_LINE, b, 7, 0, NULL, &element, &err), 0);
    CHECK_INT(culprit_spectra_add_element(&s, CULPRIT_KIND_BRANCH, b, 8, 3, "<8,true>", &element, &err), 0);
    CHECK_INT(element, 1);
    CHECK(culprit_spectra_add_element(&s, CULPRIT_KIND_LINE, 9999, 1, 0, NULL, NULL, &err) != 0);
    char label[64];
    culprit_spectra_element_label(&s, 0, label, sizeof label);
    CHECK_STR(label, "b.c:7");
    culprit_spectra_element_label(&s, 1, label, sizeof label);
    CHECK_STR(label, "<8,true>");

    size_t test;
    CHECK_INT(culprit_spectra_add_test(&s, "t1", CULPRIT_VERDICT_FAIL, &test, &err), 0);
    CHECK_INT(s.words_per_test, 1);
    CHECK(!culprit_spectra_hit(&s, test, 1));
    uint32_t ids[] = {1};
    uint64_t counts[] = {42};
    CHECK_INT(culprit_spectra_set_counts(&s, test, 1, ids, counts, &err), 0);
    CHECK(culprit_spectra_hit(&s, test, 1));
    CHECK_INT(s.counts[test].counts[0], 42);
    uint32_t bad_ids[] = {1, 1};
    CHECK_INT(culprit_spectra_set_counts(&s, test, 2, bad_ids, (uint64_t[]){1, 2}, &err),
              CULPRIT_ERROR_INPUT);
    /* Elements are frozen once tests exist: a row's width is fixed. */
    CHECK_INT(culprit_spectra_add_element(&s, CULPRIT_KIND_LINE, a, 1, 0, NULL, NULL, &err),
              CULPRIT_ERROR_INTERNAL);
    culprit_spectra_free(&s);
}

/* Fills a random matrix and compares the tally with a per-element count. */
static void check_random_tally(size_t elements, size_t tests, unsigned seed, int density_percent)
{
    culprit_spectra s;
    culprit_error err;
    culprit_spectra_init(&s);
    srand(seed);
    uint32_t file;
    culprit_spectra_add_file(&s, "x.c", &file, &err);
    for (size_t e = 0; e < elements; e++)
        culprit_spectra_add_element(&s, CULPRIT_KIND_LINE, file, (uint32_t)e + 1, 0, NULL, NULL, &err);
    for (size_t t = 0; t < tests; t++) {
        char name[32];
        snprintf(name, sizeof name, "t%zu", t);
        culprit_spectra_add_test(&s, name, (culprit_verdict)(rand() % CULPRIT_VERDICT_COUNT), NULL, &err);
        for (uint32_t e = 0; e < elements; e++)
            if (rand() % 100 < density_percent)
                culprit_spectra_set_hit(&s, t, e);
    }
    culprit_verdict_policy policy = culprit_verdict_policy_default();
    culprit_tally *tallies = calloc(elements + 1, sizeof *tallies);
    culprit_totals totals;
    CHECK_INT(culprit_spectra_tally(&s, &policy, tallies, &totals, &err), 0);
    size_t mismatches = 0, failing = 0, passing = 0;
    for (size_t t = 0; t < tests; t++) {
        culprit_outcome outcome = culprit_verdict_outcome(s.tests[t].verdict, &policy);
        failing += outcome == CULPRIT_OUTCOME_FAILING;
        passing += outcome == CULPRIT_OUTCOME_PASSING;
    }
    for (uint32_t e = 0; e < elements; e++) {
        uint32_t ef = 0, ep = 0;
        for (size_t t = 0; t < tests; t++) {
            culprit_outcome outcome = culprit_verdict_outcome(s.tests[t].verdict, &policy);
            if (culprit_spectra_hit(&s, t, e)) {
                ef += outcome == CULPRIT_OUTCOME_FAILING;
                ep += outcome == CULPRIT_OUTCOME_PASSING;
            }
        }
        if (tallies[e].ef != ef || tallies[e].ep != ep || tallies[e].nf != failing - ef ||
            tallies[e].np != passing - ep)
            mismatches++;
    }
    CHECK_RECORD(mismatches == 0, "%zu of %zu elements miscounted (%zu tests, seed %u)", mismatches, elements,
                 tests, seed);
    CHECK_INT(totals.failing, failing);
    CHECK_INT(totals.passing, passing);
    free(tallies);
    culprit_spectra_free(&s);
}

static void test_tally(void)
{
    check_random_tally(1, 1, 1, 50);
    check_random_tally(63, 14, 2, 30);
    check_random_tally(64, 15, 3, 50);
    check_random_tally(65, 16, 4, 50);
    check_random_tally(200, 31, 5, 90);
    check_random_tally(70, 32, 8, 60);  /* one past a group of 31 */
    check_random_tally(520, 63, 9, 40); /* two full groups and one row; 8-word vectors and a tail */
    check_random_tally(1000, 700, 6, 5);
    check_random_tally(130, 1100, 7, 100); /* every row full: counters carry high */
    /* No tests at all: everything is zero. */
    culprit_spectra s;
    culprit_error err;
    culprit_spectra_init(&s);
    culprit_spectra_add_element(&s, CULPRIT_KIND_BLOCK, CULPRIT_NO_FILE, 0, 0, "b0", NULL, &err);
    culprit_tally tally = {9, 9, 9, 9};
    culprit_totals totals;
    culprit_verdict_policy policy = culprit_verdict_policy_default();
    CHECK_INT(culprit_spectra_tally(&s, &policy, &tally, &totals, &err), 0);
    CHECK(tally.ef == 0 && tally.ep == 0 && tally.nf == 0 && tally.np == 0);
    culprit_spectra_free(&s);
}

/* Tests but no elements (a JSON import may hold that): the rows are empty
 * and the matrix was never allocated, so a row is NULL rather than NULL +
 * 0, which C leaves undefined.  clang's UBSan stops at it, gcc's does not:
 * the input that found it, in tests/fuzz/corpus/spectra_json/, is the
 * test that fails without the fix (make check's fuzz smoke run). */
static void test_no_elements(void)
{
    culprit_spectra s;
    culprit_error err;
    culprit_spectra_init(&s);
    CHECK_INT(culprit_spectra_add_test(&s, "t1", CULPRIT_VERDICT_FAIL, NULL, &err), 0);
    CHECK_INT(culprit_spectra_add_test(&s, "t2", CULPRIT_VERDICT_PASS, NULL, &err), 0);
    CHECK(culprit_spectra_row(&s, 1) == NULL);
    culprit_tally tally;
    culprit_totals totals;
    culprit_verdict_policy policy = culprit_verdict_policy_default();
    CHECK_INT(culprit_spectra_tally(&s, &policy, &tally, &totals, &err), 0);
    CHECK(totals.failing == 1 && totals.passing == 1);
    culprit_spectra_free(&s);
}

/* Reserving first gives the same matrix as growing one test at a time. */
static void test_reserve(void)
{
    culprit_spectra s;
    culprit_error err;
    culprit_spectra_init(&s);
    for (int e = 0; e < 130; e++)
        culprit_spectra_add_element(&s, CULPRIT_KIND_BLOCK, CULPRIT_NO_FILE, 0, 0, NULL, NULL, &err);
    CHECK_INT(culprit_spectra_reserve_tests(&s, 1000, &err), 0);
    CHECK_INT(s.test_capacity, 1000);
    CHECK_INT(s.words_per_test, 3);
    for (int t = 0; t < 1001; t++) { /* one past the reservation: growth still works */
        size_t test;
        CHECK_INT(culprit_spectra_add_test(&s, "t", CULPRIT_VERDICT_PASS, &test, &err), 0);
        culprit_spectra_set_hit(&s, test, (uint32_t)(t % 130));
    }
    size_t wrong = 0;
    for (int t = 0; t < 1001; t++)
        for (uint32_t e = 0; e < 130; e++)
            wrong += culprit_spectra_hit(&s, (size_t)t, e) != (e == (uint32_t)(t % 130));
    CHECK_INT(wrong, 0);
    culprit_spectra_free(&s);
}

/* Doubling from the minimum, contents kept, no realloc while there is room. */
static void test_grow(void)
{
    int *items = NULL;
    size_t capacity = 0;
    CHECK(CULPRIT_GROW(items, capacity, 0, 16)); /* nothing needed: nothing allocated */
    CHECK(items == NULL);
    CHECK_INT(capacity, 0);
    CHECK(CULPRIT_GROW(items, capacity, 1, 16));
    CHECK(items != NULL);
    CHECK_INT(capacity, 16);
    for (int i = 0; i < 16; i++)
        items[i] = i;
    int *before = items;
    CHECK(CULPRIT_GROW(items, capacity, 16, 16)); /* full but enough */
    CHECK(items == before);
    CHECK_INT(capacity, 16);
    CHECK(CULPRIT_GROW(items, capacity, 17, 16)); /* one more: doubles */
    CHECK_INT(capacity, 32);
    CHECK(CULPRIT_GROW(items, capacity, 100, 16)); /* far more: doubles until it fits */
    CHECK_INT(capacity, 128);
    int kept = 0;
    for (int i = 0; i < 16; i++)
        kept += items[i] == i;
    CHECK_INT(kept, 16);
    free(items);

    char *text = NULL;
    size_t size = 0;
    CHECK(CULPRIT_GROW(text, size, 40, 16)); /* from empty, past the minimum */
    CHECK_INT(size, 64);
    free(text);
    char *bytes = NULL;
    size_t byte_capacity = 0;
    CHECK(culprit_grow(&bytes, &byte_capacity, 1, 1, 0)); /* a minimum of 0 still makes room */
    CHECK_INT(byte_capacity, 1);
    free(bytes);
}

/* A size that does not fit in size_t fails before realloc, leaving the array
 * as it was, instead of wrapping round to a small allocation. */
static void test_grow_overflow(void)
{
    uint64_t *items = NULL;
    size_t capacity = 0;
    CHECK(CULPRIT_GROW(items, capacity, 16, 16));
    for (int i = 0; i < 16; i++)
        items[i] = (uint64_t)i * 3;
    uint64_t *before = items;
    /* 2^61 items of 8 bytes: the capacity fits, its bytes are 2^64. */
    CHECK(!CULPRIT_GROW(items, capacity, SIZE_MAX / sizeof *items + 1, 16));
    CHECK(items == before);
    CHECK_INT(capacity, 16);
    /* Bytes, but more than doubling can reach without overflowing. */
    CHECK(!culprit_grow(&items, &capacity, SIZE_MAX / 2 + 2, 1, 16));
    CHECK(!culprit_grow(&items, &capacity, SIZE_MAX, 1, 16));
    CHECK(items == before);
    CHECK_INT(capacity, 16);
    int kept = 0;
    for (int i = 0; i < 16; i++)
        kept += items[i] == (uint64_t)i * 3;
    CHECK_INT(kept, 16);
    CHECK(CULPRIT_GROW(items, capacity, 17, 16)); /* and it still grows */
    CHECK_INT(capacity, 32);
    free(items);
}

int main(void)
{
    test_grow();
    test_grow_overflow();
    test_reserve();
    test_names();
    test_tables();
    test_tally();
    test_no_elements();
    return check_report("spectra");
}
