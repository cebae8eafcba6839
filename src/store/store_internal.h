/*
 * store_internal.h - what the files of src/store/ share; not part of the
 * public API (include/culprit/store.h is).
 *
 * The store is split by concern:
 *   store.c      locating and opening the database (directory, file checks,
 *                connection settings), closing it
 *   identify.c   deciding whether a database is a culprit store, and which
 *                schema version it has, without writing anything
 *   schema.c     the schema and the table of migrations between versions
 *   sql.c        statement and transaction helpers; SQLite errors -> messages
 *   blob.c       the byte encodings of hit rows and sparse counts
 *   programs.c   saving, finding and selecting programs
 *   tests.c      saving one test per transaction
 *   collected.c  saving a collected test (src/collect/): unit maps, raw
 *                per-unit counts, run details
 *   program_evolution.c  which program a collected test lands in (§6 of
 *                docs/collector.md), and a program's stored units
 *   graph_load.c  a stored program's graph and crash stacks, and its
 *                structure (maps and crash texts) for export
 *   imported.c   saving an imported program whole, with its structure
 *   load.c       loading a program and its tests into a culprit_spectra
 *   merge.c      copying the shards' stores of one suite into one
 *   judgement.c  saving the oracle's judgement of a test (schema version 3)
 *   judgement_load.c  reading tests with their runs and judgements, and a
 *                test's output records, units and kept stdout
 *   difference_blob.c  the encoding of a judgement's differences (expected
 *                against actual lines, schema version 4)
 * docs/store.md describes the resulting database for users.
 */
#ifndef CULPRIT_STORE_INTERNAL_H
#define CULPRIT_STORE_INTERNAL_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "culprit/store.h"

/* PRAGMA application_id of every culprit database: "CULP" in ASCII. */
enum { CULPRIT_STORE_APPLICATION_ID = 0x43554c50 };

/* The database file inside the store directory. */
#define CULPRIT_STORE_DATABASE_NAME "culprit.db"

/* An open connection.  Also used, on the stack, for the short-lived
 * connections that culprit_store_open makes to check and migrate a database
 * before the real one is opened. */
/* Statements kept prepared for the connection's lifetime (sql.c). */
typedef struct culprit_kept_statements culprit_kept_statements;
/* The counting plan of the program the last collected test was saved in (program_plans.c). */
typedef struct culprit_program_cache culprit_program_cache;

struct culprit_store {
    sqlite3 *database;
    char *path; /* owned: DIRECTORY/culprit.db, the first word of every message */
    /* owned, may be NULL: a cache, so it changes nothing a reader of a
     * const culprit_store could see, which is why it sits behind a pointer */
    culprit_kept_statements *kept;
    culprit_program_cache *program_cache; /* owned, may be NULL: also a cache */
    bool keep_log;                        /* culprit_store_keep_log */
    int log_frames;                       /* pages in the log after our last commit */
};

/* ---- sql.c ---- */

/* Turns a failed SQLite call into err: corruption and "not a database" get
 * the messages of docs/store.md, anything else says what was being done
 * ("saving test 'x'") and SQLite's message.  Returns the status set. */
culprit_status culprit_store_sqlite_error(const culprit_store *store, int code, const char *doing,
                                          culprit_error *err);
culprit_status culprit_store_prepare(const culprit_store *store, const char *sql, sqlite3_stmt **statement,
                                     culprit_error *err);
/* Like culprit_store_prepare, but the statement stays prepared for the
 * next call with the same SQL: parsing SQL is most of the cost of the few
 * rows a recorded test writes.  Give it back with culprit_store_release,
 * never sqlite3_finalize.  A statement still in use (nested calls) makes
 * the next caller get a fresh one, which release then finalizes. */
culprit_status culprit_store_prepare_kept(const culprit_store *store, const char *sql,
                                          sqlite3_stmt **statement, culprit_error *err);
void culprit_store_release(const culprit_store *store, sqlite3_stmt *statement);
/* Finalizes every kept statement (before the connection closes). */
void culprit_store_forget_kept(culprit_store *store);
/* Runs SQL that returns no rows (several statements allowed). */
culprit_status culprit_store_execute(const culprit_store *store, const char *sql, const char *doing,
                                     culprit_error *err);
