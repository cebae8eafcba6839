/*
 * spectra.h - the spectra matrix: program elements, tests and what each test
 * executed.
 *
 * A culprit_spectra owns a file table, an element table, a test table, one
 * hit bitset per test (row-major: bit e of row t says test t executed
 * element e) and, optionally, sparse execution counts per test.  All
 * elements must be added before the first test: a row's width is fixed then.
 *
 * culprit_spectra_tally computes (ef, ep, nf, np) for every element in one
 * pass over the rows using bit-sliced counters, so the cost is word-wise in
 * the matrix size and there is no per-element loop over tests.
 */
#ifndef CULPRIT_SPECTRA_H
#define CULPRIT_SPECTRA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "culprit/error.h"

/* What an element is.  Adding a kind is one entry here and its name in
 * spectra.c; the store keeps kinds by name so databases stay readable. */
typedef enum culprit_kind {
    CULPRIT_KIND_LINE,      /* an executable source line */
    CULPRIT_KIND_BLOCK,     /* a basic block */
    CULPRIT_KIND_EDGE,      /* a CFG edge between two blocks */
    CULPRIT_KIND_BRANCH,    /* <line, branch outcome> */
    CULPRIT_KIND_RETURN,    /* <line, return-value class> */
    CULPRIT_KIND_PREDICATE, /* a CBI/SOBER predicate */
    CULPRIT_KIND_OPAQUE,    /* a component another tool named (no file, no line): ranked by its name */
    CULPRIT_KIND_COUNT
} culprit_kind;

CULPRIT_API const char *culprit_kind_name(culprit_kind kind);
/* Returns 0 and sets *kind when name is a kind's name; -1 otherwise. */
CULPRIT_API int culprit_kind_parse(const char *name, culprit_kind *kind);

typedef enum culprit_verdict {
    CULPRIT_VERDICT_PASS,
    CULPRIT_VERDICT_FAIL,
    CULPRIT_VERDICT_ERROR,
    CULPRIT_VERDICT_TIMEOUT,
    CULPRIT_VERDICT_SKIP,
    CULPRIT_VERDICT_COUNT
} culprit_verdict;

CULPRIT_API const char *culprit_verdict_name(culprit_verdict verdict);
CULPRIT_API int culprit_verdict_parse(const char *name, culprit_verdict *verdict);

/* How a verdict counts in (ef, ep, nf, np). */
typedef enum culprit_outcome {
    CULPRIT_OUTCOME_PASSING,
    CULPRIT_OUTCOME_FAILING,
    CULPRIT_OUTCOME_EXCLUDED,
} culprit_outcome;

/* TECHNIQUES.md §1: error and timeout count as failing unless the user says
 * otherwise; skipped tests are always left out. */
typedef struct culprit_verdict_policy {
    culprit_outcome error_as;
    culprit_outcome timeout_as;
} culprit_verdict_policy;

CULPRIT_API culprit_verdict_policy culprit_verdict_policy_default(void);
CULPRIT_API culprit_outcome culprit_verdict_outcome(culprit_verdict verdict,
                                                    const culprit_verdict_policy *policy);

enum { CULPRIT_NO_FILE = UINT32_MAX };

typedef struct culprit_element {
    culprit_kind kind;
    uint32_t file;   /* index into the file table, or CULPRIT_NO_FILE */
    uint32_t line;   /* 1-based; 0 when the element has no line */
    uint32_t column; /* 1-based; 0 when unknown */
    char *name;      /* owned; NULL means "display as file:line" */
} culprit_element;

typedef struct culprit_test {
    char *name; /* owned */
    culprit_verdict verdict;
    double duration_seconds; /* negative when unknown */
} culprit_test;

/* Sparse execution counts of one test: element ids ascending. */
typedef struct culprit_counts {
    size_t length;
    uint32_t *elements; /* owned */
    uint64_t *counts;   /* owned */
} culprit_counts;

typedef struct culprit_spectra {
    size_t file_count, file_capacity;
    char **files;     /* owned paths */
    void *file_index; /* private: path -> index hash table */

    size_t element_count, element_capacity;
    culprit_element *elements;

    size_t test_count, test_capacity;
    culprit_test *tests;
    size_t words_per_test;  /* fixed when the first test is added */
    uint64_t *hits;         /* test_count rows of words_per_test words */
    culprit_counts *counts; /* test_count entries, empty when absent */
} culprit_spectra;

