/*
 * test_eval.c - unit tests of the effectiveness measures (src/core/eval.c):
 * the faults file and its error messages, path matching, executable lines,
 * rank/EXAM on a hand-built ranking with ties, and the summary statistics
 * and curve.  Every expected value is worked out by hand in the comments.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "culprit/eval.h"
#include "culprit/rank.h"
#include "culprit/spectra.h"

/* Parses text as the faults file "f.txt"; returns the status, err holds the message. */
static culprit_status parse(const char *text, culprit_fault_list *faults, culprit_error *err)
{
    culprit_fault_list_init(faults);
    culprit_error_clear(err);
    return culprit_faults_parse("f.txt", text, strlen(text), faults, err);
}

static void test_parse_valid(void)
{
    culprit_fault_list faults;
    culprit_error err;
    const char *text = "# faults of v3\n"
                       "\n"
                       "src/mid.c:7\n"
                       "   lib/util.c:120   # the off-by-one\n"
                       "my dir/a#b.c:3\r\n"
                       "\t/abs/x.c:1";
    CHECK_INT(parse(text, &faults, &err), CULPRIT_OK);
    CHECK_INT(faults.count, 4);
    CHECK_STR(faults.path, "f.txt");
    if (faults.count == 4) {
        CHECK_STR(faults.faults[0].file, "src/mid.c");
        CHECK_INT(faults.faults[0].line, 7);
        CHECK_INT(faults.faults[0].source_line, 3);
        CHECK_STR(faults.faults[1].file, "lib/util.c");
        CHECK_INT(faults.faults[1].line, 120);
        CHECK_INT(faults.faults[1].source_line, 4);
        /* Blanks inside a path are kept; '#' inside a word is not a comment. */
        CHECK_STR(faults.faults[2].file, "my dir/a#b.c");
        CHECK_INT(faults.faults[2].line, 3);
        CHECK_STR(faults.faults[3].file, "/abs/x.c");
        CHECK_INT(faults.faults[3].source_line, 6);
    }
    culprit_fault_list_free(&faults);
}

/* The message of parsing text, which must fail. */
static void check_parse_error(const char *text, const char *expected)
{
    culprit_fault_list faults;
    culprit_error err;
    CHECK_INT(parse(text, &faults, &err), CULPRIT_ERROR_INPUT);
    CHECK_INT(err.status, CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, expected);
    culprit_fault_list_free(&faults);
}

static void test_parse_errors(void)
{
    check_parse_error("src/x.c\n", "f.txt:1:1: expected FILE:LINE, found no ':' in 'src/x.c'");
    check_parse_error("# c\n\n  src/x.c  # no line\n",
                      "f.txt:3:3: expected FILE:LINE, found no ':' in 'src/x.c'");
    check_parse_error("  :12\n", "f.txt:1:3: expected FILE:LINE, the file name is missing");
    check_parse_error("src/x.c:\n", "f.txt:1:9: expected FILE:LINE, the line number is missing after ':'");
    check_parse_error("a.c:1\nsrc/x.c:1a\n",
                      "f.txt:2:10: expected FILE:LINE, 'a' is not a digit of the line number");
    check_parse_error("src/x.c:12 13\n",
                      "f.txt:1:11: expected FILE:LINE, ' ' is not a digit of the line number");
    check_parse_error("x.c:-4\n", "f.txt:1:5: expected FILE:LINE, '-' is not a digit of the line number");
    check_parse_error("x.c:1\x01\n",
                      "f.txt:1:6: expected FILE:LINE, byte 0x01 is not a digit of the line number");
    check_parse_error("src/x.c:0\n", "f.txt:1:9: expected FILE:LINE, line numbers start at 1");
    check_parse_error("src/x.c:99999999999\n",
                      "f.txt:1:9: expected FILE:LINE, line number 99999999999 is too large");
    check_parse_error("src/x.c:4294967296\n",
                      "f.txt:1:9: expected FILE:LINE, line number 4294967296 is too large");
    check_parse_error("src/x.c:12:5\n", "f.txt:1:8: expected FILE:LINE, not FILE:LINE:COLUMN");
    check_parse_error("", "f.txt: no faulty lines in the file (expected FILE:LINE lines)");
    check_parse_error("# only\n\n   \n", "f.txt: no faulty lines in the file (expected FILE:LINE lines)");

    /* The largest line number fits. */
    culprit_fault_list faults;
    culprit_error err;
    CHECK_INT(parse("x.c:4294967295", &faults, &err), CULPRIT_OK);
    CHECK_INT(faults.count == 1 ? faults.faults[0].line : 0, 4294967295u);
    culprit_fault_list_free(&faults);
}

