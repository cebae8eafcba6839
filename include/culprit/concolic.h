/*
 * concolic.h - failure-directed concolic test generation (issue 17,
 * TECHNIQUES.md §6, seeds/001 §3-§4; docs/symbolic.md §4 is the user's
 * view).  Five pieces, each usable alone:
 *   - the path constraint of one run, read from a dump's trailer
 *     (culprit/sym_format.h): sources, an expression DAG, constraints;
 *   - similarity between runs: path-constraint similarity (PCS, subset and
 *     subsequence forms) and input similarity (IS);
 *   - solving c1 .. c(i-1) and not ci with Z3, on the variables ci depends
 *     on (the independence optimisation);
 *   - the input model: a run's input (stdin, declared files, argv) and a
 *     solver model applied to it (changed bytes replaced, changed typed
 *     fields re-rendered as text);
 *   - the generational search, independent of processes: it asks a
 *     callback to run each input it makes.
 * Library code: nothing prints, every failure is a culprit_error.
 */
#ifndef CULPRIT_CONCOLIC_H
#define CULPRIT_CONCOLIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "culprit/collect.h"
#include "culprit/error.h"
#include "culprit/sym_format.h"

/* ---- the path constraint of one run ---- */

typedef struct culprit_path_source {
    uint32_t kind;   /* culprit_sym_source_kind */
    uint32_t index;  /* argv position, --input-file order, 0 for stdin */
    uint64_t length; /* bytes the run read */
    uint32_t flags;  /* culprit_sym_source_flag */
    char *name;      /* owned, NUL-terminated (may be empty) */
} culprit_path_source;

typedef struct culprit_path_node {
    uint8_t op, bits; /* culprit_sym_op; the result's width */
    uint16_t flags;
    uint32_t a, b, c;
    uint64_t value;
} culprit_path_node;

typedef struct culprit_path_constraint {
    uint32_t kind;       /* culprit_sym_constraint_kind */
    uint32_t expression; /* a node number */
    uint32_t unit, block;
    uint64_t value;
} culprit_path_constraint;

/* A switch site's case values (the trailer's switch section). */
typedef struct culprit_path_switch {
    uint32_t unit, block;
    size_t case_count; /* 1 .. CULPRIT_SYM_MAX_CASES */
    uint64_t *cases;   /* owned; distinct, ascending */
} culprit_path_switch;

typedef struct culprit_path {
    size_t source_count;
    culprit_path_source *sources;
    size_t node_count;        /* nodes are numbered 1..node_count */
    culprit_path_node *nodes; /* nodes[0] is unused (0 is "concrete") */
    size_t constraint_count;
    culprit_path_constraint *constraints;
    uint64_t statistics[CULPRIT_SYM_STAT_COUNT];
    size_t switch_count;           /* 0 for a version-1 trailer */
    culprit_path_switch *switches; /* sorted by (unit, block) */
} culprit_path;

/* Parses a trailer (from its magic to the end of bytes).  Messages are
 * those of the dump reader: "SOURCE: truncated at byte N: expected ..." and
 * "SOURCE: at byte N: expected ...", N counted from the trailer's start
 * plus base (the trailer's offset in its dump, so N is the dump's byte).
 * Rejects operands that are not earlier nodes, widths that do not suit the
 * op, and sources, nodes or constraints the bytes cannot hold. */
CULPRIT_API culprit_status culprit_path_parse(const unsigned char *bytes, size_t size, size_t base,
                                              const char *source, culprit_path *path, culprit_error *err);
/* Parses the trailer of a dump read by culprit_dump_parse; an input error
 * when the dump has none (the program was not built in symbolic mode, or
 * ran without CULPRIT_SYM). */
CULPRIT_API culprit_status culprit_path_from_dump(const culprit_dump *dump, const char *source,
                                                  culprit_path *path, culprit_error *err);
CULPRIT_API void culprit_path_free(culprit_path *path);
/* The case values of a SWITCH constraint's site; NULL for a branch, or a
 * switch whose cases the trailer does not hold (then it can only be
 * negated as "any other value"). */
