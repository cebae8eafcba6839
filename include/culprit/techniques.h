/*
 * techniques.h - fault-localization techniques beyond a single formula
 * (TECHNIQUES.md §2, §4, §5 and the classic baselines), each selectable
 * with `culprit rank --technique NAME` and listed by `culprit techniques`.
 *
 * A technique reads the loaded spectra, their tallies and, when it needs
 * them, the program's structure (culprit_program_graph: blocks, edges,
 * functions, branch decisions, call sites) and writes one score per
 * element.  Every technique scores the *line* elements, so any two
 * techniques (and the formulas) can be compared on the same line ranking;
 * most also score their own elements (BlockRank its blocks, CBI its branch
 * and return elements) for the element view.  Ranking then goes through
 * culprit_rank like the formulas, with the technique's tie-breaking, and
 * culprit_rank_method (below) is the one call that tallies, scores with a
 * formula or a technique and ranks, deciding the default method.
 *
 * One file per technique under src/techniques/; the table is in
 * src/techniques/technique.c.  docs/techniques.md describes every decision
 * the papers left open.
 */
#ifndef CULPRIT_TECHNIQUES_H
#define CULPRIT_TECHNIQUES_H

#include <stdbool.h>
#include <stddef.h>

#include "culprit/judgement.h"
#include "culprit/program.h"
#include "culprit/rank.h"
#include "culprit/sbfl.h"
#include "culprit/spectra.h"

/* What a technique needs beyond hits and verdicts (bits of `needs`). */
enum {
    CULPRIT_NEEDS_COUNTS = 1u << 0,     /* per-test execution counts of blocks, edges, branches */
    CULPRIT_NEEDS_GRAPH = 1u << 1,      /* the CFG from the program's maps (culprit-cc programs) */
    CULPRIT_NEEDS_PREDICATES = 1u << 2, /* branch or return elements grouped into sites */
    CULPRIT_NEEDS_OUTPUT_MAP = 1u << 3, /* the lines that wrote wrong output lines (input->mapping) */
    CULPRIT_NEEDS_MUTANTS = 1u << 4,    /* a kill matrix from culprit mutate (input->mutation) */
    CULPRIT_NEEDS_CORES = 1u << 5,      /* unsat cores from culprit gen --core (input->cores) */
};

/* The output mapping (TECHNIQUES.md §3; Apollo, seeds/000 §4.2-4.5): the
 * lines that wrote a wrong output line of the failures being localized
 * (the union of P_n(o) over o in O_n(f)), computed by
 * culprit_output_mapping_choose, and S_comb's constants. */
typedef struct culprit_output_mapping {
    const bool *blamed; /* element_count entries: S_map(e) = 1 (only line elements are ever set) */
    double threshold;   /* scomb lifts a blamed line whose base score is > threshold ... */
    double bonus;       /* ... to bonus (Apollo: 0.5 and 1.1) */
} culprit_output_mapping;

typedef struct culprit_technique_input {
    const culprit_spectra *spectra;
    const culprit_tally *tallies; /* element_count entries, under policy (culprit_rank_method: NULL to
                                     have them counted there, totals with them) */
    culprit_totals totals;
    culprit_verdict_policy policy;
    const culprit_program_graph *graph;      /* NULL, or block_count 0, when the program has no maps */
    culprit_formula_choice formula;          /* for techniques built on a formula (tuples, scomb) */
    culprit_output_mapping mapping;          /* for CULPRIT_NEEDS_OUTPUT_MAP; blamed NULL: not computed */
    const struct culprit_mutation *mutation; /* for CULPRIT_NEEDS_MUTANTS (culprit/mutation.h); NULL:
                                                not loaded */
    const struct culprit_cores *cores;       /* for CULPRIT_NEEDS_CORES (culprit/cores.h); NULL: not
                                                loaded */
} culprit_technique_input;

/* What the tests did on one mutant of input->mutation, counted under
 * input->policy (src/techniques/mbfl.c; docs/mutation.md §4): the failing
 * and passing tests run on it, those it killed (verdict or output
 * changed: Metallaxis), and those it turned from failing to passing and
 * back (MUSE).  With line_tests_only, only the tests that ran the
 * mutant's line count (MUSE's f_P(s), p_P(s)). */
typedef struct culprit_mutant_counts {
    uint32_t failing_run, passing_run;
    uint32_t killed_failing, killed_passing;
    uint32_t fail_to_pass, pass_to_fail;
} culprit_mutant_counts;

CULPRIT_API culprit_mutant_counts culprit_mutant_counts_of(const culprit_technique_input *input,
                                                           size_t mutant, bool line_tests_only);

/* What a technique writes.  The caller allocates every array with
 * element_count entries and initialises them: scores to -HUGE_VAL (an
 * element the technique does not score ranks last), confidence and detail
 * to NAN, tallies to a copy of the input tallies, deciders to the element
 * itself. */
