/*
 * web_strategy.c - which request culprit web runs next (culprit/web.h,
 * docs/web.md "Strategies"): culprit gen's strategies (seeds/001 §3-4,
 * TECHNIQUES.md §6) over the exploration's queue.
 *
 * A request's path constraint is the comparisons its page made on its
 * inputs (php_inputs.c records them; web_inputs.c reads them), so its
 * conditions are those comparisons with their outcomes.  A step made by
 * negating the i-th comparison of a request is predicted to follow that
 * request's first i conditions and then the i-th as its new value makes
 * it: the prediction is evaluated here, as PHP would compare, since the
 * request has not run yet - as culprit gen scores a candidate on its
 * predicted path before solving for its input.  Links, forms and
 * redirects lead to pages whose comparisons are not known before they
 * run: their predicted path is empty.
 *
 * Scores against failing requests only grow (a maximum over them), so a
 * step's score is kept with the number of failing requests it covers and
 * brought up to date when the queue is scanned, not recomputed.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/fnv.h"
#include "core/grow.h"
#include "culprit/web.h"

/* FNV-1a of text and a separator byte: "ab","c" is not "a","bc". */
static uint64_t fnv(uint64_t hash, const char *text)
{
    return culprit_fnv1a(culprit_fnv1a(hash, text, strlen(text)), "\xff", 1);
}

static const uint64_t FNV_START = CULPRIT_FNV1A_START;

const char *culprit_web_field_value(const culprit_web_request *request,
                                    const culprit_web_constraint *constraint)
{
    const culprit_web_fields *own = !strcmp(constraint->source, "cookie")  ? &request->cookies
                                    : !strcmp(constraint->source, "files") ? &request->files
                                                                           : NULL;
    for (size_t i = 0; own && i < own->count; i++)
        if (strcmp(own->items[i].name, constraint->field) == 0)
            return own->items[i].value;
    if (own)
        return NULL; /* a cookie of the state's, or no upload */
    bool post_first = strcmp(constraint->source, "get") != 0;
    for (int pass = 0; pass < 2; pass++) {
        const culprit_web_fields *fields = (pass == 0) == post_first ? &request->post : &request->get;
        for (size_t i = 0; i < fields->count; i++)
            if (strcmp(fields->items[i].name, constraint->field) == 0)
                return fields->items[i].value;
    }
    return NULL;
}

/* The kinds whose outcome is which value the field had, not true or false. */
static bool valued_kind(const char *kind)
{
    return strcmp(kind, "switch") == 0 || strcmp(kind, "in") == 0 || strcmp(kind, "match") == 0;
}

static uint64_t site_of(const culprit_web_constraint *constraint)
{
    return fnv(fnv(fnv(FNV_START, constraint->site), constraint->kind), constraint->field);
}

static uint64_t value_outcome(const char *value)
{
    return value ? fnv(FNV_START, value) : CULPRIT_OUTCOME_DEFAULT;
}

culprit_condition culprit_web_condition(const culprit_web_request *request,
                                        const culprit_web_constraint *constraint)
{
    culprit_condition condition = {site_of(constraint), CULPRIT_OUTCOME_OTHER};
    if (valued_kind(constraint->kind))
        condition.outcome = value_outcome(culprit_web_field_value(request, constraint));
    else if (constraint->outcome >= 0)
        condition.outcome = (uint64_t)constraint->outcome;
    return condition;
}

/* ---- evaluating a comparison as PHP would ---- */

/* value as the derivation made it: trimmed (trim, lower), lowered (lower);
 * into out (size bytes); false when it does not fit. */
static bool derive(const char *value, const char *how, char *out, size_t size)
{
    bool trim = strcmp(how, "trim") == 0 || strcmp(how, "lower") == 0;
    const char *start = value, *end = value + strlen(value);
    while (trim && start < end && isspace((unsigned char)*start))
        start++;
    while (trim && end > start && isspace((unsigned char)end[-1]))
        end--;
    if ((size_t)(end - start) >= size)
        return false;
    for (size_t i = 0; start + i < end; i++)
        out[i] = strcmp(how, "lower") == 0 ? (char)tolower((unsigned char)start[i]) : start[i];
    out[end - start] = '\0';
    return true;
}

/* PHP's numeric string (leading and trailing blanks allowed), as a number. */
static bool numeric(const char *text, double *number)
{
    char *end;
    while (isspace((unsigned char)*text))
        text++;
    if (!*text)
        return false;
    *number = strtod(text, &end);
    while (isspace((unsigned char)*end))
        end++;
    return end != text && !*end && !isnan(*number);
}

/* <0, 0, >0 as PHP 8 compares two strings: numerically when both are
 * numeric, else byte by byte. */
