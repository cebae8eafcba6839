/*
 * test_store.c - unit tests of the SQLite store (src/store/), the program
 * content hash (src/core/program_hash.c) and SHA-256 (src/core/sha256.c).
 *
 * Every test works in its own mkdtemp directory under /tmp and removes it.
 * Databases that culprit must refuse (text files, foreign SQLite databases,
 * newer schemas, damaged files) are built by hand with the sqlite3 API, and
 * their bytes are compared before and after to prove they were not touched.
 */
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

#include "check.h"
#include "core/sha256.h"
#include "culprit/spectra.h"
#include "culprit/store.h"

/* ---- scratch directories and files ---- */

static void make_scratch_directory(char directory[64])
{
    snprintf(directory, 64, "/tmp/culprit-store-test-XXXXXX");
    if (!mkdtemp(directory)) {
        perror("mkdtemp");
        exit(1);
    }
}

/* rm -r: the stores made here hold only files and directories. */
static void remove_tree(const char *path)
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

static void database_path(const char *directory, char path[128])
{
    snprintf(path, 128, "%s/culprit.db", directory);
}

static void write_file(const char *path, const void *bytes, size_t size)
{
    FILE *file = fopen(path, "wb");
    if (!file || fwrite(bytes, 1, size, file) != size || fclose(file) != 0) {
        perror(path);
        exit(1);
    }
}

/* The whole file, malloc'd; *size its length. */
static unsigned char *read_file(const char *path, size_t *size)
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

static bool file_exists(const char *path)
{
    struct stat info;
    return stat(path, &info) == 0;
}

/* Runs sql on a plain sqlite3 connection to path (creating it). */
static void raw_sql(const char *path, const char *sql)
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

/* ---- a sample program ---- */

enum { SAMPLE_EXTRA_LINES = 70 }; /* pushes the element count past one 64-bit word */

/* A program with every kind of element, with and without files and names.
 * `variant` changes one line number, so variants are different programs. */
static void build_program(culprit_spectra *spectra, int variant)
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
static void add_sample_tests(culprit_spectra *spectra)
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

static bool same_string(const char *a, const char *b)
{
    return (a == NULL && b == NULL) || (a && b && strcmp(a, b) == 0);
}

static void check_same_elements(const culprit_spectra *actual, const culprit_spectra *expected)
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

static void check_same_test(const culprit_spectra *actual, size_t a, const culprit_spectra *expected,
                            size_t e)
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

static void check_same_spectra(const culprit_spectra *actual, const culprit_spectra *expected)
{
    check_same_elements(actual, expected);
    CHECK_INT(actual->test_count, expected->test_count);
    for (size_t t = 0; t < actual->test_count && t < expected->test_count; t++)
        check_same_test(actual, t, expected, t);
}

/* Creates a store in directory holding the sample program and its tests. */
static int64_t make_sample_store(const char *directory, culprit_spectra *spectra)
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
static culprit_status open_and_load(const char *directory, culprit_store_mode mode, int64_t program,
                                    culprit_error *err)
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

/* ---- SHA-256 ---- */

static void check_digest(const void *data, size_t size, const char *expected)
{
    culprit_sha256 context;
    unsigned char digest[CULPRIT_SHA256_DIGEST_SIZE];
    char hex[65];
    culprit_sha256_init(&context);
    culprit_sha256_update(&context, data, size);
    culprit_sha256_final(&context, digest);
    culprit_sha256_hex(digest, hex);
    CHECK_STR(hex, expected);
}

