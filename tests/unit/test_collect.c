/*
 * test_collect.c - unit tests of the C collector (src/collect/) and of the
 * store's collector tables (src/store/collected.c): map and dump parsing
 * with their exact error messages, a collection directory, program
 * assembly, program evolution, and migrating a version-1 store.
 *
 * Maps are written by hand here (with their real SHA-256), dumps built byte
 * by byte from §5 of docs/collector.md, so these tests pin the contract
 * rather than whatever culprit-cc and the runtime happen to write.
 */
#include <dirent.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "core/sha256.h"
#include "culprit/collect.h"
#include "culprit/store.h"
#include "dump_bytes.h"

/* ---- hand-written maps ---- */

/* Unit A: a.c with a conditional, one block in the shared header common.h. */
static const char body_a[] = "file\t0\t/src/a.c\n"
                             "file\t1\t/src/common.h\n"
                             "function\t0\tmain\t0\t3\n"
                             "block\t0\t0\t0\t3\t1\t4\t10\n"
                             "block\t1\t0\t0\t5\t5\t5\t20\n"
                             "block\t2\t0\t1\t7\t1\t7\t9\n"
                             "line\t0\t3\t0\n"
                             "line\t0\t4\t0\n"
                             "line\t0\t5\t1\n"
                             "line\t1\t7\t2\n"
                             "edge\t3\t0\t1\n"
                             "edge\t4\t0\t2\n"
                             "edge\t-\t1\t2\n"
                             "branch\t3\t0\t4\t7\ttrue\t0\n"
                             "branch\t4\t0\t4\t7\tfalse\t0\n"
                             "return\t5\t2\t1\t7\t3\tzero\tf\n"
                             "return\t6\t2\t1\t7\t3\tnonzero\tf\n"
                             "end\n";

/* Unit B: b.c, sharing line 7 of common.h with A. */
static const char body_b[] = "file\t0\t/src/b.c\n"
                             "file\t1\t/src/common.h\n"
                             "function\t0\thelper\t0\t2\n"
                             "block\t0\t0\t0\t2\t1\t2\t5\n"
                             "block\t1\t0\t1\t7\t1\t7\t9\n"
                             "line\t0\t2\t0\n"
                             "line\t1\t7\t1\n"
                             "edge\t-\t0\t1\n"
                             "end\n";

/* Unit A rebuilt: the same files, block 1 moved a line down. */
static const char body_a2[] = "file\t0\t/src/a.c\n"
                              "file\t1\t/src/common.h\n"
                              "function\t0\tmain\t0\t3\n"
                              "block\t0\t0\t0\t3\t1\t4\t10\n"
                              "block\t1\t0\t0\t6\t5\t6\t20\n"
                              "block\t2\t0\t1\t7\t1\t7\t9\n"
                              "line\t0\t3\t0\n"
                              "line\t0\t4\t0\n"
                              "line\t0\t6\t1\n"
                              "line\t1\t7\t2\n"
                              "edge\t3\t0\t1\n"
                              "edge\t4\t0\t2\n"
                              "edge\t-\t1\t2\n"
                              "branch\t3\t0\t4\t7\ttrue\t0\n"
                              "branch\t4\t0\t4\t7\tfalse\t0\n"
                              "return\t5\t2\t1\t7\t3\tzero\tf\n"
                              "return\t6\t2\t1\t7\t3\tnonzero\tf\n"
                              "end\n";

static void hash_text(const char *text, char hex[65])
{
    culprit_sha256 context;
    unsigned char digest[CULPRIT_SHA256_DIGEST_SIZE];
    culprit_sha256_init(&context);
    culprit_sha256_update(&context, text, strlen(text));
    culprit_sha256_final(&context, digest);
    culprit_sha256_hex(digest, hex);
}

/* A content hash for `source` records. */
#define HASH_OF_SEVENS "7777777777777777777777777777777777777777777777777777777777777777"

/* body (which starts with its `file` records) with a `source` record per
 * file: digits[f] repeated 64 times is file f's content hash. */
static void with_sources(const char *body, const char *digits, char *out, size_t size)
{
    size_t files = 0;
    const char *rest = body;
    while (strncmp(rest, "file\t", 5) == 0) {
        rest = strchr(rest, '\n') + 1;
        files++;
    }
    size_t used = (size_t)snprintf(out, size, "%.*s", (int)(rest - body), body);
    for (size_t f = 0; f < files && used < size; f++) {
        used += (size_t)snprintf(out + used, size - used, "source\t%zu\t", f);
        for (int i = 0; i < 64 && used + 1 < size; i++)
            out[used++] = digits[f];
        used += (size_t)snprintf(out + used, size - used, "\n");
    }
    snprintf(out + used, size - used, "%s", rest);
}

/* A whole map for body: header and unit line with body's real hash. */
static char *make_map(const char *body, unsigned counters, unsigned blocks, char hash[65])
{
    hash_text(body, hash);
    size_t size = strlen(body) + 200;
    char *map = malloc(size);
    snprintf(map, size, "culprit-map\t1\nunit\t%s\tfull\t%u\t%u\n%s", hash, counters, blocks, body);
    return map;
}

/* Parses text and returns the error message ("" when it parsed). */
static const char *parse_message(const char *text, culprit_error *err)
{
    culprit_unit_set set;
    culprit_unit_set_init(&set);
    err->message[0] = '\0';
    culprit_map_parse(text, strlen(text), "m.map", &set, err);
    culprit_unit_set_free(&set);
    return err->message;
}