static void test_read_missing_file(void)
{
    culprit_fault_list faults;
    culprit_error err;
    culprit_fault_list_init(&faults);
    CHECK_INT(culprit_faults_read("/nonexistent/faults.txt", &faults, &err), CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, "cannot open /nonexistent/faults.txt: No such file or directory");
    culprit_fault_list_free(&faults);
}

static void test_path_matches(void)
{
    CHECK(culprit_path_matches("src/x.c", "src/x.c"));
    CHECK(culprit_path_matches("src/x.c", "/home/me/proj/src/x.c"));
    CHECK(culprit_path_matches("/home/me/proj/src/x.c", "src/x.c"));
    CHECK(culprit_path_matches("./src/x.c", "src/x.c"));
    CHECK(culprit_path_matches("x.c", "src/x.c"));
    CHECK(!culprit_path_matches("ssrc/x.c", "src/x.c")); /* not on a '/' boundary */
    CHECK(!culprit_path_matches("src/x.c", "ssrc/x.c"));
    CHECK(!culprit_path_matches("x.c", "src/yx.c"));
    CHECK(!culprit_path_matches("src/x.c", "lib/x.c"));
    CHECK(!culprit_path_matches("", "src/x.c"));
    CHECK(!culprit_path_matches("src/x.c", "src/x.c.orig"));
}

/*
 * The program of the measure tests: files /abs/src/a.c (0), src/b.c (1),
 * lib/b.c (2, no elements).  Line elements a.c:1..5 and b.c:1..3, plus a
 * block on a.c:1 and a block on a.c:6 (only in the all-kinds view).
 */
static void build_program(culprit_spectra *spectra, culprit_tally **tallies)
{
    culprit_spectra_init(spectra);
    uint32_t a, b, lib_b, index;
    culprit_spectra_add_file(spectra, "/abs/src/a.c", &a, NULL);
    culprit_spectra_add_file(spectra, "src/b.c", &b, NULL);
    culprit_spectra_add_file(spectra, "lib/b.c", &lib_b, NULL);
    for (uint32_t line = 1; line <= 5; line++)
        culprit_spectra_add_element(spectra, CULPRIT_KIND_LINE, a, line, 0, NULL, &index, NULL); /* 0..4 */
    for (uint32_t line = 1; line <= 3; line++)
        culprit_spectra_add_element(spectra, CULPRIT_KIND_LINE, b, line, 0, NULL, &index, NULL); /* 5..7 */
    culprit_spectra_add_element(spectra, CULPRIT_KIND_BLOCK, a, 1, 0, NULL, &index, NULL);       /* 8 */
    culprit_spectra_add_element(spectra, CULPRIT_KIND_BLOCK, a, 6, 0, NULL, &index, NULL);       /* 9 */
    /* Not executed by any test: a.c:2, a.c:5, b.c:3 and the block on a.c:6. */
    *tallies = calloc(spectra->element_count, sizeof **tallies);
    const uint32_t executed[] = {0, 2, 3, 5, 6, 8};
    for (size_t i = 0; i < sizeof executed / sizeof executed[0]; i++)
        (*tallies)[executed[i]] = (culprit_tally){.ef = 1, .ep = 1, .nf = 0, .np = 1};
}

static const culprit_rank_options line_options = {.kind = CULPRIT_KIND_LINE, .view = CULPRIT_VIEW_LINE};

