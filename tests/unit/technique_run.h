/*
 * technique_run.h - what the technique unit tests (test_techniques.c,
 * test_mbfl.c, test_sat_technique.c) share: running one technique by name
 * over a hand-made input and ranking its lines.
 */
#ifndef CULPRIT_TECHNIQUE_RUN_H
#define CULPRIT_TECHNIQUE_RUN_H

#include "check.h"
#include "culprit/rank.h"
#include "culprit/techniques.h"

/* Runs technique name over input and ranks lines; the caller frees both. */
static inline void technique_run(const char *name, const culprit_technique_input *input,
                                 culprit_technique_output *output, culprit_ranking *ranking)
{
    const culprit_technique *technique = NULL;
    culprit_error err = {0};
    *output = (culprit_technique_output){0};
    *ranking = (culprit_ranking){0};
    CHECK_INT(culprit_technique_find(name, &technique, &err), CULPRIT_OK);
    culprit_rank_options options = {.kind = CULPRIT_KIND_LINE, .view = CULPRIT_VIEW_LINE};
    culprit_status status = culprit_technique_rank(technique, input, &options, output, ranking, &err);
    CHECK_RECORD(status == CULPRIT_OK, "%s: %s", name, err.message);
}

#endif