/* Runs SQL whose first row's first column is an integer (e.g. a PRAGMA). */
culprit_status culprit_store_query_integer(const culprit_store *store, const char *sql, int64_t *value,
                                           culprit_error *err);
/* BEGIN IMMEDIATE when writing (takes the write lock up front, so a busy
 * writer makes us wait in the busy handler instead of failing later), plain
 * BEGIN for a consistent read snapshot. */
culprit_status culprit_store_begin(const culprit_store *store, bool write, culprit_error *err);
culprit_status culprit_store_commit(const culprit_store *store, culprit_error *err);
/* Abandons the open transaction, if any; used on error paths, where the
 * first error is the one worth reporting, so it reports nothing itself. */
void culprit_store_rollback(const culprit_store *store);

/* ---- collected.c ---- */

/* Inserts a unit's map into units, unless that unit is there already. */
culprit_status culprit_store_insert_unit(const culprit_store *store, const culprit_unit *unit,
                                         culprit_error *err);

/* Inserts what a collected test recorded besides its hits: its raw
 * per-unit counts and its run (exit, signal, crash stack, output records). */
culprit_status culprit_store_insert_test_details(const culprit_store *store, int64_t test_id,
                                                 const culprit_collected_test *test, culprit_error *err);

/* ---- program_evolution.c ---- */

/* Saves test in the program §6 chooses, inside the caller's write
 * transaction, after its units' maps are inserted: grows or starts the
 * program, re-expresses earlier tests, saves the test's hits and details
 * and makes the program current. */
culprit_status culprit_store_save_in_evolved_program(const culprit_store *store,
                                                     const culprit_collected_test *test,
                                                     culprit_saved_test *saved, culprit_error *err);
/* Whether two programs of the store can be united: both assembled by a
 * collector, and no unit of from a rebuild of one of into's (another
 * build: they must not mix). */
culprit_status culprit_store_can_unite_programs(const culprit_store *store, int64_t into, int64_t from,
                                                bool *possible, culprit_error *err);
/* Unites two such programs inside the caller's write transaction, as §6
 * grows a program for a test that brings new units: assembles the program
 * of the union of their units (or finds it), moves the tests of both into
 * it, re-expressed from their raw counts, and drops the two.  Their test
 * names must differ (of a name in both, the test of `into` is kept). */
culprit_status culprit_store_unite_programs(const culprit_store *store, int64_t into, int64_t from,
                                            int64_t *united, culprit_error *err);
/* Records that program_id was assembled from unit_hash (program_units). */
culprit_status culprit_store_insert_program_unit(const culprit_store *store, int64_t program_id,
                                                 const char *unit_hash, culprit_error *err);

/* ---- program_plans.c ---- */

/* The stored counting plan of program_id; *found is false when there is
 * none or it does not decode (it is a cache: the caller rebuilds it). */
culprit_status culprit_store_load_plan(const culprit_store *store, int64_t program_id,
                                       culprit_count_plan *plan, bool *found, culprit_error *err);
/* Stores (or replaces) program_id's counting plan. */
culprit_status culprit_store_save_plan(const culprit_store *store, int64_t program_id,
                                       const culprit_count_plan *plan, culprit_error *err);
/* The plan kept with the connection if it is program_id's, else NULL; the
 * caller still checks that it names the program's units. */
const culprit_count_plan *culprit_store_cached_plan(const culprit_store *store, int64_t program_id);
/* Moves plan into the connection's cache (plan is left empty) and returns
 * the kept copy; NULL, with plan untouched, when memory runs out. */
const culprit_count_plan *culprit_store_keep_plan(const culprit_store *store, int64_t program_id,
                                                  culprit_count_plan *plan);
/* Frees the plan kept between collected tests. */
void culprit_store_forget_program_cache(culprit_store *store);

/* ---- judgement.c ---- */

struct culprit_judgement;
/* Wrong lines ascending and 1-based, or an internal error. */
culprit_status culprit_store_check_judgement(const char *test_name, const struct culprit_judgement *judgement,
                                             culprit_error *err);
/* Inserts the judgement of test_name (saved under program_id), inside the
 * caller's transaction. */