static void test_program_lines(void)
{
    culprit_spectra spectra;
    culprit_tally *tallies;
    build_program(&spectra, &tallies);
    culprit_program_lines lines;
    culprit_error err;
    CHECK_INT(culprit_program_lines_build(&spectra, tallies, &line_options, &lines, &err), CULPRIT_OK);
    CHECK_INT(lines.count, 8);
    CHECK_INT(lines.executed_count, 5); /* a.c:1,3,4 and b.c:1,2 */
    CHECK_INT(lines.lines[0].file, 0);
    CHECK_INT(lines.lines[0].line, 1);
    CHECK(lines.lines[0].executed);
    CHECK(!lines.lines[1].executed); /* a.c:2 */
    culprit_program_lines_free(&lines);

    /* All kinds: the block on a.c:1 merges with the line; a.c:6 is new and never ran. */
    culprit_rank_options all = {.all_kinds = true, .view = CULPRIT_VIEW_LINE};
    CHECK_INT(culprit_program_lines_build(&spectra, tallies, &all, &lines, &err), CULPRIT_OK);
    CHECK_INT(lines.count, 9);
    CHECK_INT(lines.executed_count, 5);
    culprit_program_lines_free(&lines);
    free(tallies);
    culprit_spectra_free(&spectra);
}

/* Resolves the faults file text against the program; returns the status. */
static culprit_status resolve(const char *text, culprit_fault_location *locations, culprit_error *err)
{
    culprit_spectra spectra;
    culprit_tally *tallies;
    build_program(&spectra, &tallies);
    culprit_program_lines lines;
    culprit_program_lines_build(&spectra, tallies, &line_options, &lines, err);
    culprit_fault_list faults;
    culprit_status status = parse(text, &faults, err);
    if (!status)
        status = culprit_faults_resolve(&faults, &spectra, &lines, locations, err);
    culprit_fault_list_free(&faults);
    culprit_program_lines_free(&lines);
    free(tallies);
    culprit_spectra_free(&spectra);
    return status;
}

static void test_resolve(void)
{
    culprit_fault_location locations[4];
    culprit_error err;
    /* a.c by suffix of the absolute path, src/b.c exactly (although lib/b.c
     * also ends in b.c), and the absolute path itself. */
    CHECK_INT(resolve("src/a.c:3\nsrc/b.c:2\n/abs/src/a.c:5\n./src/b.c:1\n", locations, &err), CULPRIT_OK);
    CHECK_INT(locations[0].file, 0);
    CHECK_INT(locations[0].line, 3);
    CHECK_INT(locations[1].file, 1);
    CHECK_INT(locations[1].line, 2);
    CHECK_INT(locations[2].file, 0);
    CHECK_INT(locations[3].file, 1);

    CHECK_INT(resolve("src/a.c:3\nsrc/a.c:6\n", locations, &err), CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, "f.txt:2: faulty line src/a.c:6 is not an executable line of the program");
    CHECK_INT(resolve("lib/b.c:1\n", locations, &err), CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, "f.txt:1: faulty line lib/b.c:1 is not an executable line of the program");
    CHECK_INT(resolve("\nsrc/c.c:1\n", locations, &err), CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, "f.txt:2: faulty line src/c.c:1 is not in the program: no file of the program "
                           "matches src/c.c");
    CHECK_INT(resolve("b.c:1\n", locations, &err), CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, "f.txt:1: faulty line b.c:1 is ambiguous: the program has src/b.c and lib/b.c; "
                           "write more of the path");
}

/*
 * A hand-built line ranking of the program above (8 lines):
 *   position  line     score  tie group       best worst average
 *   1         a.c:3    0.9    {1}             1    1     1
 *   2-4       a.c:1,   0.7    {2,3,4}         2    4     3
 *             b.c:2,
 *             a.c:4
 *   5         b.c:1    0.5    {5}             5    5     5
 *   6-8       a.c:2,   0      {6,7,8}         6    8     7
 *             a.c:5,
 *             b.c:3
 */
