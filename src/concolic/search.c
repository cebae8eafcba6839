/*
 * search.c - the generational concolic search of seeds/001 Figure 2,
 * directed by a selection strategy (TECHNIQUES.md §6).
 *
 * Every run of an input yields candidates: for each constraint i past the
 * run's bound, "its first i-1 constraints, then ci negated".  A child made
 * by negating constraint i gets bound i+1, as in SAGE's generational
 * search, so it never re-negates what its parent already explored.  A
 * switch whose case values the trailer holds yields one candidate per
 * case not taken and one for its default (capped: switch_candidates),
 * each predicting its own outcome, as a chain of compares would.  A
 * source the run read past its end also yields a "grow" candidate (the
 * input with more bytes there): that is how base, starting from the empty
 * input, reaches code behind the first read.
 *
 * A candidate is scored on its predicted path - the parent's conditions up
 * to i, then the negated one - against every failing run (the maximum), so
 * PCS orders candidates before solving any of them; the solver runs only
 * on the candidate picked, and a candidate that turns out unsat, unknown
 * or not renderable is dropped for the next.  IS needs the input itself,
 * so under IS candidates are solved as they are made.  Before each pick,
 * pcs, pcs-seq and is first rank candidates by how many pairs of tied
 * suspicious branch outcomes their predicted paths tell apart
 * (search_split.c): the similarity of seeds/001 decides among equal
 * splits - on its own it picks the late flips of the failing path, whose
 * runs fail again and split nothing.
 *
 * The search knows nothing of processes: a callback runs each input.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "concolic/search_internal.h"

static const char DEFAULT_GROW_TEXT[] = "1\n";

/* Candidates made of one switch constraint at most (default included). */
enum { GEN_SWITCH_CANDIDATES = 16 };

static const char *const strategy_names[CULPRIT_GEN_STRATEGY_COUNT] = {
    "base", "coverage", "pcs", "pcs-seq", "is", "bisect", "delta", "mix", "sat-tar"};

const char *culprit_gen_strategy_name(culprit_gen_strategy strategy)
{
    return strategy < CULPRIT_GEN_STRATEGY_COUNT ? strategy_names[strategy] : "?";
}

bool culprit_gen_strategy_parse(const char *name, culprit_gen_strategy *strategy)
{
    for (size_t i = 0; i < CULPRIT_GEN_STRATEGY_COUNT; i++)
        if (strcmp(name, strategy_names[i]) == 0) {
            *strategy = (culprit_gen_strategy)i;
            return true;
        }
    return false;
}

