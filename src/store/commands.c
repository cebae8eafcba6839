/*
 * commands.c - the saved commands of a program's tests (table
 * test_commands, schema version 8): how `culprit test` ran each test, as
 * one entry of a JSON manifest (docs/harness.md).  Read back whole, as the
 * manifest `culprit mutate` and `culprit export manifest` use, so that a
 * suite another harness drove (automake's LOG_COMPILE, meson, CTest) can be
 * run again test by test without that harness.
 */
#include "store/store_internal.h"

#include <stdlib.h>
#include <string.h>

#include "culprit/error.h"

/* Appends text (length bytes) to the growing buffer. */
static bool append(char **buffer, size_t *size, size_t *capacity, const char *text, size_t length)
{
    if (*size + length + 1 > *capacity) {
        size_t wanted = (*capacity ? *capacity * 2 : 4096) + length;
        char *grown = realloc(*buffer, wanted);
        if (!grown)
            return false;
        *buffer = grown;
        *capacity = wanted;
    }
    memcpy(*buffer + *size, text, length);
    *size += length;
    (*buffer)[*size] = '\0';
    return true;
}

culprit_status culprit_store_load_commands(culprit_store *store, int64_t program_id, char **manifest,
                                           size_t *count, culprit_error *err)
{
    *manifest = NULL;
    *count = 0;
    sqlite3_stmt *statement;
    culprit_status status = culprit_store_prepare(store,
                                                  "SELECT c.entry FROM tests t JOIN test_commands c"
                                                  " ON c.test_id = t.id WHERE t.program_id = ? ORDER BY t.id",
                                                  &statement, err);
    if (status != CULPRIT_OK)
        return status;
    char *text = NULL;
    size_t size = 0, capacity = 0;
    bool made = append(&text, &size, &capacity, "[", 1);
    int code = sqlite3_bind_int64(statement, 1, program_id);
    while (made && code == SQLITE_OK && (code = sqlite3_step(statement)) == SQLITE_ROW) {
        const char *entry = (const char *)sqlite3_column_text(statement, 0);
        size_t length = (size_t)sqlite3_column_bytes(statement, 0);
        made = append(&text, &size, &capacity, *count ? ",\n " : "\n ", *count ? 3 : 2) &&
               append(&text, &size, &capacity, entry ? entry : "null", entry ? length : 4);
        *count += 1;
        code = SQLITE_OK;
    }
    made = made && append(&text, &size, &capacity, "\n]\n", 3);
    sqlite3_finalize(statement);
    if (!made)
        status = culprit_fail_memory(err);
    else if (code != SQLITE_DONE)
        status = culprit_store_sqlite_error(store, code, "reading the tests' commands", err);
    if (status != CULPRIT_OK) {
        free(text);
        *count = 0;
        return status;
    }
    *manifest = text;
    return CULPRIT_OK;
}
