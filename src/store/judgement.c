/*
 * judgement.c - the store's side of the oracle (table judgements, schema
 * version 3; its differences column, version 4): saving a test's
 * judgement.  judgement_load.c reads judgements back.
 *
 * A judgement is saved after its test - in the test's own transaction when
 * the harness records both (culprit_collected_test.judgement), else in one
 * of its own: the test's new result has already deleted the old judgement
 * (trigger tests_judgement_replaced), so the row written here is always
 * the one that belongs to the stored result.  docs/store.md describes the columns.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "store/store_internal.h"

/* ---- encodings ---- */

/* wrong_lines: varint count, then each line minus the previous one. */
static unsigned char *encode_lines(const uint32_t *lines, size_t count, size_t *size)
{
    unsigned char *blob = malloc(10 * (count + 1));
    if (!blob)
        return NULL;
    unsigned char *out = culprit_store_put_varint(blob, count);
    uint32_t previous = 0;
    for (size_t i = 0; i < count; i++) {
        out = culprit_store_put_varint(out, lines[i] - previous);
        previous = lines[i];
    }
    *size = (size_t)(out - blob);
    return blob;
}

/* A zlib stream of text.  The window and hash table are sized to the text:
 * compress2's fixed 256 KiB of state, allocated, cleared and freed for
 * every test, cost more than running a tiny test.  Any window size decodes
 * with uncompress(). */
static unsigned char *compress_output(const char *text, size_t size, size_t *compressed_size)
{
    int window_bits = 9;
    while (window_bits < 15 && ((size_t)1 << window_bits) < size)
        window_bits++;
    int memory_level = window_bits - 7;
    z_stream stream = {0};
    if (deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, window_bits, memory_level,
                     Z_DEFAULT_STRATEGY) != Z_OK)
        return NULL;
    uLong bound = deflateBound(&stream, (uLong)size);
    unsigned char *blob = malloc(bound ? bound : 1);
    stream.next_in = (Bytef *)text;
    stream.avail_in = (uInt)size;
    stream.next_out = blob;
    stream.avail_out = (uInt)bound;
    bool done = blob && deflate(&stream, Z_FINISH) == Z_STREAM_END;
    *compressed_size = stream.total_out;
    deflateEnd(&stream);
    if (!done) {
        free(blob);
        return NULL;
    }
    return blob;
}

/* ---- saving ---- */

culprit_status culprit_store_find_test_id(const culprit_store *store, int64_t program_id, const char *name,
                                          int64_t *test_id, culprit_error *err)
{
    sqlite3_stmt *statement;
    culprit_status status = culprit_store_prepare_kept(
        store, "SELECT id FROM tests WHERE program_id = ? AND name = ?", &statement, err);
    if (status != CULPRIT_OK)
        return status;
    int code = sqlite3_bind_int64(statement, 1, program_id);
    if (code == SQLITE_OK)
        code = sqlite3_bind_text(statement, 2, name, -1, SQLITE_STATIC);
    if (code == SQLITE_OK)
        code = sqlite3_step(statement);
    if (code == SQLITE_ROW)
        *test_id = sqlite3_column_int64(statement, 0);
    else if (code == SQLITE_DONE)
        status = culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: no test '%s' in program %lld", store->path, name,
                              (long long)program_id);
    else
        status = culprit_store_sqlite_error(store, code, "looking up a test", err);
    culprit_store_release(store, statement);
    return status;
}

/* The encoded blobs of a judgement. */
typedef struct judgement_blobs {
    unsigned char *lines, *output, *differences;
    size_t lines_size, output_size, differences_size;
} judgement_blobs;