static void test_map_valid(void)
{
    char hash[65];
    char *map = make_map(body_a, 7, 3, hash);
    culprit_unit_set set;
    culprit_unit_set_init(&set);
    culprit_error err;
    CHECK_INT(culprit_map_parse(map, strlen(map), "a.map", &set, &err), CULPRIT_OK);
    CHECK_INT(set.count, 1);
    if (set.count == 1) {
        const culprit_unit *unit = set.units[0];
        CHECK_STR(unit->hash, hash);
        CHECK_INT(unit->mode, CULPRIT_UNIT_FULL);
        CHECK_INT(unit->counter_count, 7);
        CHECK_INT(unit->block_count, 3);
        CHECK_INT(unit->file_count, 2);
        CHECK_STR(unit->files[1], "/src/common.h");
        CHECK_STR(unit->functions[0].name, "main");
        CHECK_INT(unit->blocks[1].first_line, 5);
        CHECK_INT(unit->blocks[1].last_column, 20);
        CHECK_INT(unit->line_count, 4);
        CHECK_INT(unit->edge_count, 3);
        CHECK_INT(unit->edges[2].counter, CULPRIT_NO_COUNTER);
        CHECK_INT(unit->branch_count, 2);
        CHECK_STR(unit->branches[1].outcome, "false");
        CHECK_INT(unit->return_count, 2);
        CHECK_STR(unit->returns[1].value_class, "nonzero");
        CHECK_STR(unit->returns[1].callee, "f");
        CHECK_INT(unit->text_size, strlen(map));
    }
    /* A file after the last `source` record has an empty content hash. */
    char later_hash[65];
    char *later = make_map("file\t0\t/src/x.c\nsource\t0\t" HASH_OF_SEVENS "\nfile\t1\t/src/y.h\n"
                           "function\t0\tf\t0\t1\nblock\t0\t0\t1\t1\t1\t1\t2\nline\t1\t1\t0\nend\n",
                           1, 1, later_hash);
    culprit_unit_set later_set;
    culprit_unit_set_init(&later_set);
    CHECK_INT(culprit_map_parse(later, strlen(later), "later.map", &later_set, &err), CULPRIT_OK);
    if (later_set.count == 1) {
        CHECK(later_set.units[0]->file_sources != NULL);
        CHECK_STR(later_set.units[0]->file_sources[0], HASH_OF_SEVENS);
        CHECK_STR(later_set.units[0]->file_sources[1], "");
    }
    culprit_unit_set_free(&later_set);
    free(later);
    /* Two units with NUL padding between them, as in the culprit_map section;
     * a unit seen twice is kept once. */
    char hash_b[65];
    char *map_b = make_map(body_b, 2, 2, hash_b);
    size_t size_a = strlen(map), size_b = strlen(map_b);
    char *section = calloc(size_a + size_b + 8, 1);
    memcpy(section, map, size_a);
    memcpy(section + size_a + 3, map_b, size_b);
    CHECK_INT(culprit_map_parse(section, size_a + size_b + 8, "section", &set, &err), CULPRIT_OK);
    CHECK_INT(set.count, 2);
    CHECK(culprit_unit_set_find(&set, hash_b) != NULL);
    free(section);
    free(map_b);
    culprit_unit_set_free(&set);
    free(map);
}

/* A map whose unit line and records are given, with a hash that matches
 * them (so only the intended fault is reported). */
static char *map_with(const char *unit_fields, const char *body)
{
    char hash[65];
    hash_text(body, hash);
    size_t size = strlen(body) + 200;
    char *map = malloc(size);
    snprintf(map, size, "culprit-map\t1\nunit\t%s\t%s\n%s", hash, unit_fields, body);
    return map;
}

static void check_malformed(const char *unit_fields, const char *body, const char *expected)
{
    culprit_error err;
    char *map = map_with(unit_fields, body);
    CHECK_STR(parse_message(map, &err), expected);
    free(map);
}

static void test_map_malformed(void)
{
    culprit_error err;
    CHECK_STR(parse_message("culprit-map\t2\n", &err), "m.map:1:13: expected map version 1");
    CHECK_STR(parse_message("hello\n", &err),
              "m.map:1:1: expected 'culprit-map<TAB>1' (the first line of a program map)");
    CHECK_STR(parse_message("culprit-map\t1\nunit\tabc\tfull\t1\t1\n", &err),
              "m.map:2:6: expected a hash of 64 lowercase hex digits");
    check_malformed("fast\t1\t1", "end\n", "m.map:2:71: expected a mode: full or lines");
    check_malformed("full\t1\t1", "blah\t1\nend\n",
                    "m.map:3:1: expected a record: source, file, function, block, line, edge, branch, "
                    "return, mutant, spec or end");
    check_malformed("full\t1\t1", "file\t0\t/a.c\nsource\t0\tabc\nend\n",
                    "m.map:4:10: expected a content hash of 64 lowercase hex digits");
    check_malformed("full\t1\t1", "file\t0\t/a.c\nsource\t1\t" HASH_OF_SEVENS "\nend\n",
                    "m.map:4:8: expected a file number below 1");
    check_malformed("full\t1\t1", "source\t0\nend\n",
                    "m.map:3:9: expected a tab and the file's content hash");
    check_malformed("full\t1\t1", "file\t1\t/a.c\nend\n",
                    "m.map:3:6: expected file number 0 (numbered from 0 in order)");
    check_malformed("full\t1\t1", "file\t0\t/a.c\nfunction\t0\tf\t0\t1\nblock\t0\t0\t0\t1\t1\nend\n",
                    "m.map:5:16: expected a tab and a last line");
    check_malformed("full\t1\t1", "file\t0\t/a.c\nfunction\t0\tf\t1\t1\nend\n",
                    "m.map:4:14: expected a file number below 1");
    check_malformed("full\t2\t1",
                    "file\t0\t/a.c\nfunction\t0\tf\t0\t1\nblock\t0\t0\t0\t1\t1\t1\t2\n"
                    "edge\t5\t0\t0\nend\n",
                    "m.map:6:6: expected a counter below 2");
    /* An edge may count with its to-block's counter (its only way in), not another block's. */
    check_malformed("full\t3\t2",
                    "file\t0\t/a.c\nfunction\t0\tf\t0\t1\nblock\t0\t0\t0\t1\t1\t1\t2\n"
                    "block\t1\t0\t0\t1\t1\t1\t2\nedge\t0\t0\t1\nend\n",
                    "m.map:7:6: expected an edge counter from 2, or the to-block's counter 1");
    check_malformed("full\t2\t1",
                    "file\t0\t/a.c\nfunction\t0\tf\t0\t1\nblock\t0\t0\t0\t1\t1\t1\t2\n"
                    "line\t0\t1\t0,x\nend\n",
                    "m.map:6:12: expected a block counter below 1");
    check_malformed("full\t2\t1",
                    "file\t0\t/a.c\nfunction\t0\tf\t0\t1\nblock\t0\t0\t0\t1\t1\t1\t2\n"
                    "branch\t1\t0\t1\t1\tmaybe\t0\nend\n",
                    "m.map:6:16: expected an outcome: true, false, 'case VALUE' or default");
    /* Outcomes: C's `case N`, a PHP match arm's integers and quoted strings
     * joined by '|' (php_match.c); anything else is refused. */
    static const char *const outcomes[] = {"case 7",         "case -3", "case 's'",
                                           "case 's'|'m'|4", "case ''", "case 'a b\\x27'"};
    for (size_t i = 0; i < sizeof outcomes / sizeof *outcomes; i++) {
        char body[256];
        snprintf(body, sizeof body,
                 "file\t0\t/a.c\nfunction\t0\tf\t0\t1\nblock\t0\t0\t0\t1\t1\t1\t2\n"
                 "edge\t1\t0\t0\nbranch\t1\t0\t1\t1\t%s\t0\nend\n",
                 outcomes[i]);
        check_malformed("full\t2\t1", body, "");
    }
    static const char *const bad_outcomes[] = {"case ",     "case x",  "case 1x",   "case 's",
                                               "case 's'|", "case |1", "case 's'1", "case 1||2"};
    for (size_t i = 0; i < sizeof bad_outcomes / sizeof *bad_outcomes; i++) {
        char body[256];
        snprintf(body, sizeof body,
                 "file\t0\t/a.c\nfunction\t0\tf\t0\t1\nblock\t0\t0\t0\t1\t1\t1\t2\n"
                 "edge\t1\t0\t0\nbranch\t1\t0\t1\t1\t%s\t0\nend\n",
                 bad_outcomes[i]);
        check_malformed("full\t2\t1", body,
                        "m.map:7:16: expected an outcome: true, false, 'case VALUE' or default");
    }
    check_malformed("full\t1\t1", "file\t0\t/a.c\tx\nend\n", "m.map:3:12: expected the end of the record");
    /* A count the records cannot hold: the collector would allocate 32 GB for it. */
    check_malformed("full\t4000000000\t1", "end\n",
                    "m.map:2:76: expected a counter count no larger than the bytes of the map that follow");
    check_malformed("full\t1\t1", "end\n", "m.map:3:1: expected 1 block records before 'end', found 0");
    check_malformed("full\t1\t0", "file\t0\t/a.c\n",
                    "m.map:4:1: expected more records or 'end' before the end");
    check_malformed("full\t1\t0", "end", "m.map:3:4: expected a newline at the end of the record");
    /* The hash must be the SHA-256 of the records. */
    char hash[65];
    char *map = make_map(body_b, 2, 2, hash);
    char *tampered = strdup(map);
    *strstr(tampered, "helper") = 'H';
    char actual[65], expected[200];
    hash_text(strstr(tampered, "file\t0"), actual);
    snprintf(expected, sizeof expected,
             "m.map:2:6: expected the unit's hash to be the SHA-256 of its records, %s", actual);
    CHECK_STR(parse_message(tampered, &err), expected);
    free(tampered);
    free(map);
}

