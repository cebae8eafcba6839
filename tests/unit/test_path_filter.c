/*
 * test_path_filter.c - the path filters of rank, report and eval
 * (include/culprit/path_filter.h, docs/config.md): which files a pattern
 * keeps (per component, anchored or not, '**', trailing '/', absolute,
 * relative to a base directory), the config file's lines and its errors
 * with their positions, and applying a filter to a ranking (ranks
 * renumbered, ties kept), to EXAM's lines and to the spectra's file table.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "culprit/eval.h"
#include "culprit/path_filter.h"
#include "culprit/rank.h"

static const char base[] = "/home/me/proj";

/* Whether a filter of one pattern keeps path, seen from base. */
static bool keeps(culprit_path_rule rule, const char *pattern, const char *path, const char *from)
{
    culprit_path_filter filter;
    culprit_path_filter_init(&filter);
    culprit_error err;
    bool kept = true;
    CHECK_INT(culprit_path_filter_add(&filter, rule, pattern, from, &err), 0);
    CHECK_INT(culprit_path_filter_match(&filter, path, &kept, &err), 0);
    culprit_path_filter_free(&filter);
    return kept;
}

static bool excluded(const char *pattern, const char *path)
{
    return !keeps(CULPRIT_PATH_EXCLUDE, pattern, path, base);
}

static void test_anchored_patterns(void)
{
    /* A '/' anchors the pattern at the base; it matches the file or a directory holding it. */
    CHECK(excluded("tests/*", "/home/me/proj/tests/a.c"));
    CHECK(excluded("tests/*", "/home/me/proj/tests/unit/b.c"));
    CHECK(!excluded("tests/*", "/home/me/proj/src/tests/a.c"));
    CHECK(!excluded("tests/*", "/home/me/proj/tests.c"));
    CHECK(excluded("./tests", "/home/me/proj/tests/a.c"));
    /* '*' stays within a component; '**' spans any number of them. */
    CHECK(excluded("src/*.c", "/home/me/proj/src/a.c"));
    CHECK(!excluded("src/*.c", "/home/me/proj/src/sub/a.c"));
    CHECK(excluded("src/**/gen_*.c", "/home/me/proj/src/gen_x.c"));
    CHECK(excluded("src/**/gen_*.c", "/home/me/proj/src/a/b/gen_y.c"));
    CHECK(!excluded("src/**/gen_*.c", "/home/me/proj/lib/gen_z.c"));
    CHECK(excluded("**/**/driver.c", "/home/me/proj/t/driver.c"));
    CHECK(excluded("src/[ab].c", "/home/me/proj/src/b.c"));
    CHECK(!excluded("src/?.c", "/home/me/proj/src/ab.c"));
    /* Outside the base: "../". */
    CHECK(excluded("../lib/*", "/home/me/lib/x.c"));
    CHECK(!excluded("lib/*", "/home/me/lib/x.c"));
    /* Paths are folded lexically. */
    CHECK(excluded("tests/*", "/home/me/proj/src/../tests/./a.c"));
    /* Absolute patterns see absolute paths; a relative stored path lies under the base. */
    CHECK(excluded("/usr/include", "/usr/include/stdio.h"));
    CHECK(excluded("/home/me/proj/tests/*", "tests/a.c"));
    CHECK(excluded("tests/*", "tests/a.c"));
    CHECK(excluded("tests/*", "./tests/a.c"));
    CHECK(!excluded("/usr/include", "/usr/local/include/x.h"));
}

static void test_unanchored_patterns(void)
{
    /* No '/': the file's name or any directory's name, below the base only. */
    CHECK(excluded("*_test.c", "/home/me/proj/src/x_test.c"));
    CHECK(!excluded("*_test.c", "/home/me/proj/src/x_test.c.orig"));
    CHECK(excluded("tests", "/home/me/proj/src/tests/a.c"));
    CHECK(!excluded("me", "/home/me/proj/src/a.c"));
    CHECK(excluded("include", "/usr/include/stdio.h")); /* ../../../usr/include/stdio.h */
    CHECK(!excluded("..", "/home/me/lib/x.c"));
    /* A trailing '/' matches directories only. */
    CHECK(!excluded("tests/", "/home/me/proj/tests"));
    CHECK(excluded("tests/", "/home/me/proj/tests/a.c"));
    CHECK(!excluded("a.c/", "/home/me/proj/a.c"));
    /* Without a base, an anchored relative pattern cannot place an absolute path. */
    CHECK(keeps(CULPRIT_PATH_EXCLUDE, "tests/*", "/home/me/proj/tests/a.c", NULL));
    CHECK(!keeps(CULPRIT_PATH_EXCLUDE, "a.c", "/home/me/proj/tests/a.c", NULL));
}

