/*
 * search_split.c - what the directed strategies (pcs, pcs-seq, is) aim at
 * first, beyond seeds/001: the candidate whose predicted path tells apart
 * the most pairs of tied suspicious branch outcomes (docs/symbolic.md,
 * "Strategies"; search.c orders by it, then by the paper's similarity).
 *
 * Why.  From one failing run F, Ochiai ranks F's elements by how many
 * passing runs also ran them; all of them start tied.  A new run that
 * covers a set C of a tied class G breaks the tie whatever its verdict: if
 * it passes, the elements of G in C fall below the others; if it fails,
 * the elements outside C fall (a failing run that skips an element clears
 * it).  With the fault equally likely to be any element of G, the expected
 * number of G's elements that end below it is |G ∩ C| × |G \ C| / |G| in
 * either case - the pairs of G the run tells apart, over |G| - so the best
 * next test covers half of G: bisection, the optimal density 0.5 of
 * entropy-based test generation for fault localization (Campos et al.,
 * ASE 2013).  seeds/001's "most similar" candidate is the late flip of F,
 * which covers nearly all of F: it tells nearly nothing apart, and its run
 * mostly fails again (BENCHMARKS.md, "Generated tests").  Similarity still
 * decides among candidates that split alike, so the paper's choice is the
 * one among the best splitters (on the worked example the two agree).
 *
 * The score of a candidate: Σ over the classes G of the failing runs'
 * outcomes tied at one Ochiai score s(G), of s(G) × |G ∩ C| × |G \ C| -
 * the expected gain above with the fault's prior proportional to the
 * current score, so a tie at the top counts more than one further down.
 * The elements are the branch outcomes (site, outcome) of the runs'
 * paths - the ⟨line, outcome⟩ tuples culprit's default ranking holds, for
 * the branches input decides; C, what a candidate is predicted to cover,
 * is the distinct outcomes of its parent's path before its flip (a grown
 * input: all of them).  The classes are recomputed before every pick from
 * every run so far.
 */
#include <math.h>
#include <stdlib.h>

#include "concolic/search_internal.h"

/* One outcome: its key and, once classified, its class. */
typedef struct outcome {
    uint64_t key;
    bool failing; /* while collecting: the run's verdict */
    size_t class;
} outcome;

static int by_key(const void *left, const void *right)
{
    uint64_t a = ((const outcome *)left)->key, b = ((const outcome *)right)->key;
    return a < b ? -1 : a > b;
}

/* Every run's distinct outcome keys, with the run's verdict, sorted. */
static culprit_status collect(const gen_search *search, outcome **list, size_t *count, culprit_error *err)
{
    size_t total = 0;
    for (size_t r = 0; r < search->run_count; r++)
        total += search->runs[r].run.path.constraint_count;
    *count = 0;
    *list = malloc((total ? total : 1) * sizeof **list);
    if (!*list)
        return culprit_fail_memory(err);
    for (size_t r = 0; r < search->run_count; r++) {
        const gen_run *run = &search->runs[r];
        gen_set seen = {0};
        for (size_t i = 0; i < run->run.path.constraint_count; i++) {
            uint64_t key = gen_outcome_key(&run->run.conditions[i]);
            if (!gen_set_has(&seen, key)) {
                gen_set_add(&seen, key);
                (*list)[(*count)++] = (outcome){key, run->run.failing, 0};
            }
        }
        gen_set_free(&seen);
    }
    qsort(*list, *count, sizeof **list, by_key);
    return CULPRIT_OK;
}

/* The tied classes: the failing runs' outcomes grouped by Ochiai score. */
typedef struct split_classes {
    outcome *members; /* one per outcome of a failing run, sorted by key */
    size_t member_count;
    double *score; /* per class */
    size_t *size;
    size_t count;
} split_classes;

/* Ochiai of an outcome run by `failing` of the total_failing failing runs
 * and by `passing` passing runs. */
static double ochiai(size_t failing, size_t passing, size_t total_failing)
{
    return (double)failing / sqrt((double)total_failing * (double)(failing + passing));
}

/* The class of score among classes->score[0..count), distinct within 1e-12. */
static size_t class_of(const split_classes *classes, double score)
{
    size_t i = 0;
    while (i < classes->count && fabs(classes->score[i] - score) > 1e-12)
        i++;
    return i;
}