/* ---- dumps, built byte by byte (dump_bytes.h) ---- */

/* One output record with one frame (unit 0, block). */
static void put_output(dump_bytes *out, uint32_t stream, uint64_t offset, uint64_t length, uint32_t block)
{
    put_u32(out, stream);
    put_u64(out, offset);
    put_u64(out, length);
    put_u32(out, 1);
    put_u32(out, 0);
    put_u32(out, block);
}

/* The dump of a process of unit A that crashed in block 2 after printing. */
static void crashed_dump(dump_bytes *out, const char *hash_a, int32_t pid)
{
    static const uint32_t stack[] = {0, 2, 0, 0};
    static const counter_entry entries[] = {{0, 1}, {2, 1}, {6, 5}};
    out->size = 0;
    put_header(out, 1, pid, 1, 11, 1, 2, stack);
    put_unit(out, hash_a, 7, 3, entries);
    put_u32(out, 1);
    put_output(out, 1, 0, 4, 2);
}

static void test_dump(void)
{
    char hash_a[65];
    free(make_map(body_a, 7, 3, hash_a));
    dump_bytes bytes_of_dump;
    crashed_dump(&bytes_of_dump, hash_a, 100);
    CHECK_INT(bytes_of_dump.size, 200);
    culprit_dump dump;
    culprit_error err;
    CHECK_INT(culprit_dump_parse(bytes_of_dump.data, bytes_of_dump.size, "d.dump", &dump, &err), CULPRIT_OK);
    CHECK_INT(dump.pid, 100);
    CHECK_INT(dump.end, CULPRIT_PROCESS_SIGNAL);
    CHECK_INT(dump.status, 11);
    CHECK(dump.crashed);
    CHECK_INT(dump.stack_depth, 2);
    CHECK_INT(dump.stack[0].block, 2);
    CHECK_INT(dump.unit_count, 1);
    CHECK_STR(dump.units[0].hash, hash_a);
    CHECK_INT(dump.units[0].length, 3);
    CHECK_INT(dump.units[0].counters[2], 6);
    CHECK_INT(dump.units[0].counts[2], 5);
    CHECK_INT(dump.output_count, 1);
    CHECK_INT(dump.outputs[0].length, 4);
    CHECK_INT(dump.outputs[0].frames[0].block, 2);
    culprit_dump_free(&dump);

    CHECK_INT(culprit_dump_parse(bytes_of_dump.data, 198, "d.dump", &dump, &err), CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, "d.dump: truncated at byte 198: expected a frame's block counter");
    CHECK_INT(culprit_dump_parse(bytes_of_dump.data, 100, "d.dump", &dump, &err), CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, "d.dump: truncated at byte 100: expected a unit");
    CHECK_INT(culprit_dump_parse(bytes_of_dump.data, 5, "d.dump", &dump, &err), CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, "d.dump: truncated at byte 5: expected the magic \"CULPDMP1\"");
    bytes_of_dump.data[0] = 'X';
    CHECK_INT(culprit_dump_parse(bytes_of_dump.data, bytes_of_dump.size, "d.dump", &dump, &err),
              CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, "d.dump: at byte 0: expected the magic \"CULPDMP1\" (this is not a culprit dump)");
    crashed_dump(&bytes_of_dump, hash_a, 100);
    bytes_of_dump.data[bytes_of_dump.size++] = 0;
    CHECK_INT(culprit_dump_parse(bytes_of_dump.data, bytes_of_dump.size, "d.dump", &dump, &err),
              CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message,
              "d.dump: at byte 200: expected the end of the dump or the symbolic trailer \"CULPSYM1\"");
    /* A symbolic run's trailer is kept as bytes (culprit/concolic.h reads it). */
    crashed_dump(&bytes_of_dump, hash_a, 100);
    put_raw(&bytes_of_dump, "CULPSYM1tail", 12);
    CHECK_INT(culprit_dump_parse(bytes_of_dump.data, bytes_of_dump.size, "d.dump", &dump, &err), CULPRIT_OK);
    CHECK_INT(dump.sym_size, 12);
    CHECK_INT(dump.sym_offset, 200);
    CHECK(dump.sym_trailer && memcmp(dump.sym_trailer, "CULPSYM1tail", 12) == 0);
    culprit_dump_free(&dump);
    crashed_dump(&bytes_of_dump, hash_a, 100);
    put_raw(&bytes_of_dump, "CULPSYM", 7);
    CHECK_INT(culprit_dump_parse(bytes_of_dump.data, bytes_of_dump.size, "d.dump", &dump, &err),
              CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "d.dump: at byte 200: expected the end of the dump or the symbolic");
    crashed_dump(&bytes_of_dump, hash_a, 100);
    bytes_of_dump.data[36] = 65; /* stack depth */
    CHECK_INT(culprit_dump_parse(bytes_of_dump.data, bytes_of_dump.size, "d.dump", &dump, &err),
              CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, "d.dump: at byte 36: expected the stack depth of at most 64, found 65");
}

