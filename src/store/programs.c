/*
 * programs.c - programs in the store: saving an element table under its
 * content hash, the current-program marker, and finding a program by a
 * prefix of its hash.
 *
 * A program is saved once per distinct element table.  Saving the same
 * table again (the same build run twice, or `culprit import` of the same
 * matrix) finds it by hash and only moves the current-program marker, so
 * tests from both sessions accumulate under one program.
 */
#include "store/store_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "culprit/error.h"

/* Validates what the database's constraints would reject less clearly. */
static culprit_status check_elements(const culprit_store *store, const culprit_spectra *spectra,
                                     culprit_error *err)
{
    for (size_t i = 0; i < spectra->element_count; i++) {
        const culprit_element *element = &spectra->elements[i];
        if ((unsigned)element->kind >= CULPRIT_KIND_COUNT)
            return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "%s: element %zu has no valid kind", store->path,
                                i);
        if (element->file != CULPRIT_NO_FILE && element->file >= spectra->file_count)
            return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "%s: element %zu refers to file %u of %zu",
                                store->path, i, (unsigned)element->file, spectra->file_count);
    }
    return CULPRIT_OK;
}

culprit_status culprit_store_program_by_hash(const culprit_store *store, const char *hash,
                                             int64_t *program_id, culprit_error *err)
{
    sqlite3_stmt *statement;
    culprit_status status =
        culprit_store_prepare_kept(store, "SELECT id FROM programs WHERE hash = ?", &statement, err);
    if (status != CULPRIT_OK)
        return status;
    int code = sqlite3_bind_text(statement, 1, hash, -1, SQLITE_STATIC);
    if (code == SQLITE_OK)
        code = sqlite3_step(statement);
    *program_id = 0;
    if (code == SQLITE_ROW)
        *program_id = sqlite3_column_int64(statement, 0);
    else if (code != SQLITE_DONE)
        status = culprit_store_sqlite_error(store, code, "looking up a program", err);
    culprit_store_release(store, statement);
    return status;
}

static culprit_status insert_program_row(const culprit_store *store, const culprit_spectra *spectra,
                                         const char *hash, const char *source, int64_t *program_id,
                                         culprit_error *err)
{
    sqlite3_stmt *statement;
    culprit_status status = culprit_store_prepare_kept(
        store,
        "INSERT INTO programs (hash, source, created_at, file_count, element_count)"
        " VALUES (?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ?, ?)",
        &statement, err);
    if (status != CULPRIT_OK)
        return status;
    int code = sqlite3_bind_text(statement, 1, hash, -1, SQLITE_STATIC);
    if (code == SQLITE_OK)
        code = source ? sqlite3_bind_text(statement, 2, source, -1, SQLITE_STATIC)
                      : sqlite3_bind_null(statement, 2);
    if (code == SQLITE_OK)
        code = sqlite3_bind_int64(statement, 3, (sqlite3_int64)spectra->file_count);
    if (code == SQLITE_OK)
        code = sqlite3_bind_int64(statement, 4, (sqlite3_int64)spectra->element_count);
    if (code == SQLITE_OK)
        code = sqlite3_step(statement);
    if (code == SQLITE_DONE)
        *program_id = sqlite3_last_insert_rowid(store->database);
    else
        status = culprit_store_sqlite_error(store, code, "saving a program", err);
    culprit_store_release(store, statement);
    return status;
}

static culprit_status insert_files(const culprit_store *store, const culprit_spectra *spectra,
                                   int64_t program_id, culprit_error *err)
{
    sqlite3_stmt *statement;
    culprit_status status = culprit_store_prepare_kept(
        store, "INSERT INTO files (program_id, ordinal, path) VALUES (?, ?, ?)", &statement, err);
    if (status != CULPRIT_OK)
        return status;
    int code = sqlite3_bind_int64(statement, 1, program_id);
    for (size_t i = 0; i < spectra->file_count && code == SQLITE_OK; i++) {
        code = sqlite3_bind_int64(statement, 2, (sqlite3_int64)i);
        if (code == SQLITE_OK)
            code = sqlite3_bind_text(statement, 3, spectra->files[i], -1, SQLITE_STATIC);
        if (code == SQLITE_OK)
            code = sqlite3_step(statement);
        if (code == SQLITE_DONE)
            code = sqlite3_reset(statement);
    }
    if (code != SQLITE_OK)
        status = culprit_store_sqlite_error(store, code, "saving the file table", err);
    culprit_store_release(store, statement);
    return status;
}

