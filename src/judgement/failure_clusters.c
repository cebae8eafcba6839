/*
 * judgement_cluster.c - failure clustering (TECHNIQUES.md §3, Apollo
 * §4.4): two failures are equivalent when their signatures (oracle message
 * + crash site, normalized) are equal and the output mapping blames the
 * same statements for their wrong output lines.  Each cluster is one bug
 * to localize on its own.
 *
 * A failing test's blamed statements are the union over its wrong lines o
 * of P_n(o) (judgement_output.c); a failure with no wrong lines, or no
 * output records, blames none, and clusters by signature alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "culprit/judgement.h"

static bool failing(culprit_verdict verdict)
{
    return verdict == CULPRIT_VERDICT_FAIL || verdict == CULPRIT_VERDICT_ERROR ||
           verdict == CULPRIT_VERDICT_TIMEOUT;
}

static int compare_statements(const void *a, const void *b)
{
    const culprit_output_statement *x = a, *y = b;
    int by_file = strcmp(x->file, y->file);
    if (by_file)
        return by_file;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    if (x->last_line != y->last_line)
        return x->last_line < y->last_line ? -1 : 1;
    return strcmp(x->function, y->function);
}

/* Statements blamed for a test's wrong lines: sorted, distinct, borrowed
 * from map. */
static culprit_status blamed_statements(const culprit_output_map *map, const culprit_test_record *record,
                                        culprit_output_statement **statements, size_t *count,
                                        culprit_error *err)
{
    *count = 0;
    *statements = malloc((map->statement_count ? map->statement_count : 1) * sizeof **statements);
    if (!*statements)
        return culprit_fail_memory(err);
    for (size_t w = 0; w < record->wrong_line_count; w++) {
        uint32_t number = record->wrong_lines[w];
        if (number == 0 || number > map->line_count)
            continue;
        const culprit_output_line *line = &map->lines[number - 1];
        for (size_t s = line->first; s < line->first + line->count; s++)
            (*statements)[(*count)++] = map->statements[s];
    }
    qsort(*statements, *count, sizeof **statements, compare_statements);
    size_t kept = 0;
    for (size_t i = 0; i < *count; i++)
        if (kept == 0 || compare_statements(&(*statements)[i], &(*statements)[kept - 1]) != 0)
            (*statements)[kept++] = (*statements)[i];
    *count = kept;
    return CULPRIT_OK;
}

static char *keep_string(culprit_failure_clusters *clusters, const char *text)
{
    char **grown = realloc(clusters->strings, (clusters->string_count + 1) * sizeof *grown);
    if (!grown)
        return NULL;
    clusters->strings = grown;
    char *copy = strdup(text);
    if (copy)
        clusters->strings[clusters->string_count++] = copy;
    return copy;
}

static bool same_key(const culprit_failure_cluster *cluster, const char *signature,
                     const culprit_output_statement *statements, size_t count)
{
    if (strcmp(cluster->signature, signature) != 0 || cluster->statement_count != count)
        return false;
    for (size_t i = 0; i < count; i++)
        if (compare_statements(&cluster->statements[i], &statements[i]) != 0)
            return false;
    return true;
}

/* A new cluster owning copies of the statements. */
static culprit_status new_cluster(culprit_failure_clusters *clusters, const char *signature,
                                  const culprit_output_statement *statements, size_t count,
                                  culprit_error *err)
{
    culprit_failure_cluster *grown = realloc(clusters->clusters, (clusters->count + 1) * sizeof *grown);
    if (!grown)
        return culprit_fail_memory(err);
    clusters->clusters = grown;
    culprit_failure_cluster *cluster = &clusters->clusters[clusters->count++];
    *cluster = (culprit_failure_cluster){.signature = strdup(signature)};
    cluster->statements = malloc((count ? count : 1) * sizeof *cluster->statements);
    if (!cluster->signature || !cluster->statements)
        return culprit_fail_memory(err);
    for (size_t i = 0; i < count; i++) {
        cluster->statements[i] = statements[i];
        cluster->statements[i].file = keep_string(clusters, statements[i].file);
        cluster->statements[i].function = keep_string(clusters, statements[i].function);
        if (!cluster->statements[i].file || !cluster->statements[i].function)
            return culprit_fail_memory(err);
        cluster->statement_count++;
    }
    return CULPRIT_OK;
}

static culprit_status add_to_cluster(culprit_failure_clusters *clusters, size_t test,
                                     const culprit_output_statement *statements, size_t count,
                                     culprit_error *err)
{
    const char *signature = clusters->records.tests[test].signature;
    size_t c = 0;
    while (c < clusters->count && !same_key(&clusters->clusters[c], signature, statements, count))
        c++;
    if (c == clusters->count) {
        culprit_status status = new_cluster(clusters, signature, statements, count, err);
        if (status != CULPRIT_OK)
            return status;
    }
    culprit_failure_cluster *cluster = &clusters->clusters[c];
    size_t *grown = realloc(cluster->tests, (cluster->test_count + 1) * sizeof *grown);
    if (!grown)
        return culprit_fail_memory(err);
    cluster->tests = grown;
    cluster->tests[cluster->test_count++] = test;
    return CULPRIT_OK;
}

static culprit_status cluster_test(culprit_store *store, int64_t program_id,
                                   culprit_failure_clusters *clusters, size_t test, culprit_error *err)
{
    const culprit_test_record *record = &clusters->records.tests[test];
    culprit_output_map map = {0};
    culprit_output_statement *statements = NULL;
    size_t count = 0;
    culprit_status status = CULPRIT_OK;
    if (record->wrong_line_count > 0)
        status = culprit_output_statements(store, program_id, record->name, &map, err);
    if (status == CULPRIT_OK)
        status = blamed_statements(&map, record, &statements, &count, err);
    if (status == CULPRIT_OK)
        status = add_to_cluster(clusters, test, statements, count, err);
    free(statements);
    if (record->wrong_line_count > 0)
        culprit_output_map_free(&map);
    return status;
}

static int compare_clusters(const void *a, const void *b)
{
    const culprit_failure_cluster *x = a, *y = b;
    if (x->test_count != y->test_count)
        return x->test_count > y->test_count ? -1 : 1;
    return (x->tests[0] > y->tests[0]) - (x->tests[0] < y->tests[0]);
}

culprit_status culprit_failure_clusters_load(culprit_store *store, int64_t program_id,
                                             culprit_failure_clusters *clusters, culprit_error *err)
{
    *clusters = (culprit_failure_clusters){0};
    culprit_status status = culprit_test_records_load(store, program_id, &clusters->records, err);
    for (size_t t = 0; status == CULPRIT_OK && t < clusters->records.count; t++)
        if (failing(clusters->records.tests[t].verdict))
            status = cluster_test(store, program_id, clusters, t, err);
    if (status == CULPRIT_OK && clusters->count > 1)
        qsort(clusters->clusters, clusters->count, sizeof *clusters->clusters, compare_clusters);
    if (status != CULPRIT_OK)
        culprit_failure_clusters_free(clusters);
    return status;
}

void culprit_failure_clusters_free(culprit_failure_clusters *clusters)
{
    for (size_t c = 0; c < clusters->count; c++) {
        free(clusters->clusters[c].signature);
        free(clusters->clusters[c].statements);
        free(clusters->clusters[c].tests);
    }
    free(clusters->clusters);
    for (size_t s = 0; s < clusters->string_count; s++)
        free(clusters->strings[s]);
    free(clusters->strings);
    culprit_test_records_free(&clusters->records);
    *clusters = (culprit_failure_clusters){0};
}