/* ---- a collection directory ---- */

static void make_scratch(char directory[64], const char *prefix)
{
    snprintf(directory, 64, "/tmp/%s-XXXXXX", prefix);
    if (!mkdtemp(directory)) {
        perror("mkdtemp");
        exit(1);
    }
}

static void remove_tree(const char *path)
{
    DIR *directory = opendir(path);
    if (!directory) {
        unlink(path);
        return;
    }
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
}

static void write_file(const char *directory, const char *name, const void *data, size_t size)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", directory, name);
    FILE *file = fopen(path, "wb");
    if (!file || fwrite(data, 1, size, file) != size || fclose(file) != 0) {
        perror(path);
        exit(1);
    }
}

static void test_collect_directory(void)
{
    char directory[64], hash_a[65], hash_b[65], name[256];
    make_scratch(directory, "culprit-collect-test");
    char *map_a = make_map(body_a, 7, 3, hash_a), *map_b = make_map(body_b, 2, 2, hash_b);
    snprintf(name, sizeof name, "%s.map", hash_a);
    write_file(directory, name, map_a, strlen(map_a));
    snprintf(name, sizeof name, "%s.map", hash_b);
    write_file(directory, name, map_b, strlen(map_b));
    /* The child (pid 200) crashed; its parent-side process 150 exited after
     * running both units and writing to stdout at offset 10. */
    dump_bytes child, other;
    crashed_dump(&child, hash_a, 200);
    static const counter_entry a_entries[] = {{0, 2}, {6, 1}};
    static const counter_entry b_entries[] = {{0, 3}};
    other.size = 0;
    put_header(&other, 2, 150, 0, 0, 0, 0, NULL);
    put_unit(&other, hash_a, 7, 2, a_entries);
    put_unit(&other, hash_b, 2, 1, b_entries);
    put_u32(&other, 2);
    put_output(&other, 1, 10, 3, 1);
    put_output(&other, 2, 0, 5, 0);
    write_file(directory, "200.0.dump", child.data, child.size);
    write_file(directory, "150.0.dump", other.data, other.size);
    write_file(directory, ".300.0.tmp", "junk", 4); /* a dump in progress: ignored */

    culprit_unit_set maps;
    culprit_collected collected;
    culprit_error err;
    culprit_unit_set_init(&maps);
    CHECK_INT(culprit_collect_directory(directory, 200, &maps, &collected, &err), CULPRIT_OK);
    CHECK_INT(maps.count, 2);
    CHECK_INT(collected.dump_count, 2);
    CHECK_INT(collected.unit_count, 2);
    size_t a = strcmp(hash_a, hash_b) < 0 ? 0 : 1;
    if (collected.unit_count == 2) {
        const culprit_unit_counts *counts_a = &collected.units[a];
        CHECK_STR(counts_a->hash, hash_a);
        CHECK_INT(counts_a->length, 3); /* counters 0, 2, 6 */
        CHECK_INT(counts_a->counts[0], 3);
        CHECK_INT(counts_a->counts[1], 1);
        CHECK_INT(counts_a->counts[2], 6);
        CHECK_INT(collected.units[1 - a].counts[0], 3);
    }
    CHECK(collected.crashed);
    CHECK_INT(collected.crash_pid, 200);
    CHECK_INT(collected.crash_signal, 11);
    CHECK_INT(collected.crash_depth, 2);
    CHECK_INT(collected.crash_stack[0].unit, a);
    CHECK_INT(collected.crash_stack[0].block, 2);
    /* stdout first (pid 150 then 200), then stderr. */
    CHECK_INT(collected.output_count, 3);
    if (collected.output_count == 3) {
        CHECK_INT(collected.outputs[0].pid, 150);
        CHECK_INT(collected.outputs[0].offset, 10);
        CHECK_INT(collected.outputs[1].pid, 200);
        CHECK_INT(collected.outputs[2].stream, 2);
        CHECK_INT(collected.outputs[2].frames[0].unit, a);
    }
    culprit_collected_free(&collected);
    culprit_unit_set_free(&maps);

    /* A dump naming a unit without a map is reported. */
    snprintf(name, sizeof name, "%s/%s.map", directory, hash_b);
    unlink(name);
    culprit_unit_set_init(&maps);
    CHECK_INT(culprit_collect_directory(directory, 200, &maps, &collected, &err), CULPRIT_ERROR_INPUT);
    char expected[256];
    snprintf(expected, sizeof expected, "%s/150.0.dump: unit %s has no map in the directory", directory,
             hash_b);
    CHECK_STR(err.message, expected);
    culprit_unit_set_free(&maps);
    free(map_a);
    free(map_b);
    remove_tree(directory);
}

