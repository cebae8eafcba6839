/*
 * test_count_plan.c - counting plans (src/program/count_plan.c), the store's
 * program_plans (src/store/program_plans.c) and the collector that skips
 * the maps a plan describes (culprit_collect_directory_known).
 *
 * Rows are checked against a reference written here from §6 of
 * docs/collector.md over the parsed units themselves (not through a plan),
 * for random programs of several units; decoding is checked on every
 * truncation and every single-byte change of an encoded plan (under ASan
 * too), and the store is checked to give the same rows from a stored plan
 * as from the maps, and to rebuild a plan that is damaged.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/sha256.h"
#include "culprit/collect.h"
#include "culprit/store.h"
#include "dump_bytes.h"
#include "store_fixture.h"

/* ---- random units ---- */

static uint32_t next_random(uint64_t *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(*state >> 33);
}

typedef struct text {
    char *data;
    size_t size, capacity;
} text;

static void append(text *out, const char *format, ...) __attribute__((format(printf, 2, 3)));

static void append(text *out, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    int length = vsnprintf(NULL, 0, format, args);
    va_end(args);
    if (out->size + (size_t)length + 1 > out->capacity) {
        out->capacity = (out->size + (size_t)length + 1) * 2;
        out->data = realloc(out->data, out->capacity);
    }
    va_start(args, format);
    vsnprintf(out->data + out->size, out->capacity - out->size, format, args);
    va_end(args);
    out->size += (size_t)length;
}

/* A unit of `blocks` blocks in one function: blocks on lines of its own
 * file (two to a line, some alone) and of a header shared by every unit;
 * an uncounted edge between consecutive blocks; and, on extra counters,
 * counted edges with their branches and returns. */
static char *random_map(int number, uint64_t *state, char hash[65])
{
    uint32_t blocks = 2 + next_random(state) % 9, extra = next_random(state) % 5;
    uint32_t header_line[16], own_line[16];
    bool in_header[16];
    text body = {0};
    append(&body, "file\t0\t/src/u%d.c\nfile\t1\t/src/shared.h\nfunction\t0\tf%d\t0\t1\n", number, number);
    for (uint32_t b = 0; b < blocks; b++) {
        in_header[b] = next_random(state) % 4 == 0;
        header_line[b] = 10 + next_random(state) % 3;
        own_line[b] = 1 + b / 2;
        uint32_t line = in_header[b] ? header_line[b] : own_line[b];
        append(&body, "block\t%u\t0\t%d\t%u\t1\t%u\t5\n", b, in_header[b] ? 1 : 0, line, line);
    }
    for (int file = 0; file < 2; file++)
        for (uint32_t line = 1; line < 16; line++) {
            bool any = false;
            for (uint32_t b = 0; b < blocks; b++)
                if (in_header[b] == (file == 1) && (file ? header_line[b] : own_line[b]) == line) {
                    append(&body, any ? ",%u" : "line\t%d\t%u\t%u", any ? b : (uint32_t)file, line, b);
                    any = true;
                }
            if (any)
                append(&body, "\n");
        }
    for (uint32_t b = 1; b < blocks; b++)
        append(&body, "edge\t-\t%u\t%u\n", b - 1, b);
    for (uint32_t c = 0; c < extra; c++) {
        uint32_t from = next_random(state) % blocks, to = next_random(state) % blocks;
        append(&body, "edge\t%u\t%u\t%u\n", blocks + c, from, to);
        append(&body, "branch\t%u\t0\t%u\t3\t%s\t0\n", blocks + c, own_line[from], c % 2 ? "true" : "false");
    }
    uint32_t returns = next_random(state) % 3;
    for (uint32_t r = 0; r < returns; r++)
        append(&body, "return\t%u\t%u\t0\t%u\t3\tzero\tg%u\n", blocks + extra + r, r % blocks,
               own_line[r % blocks], r);
    append(&body, "end\n");
    culprit_sha256 sha;
    unsigned char digest[CULPRIT_SHA256_DIGEST_SIZE];
    culprit_sha256_init(&sha);
    culprit_sha256_update(&sha, body.data, body.size);
    culprit_sha256_final(&sha, digest);
    culprit_sha256_hex(digest, hash);
    text map = {0};
    append(&map, "culprit-map\t1\nunit\t%s\tfull\t%u\t%u\n%s", hash, blocks + extra + returns, blocks,
           body.data);
    free(body.data);
    return map.data;
}

