/*
 * test_cc_map.c - the program map text builder of culprit-cc (src/cc/map_text.c):
 * record format and order (mutants last, numbered from 1), line grouping,
 * rejection of paths and names that would break the format, and the hash of
 * the body.
 *
 * culprit-cc's objects are not in libculprit, so the builder's source is
 * compiled into this test directly; it needs nothing but libculprit's SHA-256.
 */
#include "cc/map_text.c"

#include "check.h"
#include "core/sha256.h"

static void sha256_of(const char *text, size_t size, char hex[65])
{
    culprit_sha256 sha;
    unsigned char digest[CULPRIT_SHA256_DIGEST_SIZE];
    culprit_sha256_init(&sha);
    culprit_sha256_update(&sha, text, size);
    culprit_sha256_final(&sha, digest);
    culprit_sha256_hex(digest, hex);
}

static const char expected_body[] = "file\t0\t/src/a b.c\n"
                                    "file\t1\t/inc/h.h\n"
                                    "function\t0\tmain\t0\t3\n"
                                    "block\t0\t0\t0\t4\t5\t5\t9\n"
                                    "block\t1\t0\t0\t0\t0\t0\t0\n"
                                    "block\t2\t0\t1\t7\t1\t7\t3\n"
                                    "line\t0\t4\t0\n"
                                    "line\t0\t5\t0,2\n"
                                    "line\t1\t7\t2\n"
                                    "edge\t3\t0\t1\n"
                                    "edge\t4\t0\t2\n"
                                    "edge\t-\t1\t2\n"
                                    "branch\t3\t0\t4\t9\ttrue\t0\n"
                                    "branch\t4\t0\t4\t9\tfalse\t0\n"
                                    "return\t5\t2\t1\t7\t3\tnull\tgetenv\n"
                                    "return\t6\t2\t1\t7\t3\tnonnull\tgetenv\n"
                                    "spec\t2\tensures\t1\t7\t3\tr >= 0\n"
                                    "mutant\t1\t0\t0\t4\t9\tror\t< -> <=\n"
                                    "mutant\t2\t2\t1\t7\t3\tsdl\tdelete call to free\n"
                                    "end\n";

/* Adds records out of order on purpose: the builder must sort kinds and lines. */
static void build_sample(cc_map *map, culprit_error *err)
{
    uint32_t a, h, again, function;
    CHECK_INT(cc_map_add_file(map, "/src/a b.c", &a, err), CULPRIT_OK);
    CHECK_INT(cc_map_add_file(map, "/inc/h.h", &h, err), CULPRIT_OK);
    CHECK_INT(cc_map_add_file(map, "/src/a b.c", &again, err), CULPRIT_OK);
    CHECK_INT(a, 0);
    CHECK_INT(h, 1);
    CHECK_INT(again, 0);
    CHECK_INT(cc_map_add_function(map, "main", a, 3, &function, err), CULPRIT_OK);
    CHECK_INT(function, 0);
    cc_map_add_block(map, &(cc_map_block){0, 0, 0, 4, 5, 5, 9}, err);
    cc_map_add_edge(map, 3, 0, 1, err);
    cc_map_add_branch(map, 3, (cc_map_location){0, 4, 9}, "true", 0, err);
    cc_map_add_line(map, 0, 5, 2, err);
    cc_map_add_line(map, 0, 5, 0, err);
    cc_map_add_line(map, 0, 4, 0, err);
    cc_map_add_line(map, 0, 5, 0, err);
    cc_map_add_block(map, &(cc_map_block){1, 0, 0, 0, 0, 0, 0}, err);
    cc_map_add_edge(map, 4, 0, 2, err);
    cc_map_add_branch(map, 4, (cc_map_location){0, 4, 9}, "false", 0, err);
    cc_map_add_block(map, &(cc_map_block){2, 0, 1, 7, 1, 7, 3}, err);
    cc_map_add_line(map, 1, 7, 2, err);
    cc_map_add_edge(map, -1, 1, 2, err);
    /* mutants come before the rest and are listed last, numbered from 1 */
    uint32_t id = 0;
    CHECK_INT(cc_map_add_mutant(map, 0, (cc_map_location){0, 4, 9}, "ror", "< -> <=", &id, err), CULPRIT_OK);
    CHECK_INT(id, 1);
    CHECK_INT(cc_map_add_mutant(map, 2, (cc_map_location){1, 7, 3}, "sdl", "delete call to free", &id, err),
              CULPRIT_OK);
    CHECK_INT(id, 2);
    /* a spec site comes before the returns and is listed after them; its
     * condition's tab becomes a space */
    cc_map_add_spec(map, 2, "ensures", (cc_map_location){1, 7, 3}, "r\t>= 0", err);
    cc_map_add_return(map, 5, 2, (cc_map_location){1, 7, 3}, "null", "getenv", err);
    cc_map_add_return(map, 6, 2, (cc_map_location){1, 7, 3}, "nonnull", "getenv", err);
}

