/*
 * meson_name.h - `culprit test --meson`: the name meson gives the test a
 * wrapper is running (meson_name.c says how it is found).
 */
#ifndef CULPRIT_CLI_MESON_NAME_H
#define CULPRIT_CLI_MESON_NAME_H

#include <stddef.h>

/* The name of the meson test whose command is command (NULL-terminated),
 * as a new string; NULL when there is none, with why (why_size bytes)
 * saying what was missing. */
char *meson_test_name(char *const *command, char *why, size_t why_size);

#endif
