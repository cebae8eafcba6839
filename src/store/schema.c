/*
 * schema.c - the store's schema, as a list of migrations.
 *
 * A database's PRAGMA user_version is the number of migrations applied to
 * it.  A new database starts at version 0 and runs them all; a database of
 * an older culprit runs the ones it lacks.  To change the schema, append a
 * step (never edit a released one: stores in the field have already run
 * it), bump CULPRIT_STORE_SCHEMA_VERSION in store.h, and document the
 * change in docs/store.md; update culprit_store_check_tables if a table
 * appears.  culprit_store_check_schema compares a store's tables and
 * columns with the ones the migrations make.  All steps run in the caller's single write
 * transaction, so an interrupted upgrade leaves the database at its old version.
 */
#include "store/store_internal.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "culprit/error.h"

typedef struct migration_step {
    int to_version;
    const char *sql;
} migration_step;

/* Version 1: programs, their files and elements, and tests.  Column meanings
 * are in docs/store.md; the comments here say why a column looks as it does. */
static const char schema_version_1[] =
    /* Small settings, e.g. key 'current_program'. */
    "CREATE TABLE meta ("
    "    key TEXT PRIMARY KEY NOT NULL,"
    "    value"
    ");"
    /* One row per distinct element table; hash makes rebuilt programs
     * distinct, so their spectra are never mixed. */
    "CREATE TABLE programs ("
    "    id INTEGER PRIMARY KEY,"
    "    hash TEXT NOT NULL UNIQUE,"
    "    source TEXT,"
    "    created_at TEXT NOT NULL,"
    "    file_count INTEGER NOT NULL,"
    "    element_count INTEGER NOT NULL"
    ");"
    /* WITHOUT ROWID: the natural key is the row's only identity, and rows
     * are inserted and read in key order. */
    "CREATE TABLE files ("
    "    program_id INTEGER NOT NULL REFERENCES programs(id) ON DELETE CASCADE,"
    "    ordinal INTEGER NOT NULL,"
    "    path TEXT NOT NULL,"
    "    PRIMARY KEY (program_id, ordinal)"
    ") WITHOUT ROWID;"
    /* Kinds by name, not by enum value, so a culprit that adds a kind can
     * still read old stores and an old culprit can say what it does not know. */
    "CREATE TABLE elements ("
    "    program_id INTEGER NOT NULL REFERENCES programs(id) ON DELETE CASCADE,"
    "    ordinal INTEGER NOT NULL,"
    "    kind TEXT NOT NULL,"
    "    file_ordinal INTEGER,"
    "    line INTEGER NOT NULL,"
    "    column INTEGER NOT NULL,"
    "    name TEXT,"
    "    PRIMARY KEY (program_id, ordinal),"
    "    FOREIGN KEY (program_id, file_ordinal) REFERENCES files(program_id, ordinal)"
    ") WITHOUT ROWID;"
    /* id gives the order tests were first saved in; the whole hit row is one
     * blob because it is read whole, straight into the matrix. */
    "CREATE TABLE tests ("
    "    id INTEGER PRIMARY KEY,"
    "    program_id INTEGER NOT NULL REFERENCES programs(id) ON DELETE CASCADE,"
    "    name TEXT NOT NULL,"
    "    verdict TEXT NOT NULL,"
    "    duration REAL,"
    "    hits BLOB NOT NULL,"
    "    counts BLOB,"
    "    recorded_at TEXT NOT NULL,"
    "    UNIQUE (program_id, name)"
    ");"
    /* Loading reads one program's tests in id order. */
    "CREATE INDEX tests_by_program ON tests(program_id, id);";

/* Version 2: what the C collector (culprit test) records besides hits and
 * counts, so that a program can be re-assembled from its units when a test
 * brings new ones (docs/collector.md §6). */