typedef struct culprit_technique_output {
    double *scores;
    double *confidence;     /* a tie-breaker (tuples with Tarantula); NAN when none */
    double *detail;         /* one extra number per element (BlockRank's T(b)); NAN when none */
    culprit_tally *tallies; /* what the ranking orders by (tuples: the best tuple's); entries
                               report the input tallies */
    uint32_t *deciders;     /* the element each score was taken from: a line's best tuple (tuples),
                               its best block (BlockRank, CP), a member of its best predicate (CBI,
                               SOBER); the element itself when the score is its own */
} culprit_technique_output;

typedef struct culprit_technique {
    const char *name;         /* lower-case lookup name: "blockrank" */
    const char *title;        /* display name */
    const char *summary;      /* one line: what it ranks and how */
    const char *reference;    /* the paper */
    unsigned needs;           /* CULPRIT_NEEDS_* bits */
    bool uses_formula;        /* --formula picks its base formula */
    bool failing_first;       /* entities no failing test ran rank last (TECHNIQUES.md §1) */
    bool lines_take_scores;   /* a line may score as another element (its best tuple, block or
                                 predicate: output->deciders), which rankings then name */
    const char *detail_name;  /* what output->detail holds ("transition_rate"), or NULL */
    const char *base_formula; /* the formula when none is chosen (scomb: "tarantula"); NULL: ochiai */
    bool uses_threshold;      /* reads input->mapping's threshold and bonus (scomb) */
    culprit_status (*score)(const culprit_technique_input *input, culprit_technique_output *output,
                            culprit_error *err);
} culprit_technique;

CULPRIT_API size_t culprit_technique_count(void);
CULPRIT_API const culprit_technique *culprit_technique_at(size_t index);

/* Looks name up ignoring case, '-' and '_'.  Fails with CULPRIT_ERROR_INPUT
 * and a pointer to `culprit techniques` when nothing matches. */
CULPRIT_API culprit_status culprit_technique_find(const char *name, const culprit_technique **technique,
                                                  culprit_error *err);

/* Fails with CULPRIT_ERROR_INPUT and one line saying what is missing when
 * input lacks the data technique needs (no edges in an imported matrix...). */
CULPRIT_API culprit_status culprit_technique_check(const culprit_technique *technique,
                                                   const culprit_technique_input *input, culprit_error *err);

/* Allocates and initialises output for spectra (see culprit_technique_output). */
CULPRIT_API culprit_status culprit_technique_output_init(culprit_technique_output *output,
                                                         const culprit_spectra *spectra,
                                                         const culprit_tally *tallies, culprit_error *err);
CULPRIT_API void culprit_technique_output_free(culprit_technique_output *output);

/* Checks, scores and ranks: the whole of `culprit rank --technique`.
 * output receives the scores (the caller frees it and ranking).  Entries
 * report their own input tallies (a line in the line view: the line
 * element's, or the tests that ran one of its blocks when the program has
 * no line element there), and their decider with its input tallies. */
CULPRIT_API culprit_status culprit_technique_rank(const culprit_technique *technique,
                                                  const culprit_technique_input *input,
                                                  const culprit_rank_options *options,
                                                  culprit_technique_output *output, culprit_ranking *ranking,
                                                  culprit_error *err);

/* ---- Output mapping: S_map and S_comb (TECHNIQUES.md §3; Apollo, seeds/000 §4.2-4.5) ----
 *
 * smap and scomb are table entries like the others; they read the blamed
 * lines from input->mapping (culprit_technique_check fails with
 * CULPRIT_ERROR_INPUT when it has none).  Choosing the failures and
 * computing the blamed lines is culprit_output_mapping_choose's.  Code in
 * src/techniques/output_mapping.c, decisions in docs/techniques.md. */

/* Apollo's constants, blamed NULL. */
CULPRIT_API culprit_output_mapping culprit_output_mapping_default(void);

/* Whether technique reads the output mapping (CULPRIT_NEEDS_OUTPUT_MAP):
 * its caller chooses the failures and computes the blamed lines first. */
CULPRIT_API bool culprit_technique_uses_output_map(const culprit_technique *technique);

/* What takes part in a localization (Apollo §4.4). */
typedef struct culprit_failure_choice {
    size_t cluster;  /* 1-based, as `culprit failures` numbers them; 0: every failure pooled */
    bool need_blame; /* fail when the chosen failures blame no line (smap, scomb) */
} culprit_failure_choice;

/* Leaves the failing tests outside the chosen cluster out of spectra (their
 * verdict becomes skip) and, when blamed is not NULL (element_count
 * entries, cleared here), marks the lines that wrote the chosen failures'
 * wrong output lines; *blamed_count receives how many.  Fails with
 * CULPRIT_ERROR_INPUT and one line for a cluster that does not exist, and,
 * with need_blame, when the chosen failures have no wrong output lines, no
 * output records, or blame no line of spectra. */
