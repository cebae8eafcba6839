/*
 * count_plan_internal.h - building a counting plan from an assembled
 * layout (src/program/count_plan.c), for assemble.c.
 */
#ifndef CULPRIT_PROGRAM_COUNT_PLAN_INTERNAL_H
#define CULPRIT_PROGRAM_COUNT_PLAN_INTERNAL_H

#include "culprit/program.h"

/* The plan of layout, whose element table has element_count elements. */
culprit_status culprit_count_plan_build(const culprit_program_layout *layout, uint32_t element_count,
                                        culprit_count_plan *plan, culprit_error *err);

#endif
