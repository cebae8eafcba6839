/*
 * store.c - finding, opening and closing the store (include/culprit/store.h).
 *
 * Opening happens in three steps, each on its own connection, so that no
 * connection that could write ever touches a file before it is known to be
 * ours:
 *   1. check: the file's first bytes by hand, then a read-only connection
 *      identifies it (identify.c) - foreign files are reported, untouched
 *      (a store the user may only read is opened immutable: open_reader);
 *      a file whose header already says it is a current culprit store,
 *      with no log beside it, skips that connection (every `culprit test`
 *      opens the store), and step 3 identifies it in full;
 *   2. upgrade: only for a new or older database, a read-write connection
 *      creates or migrates the schema in one transaction (schema.c);
 *   3. work: the connection handed to the caller, tuned for many concurrent
 *      `culprit test` writers and fast loads (WAL, busy timeout, mmap).
 */
#include "store/store_internal.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "culprit/error.h"

/* How long a connection waits for another process's write transaction
 * before giving up: long enough for any single test's commit. */
enum { BUSY_TIMEOUT_MILLISECONDS = 10000 };

/* Reads map the whole database (up to SQLite's default ceiling of just
 * under 2 GiB) so loading a large matrix copies each hit row once, from the
 * page straight into the spectra. */
#define MMAP_SIZE_BYTES "2147418112"

const char *culprit_store_directory(const char *explicit_directory)
{
    if (explicit_directory)
        return explicit_directory;
    const char *environment = getenv("CULPRIT_STORE");
    if (environment && *environment)
        return environment;
    return ".culprit";
}

/* mkdir -p: creates directory and any missing parents. */
static culprit_status make_directories(const char *directory, culprit_error *err)
{
    if (!*directory)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "the store directory name is empty");
    char *path = strdup(directory);
    if (!path)
        return culprit_fail_memory(err);
    culprit_status status = CULPRIT_OK;
    for (char *slash = strchr(path + 1, '/');; slash = strchr(slash + 1, '/')) {
        if (slash)
            *slash = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST) {
            status = culprit_fail(err, CULPRIT_ERROR_INPUT, "cannot create store directory %s: %s", path,
                                  strerror(errno));
            break;
        }
        if (!slash)
            break;
        *slash = '/';
    }
    free(path);
    struct stat info;
    if (status == CULPRIT_OK && stat(directory, &info) != 0)
        status = culprit_fail(err, CULPRIT_ERROR_INPUT, "cannot create store directory %s: %s", directory,
                              strerror(errno));
    else if (status == CULPRIT_OK && !S_ISDIR(info.st_mode))
        status = culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: not a directory", directory);
    return status;
}

static char *database_path(const char *directory)
{
    size_t length = strlen(directory) + 1 + sizeof CULPRIT_STORE_DATABASE_NAME;
    char *path = malloc(length);
    if (path)
        snprintf(path, length, "%s/%s", directory, CULPRIT_STORE_DATABASE_NAME);
    return path;
}

static culprit_status no_store(const char *directory, culprit_error *err)
{
    return culprit_fail(
        err, CULPRIT_ERROR_INPUT,
        "no culprit store at %s (record tests first: 'culprit test', 'culprit run' or 'culprit import')",
        directory);
}

/* Opens connection->database with flags and sets the busy timeout. */
static culprit_status open_connection(culprit_store *connection, int flags, culprit_error *err)
{
    int code = sqlite3_open_v2(connection->path, &connection->database, flags, NULL);
    if (code == SQLITE_OK)
        code = sqlite3_busy_timeout(connection->database, BUSY_TIMEOUT_MILLISECONDS);
    if (code != SQLITE_OK)
        return culprit_store_sqlite_error(connection, code, "opening the database", err);
    return CULPRIT_OK;
}

/* "file:PATH?immutable=1" with PATH percent-encoded where URIs need it. */
static char *immutable_uri(const char *path)
{
    static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-";
    size_t length = strlen(path);
    char *uri = malloc(3 * length + 32);
    if (!uri)
        return NULL;
    char *at = uri + sprintf(uri, path[0] == '/' ? "file://" : "file:");
    for (const char *c = path; *c; c++)
        at += *c && strchr(plain, *c) ? sprintf(at, "%c", *c) : sprintf(at, "%%%02X", (unsigned char)*c);
    strcpy(at, "?immutable=1");
    return uri;
}

/* A read-only connection to a store in WAL mode needs the -shm file, and
 * creates it when missing: in a directory the user can only read, every
 * query failed ("attempt to write a readonly database"), even `culprit
 * tests`.  Such a store is opened immutable instead: nothing this user
 * runs can be changing it, and its -wal file, if any, can only be stale
 * with no -shm beside it.  A writer of another user working at the same
 * time is not seen (and may make reads fail as corrupt). */
