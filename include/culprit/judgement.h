/*
 * judgement.h - what the judgements of a program's tests say, read back
 * from the store (src/judgement/): per test its verdict, run, message,
 * signature and wrong output lines, worded for every test (for
 * `culprit tests`); which statements wrote each line of its stdout
 * (Apollo's P_n(o), TECHNIQUES.md §3, for `culprit output` and the output
 * mapping technique); and clusters of equivalent failures (for
 * `culprit failures`, S_comb and reports).
 *
 * The oracle makes judgements (culprit/oracle.h) and the store keeps them
 * (culprit_store_save_judgement, culprit_store_load_test_records and
 * culprit_store_load_test_output in culprit/store.h); this module only
 * reads.  Library code: errors are returned, nothing prints.
 */
#ifndef CULPRIT_JUDGEMENT_H
#define CULPRIT_JUDGEMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "culprit/error.h"
#include "culprit/program.h"
#include "culprit/spectra.h"
#include "culprit/store.h"

/* ---- every test's record, worded (src/judgement/test_records.c) ---- */

/* culprit_store_load_test_records, with a message and signature for every
 * test that has no judgement (imported, or recorded before schema version
 * 3), made from its verdict, exit status and crash as the oracle words
 * them.  Free with culprit_test_records_free. */
CULPRIT_API culprit_status culprit_test_records_load(culprit_store *store, int64_t program_id,
                                                     culprit_test_records *records, culprit_error *err);

/* ---- P_n(o): the statements that wrote each output line
 *      (src/judgement/output_map.c) ---- */

/* A statement that wrote output: the block of the output call (frame 0 of
 * its record), shown as the block's first source line; last_line is the
 * block's last line (the call is somewhere in between). */
typedef struct culprit_output_statement {
    const char *file;     /* borrowed from the map's units */
    const char *function; /* likewise */
    uint32_t line, last_line;
} culprit_output_statement;

typedef struct culprit_output_line {
    uint32_t number;         /* 1-based */
    uint64_t offset, length; /* bytes of stdout, the '\n' included */
    const char *text;        /* borrowed from the map: the line without '\n'; NULL when not kept */
    size_t text_length;
    size_t first, count; /* its statements: statements[first .. first+count-1], distinct, in order */
} culprit_output_line;

typedef struct culprit_output_map {
    culprit_test_output output; /* owned: what the lines and statements point into */
    bool exact;                 /* one process wrote stdout: offsets are exact (see docs/oracles.md) */
    size_t line_count;
    culprit_output_line *lines;
    size_t statement_count;
    culprit_output_statement *statements;
} culprit_output_map;

/* Maps each line of test_name's stdout to the statements that wrote it.
 * Lines come from the kept stdout; without it, from the records alone
 * (one line per record, text NULL).  Records of several processes are laid
 * end to end in pid order, each process's bytes contiguous. */
CULPRIT_API culprit_status culprit_output_statements(culprit_store *store, int64_t program_id,
                                                     const char *test_name, culprit_output_map *map,
                                                     culprit_error *err);
/* The same over already loaded output (takes ownership of *output). */
CULPRIT_API culprit_status culprit_output_map_build(culprit_test_output *output, culprit_output_map *map,
                                                    culprit_error *err);
CULPRIT_API void culprit_output_map_free(culprit_output_map *map);

/* ---- clusters of equivalent failures (src/judgement/failure_clusters.c) ---- */

typedef struct culprit_failure_cluster {
    char *signature; /* owned */
    size_t statement_count;
    culprit_output_statement *statements; /* owned array; strings owned by the cluster set */
    size_t test_count;
    size_t *tests; /* owned: indexes into the records */
} culprit_failure_cluster;

typedef struct culprit_failure_clusters {
    culprit_test_records records; /* owned: every test of the program */
    size_t count;
    culprit_failure_cluster *clusters; /* largest first, then first test first */
    size_t string_count;
    char **strings; /* owned copies of statement files and functions */
} culprit_failure_clusters;

/* Groups the failing tests (verdict fail, error or timeout) of program_id
 * by signature and by the set of statements that wrote their wrong output
 * lines (TECHNIQUES.md §3: same message, same statements blamed). */
CULPRIT_API culprit_status culprit_failure_clusters_load(culprit_store *store, int64_t program_id,
                                                         culprit_failure_clusters *clusters,
                                                         culprit_error *err);
CULPRIT_API void culprit_failure_clusters_free(culprit_failure_clusters *clusters);

#endif
