/*
 * test_php_files.c - the maps and dumps the PHP extension writes
 * (src/php/php_files.c) read back by culprit's own readers: a dump with a
 * crash stack, zero and nonzero counters and output records, a second dump of the same pid
 * that finds its name taken, and a map written once.
 *
 * The extension is not in libculprit, and this part needs no PHP headers,
 * so its source is compiled into the test.
 */
#include "php/php_files.c"

#include <sys/stat.h>

#include "check.h"
#include "culprit/collect.h"

static char directory[] = "/tmp/culprit-php-files-XXXXXX";

static const char hash[] = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

static void test_dump_round_trip(void)
{
    uint64_t counts[5] = {3, 0, 1, 0, 7};
    php_dump_unit unit = {.hash = hash, .counter_count = 5, .counts = counts};
    php_dump dump = {.pid = 4242,
                     .parent_pid = 1,
                     .sequence = 0,
                     .end = CULPRIT_DUMP_END_EXIT,
                     .status = 255,
                     .crashed = 1,
                     .stack_depth = 2,
                     .unit_count = 1,
                     .units = &unit};
    dump.stack[0] = (php_dump_frame){0, 4};
    dump.stack[1] = (php_dump_frame){0, 2};
    php_dump_output outputs[2] = {
        {.stream = 1, .offset = 0, .length = 6, .source = {.depth = 2, .frames = {{0, 3}, {0, 1}}}},
        {.stream = 1, .offset = 6, .length = 4, .source = {.depth = 0}}};
    dump.output_count = 2;
    dump.outputs = outputs;
    culprit_error err = {0};
    CHECK_INT(php_files_write_dump(directory, &dump, &err), CULPRIT_OK);
    CHECK_INT(php_files_write_dump(directory, &dump, &err), CULPRIT_OK); /* 4242.0 taken: 4242.1 */
    char path[256];
    snprintf(path, sizeof path, "%s/4242.1.dump", directory);
    culprit_dump read = {0};
    CHECK_INT(culprit_dump_read_file(path, &read, &err), CULPRIT_OK);
    CHECK_INT(read.pid, 4242);
    CHECK_INT(read.status, 255);
    CHECK(read.crashed);
    CHECK_INT(read.stack_depth, 2);
    CHECK_INT(read.stack[0].block, 4);
    CHECK_INT(read.unit_count, 1);
    if (read.unit_count == 1) {
        CHECK_STR(read.units[0].hash, hash);
        CHECK_INT(read.units[0].counter_count, 5);
        CHECK_INT(read.units[0].length, 3);
        CHECK_INT(read.units[0].counters[2], 4);
        CHECK_INT(read.units[0].counts[2], 7);
    }
    CHECK_INT(read.output_count, 2);
    if (read.output_count == 2) {
        CHECK_INT(read.outputs[0].stream, 1);
        CHECK_INT(read.outputs[0].length, 6);
        CHECK_INT(read.outputs[0].depth, 2);
        CHECK_INT(read.outputs[0].frames[0].block, 3);
        CHECK_INT(read.outputs[0].frames[1].block, 1);
        CHECK_INT(read.outputs[1].offset, 6);
        CHECK_INT(read.outputs[1].depth, 0);
    }
    culprit_dump_free(&read);
    snprintf(path, sizeof path, "%s/4242.0.dump", directory);
    struct stat info;
    CHECK_INT(stat(path, &info), 0);
    snprintf(path, sizeof path, "%s/.4242.0.tmp", directory);
    CHECK(stat(path, &info) != 0); /* no temporary left behind */
}

