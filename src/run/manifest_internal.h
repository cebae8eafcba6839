/*
 * manifest_internal.h - what manifest.c (common parts, the plain form),
 * manifest_json.c (the JSON form), manifest_request.c (its "request" key)
 * and manifest_ctest.c (its "ctest" key) share.
 */
#ifndef CULPRIT_RUN_MANIFEST_INTERNAL_H
#define CULPRIT_RUN_MANIFEST_INTERNAL_H

#include <stdbool.h>

#include "culprit/manifest.h"
#include "run/mjson.h"

/* Appends spec (taking ownership of its strings, even on failure); a name
 * already in the manifest is an error at spec's line and column. */
culprit_status manifest_add_test(culprit_manifest *manifest, culprit_test_spec *spec, culprit_error *err);
void manifest_spec_free(culprit_test_spec *spec);

/* path if absolute, else directory/path; NULL when out of memory. */
char *manifest_resolve(const char *directory, const char *path);
bool manifest_is_file(const char *path);
bool manifest_is_directory(const char *path);

/* A positive number of seconds (at most 1e7); false when text is not one. */
bool manifest_parse_seconds(const char *text, double *seconds);

/* A JSON test's "request" object (an HTTP request to a PHP page): sets
 * spec->argv to the culprit-php-cgi command that runs it; errors at the
 * offending key or value, a missing script among them. */
culprit_status manifest_take_request(const culprit_manifest *manifest, const mjson_value *request,
                                     culprit_test_spec *spec, culprit_error *err);

/* A JSON test's "requests" array (a chain of such requests, one visitor's):
 * spec->argv runs them in order, joined by --then. */
culprit_status manifest_take_requests(const culprit_manifest *manifest, const mjson_value *requests,
                                      culprit_test_spec *spec, culprit_error *err);

/* A JSON test's "ctest" object (CTest's rules, as culprit ctest saves
 * them): spec->owned_ctest, and spec->ctest points to it; a pattern that
 * does not compile is an error at its string. */
culprit_status manifest_take_ctest(const culprit_manifest *manifest, const mjson_value *value,
                                   culprit_test_spec *spec, culprit_error *err);

culprit_status manifest_parse_json(const char *text, size_t size, const culprit_manifest_options *defaults,
                                   culprit_manifest *manifest, culprit_error *err);

#endif