/* Binds one element's columns 2..7 (column 1, the program, stays bound). */
static int bind_element(sqlite3_stmt *statement, size_t ordinal, const culprit_element *element)
{
    int code = sqlite3_bind_int64(statement, 2, (sqlite3_int64)ordinal);
    if (code == SQLITE_OK)
        code = sqlite3_bind_text(statement, 3, culprit_kind_name(element->kind), -1, SQLITE_STATIC);
    if (code == SQLITE_OK)
        code = element->file == CULPRIT_NO_FILE ? sqlite3_bind_null(statement, 4)
                                                : sqlite3_bind_int64(statement, 4, element->file);
    if (code == SQLITE_OK)
        code = sqlite3_bind_int64(statement, 5, element->line);
    if (code == SQLITE_OK)
        code = sqlite3_bind_int64(statement, 6, element->column);
    if (code == SQLITE_OK)
        code = element->name ? sqlite3_bind_text(statement, 7, element->name, -1, SQLITE_STATIC)
                             : sqlite3_bind_null(statement, 7);
    return code;
}

static culprit_status insert_elements(const culprit_store *store, const culprit_spectra *spectra,
                                      int64_t program_id, culprit_error *err)
{
    sqlite3_stmt *statement;
    culprit_status status =
        culprit_store_prepare_kept(store,
                                   "INSERT INTO elements (program_id, ordinal, kind, file_ordinal,"
                                   " line, column, name) VALUES (?, ?, ?, ?, ?, ?, ?)",
                                   &statement, err);
    if (status != CULPRIT_OK)
        return status;
    int code = sqlite3_bind_int64(statement, 1, program_id);
    for (size_t i = 0; i < spectra->element_count && code == SQLITE_OK; i++) {
        code = bind_element(statement, i, &spectra->elements[i]);
        if (code == SQLITE_OK)
            code = sqlite3_step(statement);
        if (code == SQLITE_DONE)
            code = sqlite3_reset(statement);
    }
    if (code != SQLITE_OK)
        status = culprit_store_sqlite_error(store, code, "saving the element table", err);
    culprit_store_release(store, statement);
    return status;
}

culprit_status culprit_store_set_current_program(const culprit_store *store, int64_t program_id,
                                                 culprit_error *err)
{
    sqlite3_stmt *statement;
    culprit_status status = culprit_store_prepare_kept(
        store, "INSERT OR REPLACE INTO meta (key, value) VALUES ('current_program', ?)", &statement, err);
    if (status != CULPRIT_OK)
        return status;
    int code = sqlite3_bind_int64(statement, 1, program_id);
    if (code == SQLITE_OK)
        code = sqlite3_step(statement);
    if (code != SQLITE_DONE)
        status = culprit_store_sqlite_error(store, code, "setting the current program", err);
    culprit_store_release(store, statement);
    return status;
}

culprit_status culprit_store_save_program_rows(const culprit_store *store, const culprit_spectra *spectra,
                                               const char *hash, const char *source, int64_t *program_id,
                                               culprit_error *err)
{
    culprit_status status = culprit_store_program_by_hash(store, hash, program_id, err);
    if (status == CULPRIT_OK && *program_id == 0) {
        status = insert_program_row(store, spectra, hash, source, program_id, err);
        if (status == CULPRIT_OK)
            status = insert_files(store, spectra, *program_id, err);
        if (status == CULPRIT_OK)
            status = insert_elements(store, spectra, *program_id, err);
    }
    if (status == CULPRIT_OK)
        status = culprit_store_set_current_program(store, *program_id, err);
    return status;
}

culprit_status culprit_store_begin_program(const culprit_store *store, const culprit_spectra *spectra,
                                           const char *source, int64_t *program_id, culprit_error *err)
{
    *program_id = 0;
    culprit_status status = check_elements(store, spectra, err);
    if (status == CULPRIT_OK)
        status = culprit_store_begin(store, true, err);
    if (status != CULPRIT_OK)
        return status;
    char hash[65];
    culprit_spectra_program_hash(spectra, hash);
    status = culprit_store_save_program_rows(store, spectra, hash, source, program_id, err);
    if (status != CULPRIT_OK) {
        culprit_store_rollback(store);
        *program_id = 0;
    }
    return status;
}

culprit_status culprit_store_save_program(culprit_store *store, const culprit_spectra *spectra,
                                          const char *source, int64_t *program_id, culprit_error *err)
{
    culprit_status status = culprit_store_begin_program(store, spectra, source, program_id, err);
    if (status == CULPRIT_OK && (status = culprit_store_commit(store, err)) != CULPRIT_OK)
        *program_id = 0;
    return status;
}