static int bind_judgement(sqlite3_stmt *statement, int64_t test_id, const culprit_judgement *judgement,
                          const judgement_blobs *blobs)
{
    int code = sqlite3_bind_int64(statement, 1, test_id);
    if (code == SQLITE_OK)
        code = sqlite3_bind_text(statement, 2, judgement->message, -1, SQLITE_STATIC);
    if (code == SQLITE_OK)
        code = sqlite3_bind_text(statement, 3, judgement->signature, -1, SQLITE_STATIC);
    if (code == SQLITE_OK)
        code = sqlite3_bind_blob(statement, 4, blobs->lines, (int)blobs->lines_size, SQLITE_STATIC);
    if (code == SQLITE_OK)
        code = blobs->output
                   ? sqlite3_bind_blob(statement, 5, blobs->output, (int)blobs->output_size, SQLITE_STATIC)
                   : sqlite3_bind_null(statement, 5);
    if (code == SQLITE_OK)
        code = sqlite3_bind_int64(statement, 6, (sqlite3_int64)(blobs->output ? judgement->output_size : 0));
    if (code == SQLITE_OK)
        code = sqlite3_bind_int(statement, 7, judgement->output_truncated);
    if (code == SQLITE_OK)
        code = blobs->differences ? sqlite3_bind_blob(statement, 8, blobs->differences,
                                                      (int)blobs->differences_size, SQLITE_STATIC)
                                  : sqlite3_bind_null(statement, 8);
    return code;
}

static culprit_status insert_judgement(const culprit_store *store, int64_t test_id,
                                       const culprit_judgement *judgement, culprit_error *err)
{
    judgement_blobs blobs = {0};
    blobs.lines = encode_lines(judgement->wrong_lines, judgement->wrong_line_count, &blobs.lines_size);
    blobs.output = judgement->output
                       ? compress_output(judgement->output, judgement->output_size, &blobs.output_size)
                       : NULL;
    bool encoded = culprit_store_encode_differences(&judgement->differences, &blobs.differences,
                                                    &blobs.differences_size);
    sqlite3_stmt *statement = NULL;
    culprit_status status = blobs.lines && (blobs.output || !judgement->output) && encoded
                                ? CULPRIT_OK
                                : culprit_fail_memory(err);
    if (status == CULPRIT_OK)
        status =
            culprit_store_prepare_kept(store,
                                       "INSERT OR REPLACE INTO judgements (test_id, message, signature,"
                                       " wrong_lines, output, output_size, output_truncated, differences)"
                                       " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                                       &statement, err);
    if (status == CULPRIT_OK) {
        int code = bind_judgement(statement, test_id, judgement, &blobs);
        if (code == SQLITE_OK)
            code = sqlite3_step(statement);
        if (code != SQLITE_DONE)
            status = culprit_store_sqlite_error(store, code, "saving a judgement", err);
    }
    culprit_store_release(store, statement);
    free(blobs.lines);
    free(blobs.output);
    free(blobs.differences);
    return status;
}

culprit_status culprit_store_check_judgement(const char *test_name, const culprit_judgement *judgement,
                                             culprit_error *err)
{
    for (size_t i = 1; i < judgement->wrong_line_count; i++)
        if (judgement->wrong_lines[i] <= judgement->wrong_lines[i - 1])
            return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "judgement of '%s': wrong lines not ascending",
                                test_name);
    if (judgement->wrong_line_count && judgement->wrong_lines[0] == 0)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "judgement of '%s': wrong line 0", test_name);
    return CULPRIT_OK;
}

culprit_status culprit_store_insert_judgement(const culprit_store *store, int64_t program_id,
                                              const char *test_name, const culprit_judgement *judgement,
                                              culprit_error *err)
{
    int64_t test_id = 0;
    culprit_status status = culprit_store_find_test_id(store, program_id, test_name, &test_id, err);
    if (status == CULPRIT_OK)
        status = insert_judgement(store, test_id, judgement, err);
    return status;
}

culprit_status culprit_store_save_judgement(culprit_store *store, int64_t program_id, const char *test_name,
                                            const culprit_judgement *judgement, culprit_error *err)
{
    culprit_status status = culprit_store_check_judgement(test_name, judgement, err);
    if (status == CULPRIT_OK)
        status = culprit_store_begin(store, true, err);
    if (status != CULPRIT_OK)
        return status;
    status = culprit_store_insert_judgement(store, program_id, test_name, judgement, err);
    if (status == CULPRIT_OK)
        status = culprit_store_commit(store, err);
    else
        culprit_store_rollback(store);
    return status;
}
