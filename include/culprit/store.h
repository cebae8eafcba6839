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

#include "culprit/program.h"
#include "culprit/spectra.h"

typedef struct culprit_store culprit_store;

enum { CULPRIT_STORE_SCHEMA_VERSION = 8 };

/* The store directory: explicit (--store DIR) if non-NULL, else
 * $CULPRIT_STORE if set and non-empty, else ".culprit".  Returns a pointer
 * to explicit, to the environment, or to a static string. */
CULPRIT_API const char *culprit_store_directory(const char *explicit_directory);

typedef enum culprit_store_mode {
    CULPRIT_STORE_READ,   /* the database must exist */
    CULPRIT_STORE_WRITE,  /* the database must exist */
    CULPRIT_STORE_CREATE, /* create the directory and database if missing */
} culprit_store_mode;

CULPRIT_API culprit_status culprit_store_open(const char *directory, culprit_store_mode mode,
                                              culprit_store **store, culprit_error *err);
CULPRIT_API void culprit_store_close(culprit_store *store);

/* Leaves the write-ahead log for the next connection instead of folding it
 * into the database when store closes, until the log holds about 1 MiB:
 * for `culprit test`, a process per test, whose closing checkpoint (four
 * fsyncs, a log made and deleted) would cost more than its test's writes.
 * Any SQLite reader sees the logged tests; docs/store.md says what a copy
 * of culprit.db alone misses. */
CULPRIT_API void culprit_store_keep_log(culprit_store *store);

/* Records the files and elements of spectra as a program (reusing the stored
 * one with the same content hash) and makes it the current program. */
CULPRIT_API culprit_status culprit_store_save_program(culprit_store *store, const culprit_spectra *spectra,
                                                      const char *source, int64_t *program_id,
                                                      culprit_error *err);

/* Records test `test` of spectra (verdict, duration, hit row, counts) under
 * program_id in one transaction, replacing a stored test of the same name. */
CULPRIT_API culprit_status culprit_store_save_test(culprit_store *store, int64_t program_id,
                                                   const culprit_spectra *spectra, size_t test,
                                                   culprit_error *err);

/* Records tests first .. first+count-1 of spectra like culprit_store_save_test,
 * but all in one transaction (all or none are saved): for importers, which
 * have every test at once and need no per-test durability. */
CULPRIT_API culprit_status culprit_store_save_tests(culprit_store *store, int64_t program_id,
                                                    const culprit_spectra *spectra, size_t first,
                                                    size_t count, culprit_error *err);

/* Whether a test named name passed in some program of the store (its last
 * recorded verdict there): `--skip-as fail-if-passed` (culprit/oracle.h). */
CULPRIT_API culprit_status culprit_store_test_passed_before(culprit_store *store, const char *name,
                                                            bool *passed, culprit_error *err);

/* The current program (the one saved or selected last); 0 when none. */
CULPRIT_API culprit_status culprit_store_current_program(culprit_store *store, int64_t *program_id,
                                                         culprit_error *err);

/* The content hash of a stored program: 64 hex digits and a NUL. */
CULPRIT_API culprit_status culprit_store_program_hash(culprit_store *store, int64_t program_id, char hash[65],
                                                      culprit_error *err);

/* Finds a program by a unique prefix of its hash. */
CULPRIT_API culprit_status culprit_store_find_program(culprit_store *store, const char *hash_prefix,
                                                      int64_t *program_id, culprit_error *err);

/* Loads a program's files, elements and tests (in the order saved) into an
 * initialised, empty spectra. */
CULPRIT_API culprit_status culprit_store_load(culprit_store *store, int64_t program_id,
                                              culprit_spectra *spectra, culprit_error *err);

/* For a program too big to hold (`culprit rank --stream`): its files and
 * elements into spectra (empty; no test is kept), and *tallies (malloc'd,
 * element_count + 1 entries, owned by the caller) and *totals of all its
 * tests counted as policy says, read batch_size tests at a time - the
 * memory is the elements' and one batch's rows, whatever the number of
 * tests.  The same tallies as culprit_store_load then culprit_spectra_tally. */
