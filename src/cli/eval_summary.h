/*
 * eval_summary.h - `culprit eval --summary`, split out of src/cli/eval.c.
 *
 * eval.c parses the options of both modes and hands the summary mode here:
 * reading the JSON results that `culprit eval --format json` wrote (the
 * format is in docs/eval.md), summarising them with culprit_eval_summarize,
 * and writing the table, the curve CSV and the SVG plot.
 */
#ifndef CULPRIT_CLI_EVAL_SUMMARY_H
#define CULPRIT_CLI_EVAL_SUMMARY_H

#include <stdbool.h>

#include "cli/cli.h"

/* The version of the results format written and accepted. */
enum { CLI_EVAL_RESULTS_VERSION = 1 };

typedef struct cli_eval_summary_options {
    cli_format format;
    const char *curve_csv_path; /* NULL: no curve CSV */
    const char *svg_path;       /* NULL: no plot */
    bool exam_executed;         /* EXAM over executed lines rather than executable ones */
    int result_count;
    char **result_paths;
} cli_eval_summary_options;

/* Runs the summary; returns the exit status. */
int cli_eval_summary(const cli_eval_summary_options *options);

#endif
