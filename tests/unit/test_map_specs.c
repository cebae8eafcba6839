/*
 * test_map_specs.c - the program map's `spec` records (src/program/
 * map_specs.c; docs/collector.md §2, docs/specs.md): what a good record
 * gives, and the message each malformed field gets.
 *
 * Maps are written by hand with their real SHA-256, so the tests pin the
 * format rather than what culprit-cc happens to write.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/sha256.h"
#include "culprit/program.h"

static const char body_head[] = "file\t0\t/src/list.c\n"
                                "function\t0\tinsert\t0\t20\n"
                                "block\t0\t0\t0\t21\t5\t21\t30\n"
                                "block\t1\t0\t0\t31\t5\t31\t30\n"
                                "line\t0\t21\t0\n"
                                "line\t0\t31\t1\n";

/* A whole map of body_head, then specs, then `end`, with its real hash. */
static char *make_map(const char *specs)
{
    size_t size = strlen(body_head) + strlen(specs) + 256;
    char *body = malloc(size), *map = malloc(size);
    snprintf(body, size, "%s%send\n", body_head, specs);
    culprit_sha256 context;
    unsigned char digest[CULPRIT_SHA256_DIGEST_SIZE];
    char hash[65];
    culprit_sha256_init(&context);
    culprit_sha256_update(&context, body, strlen(body));
    culprit_sha256_final(&context, digest);
    culprit_sha256_hex(digest, hash);
    snprintf(map, size, "culprit-map\t1\nunit\t%s\tfull\t2\t2\n%s", hash, body);
    free(body);
    return map;
}

static void test_good_records(void)
{
    char *map = make_map("spec\t0\trequires\t0\t21\t5\tl->size < 16\n"
                         "spec\t1\tinvariant\t0\t31\t5\tlist_ok(l)\n"
                         "spec\t1\tassert\t0\t31\t9\ta == b\n");
    culprit_unit_set set;
    culprit_unit_set_init(&set);
    culprit_error err = {0};
    CHECK_INT(culprit_map_parse(map, strlen(map), "m.map", &set, &err), CULPRIT_OK);
    CHECK_INT(set.count, 1);
    const culprit_unit *unit = set.units[0];
    CHECK_INT(unit->spec_count, 3);
    CHECK_INT(unit->specs[0].block, 0);
    CHECK_STR(unit->specs[0].kind, "requires");
    CHECK_STR(unit->specs[0].text, "l->size < 16");
    CHECK_INT(unit->specs[0].line, 21);
    CHECK_INT(unit->specs[1].block, 1);
    CHECK_STR(unit->specs[1].kind, "invariant");
    CHECK_STR(unit->specs[2].kind, "assert");
    CHECK_INT(unit->specs[2].column, 9);
    culprit_unit_set_free(&set);
    free(map);
}

/* The error message of parsing body_head + record. */
static void expect_error(const char *record, const char *expected)
{
    char *map = make_map(record);
    culprit_unit_set set;
    culprit_unit_set_init(&set);
    culprit_error err = {0};
    CHECK_INT(culprit_map_parse(map, strlen(map), "m.map", &set, &err), CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, expected);
    culprit_unit_set_free(&set);
    free(map);
}

static void test_malformed_records(void)
{
    /* the spec line is line 9 of each map */
    expect_error("spec\t2\trequires\t0\t21\t5\tx\n", "m.map:9:6: expected a block counter below 2");
    expect_error("spec\t0\tpromise\t0\t21\t5\tx\n",
                 "m.map:9:8: expected a kind: requires, ensures, invariant or assert");
    expect_error("spec\t0\tensures\t1\t21\t5\tx\n", "m.map:9:16: expected a file number below 1");
    expect_error("spec\t0\tensures\t0\tline\t5\tx\n", "m.map:9:18: expected a line (a decimal number)");
    expect_error("spec\t0\tensures\t0\t21\t5\t\n", "m.map:9:23: expected the condition's text");
    expect_error("spec\t0\tensures\t0\t21\t5\n", "m.map:9:22: expected a tab and the condition's text");
    expect_error("spec\t0\tensures\t0\t21\t5\tx\ty\n", "m.map:9:24: expected the end of the record");
}

int main(void)
{
    test_good_records();
    test_malformed_records();
    return check_report("test_map_specs");
}
