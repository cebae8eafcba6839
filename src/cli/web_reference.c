/*
 * web_reference.c - `culprit web --reference REFDIR` (docs/web.md,
 * "Reference oracle"; issue 24 item 3): another version of the same
 * application (its last release; for an evaluation, the correct version of
 * a subject) is the oracle of wrong output, which PHP's errors and libtidy
 * never see.
 *
 * Before the application runs a request (web_run.c), the same request runs
 * in REFDIR, in a copy of the same state: the state's sessions copied into
 * a scratch state, its cookies sent, its database files put over REFDIR's
 * files of the same relative names; through the same launcher
 * (culprit-php-cgi --root REFDIR, in REFDIR, not collected, without
 * --inputs).  Its page is kept as STORE/web/expected/web-NNNN.html
 * (web_suite.c names it), the request's expected stdout: a page of the
 * application that differs fails the request with the harness's
 * difference and output mapping, and the replay manifest names the page.
 * A script REFDIR does not have, or a reference run that did not end
 * normally (timeout, signal, the launcher's own error), leaves the request
 * without an expected page, said once per script.
 *
 * A page that changes from run to run (a clock, the machine's memory use)
 * would make every request fail, the correct application's too.  So when
 * the application's page differs from the reference's, the reference runs
 * the request again, in the state it ran in before (web_reference_recheck):
 * the same page again means the application's page is wrong; a page that
 * differs from the first only in its numbers makes that script's pages
 * compared without them ("numbers", docs/oracles.md) from then on; one
 * that differs otherwise leaves its script's requests without an expected
 * page (said once).

 * What the reference changes is thrown away: REFDIR's database files (the
 * application's names, and REFDIR's own *.sqlite ...) are copied at the
 * start, kept in the store too (STORE/web/reference, for a SIGKILL), and
 * put back after each reference request and at the end, however it ends.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/web.h"
#include "core/grow.h"
#include "core/read_file.h"

struct web_reference {
    char directory[PATH_MAX]; /* REFDIR, absolute and resolved */
    /* the application's database names (first, in its order: a state's db/N
     * is own.files[N]), then REFDIR's own database files; in REFDIR */
    culprit_web_databases own;
    char originals[PATH_MAX + 32]; /* REFDIR's database files as they were (a state) */
    bool saved;                    /* originals made: put them back */
    char scratch[PATH_MAX + 32];   /* the copy of the state a reference request runs in */
    harness_paths paths;
    char **said; /* scripts said to have no expected page */
    size_t said_count, said_capacity;
    size_t pages, missing;        /* requests with an expected page, and without */
    struct script_pages *scripts; /* what each script's reference pages are */
    size_t script_count, script_capacity;
};

/* ---- setting up ---- */

static bool is_inside(const char *path, const char *directory)
{
    size_t length = strlen(directory);
    return strncmp(path, directory, length) == 0 && (length == 1 || path[length] == '/');
}

/* REFDIR resolved: a directory, not APPDIR, neither inside the other (each
 * one's database files would be found as the other's). */
static culprit_status check_directory(const web_explorer *explorer, char *directory, culprit_error *err)
{
    const char *given = explorer->options->reference;
    struct stat info;
    if (!realpath(given, directory) || stat(directory, &info) != 0 || !S_ISDIR(info.st_mode))
        return culprit_fail(err, CULPRIT_ERROR_INPUT,
                            "--reference %s: not a directory (another version of the application)", given);
    if (strcmp(directory, explorer->app) == 0)
        return culprit_fail(err, CULPRIT_ERROR_INPUT,
                            "--reference %s: the same directory as APPDIR %s (the reference is another "
                            "version of the application, e.g. its last release)",
                            given, explorer->options->app_directory);
    if (is_inside(directory, explorer->app) || is_inside(explorer->app, directory))
        return culprit_fail(err, CULPRIT_ERROR_INPUT,
                            "--reference %s: one of it and APPDIR %s is inside the other (each one's "
                            "database files would be taken for the other's)",
                            given, explorer->options->app_directory);
    return CULPRIT_OK;
}

