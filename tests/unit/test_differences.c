/*
 * test_differences.c - what the oracle keeps of a wrong output besides the
 * line numbers (src/run/oracle_differences.c): the expected line of each
 * changed, extra or missing line of the expected-output diff, a missing
 * final newline, cut long lines, the bound per test (validators' and the
 * HTML check's notes are tested with them, in test_oracle.c); and the
 * store's side: a round trip
 * through judgements.differences (src/store/difference_blob.c), a blob
 * that is corrupt, and a version-3 store upgraded to version 4 whose old
 * judgements read back with no differences.
 */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "culprit/judgement.h"
#include "culprit/oracle.h"
#include "oracle_fixture.h"

static void expect_differences(const culprit_oracle *oracle, const char *out, const char *expected)
{
    culprit_judgement j = judge_exit(oracle, 0, out, "");
    CHECK_STR(describe_differences(&j.differences), expected);
    culprit_judgement_free(&j);
}

static void test_diff(void)
{
    culprit_oracle oracle = {.expect_stdout_text = "1\n2\n3\n4\n5\n6\n7\n8\n"};
    expect_differences(&oracle, "1\n2\n3\n4\n5\n6\n7\n8\n", "");
    expect_differences(&oracle, "1\n2\nthree\n4\n5\n6\nseven\n8\n",
                       "changed 3:3 3|three|-; changed 7:7 7|seven|-");
    /* an inserted line is extra, before the expected line it pushed down */
    expect_differences(&oracle, "1\n2\n3\nextra\n4\n5\n6\n7\n8\n", "extra 4:4 -|extra|-");
    /* a missing line, before the actual line where it is missing */
    expect_differences(&oracle, "1\n2\n4\n5\n6\n7\n8\n", "missing 3:3 3|-|-");
    /* missing at the end: after the last line */
    expect_differences(&oracle, "1\n2\n3\n4\n5\n6\n", "missing 7:7 7|-|-; missing 7:8 8|-|-");
    /* two lines for one: a changed pair, then an extra line */
    expect_differences(&oracle, "1\n2\n3\n4a\n4b\n5\n6\n7\n8\n", "changed 4:4 4|4a|-; extra 5:5 -|4b|-");
    /* the final newline, when exact, is the difference */
    expect_differences(&oracle, "1\n2\n3\n4\n5\n6\n7\n8", "changed 8:8 8|8$|-");
    /* an empty output: every expected line is missing */
    culprit_oracle two = {.expect_stdout_text = "a\nb\n"};
    expect_differences(&two, "", "missing 1:1 a|-|-; missing 1:2 b|-|-");
    /* the texts are the lines as printed, not as compared */
    culprit_oracle loose = {.expect_stdout_text = "a  b\nc\n", .compare = CULPRIT_COMPARE_WHITESPACE};
    expect_differences(&loose, " a b \nC", "changed 2:2 c|C|-");
    /* kept after a wrong exit status too, where the wrong lines are */
    culprit_judgement j = judge_exit(&oracle, 2, "1\n2\n3\n4\n5\nsix\n7\n8\n", "");
    CHECK_STR(j.message, "exit status 2, expected 0");
    CHECK_STR(describe_differences(&j.differences), "changed 6:6 6|six|-");
    culprit_judgement_free(&j);
}

/* Long lines are cut around where they differ; past the bound,
 * differences are only counted. */
static void test_bounds(void)
{
    char expected[1200], actual[1200];
    memset(expected, 'x', 1000);
    memcpy(actual, expected, 1000);
    actual[700] = 'Y';
    strcpy(expected + 1000, "\n");
    strcpy(actual + 1000, "\n");
    culprit_oracle oracle = {.expect_stdout_text = expected};
    culprit_judgement j = judge_exit(&oracle, 0, actual, "");
    CHECK_INT(j.differences.count, 1);
    if (j.differences.count == 1) {
        const char *e = j.differences.items[0].expected, *a = j.differences.items[0].actual;
        size_t mark = strlen("\xe2\x80\xa6");
        CHECK_INT(strlen(e), CULPRIT_DIFFERENCE_TEXT_MAX + 2 * mark);
        CHECK(strncmp(e, "\xe2\x80\xa6", mark) == 0 && strncmp(a, "\xe2\x80\xa6", mark) == 0);
        /* the first difference is in view, at the same place on both sides */
        const char *y = strchr(a, 'Y');
        CHECK(y && (size_t)(y - a) == mark + CULPRIT_DIFFERENCE_TEXT_MAX / 4);
        CHECK(y && e[y - a] == 'x');
    }
    culprit_judgement_free(&j);
    /* a cut never splits a UTF-8 character */
    char wide[1200] = "a"; /* the characters start at odd bytes: byte 200 is inside one */
    for (int i = 0; i < 150; i++)
        strcat(wide, "\xc3\xa9"); /* é */
    strcat(wide, "\n");
    culprit_oracle other = {.expect_stdout_text = "e\n"};
    j = judge_exit(&other, 0, wide, "");
    CHECK_INT(j.differences.count, 1);
    if (j.differences.count == 1) {
        const char *a = j.differences.items[0].actual;
        size_t length = strlen(a);
        CHECK(length <= CULPRIT_DIFFERENCE_TEXT_MAX + 3);
        CHECK_STR(a + length - 3, "\xe2\x80\xa6");
        CHECK((unsigned char)a[length - 4] == 0xa9 && (unsigned char)a[length - 5] == 0xc3);
    }
    culprit_judgement_free(&j);
    /* 120 wrong lines: the first CULPRIT_DIFFERENCES_MAX kept, the rest counted */
    char many[2000] = "", other_lines[2000] = "";
    for (int i = 0; i < 120; i++) {
        strcat(many, "a\n");
        strcat(other_lines, "b\n");
    }
    culprit_oracle all_a = {.expect_stdout_text = many};
    j = judge_exit(&all_a, 0, other_lines, "");
    CHECK_INT(j.wrong_line_count, 120);
    CHECK_INT(j.differences.count, CULPRIT_DIFFERENCES_MAX);
    CHECK_INT(j.differences.omitted, 120 - CULPRIT_DIFFERENCES_MAX);
    CHECK_INT(j.differences.count ? j.differences.items[j.differences.count - 1].actual_line : 0,
              CULPRIT_DIFFERENCES_MAX);
    culprit_judgement_free(&j);
}