CULPRIT_API culprit_status culprit_store_load_tallies(culprit_store *store, int64_t program_id,
                                                      const culprit_verdict_policy *policy, size_t batch_size,
                                                      culprit_spectra *spectra, culprit_tally **tallies,
                                                      culprit_totals *totals, culprit_error *err);

/* ---- merging the stores of a sharded run (src/store/merge.c) ---- */

/* What culprit_store_merge copied. */
typedef struct culprit_merge_summary {
    size_t stores; /* sources that had a program */
    size_t tests;  /* tests copied */
    char hash[65]; /* the program's hash; "" when no source had one */
} culprit_merge_summary;

/* Copies the current program of every store directory in sources, with
 * its tests and all that was recorded about them (counts per unit, runs,
 * judgements), into destination, and makes it destination's current
 * program: the store one unsharded run would have made.  The programs
 * must have the same hash, or be collector programs of one build with
 * different units, which are united as a run grows its program (shards
 * that ran different executables); no test name may come from two stores
 * (sources, or destination before the merge); a source without a program
 * adds nothing.  Sources are opened read-only; destination changes in one
 * transaction, so on any error it is left as it was. */
CULPRIT_API culprit_status culprit_store_merge(culprit_store *destination, const char *const *sources,
                                               size_t count, culprit_merge_summary *summary,
                                               culprit_error *err);

/* ---- judgements (src/store/judgement.c; culprit/oracle.h makes them,
 *      culprit/judgement.h reads them back) ---- */

/* How a test's stdout differs from what its oracle wanted, line by line:
 * what a user needs to see next to a wrong line (docs/oracles.md,
 * "Differences").  Lines are 1-based; positions say where a line that is
 * only on one side belongs on the other. */
typedef enum culprit_difference_kind {
    /* actual line actual_line stands where expected line expected_line should */
    CULPRIT_DIFFERENCE_CHANGED = 1,
    /* actual line actual_line is not in the expected output; it stands
     * before expected line expected_line (the expected line count + 1: at the end) */
    CULPRIT_DIFFERENCE_EXTRA = 2,
    /* expected line expected_line is not in the actual output; it belongs
     * before actual line actual_line (the actual line count + 1: at the end) */
    CULPRIT_DIFFERENCE_MISSING = 3,
    /* a validator or the HTML check said message about actual line
     * actual_line (these oracles have no expected text); expected_line 0 */
    CULPRIT_DIFFERENCE_NOTE = 4,
} culprit_difference_kind;

typedef struct culprit_difference {
    culprit_difference_kind kind;
    uint32_t actual_line, expected_line;
    /* Owned texts, NULL when the kind has none: the expected line
     * (changed, missing), the actual line (changed, extra, note) and the
     * oracle's message (note).  Lines are cut to at most
     * CULPRIT_DIFFERENCE_TEXT_MAX bytes around where they differ; an end
     * that was cut is marked with U+2026, an ellipsis. */
    char *expected, *actual, *message;
    /* The line is the last and has no '\n' (exact comparison only: the
     * one difference between "8" and "8\n"). */
    bool expected_unterminated, actual_unterminated;
} culprit_difference;

/* The differences the oracle kept: at most CULPRIT_DIFFERENCES_MAX, in
 * the order of the actual output; the rest are only counted. */
typedef struct culprit_differences {
    size_t count;
    culprit_difference *items; /* owned */
    size_t omitted;            /* found past the bound, not kept */
} culprit_differences;

enum { CULPRIT_DIFFERENCES_MAX = 50, CULPRIT_DIFFERENCE_TEXT_MAX = 200 };

CULPRIT_API const char *culprit_difference_kind_name(culprit_difference_kind kind);
CULPRIT_API void culprit_differences_free(culprit_differences *differences);

