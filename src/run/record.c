/*
 * record.c - from a finished test to the store: collect its dumps, name
 * its crash site, judge it with its oracle, save spectra and judgement.
 *
 * Both `culprit run` and `culprit test` record through here, so a test is
 * stored the same way whichever ran it.  Spectra and judgement are saved
 * in one transaction (the spectra decide the program, the judgement is
 * saved under it), so a test is never stored without its verdict's reason.
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "culprit/harness.h"

enum { EXIT_SKIP = 77, EXIT_CANNOT_START = 127 };

/* "file:line (function)" of the block the crashed process ran last, into
 * text; false when the dumps name no crash site. */
static bool describe_crash_site(const culprit_unit_set *maps, const culprit_collected *collected, char *text,
                                size_t size)
{
    if (!collected->crashed || collected->crash_depth == 0)
        return false;
    culprit_site site = collected->crash_stack[0];
    if (site.unit >= collected->unit_count)
        return false;
    const culprit_unit *unit = culprit_unit_set_find(maps, collected->units[site.unit].hash);
    if (!unit || site.block >= unit->block_count)
        return false;
    const culprit_map_block *block = &unit->blocks[site.block];
    const char *file = block->file < unit->file_count ? unit->files[block->file] : "?";
    const char *function =
        block->function < unit->function_count ? unit->functions[block->function].name : "?";
    snprintf(text, size, "%s:%u (%s)", file, (unsigned)block->first_line, function);
    return true;
}

/* A test whose coverage files cannot be read (a test that wrote into its
 * collection directory, a full disk) is an error of the run, not of the
 * program: it is kept, with the reason, and without spectra. */
static void judge_unreadable_coverage(culprit_judgement *judgement, const char *reason)
{
    judgement->verdict = CULPRIT_VERDICT_ERROR;
    snprintf(judgement->message, sizeof judgement->message, "cannot read the test's coverage: %.400s",
             reason);
    snprintf(judgement->signature, sizeof judgement->signature, "unreadable coverage");
}

/* --skip-as (culprit/oracle.h): an automake skip (exit status 77) counted
 * as a failure, always or when a test of this name passed before. */
static culprit_status apply_skip_policy(culprit_store *store, const culprit_record_request *request,
                                        const culprit_run_result *result, culprit_judgement *judgement,
                                        culprit_error *err)
{
    culprit_skip_policy policy = request->oracle->skip_as;
    if (policy == CULPRIT_SKIP_AS_SKIP || judgement->verdict != CULPRIT_VERDICT_SKIP || !result->exited ||
        result->exit_status != EXIT_SKIP || request->oracle->ctest)
        return CULPRIT_OK;
    bool passed = policy == CULPRIT_SKIP_AS_FAIL;
    culprit_status status =
        passed ? CULPRIT_OK : culprit_store_test_passed_before(store, request->name, &passed, err);
    if (status != CULPRIT_OK || !passed)
        return status;
    judgement->verdict = CULPRIT_VERDICT_FAIL;
    snprintf(judgement->message, sizeof judgement->message,
             "skipped (exit status 77), counted as a failure%s",
             policy == CULPRIT_SKIP_AS_FAIL ? " (--skip-as fail)"
                                            : ": it passed before (--skip-as fail-if-passed)");
    snprintf(judgement->signature, sizeof judgement->signature, "skipped");
    return CULPRIT_OK;
}

static culprit_status judge_and_save(culprit_store *store, const culprit_record_request *request,
                                     const culprit_unit_set *maps, const culprit_collected *collected,
                                     const char *coverage_error, culprit_recorded *recorded,
                                     culprit_error *err)
{
    char crash_site[PATH_MAX + 256];
    culprit_run_result result = *request->result;
    if (describe_crash_site(maps, collected, crash_site, sizeof crash_site))
        result.crash_site = crash_site;
    culprit_status status = culprit_oracle_judge(request->oracle, &result, &recorded->judgement, err);
    if (status == CULPRIT_OK)
        status = apply_skip_policy(store, request, &result, &recorded->judgement, err);
    if (status != CULPRIT_OK)
        return status;
    if (coverage_error)
        judge_unreadable_coverage(&recorded->judgement, coverage_error);
    culprit_collected_test test = {
        .name = request->name,
        .verdict = recorded->judgement.verdict,
        .duration_seconds = result.duration_seconds,
        /* A command that could not be started is recorded as a shell
         * records it (127), whatever became of the process that tried. */
        .exit_status = result.exec_error ? EXIT_CANNOT_START
                       : result.exited   ? result.exit_status
                                         : -1,
        .signal = result.exited || result.exec_error ? 0 : result.signal,
        .maps = maps,
        .collected = collected,
        .judgement = &recorded->judgement,
        .command = request->command,
    };
    return culprit_store_save_collected(store, &test, &recorded->saved, err);
}

culprit_status culprit_record_test(culprit_store *store, const culprit_record_request *request,
                                   culprit_recorded *recorded, culprit_error *err)
{
    memset(recorded, 0, sizeof *recorded);
    culprit_unit_set own_maps;
    culprit_unit_set *maps = request->map_cache ? request->map_cache : &own_maps;
    culprit_collected collected;
    culprit_unit_set_init(&own_maps);
    culprit_collected_init(&collected);
    /* A lone test (no map cache across a run) reads only the maps the store
     * lacks: the store's plan describes the others. */
    const culprit_count_plan *known = NULL;
    culprit_status status = request->map_cache ? CULPRIT_OK : culprit_store_current_plan(store, &known, err);
    if (status == CULPRIT_OK)
        status = culprit_collect_directory_known(request->collect_directory, request->maps_directory,
                                                 (int32_t)request->pid, known, maps, &collected, err);
    char coverage_error[sizeof err->message] = "";
    if (status == CULPRIT_ERROR_INPUT) { /* damaged dumps: record the test as an error, without spectra */
        snprintf(coverage_error, sizeof coverage_error, "%s", err->message);
        culprit_collected_init(&collected);
        status = CULPRIT_OK;
    }
    if (status == CULPRIT_OK) {
        recorded->dump_count = collected.dump_count;
        status = judge_and_save(store, request, maps, &collected, coverage_error[0] ? coverage_error : NULL,
                                recorded, err);
    }
    culprit_collected_free(&collected);
    culprit_unit_set_free(&own_maps);
    return status;
}

bool culprit_empty_directory(const char *path, bool (*keep)(const char *name))
{
    DIR *directory = opendir(path);
    if (!directory)
        return false;
    struct dirent *entry;
    while ((entry = readdir(directory))) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0 ||
            (keep && keep(entry->d_name)))
            continue;
        char child[PATH_MAX];
        if (snprintf(child, sizeof child, "%s/%s", path, entry->d_name) >= (int)sizeof child)
            continue;
        if (unlink(child) != 0)
            culprit_remove_tree(child);
    }
    closedir(directory);
    return true;
}

void culprit_remove_tree(const char *path)
{
    culprit_empty_directory(path, NULL);
    rmdir(path);
}