/* A crash inside a loop whose counters the optimiser kept in registers:
 * the dump has no count for the crashing block 2 nor for block 1, the
 * caller's block on the stack.  Both ran; block 0 keeps its own count. */
static void test_crash_stack_counts(void)
{
    char directory[64], hash_a[65], name[256];
    make_scratch(directory, "culprit-collect-stack");
    char *map_a = make_map(body_a, 7, 3, hash_a);
    snprintf(name, sizeof name, "%s.map", hash_a);
    write_file(directory, name, map_a, strlen(map_a));
    static const uint32_t stack[] = {0, 2, 0, 1};
    static const counter_entry entries[] = {{0, 4}};
    dump_bytes dump = {0};
    put_header(&dump, 1, 300, 1, 8, 1, 2, stack);
    put_unit(&dump, hash_a, 7, 1, entries);
    put_u32(&dump, 0);
    write_file(directory, "300.0.dump", dump.data, dump.size);

    culprit_unit_set maps;
    culprit_collected collected;
    culprit_error err;
    culprit_unit_set_init(&maps);
    CHECK_INT(culprit_collect_directory(directory, 300, &maps, &collected, &err), CULPRIT_OK);
    CHECK_INT(collected.unit_count, 1);
    if (collected.unit_count == 1) {
        const culprit_unit_counts *counts = &collected.units[0];
        CHECK_INT(counts->length, 3);
        if (counts->length == 3) {
            CHECK_INT(counts->counters[0], 0);
            CHECK_INT(counts->counts[0], 4);
            CHECK_INT(counts->counters[1], 1);
            CHECK_INT(counts->counts[1], 1);
            CHECK_INT(counts->counters[2], 2);
            CHECK_INT(counts->counts[2], 1);
        }
    }
    culprit_collected_free(&collected);
    culprit_unit_set_free(&maps);
    free(map_a);
    remove_tree(directory);
}

/* ---- assembly ---- */

static void parse_into(culprit_unit_set *set, const char *body, unsigned counters, unsigned blocks,
                       char hash[65])
{
    culprit_error err;
    char *map = make_map(body, counters, blocks, hash);
    if (culprit_map_parse(map, strlen(map), "test", set, &err) != CULPRIT_OK)
        fprintf(stderr, "%s\n", err.message);
    free(map);
}

static int64_t find_element(const culprit_spectra *spectra, const char *label)
{
    char buffer[512];
    for (size_t e = 0; e < spectra->element_count; e++) {
        culprit_spectra_element_label(spectra, (uint32_t)e, buffer, sizeof buffer);
        if (strcmp(buffer, label) == 0)
            return (int64_t)e;
    }
    return -1;
}

static uint64_t count_of(const culprit_spectra *spectra, size_t test, int64_t element)
{
    const culprit_counts *counts = &spectra->counts[test];
    for (size_t i = 0; i < counts->length; i++)
        if ((int64_t)counts->elements[i] == element)
            return counts->counts[i];
    return 0;
}

static bool hit(const culprit_spectra *spectra, size_t test, const char *label)
{
    int64_t element = find_element(spectra, label);
    return element >= 0 && culprit_spectra_hit(spectra, test, (uint32_t)element);
}

static void test_assembly(void)
{
    char hash_a[65], hash_b[65];
    culprit_unit_set units;
    culprit_unit_set_init(&units);
    parse_into(&units, body_b, 2, 2, hash_b);
    parse_into(&units, body_a, 7, 3, hash_a);
    culprit_spectra spectra;
    culprit_program_layout layout;
    culprit_error err;
    culprit_spectra_init(&spectra);
    CHECK_INT(culprit_program_build(&units, &spectra, &layout, &err), CULPRIT_OK);
    /* 5 distinct lines (common.h:7 once), 5 blocks, 4 edges, 2 branches, 2 returns. */
    CHECK_INT(spectra.element_count, 18);
    CHECK_INT(spectra.elements[0].kind, CULPRIT_KIND_LINE);
    char label[256];
    culprit_spectra_element_label(&spectra, 0, label, sizeof label);
    CHECK_STR(label, "/src/a.c:3");
    culprit_spectra_element_label(&spectra, 4, label, sizeof label);
    CHECK_STR(label, "/src/common.h:7");
    CHECK_INT(spectra.elements[5].kind, CULPRIT_KIND_BLOCK);
    int64_t block = find_element(&spectra, "main:b1");
    CHECK(block >= 0);
    if (block >= 0) {
        CHECK_STR(spectra.files[spectra.elements[block].file], "/src/a.c");
        CHECK_INT(spectra.elements[block].line, 5);
    }
    int64_t derived = find_element(&spectra, "main:b1->b2");
    CHECK(derived >= 0 && spectra.elements[derived].kind == CULPRIT_KIND_EDGE);
    CHECK(find_element(&spectra, "helper:b0->b1") >= 0);
    int64_t branch = find_element(&spectra, "/src/a.c:4:7:true");
    CHECK(branch >= 0 && spectra.elements[branch].kind == CULPRIT_KIND_BRANCH &&
          spectra.elements[branch].column == 7);
    int64_t value = find_element(&spectra, "/src/common.h:7:3:f()=nonzero");
    CHECK(value >= 0 && spectra.elements[value].kind == CULPRIT_KIND_RETURN);
    /* Blocks: the unit with the smaller hash first. */
    bool a_first = strcmp(hash_a, hash_b) < 0;
    CHECK_INT(find_element(&spectra, "main:b0"), a_first ? 5 : 7);

    /* Test 1 runs A (0 -> 1 -> 2, f() nonzero) and B's two blocks twice. */
    static uint32_t a_counters[] = {0, 1, 2, 3, 6};
    static uint64_t a_counts[] = {1, 1, 1, 1, 1};
    static uint32_t b_counters[] = {0, 1};
    static uint64_t b_counts[] = {2, 2};
    culprit_unit_counts counts[2] = {
        {.counter_count = 7, .length = 5, .counters = a_counters, .counts = a_counts},
        {.counter_count = 2, .length = 2, .counters = b_counters, .counts = b_counts}};
    memcpy(counts[0].hash, hash_a, 65);
    memcpy(counts[1].hash, hash_b, 65);
    size_t test;
    CHECK_INT(culprit_program_add_test(&layout, &spectra, "t1", CULPRIT_VERDICT_PASS, 2, counts, &test, &err),
              CULPRIT_OK);
    CHECK(hit(&spectra, test, "/src/a.c:3") && hit(&spectra, test, "/src/a.c:5"));
    CHECK(hit(&spectra, test, "/src/b.c:2") && hit(&spectra, test, "/src/common.h:7"));
    CHECK_INT(count_of(&spectra, test, find_element(&spectra, "helper:b1")), 2);
    CHECK_INT(count_of(&spectra, test, find_element(&spectra, "main:b0->b1")), 1);
    CHECK(!hit(&spectra, test, "main:b0->b2"));
    CHECK_INT(count_of(&spectra, test, derived), 1);                                 /* from b1 */
    CHECK_INT(count_of(&spectra, test, find_element(&spectra, "helper:b0->b1")), 2); /* from b0 */
    CHECK_INT(count_of(&spectra, test, branch), 1);
    CHECK(!hit(&spectra, test, "/src/a.c:4:7:false"));
    CHECK_INT(count_of(&spectra, test, value), 1);
    CHECK(!hit(&spectra, test, "/src/common.h:7:3:f()=zero"));
    CHECK(!culprit_spectra_hit(&spectra, test, 0) == false);

    /* Test 2 runs only B's first block: common.h:7 stays unhit. */
    static uint32_t b2_counters[] = {0};
    static uint64_t b2_counts[] = {1};
    culprit_unit_counts only_b = {
        .counter_count = 2, .length = 1, .counters = b2_counters, .counts = b2_counts};
    memcpy(only_b.hash, hash_b, 65);
    CHECK_INT(
        culprit_program_add_test(&layout, &spectra, "t2", CULPRIT_VERDICT_FAIL, 1, &only_b, &test, &err),
        CULPRIT_OK);
    CHECK(hit(&spectra, test, "/src/b.c:2"));
    CHECK(!hit(&spectra, test, "/src/common.h:7"));
    CHECK(!hit(&spectra, test, "/src/a.c:3"));
    CHECK_INT(spectra.counts[test].length, 2); /* helper:b0 and helper:b0->b1 */

    culprit_program_layout_free(&layout);
    culprit_spectra_free(&spectra);
    culprit_unit_set_free(&units);
}