culprit_status culprit_store_current_program(culprit_store *store, int64_t *program_id, culprit_error *err)
{
    return culprit_store_query_integer(store, "SELECT value FROM meta WHERE key = 'current_program'",
                                       program_id, err);
}

culprit_status culprit_store_program_hash(culprit_store *store, int64_t program_id, char hash[65],
                                          culprit_error *err)
{
    sqlite3_stmt *statement;
    hash[0] = '\0';
    culprit_status status =
        culprit_store_prepare(store, "SELECT hash FROM programs WHERE id = ?", &statement, err);
    if (status != CULPRIT_OK)
        return status;
    int code = sqlite3_bind_int64(statement, 1, program_id);
    if (code == SQLITE_OK)
        code = sqlite3_step(statement);
    if (code == SQLITE_ROW && sqlite3_column_text(statement, 0))
        snprintf(hash, 65, "%.64s", (const char *)sqlite3_column_text(statement, 0));
    else if (code == SQLITE_ROW || code == SQLITE_DONE)
        status =
            culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: no program %lld", store->path, (long long)program_id);
    else
        status = culprit_store_sqlite_error(store, code, "reading a program's hash", err);
    sqlite3_finalize(statement);
    return status;
}

/* Lowercases a hash prefix into buffer; false unless it is 1-64 hex digits. */
static bool normalise_prefix(const char *prefix, char buffer[65])
{
    size_t length = strlen(prefix);
    if (length == 0 || length > 64)
        return false;
    for (size_t i = 0; i < length; i++) {
        if (!isxdigit((unsigned char)prefix[i]))
            return false;
        buffer[i] = (char)tolower((unsigned char)prefix[i]);
    }
    buffer[length] = '\0';
    return true;
}

/* Up to two programs whose hash starts with prefix: enough to tell a unique
 * match from an ambiguous one. */
typedef struct prefix_matches {
    int count;
    int64_t ids[2];
    char hashes[2][65];
} prefix_matches;

static culprit_status match_prefix(const culprit_store *store, const char *prefix, prefix_matches *matches,
                                   culprit_error *err)
{
    sqlite3_stmt *statement;
    culprit_status status = culprit_store_prepare_kept(
        store, "SELECT id, hash FROM programs WHERE substr(hash, 1, ?1) = ?2 ORDER BY id LIMIT 2", &statement,
        err);
    if (status != CULPRIT_OK)
        return status;
    matches->count = 0;
    int code = sqlite3_bind_int(statement, 1, (int)strlen(prefix));
    if (code == SQLITE_OK)
        code = sqlite3_bind_text(statement, 2, prefix, -1, SQLITE_STATIC);
    while (code == SQLITE_OK && (code = sqlite3_step(statement)) == SQLITE_ROW) {
        const char *hash = (const char *)sqlite3_column_text(statement, 1);
        matches->ids[matches->count] = sqlite3_column_int64(statement, 0);
        snprintf(matches->hashes[matches->count], sizeof matches->hashes[0], "%s", hash ? hash : "");
        matches->count++;
        code = SQLITE_OK;
    }
    if (code != SQLITE_DONE)
        status = culprit_store_sqlite_error(store, code, "looking up a program", err);
    culprit_store_release(store, statement);
    return status;
}

culprit_status culprit_store_find_program(culprit_store *store, const char *hash_prefix, int64_t *program_id,
                                          culprit_error *err)
{
    *program_id = 0;
    char prefix[65];
    if (!normalise_prefix(hash_prefix, prefix))
        return culprit_fail(err, CULPRIT_ERROR_INPUT,
                            "'%s' is not a program hash (expected 1 to 64 hex digits)", hash_prefix);
    prefix_matches matches;
    culprit_status status = match_prefix(store, prefix, &matches, err);
    if (status != CULPRIT_OK)
        return status;
    if (matches.count == 0)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: no program with hash prefix '%s'", store->path,
                            prefix);
    if (matches.count > 1) {
        /* Show enough digits to tell the two apart. */
        int shown = (int)strlen(prefix) + 4;
        shown = shown < 12 ? 12 : shown > 64 ? 64 : shown;
        return culprit_fail(err, CULPRIT_ERROR_INPUT,
                            "%s: hash prefix '%s' is ambiguous (matches %.*s, %.*s and maybe more)",
                            store->path, prefix, shown, matches.hashes[0], shown, matches.hashes[1]);
    }
    *program_id = matches.ids[0];
    return CULPRIT_OK;
}