static void build_ranking(culprit_ranking *ranking)
{
    static const struct {
        uint32_t file, line;
        double score, best, worst;
    } rows[] = {
        {0, 3, 0.9, 1, 1}, {0, 1, 0.7, 2, 4}, {1, 2, 0.7, 2, 4}, {0, 4, 0.7, 2, 4},
        {1, 1, 0.5, 5, 5}, {0, 2, 0.0, 6, 8}, {0, 5, 0.0, 6, 8}, {1, 3, 0.0, 6, 8},
    };
    ranking->count = sizeof rows / sizeof rows[0];
    ranking->entries = calloc(ranking->count, sizeof *ranking->entries);
    for (size_t i = 0; i < ranking->count; i++)
        ranking->entries[i] = (culprit_ranked){
            .file = rows[i].file,
            .line = rows[i].line,
            .score = rows[i].score,
            .confidence = NAN,
            .best_rank = rows[i].best,
            .worst_rank = rows[i].worst,
            .average_rank = (rows[i].best + rows[i].worst) / 2,
        };
}

/* Measures the hand-built ranking against faults (file, line pairs). */
static culprit_status measure(const culprit_fault_location *faults, size_t count, culprit_tie_policy ties,
                              culprit_eval_measures *measures, culprit_error *err)
{
    culprit_spectra spectra;
    culprit_tally *tallies;
    build_program(&spectra, &tallies);
    culprit_program_lines lines;
    culprit_program_lines_build(&spectra, tallies, &line_options, &lines, err);
    culprit_ranking ranking;
    build_ranking(&ranking);
    culprit_status status = culprit_eval_measure(&ranking, &lines, faults, count, ties, measures, err);
    culprit_ranking_free(&ranking);
    culprit_program_lines_free(&lines);
    free(tallies);
    culprit_spectra_free(&spectra);
    return status;
}

static void test_measure_ties(void)
{
    /* Faults b.c:1 (position 5) and b.c:2 (in the tie group 2-4): the first
     * faulty line is b.c:2, the second fault given. */
    const culprit_fault_location faults[] = {{1, 1}, {1, 2}};
    culprit_eval_measures m;
    culprit_error err;
    CHECK_INT(measure(faults, 2, CULPRIT_TIES_WORST, &m, &err), CULPRIT_OK);
    CHECK_INT(m.first_fault, 1);
    CHECK_INT(m.entry, 2);
    CHECK_NEAR(m.best_rank, 2, 0);
    CHECK_NEAR(m.worst_rank, 4, 0);
    CHECK_NEAR(m.average_rank, 3, 0);
    CHECK_NEAR(m.rank, 4, 0);
    CHECK_INT(m.executable_lines, 8);
    CHECK_INT(m.executed_lines, 5);
    CHECK_NEAR(m.exam, 0.5, 1e-15);          /* 4 / 8 */
    CHECK_NEAR(m.exam_executed, 0.8, 1e-15); /* 4 / 5 */
    CHECK(!m.well_localized);

    CHECK_INT(measure(faults, 2, CULPRIT_TIES_AVERAGE, &m, &err), CULPRIT_OK);
    CHECK_NEAR(m.rank, 3, 0);
    CHECK_NEAR(m.exam, 0.375, 1e-15); /* 3 / 8 */
    CHECK_NEAR(m.exam_executed, 0.6, 1e-15);

    CHECK_INT(measure(faults, 2, CULPRIT_TIES_BEST, &m, &err), CULPRIT_OK);
    CHECK_NEAR(m.rank, 2, 0);
    CHECK_NEAR(m.exam, 0.25, 1e-15);

    /* A fault never executed: last tie group; EXAM over executed lines exceeds 1. */
    const culprit_fault_location unexecuted[] = {{0, 5}};
    CHECK_INT(measure(unexecuted, 1, CULPRIT_TIES_WORST, &m, &err), CULPRIT_OK);
    CHECK_NEAR(m.best_rank, 6, 0);
    CHECK_NEAR(m.worst_rank, 8, 0);
    CHECK_NEAR(m.exam, 1.0, 0);
    CHECK_NEAR(m.exam_executed, 1.6, 1e-15); /* 8 / 5 */

    /* The top line alone. */
    const culprit_fault_location top[] = {{1, 3}, {0, 3}};
    CHECK_INT(measure(top, 2, CULPRIT_TIES_WORST, &m, &err), CULPRIT_OK);
    CHECK_INT(m.first_fault, 1);
    CHECK_NEAR(m.rank, 1, 0);
    CHECK_NEAR(m.exam, 0.125, 0);

    CHECK_INT(measure(top, 0, CULPRIT_TIES_WORST, &m, &err), CULPRIT_ERROR_INPUT);
}

