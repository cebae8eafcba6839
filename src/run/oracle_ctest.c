/*
 * oracle_ctest.c - CTest's rules, for the tests `culprit ctest` runs: the
 * verdict of a command that exited, from its status and CTest's test
 * properties (PASS_, FAIL_ and SKIP_REGULAR_EXPRESSION, SKIP_RETURN_CODE,
 * WILL_FAIL), decided exactly as ctest 3.x decides it
 * (cmCTestRunTest::EndTest), so that culprit records the verdict the
 * project's own harness gives.
 *
 * CTest's patterns are cmsys regular expressions (Henry Spencer's: ^ $ . [ ]
 * * + ? ( ) |, a backslash quoting the next character, '{' an ordinary
 * character); they are translated to POSIX extended ones and searched with
 * regexec in stdout and in stderr (CTest searches the two as one stream;
 * culprit captures them apart).  oracle.c calls this instead of its own
 * rules 4 and 5 when a test has CTest's properties.
 */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/oracle_internal.h"

/* A cmsys pattern as a POSIX ERE: the same language on everything cmsys
 * knows, with what ERE adds ('{' intervals, escapes of letters) made
 * literal.  Returns a new string, or NULL when out of memory. */
static char *ere_from_ctest(const char *pattern)
{
    size_t length = strlen(pattern);
    char *out = malloc(2 * length + 1), *to = out;
    if (!out)
        return NULL;
    bool in_bracket = false;
    for (const char *at = pattern; *at; at++) {
        if (in_bracket) {
            *to++ = *at;
            in_bracket = *at != ']';
        } else if (*at == '\\' && at[1]) {
            at++;
            if (strchr(".[()*+?{|^$\\", *at))
                *to++ = '\\';
            *to++ = *at;
        } else if (*at == '{') {
            *to++ = '\\';
            *to++ = '{';
        } else if (*at == '[') {
            /* a leading '^' and then a leading ']' belong to the set */
            *to++ = *at;
            if (at[1] == '^')
                *to++ = *++at;
            if (at[1] == ']')
                *to++ = *++at;
            in_bracket = true;
        } else {
            *to++ = *at;
        }
    }
    *to = '\0';
    return out;
}

/* glibc compiles x+ as x x*, a copy of x's tree, so a + over a group
 * that holds a + copies that copy: nested n deep, 2^n copies (a fuzzed
 * manifest's 72 +'s in a row took gigabytes).  cmsys refuses a repetition
 * of a repetition ("nested *?+"), as here; nesting through groups is
 * capped, far above what a test's pattern needs. */
enum { MAX_REPEAT_NESTING = 8, MAX_GROUP_NESTING = 64 };

/* Why pattern cannot be compiled safely, or NULL. */
static const char *repetition_problem(const char *pattern)
{
    unsigned group_max[MAX_GROUP_NESTING + 1] = {0}; /* per open group: the deepest + nesting inside */
    size_t groups = 0;
    unsigned atom_level = 0; /* the + nesting of the last atom */
    bool after_repeat = false;
    for (const char *at = pattern; *at; at++) {
        bool repeat = *at == '*' || *at == '+' || *at == '?';
        if (repeat && after_repeat)
            return "nested *?+";
        if (*at == '+' && ++atom_level > MAX_REPEAT_NESTING)
            return "+ repetitions nested too deep";
        if (repeat && atom_level > group_max[groups])
            group_max[groups] = atom_level;
        after_repeat = repeat;
        if (repeat)
            continue;
        atom_level = 0;
        if (*at == '\\' && at[1]) {
            at++;
        } else if (*at == '[') {
            at += at[1] == '^';
            at += at[1] == ']';
            while (at[1] && at[1] != ']')
                at++;
            at += at[1] == ']';
        } else if (*at == '(') {
            if (++groups > MAX_GROUP_NESTING)
                return "groups nested too deep";
            group_max[groups] = 0;
        } else if (*at == ')' && groups > 0) {
            atom_level = group_max[groups--];
            if (atom_level > group_max[groups])
                group_max[groups] = atom_level;
        }
    }
    return NULL;
}

static culprit_status compile_pattern(const char *property, const char *pattern, regex_t *regex,
                                      culprit_error *err)
{
    const char *problem = repetition_problem(pattern);
    if (problem)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s '%s' is not a valid regular expression: %s",
                            property, pattern, problem);
    char *ere = ere_from_ctest(pattern);
    if (!ere)
        return culprit_fail_memory(err);
    int code = regcomp(regex, ere, REG_EXTENDED | REG_NOSUB);
    free(ere);
    if (code == 0)
        return CULPRIT_OK;
    char reason[200];
    regerror(code, regex, reason, sizeof reason);
    return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s '%s' is not a valid regular expression: %s", property,
                        pattern, reason);
}

/* *found: the first of patterns that matches output, or NULL. */
static culprit_status find_pattern(const char *property, const char *const *patterns, size_t count,
                                   const char *output, const char **found, culprit_error *err)
{
    *found = NULL;
    for (size_t i = 0; i < count && !*found; i++) {
        regex_t regex;
        culprit_status status = compile_pattern(property, patterns[i], &regex, err);
        if (status != CULPRIT_OK)
            return status;
        if (regexec(&regex, output, 0, NULL, 0) == 0)
            *found = patterns[i];
        regfree(&regex);
    }
    return CULPRIT_OK;
}

