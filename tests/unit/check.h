/*
 * check.h - the unit-test harness: a handful of assertion macros that count
 * passes and failures and keep going, and a summary line that tests/run.sh
 * adds up ("NAME: N passed, N failed").  Each tests/unit/test_*.c is one
 * program with its own main.
 */
#ifndef CULPRIT_CHECK_H
#define CULPRIT_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int check_passed;
static int check_failed;

#define CHECK_RECORD(ok, ...)                                                                                \
    do {                                                                                                     \
        if (ok) {                                                                                            \
            check_passed++;                                                                                  \
        } else {                                                                                             \
            check_failed++;                                                                                  \
            fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                                                  \
            fprintf(stderr, __VA_ARGS__);                                                                    \
            fputc('\n', stderr);                                                                             \
        }                                                                                                    \
    } while (0)

#define CHECK(condition) CHECK_RECORD((condition), "check failed: %s", #condition)

#define CHECK_INT(actual, expected)                                                                          \
    do {                                                                                                     \
        long long check_a_ = (long long)(actual), check_e_ = (long long)(expected);                          \
        CHECK_RECORD(check_a_ == check_e_, "%s is %lld, expected %lld", #actual, check_a_, check_e_);        \
    } while (0)

#define CHECK_NEAR(actual, expected, tolerance)                                                              \
    do {                                                                                                     \
        double check_a_ = (actual), check_e_ = (expected);                                                   \
        CHECK_RECORD((isinf(check_e_) && check_a_ == check_e_) || fabs(check_a_ - check_e_) <= (tolerance),  \
                     "%s is %.17g, expected %.17g", #actual, check_a_, check_e_);                            \
    } while (0)

#define CHECK_STR(actual, expected)                                                                          \
    do {                                                                                                     \
        const char *check_a_ = (actual), *check_e_ = (expected);                                             \
        CHECK_RECORD(check_a_ &&strcmp(check_a_, check_e_) == 0, "%s is \"%s\", expected \"%s\"", #actual,   \
                     check_a_ ? check_a_ : "(null)", check_e_);                                              \
    } while (0)

#define CHECK_CONTAINS(haystack, needle)                                                                     \
    do {                                                                                                     \
        const char *check_h_ = (haystack), *check_n_ = (needle);                                             \
        CHECK_RECORD(check_h_ &&strstr(check_h_, check_n_), "%s is \"%s\", expected it to contain \"%s\"",   \
                     #haystack, check_h_ ? check_h_ : "(null)", check_n_);                                   \
    } while (0)

/* Prints the summary line and returns main's exit status. */
static inline int check_report(const char *suite)
{
    printf("%s: %d passed, %d failed\n", suite, check_passed, check_failed);
    return check_failed ? 1 : 0;
}

#endif
