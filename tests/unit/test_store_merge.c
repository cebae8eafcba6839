/*
 * test_store_merge.c - culprit_store_merge (src/store/merge.c, docs/store.md
 * "Merging"): the sample program's tests split over three stores and
 * merged come back whole, in order, as the program's current tests; a
 * store without a program adds nothing; a destination that already has
 * some of the tests takes the rest; and every refusal - another program,
 * a test from two stores, a damaged hit row, a store that is not one -
 * says which stores and leaves the destination as it was.
 */
#include "check.h"
#include "store_fixture.h"

static char scratch[64];

/* scratch/NAME, the same buffer for the same name for the whole run. */
static const char *place(const char *name)
{
    enum { PLACES = 16 };
    static char paths[PLACES][128];
    static size_t count;
    char path[128];
    snprintf(path, sizeof path, "%s/%s", scratch, name);
    for (size_t i = 0; i < count; i++)
        if (strcmp(paths[i], path) == 0)
            return paths[i];
    if (count == PLACES)
        abort();
    memcpy(paths[count], path, sizeof path);
    return paths[count++];
}

/* A store in directory holding tests first .. first+count-1 of spectra
 * (of program variant), or no program at all when count is 0. */
static void make_shard(const char *directory, const culprit_spectra *spectra, size_t first, size_t count)
{
    culprit_error err;
    culprit_store *store = NULL;
    CHECK_INT(culprit_store_open(directory, CULPRIT_STORE_CREATE, &store, &err), CULPRIT_OK);
    int64_t program = 0;
    if (store && count)
        CHECK_INT(culprit_store_save_program(store, spectra, "sample", &program, &err), CULPRIT_OK);
    for (size_t t = first; store && t < first + count; t++)
        CHECK_INT(culprit_store_save_test(store, program, spectra, t, &err), CULPRIT_OK);
    culprit_store_close(store);
}

/* Merges sources into destination (created if missing). */
static culprit_status merge(const char *destination, const char *const *sources, size_t count,
                            culprit_merge_summary *summary, culprit_error *err)
{
    culprit_store *store = NULL;
    culprit_status status = culprit_store_open(destination, CULPRIT_STORE_CREATE, &store, err);
    if (status == CULPRIT_OK)
        status = culprit_store_merge(store, sources, count, summary, err);
    culprit_store_close(store);
    return status;
}

/* The current program of directory, loaded; its hash in hash. */
static void load_current(const char *directory, culprit_spectra *spectra, char hash[65])
{
    culprit_error err;
    culprit_store *store = NULL;
    int64_t program = 0;
    hash[0] = '\0';
    CHECK_INT(culprit_store_open(directory, CULPRIT_STORE_READ, &store, &err), CULPRIT_OK);
    if (store)
        CHECK_INT(culprit_store_current_program(store, &program, &err), CULPRIT_OK);
    if (program) {
        CHECK_INT(culprit_store_load(store, program, spectra, &err), CULPRIT_OK);
        CHECK_INT(culprit_store_program_hash(store, program, hash, &err), CULPRIT_OK);
    }
    culprit_store_close(store);
}

static size_t test_count(const char *directory)
{
    culprit_spectra loaded;
    culprit_spectra_init(&loaded);
    char hash[65];
    load_current(directory, &loaded, hash);
    size_t count = loaded.test_count;
    culprit_spectra_free(&loaded);
    return count;
}

static int program_count(const char *directory)
{
    return query_integer(directory, "SELECT count(*) FROM programs");
}

static void test_merge_whole(const culprit_spectra *sample, const char *sample_hash)
{
    culprit_error err = {0};
    culprit_merge_summary summary;
    const char *sources[] = {place("a"), place("empty"), place("b"), place("c")};
    CHECK_INT(merge(place("merged"), sources, 4, &summary, &err), CULPRIT_OK);
    CHECK_INT(summary.stores, 3);
    CHECK_INT(summary.tests, sample->test_count);
    CHECK_STR(summary.hash, sample_hash);
    culprit_spectra merged;
    culprit_spectra_init(&merged);
    char hash[65];
    load_current(place("merged"), &merged, hash);
    CHECK_STR(hash, sample_hash);
    check_same_spectra(&merged, sample);
    culprit_spectra_free(&merged);
    /* the rows hanging off a test come along (here: its runs on mutants) */
    CHECK_INT(query_integer(place("merged"),
                            "SELECT count(*) FROM mutant_runs m JOIN tests t ON t.id = m.test_id"
                            " WHERE t.name = 't-fail' AND m.mutant = 7 AND m.verdict = 'pass'"),
              1);

    /* A destination that has a's tests takes b's and c's. */
    const char *first[] = {place("a")}, *rest[] = {place("c"), place("b")};
    CHECK_INT(merge(place("step"), first, 1, &summary, &err), CULPRIT_OK);
    CHECK_INT(merge(place("step"), rest, 2, &summary, &err), CULPRIT_OK);
    CHECK_INT(summary.tests, 3);
    CHECK_INT(test_count(place("step")), sample->test_count);

    /* No program anywhere: nothing merged, no error. */
    const char *none[] = {place("empty")};
    CHECK_INT(merge(place("nothing"), none, 1, &summary, &err), CULPRIT_OK);
    CHECK_INT(summary.stores, 0);
    CHECK_STR(summary.hash, "");
}

