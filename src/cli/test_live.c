/*
 * test_live.c - the live-server half of `culprit test` (docs/php.md, "Live
 * servers"): `culprit test --name NAME --verdict V [--message TEXT]
 * --collect-dir DIR` records the test NAME that an end-to-end suite ran
 * against a server collecting into DIR (`CULPRIT_COLLECT_DIR=DIR php -S
 * ...`), each of its requests carrying `X-Culprit-Test: NAME`.
 *
 * The extension (src/php/php_live.c) put the dumps of those requests into
 * DIR/live.HASH with a file `name`; the maps are in DIR.  The maps are read
 * once, the test's directory is found by its name, and its dumps are
 * summed and recorded through the recording every harness uses
 * (culprit_record_test), judged by the verdict the suite gave
 * (culprit_oracle.reported), as `culprit phpunit` records PHPUnit's tests
 * (phpunit_record.c).  The directory is then removed, so that the next run
 * of the same test starts empty.  Requests without the header left their
 * dumps in DIR itself: they belong to no test and are left alone.
 */
#include "cli/test_live.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/harness.h"
#include "core/read_file.h"

/* The extension's directory prefix (src/php/php_files.h, which the CLI does
 * not include: the extension's files are built against PHP). */
static const char LIVE_PREFIX[] = "live.";
enum { NAME_LIMIT = 64 * 1024 };

/* Finds collect/live.* whose `name` is name, into path. */
static culprit_status find_test(const char *collect, const char *name, char *path, size_t size, bool *found,
                                culprit_error *err)
{
    *found = false;
    DIR *directory = opendir(collect);
    if (!directory)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "cannot read the collection directory %s: %s", collect,
                            strerror(errno));
    struct dirent *entry;
    culprit_status status = CULPRIT_OK;
    while (status == CULPRIT_OK && !*found && (entry = readdir(directory))) {
        if (strncmp(entry->d_name, LIVE_PREFIX, sizeof LIVE_PREFIX - 1) != 0)
            continue;
        char name_path[PATH_MAX + 2 * 300];
        snprintf(path, size, "%s/%s", collect, entry->d_name);
        snprintf(name_path, sizeof name_path, "%s/name", path);
        char *text = NULL;
        size_t length = 0;
        if (culprit_read_whole_file(name_path, NAME_LIMIT, "a test's name", &text, &length, err) !=
            CULPRIT_OK)
            continue; /* being made by the server, or not the extension's */
        *found = length == strlen(name) && memcmp(text, name, length) == 0;
        free(text);
    }
    closedir(directory);
    return status;
}

static culprit_status record(culprit_store *store, const char *name, culprit_verdict verdict,
                             const char *message, const char *collect, const char *test_directory,
                             culprit_recorded *recorded, culprit_error *err)
{
    culprit_unit_set maps;
    culprit_collected ignored;
    culprit_unit_set_init(&maps);
    /* the maps of every request; the dumps of requests of no test are summed and dropped */
    culprit_status status = culprit_collect_directory(collect, 0, &maps, &ignored, err);
    if (status == CULPRIT_OK) {
        culprit_collected_free(&ignored);
        culprit_reported_verdict reported = {.verdict = verdict, .message = message ? message : ""};
        culprit_oracle oracle = {.reported = &reported};
        bool failed = verdict != CULPRIT_VERDICT_PASS && verdict != CULPRIT_VERDICT_SKIP;
        culprit_run_result result = {.exited = true,
                                     .exit_status = failed ? 1 : 0,
                                     .stdout_path = "/dev/null",
                                     .stderr_path = "/dev/null"};
        culprit_record_request request = {.name = name,
                                          .oracle = &oracle,
                                          .result = &result,
                                          .collect_directory = test_directory,
                                          .map_cache = &maps};
        status = culprit_record_test(store, &request, recorded, err);
    }
    culprit_unit_set_free(&maps);
    return status;
}

int test_record_live(const cli_context *context, const char *store_option, const char *name,
                     culprit_verdict verdict, const char *message, const char *collect)
{
    culprit_error err;
    char test_directory[PATH_MAX + 300];
    bool found;
    if (find_test(collect, name, test_directory, sizeof test_directory, &found, &err) != CULPRIT_OK)
        return cli_report(&err);
    if (!found) {
        fprintf(stderr,
                "culprit: no request of test '%s' in %s: a live server collecting there records the requests "
                "that carry the header 'X-Culprit-Test: %s' (docs/php.md, \"Live servers\")\n",
                name, collect, name);
        return CULPRIT_ERROR_INPUT;
    }
    culprit_store *store = NULL;
    if (culprit_store_open(cli_store_directory(context, store_option), CULPRIT_STORE_CREATE, &store, &err) !=
        CULPRIT_OK)
        return cli_report(&err);
    culprit_recorded recorded = {0};
    int code = 0;
    if (record(store, name, verdict, message, collect, test_directory, &recorded, &err) != CULPRIT_OK) {
        code = cli_report(&err);
    } else {
        harness_note_new_program(store, &recorded.saved);
        fprintf(stderr, "culprit: recorded '%s' (%zu request%s): %s\n", name, recorded.dump_count,
                recorded.dump_count == 1 ? "" : "s", culprit_verdict_name(recorded.judgement.verdict));
        culprit_remove_tree(test_directory);
    }
    culprit_judgement_free(&recorded.judgement);
    culprit_store_close(store);
    return code;
}