CULPRIT_API culprit_status culprit_output_mapping_choose(culprit_spectra *spectra,
                                                         const culprit_verdict_policy *policy,
                                                         const culprit_failure_clusters *clusters,
                                                         const culprit_failure_choice *choice, bool *blamed,
                                                         size_t *blamed_count, culprit_error *err);

/* Why cluster (0: the failures pooled) blames no line: no test failed,
 * no wrong output lines, no output records, or statements outside the
 * spectra.  Always fails, with CULPRIT_ERROR_INPUT and that reason. */
CULPRIT_API culprit_status culprit_output_mapping_explain(const culprit_failure_clusters *clusters,
                                                          size_t cluster, culprit_error *err);

/* Keeps a random fraction (0 < fraction <= 1) of the passing tests and
 * leaves the others out (skip): round(fraction * P), at least one, chosen
 * by a generator seeded with seed, so the same seed on the same store picks
 * the same tests.  *kept receives how many passing tests remain. */
CULPRIT_API culprit_status culprit_sample_passing(culprit_spectra *spectra,
                                                  const culprit_verdict_policy *policy, double fraction,
                                                  uint64_t seed, size_t *kept, culprit_error *err);

/* ---- Ranking with a method: the one call of `culprit rank`, `eval` and `report` ----
 *
 * A method is a formula alone or a technique (on a base formula when it
 * uses one).  culprit_rank_method tallies, scores and ranks with it; with
 * no method it picks `culprit rank`'s default: enriched entities (tuples)
 * over the formula when the program has tuples, else the formula over
 * lines.  Code in src/techniques/rank_method.c. */

typedef struct culprit_method {
    const culprit_technique *technique; /* NULL: the formula alone */
    culprit_formula_choice formula;     /* the formula, or the technique's base (NULL: input->formula) */
} culprit_method;

/* Whether spectra has enriched entities: <line, branch outcome> or <line,
 * return class> elements (branch or return elements on a source line). */
CULPRIT_API bool culprit_spectra_has_tuples(const culprit_spectra *spectra);

/* Fails, saying why, when the tests that take part (totals) have verdicts
 * and not one hit between them: nothing can be ranked, and a technique
 * would explain it wrongly ("no CFG").  It happens when the tests did not
 * run the instrumented build, or its dumps went astray.  culprit_rank_method
 * checks it; callers that tally themselves (eval) call it first. */
CULPRIT_API culprit_status culprit_check_coverage(const culprit_spectra *spectra,
                                                  const culprit_tally *tallies, culprit_totals totals,
                                                  culprit_error *err);

/* The default method over formula: Metallaxis when mutation (may be NULL)
 * has mutant runs (chosen by leave-one-subject-out, docs/mutation.md §5);
 * else tuples when spectra has tuples; when it has none, the formula alone,
 * which is what tuples would compute there, named for what it is. */
CULPRIT_API culprit_method culprit_method_default(const culprit_spectra *spectra,
                                                  const struct culprit_mutation *mutation,
                                                  culprit_formula_choice formula);

/* Finds the technique named (NULL: a formula alone) and the formula
 * (NULL: the technique's base_formula, else ochiai).  Fails with
 * CULPRIT_ERROR_INPUT and the finder's message for an unknown name. */
CULPRIT_API culprit_status culprit_method_find(const char *technique_name, const char *formula_name,
                                               culprit_method *method, culprit_error *err);

/* Parses "TECHNIQUE" or "TECHNIQUE:FORMULA" ("tuples:dstar"), as
 * culprit_method_find; a base formula for a technique that uses none fails. */
CULPRIT_API culprit_status culprit_method_parse(const char *text, culprit_method *method, culprit_error *err);

/* The formula's name, with its parameter when it is not the default: "dstar3". */
CULPRIT_API void culprit_formula_label(const culprit_formula_choice *choice, char *buffer, size_t size);

/* How results name the method: "ochiai", "tuples:ochiai", "blockrank". */
CULPRIT_API void culprit_method_name(const culprit_method *method, char *buffer, size_t size);

/* What culprit_rank_method returns; culprit_method_ranking_free releases it. */
typedef struct culprit_method_ranking {
    culprit_method method;           /* what ranked (the default resolved) */
    char name[96];                   /* culprit_method_name of it */
    culprit_totals totals;           /* of the tests the tallies count */
    culprit_ranking ranking;         /* in rank order */
    culprit_technique_output output; /* every element's score, confidence and detail
                                        (method.technique->detail_name) */
} culprit_method_ranking;

/* Ranks input->spectra with method (NULL: culprit_method_default over
 * input->formula, CULPRIT_DEFAULT_FORMULA when that is NULL): tallies under input->policy
 * unless input->tallies are given, scores and ranks with options.  A
 * technique's data is checked first (culprit_technique_check). */
CULPRIT_API culprit_status culprit_rank_method(const culprit_method *method,
                                               const culprit_technique_input *input,
                                               const culprit_rank_options *options,
                                               culprit_method_ranking *result, culprit_error *err);
CULPRIT_API void culprit_method_ranking_free(culprit_method_ranking *result);

#endif
