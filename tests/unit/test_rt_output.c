/*
 * test_rt_output.c - the runtime (src/rt/) seen from the outside, what it
 * records while a process runs: many units, threads, output records,
 * embedded maps, deep shadow stacks.  The same way as test_rt.c
 * (rt_scenarios.h, rt_dumps.h): scenarios in children, dumps read back
 * with the tests' own reader.
 */
#include "check.h"
#include "rt_dumps.h"

/* The units of the many_units dump with exactly one count, and its first
 * stack frame (the dump is walked directly: parse_dump keeps four units). */
static uint32_t units_with_one_count(const unsigned char *data, size_t size, uint32_t *unit_count,
                                     struct frame *first)
{
    struct reader reader = {data, size, 12, size >= 40};
    *unit_count = read_u32(&reader);
    reader.at = 36;
    uint32_t depth = read_u32(&reader);
    if (depth > 0)
        read_frames(&reader, first, 1, 1);
    reader.at = 40 + 8 * (size_t)depth;
    uint32_t flagged = 0;
    for (uint32_t i = 0; i < *unit_count && reader.ok && size - reader.at >= 64; i++) {
        reader.at += 64; /* hash */
        uint32_t counter_count = read_u32(&reader), nonzero = read_u32(&reader);
        flagged += counter_count == 1 && nonzero == 1;
        reader.at += 12 * (size_t)nonzero;
    }
    return reader.ok ? flagged : 0;
}

static void test_many_units(void)
{
    struct sandbox box;
    CHECK(sandbox_create(&box));
    int status = run_in(&box, "many_units", 1);
    CHECK_RECORD(WIFEXITED(status) && WEXITSTATUS(status) == 0, "wait status %#x", status);
    DIR *stream = opendir(box.collect);
    struct dirent *entry;
    int dumps = 0;
    while (stream && (entry = readdir(stream))) {
        if (entry->d_name[0] == '.' || !strstr(entry->d_name, ".dump"))
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", box.collect, entry->d_name);
        size_t size = 0;
        unsigned char *data = (unsigned char *)read_file(path, &size);
        uint32_t unit_count = 0;
        struct frame first = {0, 99};
        uint32_t counted = data ? units_with_one_count(data, size, &unit_count, &first) : 0;
        CHECK_INT(unit_count, 2 + MANY_UNITS); /* unit_a and unit_b, then the many */
        CHECK_INT(counted, MANY_UNITS);
        CHECK_INT(first.unit, 2 + MANY_UNITS - 1);
        CHECK_INT(first.counter, 0);
        free(data);
        dumps++;
    }
    if (stream)
        closedir(stream);
    CHECK_INT(dumps, 1);
    sandbox_destroy(&box);
}

static void test_threads(void)
{
    struct sandbox box;
    CHECK(sandbox_create(&box));
    int status = run_in(&box, "threads", 1);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    struct dump dump;
    size_t size = 0;
    char *out = read_io(&box, "stdout", &size);
    if (single_dump(&box, &dump) && out) {
        const uint64_t a[A_COUNTERS] = {1000, 2000, 3000, 4000, 0, 0, 0, 0};
        const uint8_t b[B_COUNTERS] = {0};
        check_counts(&dump, a, b);
        /* Four records that tile stdout, each from its thread's block. */
        CHECK_INT(dump.output_count, 4);
        uint64_t covered = 0;
        for (uint32_t i = 0; i < dump.output_count; i++) {
            const struct dump_output *record = &dump.outputs[i];
            CHECK(record->offset + record->length <= size && record->depth == 1);
            if (record->offset + record->length > size || record->depth != 1)
                continue;
            char expected[32];
            snprintf(expected, sizeof expected, "thread %u\n", record->frames[0].counter);
            CHECK_INT(record->length, strlen(expected));
            CHECK(memcmp(out + record->offset, expected, strlen(expected)) == 0);
            covered += record->length;
        }
        CHECK_INT(covered, size);
    }
    free(out);
    sandbox_destroy(&box);
}

/* What scenario_output writes: {stream, text, frame blocks} in call order. */
struct expected_output {
    uint32_t stream;
    const char *text;
    uint32_t depth;
    uint32_t blocks[2];
};

