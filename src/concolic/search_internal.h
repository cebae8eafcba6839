/*
 * search_internal.h - the state of one generational search (search.c), its
 * bookkeeping (search_state.c), its delta candidates (search_delta.c) and
 * the split that orders pcs, pcs-seq and is (search_split.c): the runs so
 * far, the candidate queue, and hash sets of what was covered, predicted
 * and run.
 */
#ifndef CULPRIT_CONCOLIC_SEARCH_INTERNAL_H
#define CULPRIT_CONCOLIC_SEARCH_INTERNAL_H

#include "core/fnv.h"
#include "culprit/concolic.h"

/* A set of 64-bit hashes (open addressing; 0 is stored aside). */
typedef struct gen_set {
    uint64_t *slots;
    size_t capacity, count;
    bool has_zero;
} gen_set;

bool gen_set_has(const gen_set *set, uint64_t key);
/* Adds key; silently keeps the set as it was when memory runs out (a
 * duplicate then costs a run, not correctness). */
void gen_set_add(gen_set *set, uint64_t key);
void gen_set_free(gen_set *set);

#define GEN_HASH_START CULPRIT_FNV1A_START /* core/fnv.h */
uint64_t gen_hash_condition(uint64_t hash, const culprit_condition *condition);
/* The key of "site took outcome", for the coverage set. */
uint64_t gen_outcome_key(const culprit_condition *condition);
/* The pseudo-site of "grew source" in a grow candidate's predicted path. */
uint64_t gen_grow_site(const culprit_path_source *source);

typedef struct gen_run {
    culprit_input input;
    culprit_gen_run run;
    size_t bound; /* candidates negate constraints from here on */
    /* bisect: the flips of this run not yet known to fail or pass, as
     * [window_start, window_end): a flip's child that failed moves the end
     * down to it, one that passed moves the start past it. */
    size_t window_start, window_end;
    bool from_start; /* mix: descends from the emptied seed (base's side), not the failing one */
} gen_run;

typedef struct gen_candidate {
    size_t run;                  /* the parent */
    size_t flip;                 /* the constraint negated */
    culprit_flip_kind flip_kind; /* how (a switch: one case, or the default) */
    uint64_t flip_value;         /* the case, for CULPRIT_FLIP_CASE */
    bool grow;                   /* a grow candidate instead (grow_source: the path's source) */
    bool delta;                  /* a delta candidate: its parent's input with a piece left out (solved) */
    size_t grow_source;
    culprit_condition *predicted; /* owned */
    size_t predicted_count;
    double score;  /* the best similarity to a failing run */
    double split;  /* pcs, pcs-seq, is: how evenly it splits the tied outcomes (search_split.c) */
    size_t scored; /* pcs, pcs-seq, is: score has seen runs[0 .. scored) (scored lazily) */
    size_t order;  /* creation order (FIFO) */
    bool solved;   /* input holds the candidate's input */
    culprit_input input;
} gen_candidate;

typedef struct gen_search {
    culprit_gen_options options;
    culprit_gen_runner runner;
    void *context;
    culprit_gen_stats *stats;
    culprit_solver *solver;
    double started;
    gen_run *runs;
    size_t run_count, run_capacity;
    gen_candidate *candidates;
    size_t candidate_count, candidate_capacity, next_order;
    size_t picks;     /* candidates picked so far (mix takes turns) */
    size_t fruitless; /* picks in a row that made no input (unsat, unknown, not renderable) */
    gen_set covered;  /* (site, outcome) of every run */
    gen_set paths;    /* every prefix run, every path predicted */
    gen_set inputs;   /* every input run */
    gen_set suspects; /* sat-tar: the condition sites the failing runs' cores name */
    bool diversify;   /* sat-tar: the last run's ratings were stale */
} gen_search;

culprit_status gen_runs_reserve(gen_search *search, culprit_error *err);
/* Moves candidate into the queue (freed on failure). */
culprit_status gen_queue_push(gen_search *search, gen_candidate *candidate, culprit_error *err);
void gen_candidate_free(gen_candidate *candidate);
void gen_search_free(gen_search *search);

/* Solves the candidate's query and applies the model to its parent's
 * input into candidate->input (solved, *usable); unsat, unknown and inputs
 * that cannot be re-rendered are counted and leave *usable false. */
culprit_status gen_solve_candidate(gen_search *search, gen_candidate *candidate, bool *usable,
                                   culprit_error *err);
/* The parent's input with the grow text appended to the grown source. */
culprit_status gen_grow_input(gen_search *search, gen_candidate *candidate, culprit_error *err);

/* search_delta.c: the delta candidates of a failing run (strategy delta):
 * its input with one line of a text part left out, each. */
culprit_status gen_delta_candidates(gen_search *search, size_t run_index, culprit_error *err);
/* search_split.c: every candidate's split of the failing runs' most
 * suspicious branch outcomes, from every run so far (before a pick). */
culprit_status gen_split_update(gen_search *search, culprit_error *err);

/* Queues a candidate (search.c). */
culprit_status gen_add_candidate(gen_search *search, gen_candidate *candidate, culprit_error *err);

#endif
