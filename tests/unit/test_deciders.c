/*
 * test_deciders.c - what a ranked line reports (include/culprit/rank.h,
 * src/techniques/deciders.c): the line's own counts, apart from the
 * element its score came from and that element's counts, and that element
 * in words (src/report/describe.c), as every report shows it.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "culprit/rank.h"
#include "culprit/report.h"
#include "culprit/techniques.h"

/* A line whose tuples no failing test ran: it reports the tests that ran
 * it, not its best tuple's (0, 0), and as no tuple scores above the line
 * itself, the line is its own decider.  Line 1 (one passing test ran it,
 * outcome "false") and its never-taken "true"; line 2, which the failing
 * test ran. */
static void test_line_counts(void)
{
    culprit_spectra spectra;
    uint32_t file, id;
    culprit_spectra_init(&spectra);
    culprit_spectra_add_file(&spectra, "own.c", &file, NULL);
    culprit_spectra_add_element(&spectra, CULPRIT_KIND_LINE, file, 1, 0, NULL, &id, NULL);
    culprit_spectra_add_element(&spectra, CULPRIT_KIND_LINE, file, 2, 0, NULL, &id, NULL);
    culprit_spectra_add_element(&spectra, CULPRIT_KIND_BRANCH, file, 1, 7, "own.c:1:7:true", &id, NULL);
    culprit_spectra_add_element(&spectra, CULPRIT_KIND_BRANCH, file, 1, 7, "own.c:1:7:false", &id, NULL);
    size_t passing, failing;
    culprit_spectra_add_test(&spectra, "p", CULPRIT_VERDICT_PASS, &passing, NULL);
    culprit_spectra_add_test(&spectra, "f", CULPRIT_VERDICT_FAIL, &failing, NULL);
    culprit_spectra_set_hit(&spectra, passing, 0);
    culprit_spectra_set_hit(&spectra, passing, 3);
    culprit_spectra_set_hit(&spectra, failing, 1);
    culprit_technique_input input = {.spectra = &spectra, .policy = culprit_verdict_policy_default()};
    culprit_rank_options options = {.kind = CULPRIT_KIND_LINE, .view = CULPRIT_VIEW_LINE};
    culprit_method_ranking ranked;
    culprit_error err = {0};
    CHECK_INT(culprit_rank_method(NULL, &input, &options, &ranked, &err), CULPRIT_OK);
    CHECK_INT(ranked.ranking.count, 2);
    const culprit_ranked *line1 = &ranked.ranking.entries[1];
    CHECK_INT(line1->element, 0);
    CHECK_INT(line1->tally.ep, 1);
    CHECK_INT(line1->tally.np, 0);
    CHECK_INT(line1->decider, 0);
    CHECK_INT(line1->decider_tally.ep, 1);
    culprit_method_ranking_free(&ranked);
    /* --kind all, line view: line 1's entry is its best element, but its
     * counts are still the line's. */
    options.all_kinds = true;
    culprit_method plain;
    CHECK_INT(culprit_method_find(NULL, "ochiai", &plain, &err), CULPRIT_OK);
    CHECK_INT(culprit_rank_method(&plain, &input, &options, &ranked, &err), CULPRIT_OK);
    for (size_t i = 0; i < ranked.ranking.count; i++) {
        const culprit_ranked *entry = &ranked.ranking.entries[i];
        CHECK_INT(entry->decider, entry->element);
        if (entry->line == 1)
            CHECK_INT(entry->tally.ep, 1);
    }
    culprit_method_ranking_free(&ranked);
    culprit_spectra_free(&spectra);
}

/* A program with blocks and no line elements: the line view's counts are
 * those of the tests that ran any block on the line. */
static void test_block_line_counts(void)
{
    culprit_spectra spectra;
    uint32_t file, id;
    culprit_spectra_init(&spectra);
    culprit_spectra_add_file(&spectra, "blocks.c", &file, NULL);
    culprit_spectra_add_element(&spectra, CULPRIT_KIND_BLOCK, file, 3, 0, "f:b0", &id, NULL);
    culprit_spectra_add_element(&spectra, CULPRIT_KIND_BLOCK, file, 3, 9, "f:b1", &id, NULL);
    size_t test;
    culprit_spectra_add_test(&spectra, "p0", CULPRIT_VERDICT_PASS, &test, NULL);
    culprit_spectra_set_hit(&spectra, test, 0);
    culprit_spectra_add_test(&spectra, "f", CULPRIT_VERDICT_FAIL, &test, NULL);
    culprit_spectra_set_hit(&spectra, test, 1);
    culprit_spectra_add_test(&spectra, "p1", CULPRIT_VERDICT_PASS, &test, NULL);
    culprit_technique_input input = {.spectra = &spectra, .policy = culprit_verdict_policy_default()};
    culprit_rank_options options = {.kind = CULPRIT_KIND_BLOCK, .view = CULPRIT_VIEW_LINE};
    culprit_method plain;
    culprit_method_ranking ranked;
    culprit_error err = {0};
    CHECK_INT(culprit_method_find(NULL, "ochiai", &plain, &err), CULPRIT_OK);
    CHECK_INT(culprit_rank_method(&plain, &input, &options, &ranked, &err), CULPRIT_OK);
    CHECK_INT(ranked.ranking.count, 1);
    if (ranked.ranking.count == 1) {
        const culprit_ranked *entry = &ranked.ranking.entries[0];
        CHECK_INT(entry->decider, 1);
        CHECK_INT(entry->decider_tally.ep, 0);
        CHECK_INT(entry->tally.ef, 1);
        CHECK_INT(entry->tally.ep, 1);
        CHECK_INT(entry->tally.nf, 0);
        CHECK_INT(entry->tally.np, 1);
    }
    culprit_method_ranking_free(&ranked);
    culprit_spectra_free(&spectra);
}

