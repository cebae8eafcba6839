/*
 * test_web_strategy.c - culprit web's strategies (src/web/web_strategy.c,
 * culprit/web.h; docs/web.md "Strategies"): a comparison's condition and
 * the condition predicted for a changed value (==, ===, <, isset, empty,
 * is_numeric with the trim / lower / int derivations; an unpredictable
 * record), input similarity of requests, and which pending step each
 * strategy takes: base the oldest, coverage the oldest that runs
 * something new, pcs / pcs-seq the most like a failing request's path
 * (TECHNIQUES.md §6's six conditions, one differing: 83.3% and 50%), is
 * the most like a failing request's inputs; before any failure, the
 * oldest.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "culprit/web.h"
#include "web_fixture.h"

/* One record, parsed. */
static culprit_web_constraints constraints_of(const char *text)
{
    culprit_web_constraints constraints = {0};
    culprit_error err;
    if (culprit_web_constraints_parse(text, strlen(text), "inputs", &constraints, &err) != CULPRIT_OK)
        fprintf(stderr, "bad record: %s: %s\n", text, err.message);
    return constraints;
}

/* The outcome predicted for record when the request's query becomes
 * changed_query: 0, 1, or -1 for CULPRIT_OUTCOME_OTHER. */
static int predicted(const char *query, const char *record, const char *changed_query)
{
    culprit_web_request original = request_of("a.php", query, false, "");
    culprit_web_request changed = request_of("a.php", changed_query, false, "");
    culprit_web_constraints constraints = constraints_of(record);
    int outcome = -2;
    if (constraints.count == 1) {
        culprit_condition condition = culprit_web_predict(&original, &changed, &constraints.items[0]);
        outcome = condition.outcome == CULPRIT_OUTCOME_OTHER ? -1 : (int)condition.outcome;
    }
    culprit_web_constraints_free(&constraints);
    culprit_web_request_free(&original);
    culprit_web_request_free(&changed);
    return outcome;
}

static void test_predict(void)
{
    /* == on the value as sent, and after trim / strtolower(trim()) */
    CHECK_INT(predicted("role=user", "eq 0 get role id s admin", "role=admin"), 1);
    CHECK_INT(predicted("role=admin", "eq 1 get role id s admin", "role=adminx"), 0);
    CHECK_INT(predicted("role=+user", "eq 0 get role trim s admin", "role=+admin+"), 1);
    CHECK_INT(predicted("q=Foo", "eq 0 get q lower s bar", "q=+BAR"), 1);
    CHECK_INT(predicted("q=Foo", "ieq 0 get q id s bar", "q=BAR"), 1);
    CHECK_INT(predicted("q=a", "ne 1 get q id s b", "q=b"), 0);
    /* < on numbers (PHP 8 compares numeric strings as numbers) and strings */
    CHECK_INT(predicted("age=20", "lt 0 get age int s 18", "age=17"), 1);
    CHECK_INT(predicted("age=20", "ge 1 get age int s 18", "age=18"), 1);
    CHECK_INT(predicted("age=20", "gt 1 get age int s 18", "age=18"), 0);
    CHECK_INT(predicted("age=9", "lt 1 get age int s 10", "age=10"), 0); /* not "10" < "9" as strings */
    CHECK_INT(predicted("w=b", "le 0 get w id s a", "w=a"), 1);
    /* isset, empty, is_numeric, ctype_digit */
    CHECK_INT(predicted("x=1", "isset 1 get x id s", ""), 0);
    CHECK_INT(predicted("", "isset 0 get x id s", "x=x"), 1);
    CHECK_INT(predicted("x=", "empty 1 get x id s", "x=x"), 0);
    CHECK_INT(predicted("x=x", "empty 0 get x id s", "x=0"), 1);
    CHECK_INT(predicted("n=x", "numeric 0 get n id s", "n=1"), 1);
    CHECK_INT(predicted("n=12", "digits 1 get n id s", "n=1x"), 0);
    /* a record this evaluation does not reproduce: not predicted */
    CHECK_INT(predicted("role=user", "eq 1 get role id s admin", "role=admin"), -1);
    CHECK_INT(predicted("n=1", "numeric - get n id s", "n=x"), -1);
}

