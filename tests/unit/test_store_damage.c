/*
 * test_store_damage.c - unit tests of what the store (src/store/) must
 * refuse or survive: missing stores, text files, foreign SQLite databases,
 * newer schemas, damaged files and rows, and concurrent connections.
 *
 * Databases that culprit must refuse are built by hand with the sqlite3 API,
 * and their bytes are compared before and after to prove they were not
 * touched.  Every test works in its own mkdtemp directory under /tmp.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "store_fixture.h"

/* ---- finding and identifying stores ---- */

static void test_missing_store(void)
{
    char directory[64], missing[128], nested[160];
    make_scratch_directory(directory);
    snprintf(missing, sizeof missing, "%s/nothing-here", directory);
    culprit_error err;
    culprit_store *store = NULL;
    char expected[256];
    snprintf(expected, sizeof expected,
             "no culprit store at %s (record tests first: 'culprit test', 'culprit run' or 'culprit import')",
             missing);
    CHECK_INT(culprit_store_open(missing, CULPRIT_STORE_READ, &store, &err), CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, expected);
    CHECK(store == NULL);
    CHECK_INT(culprit_store_open(missing, CULPRIT_STORE_WRITE, &store, &err), CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, expected);
    CHECK(!file_exists(missing)); /* READ and WRITE create nothing */

    /* An existing directory without a database is no store either. */
    CHECK_INT(culprit_store_open(directory, CULPRIT_STORE_READ, &store, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "no culprit store at");

    /* CREATE makes missing parents too. */
    snprintf(nested, sizeof nested, "%s/a/b/.culprit", directory);
    CHECK_INT(culprit_store_open(nested, CULPRIT_STORE_CREATE, &store, &err), CULPRIT_OK);
    culprit_store_close(store);
    store = NULL;
    CHECK_INT(culprit_store_open(nested, CULPRIT_STORE_READ, &store, &err), CULPRIT_OK);
    culprit_store_close(store);

    /* A store directory that is a file. */
    char file[160];
    snprintf(file, sizeof file, "%s/plain-file", directory);
    write_file(file, "x", 1);
    CHECK_INT(culprit_store_open(file, CULPRIT_STORE_CREATE, &store, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "plain-file");
    remove_tree(directory);
}

/* Opens directory in every mode, expecting a refusal mentioning `expected`,
 * and checks that the database's bytes stayed the same. */
static void check_refused_untouched(const char *directory, const char *expected)
{
    char path[128];
    database_path(directory, path);
    size_t size_before, size_after;
    unsigned char *before = read_file(path, &size_before);
    static const culprit_store_mode modes[] = {CULPRIT_STORE_READ, CULPRIT_STORE_WRITE, CULPRIT_STORE_CREATE};
    for (size_t i = 0; i < 3; i++) {
        culprit_error err;
        culprit_store *store = NULL;
        CHECK_INT(culprit_store_open(directory, modes[i], &store, &err), CULPRIT_ERROR_INPUT);
        CHECK_CONTAINS(err.message, path);
        CHECK_CONTAINS(err.message, expected);
        CHECK(store == NULL);
    }
    unsigned char *after = read_file(path, &size_after);
    CHECK(before && after);
    CHECK_INT(size_after, size_before);
    CHECK(before && after && size_after == size_before && memcmp(before, after, size_before) == 0);
    free(before);
    free(after);
}

static void test_not_sqlite(void)
{
    char directory[64], path[128];
    make_scratch_directory(directory);
    database_path(directory, path);
    const char text[] = "this is a text file, not a database\n";
    write_file(path, text, sizeof text - 1);
    check_refused_untouched(directory, "not a culprit store (not an SQLite database)");

    /* Shorter than the header, and a header with one byte wrong. */
    write_file(path, "SQLite", 6);
    check_refused_untouched(directory, "not an SQLite database");
    char almost[4096] = "SQLite format 3";
    almost[15] = 'x';
    write_file(path, almost, sizeof almost);
    check_refused_untouched(directory, "not an SQLite database");

    /* A directory where the database should be. */
    unlink(path);
    mkdir(path, 0777);
    culprit_error err;
    culprit_store *store = NULL;
    CHECK_INT(culprit_store_open(directory, CULPRIT_STORE_CREATE, &store, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "not a culprit store");
    remove_tree(directory);
}

static void test_foreign_sqlite(void)
{
    char directory[64], path[128];
    make_scratch_directory(directory);
    database_path(directory, path);
    raw_sql(path, "CREATE TABLE recipes (name TEXT); INSERT INTO recipes VALUES ('soup');");
    check_refused_untouched(directory, "not a culprit store (foreign SQLite database)");

    /* Another application's id, even with no tables. */
    unlink(path);
    raw_sql(path, "PRAGMA application_id = 1234");
    check_refused_untouched(directory, "foreign SQLite database");

    /* A foreign database in WAL mode must not be checkpointed by us. */
    unlink(path);
    raw_sql(path, "PRAGMA journal_mode = WAL; CREATE TABLE t (x); INSERT INTO t VALUES (1);");
    check_refused_untouched(directory, "foreign SQLite database");
    remove_tree(directory);
}

static void test_newer_schema(void)
{
    char directory[64], path[128];
    make_scratch_directory(directory);
    culprit_spectra saved;
    culprit_spectra_init(&saved);
    make_sample_store(directory, &saved);
    database_path(directory, path);
    raw_sql(path, "PRAGMA user_version = 99");
    char expected[256];
    snprintf(expected, sizeof expected,
             "%s: store schema version 99 is newer than this culprit supports (%d)", path,
             CULPRIT_STORE_SCHEMA_VERSION);
    check_refused_untouched(directory, expected);
    culprit_spectra_free(&saved);
    remove_tree(directory);
}

/* A current culprit store whose damage sits in its write-ahead log (sql,
 * run there and not yet checkpointed): its header says current, so no
 * read-only probe looks first, but the working connection folds nothing
 * into the database until it has identified the store, so the refusal
 * leaves the database and the log as they were (a read-write connection
 * checkpoints the log into the database on closing). */
static void check_damage_in_log(const char *sql, const char *expected)
{
    char directory[64], path[128], log[160];
    make_scratch_directory(directory);
    culprit_spectra saved;
    culprit_spectra_init(&saved);
    make_sample_store(directory, &saved);
    culprit_spectra_free(&saved);
    database_path(directory, path);
    snprintf(log, sizeof log, "%s-wal", path);
    sqlite3 *database = NULL;
    CHECK_INT(sqlite3_open(path, &database), SQLITE_OK);
    CHECK_INT(sqlite3_db_config(database, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL), SQLITE_OK);
    CHECK_INT(sqlite3_exec(database, "PRAGMA journal_mode = WAL", NULL, NULL, NULL), SQLITE_OK);
    CHECK_INT(sqlite3_exec(database, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(database); /* the change stays in the log only */
    size_t log_size = 0;
    unsigned char *pending = read_file(log, &log_size);
    CHECK(pending && log_size > 0);
    check_refused_untouched(directory, expected);
    size_t size_after = 0;
    unsigned char *after = read_file(log, &size_after);
    CHECK(after && size_after == log_size && memcmp(after, pending, log_size) == 0);
    free(pending);
    free(after);
    remove_tree(directory);
}

static void test_damage_in_log(void)
{
    check_damage_in_log("DROP TABLE test_commands", "table 'test_commands' is missing");
    check_damage_in_log("PRAGMA user_version = 99", "store schema version 99 is newer");
}

/* An empty database, or one culprit claimed without tables (version 0),
 * is not a store yet: READ and WRITE say so, CREATE initialises it. */
static void test_empty_and_version_zero(void)
{
    char directory[64], path[128];
    make_scratch_directory(directory);
    database_path(directory, path);
    write_file(path, "", 0);
    culprit_error err;
    culprit_store *store = NULL;
    CHECK_INT(culprit_store_open(directory, CULPRIT_STORE_READ, &store, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "no culprit store at");
    CHECK_INT(culprit_store_open(directory, CULPRIT_STORE_CREATE, &store, &err), CULPRIT_OK);
    culprit_store_close(store);
    store = NULL;

    unlink(path);
    char claimed[64];
    snprintf(claimed, sizeof claimed, "PRAGMA application_id = %d", 0x43554c50);
    raw_sql(path, claimed);
    CHECK_INT(culprit_store_open(directory, CULPRIT_STORE_WRITE, &store, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "no culprit store at");
    CHECK_INT(culprit_store_open(directory, CULPRIT_STORE_CREATE, &store, &err), CULPRIT_OK);
    if (store) {
        int64_t current = -1;
        CHECK_INT(culprit_store_current_program(store, &current, &err), CULPRIT_OK);
        CHECK_INT(current, 0);
        culprit_store_close(store);
    }
    remove_tree(directory);
}

/* Damaged databases are reported (corrupt, or not a database), never
 * crash, and whatever the damage, a failure carries a message. */
static void test_corrupt(void)
{
    char directory[64], path[128];
    make_scratch_directory(directory);
    culprit_spectra saved;
    culprit_spectra_init(&saved);
    int64_t program = make_sample_store(directory, &saved);
    culprit_spectra_free(&saved);
    database_path(directory, path);
    size_t size;
    unsigned char *original = read_file(path, &size);
    CHECK(original && size >= 4096 * 4);
    if (!original || size < 4096 * 4) {
        free(original);
        remove_tree(directory);
        return;
    }
    unsigned char *damaged = malloc(size);
    int reported = 0;
    size_t page = 4096;
    /* Garbage over each page in turn (after page 1's header), then the file
     * cut in half. */
    for (size_t offset = 100; offset < size + page; offset += page) {
        memcpy(damaged, original, size);
        size_t length = size;
        if (offset < size) {
            size_t end = (offset / page + 1) * page;
            for (size_t i = offset; i < end && i < size; i++)
                damaged[i] = (unsigned char)(i * 7 + 13);
        } else {
            length = size / 2;
        }
        write_file(path, damaged, length);
        culprit_error err = {0};
        culprit_status status = open_and_load(directory, CULPRIT_STORE_READ, program, &err);
        if (status != CULPRIT_OK) {
            reported++;
            /* Damage SQLite cannot see can make rows vanish ("no program"). */
            CHECK_RECORD(strstr(err.message, "corrupt") || strstr(err.message, "not an SQLite database") ||
                             strstr(err.message, "not know") || strstr(err.message, "no program"),
                         "damage at %zu: unexpected message \"%s\"", offset, err.message);
            CHECK_CONTAINS(err.message, path);
        }
    }
    CHECK(reported > 0);

    /* Garbage over the header: not a database at all. */
    memcpy(damaged, original, size);
    memset(damaged, 0x5a, 64);
    write_file(path, damaged, size);
    culprit_error err;
    CHECK_INT(open_and_load(directory, CULPRIT_STORE_READ, program, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "not an SQLite database");
    free(damaged);
    free(original);
    remove_tree(directory);
}

/* The blobs are laid out byte for byte as docs/store.md says. */
static void test_blob_layout(void)
{
    char directory[64], path[128];
    make_scratch_directory(directory);
    database_path(directory, path);
    culprit_spectra spectra;
    culprit_spectra_init(&spectra);
    culprit_error err;
    uint32_t index;
    for (uint32_t line = 1; line <= 70; line++)
        CHECK_INT(culprit_spectra_add_element(&spectra, CULPRIT_KIND_LINE, CULPRIT_NO_FILE, line, 0, NULL,
                                              &index, &err),
                  CULPRIT_OK);
    size_t test;
    CHECK_INT(culprit_spectra_add_test(&spectra, "t", CULPRIT_VERDICT_FAIL, &test, &err), CULPRIT_OK);
    culprit_spectra_set_hit(&spectra, test, 65);
    uint32_t elements[] = {0, 1, 6};
    uint64_t counts[] = {1, 300, 5};
    CHECK_INT(culprit_spectra_set_counts(&spectra, test, 3, elements, counts, &err), CULPRIT_OK);
    culprit_store *store = NULL;
    int64_t program = 0;
    CHECK_INT(culprit_store_open(directory, CULPRIT_STORE_CREATE, &store, &err), CULPRIT_OK);
    if (store) {
        CHECK_INT(culprit_store_save_program(store, &spectra, NULL, &program, &err), CULPRIT_OK);
        CHECK_INT(culprit_store_save_test(store, program, &spectra, test, &err), CULPRIT_OK);
        culprit_store_close(store);
    }
    sqlite3 *database = NULL;
    sqlite3_stmt *statement = NULL;
    CHECK_INT(sqlite3_open_v2(path, &database, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    CHECK_INT(sqlite3_prepare_v2(database, "SELECT hex(hits), hex(counts), duration FROM tests", -1,
                                 &statement, NULL),
              SQLITE_OK);
    CHECK_INT(sqlite3_step(statement), SQLITE_ROW);
    CHECK_STR((const char *)sqlite3_column_text(statement, 0), "43000000000000000200000000000000");
    CHECK_STR((const char *)sqlite3_column_text(statement, 1), "03000100AC020405");
    CHECK_INT(sqlite3_column_type(statement, 2), SQLITE_NULL); /* unknown duration */
    sqlite3_finalize(statement);
    sqlite3_close(database);
    culprit_spectra_free(&spectra);
    remove_tree(directory);
}

/* Rows that SQLite finds fine but culprit cannot use. */
static void test_bad_rows(void)
{
    char directory[64], path[128];
    make_scratch_directory(directory);
    culprit_spectra saved;
    culprit_spectra_init(&saved);
    int64_t program = make_sample_store(directory, &saved);
    culprit_spectra_free(&saved);
    database_path(directory, path);
    culprit_error err;
    char expected[256];

    raw_sql(path, "UPDATE tests SET hits = x'00' WHERE name = 't-error'");
    CHECK_INT(open_and_load(directory, CULPRIT_STORE_READ, program, &err), CULPRIT_ERROR_INPUT);
    snprintf(expected, sizeof expected,
             "%s: store is corrupt: test 't-error' has 1 bytes of hits, expected 16", path);
    CHECK_STR(err.message, expected);
    raw_sql(path, "UPDATE tests SET hits = zeroblob(16) WHERE name = 't-error'");
    CHECK_INT(open_and_load(directory, CULPRIT_STORE_READ, program, &err), CULPRIT_OK);

    raw_sql(path, "UPDATE tests SET counts = x'05' WHERE name = 't-pass'");
    CHECK_INT(open_and_load(directory, CULPRIT_STORE_READ, program, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "store is corrupt: the counts of test 't-pass'");
    raw_sql(path, "UPDATE tests SET counts = x'01ff7f01' WHERE name = 't-pass'"); /* element id 16383 */
    CHECK_INT(open_and_load(directory, CULPRIT_STORE_READ, program, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "out of range");
    raw_sql(path, "UPDATE tests SET counts = x'020001000100' WHERE name = 't-pass'"); /* trailing byte */
    CHECK_INT(open_and_load(directory, CULPRIT_STORE_READ, program, &err), CULPRIT_ERROR_INPUT);
    raw_sql(path, "UPDATE tests SET counts = x'020002010a' WHERE name = 't-pass'"); /* ids 0 and 2 */
    CHECK_INT(open_and_load(directory, CULPRIT_STORE_READ, program, &err), CULPRIT_OK);

    raw_sql(path, "UPDATE tests SET verdict = 'flaky' WHERE name = 't-pass'");
    CHECK_INT(open_and_load(directory, CULPRIT_STORE_READ, program, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "verdict 'flaky'");
    raw_sql(path, "UPDATE tests SET verdict = 'pass' WHERE name = 't-pass'");

    raw_sql(path, "UPDATE elements SET kind = 'statement' WHERE ordinal = 3");
    CHECK_INT(open_and_load(directory, CULPRIT_STORE_READ, program, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "kind 'statement'");
    raw_sql(path, "UPDATE elements SET kind = 'edge' WHERE ordinal = 3");

    raw_sql(path, "PRAGMA foreign_keys = OFF; DELETE FROM elements WHERE ordinal = 40");
    CHECK_INT(open_and_load(directory, CULPRIT_STORE_READ, program, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "store is corrupt");

    raw_sql(path, "DROP TABLE tests");
    CHECK_INT(open_and_load(directory, CULPRIT_STORE_READ, program, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "table 'tests' is missing");
    remove_tree(directory);
}

/* ---- concurrency ---- */

static double seconds_now(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

/* While another connection holds an open write transaction, a reader loads
 * the last committed state at once. */
static void test_reader_during_write(void)
{
    char directory[64], path[128];
    make_scratch_directory(directory);
    culprit_spectra saved;
    culprit_spectra_init(&saved);
    int64_t program = make_sample_store(directory, &saved);
    database_path(directory, path);

    sqlite3 *writer = NULL;
    CHECK_INT(sqlite3_open(path, &writer), SQLITE_OK);
    CHECK_INT(
        sqlite3_exec(writer, "BEGIN IMMEDIATE; DELETE FROM tests WHERE name = 't-fail';", NULL, NULL, NULL),
        SQLITE_OK);

    culprit_error err;
    culprit_store *reader = NULL;
    double start = seconds_now();
    CHECK_INT(culprit_store_open(directory, CULPRIT_STORE_READ, &reader, &err), CULPRIT_OK);
    if (reader) {
        culprit_spectra loaded;
        culprit_spectra_init(&loaded);
        CHECK_INT(culprit_store_load(reader, program, &loaded, &err), CULPRIT_OK);
        CHECK_INT(loaded.test_count, saved.test_count); /* the delete is not committed */
        culprit_spectra_free(&loaded);
        culprit_store_close(reader);
    }
    /* A writer may open (it only writes when saving) while the lock is held. */
    culprit_store *second_writer = NULL;
    CHECK_INT(culprit_store_open(directory, CULPRIT_STORE_WRITE, &second_writer, &err), CULPRIT_OK);
    culprit_store_close(second_writer);
    CHECK(seconds_now() - start < 1.0); /* nobody waited for the writer */

    CHECK_INT(sqlite3_exec(writer, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(writer);
    CHECK_INT(open_and_load(directory, CULPRIT_STORE_READ, program, &err), CULPRIT_OK);
    culprit_spectra_free(&saved);
    remove_tree(directory);
}

/* A writer that finds the write lock taken waits for it (busy timeout)
 * instead of failing: a child process holds it for a moment. */
static void test_writer_waits(void)
{
    char directory[64], path[128];
    make_scratch_directory(directory);
    culprit_spectra saved;
    culprit_spectra_init(&saved);
    int64_t program = make_sample_store(directory, &saved);
    database_path(directory, path);
    int ready[2];
    CHECK_INT(pipe(ready), 0);
    pid_t child = fork();
    if (child == 0) {
        sqlite3 *holder = NULL;
        int code = sqlite3_open(path, &holder);
        if (code == SQLITE_OK)
            code = sqlite3_exec(holder, "BEGIN IMMEDIATE", NULL, NULL, NULL);
        char byte = code == SQLITE_OK ? 'y' : 'n';
        if (write(ready[1], &byte, 1) != 1)
            _exit(1);
        usleep(300 * 1000);
        code = sqlite3_exec(holder, "COMMIT", NULL, NULL, NULL);
        sqlite3_close(holder);
        _exit(code == SQLITE_OK ? 0 : 1);
    }
    char byte = 'n';
    CHECK_INT(read(ready[0], &byte, 1), 1);
    CHECK_INT(byte, 'y');
    culprit_error err;
    culprit_store *store = NULL;
    CHECK_INT(culprit_store_open(directory, CULPRIT_STORE_WRITE, &store, &err), CULPRIT_OK);
    if (store) {
        double start = seconds_now();
        saved.tests[0].verdict = CULPRIT_VERDICT_FAIL;
        CHECK_INT(culprit_store_save_test(store, program, &saved, 0, &err), CULPRIT_OK);
        CHECK(seconds_now() - start > 0.1); /* it did wait */
        culprit_store_close(store);
    }
    int status = -1;
    CHECK_INT(waitpid(child, &status, 0), child);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    close(ready[0]);
    close(ready[1]);
    culprit_spectra_free(&saved);
    remove_tree(directory);
}

/* A writer killed with SIGKILL loses nothing it committed, and the next
 * reader (read-only, so it cannot run a checkpoint) still sees it all. */
static void test_killed_writer(void)
{
    char directory[64];
    make_scratch_directory(directory);
    culprit_spectra spectra;
    culprit_spectra_init(&spectra);
    build_program(&spectra, 0);
    add_sample_tests(&spectra);
    pid_t child = fork();
    if (child == 0) {
        culprit_error err;
        culprit_store *store = NULL;
        int64_t program = 0;
        if (culprit_store_open(directory, CULPRIT_STORE_CREATE, &store, &err) == CULPRIT_OK &&
            culprit_store_save_program(store, &spectra, NULL, &program, &err) == CULPRIT_OK)
            for (size_t t = 0; t < 3; t++)
                culprit_store_save_test(store, program, &spectra, t, &err);
        kill(getpid(), SIGKILL);
        _exit(1);
    }
    int status = 0;
    CHECK_INT(waitpid(child, &status, 0), child);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    culprit_error err;
    culprit_store *store = NULL;
    CHECK_INT(culprit_store_open(directory, CULPRIT_STORE_READ, &store, &err), CULPRIT_OK);
    if (store) {
        int64_t program = 0;
        CHECK_INT(culprit_store_current_program(store, &program, &err), CULPRIT_OK);
        culprit_spectra loaded;
        culprit_spectra_init(&loaded);
        CHECK_INT(culprit_store_load(store, program, &loaded, &err), CULPRIT_OK);
        check_same_elements(&loaded, &spectra);
        CHECK_INT(loaded.test_count, 3);
        for (size_t t = 0; t < loaded.test_count && t < 3; t++)
            check_same_test(&loaded, t, &spectra, t);
        culprit_spectra_free(&loaded);
        culprit_store_close(store);
    }
    culprit_spectra_free(&spectra);
    remove_tree(directory);
}

/* ---- the store directory ---- */

static void test_directory(void)
{
    char *saved = getenv("CULPRIT_STORE") ? strdup(getenv("CULPRIT_STORE")) : NULL;
    unsetenv("CULPRIT_STORE");
    CHECK_STR(culprit_store_directory(NULL), ".culprit");
    CHECK_STR(culprit_store_directory("explicit"), "explicit");
    setenv("CULPRIT_STORE", "", 1);
    CHECK_STR(culprit_store_directory(NULL), ".culprit");
    setenv("CULPRIT_STORE", "/from/environment", 1);
    CHECK_STR(culprit_store_directory(NULL), "/from/environment");
    CHECK_STR(culprit_store_directory("explicit"), "explicit");
    if (saved)
        setenv("CULPRIT_STORE", saved, 1);
    else
        unsetenv("CULPRIT_STORE");
    free(saved);
}

int main(void)
{
    test_missing_store();
    test_not_sqlite();
    test_foreign_sqlite();
    test_newer_schema();
    test_damage_in_log();
    test_empty_and_version_zero();
    test_corrupt();
    test_blob_layout();
    test_bad_rows();
    test_reader_during_write();
    test_writer_waits();
    test_killed_writer();
    test_directory();
    return check_report("store_damage");
}
