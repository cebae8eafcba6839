/*
 * judged.h - what the commands that show judgements (tests.c, failures.c,
 * output.c) share: printing a statement of the output mapping.
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

#endif