static void test_measure_mismatch(void)
{
    culprit_program_lines lines = {.count = 3};
    culprit_ranking ranking;
    build_ranking(&ranking);
    const culprit_fault_location faults[] = {{0, 3}};
    culprit_eval_measures m;
    culprit_error err;
    CHECK_INT(culprit_eval_measure(&ranking, &lines, faults, 1, CULPRIT_TIES_WORST, &m, &err),
              CULPRIT_ERROR_INTERNAL);
    CHECK_STR(err.message, "the ranking has 8 lines but the program has 3 executable lines");
    culprit_ranking_free(&ranking);
}

/* Well-localized is EXAM < 1%, strictly: rank 1 of 200 is 0.5%, rank 2 is 1%. */
static void test_well_localized(void)
{
    enum { LINES = 200 };
    culprit_ranking ranking = {.count = LINES, .entries = calloc(LINES, sizeof(culprit_ranked))};
    culprit_program_lines lines = {.count = LINES, .executed_count = 100};
    lines.lines = calloc(LINES, sizeof *lines.lines);
    for (uint32_t i = 0; i < LINES; i++) {
        ranking.entries[i] = (culprit_ranked){
            .file = 0, .line = i + 1, .best_rank = i + 1, .worst_rank = i + 1, .average_rank = i + 1};
        lines.lines[i] = (culprit_program_line){.file = 0, .line = i + 1, .executed = i < 100};
    }
    culprit_eval_measures m;
    culprit_error err;
    const culprit_fault_location first[] = {{0, 1}};
    CHECK_INT(culprit_eval_measure(&ranking, &lines, first, 1, CULPRIT_TIES_WORST, &m, &err), CULPRIT_OK);
    CHECK_NEAR(m.exam, 0.005, 1e-15);
    CHECK_NEAR(m.exam_executed, 0.01, 1e-15);
    CHECK(m.well_localized);
    const culprit_fault_location second[] = {{0, 2}};
    CHECK_INT(culprit_eval_measure(&ranking, &lines, second, 1, CULPRIT_TIES_WORST, &m, &err), CULPRIT_OK);
    CHECK_NEAR(m.exam, 0.01, 1e-15);
    CHECK(!m.well_localized);
    free(lines.lines);
    culprit_ranking_free(&ranking);
}

/* The measures through the real culprit_rank, to check the two agree on
 * which lines exist: a.c:1 is hit by the failing test only (ranked first);
 * the others by both tests or none. */
static void test_measure_with_rank(void)
{
    culprit_spectra spectra;
    culprit_tally *unused;
    build_program(&spectra, &unused);
    free(unused);
    size_t pass, fail;
    culprit_spectra_add_test(&spectra, "t_pass", CULPRIT_VERDICT_PASS, &pass, NULL);
    culprit_spectra_add_test(&spectra, "t_fail", CULPRIT_VERDICT_FAIL, &fail, NULL);
    culprit_spectra_set_hit(&spectra, fail, 0); /* a.c:1 */
    const uint32_t both[] = {2, 3, 5, 6};       /* a.c:3, a.c:4, b.c:1, b.c:2 */
    for (size_t i = 0; i < 4; i++) {
        culprit_spectra_set_hit(&spectra, pass, both[i]);
        culprit_spectra_set_hit(&spectra, fail, both[i]);
    }
    culprit_tally tallies[10];
    culprit_totals totals;
    culprit_verdict_policy policy = culprit_verdict_policy_default();
    culprit_error err;
    CHECK_INT(culprit_spectra_tally(&spectra, &policy, tallies, &totals, &err), CULPRIT_OK);
    /* Scores by hand: 1 for failing-only, 0.5 for both, 0 for none (Tarantula's values). */
    double scores[10];
    for (uint32_t e = 0; e < 10; e++)
        scores[e] = tallies[e].ef == 0 ? 0 : tallies[e].ep == 0 ? 1 : 0.5;
    culprit_ranking ranking;
    CHECK_INT(culprit_rank(&spectra, tallies, scores, NULL, &line_options, &ranking, &err), CULPRIT_OK);
    culprit_program_lines lines;
    CHECK_INT(culprit_program_lines_build(&spectra, tallies, &line_options, &lines, &err), CULPRIT_OK);
    CHECK_INT(lines.executed_count, 5);
    /* b.c:1 ties with a.c:3, a.c:4, b.c:2 at positions 2-5. */
    const culprit_fault_location faults[] = {{1, 1}};
    culprit_eval_measures m;
    CHECK_INT(culprit_eval_measure(&ranking, &lines, faults, 1, CULPRIT_TIES_WORST, &m, &err), CULPRIT_OK);
    CHECK_NEAR(m.best_rank, 2, 0);
    CHECK_NEAR(m.worst_rank, 5, 0);
    CHECK_NEAR(m.average_rank, 3.5, 0);
    CHECK_NEAR(m.exam, 5.0 / 8, 1e-15);
    CHECK_NEAR(m.exam_executed, 1.0, 1e-15);
    culprit_program_lines_free(&lines);
    culprit_ranking_free(&ranking);
    culprit_spectra_free(&spectra);
}

