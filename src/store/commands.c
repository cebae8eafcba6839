/*
 * commands.c - the saved commands of a program's tests (table
 * test_commands, schema version 8): how `culprit test` ran each test, as
 * one entry of a JSON manifest (docs/harness.md).  Read back as the
 * manifest `culprit mutate` and `culprit export manifest` use, so that a
 * suite another harness drove (automake's LOG_COMPILE, meson's wrapper)
 * can be run again test by test without that harness.
 */
#include "store/store_internal.h"

#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "culprit/error.h"

void culprit_saved_commands_free(culprit_saved_command *commands, size_t count)
{
    for (size_t i = 0; commands && i < count; i++) {
        free(commands[i].name);
        free(commands[i].entry);
    }
    free(commands);
}

static char *column_text(sqlite3_stmt *statement, int column)
{
    const char *text = (const char *)sqlite3_column_text(statement, column);
    return strdup(text ? text : "");
}

culprit_status culprit_store_load_commands(culprit_store *store, int64_t program_id,
                                           culprit_saved_command **commands, size_t *count,
                                           culprit_error *err)
{
    *commands = NULL;
    *count = 0;
    sqlite3_stmt *statement;
    culprit_status status = culprit_store_prepare(store,
                                                  "SELECT t.name, c.entry FROM tests t JOIN test_commands c"
                                                  " ON c.test_id = t.id WHERE t.program_id = ? ORDER BY t.id",
                                                  &statement, err);
    if (status != CULPRIT_OK)
        return status;
    culprit_saved_command *list = NULL;
    size_t used = 0, capacity = 0;
    bool made = true;
    int code = sqlite3_bind_int64(statement, 1, program_id);
    while (made && code == SQLITE_OK && (code = sqlite3_step(statement)) == SQLITE_ROW) {
        made = CULPRIT_GROW(list, capacity, used + 1, 64);
        if (made) {
            list[used] = (culprit_saved_command){column_text(statement, 0), column_text(statement, 1)};
            made = list[used].name && list[used].entry;
            used++;
        }
        code = SQLITE_OK;
    }
    sqlite3_finalize(statement);
    if (!made)
        status = culprit_fail_memory(err);
    else if (code != SQLITE_DONE)
        status = culprit_store_sqlite_error(store, code, "reading the tests' commands", err);
    if (status != CULPRIT_OK) {
        culprit_saved_commands_free(list, used);
        return status;
    }
    *commands = list;
    *count = used;
    return CULPRIT_OK;
}
