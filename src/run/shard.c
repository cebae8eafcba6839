/*
 * shard.c - which tests one machine of several runs (culprit/shard.h,
 * docs/sharding.md): the --shard value, from the command line or from the
 * CI system's variables, and the split by a hash of the test's name.
 *
 * Pure: the caller reads the environment and hands the values in, so the
 * unit tests (tests/unit/test_shard.c) try every variable without setenv.
 */
#include "culprit/shard.h"

#include <string.h>

#include "core/fnv.h"

enum { QUOTE_LIMIT = 64 }; /* what an error message quotes of a bad value */

static const char expected[] = "expected K/N with whole numbers 1 <= K <= N (e.g. 2/4), auto/N or auto";

uint64_t culprit_shard_hash(const char *name)
{
    return culprit_fnv1a(CULPRIT_FNV1A_START, name, strlen(name));
}

bool culprit_shard_has(culprit_shard shard, const char *name)
{
    return shard.count == 0 || culprit_shard_hash(name) % shard.count + 1 == shard.index;
}

/* Reads the whole number that makes up text[0..length): digits only, at
 * most CULPRIT_SHARD_MAX.  False for anything else. */
static bool read_number(const char *text, size_t length, uint32_t *value)
{
    if (length == 0)
        return false;
    uint64_t number = 0;
    for (size_t i = 0; i < length; i++) {
        if (text[i] < '0' || text[i] > '9')
            return false;
        number = number * 10 + (uint64_t)(text[i] - '0');
        if (number > CULPRIT_SHARD_MAX)
            return false;
    }
    *value = (uint32_t)number;
    return true;
}

static culprit_status bad_value(const char *text, culprit_error *err)
{
    return culprit_fail(err, CULPRIT_ERROR_INPUT, "--shard '%.*s': %s (N at most %d)", QUOTE_LIMIT, text,
                        expected, CULPRIT_SHARD_MAX);
}

/* Checks 1 <= index <= count; source says where index came from. */
static culprit_status check_range(const char *text, const char *source, uint32_t index, uint32_t count,
                                  culprit_error *err)
{
    if (count == 0)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "--shard '%.*s': the shard count N must be at least 1",
                            QUOTE_LIMIT, text);
    if (index >= 1 && index <= count)
        return CULPRIT_OK;
    return culprit_fail(err, CULPRIT_ERROR_INPUT,
                        "--shard '%.*s': %s%s%u is not a shard of %u: shards are numbered 1 to %u",
                        QUOTE_LIMIT, text, source ? source : "shard", source ? "=" : " ", (unsigned)index,
                        (unsigned)count, (unsigned)count);
}

/* A variable's value as a number, or an error naming it. */
static culprit_status read_variable(const char *text, const char *name, const char *value, uint32_t *number,
                                    culprit_error *err)
{
    if (read_number(value, strlen(value), number))
        return CULPRIT_OK;
    return culprit_fail(err, CULPRIT_ERROR_INPUT, "--shard '%.*s': %s='%.*s' is not a whole number up to %d",
                        QUOTE_LIMIT, text, name, QUOTE_LIMIT, value, CULPRIT_SHARD_MAX);
}

/* The 1-based index from the environment: CI_NODE_INDEX first, then
 * JOB_COMPLETION_INDEX, which counts from 0. */
static culprit_status index_from_environment(const char *text, const culprit_shard_environment *environment,
                                             uint32_t count, culprit_shard *shard, culprit_error *err)
{
    if (environment->ci_node_index) {
        culprit_status status =
            read_variable(text, "CI_NODE_INDEX", environment->ci_node_index, &shard->index, err);
        uint32_t total = 0;
        if (status == CULPRIT_OK && environment->ci_node_total)
            status = read_variable(text, "CI_NODE_TOTAL", environment->ci_node_total, &total, err);
        if (status == CULPRIT_OK && environment->ci_node_total && total != count)
            return culprit_fail(err, CULPRIT_ERROR_INPUT, "--shard '%.*s': CI_NODE_TOTAL is %u, not %u",
                                QUOTE_LIMIT, text, (unsigned)total, (unsigned)count);
        return status == CULPRIT_OK ? check_range(text, "CI_NODE_INDEX", shard->index, count, err) : status;
    }
    if (environment->job_completion_index) {
        uint32_t index;
        culprit_status status =
            read_variable(text, "JOB_COMPLETION_INDEX", environment->job_completion_index, &index, err);
        if (status != CULPRIT_OK)
            return status;
        if (index >= count)
            return culprit_fail(err, CULPRIT_ERROR_INPUT,
                                "--shard '%.*s': JOB_COMPLETION_INDEX %u is not below the shard count %u"
                                " (it counts from 0)",
                                QUOTE_LIMIT, text, (unsigned)index, (unsigned)count);
        shard->index = index + 1;
        return CULPRIT_OK;
    }
    return culprit_fail(err, CULPRIT_ERROR_INPUT,
                        "--shard '%.*s': neither CI_NODE_INDEX nor JOB_COMPLETION_INDEX is set;"
                        " give the shard as K/N",
                        QUOTE_LIMIT, text);
}

/* "auto": both numbers from GitLab's variables. */
static culprit_status parse_auto(const culprit_shard_environment *environment, culprit_shard *shard,
                                 culprit_error *err)
{
    if (!environment->ci_node_index || !environment->ci_node_total)
        return culprit_fail(err, CULPRIT_ERROR_INPUT,
                            "--shard 'auto': needs CI_NODE_INDEX and CI_NODE_TOTAL%s;"
                            " give the count as auto/N (JOB_COMPLETION_INDEX has none) or the shard as K/N",
                            environment->ci_node_index ? " (CI_NODE_TOTAL is not set)" : "");
    culprit_status status =
        read_variable("auto", "CI_NODE_TOTAL", environment->ci_node_total, &shard->count, err);
    if (status == CULPRIT_OK && shard->count == 0)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "--shard 'auto': CI_NODE_TOTAL must be at least 1");
    if (status == CULPRIT_OK)
        status = index_from_environment("auto", environment, shard->count, shard, err);
    return status;
}

culprit_status culprit_shard_parse(const char *text, const culprit_shard_environment *environment,
                                   culprit_shard *shard, culprit_error *err)
{
    *shard = (culprit_shard){0, 0};
    culprit_shard parsed = {0, 0};
    culprit_status status;
    const char *slash = strchr(text, '/');
    if (strcmp(text, "auto") == 0) {
        status = parse_auto(environment, &parsed, err);
    } else if (!slash || !read_number(slash + 1, strlen(slash + 1), &parsed.count)) {
        return bad_value(text, err);
    } else if ((size_t)(slash - text) == 4 && strncmp(text, "auto", 4) == 0) {
        status = parsed.count == 0 ? check_range(text, NULL, 0, 0, err)
                                   : index_from_environment(text, environment, parsed.count, &parsed, err);
    } else if (!read_number(text, (size_t)(slash - text), &parsed.index)) {
        return bad_value(text, err);
    } else {
        status = check_range(text, NULL, parsed.index, parsed.count, err);
    }
    if (status == CULPRIT_OK)
        *shard = parsed;
    return status;
}