CULPRIT_API void culprit_spectra_init(culprit_spectra *spectra);
CULPRIT_API void culprit_spectra_free(culprit_spectra *spectra);

/* Interns path; *index receives its position in the file table. */
CULPRIT_API culprit_status culprit_spectra_add_file(culprit_spectra *spectra, const char *path,
                                                    uint32_t *index, culprit_error *err);
/* Returns CULPRIT_NO_FILE when path is not in the table. */
CULPRIT_API uint32_t culprit_spectra_find_file(const culprit_spectra *spectra, const char *path);

/* Appends an element (name may be NULL; it is copied).  Fails once tests exist. */
CULPRIT_API culprit_status culprit_spectra_add_element(culprit_spectra *spectra, culprit_kind kind,
                                                       uint32_t file, uint32_t line, uint32_t column,
                                                       const char *name, uint32_t *index, culprit_error *err);

/* Makes room for count more tests at once (the matrix is then allocated
 * once instead of grown by doubling); optional. */
CULPRIT_API culprit_status culprit_spectra_reserve_tests(culprit_spectra *spectra, size_t count,
                                                         culprit_error *err);

/* Removes every test (names, hits, counts), keeping the files and
 * elements and the memory of the matrix: a program's element table is
 * reused for the next tests. */
CULPRIT_API void culprit_spectra_clear_tests(culprit_spectra *spectra);

/* Appends a test with an all-zero hit row. */
CULPRIT_API culprit_status culprit_spectra_add_test(culprit_spectra *spectra, const char *name,
                                                    culprit_verdict verdict, size_t *index,
                                                    culprit_error *err);

/* Test test's row of words_per_test words; NULL when rows are empty (no
 * elements: the matrix is never allocated, and NULL + 0 is undefined). */
static inline uint64_t *culprit_spectra_row(const culprit_spectra *spectra, size_t test)
{
    return spectra->words_per_test ? spectra->hits + test * spectra->words_per_test : NULL;
}

static inline void culprit_spectra_set_hit(culprit_spectra *spectra, size_t test, uint32_t element)
{
    culprit_spectra_row(spectra, test)[element / 64] |= UINT64_C(1) << (element % 64);
}

static inline bool culprit_spectra_hit(const culprit_spectra *spectra, size_t test, uint32_t element)
{
    return (culprit_spectra_row(spectra, test)[element / 64] >> (element % 64)) & 1;
}

/* Replaces test's sparse counts with copies of the given arrays (elements
 * ascending, each < element_count), and sets the hit bit of every element
 * with a non-zero count. */
CULPRIT_API culprit_status culprit_spectra_set_counts(culprit_spectra *spectra, size_t test, size_t length,
                                                      const uint32_t *elements, const uint64_t *counts,
                                                      culprit_error *err);

/* Forgets the files kept_files[] leaves out: the file table keeps the
 * others in their order, renumbered[f] (file_count entries, filled here)
 * is file f's new index or CULPRIT_NO_FILE, and the elements of a file
 * left out lose it (file CULPRIT_NO_FILE).  Element ids, tests and hits
 * do not change.  For `culprit report`, whose pages list every file of
 * the spectra, after ranking (culprit_ranking_keep_files renumbers the
 * rankings). */
CULPRIT_API culprit_status culprit_spectra_keep_files(culprit_spectra *spectra, const bool *kept_files,
                                                      uint32_t *renumbered, culprit_error *err);

/* Writes "file:line" or the element's name into buffer (always terminated). */
CULPRIT_API void culprit_spectra_element_label(const culprit_spectra *spectra, uint32_t element, char *buffer,
                                               size_t size);

/* (ef, ep, nf, np) of one element. */
typedef struct culprit_tally {
    uint32_t ef, ep, nf, np;
} culprit_tally;

/* Totals of the tests that take part: F failing, P passing. */
typedef struct culprit_totals {
    uint32_t failing, passing;
} culprit_totals;

/* Fills tallies[element_count] and *totals, counting each test as policy says. */
CULPRIT_API culprit_status culprit_spectra_tally(const culprit_spectra *spectra,
                                                 const culprit_verdict_policy *policy, culprit_tally *tallies,
                                                 culprit_totals *totals, culprit_error *err);

/* A 64-hex-digit SHA-256 of the element and file tables: the program's identity
 * in the store, so spectra of a rebuilt program are never mixed with old ones. */
CULPRIT_API void culprit_spectra_program_hash(const culprit_spectra *spectra, char hex[65]);

#endif
