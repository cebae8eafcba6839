/*
 * program_plans.c - the counting plan of each collected program (table
 * program_plans, docs/store.md) and the one kept with the connection.
 *
 * Recording a test into a program needs only the program's counting plan
 * (culprit/program.h), not its maps: parsing and hashing every unit map and
 * assembling the element table cost 50-100 ms for a program of 40 units,
 * far more than the rest of a small test's recording, and each `culprit
 * test` is a new process.  So the plan is stored with the program when it
 * is assembled, and read back (a few milliseconds) by the next process.
 * It is a cache: a program without one (stores from before schema 7,
 * programs made by `culprit merge`) or with one that does not decode or
 * does not name the program's units is assembled from its maps as before,
 * and its plan written then.
 */
#include "store/store_internal.h"

#include <stdio.h>
#include <stdlib.h>

#include "culprit/error.h"

struct culprit_program_cache {
    int64_t program_id;
    culprit_count_plan plan;
};

culprit_status culprit_store_load_plan(const culprit_store *store, int64_t program_id,
                                       culprit_count_plan *plan, bool *found, culprit_error *err)
{
    *found = false;
    *plan = (culprit_count_plan){0};
    sqlite3_stmt *statement;
    culprit_status status = culprit_store_prepare_kept(
        store, "SELECT plan FROM program_plans WHERE program_id = ?", &statement, err);
    if (status != CULPRIT_OK)
        return status;
    int code = sqlite3_bind_int64(statement, 1, program_id);
    if (code == SQLITE_OK)
        code = sqlite3_step(statement);
    if (code == SQLITE_ROW) {
        const void *bytes = sqlite3_column_blob(statement, 0);
        size_t size = (size_t)sqlite3_column_bytes(statement, 0);
        char source[200];
        snprintf(source, sizeof source, "%s: the plan of program %lld", store->path, (long long)program_id);
        culprit_error ignored; /* a plan that does not decode is rebuilt from the maps */
        *found = bytes && culprit_count_plan_decode(bytes, size, source, plan, &ignored) == CULPRIT_OK;
    } else if (code != SQLITE_DONE) {
        status = culprit_store_sqlite_error(store, code, "loading a program's plan", err);
    }
    culprit_store_release(store, statement);
    return status;
}

culprit_status culprit_store_save_plan(const culprit_store *store, int64_t program_id,
                                       const culprit_count_plan *plan, culprit_error *err)
{
    unsigned char *bytes = NULL;
    size_t size = 0;
    culprit_status status = culprit_count_plan_encode(plan, &bytes, &size, err);
    sqlite3_stmt *statement = NULL;
    if (status == CULPRIT_OK)
        status = culprit_store_prepare_kept(
            store, "INSERT OR REPLACE INTO program_plans (program_id, plan) VALUES (?, ?)", &statement, err);
    if (status == CULPRIT_OK) {
        int code = sqlite3_bind_int64(statement, 1, program_id);
        if (code == SQLITE_OK)
            code = sqlite3_bind_blob64(statement, 2, bytes, size, SQLITE_STATIC);
        if (code == SQLITE_OK)
            code = sqlite3_step(statement);
        if (code != SQLITE_DONE)
            status = culprit_store_sqlite_error(store, code, "saving a program's plan", err);
        culprit_store_release(store, statement);
    }
    free(bytes);
    return status;
}

const culprit_count_plan *culprit_store_cached_plan(const culprit_store *store, int64_t program_id)
{
    const culprit_program_cache *cache = store->program_cache;
    return cache && cache->program_id == program_id ? &cache->plan : NULL;
}

const culprit_count_plan *culprit_store_keep_plan(const culprit_store *store, int64_t program_id,
                                                  culprit_count_plan *plan)
{
    culprit_store *owner = (culprit_store *)store; /* the cache only: see store_internal.h */
    culprit_store_forget_program_cache(owner);
    culprit_program_cache *cache = calloc(1, sizeof *cache);
    if (!cache)
        return NULL; /* the caller still owns plan */
    cache->program_id = program_id;
    cache->plan = *plan;
    *plan = (culprit_count_plan){0};
    owner->program_cache = cache;
    return &cache->plan;
}

void culprit_store_forget_program_cache(culprit_store *store)
{
    culprit_program_cache *cache = store->program_cache;
    if (!cache)
        return;
    culprit_count_plan_free(&cache->plan);
    free(cache);
    store->program_cache = NULL;
}
