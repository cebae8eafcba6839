/*
 * ctest_env.h - a CTest test's ENVIRONMENT and ENVIRONMENT_MODIFICATION as
 * the settings `culprit ctest` gives the harness (ctest_env.c).
 */
#ifndef CULPRIT_CLI_CTEST_ENV_H
#define CULPRIT_CLI_CTEST_ENV_H

#include <jansson.h>
#include <stddef.h>

#include "culprit/error.h"

/* Sets *env (count entries, each and the array malloc'd, owned by the
 * caller even on error) to the NAME=VALUE settings that give test (its
 * name, for messages) the environment ctest would: environment and
 * modifications are the properties' JSON lists (NULL: none). */
culprit_status ctest_environment(const char *test, json_t *environment, json_t *modifications, char ***env,
                                 size_t *count, culprit_error *err);

#endif