static void test_map_written_once(void)
{
    culprit_error err = {0};
    CHECK_INT(php_files_write_map(directory, hash, "first", 5, &err), CULPRIT_OK);
    CHECK_INT(php_files_write_map(directory, hash, "second", 6, &err), CULPRIT_OK);
    char path[256];
    snprintf(path, sizeof path, "%s/%s.map", directory, hash);
    FILE *file = fopen(path, "r");
    char text[16] = {0};
    CHECK(file && fread(text, 1, sizeof text - 1, file) == 5);
    if (file)
        fclose(file);
    CHECK_STR(text, "first");
    CHECK(php_files_write_map("/nonexistent/culprit", hash, "x", 1, &err) != CULPRIT_OK);
    CHECK(strstr(err.message, "/nonexistent/culprit") != NULL);
}

/* A PHPUnit test's directory and its text files (php_tests.c). */
static void test_test_directories(void)
{
    culprit_error err = {0};
    uint32_t number = 0;
    char first[512], second[512], taken[512];
    snprintf(taken, sizeof taken, "%s/phpunit.000001", directory);
    CHECK(mkdir(taken, 0700) == 0); /* another process took number 1 */
    CHECK_INT(php_files_make_test_directory(directory, &number, first, sizeof first, &err), CULPRIT_OK);
    CHECK_INT(php_files_make_test_directory(directory, &number, second, sizeof second, &err), CULPRIT_OK);
    CHECK(strstr(first, "/phpunit.000000") != NULL);
    CHECK(strstr(second, "/phpunit.000002") != NULL);
    CHECK_INT(number, 3);
    CHECK_INT(php_files_write_text(first, "result", "fail\nfirst", 10, &err), CULPRIT_OK);
    CHECK_INT(php_files_write_text(first, "result", "pass\n", 5, &err), CULPRIT_OK); /* replaced */
    char path[600], text[16] = {0};
    snprintf(path, sizeof path, "%s/result", first);
    FILE *file = fopen(path, "r");
    CHECK(file && fread(text, 1, sizeof text - 1, file) == 5);
    if (file)
        fclose(file);
    CHECK_STR(text, "pass\n");
    CHECK(php_files_make_test_directory("/nonexistent/culprit", &number, first, sizeof first, &err) !=
          CULPRIT_OK);
    CHECK(strstr(err.message, "/nonexistent/culprit/phpunit.") != NULL);
}

/* A live server's test directory (php_live.c): one per name, the same
 * for every request of the test, with its name beside the dumps. */
static void test_live_directories(void)
{
    culprit_error err = {0};
    char first[512], again[512], other[512];
    const char name[] = "checkout total";
    CHECK_INT(php_files_make_live_directory(directory, name, sizeof name - 1, first, sizeof first, &err),
              CULPRIT_OK);
    CHECK_INT(php_files_make_live_directory(directory, name, sizeof name - 1, again, sizeof again, &err),
              CULPRIT_OK);
    CHECK_STR(first, again);
    CHECK_INT(php_files_make_live_directory(directory, "empty basket", 12, other, sizeof other, &err),
              CULPRIT_OK);
    CHECK(strcmp(first, other) != 0);
    const char *base = strrchr(first, '/');
    CHECK(base && strncmp(base + 1, PHP_LIVE_DIRECTORY_PREFIX, 5) == 0 && strlen(base + 1) == 5 + 16);
    char path[600], text[32] = {0};
    snprintf(path, sizeof path, "%s/name", first);
    FILE *file = fopen(path, "r");
    CHECK(file && fread(text, 1, sizeof text - 1, file) == sizeof name - 1);
    if (file)
        fclose(file);
    CHECK_STR(text, name);
    CHECK(php_files_make_live_directory("/nonexistent/culprit", name, 3, first, sizeof first, &err) !=
          CULPRIT_OK);
}

int main(void)
{
    if (!mkdtemp(directory)) {
        perror("mkdtemp");
        return 1;
    }
    test_dump_round_trip();
    test_map_written_once();
    test_test_directories();
    test_live_directories();
    char command[128];
    snprintf(command, sizeof command, "rm -rf %s", directory);
    if (system(command) != 0)
        fprintf(stderr, "cannot remove %s\n", directory);
    return check_report("test_php_files");
}
