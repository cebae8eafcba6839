/*
 * test_differences.c - what the oracle keeps of a wrong output besides the
 * line numbers (src/run/oracle_differences.c): the expected line of each
 * changed, extra or missing line of the expected-output diff, a missing
 * final newline, cut long lines, the bound per test, validators' and the
 * HTML check's messages per line; and the store's side: a round trip
 * through judgements.differences (src/store/difference_blob.c), a blob
 * that is corrupt, and a version-3 store upgraded to version 4 whose old
 * judgements read back with no differences.
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "culprit/judgement.h"
#include "culprit/oracle.h"

static char work[] = "/tmp/test_differences.XXXXXX";

static const char *path_of(const char *name)
{
    static char paths[8][512];
    static int next;
    char *path = paths[next++ % 8];
    snprintf(path, 512, "%s/%s", work, name);
    return path;
}

static const char *write_file(const char *name, const char *text)
{
    const char *path = path_of(name);
    FILE *file = fopen(path, "wb");
    fputs(text, file);
    fclose(file);
    return path;
}

static culprit_judgement judge(const culprit_oracle *oracle, int status, const char *out)
{
    culprit_run_result result = {.exited = true,
                                 .exit_status = status,
                                 .stdout_path = write_file("stdout", out),
                                 .stderr_path = write_file("stderr", "")};
    culprit_judgement judgement;
    culprit_error error;
    culprit_status code = culprit_oracle_judge(oracle, &result, &judgement, &error);
    CHECK_RECORD(code == CULPRIT_OK, "judge failed: %s", error.message);
    return judgement;
}

/* The differences in one line: "KIND ACTUAL:EXPECTED expected|actual|message"
 * per difference, "-" for a text that is absent, "$" after an unterminated
 * line's text, "; " between them and "+N omitted" at the end. */
static const char *describe(const culprit_differences *differences)
{
    static char text[8192];
    size_t used = 0;
    text[0] = '\0';
    for (size_t i = 0; i < differences->count && used < sizeof text; i++) {
        const culprit_difference *d = &differences->items[i];
        used += (size_t)snprintf(text + used, sizeof text - used, "%s%s %u:%u %s%s|%s%s|%s", i ? "; " : "",
                                 culprit_difference_kind_name(d->kind), d->actual_line, d->expected_line,
                                 d->expected ? d->expected : "-", d->expected_unterminated ? "$" : "",
                                 d->actual ? d->actual : "-", d->actual_unterminated ? "$" : "",
                                 d->message ? d->message : "-");
    }
    if (differences->omitted && used < sizeof text)
        snprintf(text + used, sizeof text - used, " +%zu omitted", differences->omitted);
    return text;
}

static void expect_differences(const culprit_oracle *oracle, const char *out, const char *expected)
{
    culprit_judgement j = judge(oracle, 0, out);
    CHECK_STR(describe(&j.differences), expected);
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
    culprit_judgement j = judge(&oracle, 2, "1\n2\n3\n4\n5\nsix\n7\n8\n");
    CHECK_STR(j.message, "exit status 2, expected 0");
    CHECK_STR(describe(&j.differences), "changed 6:6 6|six|-");
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
    culprit_judgement j = judge(&oracle, 0, actual);
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
    j = judge(&other, 0, wide);
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
    j = judge(&all_a, 0, other_lines);
    CHECK_INT(j.wrong_line_count, 120);
    CHECK_INT(j.differences.count, CULPRIT_DIFFERENCES_MAX);
    CHECK_INT(j.differences.omitted, 120 - CULPRIT_DIFFERENCES_MAX);
    CHECK_INT(j.differences.count ? j.differences.items[j.differences.count - 1].actual_line : 0,
              CULPRIT_DIFFERENCES_MAX);
    culprit_judgement_free(&j);
}

/* Validators and the HTML check have no expected text: their message per
 * line, with the line's text. */
static void test_notes(void)
{
    write_file("check.sh", "#!/bin/sh\n"
                           "echo 'the page is bad'\n"
                           "echo '5: missing total'\n"
                           "echo '2:7: bad value'\n"
                           "exit 1\n");
    chmod(path_of("check.sh"), 0755);
    char command[600];
    snprintf(command, sizeof command, "%s", path_of("check.sh"));
    culprit_oracle validator = {.validator = command};
    expect_differences(&validator, "1\n2\n3\n4\n5\n", "note 2:0 -|2|bad value; note 5:0 -|5|missing total");
    /* with an expected output too: the diff's entries, then the notes, by line */
    culprit_oracle both = {.validator = command, .expect_stdout_text = "1\n2\n3\n4\nfive\n"};
    expect_differences(&both, "1\n2\n3\n4\n5\n",
                       "note 2:0 -|2|bad value; changed 5:5 five|5|-; note 5:0 -|5|missing total");
    culprit_oracle html = {.html = true};
    expect_differences(&html,
                       "<!DOCTYPE html>\n<html><head><title>t</title></head>\n<body>\n"
                       "<div>\n<p>open\n</body></html>\n",
                       "note 4:0 -|<div>|missing </div>");
}