static const char schema_version_2[] =
    /* A unit's map, by its hash: the map is the unit's whole description,
     * and re-assembling a program needs nothing else. */
    "CREATE TABLE units ("
    "    hash TEXT PRIMARY KEY NOT NULL,"
    "    map TEXT NOT NULL,"
    "    created_at TEXT NOT NULL"
    ") WITHOUT ROWID;"
    /* The units a collector program was assembled from; none for imported
     * programs. */
    "CREATE TABLE program_units ("
    "    program_id INTEGER NOT NULL REFERENCES programs(id) ON DELETE CASCADE,"
    "    unit_hash TEXT NOT NULL REFERENCES units(hash),"
    "    PRIMARY KEY (program_id, unit_hash)"
    ") WITHOUT ROWID;"
    /* A test's raw counts per unit, summed over its processes: hits and
     * counts of any program containing the unit are derived from these. */
    "CREATE TABLE test_units ("
    "    test_id INTEGER NOT NULL REFERENCES tests(id) ON DELETE CASCADE,"
    "    unit_hash TEXT NOT NULL REFERENCES units(hash),"
    "    counter_count INTEGER NOT NULL,"
    "    counts BLOB NOT NULL,"
    "    PRIMARY KEY (test_id, unit_hash)"
    ") WITHOUT ROWID;"
    /* How a collected test's command ended, where it crashed, what it wrote. */
    "CREATE TABLE test_runs ("
    "    test_id INTEGER PRIMARY KEY REFERENCES tests(id) ON DELETE CASCADE,"
    "    exit_status INTEGER,"
    "    signal INTEGER,"
    "    crash TEXT,"
    "    output BLOB NOT NULL,"
    "    dump_count INTEGER NOT NULL"
    ");"
    /* A new result for a test (any writer sets recorded_at) makes the old
     * result's collector details stale: drop them, so that an import over a
     * collected test cannot leave raw counts that disagree with its hits.
     * Moving a test to a grown program keeps recorded_at, and its details. */
    "CREATE TRIGGER tests_result_replaced AFTER UPDATE OF recorded_at ON tests BEGIN"
    "    DELETE FROM test_units WHERE test_id = NEW.id;"
    "    DELETE FROM test_runs WHERE test_id = NEW.id;"
    " END;";

/* Version 3: the oracle's judgement of each test (src/run/oracle.c):
 * why it failed, the signature that clusters it, the output lines it
 * blames, and the start of its stdout for the output mapping.  A table of
 * its own, so imported tests and version-2 tests simply have no row. */
static const char schema_version_3[] =
    /* wrong_lines is a varint blob like tests.counts: read whole, never
     * queried by line.  output is zlib-compressed: stdout is text and
     * compresses well, and every test may keep some. */
    "CREATE TABLE judgements ("
    "    test_id INTEGER PRIMARY KEY REFERENCES tests(id) ON DELETE CASCADE,"
    "    message TEXT NOT NULL,"
    "    signature TEXT NOT NULL,"
    "    wrong_lines BLOB NOT NULL,"
    "    output BLOB,"
    "    output_size INTEGER NOT NULL,"
    "    output_truncated INTEGER NOT NULL"
    ");"
    /* As tests_result_replaced (version 2): a new result makes the old
     * judgement stale; the harness saves the new one right after. */
    "CREATE TRIGGER tests_judgement_replaced AFTER UPDATE OF recorded_at ON tests BEGIN"
    "    DELETE FROM judgements WHERE test_id = NEW.id;"
    " END;";

/* Version 4: what a wrong output should have been (src/run/oracle_differences.c):
 * per wrong line the expected line, or a validator's message, so that
 * users see the difference and not only a line number.  A column with no
 * default, so that judgements of version 3 read as having none. */
static const char schema_version_4[] = "ALTER TABLE judgements ADD COLUMN differences BLOB;";

/* Version 5: what each test did on each mutant (culprit mutate; docs/mutation.md
 * §3).  A mutant is its unit's hash and its number there, as the unit's map
 * numbers it, so that the row needs no table of mutants: the map is the
 * mutants' whole description.  WITHOUT ROWID: rows are read in key order. */
static const char schema_version_5[] =
    "CREATE TABLE mutant_runs ("
    "    test_id INTEGER NOT NULL REFERENCES tests(id) ON DELETE CASCADE,"
    "    unit_hash TEXT NOT NULL,"
    "    mutant INTEGER NOT NULL,"
    "    verdict TEXT NOT NULL,"
    "    output_changed INTEGER NOT NULL,"
    "    timed_out INTEGER NOT NULL,"
    "    duration REAL,"
    "    PRIMARY KEY (test_id, unit_hash, mutant)"
    ") WITHOUT ROWID;"
    /* As tests_result_replaced (version 2): a mutant run is compared with
     * the test's result on the program, so a new result makes it stale. */
    "CREATE TRIGGER tests_mutant_runs_replaced AFTER UPDATE OF recorded_at ON tests BEGIN"
    "    DELETE FROM mutant_runs WHERE test_id = NEW.id;"
    " END;";

/* Version 6: the unsat cores of failing runs' trace formulas (culprit gen
 * --core; culprit/cores.h, docs/specs.md): a core's lines by file path and
 * number, as line elements name them.  A core explains one run, so a new
 * result of the test deletes it. */
