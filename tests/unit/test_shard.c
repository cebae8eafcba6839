/*
 * test_shard.c - splitting a suite over machines (culprit/shard.h,
 * docs/sharding.md): FNV-1a's published values, every test in exactly one
 * shard and the shards roughly even, the --shard values and their errors,
 * and the CI variables `auto` reads (GitLab's 1-based CI_NODE_INDEX,
 * Kubernetes' 0-based JOB_COMPLETION_INDEX).
 */
#include <stdio.h>

#include "check.h"
#include "culprit/shard.h"

static const culprit_shard_environment no_variables = {NULL, NULL, NULL};

static void test_hash(void)
{
    /* The reference values of FNV-1a 64 (Fowler, Noll, Vo). */
    CHECK(culprit_shard_hash("") == UINT64_C(0xcbf29ce484222325));
    CHECK(culprit_shard_hash("a") == UINT64_C(0xaf63dc4c8601ec8c));
    CHECK(culprit_shard_hash("foobar") == UINT64_C(0x85944171f73967e8));
}

static void test_split(void)
{
    enum { TESTS = 4000, SHARDS = 4 };
    size_t sizes[SHARDS] = {0};
    bool once = true;
    for (int t = 0; t < TESTS; t++) {
        char name[32];
        snprintf(name, sizeof name, "test_%d", t);
        int holders = 0;
        for (uint32_t k = 1; k <= SHARDS; k++)
            if (culprit_shard_has((culprit_shard){k, SHARDS}, name)) {
                holders++;
                sizes[k - 1]++;
            }
        once &= holders == 1;
        /* no sharding: every test */
        once &= culprit_shard_has((culprit_shard){0, 0}, name);
        /* one shard: every test */
        once &= culprit_shard_has((culprit_shard){1, 1}, name);
    }
    CHECK(once);
    for (int k = 0; k < SHARDS; k++)
        CHECK_RECORD(sizes[k] > TESTS / SHARDS * 8 / 10 && sizes[k] < TESTS / SHARDS * 12 / 10,
                     "shard %d has %zu of %d tests", k + 1, sizes[k], TESTS);
    /* The documented rule, by hand: hash mod N + 1. */
    CHECK(culprit_shard_has((culprit_shard){(uint32_t)(UINT64_C(0x85944171f73967e8) % 7 + 1), 7}, "foobar"));
}

/* Parses text and checks the result, or the error's text. */
static void check_parse(const char *text, const culprit_shard_environment *environment, uint32_t index,
                        uint32_t count)
{
    culprit_shard shard = {9, 9};
    culprit_error err = {0};
    culprit_status status = culprit_shard_parse(text, environment, &shard, &err);
    CHECK_RECORD(status == CULPRIT_OK, "'%s' failed: %s", text, err.message);
    CHECK_RECORD(shard.index == index && shard.count == count, "'%s' gave %u/%u, expected %u/%u", text,
                 (unsigned)shard.index, (unsigned)shard.count, (unsigned)index, (unsigned)count);
}

static void check_refused(const char *text, const culprit_shard_environment *environment, const char *message)
{
    culprit_shard shard = {9, 9};
    culprit_error err = {0};
    CHECK_INT(culprit_shard_parse(text, environment, &shard, &err), CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, message);
    CHECK(shard.index == 0 && shard.count == 0);
}

static void test_parse(void)
{
    check_parse("1/1", &no_variables, 1, 1);
    check_parse("2/4", &no_variables, 2, 4);
    check_parse("4/4", &no_variables, 4, 4);
    check_parse("100000/100000", &no_variables, 100000, 100000);
    static const char expected[] =
        "expected K/N with whole numbers 1 <= K <= N (e.g. 2/4), auto/N or auto (N at most 100000)";
    char message[256];
    const char *bad[] = {"x/y",  "2",    "/4",    "2/",    "-1/4", "+1/4",
                         " 1/4", "1/4 ", "1/4/4", "1.0/4", "",     "100001/100001"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(message, sizeof message, "--shard '%s': %s", bad[i], expected);
        check_refused(bad[i], &no_variables, message);
    }
    check_refused("0/0", &no_variables, "--shard '0/0': the shard count N must be at least 1");
    check_refused("1/0", &no_variables, "--shard '1/0': the shard count N must be at least 1");
    check_refused("5/4", &no_variables,
                  "--shard '5/4': shard 5 is not a shard of 4: shards are numbered 1 to 4");
    check_refused("0/4", &no_variables,
                  "--shard '0/4': shard 0 is not a shard of 4: shards are numbered 1 to 4");
}

static void test_environment(void)
{
    culprit_shard_environment gitlab = {.ci_node_index = "3", .ci_node_total = "5"};
    check_parse("auto", &gitlab, 3, 5);
    check_parse("auto/5", &gitlab, 3, 5);
    check_refused("auto/4", &gitlab, "--shard 'auto/4': CI_NODE_TOTAL is 5, not 4");
    culprit_shard_environment kubernetes = {.job_completion_index = "0"};
    check_parse("auto/4", &kubernetes, 1, 4);
    kubernetes.job_completion_index = "3";
    check_parse("auto/4", &kubernetes, 4, 4);
    check_refused(
        "auto/3", &kubernetes,
        "--shard 'auto/3': JOB_COMPLETION_INDEX 3 is not below the shard count 3 (it counts from 0)");
    check_refused("auto", &kubernetes,
                  "--shard 'auto': needs CI_NODE_INDEX and CI_NODE_TOTAL; give the count as auto/N"
                  " (JOB_COMPLETION_INDEX has none) or the shard as K/N");
    /* CI_NODE_INDEX wins over JOB_COMPLETION_INDEX. */
    culprit_shard_environment both = {.ci_node_index = "2", .job_completion_index = "0"};
    check_parse("auto/2", &both, 2, 2);
    check_refused("auto", &both,
                  "--shard 'auto': needs CI_NODE_INDEX and CI_NODE_TOTAL (CI_NODE_TOTAL is not set); give the"
                  " count as auto/N (JOB_COMPLETION_INDEX has none) or the shard as K/N");
    check_refused(
        "auto/4", &no_variables,
        "--shard 'auto/4': neither CI_NODE_INDEX nor JOB_COMPLETION_INDEX is set; give the shard as K/N");
    check_refused("auto/0", &gitlab, "--shard 'auto/0': the shard count N must be at least 1");
    culprit_shard_environment zero = {.ci_node_index = "0", .ci_node_total = "4"};
    check_refused("auto", &zero,
                  "--shard 'auto': CI_NODE_INDEX=0 is not a shard of 4: shards are numbered 1 to 4");
    culprit_shard_environment junk = {.ci_node_index = "two", .ci_node_total = "4"};
    check_refused("auto", &junk, "--shard 'auto': CI_NODE_INDEX='two' is not a whole number up to 100000");
    culprit_shard_environment no_total = {.ci_node_index = "1", .ci_node_total = "0"};
    check_refused("auto", &no_total, "--shard 'auto': CI_NODE_TOTAL must be at least 1");
}

int main(void)
{
    test_hash();
    test_split();
    test_parse();
    test_environment();
    return check_report("shard");
}
