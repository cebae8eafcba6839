/*
 * test_store.c - unit tests of the SQLite store's round trips (src/store/),
 * the program content hash (src/core/program_hash.c) and SHA-256
 * (src/core/sha256.c); test_store_damage.c has the stores culprit must
 * refuse, damaged databases and concurrency.
 *
 * Every test works in its own mkdtemp directory under /tmp and removes it.
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
#include "store_fixture.h"

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

/* culprit_store_load_tallies (culprit rank --stream): the same tallies and
 * totals as loading the whole matrix and tallying it, whatever the batch
 * (one test, a batch that does not divide the tests, all of them) and the
 * policy; the spectra keeps the elements and no test; bad calls refused. */
static void test_load_tallies(void)
{
    char directory[64];
    make_scratch_directory(directory);
    culprit_spectra saved;
    culprit_spectra_init(&saved);
    int64_t program = make_sample_store(directory, &saved);
    culprit_error err;
    culprit_store *store = NULL;
    CHECK_INT(culprit_store_open(directory, CULPRIT_STORE_READ, &store, &err), CULPRIT_OK);
    culprit_verdict_policy policies[2] = {culprit_verdict_policy_default(), culprit_verdict_policy_default()};
    policies[1].error_as = CULPRIT_OUTCOME_EXCLUDED;
    policies[1].timeout_as = CULPRIT_OUTCOME_PASSING;
    size_t batches[] = {1, 2, 3, 1000};
    culprit_tally *expected = malloc((saved.element_count + 1) * sizeof *expected);
    for (size_t p = 0; store && expected && p < 2; p++) {
        culprit_totals expected_totals;
        CHECK_INT(culprit_spectra_tally(&saved, &policies[p], expected, &expected_totals, &err), CULPRIT_OK);
        for (size_t b = 0; b < sizeof batches / sizeof *batches; b++) {
            culprit_spectra streamed;
            culprit_spectra_init(&streamed);
            culprit_tally *tallies = NULL;
            culprit_totals totals = {99, 99};
            CHECK_INT(culprit_store_load_tallies(store, program, &policies[p], batches[b], &streamed,
                                                 &tallies, &totals, &err),
                      CULPRIT_OK);
            check_same_elements(&streamed, &saved);
            CHECK_INT(streamed.test_count, 0);
            CHECK_INT(totals.failing, expected_totals.failing);
            CHECK_INT(totals.passing, expected_totals.passing);
            for (size_t e = 0; tallies && e < saved.element_count; e++)
                CHECK(memcmp(&tallies[e], &expected[e], sizeof *tallies) == 0);
            free(tallies);
            culprit_spectra_free(&streamed);
        }
    }
    culprit_spectra refused;
    culprit_spectra_init(&refused);
    culprit_tally *tallies = NULL;
    culprit_totals totals;
    if (store) {
        CHECK_INT(
            culprit_store_load_tallies(store, program, &policies[0], 0, &refused, &tallies, &totals, &err),
            CULPRIT_ERROR_INTERNAL); /* no batch */
        CHECK_INT(culprit_store_load_tallies(store, program + 100, &policies[0], 8, &refused, &tallies,
                                             &totals, &err),
                  CULPRIT_ERROR_INPUT);
        CHECK_CONTAINS(err.message, "no program");
        CHECK(tallies == NULL);
        culprit_store_close(store);
    }
    culprit_spectra_free(&refused);
    free(expected);
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

/* ---- the log kept between `culprit test`s (culprit_store_keep_log) ---- */

static long file_size(const char *path)
{
    struct stat info;
    return stat(path, &info) == 0 ? (long)info.st_size : -1;
}

/* Saves test "t-fail" again under another verdict, then `extra` more tests. */
static void save_more(culprit_store *store, int64_t program, int extra)
{
    culprit_spectra more;
    culprit_spectra_init(&more);
    build_program(&more, 0);
    culprit_error err;
    size_t test;
    CHECK_INT(culprit_spectra_add_test(&more, "t-fail", CULPRIT_VERDICT_PASS, &test, &err), CULPRIT_OK);
    CHECK_INT(culprit_store_save_test(store, program, &more, test, &err), CULPRIT_OK);
    for (int i = 0; i < extra; i++) {
        char name[32];
        snprintf(name, sizeof name, "extra-%d", i);
        CHECK_INT(culprit_spectra_add_test(&more, name, CULPRIT_VERDICT_FAIL, &test, &err), CULPRIT_OK);
        culprit_spectra_set_hit(&more, test, (uint32_t)i % 10);
        CHECK_INT(culprit_store_save_test(store, program, &more, test, &err), CULPRIT_OK);
    }
    culprit_spectra_free(&more);
}

/* The passing tests, counted behind culprit's back (reading the log). */
static int count_passing(const char *directory)
{
    return query_integer(directory, "SELECT count(*) FROM tests WHERE verdict = 'pass'");
}

/* A connection that keeps the log leaves it, with its commits, for the
 * next one (which reads them); one that does not folds it in and deletes
 * it; past 256 pages (1 MiB) the keeper folds it in too, and empties it. */
static void test_kept_log(void)
{
    char directory[64], path[128], log[160];
    make_scratch_directory(directory);
    database_path(directory, path);
    snprintf(log, sizeof log, "%s-wal", path);
    culprit_spectra saved;
    culprit_spectra_init(&saved);
    int64_t program = make_sample_store(directory, &saved);
    CHECK(!file_exists(log)); /* a plain writer folded its log in on closing */
    int passing = count_passing(directory);

    culprit_error err;
    culprit_store *store = NULL;
    CHECK_INT(culprit_store_open(directory, CULPRIT_STORE_WRITE, &store, &err), CULPRIT_OK);
    if (store) {
        culprit_store_keep_log(store);
        save_more(store, program, 0);
        culprit_store_close(store);
    }
    CHECK(file_size(log) > 0);
    CHECK_INT(count_passing(directory), passing + 1); /* t-fail now passes: read from the log */

    /* the next culprit_store_open reads it too, and a plain writer folds it in */
    CHECK_INT(culprit_store_open(directory, CULPRIT_STORE_WRITE, &store, &err), CULPRIT_OK);
    culprit_store_close(store);
    CHECK(!file_exists(log));
    CHECK_INT(count_passing(directory), passing + 1);

    /* a long log is folded in by the keeper, and emptied */
    CHECK_INT(culprit_store_open(directory, CULPRIT_STORE_WRITE, &store, &err), CULPRIT_OK);
    if (store) {
        culprit_store_keep_log(store);
        save_more(store, program, 600);
        culprit_store_close(store);
    }
    CHECK_INT(file_size(log), 0);
    CHECK_INT(count_passing(directory), passing + 1);

    /* a reader in the middle of a read transaction: the keeper does not
     * wait for it (a busy wait would be 10 s), and leaves the log long */
    sqlite3 *reader = NULL;
    CHECK_INT(sqlite3_open_v2(path, &reader, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    CHECK_INT(sqlite3_exec(reader, "BEGIN; SELECT count(*) FROM tests;", NULL, NULL, NULL), SQLITE_OK);
    CHECK_INT(culprit_store_open(directory, CULPRIT_STORE_WRITE, &store, &err), CULPRIT_OK);
    if (store) {
        culprit_store_keep_log(store);
        save_more(store, program, 600);
        struct timespec before, after;
        clock_gettime(CLOCK_MONOTONIC, &before);
        culprit_store_close(store);
        clock_gettime(CLOCK_MONOTONIC, &after);
        CHECK((after.tv_sec - before.tv_sec) + (after.tv_nsec - before.tv_nsec) / 1e9 < 2.0);
    }
    CHECK(file_size(log) > 0);
    sqlite3_close(reader);
    CHECK_INT(count_passing(directory), passing + 1);
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

int main(void)
{
    test_sha256_vectors();
    test_program_hash();
    test_program_hash_documented();
    test_round_trip();
    test_load_tallies();
    test_program_reuse_and_current();
    test_test_replaced();
    test_save_tests_batch();
    test_save_imported();
    test_kept_log();
    return check_report("store");
}