static double now_seconds(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

/* ---- scoring ---- */

/* The strategies of seeds/001 that aim at splitting the tied outcomes
 * first (search_split.c), their similarity deciding among equal splits. */
static bool splits(culprit_gen_strategy strategy)
{
    return strategy == CULPRIT_GEN_PCS || strategy == CULPRIT_GEN_PCS_SEQ || strategy == CULPRIT_GEN_IS;
}

static bool uses_paths(culprit_gen_strategy strategy)
{
    return strategy == CULPRIT_GEN_PCS || strategy == CULPRIT_GEN_PCS_SEQ || strategy == CULPRIT_GEN_BISECT ||
           strategy == CULPRIT_GEN_DELTA || strategy == CULPRIT_GEN_MIX || strategy == CULPRIT_GEN_SAT_TAR;
}

/* sat-tar: the suspect sites the candidate's predicted path passes, each
 * once (SAT-TAR picks the test that covers the most suspects).  While the
 * ratings are stale (TECHNIQUES.md §7 step 5: switch to tests that differ
 * in which suspects they cover), 1 when the candidate's flip is at a
 * suspect site - it takes a suspect the other way than its parent did, so
 * the run covers the suspects differently - and 0 otherwise.  Counting the
 * suspects no run has passed yet, as this did first, scored every
 * candidate 0 once the seed had passed them all (it names them), and the
 * switch then fell back to the most similar candidate, which mostly
 * failed the same way. */
static double suspect_hits(const gen_search *search, const gen_candidate *candidate)
{
    if (search->suspects.count == 0 && !search->suspects.has_zero)
        return 0;
    if (search->diversify)
        return candidate->predicted_count > 0 &&
               gen_set_has(&search->suspects, candidate->predicted[candidate->predicted_count - 1].site);
    gen_set seen = {0};
    double hits = 0;
    for (size_t i = 0; i < candidate->predicted_count; i++) {
        uint64_t site = candidate->predicted[i].site;
        if (gen_set_has(&search->suspects, site) && !gen_set_has(&seen, site)) {
            gen_set_add(&seen, site);
            hits += 1;
        }
    }
    gen_set_free(&seen);
    return hits;
}

/* The candidate's similarity to one failing run. */
static double similarity_to(const gen_search *search, const gen_candidate *candidate, const gen_run *failing)
{
    if (search->options.strategy == CULPRIT_GEN_IS)
        return culprit_input_similarity(&candidate->input, &failing->input);
    if (search->options.strategy != CULPRIT_GEN_PCS_SEQ)
        return culprit_pcs_subset(candidate->predicted, candidate->predicted_count, failing->run.conditions,
                                  failing->run.path.constraint_count);
    return culprit_pcs_subsequence(candidate->predicted, candidate->predicted_count, failing->run.conditions,
                                   failing->run.path.constraint_count);
}

static void rescore(gen_search *search, gen_candidate *candidate, const gen_run *failing)
{
    if (!uses_paths(search->options.strategy) && search->options.strategy != CULPRIT_GEN_IS)
        return;
    /* A grow candidate predicts its parent's whole path plus a marker: as
     * similar to a failing parent as a candidate can be, and a program
     * that reads to its end makes one from every run.  Scored, it would be
     * picked again and again (the failing input with "1\n" appended, then
     * twice...), never negating a branch; it keeps score 0, so it runs once
     * the candidates that do negate one are spent (or are unlike every
     * failing run). */
    if (candidate->grow || candidate->delta)
        return;
    double score = similarity_to(search, candidate, failing);
    if (search->options.strategy == CULPRIT_GEN_SAT_TAR) /* suspects first, similarity within (< 1) */
        score = suspect_hits(search, candidate) + 0.5 * score;
    if (score > candidate->score)
        candidate->score = score;
}

/* A new failing run raises the candidates as similar to it. */
static void rescore_all(gen_search *search, const gen_run *failing)
{
    for (size_t i = 0; i < search->candidate_count; i++)
        rescore(search, &search->candidates[i], failing);
}

static bool flip_uncovered(const gen_search *search, const gen_candidate *candidate)
{
    if (candidate->grow || candidate->delta)
        return true;
    const culprit_condition *flipped = &candidate->predicted[candidate->predicted_count - 1];
    return flipped->outcome != CULPRIT_OUTCOME_OTHER &&
           !gen_set_has(&search->covered, gen_outcome_key(flipped));
}

/* bisect: how far the candidate's flip is from the one its failing
 * parent's window asks for next; SIZE_MAX when it is outside every window.
 * Until a flip of the parent has failed, the window asks for its last flip
 * (PCS's first choice, the most similar); then for the middle.  PCS walks
 * a failing run's flips from the last one down, one failing child per
 * flip, when the failure is caused early in a long path (fmt, htmlgen: 31
 * of 31 generated tests failed); halving the window finds the last flip
 * whose run passes - the most similar passing run - in log2(n) tests. */
static size_t window_distance(const gen_search *search, const gen_candidate *candidate)
{
    const gen_run *parent = &search->runs[candidate->run];
    if (candidate->grow || candidate->delta || !parent->run.failing ||
        candidate->flip < parent->window_start || candidate->flip >= parent->window_end)
        return SIZE_MAX;
    size_t target = parent->window_end == parent->run.path.constraint_count
                        ? parent->window_end - 1
                        : parent->window_start + (parent->window_end - parent->window_start) / 2;
    return candidate->flip > target ? candidate->flip - target : target - candidate->flip;
}

/* Whether a should be picked before b.  The directed strategies take a
 * grown input only when no flip is left: it follows its parent's path to
 * the end and then reads more, so its predicted path is as similar as a
 * path can be (n of n + 1 conditions), yet from a failing parent it
 * mostly fails again the same way - the passing runs near the failing
 * path that localization needs come from flips. */
static bool better_as(const gen_search *search, culprit_gen_strategy strategy, const gen_candidate *a,
                      const gen_candidate *b)
{
    bool directed = strategy != CULPRIT_GEN_BASE && strategy != CULPRIT_GEN_COVERAGE;
    if (directed && a->grow != b->grow)
        return !a->grow;
    if (strategy == CULPRIT_GEN_DELTA && a->delta != b->delta)
        return a->delta;
    if (strategy == CULPRIT_GEN_BISECT || strategy == CULPRIT_GEN_DELTA) {
        size_t a_distance = window_distance(search, a), b_distance = window_distance(search, b);
        if (a_distance != b_distance)
            return a_distance < b_distance;
    }
    if (splits(strategy) && a->split != b->split)
        return a->split > b->split;
    if (directed && a->score != b->score)
        return a->score > b->score;
    bool a_new = flip_uncovered(search, a), b_new = flip_uncovered(search, b);
    if (a_new != b_new)
        return a_new;
    return a->order < b->order;
}

/* mix takes turns: a candidate of the failing seed's side in delta's
 * order, then one of the emptied seed's side in base's.  Localizing from
 * one failing run needs both: passing runs close to it (delta) and
 * passing runs that cover the code it shares with every input (base,
 * which ranked the fault best of the five strategies of seeds/001 in
 * `make eval-gen`). */
enum { GEN_FRUITLESS_LIMIT = 8 };

static bool better(const gen_search *search, const gen_candidate *a, const gen_candidate *b)
{
    culprit_gen_strategy strategy = search->options.strategy;
    /* After GEN_FRUITLESS_LIMIT picks in a row made no input, one pick in
     * creation order: on a long path (bc -l, 1,600 constraints) the deep
     * flips PCS prefers were nearly all unsat or timed out, and the search
     * made 2 tests in 60 s where coverage's order made 68. */
    if (search->fruitless >= GEN_FRUITLESS_LIMIT)
        return a->order < b->order;
    if (strategy == CULPRIT_GEN_MIX) {
        bool a_start = search->runs[a->run].from_start, b_start = search->runs[b->run].from_start;
        if (a_start != b_start)
            return a_start == (search->picks % 2 == 1);
        strategy = a_start ? CULPRIT_GEN_BASE : CULPRIT_GEN_DELTA;
    }
    return better_as(search, strategy, a, b);
}

/* Whether the next pick orders by the split: a splitting strategy, and not
 * the creation-order pick that follows fruitless ones (better()). */
static bool picks_by_split(const gen_search *search)
{
    return splits(search->options.strategy) && search->fruitless < GEN_FRUITLESS_LIMIT;
}

/* pcs, pcs-seq, is: similarity only orders equal splits, so only the
 * candidates of the best split (among flips, when there are any: they go
 * before grown inputs) are scored, against the failing runs they have not
 * been scored against.  Scoring every candidate against every failing run
 * as they come took 85% of PCS's time on fmt (30 failing runs, ~200
 * conditions each, thousands of candidates); the order is the same. */
static void score_best_split(gen_search *search)
{
    bool flips = false;
    double best = -1;
    for (size_t i = 0; i < search->candidate_count; i++)
        flips = flips || !search->candidates[i].grow;
    for (size_t i = 0; i < search->candidate_count; i++)
        if ((!flips || !search->candidates[i].grow) && search->candidates[i].split > best)
            best = search->candidates[i].split;
    for (size_t i = 0; i < search->candidate_count; i++) {
        gen_candidate *candidate = &search->candidates[i];
        if (candidate->split != best || (flips && candidate->grow))
            continue;
        for (size_t r = candidate->scored; r < search->run_count; r++)
            if (search->runs[r].run.failing)
                rescore(search, candidate, &search->runs[r]);
        candidate->scored = search->run_count;
    }
}

/* Takes the best candidate out of the queue into *picked; false when empty. */
static bool pick(gen_search *search, gen_candidate *picked)
{
    if (search->candidate_count == 0)
        return false;
    if (picks_by_split(search))
        score_best_split(search);
    size_t best = 0;
    for (size_t i = 1; i < search->candidate_count; i++)
        if (better(search, &search->candidates[i], &search->candidates[best]))
            best = i;
    *picked = search->candidates[best];
    search->candidates[best] = search->candidates[--search->candidate_count];
    search->picks++;
    return true;
}

/* ---- runs ---- */

/* sat-tar: a failing run's suspects join the search's; true when some
 * were new (every candidate's score then changes). */
static bool note_suspects(gen_search *search, const culprit_gen_run *run)
{
    size_t before = search->suspects.count + search->suspects.has_zero;
    for (size_t i = 0; i < run->suspect_count; i++)
        gen_set_add(&search->suspects, run->suspects[i]);
    return search->options.strategy == CULPRIT_GEN_SAT_TAR &&
           search->suspects.count + search->suspects.has_zero != before;
}

/* Scores again from nothing, against every failing run. */
static void rescore_everything(gen_search *search)
{
    for (size_t c = 0; c < search->candidate_count; c++) {
        search->candidates[c].score = 0;
        for (size_t r = 0; r < search->run_count; r++)
            if (search->runs[r].run.failing)
                rescore(search, &search->candidates[c], &search->runs[r]);
    }
}

static void note_coverage(gen_search *search, const gen_run *run)
{
    uint64_t prefix = GEN_HASH_START;
    for (size_t i = 0; i < run->run.path.constraint_count; i++) {
        gen_set_add(&search->covered, gen_outcome_key(&run->run.conditions[i]));
        prefix = gen_hash_condition(prefix, &run->run.conditions[i]);
        gen_set_add(&search->paths, prefix);
    }
}

/* Runs input as test number; the run (and input) joins search->runs. */
static culprit_status run_input(gen_search *search, culprit_input *input, size_t bound, size_t *index,
                                culprit_error *err)
{
    culprit_status status = gen_runs_reserve(search, err);
    if (status != CULPRIT_OK) {
        culprit_input_free(input);
        return status;
    }
    gen_run *run = &search->runs[search->run_count];
    *run = (gen_run){.input = *input, .bound = bound, .window_start = bound};
    *input = (culprit_input){0};
    gen_set_add(&search->inputs, culprit_input_hash(&run->input));
    status = search->runner(search->context, search->run_count, &run->input, &run->run, err);
    *index = search->run_count++;
    if (status != CULPRIT_OK)
        return status;
    search->stats->tests = search->run_count;
    run->window_end = run->run.path.constraint_count;
    note_coverage(search, run);
    if (run->run.failing)
        search->stats->failing++;
    bool turned = search->options.strategy == CULPRIT_GEN_SAT_TAR && run->run.stale != search->diversify;
    search->diversify = search->options.strategy == CULPRIT_GEN_SAT_TAR && run->run.stale;
    if ((run->run.failing && note_suspects(search, &run->run)) || turned || search->diversify)
        rescore_everything(search);
    else if (run->run.failing && !splits(search->options.strategy)) /* those score lazily */
        rescore_all(search, run);
    search->stats->stopped = run->run.stop;
    return CULPRIT_OK;
}

/* ---- candidates ---- */

culprit_status gen_add_candidate(gen_search *search, gen_candidate *candidate, culprit_error *err)
{
    if (candidate->delta) { /* no predicted path: de-duplicated by input when picked */
        candidate->order = search->next_order++;
        search->stats->candidates++;
        return gen_queue_push(search, candidate, err);
    }
    uint64_t hash = GEN_HASH_START;
    for (size_t i = 0; i < candidate->predicted_count; i++)
        hash = gen_hash_condition(hash, &candidate->predicted[i]);
    if (gen_set_has(&search->paths, hash)) {
        search->stats->duplicate_paths++;
        gen_candidate_free(candidate);
        return CULPRIT_OK;
    }
    gen_set_add(&search->paths, hash);
    candidate->order = search->next_order++;
    if (search->options.strategy == CULPRIT_GEN_IS && !candidate->grow) {
        bool usable = false;
        culprit_status status = gen_solve_candidate(search, candidate, &usable, err);
        if (status != CULPRIT_OK || !usable) {
            gen_candidate_free(candidate);
            return status;
        }
    }
    for (size_t i = 0; i < search->run_count && !splits(search->options.strategy); i++)
        if (search->runs[i].run.failing)
            rescore(search, candidate, &search->runs[i]);
    search->stats->candidates++;
    return gen_queue_push(search, candidate, err);
}

/* "Constraints 0 .. flip-1 of the run, then flip changed as kind says",
 * predicting outcome there. */
static culprit_status flip_candidate(gen_search *search, size_t run_index, size_t flip,
                                     culprit_flip_kind kind, uint64_t value, uint64_t outcome,
                                     culprit_error *err)
{
    const gen_run *run = &search->runs[run_index];
    gen_candidate candidate = {
        .run = run_index, .flip = flip, .flip_kind = kind, .flip_value = value, .predicted_count = flip + 1};
    candidate.predicted = malloc(candidate.predicted_count * sizeof *candidate.predicted);
    if (!candidate.predicted)
        return culprit_fail_memory(err);
    memcpy(candidate.predicted, run->run.conditions, flip * sizeof *candidate.predicted);
    candidate.predicted[flip] = run->run.conditions[flip];
    candidate.predicted[flip].outcome = outcome;
    return gen_add_candidate(search, &candidate, err);
}

/* A switch whose cases are known: one candidate per outcome the run did
 * not take - the default first, then the cases in ascending order from the
 * one after the value taken, wrapping around - at most
 * GEN_SWITCH_CANDIDATES (so a 256-case switch on a byte costs sixteen
 * candidates per occurrence, and occurrences that took other values try
 * other windows of cases). */
static culprit_status switch_candidates(gen_search *search, size_t run_index, size_t flip,
                                        const culprit_path_switch *entry, culprit_error *err)
{
    const culprit_path_constraint *constraint = &search->runs[run_index].run.path.constraints[flip];
    uint64_t taken = search->runs[run_index].run.conditions[flip].outcome;
    size_t made = 0, start = 0;
    culprit_status status = CULPRIT_OK;
    if (taken != CULPRIT_OUTCOME_DEFAULT) {
        status =
            flip_candidate(search, run_index, flip, CULPRIT_FLIP_DEFAULT, 0, CULPRIT_OUTCOME_DEFAULT, err);
        made++;
    }
    while (start < entry->case_count && entry->cases[start] <= constraint->value)
        start++;
    for (size_t k = 0; k < entry->case_count && made < GEN_SWITCH_CANDIDATES && status == CULPRIT_OK; k++) {
        uint64_t value = entry->cases[(start + k) % entry->case_count];
        if (value == constraint->value)
            continue;
        status = flip_candidate(search, run_index, flip, CULPRIT_FLIP_CASE, value, value, err);
        made++;
    }
    return status;
}

/* The candidates of constraint flip: a branch's other way, a switch's
 * other cases (or "any other value" when its cases are unknown). */
static culprit_status constraint_candidates(gen_search *search, size_t run_index, size_t flip,
                                            culprit_error *err)
{
    const culprit_path *path = &search->runs[run_index].run.path;
    const culprit_path_constraint *constraint = &path->constraints[flip];
    const culprit_path_switch *entry = culprit_path_switch_of(path, constraint);
    if (entry)
        return switch_candidates(search, run_index, flip, entry, err);
    uint64_t outcome = constraint->kind == CULPRIT_SYM_BRANCH ? 1 - constraint->value : CULPRIT_OUTCOME_OTHER;
    return flip_candidate(search, run_index, flip, CULPRIT_FLIP_NEGATE, 0, outcome, err);
}

/* The run's path, then a marker for "source grew past length". */
static culprit_status grow_candidate(gen_search *search, size_t run_index, size_t source, culprit_error *err)
{
    const gen_run *run = &search->runs[run_index];
    const culprit_path_source *grown = &run->run.path.sources[source];
    size_t count = run->run.path.constraint_count;
    gen_candidate candidate = {
        .run = run_index, .grow = true, .grow_source = source, .predicted_count = count + 1};
    candidate.predicted = malloc(candidate.predicted_count * sizeof *candidate.predicted);
    if (!candidate.predicted)
        return culprit_fail_memory(err);
    if (count)
        memcpy(candidate.predicted, run->run.conditions, count * sizeof *candidate.predicted);
    candidate.predicted[count] = (culprit_condition){gen_grow_site(grown), grown->length};
    culprit_status status = gen_add_candidate(search, &candidate, err);
    /* The marker is no condition the failing runs could share. */
    return status;
}

static culprit_status expand(gen_search *search, size_t run_index, culprit_error *err)
{
    const gen_run *run = &search->runs[run_index];
    culprit_status status = CULPRIT_OK;
    for (size_t i = run->bound; i < run->run.path.constraint_count && status == CULPRIT_OK; i++)
        status = constraint_candidates(search, run_index, i, err);
    for (size_t s = 0; s < run->run.path.source_count && status == CULPRIT_OK; s++) {
        const culprit_path_source *source = &search->runs[run_index].run.path.sources[s];
        if ((source->flags & CULPRIT_SYM_SOURCE_READ_PAST_END) && source->kind != CULPRIT_SYM_SOURCE_ARGV)
            status = grow_candidate(search, run_index, s, err);
    }
    bool deltas =
        search->options.strategy == CULPRIT_GEN_DELTA || search->options.strategy == CULPRIT_GEN_MIX;
    if (status == CULPRIT_OK && deltas && run_index == 0)
        status = gen_delta_candidates(search, run_index, err);
    return status;
}

/* The input a picked candidate makes; *usable false when it makes none
 * (unsat, unknown, not renderable, a duplicate input). */
static culprit_status candidate_input(gen_search *search, gen_candidate *candidate, culprit_input *input,
                                      bool *usable, culprit_error *err)
{
    *usable = false;
    culprit_status status = CULPRIT_OK;
    if (candidate->grow)
        status = gen_grow_input(search, candidate, err);
    else if (!candidate->solved)
        status = gen_solve_candidate(search, candidate, usable, err);
    if (status != CULPRIT_OK || !candidate->solved)
        return status;
    if (gen_set_has(&search->inputs, culprit_input_hash(&candidate->input))) {
        search->stats->duplicate_inputs++;
        return CULPRIT_OK;
    }
    *input = candidate->input;
    candidate->input = (culprit_input){0};
    candidate->solved = false;
    *usable = true;
    return CULPRIT_OK;
}

static bool out_of_budget(const gen_search *search, size_t generated)
{
    const culprit_gen_options *options = &search->options;
    if (options->budget_tests && generated >= options->budget_tests)
        return true;
    return options->budget_seconds > 0 && now_seconds() - search->started >= options->budget_seconds;
}

/* A child of parent's flip ran: the parent's bisect window shrinks.  A
 * failing child gets no window of its own: its flips all lie past a flip
 * now known to fail, where the parent is not searched either. */
static void note_child(gen_search *search, size_t parent, size_t flip, size_t child)
{
    gen_run *run = &search->runs[parent];
    bool failing = search->runs[child].run.failing;
    if (failing && flip < run->window_end)
        run->window_end = flip;
    else if (!failing && flip + 1 > run->window_start)
        run->window_start = flip + 1;
    if (failing)
        search->runs[child].window_start = search->runs[child].window_end;
}

/* The loop of Figure 2, after the seed. */
static culprit_status explore(gen_search *search, culprit_error *err)
{
    culprit_status status = CULPRIT_OK;
    size_t generated = search->run_count - 1;
    while (status == CULPRIT_OK && !search->stats->stopped && !out_of_budget(search, generated)) {
        if (search->options.should_stop && search->options.should_stop(search->context)) {
            search->stats->stopped = true;
            break;
        }
        if (picks_by_split(search) && (status = gen_split_update(search, err)) != CULPRIT_OK)
            break;
        gen_candidate candidate;
        if (!pick(search, &candidate)) {
            search->stats->exhausted = true;
            break;
        }
        culprit_input input = {0};
        bool usable = false;
        status = candidate_input(search, &candidate, &input, &usable, err);
        search->fruitless = usable ? 0 : search->fruitless + 1;
        /* A delta child's path is its own: all of it can be flipped. */
        size_t bound = candidate.grow    ? search->runs[candidate.run].run.path.constraint_count
                       : candidate.delta ? 0
                                         : candidate.flip + 1;
        size_t parent = candidate.run, flip = candidate.flip;
        bool grown = candidate.grow || candidate.delta;
        gen_candidate_free(&candidate);
        size_t index = 0;
        if (status == CULPRIT_OK && usable) {
            status = run_input(search, &input, bound, &index, err);
            generated++;
            search->runs[index].from_start = search->runs[parent].from_start;
            if (status == CULPRIT_OK && !grown)
                note_child(search, parent, flip, index);
            if (status == CULPRIT_OK)
                status = expand(search, index, err);
        }
    }
    return status;
}

/* The strategies that run the seed with its stdin and files emptied right
 * after it: base (where it explores from), mix (its second side), and
 * pcs, pcs-seq and is.  Why the directed ones: from one failing run every
 * line it ran is tied, and a large share of them - start-up, option
 * parsing, output - runs on every input; the emptied input's run (seeds/001
 * Figure 2 allows a set of seeds, and its Base starts from the empty input)
 * separates all of those at once when it passes, and the input-specific
 * ones when it fails.  The split cannot ask for it: those lines are mostly
 * no branch that input decides.  In `make eval-gen` this one test took
 * PCS's mean worst rank from 78.5 to 53.6 (BENCHMARKS.md). */
static bool runs_emptied_seed(culprit_gen_strategy strategy)
{
    return strategy == CULPRIT_GEN_BASE || strategy == CULPRIT_GEN_MIX || splits(strategy);
}

/* The seed with its stdin and files emptied (argv kept). */
static culprit_status start_input(const culprit_input *seed, culprit_input *start, culprit_error *err)
{
    culprit_status status = culprit_input_copy(seed, start, err);
    for (size_t i = 0; status == CULPRIT_OK && i < start->part_count; i++)
        if (start->parts[i].kind != CULPRIT_SYM_SOURCE_ARGV)
            start->parts[i].length = 0;
    return status;
}

static culprit_status search_from_seed(gen_search *search, const culprit_input *seed, culprit_error *err)
{
    culprit_input first = {0};
    size_t index = 0;
    culprit_status status = culprit_input_copy(seed, &first, err);
    if (status == CULPRIT_OK)
        status = run_input(search, &first, 0, &index, err);
    if (status == CULPRIT_OK && !search->runs[0].run.failing)
        return culprit_fail(err, CULPRIT_ERROR_INPUT,
                            "the failing input passes: nothing to localize (give an input on which the "
                            "program fails, or an oracle that judges it failing)");
    if (status != CULPRIT_OK || search->stats->stopped)
        return status;
    bool from_start = runs_emptied_seed(search->options.strategy);
    if (search->options.strategy != CULPRIT_GEN_BASE)
        status = expand(search, 0, err);
    if (status == CULPRIT_OK && from_start && !out_of_budget(search, 0)) {
        culprit_input start = {0};
        status = start_input(seed, &start, err);
        /* A seed with nothing but argv empties to itself: the directed
         * strategies would run it twice (base explores from it anyway). */
        bool same =
            status == CULPRIT_OK && splits(search->options.strategy) && culprit_input_equal(&start, seed);
        if (same)
            culprit_input_free(&start);
        else if (status == CULPRIT_OK)
            status = run_input(search, &start, 0, &index, err);
        if (status == CULPRIT_OK && !same) {
            search->runs[index].from_start = true;
            status = expand(search, index, err);
        }
    }
    if (status == CULPRIT_OK)
        status = explore(search, err);
    return status;
}

culprit_status culprit_gen_search(const culprit_gen_options *options, const culprit_input *seed,
                                  culprit_gen_runner runner, void *context, culprit_gen_stats *stats,
                                  culprit_error *err)
{
    *stats = (culprit_gen_stats){0};
    gen_search search = {
        .options = *options, .runner = runner, .context = context, .stats = stats, .started = now_seconds()};
    if (!search.options.grow_text)
        search.options.grow_text = DEFAULT_GROW_TEXT;
    culprit_status status = culprit_solver_create(options->solver_timeout_ms, &search.solver, err);
    if (status == CULPRIT_OK)
        status = search_from_seed(&search, seed, err);
    if (search.solver)
        stats->solver = culprit_solver_statistics(search.solver);
    gen_search_free(&search);
    return status;
}