static culprit_status open_reader(culprit_store *connection, culprit_error *err)
{
    culprit_status status = open_connection(connection, SQLITE_OPEN_READONLY, err);
    if (status != CULPRIT_OK)
        return status;
    int code = sqlite3_exec(connection->database, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL);
    if ((code & 0xff) != SQLITE_READONLY && (code & 0xff) != SQLITE_CANTOPEN)
        return CULPRIT_OK; /* other errors are reported by the queries that meet them */
    sqlite3_close(connection->database);
    connection->database = NULL;
    char *uri = immutable_uri(connection->path);
    if (!uri)
        return culprit_fail_memory(err);
    code = sqlite3_open_v2(uri, &connection->database, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
    free(uri);
    if (code != SQLITE_OK)
        return culprit_store_sqlite_error(connection, code, "opening the database", err);
    return CULPRIT_OK;
}

/* Pages in the log past which a connection that keeps it folds it into
 * the database on closing anyway (SQLite's own automatic checkpoint is at
 * 1,000).  Every first connection reads the whole log to rebuild its
 * index: on a quiet machine, where an fsync is cheap, a log of up to 4 MiB
 * cost a sed test as much as the checkpoints it saved; with 1 MiB the
 * reading is small, and a checkpoint comes every dozen tests or so. */
enum { KEPT_LOG_LIMIT_FRAMES = 256 };

static void close_connection(culprit_store *connection)
{
    /* Every statement is finalized where it was prepared, or kept and
     * finalized here, so close cannot be refused for statements still open. */
    culprit_store_forget_kept(connection);
    culprit_store_forget_program_cache(connection);
    if (connection->keep_log && connection->log_frames >= KEPT_LOG_LIMIT_FRAMES) {
        /* TRUNCATE, not the PASSIVE checkpoint of a close: the next process
         * rebuilds the log's index from the file and would count every frame
         * as unfolded again.  Without waiting: when another connection is
         * writing, or reading an older state, the next `culprit test` tries
         * again (a long reader would otherwise delay every test). */
        sqlite3_busy_timeout(connection->database, 0);
        sqlite3_wal_checkpoint_v2(connection->database, NULL, SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL);
    }
    sqlite3_close(connection->database);
    connection->database = NULL;
}

/* Step 1: the schema version of an existing SQLite file, read-only. */
static culprit_status probe_version(char *path, int *version, culprit_error *err)
{
    culprit_store probe = {.database = NULL, .path = path};
    culprit_status status = open_reader(&probe, err);
    if (status == CULPRIT_OK)
        status = culprit_store_identify(&probe, version, err);
    close_connection(&probe);
    return status;
}

/* Step 2: creates or migrates the schema.  Identifies the database again
 * inside the write transaction, since another culprit process may have
 * created or upgraded it since step 1. */
static culprit_status upgrade(char *path, bool create, culprit_error *err)
{
    culprit_store upgrader = {.database = NULL, .path = path};
    int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
    culprit_status status = open_connection(&upgrader, flags, err);
    if (status == CULPRIT_OK)
        status = culprit_store_begin(&upgrader, true, err);
    int version = 0;
    if (status == CULPRIT_OK)
        status = culprit_store_identify(&upgrader, &version, err);
    if (status == CULPRIT_OK)
        status = culprit_store_migrate(&upgrader, version, err);
    if (status == CULPRIT_OK)
        status = culprit_store_commit(&upgrader, err);
    else if (upgrader.database)
        culprit_store_rollback(&upgrader);
    close_connection(&upgrader);
    return status;
}

/* Whether path has a -journal file with something in it: then opening a
 * read-write connection could roll it back, changing the database, so the
 * read-only probe must look first.  A -wal file needs no probe: the working
 * connection checkpoints nothing on closing until it has identified the
 * store (open_working_connection), so a refused store stays as it was. */
static bool has_rollback_journal(const char *path)
{
    char log[PATH_MAX];
    struct stat info;
    return (size_t)snprintf(log, sizeof log, "%s-journal", path) >= sizeof log ||
           (stat(log, &info) == 0 && info.st_size > 0);
}

/* Makes sure path holds a current culprit database, creating or migrating
 * it as mode allows. */
static culprit_status prepare_database(const char *directory, char *path, culprit_store_mode mode,
                                       culprit_error *err)
{
    culprit_status status = CULPRIT_OK;
    if (mode == CULPRIT_STORE_CREATE)
        status = make_directories(directory, err);
    bool exists = false, empty = false;
    int header_version = -1;
    if (status == CULPRIT_OK)
        status = culprit_store_check_file(path, &exists, &empty, &header_version, err);
    if (status == CULPRIT_OK && exists && header_version == CULPRIT_STORE_SCHEMA_VERSION &&
        !has_rollback_journal(path))
        return CULPRIT_OK; /* ours and current by its header; the working connection checks the rest */
    int version = 0;
    if (status == CULPRIT_OK && exists && !empty)
        status = probe_version(path, &version, err);
    if (status != CULPRIT_OK)
        return status;
    if (version == 0 && mode != CULPRIT_STORE_CREATE)
        return no_store(directory, err);
    if (version < CULPRIT_STORE_SCHEMA_VERSION)
        return upgrade(path, mode == CULPRIT_STORE_CREATE, err);
    return CULPRIT_OK;
}

/* Steps the journal-mode PRAGMA, retrying while another connection holds
 * the lock: SQLite answers a journal-mode change with SQLITE_BUSY without
 * calling the busy handler, and when `make -j` starts several `culprit
 * test` on a new store they all switch it at once. */
static int step_waiting_for_lock(sqlite3_stmt *statement)
{
    enum { RETRY_MILLISECONDS = 5 };
    int code = sqlite3_step(statement);
    for (int waited = 0; (code == SQLITE_BUSY || code == SQLITE_LOCKED) && waited < BUSY_TIMEOUT_MILLISECONDS;
         waited += RETRY_MILLISECONDS) {
        sqlite3_reset(statement);
        nanosleep(&(struct timespec){0, RETRY_MILLISECONDS * 1000000L}, NULL);
        code = sqlite3_step(statement);
    }
    return code;
}

/* Runs a PRAGMA journal_mode and checks that SQLite agreed: on file
 * systems without shared memory it silently keeps the old mode, and then
 * concurrent `culprit test` processes would block readers. */
static culprit_status use_write_ahead_log(const culprit_store *store, culprit_error *err)
{
    sqlite3_stmt *statement;
    culprit_status status = culprit_store_prepare(store, "PRAGMA journal_mode = WAL", &statement, err);
    if (status != CULPRIT_OK)
        return status;
    int code = step_waiting_for_lock(statement);
    if (code != SQLITE_ROW) {
        status = culprit_store_sqlite_error(store, code, "switching to WAL mode", err);
    } else {
        const char *mode = (const char *)sqlite3_column_text(statement, 0);
        if (!mode || strcmp(mode, "wal") != 0)
            status = culprit_fail(err, CULPRIT_ERROR_INTERNAL,
                                  "%s: cannot switch to WAL mode (journal mode stays '%s')", store->path,
                                  mode ? mode : "?");
    }
    sqlite3_finalize(statement);
    return status;
}

/* Step 3's settings, all per connection. */
static culprit_status configure(const culprit_store *store, culprit_store_mode mode, culprit_error *err)
{
    /* synchronous=NORMAL in WAL mode: a commit survives the process being
     * killed (it is in the WAL file), only a power cut can roll back the
     * last few tests, and we avoid one fsync per test. */
    culprit_status status = culprit_store_execute(store,
                                                  "PRAGMA foreign_keys = ON;"
                                                  "PRAGMA cache_size = -65536;"
                                                  "PRAGMA mmap_size = " MMAP_SIZE_BYTES ";",
                                                  "configuring the connection", err);
    if (status == CULPRIT_OK && mode != CULPRIT_STORE_READ)
        status = use_write_ahead_log(store, err);
    if (status == CULPRIT_OK && mode != CULPRIT_STORE_READ)
        status =
            culprit_store_execute(store, "PRAGMA synchronous = NORMAL", "configuring the connection", err);
    return status;
}

static culprit_status open_working_connection(culprit_store *store, const char *directory,
                                              culprit_store_mode mode, culprit_error *err)
{
    culprit_status status = mode == CULPRIT_STORE_READ ? open_reader(store, err)
                                                       : open_connection(store, SQLITE_OPEN_READWRITE, err);
    bool writer = mode != CULPRIT_STORE_READ && status == CULPRIT_OK;
    if (writer) /* until identified: closing a refused store must not fold its log in */
        sqlite3_db_config(store->database, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL);
    int version = 0;
    if (status == CULPRIT_OK)
        status = culprit_store_identify(store, &version, err);
    if (status == CULPRIT_OK && version != CULPRIT_STORE_SCHEMA_VERSION)
        status = no_store(directory, err); /* replaced by an empty file since we checked */
    if (status == CULPRIT_OK)
        status = configure(store, mode, err);
    if (status == CULPRIT_OK && writer)
        sqlite3_db_config(store->database, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 0, NULL);
    return status;
}

culprit_status culprit_store_open(const char *directory, culprit_store_mode mode, culprit_store **result,
                                  culprit_error *err)
{
    *result = NULL;
    culprit_store *store = calloc(1, sizeof *store);
    if (store)
        store->path = database_path(directory);
    if (!store || !store->path) {
        free(store);
        return culprit_fail_memory(err);
    }
    culprit_status status = prepare_database(directory, store->path, mode, err);
    if (status == CULPRIT_OK)
        status = open_working_connection(store, directory, mode, err);
    if (status != CULPRIT_OK) {
        culprit_store_close(store);
        return status;
    }
    *result = store;
    return CULPRIT_OK;
}

/* sqlite3_wal_hook's callback, in place of the automatic checkpoint:
 * remembers how long the log is for close_connection. */
static int count_log_frames(void *context, sqlite3 *database, const char *schema, int frames)
{
    (void)database;
    (void)schema;
    ((culprit_store *)context)->log_frames = frames;
    return SQLITE_OK;
}

void culprit_store_keep_log(culprit_store *store)
{
    store->keep_log = true;
    sqlite3_db_config(store->database, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL);
    sqlite3_wal_hook(store->database, count_log_frames, store);
}

void culprit_store_close(culprit_store *store)
{
    if (!store)
        return;
    close_connection(store);
    free(store->path);
    free(store);
}