/* ---- program evolution in the store ---- */

/* A collected test over the given units of maps, each with counts for
 * counters 0 .. (counter_count-1) of value 1 up to `ran` counters. */
typedef struct fake_test {
    culprit_collected collected;
    culprit_unit_counts units[2];
    uint32_t counters[2][8];
    uint64_t counts[2][8];
} fake_test;

static void fake_collected(fake_test *fake, const culprit_unit_set *maps, const char *const *hashes,
                           size_t count)
{
    memset(fake, 0, sizeof *fake);
    for (size_t u = 0; u < count; u++) {
        const culprit_unit *unit = culprit_unit_set_find(maps, hashes[u]);
        culprit_unit_counts *counts = &fake->units[u];
        memcpy(counts->hash, unit->hash, 65);
        counts->counter_count = unit->counter_count;
        counts->counters = fake->counters[u];
        counts->counts = fake->counts[u];
        for (uint32_t b = 0; b < unit->block_count; b++) {
            fake->counters[u][b] = b;
            fake->counts[u][b] = 1;
        }
        counts->length = unit->block_count;
    }
    /* The collected units are sorted by hash. */
    if (count == 2 && strcmp(fake->units[0].hash, fake->units[1].hash) > 0) {
        culprit_unit_counts swap = fake->units[0];
        fake->units[0] = fake->units[1];
        fake->units[1] = swap;
    }
    fake->collected.unit_count = count;
    fake->collected.units = fake->units;
    fake->collected.dump_count = count ? 1 : 0;
}

static culprit_status save_fake(culprit_store *store, const culprit_unit_set *maps, const char *name,
                                const char *const *hashes, size_t count, culprit_saved_test *saved)
{
    fake_test fake;
    fake_collected(&fake, maps, hashes, count);
    culprit_collected_test test = {.name = name,
                                   .verdict = CULPRIT_VERDICT_PASS,
                                   .duration_seconds = 0.5,
                                   .exit_status = 0,
                                   .maps = maps,
                                   .collected = &fake.collected};
    culprit_error err;
    culprit_status status = culprit_store_save_collected(store, &test, saved, &err);
    if (status != CULPRIT_OK)
        fprintf(stderr, "save_fake: %s\n", err.message);
    return status;
}

/* How many tests the stored program has. */
static size_t tests_in(culprit_store *store, int64_t program_id)
{
    culprit_spectra spectra;
    culprit_error err;
    culprit_spectra_init(&spectra);
    size_t count =
        culprit_store_load(store, program_id, &spectra, &err) == CULPRIT_OK ? spectra.test_count : 0;
    culprit_spectra_free(&spectra);
    return count;
}

