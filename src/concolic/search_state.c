/*
 * search_state.c - the bookkeeping of a generational search (search.c):
 * hash sets, the run list and candidate queue, and turning a picked
 * candidate into an input (solving and rendering, or growing).
 */
#include <stdlib.h>
#include <string.h>

#include "concolic/search_internal.h"

/* ---- hash sets ---- */

static uint64_t mix(uint64_t key)
{
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdull;
    key ^= key >> 33;
    return key;
}

bool gen_set_has(const gen_set *set, uint64_t key)
{
    if (key == 0)
        return set->has_zero;
    if (set->capacity == 0)
        return false;
    for (size_t i = mix(key) & (set->capacity - 1);; i = (i + 1) & (set->capacity - 1)) {
        if (set->slots[i] == key)
            return true;
        if (set->slots[i] == 0)
            return false;
    }
}

static void insert(uint64_t *slots, size_t capacity, uint64_t key)
{
    size_t i = mix(key) & (capacity - 1);
    while (slots[i] != 0 && slots[i] != key)
        i = (i + 1) & (capacity - 1);
    slots[i] = key;
}

void gen_set_add(gen_set *set, uint64_t key)
{
    if (key == 0) {
        set->has_zero = true;
        return;
    }
    if (gen_set_has(set, key))
        return;
    if ((set->count + 1) * 2 > set->capacity) {
        size_t capacity = set->capacity ? set->capacity * 2 : 64;
        uint64_t *slots = calloc(capacity, sizeof *slots);
        if (!slots)
            return;
        for (size_t i = 0; i < set->capacity; i++)
            if (set->slots[i])
                insert(slots, capacity, set->slots[i]);
        free(set->slots);
        set->slots = slots;
        set->capacity = capacity;
    }
    insert(set->slots, set->capacity, key);
    set->count++;
}

void gen_set_free(gen_set *set)
{
    free(set->slots);
    *set = (gen_set){0};
}

static uint64_t fnv(uint64_t hash, uint64_t value)
{
    for (size_t i = 0; i < 8; i++)
        hash = (hash ^ ((value >> (8 * i)) & 0xff)) * 0x100000001b3ull;
    return hash;
}

uint64_t gen_hash_condition(uint64_t hash, const culprit_condition *condition)
{
    return fnv(fnv(hash, condition->site), condition->outcome);
}

uint64_t gen_outcome_key(const culprit_condition *condition)
{
    return fnv(fnv(GEN_HASH_START ^ 0x5a, condition->site), condition->outcome);
}

uint64_t gen_grow_site(const culprit_path_source *source)
{
    return fnv(fnv(GEN_HASH_START ^ 0x6700, source->kind), source->index);
}

/* ---- runs and candidates ---- */

culprit_status gen_runs_reserve(gen_search *search, culprit_error *err)
{
    if (search->run_count < search->run_capacity)
        return CULPRIT_OK;
    size_t capacity = search->run_capacity ? search->run_capacity * 2 : 16;
    gen_run *runs = realloc(search->runs, capacity * sizeof *runs);
    if (!runs)
        return culprit_fail_memory(err);
    search->runs = runs;
    search->run_capacity = capacity;
    return CULPRIT_OK;
}

culprit_status gen_queue_push(gen_search *search, gen_candidate *candidate, culprit_error *err)
{
    if (search->candidate_count == search->candidate_capacity) {
        size_t capacity = search->candidate_capacity ? search->candidate_capacity * 2 : 64;
        gen_candidate *candidates = realloc(search->candidates, capacity * sizeof *candidates);
        if (!candidates) {
            gen_candidate_free(candidate);
            return culprit_fail_memory(err);
        }
        search->candidates = candidates;
        search->candidate_capacity = capacity;
    }
    search->candidates[search->candidate_count++] = *candidate;
    *candidate = (gen_candidate){0};
    return CULPRIT_OK;
}

void gen_candidate_free(gen_candidate *candidate)
{
    free(candidate->predicted);
    culprit_input_free(&candidate->input);
    *candidate = (gen_candidate){0};
}

void gen_search_free(gen_search *search)
{
    for (size_t i = 0; i < search->run_count; i++) {
        culprit_input_free(&search->runs[i].input);
        culprit_path_free(&search->runs[i].run.path);
        free(search->runs[i].run.conditions);
        free(search->runs[i].run.suspects);
    }
    free(search->runs);
    for (size_t i = 0; i < search->candidate_count; i++)
        gen_candidate_free(&search->candidates[i]);
    free(search->candidates);
    gen_set_free(&search->covered);
    gen_set_free(&search->paths);
    gen_set_free(&search->inputs);
    gen_set_free(&search->suspects);
    culprit_solver_free(search->solver);
    *search = (gen_search){0};
}

/* ---- a candidate's input ---- */

culprit_status gen_solve_candidate(gen_search *search, gen_candidate *candidate, bool *usable,
                                   culprit_error *err)
{
    *usable = false;
    const gen_run *parent = &search->runs[candidate->run];
    culprit_solve_result result;
    culprit_model model = {0};
    culprit_flip flip = {
        .constraint = candidate->flip, .kind = candidate->flip_kind, .value = candidate->flip_value};
    culprit_status status =
        culprit_solve(search->solver, &parent->run.path, &flip, &parent->input, &result, &model, err);
    if (status != CULPRIT_OK || result != CULPRIT_SOLVE_SAT) {
        culprit_model_free(&model);
        return status;
    }
    culprit_error render_error;
    status = culprit_input_apply(&parent->input, &parent->run.path, &model, &candidate->input, &render_error);
    culprit_model_free(&model);
    if (status == CULPRIT_ERROR_INPUT) {
        if (search->stats->render_failures++ == 0)
            memcpy(search->stats->first_render_failure, render_error.message,
                   sizeof search->stats->first_render_failure);
        return CULPRIT_OK;
    }
    if (status != CULPRIT_OK) {
        if (err)
            *err = render_error;
        return status;
    }
    candidate->solved = *usable = true;
    return CULPRIT_OK;
}

culprit_status gen_grow_input(gen_search *search, gen_candidate *candidate, culprit_error *err)
{
    const gen_run *parent = &search->runs[candidate->run];
    const culprit_path_source *source = &parent->run.path.sources[candidate->grow_source];
    culprit_status status = culprit_input_copy(&parent->input, &candidate->input, err);
    if (status != CULPRIT_OK)
        return status;
    const culprit_input_part *part = culprit_input_find(&candidate->input, source->kind, source->index);
    size_t old_length = part ? part->length : 0, grow_length = strlen(search->options.grow_text);
    unsigned char *bytes = malloc(old_length + grow_length + 1);
    if (!bytes)
        return culprit_fail_memory(err);
    if (old_length)
        memcpy(bytes, part->bytes, old_length);
    memcpy(bytes + old_length, search->options.grow_text, grow_length);
    status = culprit_input_set(&candidate->input, source->kind, source->index, bytes,
                               old_length + grow_length, err);
    free(bytes);
    candidate->solved = status == CULPRIT_OK;
    return status;
}