/* The database files of REFDIR to keep: the application's names, which the
 * states' copies go over, then REFDIR's own, which its requests may change. */
static culprit_status list_databases(const web_explorer *explorer, web_reference *reference,
                                     culprit_error *err)
{
    culprit_web_databases *own = &reference->own, found = {.app_directory = reference->directory};
    own->app_directory = reference->directory;
    culprit_status status = CULPRIT_OK;
    for (size_t i = 0; i < explorer->databases.count && status == CULPRIT_OK; i++)
        status = culprit_web_databases_add(own, explorer->databases.files[i], err);
    if (status == CULPRIT_OK)
        status = culprit_web_find_databases(&found, err);
    for (size_t i = 0; i < found.count && status == CULPRIT_OK; i++)
        status = culprit_web_databases_add(own, found.files[i], err);
    culprit_web_databases_free(&found);
    return status;
}

culprit_status web_reference_open(web_explorer *explorer, culprit_error *err)
{
    if (!explorer->options->reference)
        return CULPRIT_OK;
    web_reference *reference = calloc(1, sizeof *reference);
    if (!reference)
        return culprit_fail_memory(err);
    explorer->reference = reference;
    culprit_status status = check_directory(explorer, reference->directory, err);
    if (status == CULPRIT_OK)
        status = list_databases(explorer, reference, err);
    return status;
}

culprit_status web_reference_start(web_explorer *explorer, culprit_error *err)
{
    web_reference *reference = explorer->reference;
    if (!reference)
        return CULPRIT_OK;
    snprintf(reference->originals, sizeof reference->originals, "%s/reference", explorer->temporary);
    snprintf(reference->scratch, sizeof reference->scratch, "%s/reference-state", explorer->temporary);
    culprit_status status = culprit_web_state_initial(reference->originals, &reference->own, err);
    /* only a whole copy is put back: a file missing from it is removed */
    reference->saved = status == CULPRIT_OK;
    if (status == CULPRIT_OK)
        status = web_suite_save_reference(explorer, reference->originals, &reference->own, err);
    if (status == CULPRIT_OK)
        status =
            harness_paths_make(&reference->paths, explorer->temporary, NULL, "reference-request", false, err);
    return status;
}

/* ---- REFDIR's database files ---- */

/* Removes REFDIR's database file i when the state at directory has no
 * copy of it: the file was not there in that state. */
static void remove_absent(const web_reference *reference, const char *directory, size_t i)
{
    char copy[PATH_MAX + 64], file[PATH_MAX * 2];
    snprintf(copy, sizeof copy, "%s/db/%zu", directory, i);
    if (access(copy, F_OK) == 0)
        return;
    snprintf(file, sizeof file, "%s/%s", reference->directory, reference->own.files[i]);
    unlink(file);
}

/* REFDIR's database files as they were at the start. */
static culprit_status put_back(const web_reference *reference, culprit_error *err)
{
    culprit_status status = culprit_web_state_install(reference->originals, &reference->own, err);
    for (size_t i = 0; status == CULPRIT_OK && i < reference->own.count; i++)
        remove_absent(reference, reference->originals, i);
    return status;
}

/* The scratch state, a copy of the state at directory, its database
 * files in REFDIR (of the application's names only). */
static culprit_status enter_state(const web_explorer *explorer, const char *directory, culprit_error *err)
{
    const web_reference *reference = explorer->reference;
    culprit_web_databases states = reference->own;
    states.count = explorer->databases.count;
    culprit_remove_tree(reference->scratch);
    culprit_status status = culprit_web_state_copy(directory, reference->scratch, err);
    if (status == CULPRIT_OK)
        status = culprit_web_state_install(reference->scratch, &states, err);
    for (size_t i = 0; status == CULPRIT_OK && i < states.count; i++)
        remove_absent(reference, reference->scratch, i);
    return status;
}

/* ---- one reference request ---- */