/* A source file and the elements culprit-cc would name on it. */
static const char source_text[] = "int f(int x, int y, int z)\n"
                                  "{\n"
                                  "    if (y < z && g(x, y) > 0)\n"
                                  "        return power(x);\n"
                                  "    for (int i = 0; i < x; i++) {}\n"
                                  "    switch (x) {}\n"
                                  "    return x < y\n"
                                  "        ? 1 : 2;\n"
                                  "    while (p && *p)\n"
                                  "    char *p = argc > 3 ? argv[3] : NULL;\n"
                                  "    if (x == 1 ||\n"
                                  "}\n";

static void write_source(const char *path)
{
    FILE *out = fopen(path, "w");
    CHECK(out != NULL);
    if (out) {
        fputs(source_text, out);
        fclose(out);
    }
}

typedef struct named {
    culprit_kind kind;
    uint32_t line, column;
    const char *suffix; /* after "PATH:LINE:COLUMN:" for branches and returns; the whole name otherwise */
    const char *with_source, *without_source;
} named;

static const named names[] = {
    {CULPRIT_KIND_BRANCH, 3, 11, "true", "branch `y < z` taken true", "branch at f.c:3:11 taken true"},
    {CULPRIT_KIND_BRANCH, 3, 26, "false", "branch `g(x, y) > 0` taken false",
     "branch at f.c:3:26 taken false"},
    {CULPRIT_KIND_BRANCH, 5, 23, "true", "branch `i < x` taken true", "branch at f.c:5:23 taken true"},
    {CULPRIT_KIND_BRANCH, 6, 13, "case 3", "switch `x` took case 3", "switch at f.c:6:13 took case 3"},
    {CULPRIT_KIND_BRANCH, 6, 13, "default", "switch `x` took default", "switch at f.c:6:13 took default"},
    {CULPRIT_KIND_BRANCH, 7, 14, "true", "branch `x < y` taken true", "branch at f.c:7:14 taken true"},
    {CULPRIT_KIND_BRANCH, 9, 5, "false", "branch `p && *p` taken false", "branch at f.c:9:5 taken false"},
    {CULPRIT_KIND_BRANCH, 9, 12, "true", "branch `p` taken true", "branch at f.c:9:12 taken true"},
    {CULPRIT_KIND_BRANCH, 10, 20, "true", "branch `argc > 3` taken true", "branch at f.c:10:20 taken true"},
    {CULPRIT_KIND_BRANCH, 11, 11, "true", "branch at f.c:11:11 taken true", NULL}, /* continues below */
    {CULPRIT_KIND_RETURN, 4, 16, "power()=negative", "`power()` returned negative", NULL},
    {CULPRIT_KIND_RETURN, 4, 16, "malloc()=nonnull", "`malloc()` returned non-null", NULL},
    {CULPRIT_KIND_BLOCK, 3, 5, "f:b2", "block b2 of f() at f.c:3", NULL},
    {CULPRIT_KIND_EDGE, 3, 5, "f:b2->b4", "edge b2->b4 of f() at f.c:3", NULL},
    {CULPRIT_KIND_BRANCH, 3, 0, "cond22_true", "branch `cond22_true`", NULL}, /* another tool's name */
    {CULPRIT_KIND_LINE, 4, 0, NULL, "line f.c:4", NULL},
};

static void test_descriptions(void)
{
    char directory[] = "/tmp/culprit-describe.XXXXXX", path[128], name[256], text[256];
    CHECK(mkdtemp(directory) != NULL);
    snprintf(path, sizeof path, "%s/f.c", directory);
    write_source(path);
    culprit_spectra spectra;
    culprit_spectra_init(&spectra);
    uint32_t file, id;
    culprit_spectra_add_file(&spectra, path, &file, NULL);
    size_t count = sizeof names / sizeof names[0];
    for (size_t i = 0; i < count; i++) {
        const named *n = &names[i];
        bool placed = n->kind == CULPRIT_KIND_BRANCH || n->kind == CULPRIT_KIND_RETURN;
        if (placed && strchr(n->suffix, '_') == NULL)
            snprintf(name, sizeof name, "%s:%u:%u:%s", path, n->line, n->column, n->suffix);
        else
            snprintf(name, sizeof name, "%s", n->suffix ? n->suffix : "");
        culprit_spectra_add_element(&spectra, n->kind, file, n->line, n->column, n->suffix ? name : NULL, &id,
                                    NULL);
    }
    culprit_sources sources;
    CHECK_INT(culprit_sources_init(&sources, &spectra, NULL, NULL), CULPRIT_OK);
    for (uint32_t i = 0; i < count; i++) {
        culprit_report_describe_element(&spectra, i, &sources, text, sizeof text);
        CHECK_STR(text, names[i].with_source);
        culprit_report_describe_element(&spectra, i, NULL, text, sizeof text);
        CHECK_STR(text, names[i].without_source ? names[i].without_source : names[i].with_source);
    }
    /* Cut to the buffer, always terminated. */
    culprit_report_describe_element(&spectra, 10, &sources, text, 8);
    CHECK_STR(text, "`power(");
    culprit_sources_free(&sources);
    culprit_spectra_free(&spectra);
    unlink(path);
    rmdir(directory);
}

int main(void)
{
    test_line_counts();
    test_block_line_counts();
    test_descriptions();
    return check_report("test_deciders");
}