typedef struct culprit_judgement {
    culprit_verdict verdict;
    char message[512];   /* one line: why it failed ("" for a pass) */
    char signature[768]; /* message + crash site: failures with equal signatures are one cluster */
    size_t wrong_line_count;
    uint32_t *wrong_lines; /* owned; ascending, 1-based output line numbers */
    /* The start of the test's stdout, kept with the judgement so that
     * `culprit output` can show which statement wrote each line (1 MiB for
     * tests that did not pass, 64 KiB for passing ones; docs/oracles.md). */
    char *output; /* owned; NULL when there was no stdout file */
    size_t output_size;
    bool output_truncated;           /* stdout was longer than what output holds */
    culprit_differences differences; /* the wrong lines against what was expected */
} culprit_judgement;

CULPRIT_API void culprit_judgement_free(culprit_judgement *judgement);

/* Records a test's judgement (message, signature, wrong lines) beside its
 * spectra: the test must already be saved under program_id. */
CULPRIT_API culprit_status culprit_store_save_judgement(culprit_store *store, int64_t program_id,
                                                        const char *test_name,
                                                        const culprit_judgement *judgement,
                                                        culprit_error *err);

/* ---- collected tests (src/store/collected.c, program_evolution.c) ---- */

/* What culprit_store_save_collected did to the program. */
typedef enum culprit_program_change {
    CULPRIT_PROGRAM_SAME,  /* the test's units were all in the current program */
    CULPRIT_PROGRAM_UNION, /* new units: the program grew, earlier tests were re-expressed */
    CULPRIT_PROGRAM_NEW,   /* a unit was rebuilt (or no program yet): a new program */
} culprit_program_change;

typedef struct culprit_collected_test {
    const char *name;
    culprit_verdict verdict;
    double duration_seconds; /* negative when unknown */
    int exit_status;         /* -1 when killed by a signal */
    int signal;              /* 0 when it exited */
    const culprit_unit_set *maps;
    const culprit_collected *collected;
    /* The oracle's judgement (above), saved in the same transaction as
     * the spectra; NULL: none (an import). */
    const culprit_judgement *judgement;
    /* How to run the test again: one JSON manifest entry (docs/harness.md;
     * `culprit test` writes it), or NULL. */
    const char *command;
} culprit_collected_test;

typedef struct culprit_saved_test {
    int64_t program_id;
    culprit_program_change change;
    int64_t previous_program_id; /* the current program before this test; 0 when none */
} culprit_saved_test;

/* Records test in one BEGIN IMMEDIATE transaction: its units' maps, its raw
 * per-unit counts, its run details and its hits and counts in the program
 * that §6 chooses, which becomes the current program. */
CULPRIT_API culprit_status culprit_store_save_collected(culprit_store *store,
                                                        const culprit_collected_test *test,
                                                        culprit_saved_test *saved, culprit_error *err);

/* The counting plan of the program that collected tests go to now, so that
 * a collector need not parse the maps of units the store knows
 * (culprit_collect_directory_known); NULL when there is no such program or
 * it has no stored plan yet.  The plan belongs to the store and stays valid
 * until the next call on it that saves a collected test or closes it. */
CULPRIT_API culprit_status culprit_store_current_plan(culprit_store *store, const culprit_count_plan **plan,
                                                      culprit_error *err);

/* Loads (parses) the maps of a program's units; empty for programs that no
 * collector made. */
CULPRIT_API culprit_status culprit_store_program_units(culprit_store *store, int64_t program_id,
                                                       culprit_unit_set *units, culprit_error *err);

/* Loads the graph of a stored program and the crash stacks of its tests
 * (test_runs.crash), tests in spectra's order.  A program without maps
 * (imported) gives an empty graph (block_count 0), not an error. */
