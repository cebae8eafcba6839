/*
 * interchange.h - reading and writing spectra in other tools' formats, so
 * that coverage from GZoltar (Java), from scripts, or from another culprit
 * store can be ranked here, and ours can be taken elsewhere.
 *
 *  - GZoltar: a spectra file (one component name per line, optional header
 *    line "name"), a matrix (per test: one 0/1 per component, then + or -),
 *    and optionally a tests file (one name per line, or GZoltar's tests.csv
 *    with header "name,outcome,runtime,stacktrace").
 *  - CSV: header "test,verdict,COMPONENT...", then one row per test with a
 *    verdict name and one 0/1 per component.
 *  - JSON: the whole spectra with kinds, columns, verdicts, durations and
 *    sparse counts (docs/formats.md), and the structure of a program
 *    collected from culprit-cc builds: its units' maps, its crash stacks.
 *  - lcov tracefiles and gcov's JSON intermediate format: coverage of one
 *    test per file, named after the file, with verdicts given separately;
 *    line and branch elements with execution counts.
 *
 * Readers fill an initialised, empty culprit_spectra and report malformed
 * input as "FILE:LINE:COL: what was expected".  Writers write to streams the
 * caller opened.  Component names "path:LINE" become line elements of that
 * file; other names ending in ":LINE" (GZoltar's "org.x$Y#m(int):42") keep
 * their text as the element's name, with the part before '#' as the file;
 * any other name ("cond22_true") is an opaque element with that name.
 */
#ifndef CULPRIT_INTERCHANGE_H
#define CULPRIT_INTERCHANGE_H

#include <stdbool.h>
#include <stdio.h>

#include "culprit/program.h"
#include "culprit/spectra.h"

CULPRIT_API culprit_status culprit_gzoltar_read(const char *spectra_path, const char *matrix_path,
                                                const char *tests_path, culprit_spectra *spectra,
                                                culprit_error *err);
/* Writes the line and opaque elements as components and every test that is not
 * excluded by policy (failing ones as '-').  tests may be NULL. */
CULPRIT_API culprit_status culprit_gzoltar_write(const culprit_spectra *spectra,
                                                 const culprit_verdict_policy *policy, FILE *spectra_out,
                                                 FILE *matrix_out, FILE *tests_out, culprit_error *err);

CULPRIT_API culprit_status culprit_csv_read(const char *path, culprit_spectra *spectra, culprit_error *err);
CULPRIT_API culprit_status culprit_csv_write(const culprit_spectra *spectra, FILE *out, culprit_error *err);

/* Reads spectra and, when structure (initialised, empty) is not NULL, the
 * program's structure from the optional "units" and "crash" fields: the
 * maps must assemble into "elements" and every crash frame must name a
 * block of one of them.  With structure NULL those fields are not read.
 * On failure the caller still frees both. */
CULPRIT_API culprit_status culprit_json_read(const char *path, culprit_spectra *spectra,
                                             culprit_program_structure *structure, culprit_error *err);
/* Writes spectra and, when structure has units, "units" and each crashed
 * test's "crash".  structure may be NULL. */
CULPRIT_API culprit_status culprit_json_write(const culprit_spectra *spectra,
                                              const culprit_program_structure *structure, FILE *out,
                                              culprit_error *err);

/* Verdicts of tests imported one coverage file per test: read from a
 * verdicts file ("NAME VERDICT" lines, '#' comments), or listed one by one
 * (`--fail NAME`) with every test not listed passing. */
typedef struct culprit_verdict_entry {
    char *name; /* owned */
    culprit_verdict verdict;
    size_t line; /* its line in the verdicts file; 0 when not from a file */
} culprit_verdict_entry;

typedef struct culprit_verdict_list {
    const char *path;   /* the verdicts file, for messages; NULL when listed one by one */
    bool unlisted_pass; /* tests without an entry pass; otherwise each test needs one */
    size_t count, capacity;
    culprit_verdict_entry *entries;
} culprit_verdict_list;

CULPRIT_API void culprit_verdict_list_init(culprit_verdict_list *list);
CULPRIT_API void culprit_verdict_list_free(culprit_verdict_list *list);
/* Appends name's verdict (line 0: not from a file). */
CULPRIT_API culprit_status culprit_verdict_list_add(culprit_verdict_list *list, const char *name,
                                                    culprit_verdict verdict, size_t line, culprit_error *err);
/* Reads a verdicts file into an initialised, empty list and sets its path. */
CULPRIT_API culprit_status culprit_verdict_list_read(culprit_verdict_list *list, const char *path,
                                                     culprit_error *err);

/* Read one coverage file per test into an initialised, empty spectra.  A
 * test is named after its file's basename without the suffix (.info for
 * lcov; .gcov.json.gz, .gcov.json, .json.gz or .json for gcov), and takes
 * its verdict from verdicts: a test without one, a name in verdicts without
 * a file, or two files naming the same test are errors.  The element table
 * is the union over all files, sorted by path, line, kind and branch, so
 * that every test shares one program whatever the order of the files. */
CULPRIT_API culprit_status culprit_lcov_read(const char *const *paths, size_t count,
                                             const culprit_verdict_list *verdicts, culprit_spectra *spectra,
                                             culprit_error *err);
/* gcov --json-format output (gcc 9 and later), gzip-compressed or not; a
 * file may hold several JSON documents one after another (gcov --stdout). */
CULPRIT_API culprit_status culprit_gcov_json_read(const char *const *paths, size_t count,
                                                  const culprit_verdict_list *verdicts,
                                                  culprit_spectra *spectra, culprit_error *err);

/* Adds the element a component name denotes (see above); column is where
 * the name starts in its line, for messages. */
CULPRIT_API culprit_status culprit_component_add(culprit_spectra *spectra, const char *name, const char *path,
                                                 size_t line, size_t column, culprit_error *err);

/* Writes text as one CSV field, quoted as RFC 4180 says when it holds a
 * comma, quote or line break. */
CULPRIT_API void culprit_csv_write_field(FILE *out, const char *text);

/* The component name of an element: its name, or "file:line". */
CULPRIT_API void culprit_component_name(const culprit_spectra *spectra, uint32_t element, char *buffer,
                                        size_t size);

#endif