static int php_compare(const char *a, const char *b)
{
    double x, y;
    if (numeric(a, &x) && numeric(b, &y))
        return (x > y) - (x < y);
    int order = strcmp(a, b);
    return (order > 0) - (order < 0);
}

static bool all_digits(const char *text)
{
    if (!*text)
        return false;
    for (; *text; text++)
        if (!isdigit((unsigned char)*text))
            return false;
    return true;
}

/* The outcome of constraint with the field's value (NULL: absent): 1, 0
 * or -1 when this evaluation cannot say. */
static int evaluate(const culprit_web_constraint *constraint, const char *value)
{
    const char *kind = constraint->kind;
    if (strcmp(kind, "isset") == 0)
        return value != NULL;
    if (strcmp(kind, "empty") == 0)
        return !value || !*value || strcmp(value, "0") == 0;
    char derived[4096];
    if (!value || !derive(value, constraint->how, derived, sizeof derived))
        return -1;
    if (strcmp(kind, "numeric") == 0) {
        double ignored;
        return numeric(derived, &ignored);
    }
    if (strcmp(kind, "digits") == 0)
        return all_digits(derived);
    if (constraint->constant_count == 0)
        return -1;
    const char *constant = constraint->constants[0];
    if (strcmp(kind, "ieq") == 0)
        return strcasecmp(derived, constant) == 0;
    int order = php_compare(derived, constant);
    static const struct {
        const char *kind;
        int less, equal, greater;
    } table[] = {{"eq", 0, 1, 0}, {"ne", 1, 0, 1}, {"lt", 1, 0, 0},
                 {"le", 1, 1, 0}, {"gt", 0, 0, 1}, {"ge", 0, 1, 1}};
    for (size_t i = 0; i < sizeof table / sizeof *table; i++)
        if (strcmp(kind, table[i].kind) == 0)
            return order < 0 ? table[i].less : order == 0 ? table[i].equal : table[i].greater;
    return -1;
}

culprit_condition culprit_web_predict(const culprit_web_request *original, const culprit_web_request *changed,
                                      const culprit_web_constraint *constraint)
{
    culprit_condition condition = culprit_web_condition(changed, constraint);
    if (valued_kind(constraint->kind))
        return condition;
    int before = evaluate(constraint, culprit_web_field_value(original, constraint));
    int after = evaluate(constraint, culprit_web_field_value(changed, constraint));
    condition.outcome =
        before >= 0 && before == constraint->outcome && after >= 0 ? (uint64_t)after : CULPRIT_OUTCOME_OTHER;
    return condition;
}

/* ---- input similarity ---- */

static bool has_field(const culprit_web_fields *fields, const culprit_web_field *field)
{
    for (size_t i = 0; i < fields->count; i++)
        if (strcmp(fields->items[i].name, field->name) == 0 &&
            strcmp(fields->items[i].value, field->value) == 0)
            return true;
    return false;
}

double culprit_web_request_similarity(const culprit_web_request *a, const culprit_web_request *b)
{
    const culprit_web_fields *a_fields[] = {&a->get, &a->post, &a->cookies, &a->files};
    const culprit_web_fields *b_fields[] = {&b->get, &b->post, &b->cookies, &b->files};
    size_t a_items = 1, b_items = 1;
    size_t common = strcmp(a->script, b->script) == 0;
    for (size_t f = 0; f < sizeof a_fields / sizeof *a_fields; f++) {
        a_items += a_fields[f]->count;
        b_items += b_fields[f]->count;
        for (size_t i = 0; i < a_fields[f]->count; i++)
            common += has_field(b_fields[f], &a_fields[f]->items[i]);
    }
    return (double)common / (double)(a_items > b_items ? a_items : b_items);
}

/* ---- the guide ---- */

bool culprit_web_strategy_supported(culprit_gen_strategy strategy)
{
    return strategy == CULPRIT_GEN_BASE || strategy == CULPRIT_GEN_COVERAGE || strategy == CULPRIT_GEN_PCS ||
           strategy == CULPRIT_GEN_PCS_SEQ || strategy == CULPRIT_GEN_IS;
}

static int compare_u64(const void *left, const void *right)
{
    uint64_t a = *(const uint64_t *)left, b = *(const uint64_t *)right;
    return a < b ? -1 : a > b;
}

static uint64_t condition_key(const culprit_condition *condition)
{
    return (condition->site ^ (condition->outcome * 0x9e3779b97f4a7c15ull)) * 0x100000001b3ull;
}

static uint64_t script_key(const char *script)
{
    return fnv(fnv(FNV_START, "script"), script);
}

static bool covered(const culprit_web_guide *guide, uint64_t key)
{
    return guide->covered_count > 0 &&
           bsearch(&key, guide->covered, guide->covered_count, sizeof key, compare_u64) != NULL;
}

