/*
 * judged.h - what the commands that show judgements (tests.c, failures.c,
 * output.c) share: printing a statement of the output mapping, and a
 * test's differences against its expected output (difference_text.c).
 */
#ifndef CULPRIT_CLI_JUDGED_H
#define CULPRIT_CLI_JUDGED_H

#include <stdint.h>
#include <stdio.h>

#include "cli/cli.h"
#include "culprit/judgement.h"

/* "file:line (function)", or "file:first-last (function)" for a block
 * spanning several lines. */
void cli_write_statement(FILE *out, const culprit_output_statement *statement);

/* The statement as a JSON object. */
void cli_write_statement_json(FILE *out, const culprit_output_statement *statement);

/* ---- difference_text.c ---- */

/* length bytes of a test's output as they are, control characters escaped. */
void cli_write_output_text(FILE *out, const char *text, size_t length);

/* The differences as a unified diff with no context, each line after
 * indent: "--- expected", "+++ actual", "@@ -E,N +A,M @@" hunks, notes as
 * "@@ +A @@ MESSAGE" and the line. */
void cli_write_differences(FILE *out, const culprit_differences *differences, const char *indent);

/* For `culprit output`: under actual line `line`, what it should have
 * been (the expected line, "extra", a note); and the missing expected
 * lines that belong before actual lines from .. to. */
void cli_write_expectations(FILE *out, const culprit_differences *differences, uint32_t line);
void cli_write_missing_lines(FILE *out, const culprit_differences *differences, uint32_t from, uint32_t to);

#endif
