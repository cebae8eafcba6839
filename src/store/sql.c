/*
 * sql.c - the small helpers every store file uses to talk to SQLite, and the
 * one place that turns SQLite's error codes into culprit_error messages.
 *
 * Every message starts with the database path, so that a user with several
 * stores knows which one is meant.  Corruption is reported in one fixed
 * form ("store is corrupt (SQLite: ...)") wherever SQLite notices it, since
 * SQLite notices damaged pages only when it reads them.
 */
#include <stdlib.h>
#include <string.h>

#include "store/store_internal.h"

#include "culprit/error.h"

enum { KEPT_STATEMENTS = 48 }; /* more than the statements of recording a test */

struct culprit_kept_statements {
    size_t count;
    char *sql[KEPT_STATEMENTS]; /* owned copies: callers may build SQL in buffers */
    sqlite3_stmt *statements[KEPT_STATEMENTS];
};

culprit_status culprit_store_sqlite_error(const culprit_store *store, int code, const char *doing,
                                          culprit_error *err)
{
    const char *message = store->database ? sqlite3_errmsg(store->database) : sqlite3_errstr(code);
    switch (code & 0xff) {
    case SQLITE_NOTADB:
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: not a culprit store (not an SQLite database)",
                            store->path);
    case SQLITE_CORRUPT:
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: store is corrupt (SQLite: %s)", store->path,
                            message);
    case SQLITE_NOMEM:
        return culprit_fail_memory(err);
    case SQLITE_READONLY:
    case SQLITE_CANTOPEN:
    case SQLITE_PERM:
        /* the store's files or directory, not culprit: an input error */
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: %s: %s (check the store's permissions)",
                            store->path, doing, message);
    default:
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "%s: %s: %s", store->path, doing, message);
    }
}

culprit_status culprit_store_prepare(const culprit_store *store, const char *sql, sqlite3_stmt **statement,
                                     culprit_error *err)
{
    int code = sqlite3_prepare_v2(store->database, sql, -1, statement, NULL);
    if (code != SQLITE_OK) {
        sqlite3_finalize(*statement);
        *statement = NULL;
        /* culprit's queries fit its schema: when one does not, the store's
         * schema is the likelier culprit (check_schema says if it is). */
        if ((code & 0xff) == SQLITE_ERROR && culprit_store_check_schema(store, err) != CULPRIT_OK)
            return err->status;
        return culprit_store_sqlite_error(store, code, "preparing a query", err);
    }
    return CULPRIT_OK;
}

/* The kept statement for sql, or NULL. */
static sqlite3_stmt *find_kept(const culprit_kept_statements *kept, const char *sql)
{
    for (size_t i = 0; kept && i < kept->count; i++)
        if (strcmp(kept->sql[i], sql) == 0)
            return kept->statements[i];
    return NULL;
}

static void keep(culprit_store *store, const char *sql, sqlite3_stmt *statement)
{
    if (!store->kept)
        store->kept = calloc(1, sizeof *store->kept);
    culprit_kept_statements *kept = store->kept;
    if (!kept || kept->count == KEPT_STATEMENTS)
        return; /* not kept: release finalizes it */
    char *copy = strdup(sql);
    if (!copy)
        return;
    kept->sql[kept->count] = copy;
    kept->statements[kept->count++] = statement;
}

culprit_status culprit_store_prepare_kept(const culprit_store *store, const char *sql,
                                          sqlite3_stmt **statement, culprit_error *err)
{
    sqlite3_stmt *found = find_kept(store->kept, sql);
    if (found && !sqlite3_stmt_busy(found)) {
        *statement = found;
        return CULPRIT_OK;
    }
    culprit_status status = culprit_store_prepare(store, sql, statement, err);
    if (status == CULPRIT_OK && !found)
        keep((culprit_store *)store, sql, *statement); /* the cache only: see store_internal.h */
    return status;
}

void culprit_store_release(const culprit_store *store, sqlite3_stmt *statement)
{
    const culprit_kept_statements *kept = store->kept;
    for (size_t i = 0; kept && i < kept->count; i++)
        if (kept->statements[i] == statement) {
            sqlite3_reset(statement);
            sqlite3_clear_bindings(statement);
            return;
        }
    sqlite3_finalize(statement);
}

void culprit_store_forget_kept(culprit_store *store)
{
    culprit_kept_statements *kept = store->kept;
    for (size_t i = 0; kept && i < kept->count; i++) {
        sqlite3_finalize(kept->statements[i]);
        free(kept->sql[i]);
    }
    free(kept);
    store->kept = NULL;
}

/* Runs sql (kept prepared) to its first row; *value gets the row's first
 * column as an integer (0 without a row) when value is not NULL. */
static culprit_status step_kept(const culprit_store *store, const char *sql, const char *doing,
                                int64_t *value, culprit_error *err)
{
    sqlite3_stmt *statement;
    culprit_status status = culprit_store_prepare_kept(store, sql, &statement, err);
    if (status != CULPRIT_OK)
        return status;
    int code = sqlite3_step(statement);
    if (value)
        *value = code == SQLITE_ROW ? sqlite3_column_int64(statement, 0) : 0;
    if (code != SQLITE_DONE && code != SQLITE_ROW)
        status = culprit_store_sqlite_error(store, code, doing, err);
    culprit_store_release(store, statement);
    return status;
}

/* One statement without rows, kept prepared (BEGIN, COMMIT). */
static culprit_status execute_kept(const culprit_store *store, const char *sql, const char *doing,
                                   culprit_error *err)
{
    return step_kept(store, sql, doing, NULL, err);
}

culprit_status culprit_store_execute(const culprit_store *store, const char *sql, const char *doing,
                                     culprit_error *err)
{
    int code = sqlite3_exec(store->database, sql, NULL, NULL, NULL);
    if (code != SQLITE_OK)
        return culprit_store_sqlite_error(store, code, doing, err);
    return CULPRIT_OK;
}

culprit_status culprit_store_query_integer(const culprit_store *store, const char *sql, int64_t *value,
                                           culprit_error *err)
{
    return step_kept(store, sql, "querying the database", value, err);
}

culprit_status culprit_store_begin(const culprit_store *store, bool write, culprit_error *err)
{
    return execute_kept(store, write ? "BEGIN IMMEDIATE" : "BEGIN", "starting a transaction", err);
}

culprit_status culprit_store_commit(const culprit_store *store, culprit_error *err)
{
    culprit_status status = execute_kept(store, "COMMIT", "committing a transaction", err);
    if (status != CULPRIT_OK)
        culprit_store_rollback(store);
    return status;
}

void culprit_store_rollback(const culprit_store *store)
{
    if (!sqlite3_get_autocommit(store->database))
        (void)sqlite3_exec(store->database, "ROLLBACK", NULL, NULL, NULL);
}