static void test_include_and_exclude(void)
{
    culprit_path_filter filter = {0}; /* all zeros is an empty filter */
    culprit_error err;
    bool kept = false;
    CHECK(culprit_path_filter_empty(&filter));
    CHECK_INT(culprit_path_filter_match(&filter, "/anything.c", &kept, &err), 0);
    CHECK(kept);
    CHECK_INT(culprit_path_filter_add(&filter, CULPRIT_PATH_INCLUDE, "src/*", base, &err), 0);
    CHECK_INT(culprit_path_filter_add(&filter, CULPRIT_PATH_INCLUDE, "lib", base, &err), 0);
    CHECK_INT(culprit_path_filter_add(&filter, CULPRIT_PATH_EXCLUDE, "*_test.c", base, &err), 0);
    CHECK(!culprit_path_filter_empty(&filter));
    const struct {
        const char *path;
        bool kept;
    } cases[] = {
        {"/home/me/proj/src/a.c", true},         {"/home/me/proj/vendor/lib/b.c", true},
        {"/home/me/proj/tests/a.c", false},      {"/home/me/proj/src/a_test.c", false},
        {"/home/me/proj/lib/x/y_test.c", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK_INT(culprit_path_filter_match(&filter, cases[i].path, &kept, &err), 0);
        CHECK_RECORD(kept == cases[i].kept, "%s: kept %d, expected %d", cases[i].path, kept, cases[i].kept);
    }
    /* Patterns that name nothing. */
    CHECK_INT(culprit_path_filter_add(&filter, CULPRIT_PATH_EXCLUDE, "", base, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "empty pattern");
    CHECK_INT(culprit_path_filter_add(&filter, CULPRIT_PATH_EXCLUDE, "/", base, &err), CULPRIT_ERROR_INPUT);
    CHECK_INT(culprit_path_filter_add(&filter, CULPRIT_PATH_EXCLUDE, "./", base, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "names no file");
    CHECK_INT(filter.count, 3);
    culprit_path_filter_free(&filter);
}

/* Parses text as the config file "cfg" and returns the status; *filter is freed. */
static culprit_status parse(const char *text, culprit_error *err, size_t *count)
{
    culprit_path_filter filter;
    culprit_path_filter_init(&filter);
    culprit_status status = culprit_path_filter_parse(&filter, "cfg", text, strlen(text), base, err);
    *count = filter.count;
    culprit_path_filter_free(&filter);
    return status;
}

static void test_config(void)
{
    culprit_error err;
    size_t count;
    CHECK_INT(
        parse("# what culprit looks at\n\n  exclude = tests/*  \r\ninclude=src/**\n\t# more\nexclude = a b#c",
              &err, &count),
        0);
    CHECK_INT(count, 3);
    CHECK_INT(parse("", &err, &count), 0);
    CHECK_INT(count, 0);
    const struct {
        const char *text, *message;
    } bad[] = {
        {"exclude tests/*\n", "cfg:1:9: expected '=' after 'exclude'"},
        {"\n  excldue = x\n", "cfg:2:3: unknown setting 'excldue' (expected include or exclude)"},
        {"exclude =  \n", "cfg:1:12: expected a pattern after 'exclude ='"},
        {"include\n", "cfg:1:8: expected '=' after 'include'"},
        {"= x\n", "cfg:1:1: expected a setting (include or exclude) before '='"},
        {"exclude = x\ninclude = /\n", "cfg:2:11: pattern '/' names no file or directory"},
        {"exclude = \"x\"\n  Exclude = y", "cfg:2:3: unknown setting 'Exclude'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_INT(parse(bad[i].text, &err, &count), CULPRIT_ERROR_INPUT);
        CHECK_CONTAINS(err.message, bad[i].message);
    }
    culprit_path_filter filter = {0};
    CHECK_INT(culprit_path_filter_parse(&filter, "cfg", "exclude = a\0b\n", 14, base, &err),
              CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "cfg:1:12: a NUL byte");
    /* A missing file is no setting at all. */
    CHECK_INT(culprit_path_filter_read(&filter, "/nonexistent/culprit/config", base, &err), 0);
    CHECK(culprit_path_filter_empty(&filter));
    culprit_path_filter_free(&filter);
}

/* Five entries: ranks 1 (file 0), 2-4 tied (files 1, 0, 1), 5 (no file). */
static culprit_ranking five_entries(void)
{
    static const uint32_t files[] = {0, 1, 0, 1, CULPRIT_NO_FILE};
    static const double best[] = {1, 2, 2, 2, 5}, worst[] = {1, 4, 4, 4, 5};
    culprit_ranking ranking = {.count = 5, .entries = calloc(5, sizeof(culprit_ranked))};
    for (uint32_t i = 0; i < 5; i++)
        ranking.entries[i] = (culprit_ranked){.element = i,
                                              .file = files[i],
                                              .line = i + 1,
                                              .best_rank = best[i],
                                              .worst_rank = worst[i],
                                              .average_rank = (best[i] + worst[i]) / 2};
    return ranking;
}

static void test_ranking_keep_files(void)
{
    const bool kept[] = {true, false, true};
    culprit_ranking ranking = five_entries();
    culprit_ranking_keep_files(&ranking, NULL, NULL); /* no filter: as it was */
    CHECK_INT(ranking.count, 5);
    CHECK_NEAR(ranking.entries[3].worst_rank, 4, 0);
    culprit_ranking_keep_files(&ranking, kept, NULL);
    CHECK_INT(ranking.count, 3);
    CHECK_INT(ranking.entries[0].element, 0);
    CHECK_NEAR(ranking.entries[0].worst_rank, 1, 0);
    CHECK_INT(ranking.entries[1].element, 2); /* alone in what is left of its tie group */
    CHECK_NEAR(ranking.entries[1].best_rank, 2, 0);
    CHECK_NEAR(ranking.entries[1].worst_rank, 2, 0);
    CHECK_INT(ranking.entries[2].element, 4); /* no file: always kept */
    CHECK_NEAR(ranking.entries[2].best_rank, 3, 0);
    CHECK_NEAR(ranking.entries[2].average_rank, 3, 0);
    culprit_ranking_free(&ranking);

    /* Ties survive: dropping the first entry moves the group of three up. */
    const bool no_first[] = {false, true};
    ranking = five_entries();
    ranking.entries[0].file = 0;
    ranking.entries[2].file = 1;
    const uint32_t renumbered[] = {CULPRIT_NO_FILE, 0};
    culprit_ranking_keep_files(&ranking, no_first, renumbered);
    CHECK_INT(ranking.count, 4);
    for (int i = 0; i < 3; i++) {
        CHECK_INT(ranking.entries[i].file, 0);
        CHECK_NEAR(ranking.entries[i].best_rank, 1, 0);
        CHECK_NEAR(ranking.entries[i].worst_rank, 3, 0);
        CHECK_NEAR(ranking.entries[i].average_rank, 2, 0);
    }
    CHECK_INT(ranking.entries[3].file, CULPRIT_NO_FILE);
    CHECK_NEAR(ranking.entries[3].worst_rank, 4, 0);
    culprit_ranking_free(&ranking);
}

static void test_lines_and_spectra(void)
{
    culprit_spectra s;
    culprit_spectra_init(&s);
    culprit_error err;
    uint32_t file;
    const char *paths[] = {"/p/src/a.c", "/p/tests/t.c", "/p/src/b.c"};
    for (int f = 0; f < 3; f++)
        culprit_spectra_add_file(&s, paths[f], &file, &err);
    for (uint32_t e = 0; e < 6; e++)
        culprit_spectra_add_element(&s, CULPRIT_KIND_LINE, e % 3, e + 1, 0, NULL, NULL, &err);
    culprit_spectra_add_element(&s, CULPRIT_KIND_BLOCK, CULPRIT_NO_FILE, 0, 0, "block", NULL, &err);
    culprit_tally tallies[7] = {{.ef = 1}, {.ep = 1}, {0}, {0}, {.ef = 1}, {0}, {0}};
    culprit_rank_options options = {.kind = CULPRIT_KIND_LINE, .view = CULPRIT_VIEW_LINE};

    culprit_path_filter filter = {0};
    CHECK_INT(culprit_path_filter_add(&filter, CULPRIT_PATH_EXCLUDE, "tests/*", "/p", &err), 0);
    bool *kept;
    CHECK_INT(culprit_path_filter_files(&filter, &s, &kept, &err), 0);
    CHECK(kept[0] && !kept[1] && kept[2]);

    culprit_program_lines lines;
    CHECK_INT(culprit_program_lines_build(&s, tallies, &options, &lines, &err), 0);
    CHECK_INT(lines.count, 6);
    CHECK_INT(lines.executed_count, 3);
    culprit_program_lines_keep_files(&lines, kept);
    CHECK_INT(lines.count, 4);
    CHECK_INT(lines.executed_count, 1); /* t.c:2 and t.c:5 ran, and are gone */
    for (size_t i = 0; i < lines.count; i++)
        CHECK(lines.lines[i].file != 1);
    culprit_program_lines_free(&lines);

    uint32_t renumbered[3];
    CHECK_INT(culprit_spectra_keep_files(&s, kept, renumbered, &err), 0);
    CHECK_INT(s.file_count, 2);
    CHECK_STR(s.files[0], "/p/src/a.c");
    CHECK_STR(s.files[1], "/p/src/b.c");
    CHECK_INT(renumbered[0], 0);
    CHECK_INT(renumbered[1], CULPRIT_NO_FILE);
    CHECK_INT(renumbered[2], 1);
    CHECK_INT(s.elements[1].file, CULPRIT_NO_FILE); /* was t.c */
    CHECK_INT(s.elements[2].file, 1);               /* was b.c */
    CHECK_INT(s.elements[6].file, CULPRIT_NO_FILE);
    CHECK_INT(culprit_spectra_find_file(&s, "/p/src/b.c"), 1);
    CHECK_INT(culprit_spectra_find_file(&s, "/p/tests/t.c"), CULPRIT_NO_FILE);
    CHECK_INT(culprit_spectra_add_file(&s, "/p/src/c.c", &file, &err), 0);
    CHECK_INT(file, 2);
    free(kept);
    culprit_path_filter_free(&filter);
    culprit_spectra_free(&s);
}

int main(void)
{
    test_anchored_patterns();
    test_unanchored_patterns();
    test_include_and_exclude();
    test_config();
    test_ranking_keep_files();
    test_lines_and_spectra();
    return check_report("path_filter");
}