CULPRIT_API const culprit_path_switch *culprit_path_switch_of(const culprit_path *path,
                                                              const culprit_path_constraint *constraint);

/* ---- similarity (seeds/001 §4) ---- */

/* One evaluated condition: the branch site (a hash of the unit's hash and
 * the block; culprit_condition_site) and what it evaluated to (a branch's
 * 0 or 1, a switch's value; with its case values known, the case's value
 * or CULPRIT_OUTCOME_DEFAULT). */
typedef struct culprit_condition {
    uint64_t site;
    uint64_t outcome;
} culprit_condition;

/* No outcome matches it: a switch negated to "any other value". */
#define CULPRIT_OUTCOME_OTHER UINT64_MAX
/* A switch whose case values are known took its default: every value
 * outside the cases is this one outcome (a case is its value).  A 64-bit
 * switch with a case UINT64_MAX - 1 would share it; none was seen. */
#define CULPRIT_OUTCOME_DEFAULT (UINT64_MAX - 1)

CULPRIT_API uint64_t culprit_condition_site(const char *unit_hash, uint32_t block);
/* What constraint evaluated to as a condition's outcome: a branch's 0 or
 * 1, a switch's value, or CULPRIT_OUTCOME_DEFAULT for a value outside its
 * site's known cases. */
CULPRIT_API uint64_t culprit_constraint_outcome(const culprit_path *path,
                                                const culprit_path_constraint *constraint);

/* The conditions of path in order, into a malloc'd array of
 * path->constraint_count (NULL when 0).  dump (may be NULL) names the
 * units: a site keys the unit's hash, else its index. */
CULPRIT_API culprit_status culprit_path_conditions(const culprit_path *path, const culprit_dump *dump,
                                                   culprit_condition **conditions, culprit_error *err);

/* Path-constraint similarity in [0, 1].  A condition is keyed by its site
 * and its occurrence at that site (the k-th evaluation of site s); subset:
 * the keys evaluated identically in both / the keys of either; subsequence:
 * the longest run of consecutive positions whose keys and outcomes agree /
 * the keys of either.  Two empty sequences are identical (1). */
CULPRIT_API double culprit_pcs_subset(const culprit_condition *a, size_t a_count, const culprit_condition *b,
                                      size_t b_count);
CULPRIT_API double culprit_pcs_subsequence(const culprit_condition *a, size_t a_count,
                                           const culprit_condition *b, size_t b_count);

/* ---- the input model (docs/symbolic.md §3) ---- */

/* One source's bytes: stdin, a declared file, or an argv string. */
typedef struct culprit_input_part {
    uint32_t kind; /* culprit_sym_source_kind */
    uint32_t index;
    unsigned char *bytes; /* owned */
    size_t length;
} culprit_input_part;

typedef struct culprit_input {
    size_t part_count;
    culprit_input_part *parts; /* stdin, then files by index, then argv by index */
} culprit_input;

/* Adds (or replaces) a part with a copy of bytes. */
CULPRIT_API culprit_status culprit_input_set(culprit_input *input, uint32_t kind, uint32_t index,
                                             const void *bytes, size_t length, culprit_error *err);
CULPRIT_API const culprit_input_part *culprit_input_find(const culprit_input *input, uint32_t kind,
                                                         uint32_t index);
CULPRIT_API culprit_status culprit_input_copy(const culprit_input *from, culprit_input *to,
                                              culprit_error *err);
CULPRIT_API bool culprit_input_equal(const culprit_input *a, const culprit_input *b);
CULPRIT_API uint64_t culprit_input_hash(const culprit_input *input);
CULPRIT_API void culprit_input_free(culprit_input *input);

/* Input similarity in [0, 1]: the share of fields identical at the same
 * position, over the larger field count, summed over the parts.  Fields:
 * the blank-separated tokens of a text part (no NUL, mostly printable), the
 * bytes of a binary one, an argv string whole. */
