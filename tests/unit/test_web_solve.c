/*
 * test_web_solve.c - a value that negates one comparison of a page while
 * the earlier comparisons on the same field keep their outcomes
 * (src/web/web_solve.c, culprit_web_solve_negation; docs/web.md "Input
 * constraints"): integer intervals (`> 10` then `< 12`: 11), equalities
 * with and without a way out, switch cases, byte-wise string order,
 * is_numeric with an integer bound, empty(); and no value when no earlier
 * comparison is on the field, when the path is unsatisfiable, or for a
 * comparison of unknown outcome.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "culprit/web.h"

/* The solved value of the last record of text negated, "(none)" without one. */
static char solved[1200];
static const char *solve(const char *text)
{
    culprit_web_constraints constraints = {0};
    culprit_error err = {0};
    snprintf(solved, sizeof solved, "(bad)");
    if (culprit_web_constraints_parse(text, strlen(text), "inputs", &constraints, &err) != CULPRIT_OK ||
        constraints.count == 0)
        return solved;
    char *value = NULL;
    if (culprit_web_solve_negation(&constraints, constraints.count - 1, 5000, &value, &err) != CULPRIT_OK)
        snprintf(solved, sizeof solved, "(error: %s)", err.message);
    else
        snprintf(solved, sizeof solved, "%s", value ? value : "(none)");
    free(value);
    culprit_web_constraints_free(&constraints);
    return solved;
}

static void test_intervals(void)
{
    /* 20 > 10 held, 20 < 12 did not: the way in is 11 alone */
    CHECK_STR(solve("gt 1 get n int /a.php:3 10\nlt 0 get n int /a.php:4 12\n"), "11");
    CHECK_STR(solve("ge 1 get n int /a.php:3 10\nle 0 get n int /a.php:4 10\n"), "10");
    /* the other field's comparison is not this field's path */
    CHECK_STR(solve("gt 1 get m int /a.php:3 10\nlt 0 get n int /a.php:4 12\n"), "(none)");
    /* n >= 5 must stop holding while n is numeric */
    const char *value = solve("numeric 1 get n id /a.php:2\nge 1 get n int /a.php:3 5\n");
    char *end;
    long number = strtol(value, &end, 10);
    CHECK(*value && !*end && number < 5);
    /* unsatisfiable: > 10 held, and > 5 must not */
    CHECK_STR(solve("gt 1 get n int /a.php:3 10\ngt 1 get n int /a.php:4 5\n"), "(none)");
}

static void test_lengths(void)
{
    /* strlen() > 3 held, strlen() < 5 did not: four bytes */
    CHECK_INT((int)strlen(solve("gt 1 get s len /a.php:3 3\nlt 0 get s len /a.php:4 5\n")), 4);
    /* a length is not the field's number: "len" with "int" on the field */
    const char *value = solve("eq 1 get s len /a.php:2 2\ngt 0 get s int /a.php:3 50\n");
    char *end;
    long number = strtol(value, &end, 10);
    CHECK(!*end && strlen(value) == 2 && number > 50);
    /* unsatisfiable: the length was 2 and must now exceed 3 */
    CHECK_STR(solve("eq 1 get s len /a.php:2 2\ngt 0 get s len /a.php:3 3\n"), "(none)");
}

static void test_equalities(void)
{
    /* not admin, and now root */
    CHECK_STR(solve("eq 0 post role trim /p.php:5 admin\neq 0 post role trim /p.php:9 root\n"), "root");
    /* it was "a": it cannot be "b" too */
    CHECK_STR(solve("eq 1 get x id /p.php:5 a\neq 0 get x id /p.php:6 b\n"), "(none)");
    /* a switch matched one case; then != daily held: daily is the way */
    CHECK_STR(solve("switch 1 get kind id /r.php:8 daily monthly\nne 1 get kind id /r.php:12 daily\n"),
              "daily");
    /* empty() held before; now it must differ from "" and stay empty: "0" */
    CHECK_STR(solve("empty 1 get q id /s.php:2\neq 1 get q id /s.php:3 -\n"), "0");
    /* a comparison of unknown outcome is not negated */
    CHECK_STR(solve("eq 0 get x id /p.php:5 a\neq - get x id /p.php:6 b\n"), "(none)");
}

static void test_strings(void)
{
    /* byte-wise order with a string constant: after b, and now c */
    CHECK_STR(solve("gt 1 get w id /o.php:2 b\neq 0 get w id /o.php:3 c\n"), "c");
    CHECK_STR(solve("lt 1 get w id /o.php:2 m\neq 0 get w id /o.php:3 zz\n"), "(none)");
    /* digits, then not 123 */
    const char *value = solve("digits 1 get id id /v.php:2\neq 1 get id id /v.php:3 123\n");
    CHECK(strcmp(value, "123") != 0 && strspn(value, "0123456789") == strlen(value) && *value);
}

int main(void)
{
    test_intervals();
    test_lengths();
    test_equalities();
    test_strings();
    return check_report("web_solve");
}