/* Says once per script that its requests have no expected page, and why. */
static void say_missing(web_reference *reference, const char *script, const char *why)
{
    reference->missing++;
    for (size_t i = 0; i < reference->said_count; i++)
        if (strcmp(reference->said[i], script) == 0)
            return;
    char *copy = strdup(script);
    if (copy && CULPRIT_GROW(reference->said, reference->said_capacity, reference->said_count + 1, 8))
        reference->said[reference->said_count++] = copy;
    else
        free(copy);
    fprintf(stderr,
            "culprit web: no expected page for %s: %s; its requests are judged without the reference\n",
            script, why);
}

static culprit_status run_reference(web_explorer *explorer, const culprit_web_request *request,
                                    const char *script, culprit_finished *finished, int *interrupted,
                                    culprit_error *err)
{
    /* the request as the application gets it, in REFDIR and the scratch
     * state, not collected, without --inputs */
    web_launch launch;
    culprit_status status = web_launch_begin(explorer, request, explorer->reference->scratch, &launch, err);
    if (status == CULPRIT_OK)
        web_launch_end(&launch, explorer->reference->directory, script);
    web_env env; /* the application's: the same configuration, the same database */
    web_request_env(explorer, false, &env);
    culprit_spawn spawn = {0};
    harness_spawn_defaults(&spawn, &explorer->options->harness, &explorer->reference->paths,
                           explorer->sandbox);
    spawn.collect_directory = NULL; /* the reference's spectra are not the application's */
    spawn.argv = launch.words;
    spawn.env = env.settings;
    spawn.env_count = env.count;
    spawn.cwd = explorer->reference->directory;
    if (status == CULPRIT_OK)
        status = harness_run_to_end(explorer->pool, &spawn, finished, interrupted, err);
    if (status == CULPRIT_OK && finished->exec_error)
        status = culprit_fail(err, CULPRIT_ERROR_INPUT, "cannot run %s: %s", launch.words[0],
                              strerror(finished->exec_error));
    web_launch_free(&launch);
    return status;
}

/* Why the reference's page cannot be the expected one, or NULL. */
static const char *unusable(const culprit_finished *finished, char *why, size_t size)
{
    if (finished->timed_out)
        snprintf(why, size, "the reference timed out");
    else if (!finished->exited)
        snprintf(why, size, "the reference was killed by signal %d", finished->signal);
    else if (finished->exit_status == 99) /* culprit-php-cgi's own error, not PHP's */
        snprintf(why, size, "culprit-php-cgi failed on the reference (exit status 99)");
    else if (finished->stdout_truncated)
        snprintf(why, size, "the reference's page is longer than --output-cap");
    else
        return NULL;
    return why;
}

static culprit_status write_page(const char *from, const char *to, culprit_error *err)
{
    char *page = NULL;
    size_t size = 0;
    culprit_status status =
        culprit_read_whole_file(from, SIZE_MAX - 1, "a reference page", &page, &size, err);
    FILE *out = status == CULPRIT_OK ? fopen(to, "wb") : NULL;
    bool ok = out && fwrite(page, 1, size, out) == size;
    if (out && fclose(out) != 0)
        ok = false;
    free(page);
    if (status == CULPRIT_OK && !ok)
        status = culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot write %s: %s", to, strerror(errno));
    return status;
}

/* Keeps the reference's page as the expected page of test name. */
static culprit_status keep_page(web_explorer *explorer, const char *script, const char *name,
                                const culprit_finished *finished, char *expected, size_t size,
                                culprit_error *err)
{
    web_reference *reference = explorer->reference;
    char why[128];
    if (unusable(finished, why, sizeof why)) {
        say_missing(reference, script, why);
        return CULPRIT_OK;
    }
    culprit_status status = web_suite_expected_path(explorer, name, expected, size, err);
    if (status == CULPRIT_OK)
        status = write_page(reference->paths.stdout_path, expected, err);
    if (status != CULPRIT_OK)
        expected[0] = '\0';
    reference->pages += status == CULPRIT_OK;
    return status;
}

/* ---- pages that change from run to run ---- */

typedef enum page_kind {
    PAGE_STABLE,   /* the same page twice */
    PAGE_NUMBERS,  /* the same but for its numbers */
    PAGE_VOLATILE, /* different otherwise */
} page_kind;

/* Why a script whose reference pages are PAGE_VOLATILE has no expected page. */
#define CHANGING_PAGE "the reference's page changes from run to run, beyond its numbers"