/* Merging sources into merged fails with message (a part of it) and
 * leaves merged's tests as they were. */
static void check_refused(const char *const *sources, size_t count, culprit_status expected,
                          const char *message)
{
    culprit_error err = {0};
    culprit_merge_summary summary;
    size_t before = test_count(place("merged"));
    CHECK_INT(merge(place("merged"), sources, count, &summary, &err), expected);
    CHECK_CONTAINS(err.message, message);
    CHECK_INT(test_count(place("merged")), before);
}

static void test_refusals(const char *sample_hash)
{
    char message[512];
    /* another program: both hashes named */
    culprit_spectra other;
    culprit_spectra_init(&other);
    build_program(&other, 1);
    add_sample_tests(&other);
    make_shard(place("other"), &other, 0, 1);
    char other_hash[65];
    culprit_spectra loaded;
    culprit_spectra_init(&loaded);
    load_current(place("other"), &loaded, other_hash);
    culprit_spectra_free(&loaded);
    culprit_spectra_free(&other);
    /* other's program is copied first, then rolled back with the rest */
    snprintf(message, sizeof message,
             "cannot merge different programs: %s/culprit.db has program %s, %s/culprit.db has program %s",
             place("other"), other_hash, place("b"), sample_hash);
    const char *mixed[] = {place("other"), place("b")};
    check_refused(mixed, 2, CULPRIT_ERROR_INPUT, message);
    CHECK_INT(program_count(place("merged")), 1);

    /* a test twice: from a source given twice, and one the destination has */
    snprintf(message, sizeof message, "test 't-pass' is in both %s/culprit.db and %s/culprit.db", place("a"),
             place("a"));
    const char *twice[] = {place("a"), place("a")};
    const char *fresh = place("fresh");
    culprit_error err = {0};
    culprit_merge_summary summary;
    CHECK_INT(merge(fresh, twice, 2, &summary, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, message);
    CHECK_INT(test_count(fresh), 0);
    snprintf(message, sizeof message, "test 't-error' is in both %s/culprit.db and %s/culprit.db",
             place("merged"), place("b"));
    const char *again[] = {place("b")};
    check_refused(again, 1, CULPRIT_ERROR_INPUT, message);

    /* a damaged hit row, found before it is copied */
    char path[128];
    database_path(place("c"), path);
    raw_sql(path, "UPDATE tests SET hits = x'00' WHERE name = 't-skip'");
    snprintf(message, sizeof message,
             "%s/culprit.db: store is corrupt: test 't-skip' has 1 bytes of hits, expected 16", place("c"));
    const char *damaged[] = {place("c")};
    CHECK_INT(merge(fresh, damaged, 1, &summary, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, message);

    /* not a store: the store's own message, and nothing of a merged */
    mkdir(place("junk"), 0777);
    database_path(place("junk"), path);
    write_file(path, "not a database at all, not even close", 37);
    const char *junk[] = {place("a"), place("junk")};
    CHECK_INT(merge(fresh, junk, 2, &summary, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "not a culprit store (not an SQLite database)");
    CHECK_INT(test_count(fresh), 0);
    const char *missing[] = {place("nowhere")};
    CHECK_INT(merge(fresh, missing, 1, &summary, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "no culprit store at");
}

int main(void)
{
    make_scratch_directory(scratch);
    culprit_spectra sample;
    culprit_spectra_init(&sample);
    build_program(&sample, 0);
    add_sample_tests(&sample); /* five tests */
    make_shard(place("a"), &sample, 0, 2);
    char path[128];
    database_path(place("a"), path);
    raw_sql(
        path,
        "INSERT INTO mutant_runs SELECT id, 'unit', 7, 'pass', 1, 0, 0.5 FROM tests WHERE name = 't-fail'");
    make_shard(place("b"), &sample, 2, 2);
    make_shard(place("c"), &sample, 4, 1);
    make_shard(place("empty"), &sample, 0, 0);
    char hash[65];
    culprit_spectra loaded;
    culprit_spectra_init(&loaded);
    load_current(place("a"), &loaded, hash);
    culprit_spectra_free(&loaded);
    test_merge_whole(&sample, hash);
    test_refusals(hash);
    culprit_spectra_free(&sample);
    remove_tree(scratch);
    return check_report("store_merge");
}