CULPRIT_API double culprit_input_similarity(const culprit_input *a, const culprit_input *b);

/* A variable's new value in a solver model: a BYTE or FIELD node. */
typedef struct culprit_assignment {
    uint32_t node;
    uint64_t value;
} culprit_assignment;

typedef struct culprit_model {
    size_t count;
    culprit_assignment *assignments; /* owned */
} culprit_model;

CULPRIT_API void culprit_model_free(culprit_model *model);

/* The value a BYTE or FIELD node of path had in input (a byte past a
 * part's end is 0; a field's text parsed in its kind).  False when the node
 * is not a variable or its source is not in input. */
CULPRIT_API bool culprit_input_variable_value(const culprit_input *input, const culprit_path *path,
                                              uint32_t node, uint64_t *value);

/* child = parent with model applied: changed bytes replaced (a part grows
 * when a byte lies past its end), changed fields re-rendered as text in
 * their kind, edits applied from the end so offsets stay valid.  Fails
 * with an input error "cannot re-render ..." when a field's text range
 * leaves its part, overlaps another changed field or a changed byte, or a
 * value cannot be written there (a NUL byte in an argv string). */
CULPRIT_API culprit_status culprit_input_apply(const culprit_input *parent, const culprit_path *path,
                                               const culprit_model *model, culprit_input *child,
                                               culprit_error *err);

/* Renders value as a field of kind (culprit_sym_field_kind) into buffer;
 * original (may be NULL) is the text it replaces, whose 0x / 0 prefix is
 * kept.  Returns the length, or 0 when it does not fit. */
CULPRIT_API size_t culprit_field_render(uint64_t value, uint32_t kind, const char *original,
                                        size_t original_length, char *buffer, size_t size);

/* ---- solving ---- */

typedef enum culprit_solve_result {
    CULPRIT_SOLVE_SAT,
    CULPRIT_SOLVE_UNSAT,
    CULPRIT_SOLVE_UNKNOWN /* the per-query timeout, or Z3 gave up */
} culprit_solve_result;

typedef struct culprit_solver_stats {
    size_t queries, sat, unsat, unknown;
    size_t constraints_kept, constraints_dropped; /* by the independence optimisation */
} culprit_solver_stats;

typedef struct culprit_solver culprit_solver;

/* timeout_ms: per query (0: none). */
CULPRIT_API culprit_status culprit_solver_create(unsigned timeout_ms, culprit_solver **solver,
                                                 culprit_error *err);
CULPRIT_API void culprit_solver_free(culprit_solver *solver);
CULPRIT_API culprit_solver_stats culprit_solver_statistics(const culprit_solver *solver);

/* Solves c1 .. c(flip-1) and not c(flip) of path (flip: 0-based), keeping
 * of the prefix only the constraints that share variables, transitively,
 * with c(flip).  On SAT, model holds the values of those variables (the
 * others keep the parent's values).  keep (may be NULL): the input path
 * was recorded on; the solver then prefers models that leave its values
 * alone (assumed, dropping those unsat cores name, a few rounds), so a new
 * input differs from its parent where the flip needs it, not everywhere a
 * constraint chain lets it. */
CULPRIT_API culprit_status culprit_solve_flip(culprit_solver *solver, const culprit_path *path, size_t flip,
                                              const culprit_input *keep, culprit_solve_result *result,
                                              culprit_model *model, culprit_error *err);

/* What a candidate asks of the constraint it changes. */
typedef enum culprit_flip_kind {
    CULPRIT_FLIP_NEGATE, /* not ci: a branch's other way, a switch's "any other value" */
    CULPRIT_FLIP_CASE,   /* a switch's expression equals value (one of its cases) */
    CULPRIT_FLIP_DEFAULT /* a switch's expression equals none of its site's case values */
} culprit_flip_kind;

typedef struct culprit_flip {
    size_t constraint; /* 0-based */
    culprit_flip_kind kind;
    uint64_t value; /* CULPRIT_FLIP_CASE */
} culprit_flip;