CULPRIT_API culprit_status culprit_store_load_program_graph(culprit_store *store, int64_t program_id,
                                                            const culprit_spectra *spectra,
                                                            culprit_program_graph *graph, culprit_error *err);

/* ---- a program's structure (culprit/program.h), carried by `culprit export
 *      json` and stored back by `culprit import json` (src/store/graph_load.c,
 *      imported.c) ---- */

/* Loads the structure of a stored program: its units' maps and the crash
 * of each test of spectra (that program, loaded), tests in spectra's
 * order.  A program without units gives an empty structure. */
CULPRIT_API culprit_status culprit_store_load_program_structure(culprit_store *store, int64_t program_id,
                                                                const culprit_spectra *spectra,
                                                                culprit_program_structure *structure,
                                                                culprit_error *err);

/* Records an imported program whole, in one transaction: its files,
 * elements and tests as culprit_store_save_program and
 * culprit_store_save_tests do, and, when structure is not NULL, its
 * structure: the units' maps (which must assemble into spectra's element
 * table) as the program's units, and a test_runs row holding the crash of
 * each test that has one (its exit status and signal unknown: NULL).  An
 * imported program becomes current, but collected tests never grow it
 * (docs/store.md, "Program evolution"). */
CULPRIT_API culprit_status culprit_store_save_imported(culprit_store *store, const culprit_spectra *spectra,
                                                       const culprit_program_structure *structure,
                                                       const char *source, int64_t *program_id,
                                                       culprit_error *err);

/* ---- one row per test (src/store/judgement_load.c) ---- */

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
    char *message;           /* owned; the oracle's ("" for a pass); NULL when !judged */
    char *signature;         /* owned; likewise */
    size_t wrong_line_count;
    uint32_t *wrong_lines;           /* owned, ascending, 1-based */
    culprit_differences differences; /* none when !judged or recorded before schema version 4 */
} culprit_test_record;

typedef struct culprit_test_records {
    size_t count;
    culprit_test_record *tests; /* owned, in the order tests were first saved */
} culprit_test_records;

/* Loads every test of program_id with its run and judgement.  Tests
 * without a judgement (imported, or recorded before schema version 3) have
 * judged false and message and signature NULL: culprit_test_records_load
 * (culprit/judgement.h) words them as the oracle would. */
CULPRIT_API culprit_status culprit_store_load_test_records(culprit_store *store, int64_t program_id,
                                                           culprit_test_records *records, culprit_error *err);
CULPRIT_API void culprit_test_records_free(culprit_test_records *records);

/* ---- what one test wrote (src/store/judgement_load.c) ---- */

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
    /* What the oracle said about the lines (none when not judged) */
    size_t wrong_line_count;
    uint32_t *wrong_lines;           /* owned, ascending, 1-based */
    culprit_differences differences; /* none before schema version 4 */
} culprit_test_output;

/* Loads the output records, unit maps and kept stdout of test_name in
 * program_id, and its judgement's wrong lines and differences.  A missing test is an input error naming it.
 */
CULPRIT_API culprit_status culprit_store_load_test_output(culprit_store *store, int64_t program_id,
                                                          const char *test_name, culprit_test_output *output,
                                                          culprit_error *err);
CULPRIT_API void culprit_test_output_free(culprit_test_output *output);

/* One test's saved command: its name and its JSON manifest entry
 * (docs/harness.md, "Running recorded tests again"). */
typedef struct culprit_saved_command {
    char *name;
    char *entry;
} culprit_saved_command;

/* The commands `culprit test` saved for program_id's tests (the tests
 * other recorders saved have none), in the order the tests were first
 * saved.  Free with culprit_saved_commands_free. */
CULPRIT_API culprit_status culprit_store_load_commands(culprit_store *store, int64_t program_id,
                                                       culprit_saved_command **commands, size_t *count,
                                                       culprit_error *err);
CULPRIT_API void culprit_saved_commands_free(culprit_saved_command *commands, size_t count);

#endif
