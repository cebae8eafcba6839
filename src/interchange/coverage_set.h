/*
 * coverage_set.h - coverage gathered one file per test (lcov tracefiles,
 * gcov JSON), turned into one spectra once every file is read.
 *
 * The element table of a spectra is fixed before its first test, but here
 * the elements are only known after the last file: each file may list
 * files and lines the others do not.  So the readers record (path, line,
 * kind, label, count) per test here, and coverage_set_build takes the
 * union, sorts it, and fills the rows.
 */
#ifndef CULPRIT_COVERAGE_SET_H
#define CULPRIT_COVERAGE_SET_H

#include "culprit/interchange.h"

/* One count of one element in one test.  file and label are interned
 * strings; label names a branch within its line ("0:1", "branch#2") and is
 * COVERAGE_NO_LABEL for lines. */
typedef struct coverage_record {
    uint32_t file, line, kind, label;
    uint64_t count;
} coverage_record;

enum { COVERAGE_NO_LABEL = UINT32_MAX };

typedef struct coverage_test {
    char *name;         /* owned */
    const char *source; /* the file it came from, for messages */
    size_t first, end;  /* its records: records[first .. end) */
} coverage_test;

typedef struct coverage_set {
    culprit_spectra strings; /* only its file table, as an interner of paths and labels */
    size_t record_count, record_capacity;
    coverage_record *records;
    size_t test_count, test_capacity;
    coverage_test *tests;
} coverage_set;

void coverage_set_init(coverage_set *set);
void coverage_set_free(coverage_set *set);

/* Starts the test recorded from source_path, named after its basename less
 * the first of suffixes (NULL-terminated) that it ends with. */
culprit_status coverage_set_begin_test(coverage_set *set, const char *source_path,
                                       const char *const *suffixes, culprit_error *err);

/* *id receives the interned text's number (the same for equal texts). */
culprit_status coverage_set_intern(coverage_set *set, const char *text, uint32_t *id, culprit_error *err);

/* Records a count of the current test; repeated elements add up. */
culprit_status coverage_set_add(coverage_set *set, culprit_kind kind, uint32_t file, uint32_t line,
                                uint32_t label, uint64_t count, culprit_error *err);

/* Fills an initialised, empty spectra: the union of the elements, sorted,
 * then one test per begun test with its verdict from verdicts. */
culprit_status coverage_set_build(const coverage_set *set, const culprit_verdict_list *verdicts,
                                  culprit_spectra *spectra, culprit_error *err);

#endif