/* culprit_solve_flip with c(flip) replaced by what flip asks: the same
 * prefix, independence and keeping.  CASE and DEFAULT need a SWITCH
 * constraint, DEFAULT one whose cases the path holds (an internal error
 * otherwise). */
CULPRIT_API culprit_status culprit_solve(culprit_solver *solver, const culprit_path *path,
                                         const culprit_flip *flip, const culprit_input *keep,
                                         culprit_solve_result *result, culprit_model *model,
                                         culprit_error *err);

/* ---- the search (seeds/001 Figure 2) ---- */

typedef enum culprit_gen_strategy {
    CULPRIT_GEN_BASE,     /* from the empty input, FIFO, uncovered branches first */
    CULPRIT_GEN_COVERAGE, /* the same from the failing input */
    CULPRIT_GEN_PCS,      /* the candidate most similar to a failing run, PCS subset */
    CULPRIT_GEN_PCS_SEQ,  /* the same, PCS subsequence */
    CULPRIT_GEN_IS,       /* the input most similar to a failing run's */
    CULPRIT_GEN_BISECT,   /* PCS subset, searching each failing run's flips for the boundary between the
                             flips whose runs still fail and those that pass (docs/symbolic.md) */
    CULPRIT_GEN_DELTA,    /* the failing input with one line (or chunk) left out, each, first; then bisect */
    CULPRIT_GEN_MIX,      /* turns: delta from the failing input, and base from the empty one */
    CULPRIT_GEN_SAT_TAR,  /* the candidate whose predicted path passes the most suspect sites (the
                             failing runs' unsat cores: culprit_gen_run.suspects), PCS subset to break
                             ties (seeds/003 §3, TECHNIQUES.md §7 step 2) */
    CULPRIT_GEN_STRATEGY_COUNT
} culprit_gen_strategy;

CULPRIT_API const char *culprit_gen_strategy_name(culprit_gen_strategy strategy);
CULPRIT_API bool culprit_gen_strategy_parse(const char *name, culprit_gen_strategy *strategy);

/* What running one input gave: the callback fills it. */
typedef struct culprit_gen_run {
    bool failing;
    culprit_path path;             /* owned by the search once returned */
    culprit_condition *conditions; /* path.constraint_count, owned likewise */
    bool stop;                     /* the callback asks the search to stop (the ranking is stable) */
    /* May stay NULL: the condition sites (culprit_condition_site) a failing
     * run's unsat core names as suspects - its branches, and the branches
     * that decide its stores - for CULPRIT_GEN_SAT_TAR; owned by the search
     * once returned. */
    uint64_t *suspects;
    size_t suspect_count;
    /* sat-tar: the suspects' ratings have stopped changing (the runner's
     * ranking); the search then prefers candidates that pass suspects no
     * run has passed yet (TECHNIQUES.md §7 step 5), until a run changes
     * them again. */
    bool stale;
} culprit_gen_run;

/* Runs input (test number `number`, 0 for the seed) and fills run.  An
 * error stops the search and is returned by culprit_gen_search. */
typedef culprit_status (*culprit_gen_runner)(void *context, size_t number, const culprit_input *input,
                                             culprit_gen_run *run, culprit_error *err);

typedef struct culprit_gen_options {
    culprit_gen_strategy strategy;
    size_t budget_tests;   /* generated tests (the seed not counted); 0: no limit */
    double budget_seconds; /* 0: no limit */
    unsigned solver_timeout_ms;
    /* The bytes appended to a source the run read past its end, to make a
     * "grow" candidate (NULL: "1\n"). */
    const char *grow_text;
    /* May be NULL.  Asked before each candidate is picked: true stops the
     * search (a signal), which otherwise would only be noticed at the next
     * run - minutes away when every query is unsat or times out. */
    bool (*should_stop)(void *context);
} culprit_gen_options;

typedef struct culprit_gen_stats {
    size_t tests, failing;
    size_t candidates, duplicate_paths, duplicate_inputs;
    size_t render_failures;
    char first_render_failure[CULPRIT_ERROR_MESSAGE_SIZE];
    culprit_solver_stats solver;
    bool exhausted; /* no candidate left */
    bool stopped;   /* the runner asked to stop */
} culprit_gen_stats;