typedef struct script_pages {
    char *script;
    page_kind kind; /* the worst seen */
} script_pages;

static culprit_status find_pages(web_reference *reference, const char *script, script_pages **pages,
                                 culprit_error *err)
{
    for (size_t i = 0; i < reference->script_count; i++)
        if (strcmp(reference->scripts[i].script, script) == 0) {
            *pages = &reference->scripts[i];
            return CULPRIT_OK;
        }
    char *copy = strdup(script);
    if (!copy ||
        !CULPRIT_GROW(reference->scripts, reference->script_capacity, reference->script_count + 1, 8)) {
        free(copy);
        return culprit_fail_memory(err);
    }
    reference->scripts[reference->script_count] = (script_pages){.script = copy};
    *pages = &reference->scripts[reference->script_count++];
    return CULPRIT_OK;
}

/* What the page at path is to first (NUL-terminated): the same, the same
 * but for its numbers, or different. */
static culprit_status compare_pages(const char *first, size_t first_size, const char *second_path,
                                    const char *stderr_path, page_kind *kind, culprit_error *err)
{
    char *second = NULL;
    size_t size = 0;
    culprit_status status = culprit_read_whole_file(second_path, SIZE_MAX - 1, "a page", &second, &size, err);
    if (status != CULPRIT_OK)
        return status;
    *kind = PAGE_STABLE;
    if (size != first_size || memcmp(first, second, size) != 0) {
        culprit_oracle oracle = {.expect_stdout_text = first, .compare = CULPRIT_COMPARE_NUMBERS};
        culprit_run_result result = {.exited = true, /* only the pages are compared */
                                     .stdout_path = second_path,
                                     .stderr_path = stderr_path};
        culprit_judgement judgement;
        status = culprit_oracle_judge(&oracle, &result, &judgement, err);
        if (status == CULPRIT_OK)
            *kind = judgement.verdict == CULPRIT_VERDICT_PASS ? PAGE_NUMBERS : PAGE_VOLATILE;
        culprit_judgement_free(&judgement);
    }
    free(second);
    return status;
}

/* The request in the reference, in a copy of the state at state, REFDIR's
 * files put back afterwards. */
static culprit_status reference_once(web_explorer *explorer, const culprit_web_request *request,
                                     const char *state, const char *script, culprit_finished *finished,
                                     culprit_error *err)
{
    web_reference *reference = explorer->reference;
    int interrupted = 0;
    *finished = (culprit_finished){0};
    culprit_status status = harness_paths_reuse(&reference->paths, false, err);
    if (status == CULPRIT_OK)
        status = enter_state(explorer, state, err);
    if (status == CULPRIT_OK)
        status = run_reference(explorer, request, script, finished, &interrupted, err);
    culprit_error ignored;
    culprit_status restored = put_back(reference, status == CULPRIT_OK ? err : &ignored);
    if (status == CULPRIT_OK)
        status = restored;
    /* a signal stops the exploration before the application runs the request */
    if (status == CULPRIT_OK && interrupted)
        status = culprit_fail(err, CULPRIT_ERROR_INPUT, "stopped by signal %d (the requests so far are kept)",
                              interrupted);
    return status;
}

culprit_status web_reference_run(web_explorer *explorer, const culprit_web_request *request,
                                 const char *state, const char *name, char *expected, size_t size,
                                 culprit_comparison *compare, culprit_error *err)
{
    web_reference *reference = explorer->reference;
    expected[0] = '\0';
    *compare = CULPRIT_COMPARE_EXACT;
    if (!reference)
        return CULPRIT_OK;
    char script[PATH_MAX * 2], why[PATH_MAX * 2 + 64];
    struct stat info;
    snprintf(script, sizeof script, "%s/%s", reference->directory, request->script);
    if (stat(script, &info) != 0 || !S_ISREG(info.st_mode)) {
        snprintf(why, sizeof why, "the reference has no %s", script);
        say_missing(reference, request->script, why);
        return CULPRIT_OK;
    }
    culprit_finished finished;
    script_pages *pages = NULL;
    culprit_status status = find_pages(reference, request->script, &pages, err);
    if (status == CULPRIT_OK && pages->kind == PAGE_VOLATILE) { /* its page could judge nothing */
        say_missing(reference, request->script, CHANGING_PAGE);
        return CULPRIT_OK;
    }
    if (status == CULPRIT_OK)
        status = reference_once(explorer, request, state, script, &finished, err);
    if (status == CULPRIT_OK)
        status = keep_page(explorer, request->script, name, &finished, expected, size, err);
    if (status == CULPRIT_OK && expected[0] && pages->kind == PAGE_NUMBERS)
        *compare = CULPRIT_COMPARE_NUMBERS;
    return status;
}