culprit_status culprit_store_insert_judgement(const culprit_store *store, int64_t program_id,
                                              const char *test_name,
                                              const struct culprit_judgement *judgement, culprit_error *err);

/* ---- identify.c ---- */

/* Checks the first bytes of path without SQLite.  *exists is false when
 * there is no file; *empty is true for a zero-length file (which SQLite
 * treats as a new database).  Anything that is not an SQLite file fails with
 * "not a culprit store (not an SQLite database)".  *header_version is the
 * schema version the file's header records when its application id is
 * culprit's, else -1 (a hint: the header of a database in WAL mode may lag
 * the log, and the tables are not looked at). */
culprit_status culprit_store_check_file(const char *path, bool *exists, bool *empty, int *header_version,
                                        culprit_error *err);

/* Reads the application id, schema version and table count of an open
 * connection, reading only.  Sets *version to the schema version: 0 for an
 * empty database that nobody has claimed yet.  Fails for foreign databases,
 * newer schema versions and visible corruption. */
culprit_status culprit_store_identify(const culprit_store *store, int *version, culprit_error *err);

/* ---- schema.c ---- */

/* Brings a database from schema version `version` (0 = empty) to
 * CULPRIT_STORE_SCHEMA_VERSION.  Runs in the caller's write transaction. */
culprit_status culprit_store_migrate(const culprit_store *store, int version, culprit_error *err);

/* A cheap sanity check of a current-version database: every table of the
 * schema exists and its first page can be read. */
culprit_status culprit_store_check_tables(const culprit_store *store, culprit_error *err);

/* A thorough one, for when a query of culprit's fails to prepare: every
 * table has the columns the migrations give it (compared, ignoring case,
 * with a database they build in memory).  A store whose schema text was
 * damaged opens, and its queries then failed with "no such column" as if
 * culprit were broken (exit 3): this names it a corrupt store (exit 2). */
culprit_status culprit_store_check_schema(const culprit_store *store, culprit_error *err);

/* ---- programs.c, tests.c: the bodies of their transactions, for
 * collected.c and imported.c, which do more in the same transaction ---- */

/* Checks spectra's elements, opens a write transaction and saves the
 * program's rows (as culprit_store_save_program does) inside it, for the
 * caller to add to and commit.  On failure no transaction is left open. */
culprit_status culprit_store_begin_program(const culprit_store *store, const culprit_spectra *spectra,
                                           const char *source, int64_t *program_id, culprit_error *err);
/* Checks that tests first .. first+count-1 exist and have valid verdicts. */
culprit_status culprit_store_check_tests(const culprit_store *store, const culprit_spectra *spectra,
                                         size_t first, size_t count, culprit_error *err);

/* Sets *program_id to the program with hash, or 0. */
culprit_status culprit_store_program_by_hash(const culprit_store *store, const char *hash,
                                             int64_t *program_id, culprit_error *err);

/* Finds the program with hash (the spectra's program hash) or inserts it
 * with its files and elements; makes it current. */
culprit_status culprit_store_save_program_rows(const culprit_store *store, const culprit_spectra *spectra,
                                               const char *hash, const char *source, int64_t *program_id,
                                               culprit_error *err);
/* Makes program_id the current program (meta's current_program). */
culprit_status culprit_store_set_current_program(const culprit_store *store, int64_t program_id,
                                                 culprit_error *err);
/* Inserts or replaces tests first .. first+count-1 of spectra under program_id. */
culprit_status culprit_store_insert_tests(const culprit_store *store, int64_t program_id,
                                          const culprit_spectra *spectra, size_t first, size_t count,
                                          culprit_error *err);
/* Inserts one test (its name, verdict and duration) with row's hits and
 * counts under program_id, which has element_count elements. */
culprit_status culprit_store_insert_test_row(const culprit_store *store, int64_t program_id,
                                             size_t element_count, const culprit_test *test,
                                             const culprit_test_row *row, culprit_error *err);
/* Moves the stored test test_id to program_id with the hits and counts of
 * test `test` of spectra; keeps its recorded_at (and so its details). */
culprit_status culprit_store_update_test_hits(const culprit_store *store, int64_t test_id, int64_t program_id,
                                              const culprit_spectra *spectra, size_t test,
                                              culprit_error *err);