/* Runs the seed (the failing input, which must fail; culprit_gen_search
 * says so otherwise), then, per the strategy, generated inputs until the
 * budget, the runner's stop or no candidate left.  base explores from the
 * input with every stdin and file part empty (argv kept). */
CULPRIT_API culprit_status culprit_gen_search(const culprit_gen_options *options, const culprit_input *seed,
                                              culprit_gen_runner runner, void *context,
                                              culprit_gen_stats *stats, culprit_error *err);

/* ---- the trace formula and its unsat cores (SAT-TAR, TECHNIQUES.md §7) ----
 * From a failing run recorded in trace mode (CULPRIT_SYM_TRACE=1,
 * docs/symbolic.md §6): one tagged constraint per statement - each store's
 * value (a TAG node: the stored variable equals what was computed) and
 * each branch outcome - the input bound to the run's values, and for each
 * violated check (a SPEC constraint) "the check's path implies its
 * condition" asserted.  That is unsatisfiable (the run violated it); a
 * minimal unsat core is a set of statements that together force the
 * violation: relax any one and the check can hold.  Statements are grouped
 * by site (all instances of one store or branch share one selector), so a
 * core names lines.  The formula is sliced first: only statements that
 * share a variable, transitively, with the check go in. */

typedef enum culprit_core_kind { CULPRIT_CORE_STORE = 0, CULPRIT_CORE_BRANCH = 1 } culprit_core_kind;

typedef struct culprit_core_statement {
    culprit_core_kind kind;
    uint32_t unit;    /* the unit's index in the run's dump */
    uint32_t block;   /* the block counter of the store's or branch's block */
    uint32_t line;    /* a store's debug line (0: unknown; always 0 for a branch) */
    size_t instances; /* of it in the sliced formula */
} culprit_core_statement;

typedef struct culprit_core_options {
    unsigned timeout_ms;  /* the whole minimization (0: none) */
    size_t max_instances; /* statement instances of the sliced formula (0: 200,000) */
    /* May be NULL: whether a store's block depends on a branch's block,
     * both of the unit (the dump's index; culprit_control_depends).  Then
     * relaxing the branch frees the stores it decides: a wrong branch or
     * loop condition, which changes which stores run, can be in a core. */
    bool (*controls)(void *context, uint32_t unit, uint32_t store_block, uint32_t branch_block);
    void *controls_context;
} culprit_core_options;

typedef struct culprit_core {
    size_t count;
    culprit_core_statement *statements; /* owned: the core, by site */
    size_t specs; /* violated checks, with the checks that follow each directly (a core each, merged) */
    size_t formula_statements, formula_instances; /* selectors and instances after slicing */
    size_t trace_instances;                       /* before slicing */
    bool minimal; /* false: the time limit stopped the minimization (still a core) */
} culprit_core;

/* The core of path's violated checks; input: the run's input (it binds
 * the variables).  Input errors, each a sentence for the user: no
 * violated check recorded (the run violated nothing, or was not recorded
 * in trace mode), the sliced formula over max_instances, the formula
 * satisfiable (the trace is incomplete: what concretized is counted in the
 * path's statistics), and the solver's timeout before any core. */
CULPRIT_API culprit_status culprit_trace_core(const culprit_path *path, const culprit_input *input,
                                              const culprit_core_options *options, culprit_core *core,
                                              culprit_error *err);
CULPRIT_API void culprit_core_free(culprit_core *core);

/* A violated assert(), which calls no culprit code and so records no SPEC
 * constraint: appends one to path whose window is the constraints from
 * window_start on (the branch that decided the assertion, which the
 * caller finds), its condition concrete (the window's path must change),
 * the whole run its operation. */
CULPRIT_API culprit_status culprit_path_add_violation(culprit_path *path, size_t window_start,
                                                      culprit_error *err);

#endif
