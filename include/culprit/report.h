/*
 * report.h - showing a ranking where a developer works: colored rows with
 * source text for `culprit rank` on a terminal, and the documents of
 * `culprit report`: a self-contained HTML heat map in the spirit of
 * Tarantula's visualization (Jones, Harrold, Stasko, ICSE 2002), SARIF
 * 2.1.0 for code-scanning viewers, and a versioned JSON document
 * (docs/report-schema.json) that holds everything the HTML shows.
 *
 * The library writes to FILE*s and directories the caller names; it never
 * prints diagnostics.  What a report shows is gathered by the caller into a
 * culprit_report (rankings, tests, clusters, output maps); the test data
 * types are the judgement module's (culprit/judgement.h).
 */
#ifndef CULPRIT_REPORT_H
#define CULPRIT_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "culprit/error.h"
#include "culprit/judgement.h"
#include "culprit/rank.h"
#include "culprit/sbfl.h"
#include "culprit/spectra.h"

/* The version of the JSON report's schema (docs/report-schema.json). */
#define CULPRIT_REPORT_SCHEMA_VERSION 1

/* ---- source text (src/report/sources.c) ---- */

typedef struct culprit_source_file {
    bool tried, found;
    char *path; /* owned: where the file was looked for */
    char *text; /* owned, NUL-terminated */
    size_t line_count;
    size_t *line_starts; /* owned: line_count + 1 offsets into text */
} culprit_source_file;

/* The program's source files, read on first use.  A relative path in the
 * program is taken under root; an absolute one as it is, or, when it is
 * not there, as root/BASENAME (the program was built elsewhere). */
typedef struct culprit_sources {
    const culprit_spectra *spectra;
    char *root; /* owned; NULL: the current directory */
    size_t count;
    culprit_source_file *files; /* one per file of spectra */
} culprit_sources;

CULPRIT_API culprit_status culprit_sources_init(culprit_sources *sources, const culprit_spectra *spectra,
                                                const char *root, culprit_error *err);
CULPRIT_API void culprit_sources_free(culprit_sources *sources);
/* Reads file (an index into spectra's files) if not yet tried; false when
 * it cannot be read. */
CULPRIT_API bool culprit_sources_load(culprit_sources *sources, uint32_t file);
/* The text of a 1-based line without its newline; false when the file or
 * the line is missing. */
CULPRIT_API bool culprit_sources_line(culprit_sources *sources, uint32_t file, uint32_t line,
                                      const char **text, size_t *length);

/* ---- elements in words (src/report/describe.c) ---- */

/* Writes what element is into buffer (always terminated): "branch `x < z`
 * taken true", "switch `c` took case 3", "`power()` returned negative",
 * "block b4 of mid() at mid.c:12", "line mid.c:12"; other names as they
 * are.  sources (may be NULL) gives a branch its condition's text; without
 * it the branch is named by its place ("branch at mid.c:11:20 taken true"). */
CULPRIT_API void culprit_report_describe_element(const culprit_spectra *spectra, uint32_t element,
                                                 culprit_sources *sources, char *buffer, size_t size);

/* Whether entry, ranked in view, took its score from another element than
 * the one it ranks - a line its tuple's, block's or predicate's - which is
 * then worth naming beside it: "scores as branch `x < z` taken true". */
CULPRIT_API bool culprit_report_decided_elsewhere(const culprit_spectra *spectra, const culprit_ranked *entry,
                                                  culprit_view view);

/* ---- colors (src/report/color.c) ---- */

/* Display suspiciousness in [0, 1] of each entry: the score itself when every
 * finite score lies in [0, 1] (Tarantula, Ochiai...), else scaled between the
 * lowest and highest finite score; +inf is 1, -inf 0. */
CULPRIT_API culprit_status culprit_report_suspiciousness(const culprit_ranking *ranking, double **values,
                                                         culprit_error *err);

/* Tarantula's color: hue (1 - suspiciousness) * 120 degrees, brightness
 * the confidence (kept at least 0.35 so that text stays readable). */
CULPRIT_API void culprit_report_color(double suspiciousness, double confidence, unsigned char rgb[3]);

