/*
 * fuzz.h - what the libFuzzer targets of tests/fuzz/ share.  Each
 * fuzz_NAME.c is one program: LLVMFuzzerTestOneInput feeds one input to one
 * reader of libculprit, built with clang-14 -fsanitize=fuzzer and ASan+UBSan
 * (`make fuzz`, tests/fuzz/run.sh).  Errors are the expected answer to most
 * inputs; a crash, a sanitizer report, a leak or a hang is a finding.
 *
 * Readers that take a path read files of a private scratch directory
 * (mkdtemp under $TMPDIR, removed at exit); an input meant as several files
 * holds them one after another, split at lines "--8<--".
 */
#ifndef CULPRIT_FUZZ_H
#define CULPRIT_FUZZ_H

#define _XOPEN_SOURCE 700 /* nftw; include this header first */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "culprit/interchange.h"
#include "culprit/manifest.h"
#include "culprit/program.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Stops the target on a failure of the harness itself (not of the reader). */
#define FUZZ_REQUIRE(condition)                                                                              \
    do {                                                                                                     \
        if (!(condition)) {                                                                                  \
            fprintf(stderr, "%s:%d: fuzz harness: %s failed\n", __FILE__, __LINE__, #condition);             \
            abort();                                                                                         \
        }                                                                                                    \
    } while (0)

static char fuzz_directory[4096];

static inline int fuzz_remove_entry(const char *path, const struct stat *info, int flag, struct FTW *ftw)
{
    (void)info, (void)flag, (void)ftw;
    return remove(path);
}

static inline void fuzz_remove_scratch(void)
{
    nftw(fuzz_directory, fuzz_remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* scratch/name in a static buffer, creating the scratch directory first. */
static inline const char *fuzz_path(const char *name)
{
    static char path[8192];
    if (!fuzz_directory[0]) {
        const char *temporary = getenv("TMPDIR");
        snprintf(fuzz_directory, sizeof fuzz_directory, "%s/culprit-fuzz-XXXXXX",
                 temporary && *temporary ? temporary : "/tmp");
        FUZZ_REQUIRE(mkdtemp(fuzz_directory));
        atexit(fuzz_remove_scratch);
    }
    snprintf(path, sizeof path, "%s/%s", fuzz_directory, name);
    return path;
}

/* Makes scratch/name a directory; returns its path (static buffer). */
static inline const char *fuzz_directory_path(const char *name)
{
    const char *path = fuzz_path(name);
    FUZZ_REQUIRE(mkdir(path, 0700) == 0 || errno == EEXIST);
    return path;
}

/* Writes size bytes to scratch/name, replacing it; returns its path
 * (static buffer: valid until the next fuzz_path). */
static inline const char *fuzz_write(const char *name, const void *data, size_t size)
{
    const char *path = fuzz_path(name);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    FUZZ_REQUIRE(fd >= 0);
    for (size_t done = 0; done < size;) {
        ssize_t wrote = write(fd, (const char *)data + done, size - done);
        FUZZ_REQUIRE(wrote > 0);
        done += (size_t)wrote;
    }
    FUZZ_REQUIRE(close(fd) == 0);
    return path;
}

#define FUZZ_SEPARATOR "\n--8<--\n"

typedef struct fuzz_part {
    const uint8_t *data;
    size_t size;
} fuzz_part;

/* Splits data at FUZZ_SEPARATOR into at most max parts (the last one keeps
 * any further separators); returns how many. */
static inline size_t fuzz_split(const uint8_t *data, size_t size, fuzz_part *parts, size_t max)
{
    size_t count = 0, length = sizeof FUZZ_SEPARATOR - 1;
    while (count + 1 < max) {
        size_t at = 0;
        while (at + length <= size && memcmp(data + at, FUZZ_SEPARATOR, length) != 0)
            at++;
        if (at + length > size)
            break;
        parts[count++] = (fuzz_part){data, at};
        data += at + length;
        size -= at + length;
    }
    parts[count++] = (fuzz_part){data, size};
    return count;
}

/* The SHA-256 the reader expected, or NULL when err says something else. */
static inline const char *fuzz_expected_hash(const culprit_error *err, size_t *line)
{
    static const char said[] = ":6: expected the unit's hash to be the SHA-256 of its records, ";
    const char *at = strstr(err->message, said);
    if (!at || strlen(at + sizeof said - 1) != 64)
        return NULL;
    const char *number = at;
    while (number > err->message && number[-1] >= '0' && number[-1] <= '9')
        number--;
    *line = strtoul(number, NULL, 10);
    return at + sizeof said - 1;
}

/* Writes hash over the 64 characters after "unit\t" of line (1-based). */
static inline bool fuzz_patch_hash(char *text, size_t size, size_t line, const char *hash)
{
    size_t at = 0;
    for (size_t current = 1; current < line && at < size; at++)
        if (text[at] == '\n')
            current++;
    if (size - at < 5 + 64 || memcmp(text + at, "unit\t", 5) != 0)
        return false;
    memcpy(text + at + 5, hash, 64);
    return true;
}

/* culprit_map_parse of a copy of text in which every unit's hash is made
 * the SHA-256 of its records when that is all the reader objects to: a
 * mutation almost never keeps the hash right, and records that never get
 * past the check are fuzzed in vain. */
static inline culprit_status fuzz_parse_map(const uint8_t *data, size_t size, culprit_unit_set *set,
                                            culprit_error *err)
{
    char *text = malloc(size ? size : 1);
    FUZZ_REQUIRE(text);
    memcpy(text, data, size);
    culprit_status status = culprit_map_parse(text, size, "fuzz.map", set, err);
    const char *hash;
    size_t line;
    for (int retry = 0; status != CULPRIT_OK && retry < 8 && (hash = fuzz_expected_hash(err, &line));
         retry++) {
        char copy[65];
        memcpy(copy, hash, sizeof copy);
        if (!fuzz_patch_hash(text, size, line, copy))
            break;
        status = culprit_map_parse(text, size, "fuzz.map", set, err);
    }
    free(text);
    return status;
}

/* /dev/null, open for writing. */
static inline FILE *fuzz_null(void)
{
    static FILE *null;
    if (!null)
        FUZZ_REQUIRE(null = fopen("/dev/null", "w"));
    return null;
}

/* What an importer's caller does with the spectra it read: tally it, hash
 * it, write it out again in every format (to /dev/null). */
static inline void fuzz_use_spectra(const culprit_spectra *spectra)
{
    FILE *null = fuzz_null();
    culprit_error err = {0};
    culprit_verdict_policy policy = culprit_verdict_policy_default();
    culprit_tally *tallies = calloc(spectra->element_count + 1, sizeof *tallies);
    FUZZ_REQUIRE(tallies);
    culprit_totals totals;
    culprit_spectra_tally(spectra, &policy, tallies, &totals, &err);
    free(tallies);
    char hash[65];
    culprit_spectra_program_hash(spectra, hash);
    culprit_csv_write(spectra, null, &err);
    culprit_json_write(spectra, NULL, null, &err);
    culprit_gzoltar_write(spectra, &policy, null, null, null, &err);
}

/* Reads the files of an input split at FUZZ_SEPARATOR (at most max) with
 * a reader of one coverage file per test, then uses the spectra.  File i
 * is scratch/name with i (1, 2 ...) for its "%zu": test ti; t1 fails, the
 * others pass. */
typedef culprit_status (*fuzz_paths_reader)(const char *const *paths, size_t count,
                                            const culprit_verdict_list *verdicts, culprit_spectra *spectra,
                                            culprit_error *err);

static inline void fuzz_read_files(const uint8_t *data, size_t size, const char *name, size_t max,
                                   fuzz_paths_reader reader)
{
    enum { MAX_FILES = 8 };
    fuzz_part parts[MAX_FILES];
    char names[MAX_FILES][64], *paths[MAX_FILES];
    size_t count = fuzz_split(data, size, parts, max < MAX_FILES ? max : MAX_FILES);
    for (size_t i = 0; i < count; i++) {
        snprintf(names[i], sizeof names[i], name, i + 1);
        paths[i] = strdup(fuzz_write(names[i], parts[i].data, parts[i].size));
        FUZZ_REQUIRE(paths[i]);
    }
    culprit_verdict_list verdicts;
    culprit_verdict_list_init(&verdicts);
    verdicts.unlisted_pass = true;
    culprit_error err = {0};
    FUZZ_REQUIRE(culprit_verdict_list_add(&verdicts, "t1", CULPRIT_VERDICT_FAIL, 0, &err) == CULPRIT_OK);
    culprit_spectra spectra;
    culprit_spectra_init(&spectra);
    if (reader((const char *const *)paths, count, &verdicts, &spectra, &err) == CULPRIT_OK)
        fuzz_use_spectra(&spectra);
    culprit_spectra_free(&spectra);
    culprit_verdict_list_free(&verdicts);
    for (size_t i = 0; i < count; i++)
        free(paths[i]);
}

/* Parses a manifest text as if read from scratch/name, where expected/
 * holds a.out, a.exit and b.out (for --expect-dir and "file" keys) and
 * input.txt is a stdin file; with_defaults passes command-line options. */
static inline void fuzz_parse_manifest(const char *text, size_t size, const char *name, bool with_defaults)
{
    static bool ready;
    if (!ready) {
        fuzz_directory_path("expected");
        fuzz_write("expected/a.out", "3\n", 2);
        fuzz_write("expected/a.exit", "1\n", 2);
        fuzz_write("expected/b.out", "", 0);
        fuzz_write("input.txt", "1 2 3\n", 6);
        ready = true;
    }
    char *path = strdup(fuzz_path(name));
    FUZZ_REQUIRE(path);
    static char validator[] = "./check";
    culprit_manifest_options defaults = {.expect_directory = NULL, .timeout = 2.5, .validator = validator};
    culprit_manifest manifest;
    culprit_manifest_init(&manifest);
    culprit_error err = {0};
    culprit_manifest_parse(text, size, path, with_defaults ? &defaults : NULL, &manifest, &err);
    culprit_manifest_free(&manifest);
    free(path);
}

#endif
