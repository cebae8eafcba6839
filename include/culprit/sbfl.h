/*
 * sbfl.h - spectrum-based suspiciousness formulas (TECHNIQUES.md §1).
 *
 * A formula maps one element's (ef, ep, nf, np) to a score; higher means more
 * suspicious.  Division conventions, applied by every formula: 0/0 = 0, and
 * x/0 with x > 0 is CULPRIT_SCORE_INFINITE, above every finite score (x < 0
 * gives minus that).  Formulas are looked up by name; a name may carry a
 * parameter (dstar3 is DStar with k = 3).
 */
#ifndef CULPRIT_SBFL_H
#define CULPRIT_SBFL_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#include "culprit/spectra.h"

#define CULPRIT_SCORE_INFINITE HUGE_VAL

/* The formula of `culprit rank` when none is named, alone or under the
 * default technique (tuples).  Chosen by leave-one-subject-out over the
 * subjects and the seeded faults of two Debian programs (docs/eval.md,
 * "Choosing the default"): DStar (k = 2) in every fold. */
#define CULPRIT_DEFAULT_FORMULA "dstar"

typedef struct culprit_formula {
    const char *name;       /* lower-case lookup name: "tarantula" */
    const char *title;      /* display name: "Tarantula" */
    const char *definition; /* the formula in plain text */
    const char *reference;  /* where it comes from */
    /* Score of one element; parameter is the formula's parameter (DStar's k)
     * or default_parameter when the name carries none. */
    double (*score)(const culprit_tally *tally, double parameter);
    double default_parameter;
    bool takes_parameter; /* name may end in digits: dstar3 */
    bool has_confidence;  /* Tarantula: confidence breaks ties */
} culprit_formula;

/* A formula together with the parameter its name selected. */
typedef struct culprit_formula_choice {
    const culprit_formula *formula;
    double parameter;
} culprit_formula_choice;

CULPRIT_API size_t culprit_formula_count(void);
CULPRIT_API const culprit_formula *culprit_formula_at(size_t index);

/* Looks name up (case-insensitive, '-' and '_' ignored so "russell-rao",
 * "RussellRao" and "russell_rao" match; GZoltar's "RusselRao" is an alias).
 * Returns CULPRIT_ERROR_INPUT with a message that points to `culprit
 * formulas` when nothing matches. */
CULPRIT_API culprit_status culprit_formula_find(const char *name, culprit_formula_choice *choice,
                                                culprit_error *err);

/* Tarantula's confidence max(ef/F, ep/P), used to break ties. */
CULPRIT_API double culprit_tarantula_confidence(const culprit_tally *tally);

/* Scores count tallies; confidence may be NULL, and is left untouched
 * unless the formula has_confidence. */
CULPRIT_API void culprit_formula_score_all(const culprit_formula_choice *choice, const culprit_tally *tallies,
                                           size_t count, double *scores, double *confidence);

#endif