static const char schema_version_6[] =
    "CREATE TABLE trace_cores ("
    "    test_id INTEGER NOT NULL REFERENCES tests(id) ON DELETE CASCADE,"
    "    file TEXT NOT NULL,"
    "    line INTEGER NOT NULL,"
    "    kind TEXT NOT NULL,"
    "    instances INTEGER NOT NULL,"
    "    PRIMARY KEY (test_id, file, line, kind)"
    ") WITHOUT ROWID;"
    "CREATE TRIGGER tests_cores_replaced AFTER UPDATE OF recorded_at ON tests BEGIN"
    "    DELETE FROM trace_cores WHERE test_id = NEW.id;"
    " END;";

/* Version 7: the counting plan of each collected program
 * (src/store/program_plans.c), so that recording a test does not parse the
 * program's maps again.  A cache: a program without one gets it when its
 * next test is recorded. */
static const char schema_version_7[] =
    "CREATE TABLE program_plans ("
    "    program_id INTEGER PRIMARY KEY REFERENCES programs(id) ON DELETE CASCADE,"
    "    plan BLOB NOT NULL"
    ");";

/* Version 8: how to run each test recorded by `culprit test` again (its
 * command line, directory, environment and oracle options), as one entry
 * of a JSON manifest (docs/harness.md), so that `culprit mutate` and
 * `culprit export manifest` can re-run a suite that another harness
 * (automake, meson, CTest) drove.  Kept as the text the manifest parser
 * reads: it is read whole, never queried by its parts. */
static const char schema_version_8[] =
    "CREATE TABLE test_commands ("
    "    test_id INTEGER PRIMARY KEY REFERENCES tests(id) ON DELETE CASCADE,"
    "    entry TEXT NOT NULL"
    ");";

static const migration_step migrations[] = {
    {1, schema_version_1}, {2, schema_version_2}, {3, schema_version_3}, {4, schema_version_4},
    {5, schema_version_5}, {6, schema_version_6}, {7, schema_version_7}, {8, schema_version_8},
};

static culprit_status set_version(const culprit_store *store, int version, culprit_error *err)
{
    char sql[128];
    snprintf(sql, sizeof sql, "PRAGMA application_id = %d; PRAGMA user_version = %d",
             (int)CULPRIT_STORE_APPLICATION_ID, version);
    return culprit_store_execute(store, sql, "recording the schema version", err);
}

culprit_status culprit_store_migrate(const culprit_store *store, int version, culprit_error *err)
{
    for (size_t i = 0; i < sizeof migrations / sizeof migrations[0]; i++) {
        if (migrations[i].to_version <= version)
            continue;
        char doing[64];
        snprintf(doing, sizeof doing, "upgrading the store to schema version %d", migrations[i].to_version);
        culprit_status status = culprit_store_execute(store, migrations[i].sql, doing, err);
        if (status == CULPRIT_OK)
            status = set_version(store, migrations[i].to_version, err);
        if (status != CULPRIT_OK)
            return status;
    }
    return CULPRIT_OK;
}

/* The columns of table, in order, as "a,b,c" into text ("" when there is
 * no such table); false when SQLite fails (*code says how). */
static bool table_columns(sqlite3 *database, const char *table, char *text, size_t size, int *code)
{
    sqlite3_stmt *statement;
    text[0] = '\0';
    *code = sqlite3_prepare_v2(database, "SELECT name FROM pragma_table_info(?1) ORDER BY cid", -1,
                               &statement, NULL);
    if (*code == SQLITE_OK)
        *code = sqlite3_bind_text(statement, 1, table, -1, SQLITE_STATIC);
    size_t used = 0;
    while (*code == SQLITE_OK && (*code = sqlite3_step(statement)) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(statement, 0);
        used += (size_t)snprintf(text + used, used < size ? size - used : 0, "%s%s", used ? "," : "",
                                 name ? name : "");
        *code = SQLITE_OK;
    }
    sqlite3_finalize(statement);
    return *code == SQLITE_DONE;
}

/* Reading one row touches the table's root page, where damage to a small
 * store usually is, at the cost of a page read. */
static culprit_status read_first_row(const culprit_store *store, const char *table, culprit_error *err)
{
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT 1 FROM \"%s\" LIMIT 1", table);
    sqlite3_stmt *statement;
    int code = sqlite3_prepare_v2(store->database, sql, -1, &statement, NULL);
    if (code == SQLITE_OK)
        code = sqlite3_step(statement);
    sqlite3_finalize(statement);
    if (code != SQLITE_ROW && code != SQLITE_DONE)
        return culprit_store_sqlite_error(store, code, "checking the store", err);
    return CULPRIT_OK;
}