static const culprit_eval_summary *find_summary(const culprit_eval_summaries *all, const char *technique)
{
    for (size_t i = 0; i < all->count; i++)
        if (strcmp(all->items[i].technique, technique) == 0)
            return &all->items[i];
    return NULL;
}

static void check_curve(const culprit_eval_summary *s, const double (*expected)[2], size_t count)
{
    CHECK_INT(s->curve_count, count);
    for (size_t i = 0; i < count && i < s->curve_count; i++) {
        CHECK_NEAR(s->curve[i].code_percent, expected[i][0], 1e-9);
        CHECK_NEAR(s->curve[i].faults_percent, expected[i][1], 1e-9);
    }
}

/*
 * tarantula over four versions: EXAM 0.5%, 5%, 30%, 12% with ranks 1, 4, 30, 12.
 *   mean = 0.475 / 4 = 0.11875; sample sd = 0.12976742015364770 (sqrt(0.050519 / 3)).
 *   within 1%: {0.5%} 25%; 5%: +5% = 50%; 10%: 50%; 15%: +12% = 75%; 20%: 75%.
 *   top-1: 1; top-5: 2 (ranks 1, 4); top-10: 2.  well-localized: 25%.
 *   curve: (0,0) (0.5,25) (5,50) (12,75) (30,100) (100,100).
 * ochiai over two versions: EXAM 1% (rank 2) and 15% (rank 6).
 *   mean 0.08; sd sqrt(2 * 0.07^2) = 0.098994949366116653.
 *   within 1%: 50% (<= counts); well-localized: 0% (< does not).
 *   top-1: 0; top-5: 1; top-10: 2.  curve: (0,0) (1,50) (15,100) (100,100).
 */