/* A one-element program with tests t1, t2 in the store at path_of(name). */
static culprit_store *store_with_tests(const char *name, int64_t *program)
{
    culprit_spectra spectra;
    culprit_spectra_init(&spectra);
    culprit_error err;
    uint32_t file, element;
    size_t test;
    culprit_spectra_add_file(&spectra, "a.c", &file, &err);
    culprit_spectra_add_element(&spectra, CULPRIT_KIND_LINE, file, 1, 0, NULL, &element, &err);
    culprit_spectra_add_test(&spectra, "t1", CULPRIT_VERDICT_FAIL, &test, &err);
    culprit_spectra_add_test(&spectra, "t2", CULPRIT_VERDICT_FAIL, &test, &err);
    culprit_store *store = NULL;
    CHECK_INT(culprit_store_open(path_of(name), CULPRIT_STORE_CREATE, &store, &err), CULPRIT_OK);
    CHECK_INT(culprit_store_save_program(store, &spectra, "test", program, &err), CULPRIT_OK);
    CHECK_INT(culprit_store_save_tests(store, *program, &spectra, 0, 2, &err), CULPRIT_OK);
    culprit_spectra_free(&spectra);
    return store;
}

static void raw_sql(const char *store, const char *sql)
{
    char database[600];
    snprintf(database, sizeof database, "%s/culprit.db", path_of(store));
    sqlite3 *raw = NULL;
    CHECK_INT(sqlite3_open(database, &raw), SQLITE_OK);
    char *message = NULL;
    CHECK_RECORD(sqlite3_exec(raw, sql, NULL, NULL, &message) == SQLITE_OK, "%s: %s", sql,
                 message ? message : "?");
    sqlite3_free(message);
    sqlite3_close(raw);
}

static void test_store_round_trip(void)
{
    int64_t program;
    culprit_store *store = store_with_tests("store", &program);
    culprit_oracle oracle = {.expect_stdout_text = "1\n2\n3"};
    culprit_judgement j = judge(&oracle, 0, "1\nTWO\n3\nfour\n");
    const char *made = describe(&j.differences);
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
        CHECK_STR(describe(&records.tests[0].differences),
                  "changed 2:2 2|TWO|-; changed 3:3 3$|3|-; extra 4:4 -|four|-");
        CHECK_INT(records.tests[1].differences.count, 0);
    }
    culprit_test_records_free(&records);
    culprit_test_output output;
    CHECK_INT(culprit_store_load_test_output(store, program, "t1", &output, &err), CULPRIT_OK);
    CHECK_STR(describe(&output.differences), "changed 2:2 2|TWO|-; changed 3:3 3$|3|-; extra 4:4 -|four|-");
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
    raw_sql("old", "ALTER TABLE judgements DROP COLUMN differences; PRAGMA user_version = 3");
    CHECK_INT(culprit_store_open(path_of("old"), CULPRIT_STORE_WRITE, &store, &err), CULPRIT_OK);
    culprit_oracle oracle = {.expect_stdout_text = "x\n"};
    j = judge(&oracle, 0, "y\n");
    CHECK_INT(culprit_store_save_judgement(store, program, "t2", &j, &err), CULPRIT_OK);
    culprit_judgement_free(&j);
    culprit_test_records records;
    CHECK_INT(culprit_test_records_load(store, program, &records, &err), CULPRIT_OK);
    if (records.count == 2) {
        CHECK(records.tests[0].judged);
        CHECK_STR(records.tests[0].message, "old");
        CHECK_INT(records.tests[0].differences.count, 0);
        CHECK_STR(describe(&records.tests[1].differences), "changed 1:1 x|y|-");
    }
    culprit_test_records_free(&records);
    culprit_store_close(store);
    char database[600];
    snprintf(database, sizeof database, "%s/culprit.db", path_of("old"));
    sqlite3 *raw = NULL;
    CHECK_INT(sqlite3_open(database, &raw), SQLITE_OK);
    sqlite3_stmt *version = NULL;
    sqlite3_prepare_v2(raw, "PRAGMA user_version", -1, &version, NULL);
    CHECK_INT(sqlite3_step(version), SQLITE_ROW);
    CHECK_INT(sqlite3_column_int(version, 0), 4);
    sqlite3_finalize(version);
    sqlite3_close(raw);
}

int main(void)
{
    if (!mkdtemp(work))
        return 2;
    test_diff();
    test_bounds();
    test_notes();
    test_store_round_trip();
    test_migration();
    char command[600];
    snprintf(command, sizeof command, "rm -rf '%s'", work);
    if (system(command) != 0)
        return 2;
    return check_report("test_differences");
}