static void test_store_round_trip(void)
{
    int64_t program;
    culprit_store *store = store_with_tests("store", &program);
    culprit_oracle oracle = {.expect_stdout_text = "1\n2\n3"};
    culprit_judgement j = judge_exit(&oracle, 0, "1\nTWO\n3\nfour\n", "");
    const char *made = describe_differences(&j.differences);
    CHECK_STR(made, "changed 2:2 2|TWO|-; changed 3:3 3$|3|-; extra 4:4 -|four|-");
    culprit_error err;
    CHECK_INT(culprit_store_save_judgement(store, program, "t1", &j, &err), CULPRIT_OK);
    culprit_judgement_free(&j);
    j = (culprit_judgement){.verdict = CULPRIT_VERDICT_FAIL, .message = "m", .signature = "s"};
    CHECK_INT(culprit_store_save_judgement(store, program, "t2", &j, &err), CULPRIT_OK);
    culprit_test_records records;
    CHECK_INT(culprit_test_records_load(store, program, &records, &err), CULPRIT_OK);
    CHECK_INT(records.count, 2);
    if (records.count == 2) {
        CHECK_STR(describe_differences(&records.tests[0].differences),
                  "changed 2:2 2|TWO|-; changed 3:3 3$|3|-; extra 4:4 -|four|-");
        CHECK_INT(records.tests[1].differences.count, 0);
    }
    culprit_test_records_free(&records);
    culprit_test_output output;
    CHECK_INT(culprit_store_load_test_output(store, program, "t1", &output, &err), CULPRIT_OK);
    CHECK_STR(describe_differences(&output.differences),
              "changed 2:2 2|TWO|-; changed 3:3 3$|3|-; extra 4:4 -|four|-");
    CHECK_INT(output.wrong_line_count, 3);
    culprit_test_output_free(&output);
    culprit_store_close(store);
    /* a blob that does not decode is corruption, named */
    raw_sql("store", "UPDATE judgements SET differences = x'0105' WHERE differences IS NOT NULL");
    CHECK_INT(culprit_store_open(path_of("store"), CULPRIT_STORE_READ, &store, &err), CULPRIT_OK);
    CHECK_INT(culprit_test_records_load(store, program, &records, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "store is corrupt: the differences of test 't1'");
    culprit_store_close(store);
}

/* A version-3 store (judgements without differences) upgrades to 4: its
 * judgements read back with none, and new ones keep theirs. */
static void test_migration(void)
{
    int64_t program;
    culprit_store *store = store_with_tests("old", &program);
    culprit_judgement j = {.verdict = CULPRIT_VERDICT_FAIL, .message = "old", .signature = "old"};
    culprit_error err;
    CHECK_INT(culprit_store_save_judgement(store, program, "t1", &j, &err), CULPRIT_OK);
    culprit_store_close(store);
    raw_sql("old", "DROP TABLE test_commands;"                                        /* version 8's */
                   "DROP TABLE program_plans;"                                        /* version 7's */
                   "DROP TRIGGER tests_cores_replaced; DROP TABLE trace_cores;"       /* version 6's */
                   "DROP TRIGGER tests_mutant_runs_replaced; DROP TABLE mutant_runs;" /* version 5's */
                   "ALTER TABLE judgements DROP COLUMN differences; PRAGMA user_version = 3");
    CHECK_INT(culprit_store_open(path_of("old"), CULPRIT_STORE_WRITE, &store, &err), CULPRIT_OK);
    culprit_oracle oracle = {.expect_stdout_text = "x\n"};
    j = judge_exit(&oracle, 0, "y\n", "");
    CHECK_INT(culprit_store_save_judgement(store, program, "t2", &j, &err), CULPRIT_OK);
    culprit_judgement_free(&j);
    culprit_test_records records;
    CHECK_INT(culprit_test_records_load(store, program, &records, &err), CULPRIT_OK);
    if (records.count == 2) {
        CHECK(records.tests[0].judged);
        CHECK_STR(records.tests[0].message, "old");
        CHECK_INT(records.tests[0].differences.count, 0);
        CHECK_STR(describe_differences(&records.tests[1].differences), "changed 1:1 x|y|-");
    }
    culprit_test_records_free(&records);
    culprit_store_close(store);
    CHECK_INT(schema_version("old"), CULPRIT_STORE_SCHEMA_VERSION);
}

int main(void)
{
    if (!mkdtemp(work))
        return 2;
    test_diff();
    test_bounds();
    test_store_round_trip();
    test_migration();
    char command[600];
    snprintf(command, sizeof command, "rm -rf '%s'", work);
    if (system(command) != 0)
        return 2;
    return check_report("test_differences");
}