static void test_condition(void)
{
    culprit_web_request a = request_of("r.php", "kind=daily", false, "");
    culprit_web_request b = request_of("r.php", "kind=monthly", false, "");
    culprit_web_constraints constraints = constraints_of("switch 0 get kind id /r.php:8 daily monthly\n"
                                                         "eq 1 get kind id /r.php:9 daily\n"
                                                         "eq 1 get kind id /r.php:10 daily\n");
    if (constraints.count == 3) {
        culprit_condition sa = culprit_web_condition(&a, &constraints.items[0]);
        culprit_condition sb = culprit_web_condition(&b, &constraints.items[0]);
        CHECK(sa.site == sb.site);
        CHECK(sa.outcome != sb.outcome); /* a switch's outcome is the value */
        CHECK(culprit_web_predict(&a, &b, &constraints.items[0]).outcome == sb.outcome);
        culprit_condition c9 = culprit_web_condition(&a, &constraints.items[1]);
        culprit_condition c10 = culprit_web_condition(&a, &constraints.items[2]);
        CHECK_INT(c9.outcome, 1);
        CHECK(c9.site != c10.site); /* sites differ by line */
    }
    culprit_web_constraints_free(&constraints);
    culprit_web_request_free(&a);
    culprit_web_request_free(&b);
}

static void test_similarity(void)
{
    culprit_web_request a = request_of("s.php", "q=php&in=all", false, "");
    culprit_web_request b = request_of("s.php", "q=PHP&in=all", false, "");
    culprit_web_request c = request_of("t.php", "q=php&in=all&page=2", false, "");
    culprit_web_request d = request_of("s.php", "", true, "q=php&in=all");
    CHECK_NEAR(culprit_web_request_similarity(&a, &a), 1.0, 1e-9);
    CHECK_NEAR(culprit_web_request_similarity(&a, &b), 2.0 / 3, 1e-9); /* script, in */
    CHECK_NEAR(culprit_web_request_similarity(&a, &c), 2.0 / 4, 1e-9); /* q, in of 4 items */
    CHECK_NEAR(culprit_web_request_similarity(&a, &d), 1.0 / 3, 1e-9); /* GET is not POST */
    CHECK_NEAR(culprit_web_request_similarity(&c, &a), 2.0 / 4, 1e-9); /* symmetric */
    culprit_web_request_free(&a);
    culprit_web_request_free(&b);
    culprit_web_request_free(&c);
    culprit_web_request_free(&d);
}

/* Queues a step for script?query (generated when conditions are given). */
static void push(culprit_web_queue *queue, const char *script, const char *query,
                 const culprit_condition *conditions, size_t count)
{
    culprit_web_step step = {.request = request_of(script, query, false, ""), .generated = count > 0};
    if (count) {
        step.conditions = malloc(count * sizeof *conditions);
        memcpy(step.conditions, conditions, count * sizeof *conditions);
        step.condition_count = count;
    }
    culprit_error err;
    bool queued;
    culprit_web_queue_push(queue, &step, "s0", &queued, &err);
}

/* The scripts and queries of the steps strategy takes, in order, one a
 * line; after the first taken, failing (script?query, conditions) is
 * added as a failing run and the rest as passing. */
static char order[1024];
static const char *take_all(culprit_web_guide *guide, culprit_web_queue *queue,
                            const culprit_condition *failing, size_t failing_count)
{
    order[0] = '\0';
    culprit_web_step step;
    culprit_error err;
    for (size_t taken = 0; culprit_web_guide_pop(guide, queue, &step); taken++) {
        size_t at = strlen(order);
        char *described = culprit_web_request_describe(&step.request);
        snprintf(order + at, sizeof order - at, "%s%s", taken ? "\n" : "", described);
        free(described);
        bool fails = taken == 0;
        culprit_web_guide_add_run(guide, &step.request, fails ? failing : step.conditions,
                                  fails ? failing_count : step.condition_count, fails, &err);
        culprit_web_step_free(&step);
    }
    return order;
}

