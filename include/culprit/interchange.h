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
 *    sparse counts (docs/formats.md).
 *
 * Readers fill an initialised, empty culprit_spectra and report malformed
 * input as "FILE:LINE:COL: what was expected".  Writers write to streams the
 * caller opened.  Component names "path:LINE" become line elements of that
 * file; other names ending in ":LINE" (GZoltar's "org.x$Y#m(int):42") keep
 * their text as the element's name, with the part before '#' as the file.
 */
#ifndef CULPRIT_INTERCHANGE_H
#define CULPRIT_INTERCHANGE_H

#include <stdio.h>

#include "culprit/spectra.h"

culprit_status culprit_gzoltar_read(const char *spectra_path, const char *matrix_path, const char *tests_path,
                                    culprit_spectra *spectra, culprit_error *err);
/* Writes the line elements as components and every test that is not
 * excluded by policy (failing ones as '-').  tests may be NULL. */
culprit_status culprit_gzoltar_write(const culprit_spectra *spectra, const culprit_verdict_policy *policy,
                                     FILE *spectra_out, FILE *matrix_out, FILE *tests_out,
                                     culprit_error *err);

culprit_status culprit_csv_read(const char *path, culprit_spectra *spectra, culprit_error *err);
culprit_status culprit_csv_write(const culprit_spectra *spectra, FILE *out, culprit_error *err);

culprit_status culprit_json_read(const char *path, culprit_spectra *spectra, culprit_error *err);
culprit_status culprit_json_write(const culprit_spectra *spectra, FILE *out, culprit_error *err);

/* Adds the element a component name denotes (see above); column is where
 * the name starts in its line, for messages. */
culprit_status culprit_component_add(culprit_spectra *spectra, const char *name, const char *path,
                                     size_t line, size_t column, culprit_error *err);

/* Writes text as one CSV field, quoted as RFC 4180 says when it holds a
 * comma, quote or line break. */
void culprit_csv_write_field(FILE *out, const char *text);

/* The component name of an element: its name, or "file:line". */
void culprit_component_name(const culprit_spectra *spectra, uint32_t element, char *buffer, size_t size);

#endif
