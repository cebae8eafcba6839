/*
 * store_fixture.h - what the store's unit tests (test_store.c,
 * test_store_damage.c) share: scratch directories and files, raw SQL behind
 * culprit's back, and a sample program with one test of each verdict,
 * saved and compared.  Include after check.h.
 */
#ifndef CULPRIT_STORE_FIXTURE_H
#define CULPRIT_STORE_FIXTURE_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "culprit/spectra.h"
#include "culprit/store.h"

/* ---- scratch directories and files ---- */

static __attribute__((unused)) void make_scratch_directory(char directory[64])
{
    snprintf(directory, 64, "/tmp/culprit-store-test-XXXXXX");
    if (!mkdtemp(directory)) {
        perror("mkdtemp");
        exit(1);
    }
}

/* rm -r: the stores made here hold only files and directories. */
static __attribute__((unused)) void remove_tree(const char *path)
{
    DIR *directory = opendir(path);
    if (directory) {
        struct dirent *entry;
        while ((entry = readdir(directory))) {
            if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0)
                continue;
            char child[512];
            snprintf(child, sizeof child, "%s/%s", path, entry->d_name);
            remove_tree(child);
        }
        closedir(directory);
        rmdir(path);
    } else {
        unlink(path);
    }
}

static __attribute__((unused)) void database_path(const char *directory, char path[128])
{
    snprintf(path, 128, "%s/culprit.db", directory);
}

static __attribute__((unused)) void write_file(const char *path, const void *bytes, size_t size)
{
    FILE *file = fopen(path, "wb");
    if (!file || fwrite(bytes, 1, size, file) != size || fclose(file) != 0) {
        perror(path);
        exit(1);
    }
}

/* The whole file, malloc'd; *size its length. */
static __attribute__((unused)) unsigned char *read_file(const char *path, size_t *size)
{
    *size = 0;
    FILE *file = fopen(path, "rb");
    if (!file)
        return NULL;
    size_t capacity = 4096;
    unsigned char *bytes = malloc(capacity);
    size_t got;
    while (bytes && (got = fread(bytes + *size, 1, capacity - *size, file)) > 0) {
        *size += got;
        if (*size == capacity)
            bytes = realloc(bytes, capacity *= 2);
    }
    fclose(file);
    return bytes;
}

static __attribute__((unused)) bool file_exists(const char *path)
{
    struct stat info;
    return stat(path, &info) == 0;
}

/* Runs sql on a plain sqlite3 connection to path (creating it). */
static __attribute__((unused)) void raw_sql(const char *path, const char *sql)
{
    sqlite3 *database = NULL;
    int code = sqlite3_open(path, &database);
    if (code == SQLITE_OK)
        code = sqlite3_exec(database, sql, NULL, NULL, NULL);
    if (code != SQLITE_OK)
        fprintf(stderr, "raw_sql(%s): %s\n", sql, sqlite3_errmsg(database));
    CHECK_INT(code, SQLITE_OK);
    sqlite3_close(database);
}

/* The integer a query gives in directory's database, behind culprit's back
 * (a plain read-only SQLite connection, which reads the log too); -1 on
 * failure. */