static void test_summary(void)
{
    const culprit_eval_record records[] = {
        {"tarantula", "v1", 1, 0.005}, {"ochiai", "v1", 2, 0.01},     {"tarantula", "v2", 4, 0.05},
        {"ochiai", "v2", 6, 0.15},     {"tarantula", "v3", 30, 0.30}, {"tarantula", "v4", 12, 0.12},
    };
    culprit_eval_summaries all;
    culprit_error err;
    CHECK_INT(culprit_eval_summarize(records, 6, &all, &err), CULPRIT_OK);
    CHECK_INT(all.count, 2);
    CHECK_STR(all.items[0].technique, "tarantula"); /* order of first appearance */
    CHECK_STR(all.items[1].technique, "ochiai");

    const culprit_eval_summary *t = find_summary(&all, "tarantula");
    CHECK_INT(t->fault_count, 4);
    CHECK_NEAR(t->exam_mean, 0.11875, 1e-15);
    CHECK_NEAR(t->exam_sd, 0.1297674201536477, 1e-12);
    const double t_within[] = {25, 50, 50, 75, 75};
    for (size_t i = 0; i < CULPRIT_EVAL_THRESHOLD_COUNT; i++)
        CHECK_NEAR(t->within_percent[i], t_within[i], 1e-12);
    CHECK_INT(t->top_count[0], 1);
    CHECK_INT(t->top_count[1], 2);
    CHECK_INT(t->top_count[2], 2);
    CHECK_NEAR(t->top_percent[1], 50, 1e-12);
    CHECK_NEAR(t->well_localized_percent, 25, 1e-12);
    const double t_curve[][2] = {{0, 0}, {0.5, 25}, {5, 50}, {12, 75}, {30, 100}, {100, 100}};
    check_curve(t, t_curve, 6);

    const culprit_eval_summary *o = find_summary(&all, "ochiai");
    CHECK_INT(o->fault_count, 2);
    CHECK_NEAR(o->exam_mean, 0.08, 1e-15);
    CHECK_NEAR(o->exam_sd, 0.098994949366116653, 1e-12);
    CHECK_NEAR(o->within_percent[0], 50, 1e-12);
    CHECK_NEAR(o->within_percent[3], 100, 1e-12);
    CHECK_NEAR(o->well_localized_percent, 0, 0);
    CHECK_INT(o->top_count[0], 0);
    CHECK_INT(o->top_count[1], 1);
    CHECK_INT(o->top_count[2], 2);
    CHECK_NEAR(o->top_percent[2], 100, 1e-12);
    const double o_curve[][2] = {{0, 0}, {1, 50}, {15, 100}, {100, 100}};
    check_curve(o, o_curve, 4);
    culprit_eval_summaries_free(&all);
}

static void test_summary_edge_cases(void)
{
    culprit_eval_summaries all;
    culprit_error err;

    /* One fault: no sample standard deviation. */
    const culprit_eval_record one[] = {{"dstar", "v1", 3, 0.3}};
    CHECK_INT(culprit_eval_summarize(one, 1, &all, &err), CULPRIT_OK);
    CHECK(isnan(all.items[0].exam_sd));
    CHECK_NEAR(all.items[0].exam_mean, 0.3, 0);
    culprit_eval_summaries_free(&all);

    /* Equal EXAMs make one corner; EXAM above 1 (over executed lines, a
     * faulty line that never ran) is never located. */
    const culprit_eval_record steps[] = {
        {"x", "v1", 1, 0.1}, {"x", "v2", 1, 0.1}, {"x", "v3", 5, 0.5}, {"x", "v4", 9, 1.5}};
    CHECK_INT(culprit_eval_summarize(steps, 4, &all, &err), CULPRIT_OK);
    const double curve[][2] = {{0, 0}, {10, 50}, {50, 75}, {100, 75}};
    check_curve(&all.items[0], curve, 4);
    culprit_eval_summaries_free(&all);

    /* The whole program examined: the last corner is at 100 already. */
    const culprit_eval_record whole[] = {{"x", "v1", 4, 1.0}};
    CHECK_INT(culprit_eval_summarize(whole, 1, &all, &err), CULPRIT_OK);
    const double whole_curve[][2] = {{0, 0}, {100, 100}};
    check_curve(&all.items[0], whole_curve, 2);
    culprit_eval_summaries_free(&all);

    const culprit_eval_record twice[] = {{"x", "v1", 1, 0.1}, {"y", "v1", 1, 0.1}, {"x", "v1", 2, 0.2}};
    CHECK_INT(culprit_eval_summarize(twice, 3, &all, &err), CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, "version v1 appears twice for x");

    const culprit_eval_record not_a_number[] = {{"x", "v1", 1, NAN}};
    CHECK_INT(culprit_eval_summarize(not_a_number, 1, &all, &err), CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, "x, version v1: EXAM or rank is not a number");

    CHECK_INT(culprit_eval_summarize(NULL, 0, &all, &err), CULPRIT_OK);
    CHECK_INT(all.count, 0);
    culprit_eval_summaries_free(&all);
}

int main(void)
{
    test_parse_valid();
    test_parse_errors();
    test_read_missing_file();
    test_path_matches();
    test_program_lines();
    test_resolve();
    test_measure_ties();
    test_measure_mismatch();
    test_well_localized();
    test_measure_with_rank();
    test_summary();
    test_summary_edge_cases();
    return check_report("eval");
}
