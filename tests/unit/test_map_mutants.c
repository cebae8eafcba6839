/*
 * test_map_mutants.c - the program map's `mutant` records
 * (docs/collector.md §2, docs/mutation.md §1) as the map parser
 * (src/program/map_mutant.c) reads them: every field of a good record,
 * and the exact message for each malformed shape.  Maps are written by
 * hand with their real SHA-256, as in test_collect.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/sha256.h"
#include "culprit/program.h"

/* One function, two blocks on lines 3 and 4 of /m.c. */
#define HEAD                                                                                                 \
    "file\t0\t/m.c\n"                                                                                        \
    "function\t0\tf\t0\t2\n"                                                                                 \
    "block\t0\t0\t0\t3\t1\t3\t9\n"                                                                           \
    "block\t1\t0\t0\t4\t1\t4\t9\n"                                                                           \
    "line\t0\t3\t0\n"                                                                                        \
    "line\t0\t4\t1\n"                                                                                        \
    "edge\t-\t0\t1\n"

static char *map_with(const char *mode, const char *body)
{
    culprit_sha256 context;
    unsigned char digest[CULPRIT_SHA256_DIGEST_SIZE];
    char hash[65];
    culprit_sha256_init(&context);
    culprit_sha256_update(&context, body, strlen(body));
    culprit_sha256_final(&context, digest);
    culprit_sha256_hex(digest, hash);
    size_t size = strlen(body) + 200;
    char *map = malloc(size);
    snprintf(map, size, "culprit-map\t1\nunit\t%s\t%s\t2\t2\n%s", hash, mode, body);
    return map;
}

static void test_good(void)
{
    char *map = map_with("full", HEAD "mutant\t1\t0\t0\t3\t11\tror\t< -> <=\n"
                                      "mutant\t2\t1\t0\t4\t5\tsdl\tdelete call to free\n"
                                      "end\n");
    culprit_unit_set set;
    culprit_unit_set_init(&set);
    culprit_error err = {0};
    CHECK_INT(culprit_map_parse(map, strlen(map), "m.map", &set, &err), CULPRIT_OK);
    CHECK_INT(set.count, 1);
    if (set.count == 1) {
        const culprit_unit *unit = set.units[0];
        CHECK_INT(unit->mutant_count, 2);
        const culprit_map_mutant *m = unit->mutants;
        CHECK_INT(m[0].id, 1);
        CHECK_INT(m[0].block, 0);
        CHECK_INT(m[0].file, 0);
        CHECK_INT(m[0].line, 3);
        CHECK_INT(m[0].column, 11);
        CHECK_STR(m[0].operator_name, "ror");
        CHECK_STR(m[0].description, "< -> <=");
        CHECK_INT(m[1].id, 2);
        CHECK_INT(m[1].block, 1);
        CHECK_INT(m[1].line, 4);
        CHECK_STR(m[1].operator_name, "sdl");
        CHECK_STR(m[1].description, "delete call to free");
    }
    culprit_unit_set_free(&set);
    free(map);
    /* A unit without mutant records has none. */
    map = map_with("full", HEAD "end\n");
    culprit_unit_set_init(&set);
    CHECK_INT(culprit_map_parse(map, strlen(map), "m.map", &set, &err), CULPRIT_OK);
    CHECK_INT(set.count == 1 ? set.units[0]->mutant_count : 99, 0);
    culprit_unit_set_free(&set);
    free(map);
}

/* The message for a map whose last record before `end` is record. */
static void check_malformed(const char *mode, const char *records, const char *expected)
{
    char body[1024];
    snprintf(body, sizeof body, HEAD "%send\n", records);
    char *map = map_with(mode, body);
    culprit_unit_set set;
    culprit_unit_set_init(&set);
    culprit_error err = {0};
    CHECK_INT(culprit_map_parse(map, strlen(map), "m.map", &set, &err), CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, expected);
    CHECK_INT(set.count, 0);
    culprit_unit_set_free(&set);
    free(map);
}

static void test_malformed(void)
{
    /* The records start at line 10 of the map. */
    check_malformed("full", "mutant\t2\t0\t0\t3\t11\tror\t< -> <=\n",
                    "m.map:10:8: expected mutant id 1 (numbered from 1 in order)");
    check_malformed("full", "mutant\t1\t0\t0\t3\t11\tror\tx\nmutant\t1\t0\t0\t3\t11\tror\ty\n",
                    "m.map:11:8: expected mutant id 2 (numbered from 1 in order)");
    check_malformed("full", "mutant\tone\t0\t0\t3\t11\tror\tx\n",
                    "m.map:10:8: expected a mutant id (a decimal number)");
    check_malformed("full", "mutant\t1\t2\t0\t3\t11\tror\tx\n",
                    "m.map:10:10: expected a block counter below 2");
    check_malformed("full", "mutant\t1\t0\t1\t3\t11\tror\tx\n",
                    "m.map:10:12: expected a file number below 1");
    check_malformed("full", "mutant\t1\t0\t0\t-3\t11\tror\tx\n",
                    "m.map:10:14: expected a line (a decimal number)");
    check_malformed("full", "mutant\t1\t0\t0\t3\t\tror\tx\n",
                    "m.map:10:16: expected a column (a decimal number)");
    check_malformed("full", "mutant\t1\t0\t0\t3\t11\tswap\tx\n",
                    "m.map:10:19: expected an operator: ror, aor, lcr, crp, neg, sdl or rvr");
    check_malformed("full", "mutant\t1\t0\t0\t3\t11\tror\t\n", "m.map:10:23: expected a description");
    check_malformed("full", "mutant\t1\t0\t0\t3\t11\tror\n", "m.map:10:22: expected a tab and a description");
    check_malformed("full", "mutant\t1\t0\t0\t3\t11\tror\tx\ty\n",
                    "m.map:10:24: expected the end of the record");
    check_malformed("lines", "mutant\t1\t0\t0\t3\t11\tror\tx\n",
                    "m.map:10:1: expected no mutant record: mutants need a full-mode unit");
}

int main(void)
{
    test_good();
    test_malformed();
    return check_report("test_map_mutants");
}