static void test_guide(void)
{
    /* TECHNIQUES.md §6: six conditions, one differing - subset 5/6 of the
     * keys agree, subsequence the longest agreeing run, 3 of 6 */
    const culprit_condition failing[] = {{1, 1}, {2, 1}, {3, 0}, {4, 1}, {5, 1}, {6, 0}};
    const culprit_condition near[] = {{1, 1}, {2, 1}, {3, 1}, {4, 1}, {5, 1}, {6, 0}};
    const culprit_condition half[] = {{1, 1}, {2, 1}, {3, 0}};
    const culprit_condition other[] = {{9, 1}};
    CHECK_NEAR(culprit_pcs_subset(near, 6, failing, 6), 5.0 / 6, 1e-9);
    CHECK_NEAR(culprit_pcs_subsequence(near, 6, failing, 6), 3.0 / 6, 1e-9);
    static const struct {
        culprit_gen_strategy strategy;
        const char *order;
    } expected[] = {
        {CULPRIT_GEN_BASE,
         "GET f.php\nGET a.php?x=1\nGET b.php?x=2\nGET c.php?x=3\nGET f.php?x=9\nGET g.php"},
        /* near: 5/6 subset, 3/6 subsequence; half: 3/6 both; the rest 0,
         * of which f.php?x=9 shares the failing request's script (input
         * similarity 1/2 breaks the tie) */
        {CULPRIT_GEN_PCS, "GET f.php\nGET b.php?x=2\nGET c.php?x=3\nGET f.php?x=9\nGET a.php?x=1\nGET g.php"},
        {CULPRIT_GEN_PCS_SEQ,
         "GET f.php\nGET b.php?x=2\nGET c.php?x=3\nGET f.php?x=9\nGET a.php?x=1\nGET g.php"},
        /* f.php?x=9 shares the script with the failing request; the others
         * share nothing and go by pcs subset */
        {CULPRIT_GEN_IS, "GET f.php\nGET f.php?x=9\nGET b.php?x=2\nGET c.php?x=3\nGET a.php?x=1\nGET g.php"},
        /* a's outcome and g.php are new; the failing run covered near's
         * {6,0} and half's {3,0}, and f.php */
        {CULPRIT_GEN_COVERAGE,
         "GET f.php\nGET a.php?x=1\nGET g.php\nGET b.php?x=2\nGET c.php?x=3\nGET f.php?x=9"},
    };
    for (size_t i = 0; i < sizeof expected / sizeof *expected; i++) {
        culprit_web_guide guide = {.strategy = expected[i].strategy};
        culprit_web_queue queue = {.match_values = true};
        push(&queue, "f.php", "", NULL, 0);
        push(&queue, "a.php", "x=1", other, 1);
        push(&queue, "b.php", "x=2", near, 6);
        push(&queue, "c.php", "x=3", half, 3);
        push(&queue, "f.php", "x=9", NULL, 0);
        push(&queue, "g.php", "", NULL, 0);
        CHECK_STR(take_all(&guide, &queue, failing, 6), expected[i].order);
        culprit_web_queue_free(&queue);
        culprit_web_guide_free(&guide);
    }
    /* before any failure: the oldest */
    culprit_web_guide guide = {.strategy = CULPRIT_GEN_PCS};
    culprit_web_queue queue = {.match_values = true};
    push(&queue, "a.php", "x=1", other, 1);
    push(&queue, "b.php", "x=2", near, 6);
    culprit_web_step step;
    CHECK(culprit_web_guide_pop(&guide, &queue, &step));
    CHECK_STR(step.request.script, "a.php");
    culprit_web_step_free(&step);
    culprit_web_queue_free(&queue);
    culprit_web_guide_free(&guide);
    CHECK(culprit_web_strategy_supported(CULPRIT_GEN_IS));
    CHECK(!culprit_web_strategy_supported(CULPRIT_GEN_SAT_TAR));
}

int main(void)
{
    test_predict();
    test_condition();
    test_similarity();
    test_guide();
    return check_report("web_strategy");
}