/* units random units, parsed into set. */
static void random_units(culprit_unit_set *set, int units, uint64_t *state)
{
    culprit_unit_set_init(set);
    for (int u = 0; u < units; u++) {
        char hash[65];
        char *map = random_map(u, state, hash);
        culprit_error err;
        if (culprit_map_parse(map, strlen(map), "random.map", set, &err) != CULPRIT_OK)
            fprintf(stderr, "random_map: %s\n%s", err.message, map);
        free(map);
    }
    culprit_unit_set_sort(set);
}

/* A random program of `units` units, assembled. */
typedef struct random_program {
    culprit_unit_set set;
    culprit_spectra spectra;
    culprit_program_layout layout;
    bool built;
} random_program;

static void free_program(random_program *program)
{
    if (program->built)
        culprit_program_layout_free(&program->layout);
    culprit_spectra_free(&program->spectra);
    culprit_unit_set_free(&program->set);
}

/* False (the failure counted, nothing left to free) when it does not build. */
static bool make_program(random_program *program, int units, uint64_t *state)
{
    culprit_error err;
    *program = (random_program){0};
    random_units(&program->set, units, state);
    culprit_spectra_init(&program->spectra);
    program->built =
        culprit_program_build(&program->set, &program->spectra, &program->layout, &err) == CULPRIT_OK;
    CHECK_RECORD(program->built, "build: %s", err.message);
    if (!program->built)
        free_program(program);
    return program->built;
}

/* Random counts for a random subset of the units (sorted by hash). */
typedef struct random_counts {
    size_t count;
    culprit_unit_counts units[8];
    uint32_t counters[8][32];
    uint64_t counts[8][32];
} random_counts;

static void make_counts(random_counts *out, const culprit_unit_set *set, uint64_t *state)
{
    memset(out, 0, sizeof *out);
    for (size_t u = 0; u < set->count && u < 8; u++) {
        if (next_random(state) % 3 == 0)
            continue;
        const culprit_unit *unit = set->units[u];
        culprit_unit_counts *counts = &out->units[out->count];
        snprintf(counts->hash, sizeof counts->hash, "%s", unit->hash);
        counts->counter_count = unit->counter_count;
        counts->counters = out->counters[out->count];
        counts->counts = out->counts[out->count];
        for (uint32_t c = 0; c < unit->counter_count && c < 32; c++)
            if (next_random(state) % 2) {
                counts->counters[counts->length] = c;
                counts->counts[counts->length++] = 1 + next_random(state) % 4;
            }
        out->count++;
    }
}

/* ---- the reference, over the units themselves ---- */

static uint64_t counter_value(const culprit_unit_counts *counts, uint32_t counter)
{
    for (size_t i = 0; counts && i < counts->length; i++)
        if (counts->counters[i] == counter)
            return counts->counts[i];
    return 0;
}

static const culprit_unit_counts *counts_of(const random_counts *counts, const char *hash)
{
    for (size_t i = 0; i < counts->count; i++)
        if (strcmp(counts->units[i].hash, hash) == 0)
            return &counts->units[i];
    return NULL;
}

/* Checks the row's count and hit of element, as §6 defines them. */
static void check_element(const culprit_test_row *row, uint32_t element, uint64_t expected, int *wrong)
{
    uint64_t actual = 0;
    for (size_t i = 0; i < row->counts.length; i++)
        if (row->counts.elements[i] == element)
            actual = row->counts.counts[i];
    bool hit = (row->hits[element / 64] >> (element % 64)) & 1;
    if (actual != expected || hit != (expected != 0))
        (*wrong)++;
}