static void test_format_and_hash(void)
{
    culprit_error err = {0};
    cc_map map;
    cc_map_init(&map, CC_COVERAGE_FULL);
    build_sample(&map, &err);
    cc_map_result result;
    CHECK_INT(cc_map_finish(&map, 7, 3, &result, &err), CULPRIT_OK);
    char hash[65];
    sha256_of(expected_body, sizeof expected_body - 1, hash);
    CHECK_STR(result.hash, hash);
    char expected[2048];
    snprintf(expected, sizeof expected, "culprit-map\t1\nunit\t%s\tfull\t7\t3\n%s", hash, expected_body);
    CHECK_STR(result.text, expected);
    CHECK_INT(result.size, strlen(expected));
    free(result.text);
    cc_map_free(&map);
}

static void test_lines_mode_and_empty(void)
{
    culprit_error err = {0};
    cc_map map;
    cc_map_init(&map, CC_COVERAGE_LINES);
    cc_map_result result;
    CHECK_INT(cc_map_finish(&map, 0, 0, &result, &err), CULPRIT_OK);
    char hash[65];
    sha256_of("end\n", 4, hash);
    CHECK_STR(result.hash, hash);
    CHECK_CONTAINS(result.text, "\tlines\t0\t0\nend\n");
    free(result.text);
    cc_map_free(&map);
}

static void test_rejects_tabs_and_newlines(void)
{
    const char *const bad[] = {"/src/a\tb.c", "/src/a\nb.c", "/src/a\rb.c"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        culprit_error err = {0};
        cc_map map;
        cc_map_init(&map, CC_COVERAGE_FULL);
        uint32_t index = 99;
        CHECK_INT(cc_map_add_file(&map, bad[i], &index, &err), CULPRIT_ERROR_INPUT);
        CHECK_CONTAINS(err.message, "tab or newline");
        CHECK_INT(map.path_count, 0);
        cc_map_free(&map);
    }
    culprit_error err = {0};
    cc_map map;
    cc_map_init(&map, CC_COVERAGE_FULL);
    uint32_t function;
    CHECK_INT(cc_map_add_function(&map, "odd\tname", 0, 1, &function, &err), CULPRIT_ERROR_INPUT);
    CHECK_INT(cc_map_add_return(&map, 0, 0, (cc_map_location){0, 1, 1}, "zero", "f\n", &err),
              CULPRIT_ERROR_INPUT);
    uint32_t id = 0;
    CHECK_INT(cc_map_add_mutant(&map, 0, (cc_map_location){0, 1, 1}, "sdl", "delete call to\tf", &id, &err),
              CULPRIT_ERROR_INPUT);
    CHECK_INT(map.mutant_count, 0);
    uint32_t index;
    CHECK_INT(cc_map_add_file(&map, "/path with spaces/ok.c", &index, &err), CULPRIT_OK);
    cc_map_free(&map);
}

static void test_text_growth(void)
{
    cc_text text = {0};
    char long_piece[600];
    memset(long_piece, 'x', sizeof long_piece - 1);
    long_piece[sizeof long_piece - 1] = '\0';
    for (int i = 0; i < 10; i++)
        CHECK_INT(cc_text_append(&text, "%s|", long_piece), CULPRIT_OK);
    CHECK_INT(text.size, 10 * 600);
    CHECK_INT(strlen(text.data), 10 * 600);
    cc_text_free(&text);
}

int main(void)
{
    test_format_and_hash();
    test_lines_mode_and_empty();
    test_rejects_tabs_and_newlines();
    test_text_growth();
    return check_report("test_cc_map");
}
