/*
 * store.h - the SQLite store under .culprit/ (docs/store.md has the schema).
 *
 * A store holds programs (element tables keyed by a content hash) and, per
 * program, tests with their verdicts, hit bitsets and sparse counts.  Each
 * saved test is its own transaction, so an interrupted run loses at most the
 * test in flight.  The database runs in WAL mode: readers never block the
 * writer.  A file that is not a culprit database is reported, never touched.
 */
#ifndef CULPRIT_STORE_H
#define CULPRIT_STORE_H

#include <stdbool.h>
#include <stdint.h>

#include "culprit/spectra.h"

typedef struct culprit_store culprit_store;

enum { CULPRIT_STORE_SCHEMA_VERSION = 3 };

/* The store directory: explicit (--store DIR) if non-NULL, else
 * $CULPRIT_STORE if set and non-empty, else ".culprit".  Returns a pointer
 * to explicit, to the environment, or to a static string. */
const char *culprit_store_directory(const char *explicit_directory);

typedef enum culprit_store_mode {
    CULPRIT_STORE_READ,   /* the database must exist */
    CULPRIT_STORE_WRITE,  /* the database must exist */
    CULPRIT_STORE_CREATE, /* create the directory and database if missing */
} culprit_store_mode;

culprit_status culprit_store_open(const char *directory, culprit_store_mode mode, culprit_store **store,
                                  culprit_error *err);
void culprit_store_close(culprit_store *store);

/* Records the files and elements of spectra as a program (reusing the stored
 * one with the same content hash) and makes it the current program. */
culprit_status culprit_store_save_program(culprit_store *store, const culprit_spectra *spectra,
                                          const char *source, int64_t *program_id, culprit_error *err);

/* Records test `test` of spectra (verdict, duration, hit row, counts) under
 * program_id in one transaction, replacing a stored test of the same name. */
culprit_status culprit_store_save_test(culprit_store *store, int64_t program_id,
                                       const culprit_spectra *spectra, size_t test, culprit_error *err);

/* Records tests first .. first+count-1 of spectra like culprit_store_save_test,
 * but all in one transaction (all or none are saved): for importers, which
 * have every test at once and need no per-test durability. */
culprit_status culprit_store_save_tests(culprit_store *store, int64_t program_id,
                                        const culprit_spectra *spectra, size_t first, size_t count,
                                        culprit_error *err);

/* The current program (the one saved or selected last); 0 when none. */
culprit_status culprit_store_current_program(culprit_store *store, int64_t *program_id, culprit_error *err);

/* Finds a program by a unique prefix of its hash. */
culprit_status culprit_store_find_program(culprit_store *store, const char *hash_prefix, int64_t *program_id,
                                          culprit_error *err);

/* Loads a program's files, elements and tests (in the order saved) into an
 * initialised, empty spectra. */
culprit_status culprit_store_load(culprit_store *store, int64_t program_id, culprit_spectra *spectra,
                                  culprit_error *err);

#endif