/* Every element of the spectra checked against the units and counts. */
static int reference_mismatches(const culprit_spectra *spectra, const culprit_program_layout *layout,
                                const random_counts *counts, const culprit_test_row *row)
{
    int wrong = 0;
    for (size_t u = 0; u < layout->unit_count; u++) {
        const culprit_unit *unit = layout->units[u];
        const culprit_unit_counts *c = counts_of(counts, unit->hash);
        for (uint32_t b = 0; b < unit->block_count; b++)
            check_element(row, layout->block_base[u] + b, counter_value(c, b), &wrong);
        for (size_t e = 0; e < unit->edge_count; e++) {
            const culprit_map_edge *edge = &unit->edges[e];
            uint32_t counter = edge->counter == CULPRIT_NO_COUNTER ? edge->from : edge->counter;
            check_element(row, layout->edge_base[u] + (uint32_t)e, counter_value(c, counter), &wrong);
        }
        for (size_t i = 0; i < unit->branch_count; i++)
            check_element(row, layout->branch_base[u] + (uint32_t)i,
                          counter_value(c, unit->branches[i].counter), &wrong);
        for (size_t i = 0; i < unit->return_count; i++)
            check_element(row, layout->return_base[u] + (uint32_t)i,
                          counter_value(c, unit->returns[i].counter), &wrong);
    }
    /* A line element is hit when a block on that (path, line) ran in any unit. */
    for (uint32_t element = 0; element < spectra->element_count; element++) {
        const culprit_element *line = &spectra->elements[element];
        if (line->kind != CULPRIT_KIND_LINE)
            continue;
        bool expected = false;
        for (size_t u = 0; u < layout->unit_count; u++) {
            const culprit_unit *unit = layout->units[u];
            const culprit_unit_counts *c = counts_of(counts, unit->hash);
            for (size_t i = 0; i < unit->line_count; i++) {
                const culprit_map_line *record = &unit->lines[i];
                if (record->line != line->line ||
                    strcmp(unit->files[record->file], spectra->files[line->file]))
                    continue;
                for (uint32_t b = 0; b < record->block_count; b++)
                    expected |= counter_value(c, unit->line_blocks[record->first_block + b]) != 0;
            }
        }
        if (((row->hits[element / 64] >> (element % 64)) & 1) != expected)
            wrong++;
    }
    return wrong;
}

static bool same_plans(const culprit_count_plan *a, const culprit_count_plan *b)
{
    if (a->element_count != b->element_count || a->unit_count != b->unit_count)
        return false;
    for (size_t u = 0; u < a->unit_count; u++) {
        const culprit_plan_unit *x = &a->units[u], *y = &b->units[u];
        size_t words = (size_t)x->edge_count + x->branch_count + x->return_count + 2 * (size_t)x->line_count +
                       1 + x->line_starts[x->line_count];
        if (strcmp(x->hash, y->hash) || x->counter_count != y->counter_count ||
            x->block_count != y->block_count || x->block_base != y->block_base ||
            x->edge_base != y->edge_base || x->branch_base != y->branch_base ||
            x->return_base != y->return_base || x->edge_count != y->edge_count ||
            x->branch_count != y->branch_count || x->return_count != y->return_count ||
            x->line_count != y->line_count || memcmp(x->words, y->words, words * sizeof *x->words))
            return false;
    }
    return true;
}

/* ---- plans ---- */

static void test_rows_match_reference(void)
{
    uint64_t state = 42;
    int programs = 0, rows = 0, mismatches = 0, roundtrips = 0;
    for (int round = 0; round < 40; round++) {
        culprit_unit_set set;
        random_units(&set, 1 + round % 5, &state);
        culprit_spectra spectra;
        culprit_program_layout layout;
        culprit_error err;
        culprit_spectra_init(&spectra);
        if (culprit_program_build(&set, &spectra, &layout, &err) != CULPRIT_OK) {
            CHECK_RECORD(false, "build: %s", err.message);
            culprit_unit_set_free(&set);
            continue;
        }
        programs++;
        CHECK_INT(layout.plan.element_count, spectra.element_count);
        unsigned char *encoded = NULL;
        size_t size = 0;
        culprit_count_plan decoded;
        CHECK_INT(culprit_count_plan_encode(&layout.plan, &encoded, &size, &err), CULPRIT_OK);
        if (culprit_count_plan_decode(encoded, size, "plan", &decoded, &err) == CULPRIT_OK) {
            roundtrips += same_plans(&layout.plan, &decoded);
            for (int t = 0; t < 5; t++) {
                random_counts counts;
                make_counts(&counts, &set, &state);
                culprit_test_row row;
                if (culprit_count_plan_row(&decoded, counts.count, counts.units, &row, &err) != CULPRIT_OK) {
                    CHECK_RECORD(false, "row: %s", err.message);
                    continue;
                }
                rows++;
                mismatches += reference_mismatches(&spectra, &layout, &counts, &row);
                for (size_t i = 1; i < row.counts.length; i++) /* ascending, as the store needs */
                    mismatches += row.counts.elements[i] <= row.counts.elements[i - 1];
                culprit_test_row_free(&row);
            }
            culprit_count_plan_free(&decoded);
        } else {
            CHECK_RECORD(false, "decode: %s", err.message);
        }
        free(encoded);
        culprit_program_layout_free(&layout);
        culprit_spectra_free(&spectra);
        culprit_unit_set_free(&set);
    }
    CHECK_INT(programs, 40);
    CHECK_INT(roundtrips, 40);
    CHECK_INT(rows, 200);
    CHECK_INT(mismatches, 0);
}