static __attribute__((unused)) int query_integer(const char *directory, const char *sql)
{
    char path[128];
    database_path(directory, path);
    sqlite3 *database = NULL;
    sqlite3_stmt *statement = NULL;
    int count = -1;
    if (sqlite3_open_v2(path, &database, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(database, sql, -1, &statement, NULL) == SQLITE_OK &&
        sqlite3_step(statement) == SQLITE_ROW)
        count = sqlite3_column_int(statement, 0);
    sqlite3_finalize(statement);
    sqlite3_close(database);
    return count;
}

/* ---- a sample program ---- */

enum { SAMPLE_EXTRA_LINES = 70 }; /* pushes the element count past one 64-bit word */

/* A program with every kind of element, with and without files and names.
 * `variant` changes one line number, so variants are different programs. */
static __attribute__((unused)) void build_program(culprit_spectra *spectra, int variant)
{
    culprit_error err;
    uint32_t a, b, index;
    CHECK_INT(culprit_spectra_add_file(spectra, "src/a.c", &a, &err), CULPRIT_OK);
    CHECK_INT(culprit_spectra_add_file(spectra, "src/b.c", &b, &err), CULPRIT_OK);
    CHECK_INT(culprit_spectra_add_element(spectra, CULPRIT_KIND_LINE, a, 1 + (uint32_t)variant, 0, NULL,
                                          &index, &err),
              CULPRIT_OK);
    CHECK_INT(culprit_spectra_add_element(spectra, CULPRIT_KIND_LINE, a, 2, 0, NULL, &index, &err),
              CULPRIT_OK);
    CHECK_INT(culprit_spectra_add_element(spectra, CULPRIT_KIND_BLOCK, a, 3, 5, "main#0", &index, &err),
              CULPRIT_OK);
    CHECK_INT(culprit_spectra_add_element(spectra, CULPRIT_KIND_EDGE, CULPRIT_NO_FILE, 0, 0, "main#0->main#1",
                                          &index, &err),
              CULPRIT_OK);
    CHECK_INT(culprit_spectra_add_element(spectra, CULPRIT_KIND_BRANCH, b, 10, 7, "if:true", &index, &err),
              CULPRIT_OK);
    CHECK_INT(culprit_spectra_add_element(spectra, CULPRIT_KIND_RETURN, b, 20, 3, "ret<0", &index, &err),
              CULPRIT_OK);
    CHECK_INT(culprit_spectra_add_element(spectra, CULPRIT_KIND_PREDICATE, b, 21, 0, "", &index, &err),
              CULPRIT_OK);
    for (uint32_t i = 0; i < SAMPLE_EXTRA_LINES; i++)
        CHECK_INT(culprit_spectra_add_element(spectra, CULPRIT_KIND_LINE, b, 100 + i, 0, NULL, &index, &err),
                  CULPRIT_OK);
}

/* One test of each verdict, with varied hits, counts and durations. */
static __attribute__((unused)) void add_sample_tests(culprit_spectra *spectra)
{
    culprit_error err;
    static const char *const names[] = {"t-pass", "t-fail", "t-error", "t-timeout", "t-skip"};
    for (int verdict = 0; verdict < CULPRIT_VERDICT_COUNT; verdict++) {
        size_t test;
        CHECK_INT(culprit_spectra_add_test(spectra, names[verdict], (culprit_verdict)verdict, &test, &err),
                  CULPRIT_OK);
        spectra->tests[test].duration_seconds = verdict == 2 ? -1.0 : 0.25 * verdict + 0.001;
        for (uint32_t element = (uint32_t)verdict; element < spectra->element_count; element += 3 + verdict)
            culprit_spectra_set_hit(spectra, test, element);
        if (verdict % 2 == 0) {
            uint32_t elements[] = {0, 1, 6, 64, (uint32_t)spectra->element_count - 1};
            uint64_t counts[] = {1, 300, UINT64_MAX, 0, 128};
            CHECK_INT(culprit_spectra_set_counts(spectra, test, 5, elements, counts, &err), CULPRIT_OK);
        }
    }
}

static __attribute__((unused)) bool same_string(const char *a, const char *b)
{
    return (a == NULL && b == NULL) || (a && b && strcmp(a, b) == 0);
}

static __attribute__((unused)) void check_same_elements(const culprit_spectra *actual,
                                                        const culprit_spectra *expected)
{
    CHECK_INT(actual->file_count, expected->file_count);
    for (size_t i = 0; i < actual->file_count && i < expected->file_count; i++)
        CHECK_STR(actual->files[i], expected->files[i]);
    CHECK_INT(actual->element_count, expected->element_count);
    for (size_t i = 0; i < actual->element_count && i < expected->element_count; i++) {
        const culprit_element *a = &actual->elements[i], *e = &expected->elements[i];
        CHECK_INT(a->kind, e->kind);
        CHECK_INT(a->file, e->file);
        CHECK_INT(a->line, e->line);
        CHECK_INT(a->column, e->column);
        CHECK_RECORD(same_string(a->name, e->name), "element %zu name differs", i);
    }
}

static __attribute__((unused)) void check_same_test(const culprit_spectra *actual, size_t a,
                                                    const culprit_spectra *expected, size_t e)
{
    CHECK_STR(actual->tests[a].name, expected->tests[e].name);
    CHECK_INT(actual->tests[a].verdict, expected->tests[e].verdict);
    CHECK_NEAR(actual->tests[a].duration_seconds, expected->tests[e].duration_seconds, 0);
    CHECK(memcmp(culprit_spectra_row(actual, a), culprit_spectra_row(expected, e),
                 expected->words_per_test * sizeof(uint64_t)) == 0);
    const culprit_counts *ac = &actual->counts[a], *ec = &expected->counts[e];
    CHECK_INT(ac->length, ec->length);
    if (ac->length == ec->length && ec->length > 0) {
        CHECK(memcmp(ac->elements, ec->elements, ec->length * sizeof *ec->elements) == 0);
        CHECK(memcmp(ac->counts, ec->counts, ec->length * sizeof *ec->counts) == 0);
    }
}

static __attribute__((unused)) void check_same_spectra(const culprit_spectra *actual,
                                                       const culprit_spectra *expected)
{
    check_same_elements(actual, expected);
    CHECK_INT(actual->test_count, expected->test_count);
    for (size_t t = 0; t < actual->test_count && t < expected->test_count; t++)
        check_same_test(actual, t, expected, t);
}

/* Creates a store in directory holding the sample program and its tests. */
static __attribute__((unused)) int64_t make_sample_store(const char *directory, culprit_spectra *spectra)
{
    culprit_error err;
    culprit_store *store = NULL;
    int64_t program = 0;
    build_program(spectra, 0);
    add_sample_tests(spectra);
    CHECK_INT(culprit_store_open(directory, CULPRIT_STORE_CREATE, &store, &err), CULPRIT_OK);
    if (!store)
        return 0;
    CHECK_INT(culprit_store_save_program(store, spectra, "sample", &program, &err), CULPRIT_OK);
    for (size_t t = 0; t < spectra->test_count; t++)
        CHECK_INT(culprit_store_save_test(store, program, spectra, t, &err), CULPRIT_OK);
    culprit_store_close(store);
    return program;
}

/* Opens directory in mode and, if that works, loads program; returns the
 * first failure's status with its message in err. */
static __attribute__((unused)) culprit_status open_and_load(const char *directory, culprit_store_mode mode,
                                                            int64_t program, culprit_error *err)
{
    culprit_store *store = NULL;
    culprit_status status = culprit_store_open(directory, mode, &store, err);
    if (status != CULPRIT_OK)
        return status;
    culprit_spectra loaded;
    culprit_spectra_init(&loaded);
    status = culprit_store_load(store, program, &loaded, err);
    culprit_spectra_free(&loaded);
    culprit_store_close(store);
    return status;
}

#endif
