/*
 * test_concolic_similarity.c - path-constraint and input similarity
 * (src/concolic/similarity.c) on the worked examples of TECHNIQUES.md §6
 * and seeds/001 §4, and on what keying conditions by site and occurrence
 * changes.
 */
#include <stdlib.h>

#include "check.h"
#include "culprit/concolic.h"

static culprit_condition at(uint64_t site, uint64_t outcome)
{
    return (culprit_condition){site, outcome};
}

/* Six conditions C1..C6, C3 evaluated differently: subset 5/6, subsequence
 * 3/6 (the longest agreeing run is C4 C5 C6). */
static void test_worked_example(void)
{
    culprit_condition e1[6], e2[6];
    for (uint64_t i = 0; i < 6; i++) {
        e1[i] = at(100 + i, 1);
        e2[i] = at(100 + i, i == 2 ? 0 : 1);
    }
    CHECK_NEAR(culprit_pcs_subset(e1, 6, e2, 6), 5.0 / 6.0, 1e-12);
    CHECK_NEAR(culprit_pcs_subset(e1, 6, e2, 6) * 100, 83.3, 0.05);
    CHECK_NEAR(culprit_pcs_subsequence(e1, 6, e2, 6), 0.5, 1e-12);
    CHECK_NEAR(culprit_pcs_subset(e1, 6, e1, 6), 1.0, 1e-12);
    CHECK_NEAR(culprit_pcs_subsequence(e1, 6, e1, 6), 1.0, 1e-12);
    /* C1 differing instead: the run C2..C6 is 5 long. */
    e2[2].outcome = 1;
    e2[0].outcome = 0;
    CHECK_NEAR(culprit_pcs_subsequence(e1, 6, e2, 6), 5.0 / 6.0, 1e-12);
    CHECK_NEAR(culprit_pcs_subset(e1, 0, e2, 0), 1.0, 1e-12);
    CHECK_NEAR(culprit_pcs_subset(e1, 6, e2, 0), 0.0, 1e-12);
}

/* A loop test evaluated once more in one run adds one condition (its
 * occurrence 3) to the union instead of shifting everything after it. */
static void test_occurrences(void)
{
    /* a: L L L(exit) X ; b: L L L L(exit) X */
    culprit_condition a[] = {at(1, 1), at(1, 1), at(1, 0), at(9, 1)};
    culprit_condition b[] = {at(1, 1), at(1, 1), at(1, 1), at(1, 0), at(9, 1)};
    /* keys: (1,0) (1,1) same; (1,2) differs; (1,3) only in b; (9,0) same -> 3/5 */
    CHECK_NEAR(culprit_pcs_subset(a, 4, b, 5), 3.0 / 5.0, 1e-12);
    /* positions 0,1 agree; position 2 differs; position 3 differs in key */
    CHECK_NEAR(culprit_pcs_subsequence(a, 4, b, 5), 2.0 / 5.0, 1e-12);
    /* A switch negated to "any other value" matches nothing. */
    culprit_condition s1[] = {at(5, 3)}, s2[] = {at(5, CULPRIT_OUTCOME_OTHER)};
    CHECK_NEAR(culprit_pcs_subset(s1, 1, s2, 1), 0.0, 1e-12);
    CHECK_NEAR(culprit_pcs_subset(s2, 1, s2, 1), 0.0, 1e-12);
}

static void test_sites(void)
{
    CHECK(culprit_condition_site("aa", 1) != culprit_condition_site("aa", 2));
    CHECK(culprit_condition_site("aa", 1) != culprit_condition_site("ab", 1));
    CHECK_INT(culprit_condition_site("aa", 1), culprit_condition_site("aa", 1));
    culprit_path path = {0};
    culprit_path_constraint constraints[2] = {{CULPRIT_SYM_BRANCH, 1, 0, 4, 1}, {CULPRIT_SYM_SWITCH, 1, 1, 4, 9}};
    path.constraints = constraints;
    path.constraint_count = 2;
    culprit_dump_unit units[2] = {{.hash = "u0"}, {.hash = "u1"}};
    culprit_dump dump = {.units = units, .unit_count = 2};
    culprit_condition *conditions = NULL;
    culprit_error err;
    CHECK_INT(culprit_path_conditions(&path, &dump, &conditions, &err), CULPRIT_OK);
    CHECK_INT(conditions[0].site, culprit_condition_site("u0", 4));
    CHECK_INT(conditions[1].site, culprit_condition_site("u1", 4));
    CHECK_INT(conditions[1].outcome, 9);
    free(conditions);
}

static void set_text(culprit_input *input, const char *text)
{
    culprit_error err;
    CHECK_INT(culprit_input_set(input, CULPRIT_SYM_SOURCE_STDIN, 0, text, strlen(text), &err), CULPRIT_OK);
}

/* Six input fields, S3 != T3: 83.3% (seeds/001 §4.2). */
static void test_input_similarity(void)
{
    culprit_input a = {0}, b = {0};
    culprit_error err;
    set_text(&a, "1 2 3 4 5 6\n");
    set_text(&b, "1 2 30 4 5 6\n");
    CHECK_NEAR(culprit_input_similarity(&a, &b), 5.0 / 6.0, 1e-12);
    CHECK_NEAR(culprit_input_similarity(&a, &a), 1.0, 1e-12);
    /* Blanks do not make fields. */
    set_text(&b, "  1\t2 3\n4 5   6");
    CHECK_NEAR(culprit_input_similarity(&a, &b), 1.0, 1e-12);
    /* argv strings are fields too; a missing part counts as empty. */
    CHECK_INT(culprit_input_set(&a, CULPRIT_SYM_SOURCE_ARGV, 1, "-v", 2, &err), CULPRIT_OK);
    CHECK_NEAR(culprit_input_similarity(&a, &b), 6.0 / 7.0, 1e-12);
    CHECK_INT(culprit_input_set(&b, CULPRIT_SYM_SOURCE_ARGV, 1, "-q", 2, &err), CULPRIT_OK);
    CHECK_NEAR(culprit_input_similarity(&a, &b), 6.0 / 7.0, 1e-12);
    CHECK_INT(culprit_input_set(&b, CULPRIT_SYM_SOURCE_ARGV, 1, "-v", 2, &err), CULPRIT_OK);
    CHECK_NEAR(culprit_input_similarity(&a, &b), 1.0, 1e-12);
    culprit_input_free(&a);
    culprit_input_free(&b);
    /* Binary input: byte by byte. */
    const unsigned char x[] = {0, 1, 2, 3}, y[] = {0, 9, 2, 3, 4};
    CHECK_INT(culprit_input_set(&a, CULPRIT_SYM_SOURCE_FILE, 0, x, 4, &err), CULPRIT_OK);
    CHECK_INT(culprit_input_set(&b, CULPRIT_SYM_SOURCE_FILE, 0, y, 5, &err), CULPRIT_OK);
    CHECK_NEAR(culprit_input_similarity(&a, &b), 3.0 / 5.0, 1e-12);
    culprit_input_free(&a);
    culprit_input_free(&b);
    CHECK_NEAR(culprit_input_similarity(&a, &b), 1.0, 1e-12);
}

int main(void)
{
    test_worked_example();
    test_occurrences();
    test_sites();
    test_input_similarity();
    return check_report("test_concolic_similarity");
}