culprit_status web_reference_agrees(web_explorer *explorer, const char *expected, const harness_paths *actual,
                                    culprit_comparison compare, bool *agrees, culprit_error *err)
{
    *agrees = true;
    if (!explorer->reference || !expected[0])
        return CULPRIT_OK;
    char *first = NULL;
    size_t size = 0;
    page_kind kind = PAGE_STABLE;
    culprit_status status =
        culprit_read_whole_file(expected, SIZE_MAX - 1, "a reference page", &first, &size, err);
    if (status == CULPRIT_OK)
        status = compare_pages(first, size, actual->stdout_path, actual->stderr_path, &kind, err);
    free(first);
    *agrees = kind == PAGE_STABLE || (kind == PAGE_NUMBERS && compare == CULPRIT_COMPARE_NUMBERS);
    return status;
}

culprit_status web_reference_recheck(web_explorer *explorer, const culprit_web_request *request,
                                     const char *state, char *expected, culprit_comparison *compare,
                                     culprit_error *err)
{
    web_reference *reference = explorer->reference;
    script_pages *pages = NULL;
    if (!reference || !expected[0])
        return CULPRIT_OK;
    char *first = NULL, script[PATH_MAX * 2], why[128];
    size_t size = 0;
    page_kind kind = PAGE_STABLE;
    culprit_finished finished;
    snprintf(script, sizeof script, "%s/%s", reference->directory, request->script);
    culprit_status status = find_pages(reference, request->script, &pages, err);
    if (status == CULPRIT_OK)
        status = culprit_read_whole_file(expected, SIZE_MAX - 1, "a reference page", &first, &size, err);
    if (status == CULPRIT_OK)
        status = reference_once(explorer, request, state, script, &finished, err);
    if (status == CULPRIT_OK && !unusable(&finished, why, sizeof why))
        status = compare_pages(first, size, reference->paths.stdout_path, reference->paths.stderr_path, &kind,
                               err);
    if (status == CULPRIT_OK && kind > pages->kind)
        pages->kind = kind;
    free(first);
    if (status == CULPRIT_OK && pages->kind == PAGE_VOLATILE) {
        unlink(expected);
        expected[0] = '\0';
        reference->pages--;
        say_missing(reference, request->script, CHANGING_PAGE);
    } else if (status == CULPRIT_OK && pages->kind == PAGE_NUMBERS) {
        *compare = CULPRIT_COMPARE_NUMBERS;
    }
    return status;
}

/* ---- the end ---- */

void web_reference_close(web_explorer *explorer)
{
    web_reference *reference = explorer->reference;
    if (!reference)
        return;
    culprit_error err;
    if (reference->saved && put_back(reference, &err) != CULPRIT_OK)
        fprintf(stderr, "culprit web: warning: %s (%s's database files as they were: %s/reference)\n",
                err.message, explorer->options->reference, explorer->suite_directory);
    if (reference->pages + reference->missing)
        fprintf(stderr, "culprit web: reference: %zu requests judged against %s's pages, %zu without\n",
                reference->pages, explorer->options->reference, reference->missing);
    culprit_web_databases_free(&reference->own);
    for (size_t i = 0; i < reference->said_count; i++)
        free(reference->said[i]);
    free(reference->said);
    for (size_t i = 0; i < reference->script_count; i++)
        free(reference->scripts[i].script);
    free(reference->scripts);
    free(reference);
    explorer->reference = NULL;
}