static void test_row_errors(void)
{
    uint64_t state = 7;
    random_program program;
    if (!make_program(&program, 2, &state))
        return;
    culprit_error err;
    uint32_t counter = 0;
    uint64_t count = 1;
    culprit_unit_counts counts = {.counter_count = program.set.units[0]->counter_count,
                                  .length = 1,
                                  .counters = &counter,
                                  .counts = &count};
    culprit_test_row row;
    memset(counts.hash, 'f', 64); /* no such unit */
    CHECK_INT(culprit_count_plan_row(&program.layout.plan, 1, &counts, &row, &err), CULPRIT_ERROR_INTERNAL);
    CHECK_CONTAINS(err.message, "is not in the program");
    snprintf(counts.hash, sizeof counts.hash, "%s", program.set.units[0]->hash);
    counts.counter_count++;
    CHECK_INT(culprit_count_plan_row(&program.layout.plan, 1, &counts, &row, &err), CULPRIT_ERROR_INTERNAL);
    CHECK_CONTAINS(err.message, "counters, its map says");
    counts.counter_count--;
    counter = counts.counter_count;
    CHECK_INT(culprit_count_plan_row(&program.layout.plan, 1, &counts, &row, &err), CULPRIT_ERROR_INTERNAL);
    CHECK_CONTAINS(err.message, "out of range");
    culprit_unit_counts twice[2] = {counts, counts};
    counter = 0;
    CHECK_INT(culprit_count_plan_row(&program.layout.plan, 2, twice, &row, &err), CULPRIT_ERROR_INTERNAL);
    CHECK_CONTAINS(err.message, "given twice");
    free_program(&program);
}

/* Every truncation fails; every single-byte change either fails or gives a
 * plan whose rows stay in range (ASan and the checks below would tell). */