static const struct expected_output expected_outputs[] = {
    {1, "hello 42\n", 1, {0}}, {1, "puts line\n", 1, {1}}, {1, "abc", 2, {2, 1}}, {1, "raw\n", 1, {3}},
    {2, "err one\n", 1, {4}},  {2, "two\n", 1, {4}},       {1, "x", 1, {5}},      {1, "y", 1, {5}},
    {1, "z", 1, {5}},          {1, "fputs\n", 1, {5}},     {1, "v1\n", 1, {5}},   {1, "tail\n", 1, {0}},
};

enum { EXPECTED_OUTPUTS = sizeof expected_outputs / sizeof expected_outputs[0] };

static void check_output_record(const struct dump_output *record, const struct expected_output *expected,
                                const char *out, size_t out_size, const char *err, size_t err_size)
{
    const char *text = record->stream == 1 ? out : err;
    size_t size = record->stream == 1 ? out_size : err_size;
    CHECK_INT(record->stream, expected->stream);
    CHECK_INT(record->length, strlen(expected->text));
    CHECK_RECORD(text && record->offset + record->length <= size &&
                     memcmp(text + record->offset, expected->text, strlen(expected->text)) == 0,
                 "record at %llu does not hold \"%s\"", (unsigned long long)record->offset, expected->text);
    check_stack(record->frames, record->depth, expected->blocks, expected->depth);
}

static void test_output(void)
{
    struct sandbox box;
    CHECK(sandbox_create(&box));
    int status = run_in(&box, "output", 1);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 5);
    size_t out_size = 0, err_size = 0;
    char *out = read_io(&box, "stdout", &out_size), *err = read_io(&box, "stderr", &err_size);
    CHECK_STR(out, "hello 42\nputs line\nabcraw\nxyzfputs\nv1\ntail\n");
    CHECK_STR(err, "err one\ntwo\n");
    struct dump dump;
    if (single_dump(&box, &dump)) {
        CHECK_INT(dump.output_count, EXPECTED_OUTPUTS);
        for (uint32_t i = 0; i < dump.output_count && i < EXPECTED_OUTPUTS; i++)
            check_output_record(&dump.outputs[i], &expected_outputs[i], out, out_size, err, err_size);
    }
    free(out);
    free(err);
    sandbox_destroy(&box);
}

static void check_file_content(const char *dir, const char *name, const char *expected)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    size_t size;
    char *content = read_file(path, &size);
    CHECK_STR(content, expected);
    free(content);
}

/* Maps are written once, with the unit's map text, and never replaced. */
static void test_maps(void)
{
    struct sandbox box;
    CHECK(sandbox_create(&box));
    char path[256];
    snprintf(path, sizeof path, "%s/%s.map", box.collect, HASH_B);
    FILE *old = fopen(path, "w");
    CHECK(old != NULL);
    if (old) {
        fputs("an older copy\n", old);
        fclose(old);
    }
    int status = run_in(&box, "exit", 1);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 7);
    check_file_content(box.collect, HASH_A ".map", map_a);
    check_file_content(box.collect, HASH_B ".map", "an older copy\n");
    CHECK_INT(count_files(box.collect, ".map"), 2);
    CHECK_INT(count_files(box.collect, ".tmp"), 0);
    sandbox_destroy(&box);
}

static void test_deep_stack(void)
{
    struct sandbox box;
    CHECK(sandbox_create(&box));
    int status = run_in(&box, "deep", 1);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    struct dump dump;
    if (single_dump(&box, &dump)) {
        uint32_t blocks[64], count = 0;
        for (uint32_t i = 0; i < 64; i++)
            if (i != 5 && i != 9)
                blocks[count++] = i % A_BLOCKS;
        check_stack(dump.stack, dump.stack_depth, blocks, count);
    }
    sandbox_destroy(&box);
}

int main(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[1], "scenario") == 0)
        return run_scenario(argv[2], argc >= 4 ? argv[3] : NULL);
    test_many_units();
    test_threads();
    test_output();
    test_maps();
    test_deep_stack();
    return check_report("rt_output");
}