/* ---- the terminal (src/report/terminal.c) ---- */

typedef struct culprit_terminal_options {
    bool color;     /* ANSI colors */
    bool truecolor; /* 24-bit colors; else the 256-color cube */
    size_t width;   /* columns of the terminal; 0: do not cut lines */
    size_t top;     /* entries to show; 0 for all */
    culprit_tie_policy ties;
    const char *method; /* "formula ochiai", shown in the header */
    culprit_totals totals;
    culprit_view view; /* of the ranking: says which entries took their score elsewhere */
    /* NULL, or a note for the line under an entry's row ("" for none): why
     * it ranks there, when the ranking's own elements cannot say it (a
     * line's best mutant) */
    void (*explain)(const void *context, const culprit_ranked *entry, char *buffer, size_t size);
    const void *explain_context;
} culprit_terminal_options;

/* Fills color, truecolor and width for a terminal on fd: colors unless
 * NO_COLOR is set or TERM is dumb; 24-bit when COLORTERM says so. */
CULPRIT_API void culprit_terminal_detect(int fd, culprit_terminal_options *options);

/* Writes the line ranking as rows "rank score file:line source", each
 * followed, when its score is another element's, by a line naming that
 * element and its (ef, ep). */
CULPRIT_API culprit_status culprit_terminal_write_ranking(FILE *out, const culprit_terminal_options *options,
                                                          const culprit_spectra *spectra,
                                                          const culprit_ranking *ranking,
                                                          culprit_sources *sources, culprit_error *err);

/* ---- the report (src/report/report_json.c, report_html.c, report_sarif.c) ---- */

/* One formula or technique the report was computed with. */
typedef struct culprit_report_method {
    const char *name; /* "ochiai", "blockrank" */
    const char *title;
    const char *kind; /* "formula" or "technique" */
    const char *definition;
    const char *reference;
    culprit_ranking ranking; /* the line view */
    double *suspiciousness;  /* per ranking entry, from culprit_report_suspiciousness */
} culprit_report_method;

/* The output map of one failing test (which statements wrote which line). */
typedef struct culprit_report_output {
    const char *test;
    const culprit_output_map *map;
} culprit_report_output;

typedef struct culprit_report {
    const char *generator_version;
    const char *program_hash; /* may be NULL */
    const culprit_spectra *spectra;
    culprit_verdict_policy policy;
    culprit_totals totals;
    culprit_tie_policy ties;
    size_t method_count;
    const culprit_report_method *methods;
    culprit_sources *sources;
    const char *source_root;                  /* absolute; URIs in SARIF are relative to it */
    const culprit_failure_clusters *failures; /* every test and the clusters; NULL when unknown */
    size_t output_count;
    const culprit_report_output *outputs;
} culprit_report;

/* The JSON document.  html_safe escapes '<', '>', '&' and U+2028/9 in
 * strings, so the document can sit inside an HTML <script> element. */
CULPRIT_API culprit_status culprit_report_write_json(FILE *out, const culprit_report *report, bool html_safe,
                                                     culprit_error *err);

/* Writes a judgement's differences as a JSON array of objects kind,
 * actual_line, expected_line (null for notes), expected, actual, message
 * and no_newline (null, "expected", "actual" or "both"): the form of the
 * JSON report, `culprit tests` and `culprit output` (src/report/difference_json.c). */
CULPRIT_API void culprit_report_write_differences(FILE *out, const culprit_differences *differences,
                                                  bool html_safe);

/* Writes DIRECTORY/index.html (creating DIRECTORY): one file with the JSON
 * document embedded, rendered by an inline script, usable from file://. */
CULPRIT_API culprit_status culprit_report_write_html(const char *directory, const culprit_report *report,
                                                     culprit_error *err);

/* Which ranking entries become SARIF results: rank <= top, or score >=
 * threshold when has_threshold; only lines some failing test ran. */
typedef struct culprit_sarif_options {
    size_t top;
    bool has_threshold;
    double threshold;
} culprit_sarif_options;

CULPRIT_API culprit_status culprit_report_write_sarif(FILE *out, const culprit_report *report,
                                                      const culprit_sarif_options *options,
                                                      culprit_error *err);

#endif