/* The first pattern of each property that matches output (or NULL). */
typedef struct found_patterns {
    const char *pass, *fail, *skip;
} found_patterns;

static culprit_status find_patterns(const culprit_ctest_rules *rules, const char *output,
                                    found_patterns *found, culprit_error *err)
{
    culprit_status status = find_pattern("PASS_REGULAR_EXPRESSION", rules->pass_regex,
                                         rules->pass_regex_count, output, &found->pass, err);
    if (status == CULPRIT_OK)
        status = find_pattern("FAIL_REGULAR_EXPRESSION", rules->fail_regex, rules->fail_regex_count, output,
                              &found->fail, err);
    if (status == CULPRIT_OK)
        status = find_pattern("SKIP_REGULAR_EXPRESSION", rules->skip_regex, rules->skip_regex_count, output,
                              &found->skip, err);
    return status;
}

culprit_status oracle_check_ctest(const culprit_ctest_rules *rules, culprit_error *err)
{
    found_patterns found;
    return find_patterns(rules, "", &found, err);
}

culprit_status oracle_check_ctest_pattern(const char *property, const char *pattern, culprit_error *err)
{
    regex_t regex;
    culprit_status status = compile_pattern(property, pattern, &regex, err);
    if (status == CULPRIT_OK)
        regfree(&regex);
    return status;
}

static void set_message(oracle_outcome *outcome, culprit_verdict verdict, const char *message)
{
    outcome->verdict = verdict;
    snprintf(outcome->message, sizeof outcome->message, "%s", message);
}

/* "'A' or 'B'": the patterns of a property, for a message. */
static void list_patterns(const char *const *patterns, size_t count, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < count && used < size; i++) {
        int written = snprintf(out + used, size - used, "%s'%s'", i ? " or " : "", patterns[i]);
        if (written < 0)
            break;
        used += (size_t)written;
    }
}

culprit_status oracle_judge_ctest(const culprit_ctest_rules *rules, int exit_status, const char *out,
                                  const char *errors, oracle_outcome *outcome, culprit_error *err)
{
    /* stdout, then stderr: CTest's one stream, in the order of a program
     * that writes its stdout before it fails */
    size_t out_length = out ? strlen(out) : 0, errors_length = errors ? strlen(errors) : 0;
    char *output = malloc(out_length + errors_length + 1);
    if (!output)
        return culprit_fail_memory(err);
    memcpy(output, out ? out : "", out_length);
    memcpy(output + out_length, errors ? errors : "", errors_length + 1);
    found_patterns found;
    culprit_status status = find_patterns(rules, output, &found, err);
    free(output);
    if (status != CULPRIT_OK)
        return status;
    const char *pass = found.pass, *fail = found.fail, *skip = found.skip;
    char reason[ORACLE_MESSAGE_SIZE], patterns[ORACLE_MESSAGE_SIZE - 64];
    bool failed = true;
    if (fail) {
        snprintf(reason, sizeof reason, "FAIL_REGULAR_EXPRESSION '%.400s' found in the output", fail);
    } else if (rules->pass_regex_count && !pass) {
        list_patterns(rules->pass_regex, rules->pass_regex_count, patterns, sizeof patterns);
        snprintf(reason, sizeof reason, "PASS_REGULAR_EXPRESSION %s not found in the output", patterns);
    } else if (exit_status != 0 && !rules->pass_regex_count) {
        snprintf(reason, sizeof reason, "exit status %d, expected 0", exit_status);
    } else if (pass) {
        failed = false;
        snprintf(reason, sizeof reason, "PASS_REGULAR_EXPRESSION '%.400s' found in the output", pass);
    } else {
        failed = false;
        snprintf(reason, sizeof reason, "exit status %d", exit_status);
    }
    char message[ORACLE_MESSAGE_SIZE];
    if (rules->has_skip_exit && exit_status == rules->skip_exit) {
        snprintf(message, sizeof message, "skipped (SKIP_RETURN_CODE %d)", exit_status);
        set_message(outcome, CULPRIT_VERDICT_SKIP, message);
    } else if (skip) {
        snprintf(message, sizeof message, "skipped: SKIP_REGULAR_EXPRESSION '%.400s' found in the output",
                 skip);
        set_message(outcome, CULPRIT_VERDICT_SKIP, message);
    } else if (rules->will_fail && failed) {
        snprintf(message, sizeof message, "failed as expected (WILL_FAIL): %.400s", reason);
        set_message(outcome, CULPRIT_VERDICT_PASS, message);
    } else if (rules->will_fail) {
        snprintf(message, sizeof message, "passed, but WILL_FAIL expects a failure (%.400s)", reason);
        set_message(outcome, CULPRIT_VERDICT_FAIL, message);
    } else {
        set_message(outcome, failed ? CULPRIT_VERDICT_FAIL : CULPRIT_VERDICT_PASS, failed ? reason : "");
    }
    return CULPRIT_OK;
}