static void test_evolution(void)
{
    char directory[64], hash_a[65], hash_b[65], hash_a2[65];
    make_scratch(directory, "culprit-evolution-test");
    culprit_unit_set maps;
    culprit_unit_set_init(&maps);
    parse_into(&maps, body_a, 7, 3, hash_a);
    parse_into(&maps, body_b, 2, 2, hash_b);
    parse_into(&maps, body_a2, 7, 3, hash_a2);
    culprit_store *store;
    culprit_error err;
    CHECK_INT(culprit_store_open(directory, CULPRIT_STORE_CREATE, &store, &err), CULPRIT_OK);
    culprit_saved_test saved;
    const char *a[] = {hash_a}, *ab[] = {hash_a, hash_b}, *b[] = {hash_b}, *a2[] = {hash_a2};

    CHECK_INT(save_fake(store, &maps, "t1", a, 1, &saved), CULPRIT_OK);
    CHECK_INT(saved.change, CULPRIT_PROGRAM_NEW);
    int64_t first = saved.program_id;
    CHECK_INT(save_fake(store, &maps, "t2", a, 1, &saved), CULPRIT_OK);
    CHECK_INT(saved.change, CULPRIT_PROGRAM_SAME);
    CHECK_INT(saved.program_id, first);
    CHECK_INT(tests_in(store, saved.program_id), 2);

    /* B is new and shares only a header with A: the union, with t1 and t2 moved. */
    CHECK_INT(save_fake(store, &maps, "t3", ab, 2, &saved), CULPRIT_OK);
    CHECK_INT(saved.change, CULPRIT_PROGRAM_UNION);
    CHECK(saved.program_id != first);
    CHECK_INT(tests_in(store, saved.program_id), 3);
    int64_t grown = saved.program_id, current = 0;
    CHECK_INT(culprit_store_current_program(store, &current, &err), CULPRIT_OK);
    CHECK_INT(current, grown);
    culprit_spectra spectra;
    culprit_spectra_init(&spectra);
    CHECK_INT(culprit_store_load(store, grown, &spectra, &err), CULPRIT_OK);
    CHECK_INT(spectra.element_count, 18);
    CHECK_INT(spectra.test_count, 3);
    if (spectra.test_count == 3) {
        CHECK_STR(spectra.tests[0].name, "t1");
        CHECK(hit(&spectra, 0, "/src/a.c:5"));  /* re-expressed from raw counts */
        CHECK(!hit(&spectra, 0, "/src/b.c:2")); /* t1 never loaded B */
        CHECK_INT(count_of(&spectra, 0, find_element(&spectra, "main:b1->b2")), 1);
        CHECK(hit(&spectra, 2, "/src/b.c:2"));
        CHECK_NEAR(spectra.tests[0].duration_seconds, 0.5, 1e-9);
    }
    culprit_spectra_free(&spectra);
    culprit_unit_set units;
    culprit_unit_set_init(&units);
    CHECK_INT(culprit_store_program_units(store, grown, &units, &err), CULPRIT_OK);
    CHECK_INT(units.count, 2);
    culprit_unit_set_free(&units);

    /* A subset of the grown program stays in it. */
    CHECK_INT(save_fake(store, &maps, "t4", b, 1, &saved), CULPRIT_OK);
    CHECK_INT(saved.change, CULPRIT_PROGRAM_SAME);
    CHECK_INT(saved.program_id, grown);

    /* A rebuilt A: a new program; the old tests stay with the old one. */
    CHECK_INT(save_fake(store, &maps, "t5", a2, 1, &saved), CULPRIT_OK);
    CHECK_INT(saved.change, CULPRIT_PROGRAM_NEW);
    CHECK(saved.program_id != grown);
    CHECK_INT(tests_in(store, saved.program_id), 1);
    culprit_spectra_init(&spectra);
    CHECK_INT(culprit_store_load(store, grown, &spectra, &err), CULPRIT_OK);
    CHECK_INT(spectra.test_count, 4);
    culprit_spectra_free(&spectra);
    culprit_spectra_init(&spectra);
    CHECK_INT(culprit_store_load(store, saved.program_id, &spectra, &err), CULPRIT_OK);
    CHECK(hit(&spectra, 0, "/src/a.c:6"));
    culprit_spectra_free(&spectra);

    /* A test that wrote no coverage is recorded with no hits. */
    CHECK_INT(save_fake(store, &maps, "t6", NULL, 0, &saved), CULPRIT_OK);
    CHECK_INT(saved.change, CULPRIT_PROGRAM_SAME);
    CHECK_INT(tests_in(store, saved.program_id), 2);

    /* A2 built with `source` records (a.c and common.h as contents 1 and
     * 2): the same element table as A2, but another unit, so another
     * program whose records never mix with A2's. */
    int64_t rebuilt_a2 = saved.program_id;
    CHECK_INT(saved.previous_program_id, rebuilt_a2);
    char hash_a3[65], body_a3[4096];
    with_sources(body_a2, "12", body_a3, sizeof body_a3);
    parse_into(&maps, body_a3, 7, 3, hash_a3);
    const char *a3[] = {hash_a3};
    CHECK_INT(save_fake(store, &maps, "t7", a3, 1, &saved), CULPRIT_OK);
    CHECK_INT(saved.change, CULPRIT_PROGRAM_NEW);
    CHECK(saved.program_id != rebuilt_a2);
    CHECK_INT(saved.previous_program_id, rebuilt_a2);
    CHECK_INT(tests_in(store, saved.program_id), 1);
    CHECK_INT(tests_in(store, rebuilt_a2), 2);
    int64_t with_a3 = saved.program_id;
    /* B with common.h as the same contents 2: the same header in another
     * executable, not a rebuild: the program grows. */
    char hash_b2[65], body_b2[4096];
    with_sources(body_b, "32", body_b2, sizeof body_b2);
    parse_into(&maps, body_b2, 2, 2, hash_b2);
    const char *b2[] = {hash_b2};
    CHECK_INT(save_fake(store, &maps, "t8", b2, 1, &saved), CULPRIT_OK);
    CHECK_INT(saved.change, CULPRIT_PROGRAM_UNION);
    CHECK_INT(tests_in(store, saved.program_id), 2);
    CHECK(saved.program_id != with_a3);
    /* A with the same structure and an edited common.h (contents 4): a
     * rebuild, a new program. */
    char hash_a4[65], body_a4[4096];
    with_sources(body_a2, "14", body_a4, sizeof body_a4);
    parse_into(&maps, body_a4, 7, 3, hash_a4);
    const char *a4[] = {hash_a4};
    CHECK_INT(save_fake(store, &maps, "t9", a4, 1, &saved), CULPRIT_OK);
    CHECK_INT(saved.change, CULPRIT_PROGRAM_NEW);
    CHECK_INT(tests_in(store, saved.program_id), 1);
    /* The map keeps each file's content hash. */
    const culprit_unit *unit_a4 = culprit_unit_set_find(&maps, hash_a4);
    CHECK(unit_a4 && unit_a4->file_sources && unit_a4->file_sources[1][0] == '4');
    culprit_store_close(store);

    /* The run details are in test_runs. */
    char path[128];
    snprintf(path, sizeof path, "%s/culprit.db", directory);
    sqlite3 *database;
    sqlite3_open(path, &database);
    sqlite3_stmt *statement;
    sqlite3_prepare_v2(database, "SELECT count(*), sum(exit_status = 0) FROM test_runs", -1, &statement,
                       NULL);
    CHECK_INT(sqlite3_step(statement), SQLITE_ROW);
    CHECK_INT(sqlite3_column_int(statement, 0), 9);
    CHECK_INT(sqlite3_column_int(statement, 1), 9);
    sqlite3_finalize(statement);
    sqlite3_close(database);
    culprit_unit_set_free(&maps);
    remove_tree(directory);
}

