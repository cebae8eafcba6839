/*
 * shard.h - splitting a test suite over several machines (`culprit run
 * --shard K/N`, docs/sharding.md).
 *
 * A test belongs to shard FNV-1a-64(name) mod N + 1: the split depends on
 * the test's name alone, not on the manifest's order or on the other
 * tests, so every machine computes the same split, a test keeps its shard
 * when others are added, and N shards together run every test exactly
 * once.  Shards are numbered 1..N, as GitLab's CI_NODE_INDEX is;
 * Kubernetes' JOB_COMPLETION_INDEX (0-based) is converted.
 */
#ifndef CULPRIT_SHARD_H
#define CULPRIT_SHARD_H

#include <stdbool.h>
#include <stdint.h>

#include "culprit/error.h"

/* Shard index of count, 1-based; count 0 means the whole suite. */
typedef struct culprit_shard {
    uint32_t index, count;
} culprit_shard;

/* The most shards a suite may be split into. */
enum { CULPRIT_SHARD_MAX = 100000 };

/* The variables `--shard auto` reads, NULL when unset (the caller reads
 * the environment; the parser stays pure). */
typedef struct culprit_shard_environment {
    const char *ci_node_index;        /* CI_NODE_INDEX: 1-based (GitLab CI's parallel jobs) */
    const char *ci_node_total;        /* CI_NODE_TOTAL */
    const char *job_completion_index; /* JOB_COMPLETION_INDEX: 0-based (Kubernetes Indexed Jobs) */
} culprit_shard_environment;

/* Parses a --shard value: "K/N" (1 <= K <= N <= CULPRIT_SHARD_MAX),
 * "auto/N" (K from CI_NODE_INDEX, else JOB_COMPLETION_INDEX + 1) or
 * "auto" (K and N from CI_NODE_INDEX and CI_NODE_TOTAL).  Every problem is
 * an input error that names the value and what was expected. */
CULPRIT_API culprit_status culprit_shard_parse(const char *text, const culprit_shard_environment *environment,
                                               culprit_shard *shard, culprit_error *err);

/* FNV-1a, 64 bits, of the name's bytes (without the NUL). */
CULPRIT_API uint64_t culprit_shard_hash(const char *name);

/* Whether the test called name runs in shard (always, for count 0). */
CULPRIT_API bool culprit_shard_has(culprit_shard shard, const char *name);

#endif