static culprit_status classify(outcome *list, size_t count, size_t total_failing, split_classes *classes,
                               culprit_error *err)
{
    classes->members = malloc((count ? count : 1) * sizeof *classes->members);
    classes->score = malloc((count ? count : 1) * sizeof *classes->score);
    classes->size = calloc(count ? count : 1, sizeof *classes->size);
    if (!classes->members || !classes->score || !classes->size)
        return culprit_fail_memory(err);
    for (size_t i = 0; i < count;) {
        size_t failing = 0, passing = 0, j = i;
        for (; j < count && list[j].key == list[i].key; j++)
            failing += list[j].failing, passing += !list[j].failing;
        if (failing) {
            double score = ochiai(failing, passing, total_failing);
            size_t class = class_of(classes, score);
            if (class == classes->count)
                classes->score[classes->count++] = score;
            classes->size[class]++;
            classes->members[classes->member_count++] = (outcome){list[i].key, true, class};
        }
        i = j;
    }
    return CULPRIT_OK;
}

static const outcome *member(const split_classes *classes, uint64_t key)
{
    outcome probe = {key, false, 0};
    return bsearch(&probe, classes->members, classes->member_count, sizeof probe, by_key);
}

/* gain[end] for end = 0 .. n: the score of a candidate of run `r` that
 * covers its first `end` conditions (inside[]: per class, reset here). */
static void run_gains(const gen_run *run, const split_classes *classes, size_t *inside, double *gain)
{
    double total = 0;
    gen_set seen = {0};
    gain[0] = 0;
    for (size_t c = 0; c < classes->count; c++)
        inside[c] = 0;
    for (size_t i = 0; i < run->run.path.constraint_count; i++) {
        uint64_t key = gen_outcome_key(&run->run.conditions[i]);
        const outcome *found = gen_set_has(&seen, key) ? NULL : member(classes, key);
        gen_set_add(&seen, key);
        if (found) { /* one more inside its class: the pairs it tells apart change */
            size_t c = found->class, size = classes->size[c];
            total -= classes->score[c] * (double)(inside[c] * (size - inside[c]));
            inside[c]++;
            total += classes->score[c] * (double)(inside[c] * (size - inside[c]));
        }
        gain[i + 1] = total;
    }
    gen_set_free(&seen);
}

/* Every run's gains, then every candidate's split from its parent's. */
static culprit_status split_candidates(gen_search *search, const split_classes *classes, culprit_error *err)
{
    size_t total = 0;
    for (size_t r = 0; r < search->run_count; r++)
        total += search->runs[r].run.path.constraint_count + 1;
    size_t *start = malloc((search->run_count + 1) * sizeof *start);
    size_t *inside = malloc((classes->count ? classes->count : 1) * sizeof *inside);
    double *gains = malloc((total ? total : 1) * sizeof *gains);
    culprit_status status = start && inside && gains ? CULPRIT_OK : culprit_fail_memory(err);
    for (size_t r = 0, at = 0; status == CULPRIT_OK && r < search->run_count; r++) {
        start[r] = at;
        run_gains(&search->runs[r], classes, inside, gains + at);
        at += search->runs[r].run.path.constraint_count + 1;
    }
    for (size_t c = 0; status == CULPRIT_OK && c < search->candidate_count; c++) {
        gen_candidate *candidate = &search->candidates[c];
        size_t end =
            candidate->grow ? search->runs[candidate->run].run.path.constraint_count : candidate->flip;
        candidate->split = candidate->delta ? 0 : gains[start[candidate->run] + end];
    }
    free(start);
    free(inside);
    free(gains);
    return status;
}

culprit_status gen_split_update(gen_search *search, culprit_error *err)
{
    outcome *list = NULL;
    size_t count = 0;
    split_classes classes = {0};
    culprit_status status = collect(search, &list, &count, err);
    if (status == CULPRIT_OK && search->stats->failing > 0)
        status = classify(list, count, search->stats->failing, &classes, err);
    if (status == CULPRIT_OK && classes.count)
        status = split_candidates(search, &classes, err);
    free(list);
    free(classes.members);
    free(classes.score);
    free(classes.size);
    return status;
}