/* Compares every table's columns with a database the migrations build in
 * memory (culprit_store_check_schema). */
static culprit_status compare_tables(const culprit_store *store, const culprit_store *reference,
                                     culprit_error *err)
{
    sqlite3_stmt *tables; /* not culprit_store_prepare, which calls back here when it fails */
    int code = sqlite3_prepare_v2(reference->database,
                                  "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name", -1,
                                  &tables, NULL);
    culprit_status status =
        code == SQLITE_OK ? CULPRIT_OK
                          : culprit_store_sqlite_error(reference, code, "building the reference schema", err);
    while (status == CULPRIT_OK && (code = sqlite3_step(tables)) == SQLITE_ROW) {
        const char *table = (const char *)sqlite3_column_text(tables, 0);
        char expected[1024], found[1024];
        int column_code;
        if (!table_columns(reference->database, table, expected, sizeof expected, &column_code))
            status = culprit_store_sqlite_error(reference, column_code, "building the reference schema", err);
        else if (!table_columns(store->database, table, found, sizeof found, &column_code))
            status = culprit_store_sqlite_error(store, column_code, "checking the store", err);
        else if (!found[0])
            status = culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: store is corrupt: table '%s' is missing",
                                  store->path, table);
        else if (strcasecmp(found, expected) != 0) /* SQL names ignore case */
            status = culprit_fail(err, CULPRIT_ERROR_INPUT,
                                  "%s: store is corrupt: table '%s' has the columns (%.300s), not (%.300s)",
                                  store->path, table, found, expected);
        else
            status = read_first_row(store, table, err);
    }
    if (status == CULPRIT_OK && code != SQLITE_DONE)
        status = culprit_store_sqlite_error(reference, code, "building the reference schema", err);
    sqlite3_finalize(tables);
    return status;
}

culprit_status culprit_store_check_schema(const culprit_store *store, culprit_error *err)
{
    culprit_store reference = {.database = NULL, .path = ":memory:"};
    int code = sqlite3_open(":memory:", &reference.database);
    culprit_status status =
        code == SQLITE_OK
            ? culprit_store_migrate(&reference, 0, err)
            : culprit_store_sqlite_error(&reference, code, "building the reference schema", err);
    if (status == CULPRIT_OK)
        status = compare_tables(store, &reference, err);
    sqlite3_close(reference.database);
    return status;
}

static const char *const store_tables[] = {
    "meta",       "programs",  "files",      "elements",    "tests",       "units",        "program_units",
    "test_units", "test_runs", "judgements", "mutant_runs", "trace_cores", "test_commands"};
enum { STORE_TABLE_COUNT = sizeof store_tables / sizeof store_tables[0] };

/* Table by table, to say which one is missing or unreadable. */
static culprit_status check_each_table(const culprit_store *store, culprit_error *err)
{
    for (size_t i = 0; i < STORE_TABLE_COUNT; i++) {
        char columns[8];
        int code;
        if (!table_columns(store->database, store_tables[i], columns, sizeof columns, &code))
            return culprit_store_sqlite_error(store, code, "checking the store", err);
        if (!columns[0])
            return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: store is corrupt: table '%s' is missing",
                                store->path, store_tables[i]);
        culprit_status status = read_first_row(store, store_tables[i], err);
        if (status != CULPRIT_OK)
            return status;
    }
    return CULPRIT_OK;
}

/* Every table at once: one statement that reads the first row of each
 * (its root page), which prepares only if every table exists.  Every
 * `culprit test` opens the store, and preparing 26 statements was most of
 * the checks' cost; only when this fails does check_each_table find out
 * what. */
culprit_status culprit_store_check_tables(const culprit_store *store, culprit_error *err)
{
    char sql[1024] = "SELECT 1";
    size_t used = strlen(sql);
    for (size_t i = 0; i < STORE_TABLE_COUNT; i++)
        used += (size_t)snprintf(sql + used, sizeof sql - used, ", (SELECT 1 FROM \"%s\" LIMIT 1)",
                                 store_tables[i]);
    sqlite3_stmt *statement;
    int code = sqlite3_prepare_v2(store->database, sql, -1, &statement, NULL);
    if (code == SQLITE_OK)
        code = sqlite3_step(statement);
    sqlite3_finalize(statement);
    if (code == SQLITE_ROW)
        return CULPRIT_OK;
    culprit_status status = check_each_table(store, err);
    if (status == CULPRIT_OK) /* the tables read one by one: say what the whole failed with */
        status = culprit_store_sqlite_error(store, code, "checking the store", err);
    return status;
}