/* ---- judgement.c ---- */

/* The id of test name in program_id; an input error when there is none. */
culprit_status culprit_store_find_test_id(const culprit_store *store, int64_t program_id, const char *name,
                                          int64_t *test_id, culprit_error *err);

/* ---- blob.c ---- */

/* Unsigned LEB128: writes value at out (at most 10 bytes), returns the end. */
unsigned char *culprit_store_put_varint(unsigned char *out, uint64_t value);
/* Reads one varint at *position; false when the blob ends inside it or it
 * does not fit 64 bits. */
bool culprit_store_get_varint(const unsigned char *blob, size_t size, size_t *position, uint64_t *value);

/* Bytes of a stored hit row: one little-endian 64-bit word per 64 elements. */
size_t culprit_store_hits_bytes(size_t element_count);
/* A hit row's words as stored.  On little-endian hosts (all the usual ones)
 * returns row itself; otherwise byte-swaps into scratch, which must hold
 * words words. */
const void *culprit_store_encode_hits(const uint64_t *row, size_t words, uint64_t *scratch);
/* Copies a stored hit blob into row, byte-swapping on big-endian hosts. */
void culprit_store_decode_hits(const void *blob, size_t words, uint64_t *row);

/* Encodes counts as docs/store.md says into a new malloc'd *blob (the
 * caller frees it).  Returns -1 when out of memory. */
int culprit_store_encode_counts(const culprit_counts *counts, unsigned char **blob, size_t *size);

/* Decoded counts of one test; the arrays grow and are reused across tests. */
typedef struct culprit_store_counts_buffer {
    size_t length, capacity;
    uint32_t *elements;
    uint64_t *counts;
} culprit_store_counts_buffer;

typedef enum culprit_store_decode_result {
    CULPRIT_STORE_DECODE_OK,
    CULPRIT_STORE_DECODE_MALFORMED,
    CULPRIT_STORE_DECODE_NO_MEMORY,
} culprit_store_decode_result;

/* Decodes a counts blob, checking that element ids ascend and stay below
 * element_count.  On MALFORMED, *problem says what is wrong. */
culprit_store_decode_result culprit_store_decode_counts(const unsigned char *blob, size_t size,
                                                        size_t element_count,
                                                        culprit_store_counts_buffer *out,
                                                        const char **problem);
void culprit_store_counts_buffer_free(culprit_store_counts_buffer *buffer);

/* ---- difference_blob.c ---- */

/* Encodes differences as docs/store.md says into a new malloc'd *blob;
 * *blob stays NULL (store NULL) when there are none.  False when out of
 * memory. */
bool culprit_store_encode_differences(const culprit_differences *differences, unsigned char **blob,
                                      size_t *size);
/* Decodes a differences blob (NULL or empty: none). */
culprit_store_decode_result culprit_store_decode_differences(const unsigned char *blob, size_t size,
                                                             culprit_differences *differences);

/* ---- loaded_index.c ---- */

/* What the loaders of evidence kept by test and by line (mutation.c,
 * cores.c) use to place a stored row among a program's loaded spectra. */

/* The spectra's tests sorted by name: a malloc'd array of test_count
 * entries, NULL when out of memory. */
typedef struct culprit_store_named_test {
    const char *name; /* borrowed from the spectra */
    size_t test;
} culprit_store_named_test;

culprit_store_named_test *culprit_store_tests_by_name(const culprit_spectra *spectra);
/* The index of the test named name in spectra, or SIZE_MAX. */
size_t culprit_store_find_loaded_test(const culprit_spectra *spectra, const culprit_store_named_test *order,
                                      const char *name);

/* The spectra's line elements sorted by file and line (free lines). */
typedef struct culprit_store_line_index {
    size_t count;
    struct culprit_store_placed_line *lines;
} culprit_store_line_index;

culprit_status culprit_store_line_index_make(const culprit_spectra *spectra, culprit_store_line_index *index,
                                             culprit_error *err);
/* The line element at file:line, or UINT32_MAX. */
uint32_t culprit_store_line_element(const culprit_store_line_index *index, uint32_t file, uint32_t line);

#endif