static void test_damaged_plans(void)
{
    uint64_t state = 99;
    random_program program;
    if (!make_program(&program, 3, &state))
        return;
    culprit_error err;
    unsigned char *encoded = NULL;
    size_t size = 0;
    CHECK_INT(culprit_count_plan_encode(&program.layout.plan, &encoded, &size, &err), CULPRIT_OK);
    int truncations_failed = 0, accepted = 0, out_of_range = 0;
    culprit_count_plan plan;
    for (size_t length = 0; length < size; length++)
        truncations_failed +=
            culprit_count_plan_decode(encoded, length, "p", &plan, &err) == CULPRIT_ERROR_INPUT;
    CHECK_INT(truncations_failed, size);
    CHECK_INT(culprit_count_plan_decode(encoded, 3, "store: the plan of program 1", &plan, &err),
              CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, "store: the plan of program 1: at byte 0: expected a counting plan (CULPPLN1)");
    unsigned char *changed = malloc(size);
    for (size_t at = 0; at < size; at++)
        for (int bit = 0; bit < 8; bit += 3) {
            memcpy(changed, encoded, size);
            changed[at] ^= (unsigned char)(1u << bit);
            if (culprit_count_plan_decode(changed, size, "p", &plan, &err) != CULPRIT_OK)
                continue;
            accepted++;
            for (size_t u = 0; u < plan.unit_count; u++) {
                const culprit_plan_unit *unit = &plan.units[u];
                out_of_range += unit->block_base + unit->block_count > plan.element_count;
                for (uint32_t i = 0; i < unit->line_count; i++)
                    out_of_range += unit->line_elements[i] >= plan.element_count;
            }
            culprit_count_plan_free(&plan);
        }
    CHECK(accepted > 0);        /* some changes (a count, an element) still decode, */
    CHECK_INT(out_of_range, 0); /* but never to indexes out of range */
    unsigned char *longer = malloc(size + 1);
    memcpy(longer, encoded, size);
    longer[size] = 0;
    CHECK_INT(culprit_count_plan_decode(longer, size + 1, "p", &plan, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "bytes after the last unit");
    free(longer);
    free(changed);
    free(encoded);
    free_program(&program);
}

/* ---- the store's plans ---- */

static culprit_status save_random(culprit_store *store, const culprit_unit_set *set, const char *name,
                                  const random_counts *counts)
{
    culprit_collected collected = {
        .unit_count = counts->count, .units = (culprit_unit_counts *)counts->units, .dump_count = 1};
    culprit_collected_test test = {.name = name,
                                   .verdict = CULPRIT_VERDICT_PASS,
                                   .duration_seconds = 0.1,
                                   .maps = set,
                                   .collected = &collected};
    culprit_saved_test saved;
    culprit_error err;
    culprit_status status = culprit_store_save_collected(store, &test, &saved, &err);
    if (status != CULPRIT_OK)
        fprintf(stderr, "save_random: %s\n", err.message);
    return status;
}

/* The store's rows of every test, as hex text, in name order. */
static char *stored_rows(const char *directory)
{
    char path[256], *result = NULL;
    snprintf(path, sizeof path, "%s/culprit.db", directory);
    sqlite3 *database;
    sqlite3_stmt *statement;
    if (sqlite3_open(path, &database) != SQLITE_OK ||
        sqlite3_prepare_v2(database,
                           "SELECT group_concat(name || hex(hits) || hex(counts), ';') FROM"
                           " (SELECT name, hits, counts FROM tests ORDER BY name)",
                           -1, &statement, NULL) != SQLITE_OK)
        return NULL;
    if (sqlite3_step(statement) == SQLITE_ROW && sqlite3_column_text(statement, 0))
        result = strdup((const char *)sqlite3_column_text(statement, 0));
    sqlite3_finalize(statement);
    sqlite3_close(database);
    return result;
}

static int64_t plan_rows(const char *directory)
{
    char path[256];
    snprintf(path, sizeof path, "%s/culprit.db", directory);
    sqlite3 *database;
    sqlite3_stmt *statement;
    int64_t count = -1;
    if (sqlite3_open(path, &database) == SQLITE_OK &&
        sqlite3_prepare_v2(database, "SELECT count(*) FROM program_plans", -1, &statement, NULL) ==
            SQLITE_OK) {
        if (sqlite3_step(statement) == SQLITE_ROW)
            count = sqlite3_column_int64(statement, 0);
        sqlite3_finalize(statement);
    }
    sqlite3_close(database);
    return count;
}

/* The same tests saved through one connection (plans kept in memory), one
 * connection per test (plans read from the store, as `culprit test` does),
 * and one connection per test with every stored plan damaged first (plans
 * rebuilt from the maps) give the same rows. */
static void test_store_plans(void)
{
    uint64_t state = 1234;
    culprit_unit_set set;
    random_units(&set, 4, &state);
    random_counts counts[6];
    for (int t = 0; t < 6; t++)
        make_counts(&counts[t], &set, &state);
    char directories[3][64];
    for (int way = 0; way < 3; way++) {
        make_scratch_directory(directories[way]);
        culprit_store *store = NULL;
        culprit_error err;
        for (int t = 0; t < 6; t++) {
            if (!store &&
                culprit_store_open(directories[way], CULPRIT_STORE_CREATE, &store, &err) != CULPRIT_OK)
                break;
            if (way == 2) {
                char path[256];
                snprintf(path, sizeof path, "%s/culprit.db", directories[way]);
                raw_sql(path, "UPDATE program_plans SET plan = x'00'");
            }
            char name[16];
            snprintf(name, sizeof name, "t%d", t);
            CHECK_INT(save_random(store, &set, name, &counts[t]), CULPRIT_OK);
            if (way > 0) {
                culprit_store_close(store);
                store = NULL;
            }
        }
        if (store)
            culprit_store_close(store);
        CHECK_INT(plan_rows(directories[way]), 1);
    }
    char *rows[3];
    for (int way = 0; way < 3; way++)
        rows[way] = stored_rows(directories[way]);
    CHECK(rows[0] && rows[1] && rows[2]);
    if (rows[0] && rows[1] && rows[2]) {
        CHECK_STR(rows[1], rows[0]);
        CHECK_STR(rows[2], rows[0]);
    }
    /* The current plan is the program's, and names its units. */
    culprit_store *store = NULL;
    culprit_error err;
    const culprit_count_plan *plan = NULL;
    if (culprit_store_open(directories[1], CULPRIT_STORE_WRITE, &store, &err) == CULPRIT_OK) {
        CHECK_INT(culprit_store_current_plan(store, &plan, &err), CULPRIT_OK);
        CHECK(plan != NULL);
        for (size_t u = 0; plan && u < set.count; u++)
            CHECK(culprit_count_plan_find(plan, set.units[u]->hash) != NULL ||
                  !counts_of(&counts[0], set.units[u]->hash));
        culprit_store_close(store);
    }
    for (int way = 0; way < 3; way++) {
        free(rows[way]);
        remove_tree(directories[way]);
    }
    culprit_unit_set_free(&set);
}

/* A store with no current program has no plan. */
static void test_no_plan(void)
{
    char directory[64];
    make_scratch_directory(directory);
    culprit_store *store = NULL;
    culprit_error err;
    const culprit_count_plan *plan = (const culprit_count_plan *)1;
    CHECK_INT(culprit_store_open(directory, CULPRIT_STORE_CREATE, &store, &err), CULPRIT_OK);
    CHECK_INT(culprit_store_current_plan(store, &plan, &err), CULPRIT_OK);
    CHECK(plan == NULL);
    culprit_store_close(store);
    remove_tree(directory);
}

/* ---- the collector with a known plan ---- */

/* write_file (store_fixture.h) of directory/name. */
static void write_into(const char *directory, const char *name, const void *data, size_t size)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", directory, name);
    write_file(path, data, size);
}

