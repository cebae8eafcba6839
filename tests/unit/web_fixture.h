/*
 * web_fixture.h - what culprit web's unit tests (test_web_inputs.c,
 * test_web_strategy.c) share: a request made from a script, a query and
 * a form-encoded body.  Include after check.h.
 */
#ifndef CULPRIT_WEB_FIXTURE_H
#define CULPRIT_WEB_FIXTURE_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "culprit/web.h"

static __attribute__((unused)) culprit_web_request request_of(const char *script, const char *query,
                                                              bool is_post, const char *body)
{
    culprit_web_request request = {.script = strdup(script), .is_post = is_post};
    culprit_error err;
    culprit_web_fields_parse(query, &request.get, &err);
    culprit_web_fields_parse(body, &request.post, &err);
    return request;
}

#endif
