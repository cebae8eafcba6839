/*
 * judged.h - what the commands that show judgements (tests.c, failures.c,
 * output.c) share: opening the store on a program, and printing a
 * statement of the output mapping.
 */
#ifndef CULPRIT_CLI_JUDGED_H
#define CULPRIT_CLI_JUDGED_H

#include <stdint.h>
#include <stdio.h>

#include "cli/cli.h"
#include "culprit/judgement.h"

/* Opens the store read-only and finds the program (by hash prefix, or the
 * current one).  Prints the error and returns the exit status on failure;
 * 0 on success, with *store open. */
int cli_open_program(const cli_context *context, const char *store_option, const char *program_prefix,
                     culprit_store **store, int64_t *program_id);

/* "file:line (function)", or "file:first-last (function)" for a block
 * spanning several lines. */
void cli_write_statement(FILE *out, const culprit_output_statement *statement);

/* The statement as a JSON object. */
void cli_write_statement_json(FILE *out, const culprit_output_statement *statement);

#endif