static culprit_status cover(culprit_web_guide *guide, uint64_t key, culprit_error *err)
{
    if (covered(guide, key))
        return CULPRIT_OK;
    if (!CULPRIT_GROW(guide->covered, guide->covered_capacity, guide->covered_count + 1, 64))
        return culprit_fail_memory(err);
    size_t at = guide->covered_count;
    while (at > 0 && guide->covered[at - 1] > key)
        at--;
    memmove(guide->covered + at + 1, guide->covered + at, (guide->covered_count - at) * sizeof key);
    guide->covered[at] = key;
    guide->covered_count++;
    return CULPRIT_OK;
}

static culprit_status keep_failing(culprit_web_guide *guide, const culprit_web_request *request,
                                   const culprit_condition *conditions, size_t count, culprit_error *err)
{
    if (!CULPRIT_GROW(guide->failing, guide->failing_capacity, guide->failing_count + 1, 8))
        return culprit_fail_memory(err);
    culprit_web_failing *kept = &guide->failing[guide->failing_count++]; /* freed with the guide */
    *kept = (culprit_web_failing){
        .conditions = count ? malloc(count * sizeof *conditions) : NULL,
        .condition_count = count,
    };
    if (count && !kept->conditions)
        return culprit_fail_memory(err);
    if (count)
        memcpy(kept->conditions, conditions, count * sizeof *conditions);
    return culprit_web_request_copy(request, &kept->request, err);
}

culprit_status culprit_web_guide_add_run(culprit_web_guide *guide, const culprit_web_request *request,
                                         const culprit_condition *conditions, size_t count, bool failing,
                                         culprit_error *err)
{
    culprit_status status = cover(guide, script_key(request->script), err);
    for (size_t i = 0; status == CULPRIT_OK && i < count; i++)
        status = cover(guide, condition_key(&conditions[i]), err);
    if (status == CULPRIT_OK && failing)
        status = keep_failing(guide, request, conditions, count, err);
    return status;
}

static double path_similarity(culprit_gen_strategy strategy, const culprit_web_step *step,
                              const culprit_web_failing *failing)
{
    if (strategy == CULPRIT_GEN_PCS_SEQ)
        return culprit_pcs_subsequence(step->conditions, step->condition_count, failing->conditions,
                                       failing->condition_count);
    return culprit_pcs_subset(step->conditions, step->condition_count, failing->conditions,
                              failing->condition_count);
}

/* Brings step's similarities to the failing requests up to date. */
static void rescore(const culprit_web_guide *guide, culprit_web_step *step)
{
    for (; step->scored < guide->failing_count; step->scored++) {
        const culprit_web_failing *failing = &guide->failing[step->scored];
        double path = path_similarity(guide->strategy, step, failing);
        double inputs = culprit_web_request_similarity(&step->request, &failing->request);
        bool by_inputs = guide->strategy == CULPRIT_GEN_IS;
        double score = by_inputs ? inputs : path, tie = by_inputs ? path : inputs;
        step->score = score > step->score ? score : step->score;
        step->tie_score = tie > step->tie_score ? tie : step->tie_score;
    }
}

/* Whether step would run something no request has: the outcome its
 * comparison is predicted to take, or its script. */
static bool uncovered(const culprit_web_guide *guide, const culprit_web_step *step)
{
    if (step->generated && step->condition_count > 0) {
        const culprit_condition *target = &step->conditions[step->condition_count - 1];
        return target->outcome != CULPRIT_OUTCOME_OTHER && !covered(guide, condition_key(target));
    }
    return !step->generated && !covered(guide, script_key(step->request.script));
}

bool culprit_web_guide_pop(culprit_web_guide *guide, culprit_web_queue *queue, culprit_web_step *step)
{
    size_t pending = culprit_web_queue_pending(queue);
    if (pending == 0)
        return false;
    size_t best = 0;
    double best_score = -1, best_tie = -1;
    for (size_t i = 0; i < pending && guide->strategy != CULPRIT_GEN_BASE; i++) {
        culprit_web_step *candidate = culprit_web_queue_at(queue, i);
        double score, tie = 0;
        if (guide->strategy == CULPRIT_GEN_COVERAGE) {
            score = uncovered(guide, candidate);
        } else {
            rescore(guide, candidate);
            score = candidate->score;
            tie = candidate->tie_score;
        }
        if (score > best_score || (score == best_score && tie > best_tie)) {
            best_score = score;
            best_tie = tie;
            best = i;
        }
    }
    culprit_web_queue_take(queue, best, step);
    return true;
}

void culprit_web_guide_free(culprit_web_guide *guide)
{
    for (size_t i = 0; i < guide->failing_count; i++) {
        culprit_web_request_free(&guide->failing[i].request);
        free(guide->failing[i].conditions);
    }
    free(guide->failing);
    free(guide->covered);
    *guide = (culprit_web_guide){.strategy = guide->strategy};
}
