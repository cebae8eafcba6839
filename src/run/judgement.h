/*
 * judgement.h - reading back what the oracle recorded: per test its
 * verdict, run, message, signature and wrong output lines (for
 * `culprit tests`); which statements wrote each line of its stdout
 * (Apollo's P_n(o), TECHNIQUES.md §3, for `culprit output` and the output
 * mapping technique); and clusters of equivalent failures (for
 * `culprit failures`).
 *
 * Writing is culprit_store_save_judgement (include/culprit/oracle.h).  The
 * store side (src/store/judgement.c) reads rows; the mapping and clustering
 * (src/run/judgement_output.c, judgement_cluster.c) work on what it read.
 * Library code: errors are returned, nothing prints.
 */
#ifndef CULPRIT_RUN_JUDGEMENT_H
#define CULPRIT_RUN_JUDGEMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "culprit/collect.h"
#include "culprit/error.h"
#include "culprit/spectra.h"
#include "culprit/store.h"

/* ---- one row per test (src/store/judgement.c) ---- */

typedef struct culprit_test_record {
    int64_t id;
    char *name; /* owned */
    culprit_verdict verdict;
    double duration_seconds; /* negative when unknown */
    bool has_run;            /* a collector recorded how the command ended */
    int exit_status;         /* -1 when killed by a signal or unknown */
    int signal;              /* 0 when it exited */
    char *crash_site;        /* owned "file:line (function)" of the crash, NULL when none */
    bool judged;             /* the oracle's judgement is stored */
    char *message;           /* owned; the oracle's, or one made from the run; "" for a pass */
    char *signature;         /* owned; likewise */
    size_t wrong_line_count;
    uint32_t *wrong_lines; /* owned, ascending, 1-based */
} culprit_test_record;

typedef struct culprit_test_records {
    size_t count;
    culprit_test_record *tests; /* owned, in the order tests were first saved */
} culprit_test_records;

/* Loads every test of program_id with its run and judgement.  Tests
 * without a judgement (imported, or recorded before schema version 3) get
 * a message and signature made from their verdict, exit status and crash. */
culprit_status culprit_store_load_test_records(culprit_store *store, int64_t program_id,
                                               culprit_test_records *records, culprit_error *err);
void culprit_test_records_free(culprit_test_records *records);

/* ---- what one test wrote (src/store/judgement.c) ---- */

typedef struct culprit_test_output {
    int64_t test_id;
    bool has_records;       /* a collector recorded output records */
    culprit_unit_set units; /* the test's units, sorted by hash: frames index them */
    size_t record_count;
    culprit_output_record *records; /* owned; sorted by stream, pid, offset */
    bool has_text;                  /* the judgement kept stdout */
    char *text;                     /* owned, NUL-terminated */
    size_t text_size;
    bool text_truncated; /* stdout was longer than text */
} culprit_test_output;

/* Loads the output records, unit maps and kept stdout of test_name in
 * program_id.  A missing test is an input error naming it. */
culprit_status culprit_store_load_test_output(culprit_store *store, int64_t program_id, const char *test_name,
                                              culprit_test_output *output, culprit_error *err);
void culprit_test_output_free(culprit_test_output *output);

/* ---- P_n(o): the statements that wrote each output line
 *      (src/run/judgement_output.c) ---- */

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
culprit_status culprit_output_statements(culprit_store *store, int64_t program_id, const char *test_name,
                                         culprit_output_map *map, culprit_error *err);
/* The same over already loaded output (takes ownership of *output). */
culprit_status culprit_output_map_build(culprit_test_output *output, culprit_output_map *map,
                                        culprit_error *err);
void culprit_output_map_free(culprit_output_map *map);

/* ---- clusters of equivalent failures (src/run/judgement_cluster.c) ---- */

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
culprit_status culprit_failure_clusters_load(culprit_store *store, int64_t program_id,
                                             culprit_failure_clusters *clusters, culprit_error *err);
void culprit_failure_clusters_free(culprit_failure_clusters *clusters);

#endif