/* A map file that is not a map, under the name of a unit the plan knows:
 * skipped with the plan, an error without it, and read (an error) when a
 * crashed process's stack names the unit. */
static void test_collect_known(void)
{
    uint64_t state = 5;
    random_program program;
    if (!make_program(&program, 2, &state))
        return;
    culprit_error err;
    const culprit_unit *unit = program.set.units[0];
    char directory[64], map_name[80];
    make_scratch_directory(directory);
    snprintf(map_name, sizeof map_name, "%s.map", unit->hash);
    write_into(directory, map_name, "not a map\n", 10);
    counter_entry entries[] = {{0, 3}, {1, 2}};
    dump_bytes dump = {0};
    put_header(&dump, 1, 100, 0, 0, 0, 0, NULL);
    put_unit(&dump, unit->hash, unit->counter_count, 2, entries);
    put_u32(&dump, 0);
    write_into(directory, "100.dump", dump.data, dump.size);

    culprit_unit_set maps;
    culprit_collected collected;
    culprit_unit_set_init(&maps);
    CHECK_INT(
        culprit_collect_directory_known(directory, NULL, 100, &program.layout.plan, &maps, &collected, &err),
        CULPRIT_OK);
    CHECK_INT(maps.count, 0); /* nothing parsed */
    CHECK_INT(collected.unit_count, 1);
    if (collected.unit_count == 1) {
        CHECK_STR(collected.units[0].hash, unit->hash);
        CHECK_INT(collected.units[0].counter_count, unit->counter_count);
        CHECK_INT(collected.units[0].length, 2);
        CHECK_INT(collected.units[0].counts[0], 3);
    }
    culprit_collected_free(&collected);
    CHECK_INT(culprit_collect_directory(directory, 100, &maps, &collected, &err), CULPRIT_ERROR_INPUT);

    static const uint32_t stack[] = {0, 1};
    dump.size = 0;
    put_header(&dump, 1, 100, 1, 11, 1, 1, stack);
    put_unit(&dump, unit->hash, unit->counter_count, 2, entries);
    put_u32(&dump, 0);
    write_into(directory, "100.dump", dump.data, dump.size);
    CHECK_INT(
        culprit_collect_directory_known(directory, NULL, 100, &program.layout.plan, &maps, &collected, &err),
        CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, map_name);

    /* A counter count that is not the plan's is the dump's error. */
    dump.size = 0;
    put_header(&dump, 1, 100, 0, 0, 0, 0, NULL);
    put_unit(&dump, unit->hash, unit->counter_count + 1, 2, entries);
    put_u32(&dump, 0);
    write_into(directory, "100.dump", dump.data, dump.size);
    CHECK_INT(
        culprit_collect_directory_known(directory, NULL, 100, &program.layout.plan, &maps, &collected, &err),
        CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "counters, its map says");
    culprit_unit_set_free(&maps);
    remove_tree(directory);
    free_program(&program);
}

int main(void)
{
    test_rows_match_reference();
    test_row_errors();
    test_damaged_plans();
    test_store_plans();
    test_no_plan();
    test_collect_known();
    return check_report("test_count_plan");
}