/* ---- migrating a version-1 store ---- */

static const char schema_v1_sql[] =
    "PRAGMA application_id = 1129663568; PRAGMA user_version = 1;"
    "CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value);"
    "CREATE TABLE programs (id INTEGER PRIMARY KEY, hash TEXT NOT NULL UNIQUE, source TEXT,"
    " created_at TEXT NOT NULL, file_count INTEGER NOT NULL, element_count INTEGER NOT NULL);"
    "CREATE TABLE files (program_id INTEGER NOT NULL REFERENCES programs(id) ON DELETE CASCADE,"
    " ordinal INTEGER NOT NULL, path TEXT NOT NULL, PRIMARY KEY (program_id, ordinal)) WITHOUT ROWID;"
    "CREATE TABLE elements (program_id INTEGER NOT NULL REFERENCES programs(id) ON DELETE CASCADE,"
    " ordinal INTEGER NOT NULL, kind TEXT NOT NULL, file_ordinal INTEGER, line INTEGER NOT NULL,"
    " column INTEGER NOT NULL, name TEXT, PRIMARY KEY (program_id, ordinal),"
    " FOREIGN KEY (program_id, file_ordinal) REFERENCES files(program_id, ordinal)) WITHOUT ROWID;"
    "CREATE TABLE tests (id INTEGER PRIMARY KEY, program_id INTEGER NOT NULL REFERENCES programs(id)"
    " ON DELETE CASCADE, name TEXT NOT NULL, verdict TEXT NOT NULL, duration REAL, hits BLOB NOT NULL,"
    " counts BLOB, recorded_at TEXT NOT NULL, UNIQUE (program_id, name));"
    "CREATE INDEX tests_by_program ON tests(program_id, id);"
    "INSERT INTO programs VALUES (1, '00', 'csv', '2024-01-01T00:00:00.000Z', 1, 1);"
    "INSERT INTO files VALUES (1, 0, 'x.c');"
    "INSERT INTO elements VALUES (1, 0, 'line', 0, 3, 0, NULL);"
    "INSERT INTO tests VALUES (1, 1, 'old', 'fail', NULL, x'0100000000000000', NULL, "
    "'2024-01-01T00:00:00.000Z');"
    "INSERT INTO meta VALUES ('current_program', 1);";

static void test_migration(void)
{
    char directory[64], path[128];
    make_scratch(directory, "culprit-migration-test");
    snprintf(path, sizeof path, "%s/culprit.db", directory);
    sqlite3 *database;
    sqlite3_open(path, &database);
    CHECK_INT(sqlite3_exec(database, schema_v1_sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(database);

    culprit_store *store;
    culprit_error err;
    CHECK_INT(culprit_store_open(directory, CULPRIT_STORE_WRITE, &store, &err), CULPRIT_OK);
    culprit_spectra spectra;
    culprit_spectra_init(&spectra);
    CHECK_INT(culprit_store_load(store, 1, &spectra, &err), CULPRIT_OK);
    CHECK_INT(spectra.test_count, 1);
    CHECK(spectra.test_count == 1 && culprit_spectra_hit(&spectra, 0, 0));
    culprit_spectra_free(&spectra);
    /* The imported program is not grown by collected tests: a new one starts. */
    culprit_unit_set maps;
    culprit_unit_set_init(&maps);
    char hash_b[65];
    parse_into(&maps, body_b, 2, 2, hash_b);
    const char *b[] = {hash_b};
    culprit_saved_test saved;
    CHECK_INT(save_fake(store, &maps, "new", b, 1, &saved), CULPRIT_OK);
    CHECK_INT(saved.change, CULPRIT_PROGRAM_NEW);
    CHECK(saved.program_id != 1);
    culprit_store_close(store);
    culprit_unit_set_free(&maps);

    sqlite3_open(path, &database);
    sqlite3_stmt *statement;
    sqlite3_prepare_v2(database, "PRAGMA user_version", -1, &statement, NULL);
    sqlite3_step(statement);
    CHECK_INT(sqlite3_column_int(statement, 0), CULPRIT_STORE_SCHEMA_VERSION);
    sqlite3_finalize(statement);
    sqlite3_close(database);
    remove_tree(directory);
}

/* The PHP extension's return classes (src/php/php_returns.c) are classes
 * of the map too; an unknown class is refused with the list. */
static void test_map_php_classes(void)
{
    static const char *const classes[] = {"string", "empty-string", "array", "empty-array", "object"};
    for (size_t i = 0; i < sizeof classes / sizeof *classes; i++) {
        char body[512], hash[65];
        snprintf(body, sizeof body,
                 "file\t0\t/app/a.php\nfunction\t0\t{main}\t0\t1\nblock\t0\t0\t0\t2\t0\t2\t0\n"
                 "line\t0\t2\t0\nreturn\t1\t0\t0\t2\t1\t%s\trender\nend\n",
                 classes[i]);
        char *map = make_map(body, 2, 1, hash);
        culprit_error err;
        CHECK_STR(parse_message(map, &err), "");
        free(map);
    }
    char hash[65];
    char *map = make_map("file\t0\t/app/a.php\nfunction\t0\t{main}\t0\t1\nblock\t0\t0\t0\t2\t0\t2\t0\n"
                         "line\t0\t2\t0\nreturn\t1\t0\t0\t2\t1\tresource\trender\nend\n",
                         2, 1, hash);
    culprit_error err;
    CHECK_CONTAINS(parse_message(map, &err), "string, empty-string, array, empty-array or object");
    free(map);
}

int main(void)
{
    test_map_valid();
    test_map_php_classes();
    test_map_malformed();
    test_dump();
    test_collect_directory();
    test_crash_stack_counts();
    test_assembly();
    test_evolution();
    test_migration();
    return check_report("test_collect");
}