static void test_sha256_vectors(void)
{
    check_digest("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    check_digest("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    const char *message448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    check_digest(message448, strlen(message448),
                 "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    const char *message896 =
        "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqr"
        "lmnopqrsmnopqrstnopqrstu";
    check_digest(message896, strlen(message896),
                 "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");

    /* A million 'a's, fed in odd-sized pieces to exercise partial blocks. */
    char piece[997];
    memset(piece, 'a', sizeof piece);
    culprit_sha256 context;
    culprit_sha256_init(&context);
    size_t left = 1000000;
    while (left > 0) {
        size_t size = left < sizeof piece ? left : sizeof piece;
        culprit_sha256_update(&context, piece, size);
        left -= size;
    }
    unsigned char digest[CULPRIT_SHA256_DIGEST_SIZE];
    char hex[65];
    culprit_sha256_final(&context, digest);
    culprit_sha256_hex(digest, hex);
    CHECK_STR(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");

    /* 55 and 56 bytes: the last lengths whose padding fits / does not fit. */
    check_digest("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 55,
                 "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
    check_digest("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 56,
                 "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
}

/* ---- program hash ---- */

static void hash_of(const culprit_spectra *spectra, char hex[65])
{
    culprit_spectra_program_hash(spectra, hex);
}

static void test_program_hash(void)
{
    culprit_spectra first, second;
    char hash_first[65], hash_second[65];
    culprit_spectra_init(&first);
    culprit_spectra_init(&second);
    build_program(&first, 0);
    build_program(&second, 0);
    hash_of(&first, hash_first);
    hash_of(&second, hash_second);
    CHECK_INT(strlen(hash_first), 64);
    CHECK_STR(hash_first, hash_second);

    /* Tests do not change a program's identity. */
    add_sample_tests(&second);
    hash_of(&second, hash_second);
    CHECK_STR(hash_second, hash_first);

    /* Every field of an element and of the file table does. */
    culprit_element *element = &second.elements[2];
    uint32_t saved_line = element->line;
    element->line++;
    hash_of(&second, hash_second);
    CHECK(strcmp(hash_second, hash_first) != 0);
    element->line = saved_line;

    element->column++;
    hash_of(&second, hash_second);
    CHECK(strcmp(hash_second, hash_first) != 0);
    element->column--;

    element->kind = CULPRIT_KIND_LINE;
    hash_of(&second, hash_second);
    CHECK(strcmp(hash_second, hash_first) != 0);
    element->kind = CULPRIT_KIND_BLOCK;

    element->file = CULPRIT_NO_FILE;
    hash_of(&second, hash_second);
    CHECK(strcmp(hash_second, hash_first) != 0);
    element->file = 0;

    element->name[0] = 'M';
    hash_of(&second, hash_second);
    CHECK(strcmp(hash_second, hash_first) != 0);
    element->name[0] = 'm';

    /* NULL and "" names differ (element 0 has NULL, element 6 has ""). */
    char *empty_name = second.elements[6].name;
    second.elements[6].name = NULL;
    hash_of(&second, hash_second);
    CHECK(strcmp(hash_second, hash_first) != 0);
    second.elements[6].name = empty_name;

    second.files[1][4] = 'c';
    hash_of(&second, hash_second);
    CHECK(strcmp(hash_second, hash_first) != 0);
    second.files[1][4] = 'b';

    /* Swapping two elements changes the order, so the identity. */
    culprit_element swap = second.elements[0];
    second.elements[0] = second.elements[1];
    second.elements[1] = swap;
    hash_of(&second, hash_second);
    CHECK(strcmp(hash_second, hash_first) != 0);
    second.elements[1] = second.elements[0];
    second.elements[0] = swap;

    hash_of(&second, hash_second);
    CHECK_STR(hash_second, hash_first); /* every change undone */

    /* Moving bytes between adjacent fields is still a change. */
    culprit_spectra shifted_a, shifted_b;
    culprit_spectra_init(&shifted_a);
    culprit_spectra_init(&shifted_b);
    culprit_error err;
    uint32_t index;
    CHECK_INT(culprit_spectra_add_element(&shifted_a, CULPRIT_KIND_BLOCK, CULPRIT_NO_FILE, 0, 0, "ab", &index,
                                          &err),
              CULPRIT_OK);
    CHECK_INT(
        culprit_spectra_add_element(&shifted_a, CULPRIT_KIND_BLOCK, CULPRIT_NO_FILE, 0, 0, "c", &index, &err),
        CULPRIT_OK);
    CHECK_INT(
        culprit_spectra_add_element(&shifted_b, CULPRIT_KIND_BLOCK, CULPRIT_NO_FILE, 0, 0, "a", &index, &err),
        CULPRIT_OK);
    CHECK_INT(culprit_spectra_add_element(&shifted_b, CULPRIT_KIND_BLOCK, CULPRIT_NO_FILE, 0, 0, "bc", &index,
                                          &err),
              CULPRIT_OK);
    hash_of(&shifted_a, hash_first);
    hash_of(&shifted_b, hash_second);
    CHECK(strcmp(hash_second, hash_first) != 0);

    culprit_spectra_free(&shifted_a);
    culprit_spectra_free(&shifted_b);
    culprit_spectra_free(&first);
    culprit_spectra_free(&second);
}

/* The serialisation documented in docs/store.md, computed independently
 * (with Python's hashlib) for a three-element program. */
static void test_program_hash_documented(void)
{
    culprit_spectra spectra;
    culprit_spectra_init(&spectra);
    culprit_error err;
    uint32_t file, index;
    CHECK_INT(culprit_spectra_add_file(&spectra, "a.c", &file, &err), CULPRIT_OK);
    CHECK_INT(culprit_spectra_add_element(&spectra, CULPRIT_KIND_LINE, file, 7, 0, NULL, &index, &err),
              CULPRIT_OK);
    CHECK_INT(
        culprit_spectra_add_element(&spectra, CULPRIT_KIND_BLOCK, CULPRIT_NO_FILE, 0, 3, "b0", &index, &err),
        CULPRIT_OK);
    CHECK_INT(culprit_spectra_add_element(&spectra, CULPRIT_KIND_PREDICATE, file, 9, 2, "", &index, &err),
              CULPRIT_OK);
    char hash[65];
    culprit_spectra_program_hash(&spectra, hash);
    CHECK_STR(hash, "4f2ffd8dad335b43737f12042b8d5938ec95d2080a36363a6f60208794ffd5d7");
    culprit_spectra_free(&spectra);
}

/* ---- round trips ---- */

static void test_round_trip(void)
{
    char directory[64];
    make_scratch_directory(directory);
    culprit_spectra saved;
    culprit_spectra_init(&saved);
    int64_t program = make_sample_store(directory, &saved);
    CHECK(program > 0);

    culprit_error err;
    culprit_store *store = NULL;
    CHECK_INT(culprit_store_open(directory, CULPRIT_STORE_READ, &store, &err), CULPRIT_OK);
    if (store) {
        int64_t current = -1;
        CHECK_INT(culprit_store_current_program(store, &current, &err), CULPRIT_OK);
        CHECK_INT(current, program);
        culprit_spectra loaded;
        culprit_spectra_init(&loaded);
        CHECK_INT(culprit_store_load(store, program, &loaded, &err), CULPRIT_OK);
        check_same_spectra(&loaded, &saved);

        /* Loading needs an empty spectra, and an existing program. */
        CHECK_INT(culprit_store_load(store, program, &loaded, &err), CULPRIT_ERROR_INTERNAL);
        culprit_spectra_free(&loaded);
        culprit_spectra_init(&loaded);
        CHECK_INT(culprit_store_load(store, program + 100, &loaded, &err), CULPRIT_ERROR_INPUT);
        CHECK_CONTAINS(err.message, "no program");
        culprit_spectra_free(&loaded);

        /* A read-only store refuses writes with a message, not a crash. */
        int64_t ignored;
        CHECK(culprit_store_save_program(store, &saved, NULL, &ignored, &err) != CULPRIT_OK);
        CHECK_CONTAINS(err.message, "culprit.db");
        culprit_store_close(store);
    }
    culprit_spectra_free(&saved);
    remove_tree(directory);
}

static void test_program_reuse_and_current(void)
{
    char directory[64];
    make_scratch_directory(directory);
    culprit_error err;
    culprit_store *store = NULL;
    CHECK_INT(culprit_store_open(directory, CULPRIT_STORE_CREATE, &store, &err), CULPRIT_OK);
    if (!store) {
        remove_tree(directory);
        return;
    }
    int64_t current = -1;
    CHECK_INT(culprit_store_current_program(store, &current, &err), CULPRIT_OK);
    CHECK_INT(current, 0);

    culprit_spectra first, again, other;
    culprit_spectra_init(&first);
    culprit_spectra_init(&again);
    culprit_spectra_init(&other);
    build_program(&first, 0);
    build_program(&again, 0);
    build_program(&other, 1);
    int64_t first_id = 0, again_id = 0, other_id = 0;
    CHECK_INT(culprit_store_save_program(store, &first, "build 1", &first_id, &err), CULPRIT_OK);
    CHECK_INT(culprit_store_save_program(store, &other, "build 2", &other_id, &err), CULPRIT_OK);
    CHECK(other_id != first_id);
    CHECK_INT(culprit_store_current_program(store, &current, &err), CULPRIT_OK);
    CHECK_INT(current, other_id);
    CHECK_INT(culprit_store_save_program(store, &again, "build 1 again", &again_id, &err), CULPRIT_OK);
    CHECK_INT(again_id, first_id);
    CHECK_INT(culprit_store_current_program(store, &current, &err), CULPRIT_OK);
    CHECK_INT(current, first_id);

    /* Find by full hash, by prefix, in upper case. */
    char hash[65];
    culprit_spectra_program_hash(&other, hash);
    int64_t found = 0;
    CHECK_INT(culprit_store_find_program(store, hash, &found, &err), CULPRIT_OK);
    CHECK_INT(found, other_id);
    char prefix[13];
    snprintf(prefix, sizeof prefix, "%.12s", hash);
    for (char *c = prefix; *c; c++)
        if (*c >= 'a' && *c <= 'f')
            *c = (char)(*c - 'a' + 'A');
    CHECK_INT(culprit_store_find_program(store, prefix, &found, &err), CULPRIT_OK);
    CHECK_INT(found, other_id);

    /* Absent: the hash with its last digit changed. */
    hash[63] = hash[63] == '0' ? '1' : '0';
    CHECK_INT(culprit_store_find_program(store, hash, &found, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "no program with hash prefix");
    CHECK_INT(culprit_store_find_program(store, "not-hex", &found, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "not a program hash");
    CHECK_INT(culprit_store_find_program(store, "", &found, &err), CULPRIT_ERROR_INPUT);

    /* Ambiguous: with 17 programs two share a first hex digit. */
    for (int variant = 2; variant < 17; variant++) {
        culprit_spectra more;
        culprit_spectra_init(&more);
        build_program(&more, variant);
        int64_t id;
        CHECK_INT(culprit_store_save_program(store, &more, NULL, &id, &err), CULPRIT_OK);
        culprit_spectra_free(&more);
    }
    int ambiguous = 0;
    for (const char *digit = "0123456789abcdef"; *digit; digit++) {
        char one[2] = {*digit, '\0'};
        if (culprit_store_find_program(store, one, &found, &err) == CULPRIT_ERROR_INPUT &&
            strstr(err.message, "is ambiguous"))
            ambiguous++;
    }
    CHECK(ambiguous > 0);

    culprit_spectra_free(&first);
    culprit_spectra_free(&again);
    culprit_spectra_free(&other);
    culprit_store_close(store);
    remove_tree(directory);
}

static void test_test_replaced(void)
{
    char directory[64];
    make_scratch_directory(directory);
    culprit_spectra saved;
    culprit_spectra_init(&saved);
    int64_t program = make_sample_store(directory, &saved);

    /* Re-run t-fail (test 1): now it passes, hits other elements, no counts. */
    culprit_spectra rerun;
    culprit_spectra_init(&rerun);
    build_program(&rerun, 0);
    culprit_error err;
    size_t test;
    CHECK_INT(culprit_spectra_add_test(&rerun, "t-fail", CULPRIT_VERDICT_PASS, &test, &err), CULPRIT_OK);
    rerun.tests[test].duration_seconds = 9.5;
    culprit_spectra_set_hit(&rerun, test, 5);
    culprit_spectra_set_hit(&rerun, test, 70);
    culprit_store *store = NULL;
    CHECK_INT(culprit_store_open(directory, CULPRIT_STORE_WRITE, &store, &err), CULPRIT_OK);
    if (store) {
        CHECK_INT(culprit_store_save_test(store, program, &rerun, test, &err), CULPRIT_OK);
        culprit_spectra loaded;
        culprit_spectra_init(&loaded);
        CHECK_INT(culprit_store_load(store, program, &loaded, &err), CULPRIT_OK);
        CHECK_INT(loaded.test_count, saved.test_count);
        if (loaded.test_count == saved.test_count) {
            check_same_test(&loaded, 0, &saved, 0);
            check_same_test(&loaded, 1, &rerun, test); /* replaced, in its old place */
            for (size_t t = 2; t < saved.test_count; t++)
                check_same_test(&loaded, t, &saved, t);
        }
        culprit_spectra_free(&loaded);

        /* A test whose element table does not fit the program is refused. */
        culprit_spectra smaller;
        culprit_spectra_init(&smaller);
        uint32_t index;
        CHECK_INT(culprit_spectra_add_element(&smaller, CULPRIT_KIND_LINE, CULPRIT_NO_FILE, 1, 0, NULL,
                                              &index, &err),
                  CULPRIT_OK);
        CHECK_INT(culprit_spectra_add_test(&smaller, "x", CULPRIT_VERDICT_PASS, &test, &err), CULPRIT_OK);
        CHECK_INT(culprit_store_save_test(store, program, &smaller, test, &err), CULPRIT_ERROR_INPUT);
        CHECK_CONTAINS(err.message, "elements");
        CHECK_INT(culprit_store_save_test(store, program + 100, &smaller, test, &err), CULPRIT_ERROR_INPUT);
        CHECK_CONTAINS(err.message, "no program");
        culprit_spectra_free(&smaller);
        culprit_store_close(store);
    }
    culprit_spectra_free(&rerun);
    culprit_spectra_free(&saved);
    remove_tree(directory);
}

/* A new store in a new directory, and the sample program and tests, not
 * saved yet; store is NULL (and the check failed) when it cannot open. */
static culprit_store *open_with_sample(char directory[64], culprit_spectra *saved)
{
    make_scratch_directory(directory);
    culprit_spectra_init(saved);
    build_program(saved, 0);
    add_sample_tests(saved);
    culprit_error err;
    culprit_store *store = NULL;
    CHECK_INT(culprit_store_open(directory, CULPRIT_STORE_CREATE, &store, &err), CULPRIT_OK);
    return store;
}

/* The batch form saves all tests in one transaction: all or none. */
static void test_save_tests_batch(void)
{
    char directory[64];
    culprit_spectra saved;
    culprit_error err;
    culprit_store *store = open_with_sample(directory, &saved);
    if (!store) {
        culprit_spectra_free(&saved);
        remove_tree(directory);
        return;
    }
    int64_t program = 0;
    CHECK_INT(culprit_store_save_program(store, &saved, NULL, &program, &err), CULPRIT_OK);
    CHECK_INT(culprit_store_save_tests(store, program, &saved, 3, 3, &err), CULPRIT_ERROR_INTERNAL);

    /* Unsorted counts in the last test make the batch fail: nothing saved. */
    culprit_counts *counts = &saved.counts[4];
    uint32_t elements[] = {3, 5};
    uint64_t values[] = {1, 1};
    CHECK_INT(culprit_spectra_set_counts(&saved, 4, 2, elements, values, &err), CULPRIT_OK);
    counts->elements[0] = 5; /* behind set_counts' back */
    counts->elements[1] = 3;
    CHECK_INT(culprit_store_save_tests(store, program, &saved, 0, saved.test_count, &err),
              CULPRIT_ERROR_INTERNAL);
    CHECK_CONTAINS(err.message, "t-skip");
    culprit_spectra loaded;
    culprit_spectra_init(&loaded);
    CHECK_INT(culprit_store_load(store, program, &loaded, &err), CULPRIT_OK);
    CHECK_INT(loaded.test_count, 0);
    culprit_spectra_free(&loaded);

    counts->elements[0] = 3;
    counts->elements[1] = 5;
    CHECK_INT(culprit_store_save_tests(store, program, &saved, 0, saved.test_count, &err), CULPRIT_OK);
    culprit_spectra_init(&loaded);
    CHECK_INT(culprit_store_load(store, program, &loaded, &err), CULPRIT_OK);
    check_same_spectra(&loaded, &saved);
    culprit_spectra_free(&loaded);
    culprit_store_close(store);
    culprit_spectra_free(&saved);
    remove_tree(directory);
}

/* An import is saved whole (program and tests) in one call; a structure
 * that does not fit it is refused before anything is written. */
static void test_save_imported(void)
{
    char directory[64];
    culprit_spectra saved;
    culprit_error err;
    culprit_store *store = open_with_sample(directory, &saved);
    culprit_program_structure structure;
    culprit_program_structure_init(&structure);
    structure.test_count = saved.test_count;
    structure.crashes = calloc(saved.test_count, sizeof *structure.crashes);
    if (!store || !structure.crashes ||
        !(structure.crashes[1] = strdup("{\"pid\":1,\"signal\":11,\"stack\":[]}"))) {
        CHECK(!"set up");
        return;
    }
    int64_t program = -1, current = -1;
    CHECK_INT(culprit_store_save_imported(store, &saved, &structure, "json", &program, &err),
              CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "test 't-fail' has a crash stack but the program has no units");
    CHECK_INT(program, 0);
    CHECK_INT(culprit_store_current_program(store, &current, &err), CULPRIT_OK);
    CHECK_INT(current, 0);
    CHECK_INT(culprit_store_save_imported(store, &saved, NULL, "json", &program, &err), CULPRIT_OK);
    CHECK_INT(culprit_store_current_program(store, &current, &err), CULPRIT_OK);
    CHECK_INT(current, program);
    culprit_spectra loaded;
    culprit_spectra_init(&loaded);
    CHECK_INT(culprit_store_load(store, program, &loaded, &err), CULPRIT_OK);
    check_same_spectra(&loaded, &saved);
    culprit_program_structure_free(&structure);
    CHECK_INT(culprit_store_load_program_structure(store, program, &loaded, &structure, &err), CULPRIT_OK);
    CHECK_INT(structure.units.count, 0);
    CHECK(structure.crashes == NULL);
    culprit_program_structure_free(&structure);
    culprit_spectra_free(&loaded);
    culprit_store_close(store);
    culprit_spectra_free(&saved);
    remove_tree(directory);
}

/* ---- finding and identifying stores ---- */

static void test_missing_store(void)
{
    char directory[64], missing[128], nested[160];
    make_scratch_directory(directory);
    snprintf(missing, sizeof missing, "%s/nothing-here", directory);
    culprit_error err;
    culprit_store *store = NULL;
    char expected[256];
    snprintf(expected, sizeof expected,
             "no culprit store at %s (record tests first: 'culprit test', 'culprit run' or 'culprit import')",
             missing);
    CHECK_INT(culprit_store_open(missing, CULPRIT_STORE_READ, &store, &err), CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, expected);
    CHECK(store == NULL);
    CHECK_INT(culprit_store_open(missing, CULPRIT_STORE_WRITE, &store, &err), CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, expected);
    CHECK(!file_exists(missing)); /* READ and WRITE create nothing */

    /* An existing directory without a database is no store either. */
    CHECK_INT(culprit_store_open(directory, CULPRIT_STORE_READ, &store, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "no culprit store at");

    /* CREATE makes missing parents too. */
    snprintf(nested, sizeof nested, "%s/a/b/.culprit", directory);
    CHECK_INT(culprit_store_open(nested, CULPRIT_STORE_CREATE, &store, &err), CULPRIT_OK);
    culprit_store_close(store);
    store = NULL;
    CHECK_INT(culprit_store_open(nested, CULPRIT_STORE_READ, &store, &err), CULPRIT_OK);
    culprit_store_close(store);

    /* A store directory that is a file. */
    char file[160];
    snprintf(file, sizeof file, "%s/plain-file", directory);
    write_file(file, "x", 1);
    CHECK_INT(culprit_store_open(file, CULPRIT_STORE_CREATE, &store, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "plain-file");
    remove_tree(directory);
}

/* Opens directory in every mode, expecting a refusal mentioning `expected`,
 * and checks that the database's bytes stayed the same. */
static void check_refused_untouched(const char *directory, const char *expected)
{
    char path[128];
    database_path(directory, path);
    size_t size_before, size_after;
    unsigned char *before = read_file(path, &size_before);
    static const culprit_store_mode modes[] = {CULPRIT_STORE_READ, CULPRIT_STORE_WRITE, CULPRIT_STORE_CREATE};
    for (size_t i = 0; i < 3; i++) {
        culprit_error err;
        culprit_store *store = NULL;
        CHECK_INT(culprit_store_open(directory, modes[i], &store, &err), CULPRIT_ERROR_INPUT);
        CHECK_CONTAINS(err.message, path);
        CHECK_CONTAINS(err.message, expected);
        CHECK(store == NULL);
    }
    unsigned char *after = read_file(path, &size_after);
    CHECK(before && after);
    CHECK_INT(size_after, size_before);
    CHECK(before && after && size_after == size_before && memcmp(before, after, size_before) == 0);
    free(before);
    free(after);
}

static void test_not_sqlite(void)
{
    char directory[64], path[128];
    make_scratch_directory(directory);
    database_path(directory, path);
    const char text[] = "this is a text file, not a database\n";
    write_file(path, text, sizeof text - 1);
    check_refused_untouched(directory, "not a culprit store (not an SQLite database)");

    /* Shorter than the header, and a header with one byte wrong. */
    write_file(path, "SQLite", 6);
    check_refused_untouched(directory, "not an SQLite database");
    char almost[4096] = "SQLite format 3";
    almost[15] = 'x';
    write_file(path, almost, sizeof almost);
    check_refused_untouched(directory, "not an SQLite database");

    /* A directory where the database should be. */
    unlink(path);
    mkdir(path, 0777);
    culprit_error err;
    culprit_store *store = NULL;
    CHECK_INT(culprit_store_open(directory, CULPRIT_STORE_CREATE, &store, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "not a culprit store");
    remove_tree(directory);
}

static void test_foreign_sqlite(void)
{
    char directory[64], path[128];
    make_scratch_directory(directory);
    database_path(directory, path);
    raw_sql(path, "CREATE TABLE recipes (name TEXT); INSERT INTO recipes VALUES ('soup');");
    check_refused_untouched(directory, "not a culprit store (foreign SQLite database)");

    /* Another application's id, even with no tables. */
    unlink(path);
    raw_sql(path, "PRAGMA application_id = 1234");
    check_refused_untouched(directory, "foreign SQLite database");

    /* A foreign database in WAL mode must not be checkpointed by us. */
    unlink(path);
    raw_sql(path, "PRAGMA journal_mode = WAL; CREATE TABLE t (x); INSERT INTO t VALUES (1);");
    check_refused_untouched(directory, "foreign SQLite database");
    remove_tree(directory);
}

static void test_newer_schema(void)
{
    char directory[64], path[128];
    make_scratch_directory(directory);
    culprit_spectra saved;
    culprit_spectra_init(&saved);
    make_sample_store(directory, &saved);
    database_path(directory, path);
    raw_sql(path, "PRAGMA user_version = 99");
    char expected[256];
    snprintf(expected, sizeof expected,
             "%s: store schema version 99 is newer than this culprit supports (%d)", path,
             CULPRIT_STORE_SCHEMA_VERSION);
    check_refused_untouched(directory, expected);
    culprit_spectra_free(&saved);
    remove_tree(directory);
}

/* An empty database, or one culprit claimed without tables (version 0),
 * is not a store yet: READ and WRITE say so, CREATE initialises it. */
static void test_empty_and_version_zero(void)
{
    char directory[64], path[128];
    make_scratch_directory(directory);
    database_path(directory, path);
    write_file(path, "", 0);
    culprit_error err;
    culprit_store *store = NULL;
    CHECK_INT(culprit_store_open(directory, CULPRIT_STORE_READ, &store, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "no culprit store at");
    CHECK_INT(culprit_store_open(directory, CULPRIT_STORE_CREATE, &store, &err), CULPRIT_OK);
    culprit_store_close(store);
    store = NULL;

    unlink(path);
    char claimed[64];
    snprintf(claimed, sizeof claimed, "PRAGMA application_id = %d", 0x43554c50);
    raw_sql(path, claimed);
    CHECK_INT(culprit_store_open(directory, CULPRIT_STORE_WRITE, &store, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "no culprit store at");
    CHECK_INT(culprit_store_open(directory, CULPRIT_STORE_CREATE, &store, &err), CULPRIT_OK);
    if (store) {
        int64_t current = -1;
        CHECK_INT(culprit_store_current_program(store, &current, &err), CULPRIT_OK);
        CHECK_INT(current, 0);
        culprit_store_close(store);
    }
    remove_tree(directory);
}

/* Damaged databases are reported (corrupt, or not a database), never
 * crash, and whatever the damage, a failure carries a message. */
static void test_corrupt(void)
{
    char directory[64], path[128];
    make_scratch_directory(directory);
    culprit_spectra saved;
    culprit_spectra_init(&saved);
    int64_t program = make_sample_store(directory, &saved);
    culprit_spectra_free(&saved);
    database_path(directory, path);
    size_t size;
    unsigned char *original = read_file(path, &size);
    CHECK(original && size >= 4096 * 4);
    if (!original || size < 4096 * 4) {
        free(original);
        remove_tree(directory);
        return;
    }
    unsigned char *damaged = malloc(size);
    int reported = 0;
    size_t page = 4096;
    /* Garbage over each page in turn (after page 1's header), then the file
     * cut in half. */
    for (size_t offset = 100; offset < size + page; offset += page) {
        memcpy(damaged, original, size);
        size_t length = size;
        if (offset < size) {
            size_t end = (offset / page + 1) * page;
            for (size_t i = offset; i < end && i < size; i++)
                damaged[i] = (unsigned char)(i * 7 + 13);
        } else {
            length = size / 2;
        }
        write_file(path, damaged, length);
        culprit_error err = {0};
        culprit_status status = open_and_load(directory, CULPRIT_STORE_READ, program, &err);
        if (status != CULPRIT_OK) {
            reported++;
            /* Damage SQLite cannot see can make rows vanish ("no program"). */
            CHECK_RECORD(strstr(err.message, "corrupt") || strstr(err.message, "not an SQLite database") ||
                             strstr(err.message, "not know") || strstr(err.message, "no program"),
                         "damage at %zu: unexpected message \"%s\"", offset, err.message);
            CHECK_CONTAINS(err.message, path);
        }
    }
    CHECK(reported > 0);

    /* Garbage over the header: not a database at all. */
    memcpy(damaged, original, size);
    memset(damaged, 0x5a, 64);
    write_file(path, damaged, size);
    culprit_error err;
    CHECK_INT(open_and_load(directory, CULPRIT_STORE_READ, program, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "not an SQLite database");
    free(damaged);
    free(original);
    remove_tree(directory);
}

/* The blobs are laid out byte for byte as docs/store.md says. */
static void test_blob_layout(void)
{
    char directory[64], path[128];
    make_scratch_directory(directory);
    database_path(directory, path);
    culprit_spectra spectra;
    culprit_spectra_init(&spectra);
    culprit_error err;
    uint32_t index;
    for (uint32_t line = 1; line <= 70; line++)
        CHECK_INT(culprit_spectra_add_element(&spectra, CULPRIT_KIND_LINE, CULPRIT_NO_FILE, line, 0, NULL,
                                              &index, &err),
                  CULPRIT_OK);
    size_t test;
    CHECK_INT(culprit_spectra_add_test(&spectra, "t", CULPRIT_VERDICT_FAIL, &test, &err), CULPRIT_OK);
    culprit_spectra_set_hit(&spectra, test, 65);
    uint32_t elements[] = {0, 1, 6};
    uint64_t counts[] = {1, 300, 5};
    CHECK_INT(culprit_spectra_set_counts(&spectra, test, 3, elements, counts, &err), CULPRIT_OK);
    culprit_store *store = NULL;
    int64_t program = 0;
    CHECK_INT(culprit_store_open(directory, CULPRIT_STORE_CREATE, &store, &err), CULPRIT_OK);
    if (store) {
        CHECK_INT(culprit_store_save_program(store, &spectra, NULL, &program, &err), CULPRIT_OK);
        CHECK_INT(culprit_store_save_test(store, program, &spectra, test, &err), CULPRIT_OK);
        culprit_store_close(store);
    }
    sqlite3 *database = NULL;
    sqlite3_stmt *statement = NULL;
    CHECK_INT(sqlite3_open_v2(path, &database, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    CHECK_INT(sqlite3_prepare_v2(database, "SELECT hex(hits), hex(counts), duration FROM tests", -1,
                                 &statement, NULL),
              SQLITE_OK);
    CHECK_INT(sqlite3_step(statement), SQLITE_ROW);
    CHECK_STR((const char *)sqlite3_column_text(statement, 0), "43000000000000000200000000000000");
    CHECK_STR((const char *)sqlite3_column_text(statement, 1), "03000100AC020405");
    CHECK_INT(sqlite3_column_type(statement, 2), SQLITE_NULL); /* unknown duration */
    sqlite3_finalize(statement);
    sqlite3_close(database);
    culprit_spectra_free(&spectra);
    remove_tree(directory);
}

/* Rows that SQLite finds fine but culprit cannot use. */
static void test_bad_rows(void)
{
    char directory[64], path[128];
    make_scratch_directory(directory);
    culprit_spectra saved;
    culprit_spectra_init(&saved);
    int64_t program = make_sample_store(directory, &saved);
    culprit_spectra_free(&saved);
    database_path(directory, path);
    culprit_error err;
    char expected[256];

    raw_sql(path, "UPDATE tests SET hits = x'00' WHERE name = 't-error'");
    CHECK_INT(open_and_load(directory, CULPRIT_STORE_READ, program, &err), CULPRIT_ERROR_INPUT);
    snprintf(expected, sizeof expected,
             "%s: store is corrupt: test 't-error' has 1 bytes of hits, expected 16", path);
    CHECK_STR(err.message, expected);
    raw_sql(path, "UPDATE tests SET hits = zeroblob(16) WHERE name = 't-error'");
    CHECK_INT(open_and_load(directory, CULPRIT_STORE_READ, program, &err), CULPRIT_OK);

    raw_sql(path, "UPDATE tests SET counts = x'05' WHERE name = 't-pass'");
    CHECK_INT(open_and_load(directory, CULPRIT_STORE_READ, program, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "store is corrupt: the counts of test 't-pass'");
    raw_sql(path, "UPDATE tests SET counts = x'01ff7f01' WHERE name = 't-pass'"); /* element id 16383 */
    CHECK_INT(open_and_load(directory, CULPRIT_STORE_READ, program, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "out of range");
    raw_sql(path, "UPDATE tests SET counts = x'020001000100' WHERE name = 't-pass'"); /* trailing byte */
    CHECK_INT(open_and_load(directory, CULPRIT_STORE_READ, program, &err), CULPRIT_ERROR_INPUT);
    raw_sql(path, "UPDATE tests SET counts = x'020002010a' WHERE name = 't-pass'"); /* ids 0 and 2 */
    CHECK_INT(open_and_load(directory, CULPRIT_STORE_READ, program, &err), CULPRIT_OK);

    raw_sql(path, "UPDATE tests SET verdict = 'flaky' WHERE name = 't-pass'");
    CHECK_INT(open_and_load(directory, CULPRIT_STORE_READ, program, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "verdict 'flaky'");
    raw_sql(path, "UPDATE tests SET verdict = 'pass' WHERE name = 't-pass'");

    raw_sql(path, "UPDATE elements SET kind = 'statement' WHERE ordinal = 3");
    CHECK_INT(open_and_load(directory, CULPRIT_STORE_READ, program, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "kind 'statement'");
    raw_sql(path, "UPDATE elements SET kind = 'edge' WHERE ordinal = 3");

    raw_sql(path, "PRAGMA foreign_keys = OFF; DELETE FROM elements WHERE ordinal = 40");
    CHECK_INT(open_and_load(directory, CULPRIT_STORE_READ, program, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "store is corrupt");

    raw_sql(path, "DROP TABLE tests");
    CHECK_INT(open_and_load(directory, CULPRIT_STORE_READ, program, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "table 'tests' is missing");
    remove_tree(directory);
}

/* ---- concurrency ---- */

static double seconds_now(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

/* While another connection holds an open write transaction, a reader loads
 * the last committed state at once. */
static void test_reader_during_write(void)
{
    char directory[64], path[128];
    make_scratch_directory(directory);
    culprit_spectra saved;
    culprit_spectra_init(&saved);
    int64_t program = make_sample_store(directory, &saved);
    database_path(directory, path);

    sqlite3 *writer = NULL;
    CHECK_INT(sqlite3_open(path, &writer), SQLITE_OK);
    CHECK_INT(
        sqlite3_exec(writer, "BEGIN IMMEDIATE; DELETE FROM tests WHERE name = 't-fail';", NULL, NULL, NULL),
        SQLITE_OK);

    culprit_error err;
    culprit_store *reader = NULL;
    double start = seconds_now();
    CHECK_INT(culprit_store_open(directory, CULPRIT_STORE_READ, &reader, &err), CULPRIT_OK);
    if (reader) {
        culprit_spectra loaded;
        culprit_spectra_init(&loaded);
        CHECK_INT(culprit_store_load(reader, program, &loaded, &err), CULPRIT_OK);
        CHECK_INT(loaded.test_count, saved.test_count); /* the delete is not committed */
        culprit_spectra_free(&loaded);
        culprit_store_close(reader);
    }
    /* A writer may open (it only writes when saving) while the lock is held. */
    culprit_store *second_writer = NULL;
    CHECK_INT(culprit_store_open(directory, CULPRIT_STORE_WRITE, &second_writer, &err), CULPRIT_OK);
    culprit_store_close(second_writer);
    CHECK(seconds_now() - start < 1.0); /* nobody waited for the writer */

    CHECK_INT(sqlite3_exec(writer, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(writer);
    CHECK_INT(open_and_load(directory, CULPRIT_STORE_READ, program, &err), CULPRIT_OK);
    culprit_spectra_free(&saved);
    remove_tree(directory);
}

/* A writer that finds the write lock taken waits for it (busy timeout)
 * instead of failing: a child process holds it for a moment. */
static void test_writer_waits(void)
{
    char directory[64], path[128];
    make_scratch_directory(directory);
    culprit_spectra saved;
    culprit_spectra_init(&saved);
    int64_t program = make_sample_store(directory, &saved);
    database_path(directory, path);
    int ready[2];
    CHECK_INT(pipe(ready), 0);
    pid_t child = fork();
    if (child == 0) {
        sqlite3 *holder = NULL;
        int code = sqlite3_open(path, &holder);
        if (code == SQLITE_OK)
            code = sqlite3_exec(holder, "BEGIN IMMEDIATE", NULL, NULL, NULL);
        char byte = code == SQLITE_OK ? 'y' : 'n';
        if (write(ready[1], &byte, 1) != 1)
            _exit(1);
        usleep(300 * 1000);
        code = sqlite3_exec(holder, "COMMIT", NULL, NULL, NULL);
        sqlite3_close(holder);
        _exit(code == SQLITE_OK ? 0 : 1);
    }
    char byte = 'n';
    CHECK_INT(read(ready[0], &byte, 1), 1);
    CHECK_INT(byte, 'y');
    culprit_error err;
    culprit_store *store = NULL;
    CHECK_INT(culprit_store_open(directory, CULPRIT_STORE_WRITE, &store, &err), CULPRIT_OK);
    if (store) {
        double start = seconds_now();
        saved.tests[0].verdict = CULPRIT_VERDICT_FAIL;
        CHECK_INT(culprit_store_save_test(store, program, &saved, 0, &err), CULPRIT_OK);
        CHECK(seconds_now() - start > 0.1); /* it did wait */
        culprit_store_close(store);
    }
    int status = -1;
    CHECK_INT(waitpid(child, &status, 0), child);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    close(ready[0]);
    close(ready[1]);
    culprit_spectra_free(&saved);
    remove_tree(directory);
}

/* A writer killed with SIGKILL loses nothing it committed, and the next
 * reader (read-only, so it cannot run a checkpoint) still sees it all. */
static void test_killed_writer(void)
{
    char directory[64];
    make_scratch_directory(directory);
    culprit_spectra spectra;
    culprit_spectra_init(&spectra);
    build_program(&spectra, 0);
    add_sample_tests(&spectra);
    pid_t child = fork();
    if (child == 0) {
        culprit_error err;
        culprit_store *store = NULL;
        int64_t program = 0;
        if (culprit_store_open(directory, CULPRIT_STORE_CREATE, &store, &err) == CULPRIT_OK &&
            culprit_store_save_program(store, &spectra, NULL, &program, &err) == CULPRIT_OK)
            for (size_t t = 0; t < 3; t++)
                culprit_store_save_test(store, program, &spectra, t, &err);
        kill(getpid(), SIGKILL);
        _exit(1);
    }
    int status = 0;
    CHECK_INT(waitpid(child, &status, 0), child);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    culprit_error err;
    culprit_store *store = NULL;
    CHECK_INT(culprit_store_open(directory, CULPRIT_STORE_READ, &store, &err), CULPRIT_OK);
    if (store) {
        int64_t program = 0;
        CHECK_INT(culprit_store_current_program(store, &program, &err), CULPRIT_OK);
        culprit_spectra loaded;
        culprit_spectra_init(&loaded);
        CHECK_INT(culprit_store_load(store, program, &loaded, &err), CULPRIT_OK);
        check_same_elements(&loaded, &spectra);
        CHECK_INT(loaded.test_count, 3);
        for (size_t t = 0; t < loaded.test_count && t < 3; t++)
            check_same_test(&loaded, t, &spectra, t);
        culprit_spectra_free(&loaded);
        culprit_store_close(store);
    }
    culprit_spectra_free(&spectra);
    remove_tree(directory);
}

/* ---- the store directory ---- */

static void test_directory(void)
{
    char *saved = getenv("CULPRIT_STORE") ? strdup(getenv("CULPRIT_STORE")) : NULL;
    unsetenv("CULPRIT_STORE");
    CHECK_STR(culprit_store_directory(NULL), ".culprit");
    CHECK_STR(culprit_store_directory("explicit"), "explicit");
    setenv("CULPRIT_STORE", "", 1);
    CHECK_STR(culprit_store_directory(NULL), ".culprit");
    setenv("CULPRIT_STORE", "/from/environment", 1);
    CHECK_STR(culprit_store_directory(NULL), "/from/environment");
    CHECK_STR(culprit_store_directory("explicit"), "explicit");
    if (saved)
        setenv("CULPRIT_STORE", saved, 1);
    else
        unsetenv("CULPRIT_STORE");
    free(saved);
}

int main(void)
{
    test_sha256_vectors();
    test_program_hash();
    test_program_hash_documented();
    test_round_trip();
    test_program_reuse_and_current();
    test_test_replaced();
    test_save_tests_batch();
    test_save_imported();
    test_missing_store();
    test_not_sqlite();
    test_foreign_sqlite();
    test_newer_schema();
    test_empty_and_version_zero();
    test_corrupt();
    test_blob_layout();
    test_bad_rows();
    test_reader_during_write();
    test_writer_waits();
    test_killed_writer();
    test_directory();
    return check_report("store");
}
