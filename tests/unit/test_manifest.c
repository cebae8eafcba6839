/*
 * test_manifest.c - the manifest parsers (src/run/manifest*.c, json.c):
 * both forms parsed right, and every error message with its
 * FILE:LINE:COL.  Files the manifests name live in a temporary directory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "core/input_limits.h"
#include "culprit/harness.h"
#include "culprit/manifest.h"

static char directory[] = "/tmp/culprit-manifest-test.XXXXXX";
static char manifest_path[512];

static void write_file(const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", directory, name);
    FILE *file = fopen(path, "w");
    fputs(text, file);
    fclose(file);
}

static culprit_status parse(const char *text, const culprit_manifest_options *overrides, culprit_manifest *m,
                            culprit_error *err)
{
    culprit_manifest_init(m);
    return culprit_manifest_parse(text, strlen(text), manifest_path, overrides, m, err);
}

/* The error message of text, after the manifest's path and ':'. */
static void check_error(const char *text, const culprit_manifest_options *overrides, const char *expected)
{
    culprit_manifest m;
    culprit_error err = {0};
    culprit_status status = parse(text, overrides, &m, &err);
    CHECK_INT(status, CULPRIT_ERROR_INPUT);
    size_t prefix = strlen(manifest_path);
    const char *message =
        strncmp(err.message, manifest_path, prefix) == 0 ? err.message + prefix + 1 : err.message;
    CHECK_RECORD(strcmp(message, expected) == 0, "for %s\n  got      '%s'\n  expected '%s'", text, message,
                 expected);
    culprit_manifest_free(&m);
}

static void test_plain_form(void)
{
    write_file("exp/a.out", "A\n");
    write_file("exp/b.out", "B\n");
    write_file("exp/b.exit", "3\n");
    culprit_manifest m;
    culprit_error err;
    const char *text = "# comment\n--expect-dir exp\n--timeout=2.5\n--validator ./check.sh\n\n"
                       "a: ./prog a\n  b:\t./prog b | tr a b  \r\n";
    CHECK_INT(parse(text, NULL, &m, &err), CULPRIT_OK);
    CHECK_INT(m.count, 2);
    if (m.count == 2) {
        CHECK(strcmp(m.tests[0].name, "a") == 0);
        CHECK(strcmp(m.tests[0].shell_command, "./prog a") == 0);
        CHECK(strcmp(m.tests[1].shell_command, "./prog b | tr a b") == 0);
        CHECK_INT(m.tests[1].line, 7);
        CHECK_INT(m.tests[1].column, 3);
        CHECK(m.tests[0].timeout == 2.5);
        CHECK(strcmp(m.tests[0].validator, "./check.sh") == 0);
        CHECK(strstr(m.tests[0].expect_stdout_path, "/exp/a.out") != NULL);
        CHECK(!m.tests[0].has_expect_exit);
        CHECK(m.tests[1].has_expect_exit && m.tests[1].expect_exit == 3);
        CHECK(strcmp(m.tests[0].cwd, m.directory) == 0);
    }
    culprit_manifest_free(&m);
    /* The command line wins over the header. */
    culprit_manifest_options overrides = {.timeout = 9};
    CHECK_INT(parse("--timeout 1\nx: true\n", &overrides, &m, &err), CULPRIT_OK);
    CHECK(m.count == 1 && m.tests[0].timeout == 9);
    culprit_manifest_free(&m);
}

static void test_plain_errors(void)
{
    check_error("a: x\nnothing here\n", NULL,
                "2:1: expected 'NAME: COMMAND' (a test name, a colon, a shell command)");
    check_error("a b: x\n", NULL, "1:2: expected ':' after the test name (names have no blanks)");
    check_error(": x\n", NULL, "1:1: expected a test name before ':'");
    check_error("  a:   \n", NULL, "1:5: expected a command after 'a:'");
    check_error("a: x\n\na: y\n", NULL, "3:1: duplicate test name 'a' (first at line 1)");
    check_error("--colour red\n", NULL,
                "1:1: unknown option '--colour' (expected --expect-dir, --timeout or --validator)");
    check_error("--timeout\n", NULL, "1:10: expected a value after --timeout");
    check_error("--timeout soon\n", NULL, "1:11: expected a positive number of seconds, not 'soon'");
    check_error("--expect-dir nowhere\n", NULL, "1:14: --expect-dir 'nowhere' is not a directory");
    check_error("a: x\n--timeout 1\n", NULL, "2:1: options go in the header, before the first test");
    char expected[1024];
    snprintf(expected, sizeof expected, "2:1: missing expected output %s/exp/c.out for test 'c'", directory);
    check_error("--expect-dir exp\nc: x\n", NULL, expected);
    write_file("exp/d.out", "");
    write_file("exp/d.exit", "lots\n");
    snprintf(expected, sizeof expected, "%s/exp/d.exit:1:1: expected an exit status (0-255)", directory);
    culprit_manifest m;
    culprit_error err;
    CHECK_INT(parse("--expect-dir exp\nd: x\n", NULL, &m, &err), CULPRIT_ERROR_INPUT);
    CHECK_RECORD(strcmp(err.message, expected) == 0, "got '%s'", err.message);
    culprit_manifest_free(&m);
}

static void test_json_form(void)
{
    write_file("in.txt", "input\n");
    write_file("want.txt", "output\n");
    mkdir(strcat(strcpy((char[512]){0}, directory), "/sub"), 0700);
    culprit_manifest m;
    culprit_error err;
    const char *text =
        "[\n"
        " {\"name\": \"a\", \"cmd\": \"./prog\", \"stdin\": {\"file\": \"in.txt\"},\n"
        "  \"expect_stdout\": {\"file\": \"want.txt\"}, \"expect_exit\": 2, \"timeout\": 1.5,\n"
        "  \"env\": {\"X\": \"1\", \"Y\": \"\\u00e9\"}, \"cwd\": \"sub\", \"validator\": \"v\",\n"
        "  \"oracle\": \"whitespace\"},\n"
        " {\"name\": \"b\", \"argv\": [\"prog\", \"\", \"x y\"], \"stdin\": \"text\",\n"
        "  \"expect_stdout\": \"line\\n\", \"oracle\": [\"html\", \"numbers\"], \"expect_failure\": true}\n"
        "]\n";
    CHECK_INT(parse(text, NULL, &m, &err), CULPRIT_OK);
    CHECK_INT(m.count, 2);
    if (m.count == 2) {
        culprit_test_spec *a = &m.tests[0], *b = &m.tests[1];
        CHECK(strstr(a->stdin_path, "/in.txt") && strstr(a->expect_stdout_path, "/want.txt"));
        CHECK(a->has_expect_exit && a->expect_exit == 2 && a->timeout == 1.5);
        CHECK(a->env_count == 2 && strcmp(a->env[0], "X=1") == 0 && strcmp(a->env[1], "Y=\xc3\xa9") == 0);
        CHECK(strstr(a->cwd, "/sub") != NULL && strcmp(a->validator, "v") == 0 &&
              a->compare == CULPRIT_COMPARE_WHITESPACE);
        CHECK(b->argv && strcmp(b->argv[2], "x y") == 0 && b->argv[3] == NULL && !b->shell_command);
        CHECK(strcmp(b->stdin_text, "text") == 0 && strcmp(b->expect_stdout_text, "line\n") == 0 && b->html &&
              b->compare == CULPRIT_COMPARE_NUMBERS);
        CHECK(b->expect_failure && !a->expect_failure);
        CHECK_INT(b->line, 6);
        CHECK_INT(b->column, 2);
    }
    culprit_manifest_free(&m);
}

/* A "request" becomes culprit-php-cgi's command line, its fields encoded. */
static void test_json_request(void)
{
    write_file("page.php", "<?php\n");
    culprit_manifest m;
    culprit_error err;
    const char *text =
        "[{\"name\": \"r\", \"request\": {\"script\": \"page.php\", \"method\": \"PUT\",\n"
        " \"get\": {\"q\": \"a b&c\", \"\u00e9\": \"~x/\"}, \"cookies\": {\"s\": \"1 2\", \"t\": \"\"},\n"
        " \"body\": \"{}\", \"content_type\": \"application/json\"}},\n"
        " {\"name\": \"f\", \"request\": {\"script\": \"page.php\", \"post\": {\"u\": \"x+y\"},\n"
        " \"get\": \"raw=%41\", \"cookies\": {}}}]";
    CHECK_INT(parse(text, NULL, &m, &err), CULPRIT_OK);
    CHECK_INT(m.count, 2);
    if (m.count == 2) {
        char *const *a = m.tests[0].argv, *const *b = m.tests[1].argv;
        const char *want_a[] = {
            "culprit-php-cgi", "--method", "PUT", "--query",        "q=a+b%26c&%C3%A9=~x%2F", "--cookie",
            "s=1%202; t=",     "--body",   "{}",  "--content-type", "application/json"};
        for (size_t i = 0; a && i < sizeof want_a / sizeof *want_a; i++)
            CHECK_STR(a[i], want_a[i]);
        CHECK(a && strstr(a[11], "/page.php") && a[12] == NULL);
        const char *want_b[] = {"culprit-php-cgi", "--query", "raw=%41", "--cookie", "", "--form", "u=x%2By"};
        for (size_t i = 0; b && i < sizeof want_b / sizeof *want_b; i++)
            CHECK_STR(b[i], want_b[i]);
        CHECK(b && strstr(b[7], "/page.php") && b[8] == NULL);
        CHECK(!m.tests[0].shell_command && !m.tests[0].stdin_text);
    }
    culprit_manifest_free(&m);
    check_error("[{\"name\": \"a\", \"request\": {\"script\": \"gone.php\"}}]", NULL,
                "1:38: no PHP script 'gone.php'");
    /* "state": a directory culprit web saved, given to the launcher */
    char state[600];
    snprintf(state, sizeof state, "%s/states", directory);
    mkdir(state, 0755);
    CHECK_INT(parse("[{\"name\": \"s\", \"request\": {\"script\": \"page.php\", \"state\": \"states\"}}]",
                    NULL, &m, &err),
              CULPRIT_OK);
    if (m.count == 1) {
        char *const *s = m.tests[0].argv;
        CHECK_STR(s[1], "--state");
        CHECK(strstr(s[2], "/states") != NULL);
        CHECK(strstr(s[3], "/page.php") && s[4] == NULL);
    }
    culprit_manifest_free(&m);
    check_error("[{\"name\": \"a\", \"request\": {\"script\": \"page.php\", \"state\": \"nowhere\"}}]", NULL,
                "1:59: no directory 'nowhere'");
    check_error("[{\"name\": \"a\", \"request\": []}]", NULL, "1:27: expected \"request\" to be an object");
    check_error("[{\"name\": \"a\", \"request\": {\"script\": \"page.php\", \"get\": 3}}]", NULL,
                "1:57: expected \"request.get\" to be an object of strings or an encoded string");
    check_error(
        "[{\"name\": \"a\", \"request\": {\"script\": \"page.php\", \"post\": {}, \"content_type\": \"x\"}}]",
        NULL, "1:58: \"request.post\" is form-encoded; \"request.content_type\" goes with \"body\"");
    check_error("[{\"name\": \"a\", \"request\": {\"script\": \"page.php\"}, \"stdin\": \"x\"}]", NULL,
                "1:51: expected \"request\" or \"stdin\", not both (a request is its own command and stdin)");
}

/* "requests", a chain: each request's arguments, joined by --then. */
static void test_json_requests(void)
{
    write_file("page.php", "<?php\n");
    write_file("next.php", "<?php\n");
    culprit_manifest m;
    culprit_error err;
    const char *text =
        "[{\"name\": \"c\", \"requests\": [{\"script\": \"page.php\", \"post\": {\"u\": \"a b\"}},\n"
        " {\"script\": \"next.php\", \"get\": {\"n\": \"1\"}, \"cookies\": {\"k\": \"v\"}}]}]";
    CHECK_INT(parse(text, NULL, &m, &err), CULPRIT_OK);
    CHECK_INT(m.count, 1);
    if (m.count == 1) {
        char *const *a = m.tests[0].argv;
        const char *want[] = {"culprit-php-cgi", "--form", "u=a+b",    NULL, "--then",
                              "--query",         "n=1",    "--cookie", "k=v"};
        for (size_t i = 0; a && i < sizeof want / sizeof *want; i++)
            if (want[i])
                CHECK_STR(a[i], want[i]);
        CHECK(a && strstr(a[3], "/page.php") && strstr(a[9], "/next.php") && a[10] == NULL);
    }
    culprit_manifest_free(&m);
    /* one request is a chain of one */
    CHECK_INT(parse("[{\"name\": \"one\", \"requests\": [{\"script\": \"page.php\"}]}]", NULL, &m, &err),
              CULPRIT_OK);
    CHECK(m.count == 1 && m.tests[0].argv[2] == NULL && strstr(m.tests[0].argv[1], "/page.php"));
    culprit_manifest_free(&m);
    check_error("[{\"name\": \"a\", \"requests\": []}]", NULL,
                "1:28: expected \"requests\" to be an array of one or more requests");
    check_error("[{\"name\": \"a\", \"requests\": {\"script\": \"page.php\"}}]", NULL,
                "1:28: expected \"requests\" to be an array of one or more requests");
    check_error("[{\"name\": \"a\", \"requests\": [{\"script\": \"page.php\"}, 3]}]", NULL,
                "1:53: expected each of \"requests\" to be an object");
    check_error("[{\"name\": \"a\", \"requests\": [{\"script\": \"page.php\"}, {\"get\": \"x=1\"}]}]", NULL,
                "1:53: expected a \"script\" in \"requests\"");
    check_error("[{\"name\": \"a\", \"requests\": [{\"script\": \"page.php\"}, {\"script\": \"gone.php\"}]}]",
                NULL, "1:64: no PHP script 'gone.php'");
    check_error(
        "[{\"name\": \"a\", \"requests\": [{\"script\": \"page.php\", \"state\": \"states\"}]}]", NULL,
        "1:52: a chain starts from the application's files: \"state\" goes with a single \"request\"");
    check_error(
        "[{\"name\": \"a\", \"request\": {\"script\": \"page.php\"}, \"requests\": []}]", NULL,
        "1:51: expected \"request\" or \"requests\", not both (a request is its own command and stdin)");
    check_error("[{\"name\": \"a\", \"cmd\": \"x\", \"requests\": []}]", NULL,
                "1:28: expected \"requests\" or \"cmd\", not both (a request is its own command and stdin)");
}

/* "ctest": CTest's rules, as culprit ctest saves them (manifest_ctest.c). */
static void test_json_ctest(void)
{
    culprit_manifest m;
    culprit_error err;
    const char *text =
        "[{\"name\": \"a\", \"argv\": [\"x\"], \"ctest\": {\"pass_regex\": [\"^ok\", \"done$\"], "
        "\"fail_regex\": [\"ERROR\"], \"skip_regex\": [\"SKIP\"], \"skip_return_code\": 77, "
        "\"will_fail\": true}},\n {\"name\": \"b\", \"argv\": [\"y\"], \"ctest\": {}},\n"
        " {\"name\": \"c\", \"argv\": [\"z\"]}]";
    CHECK_INT(parse(text, NULL, &m, &err), CULPRIT_OK);
    CHECK_INT(m.count, 3);
    const culprit_ctest_rules *rules = m.tests[0].ctest;
    CHECK(rules != NULL && rules == m.tests[0].owned_ctest);
    if (rules) {
        CHECK_INT(rules->pass_regex_count, 2);
        CHECK_STR(rules->pass_regex[0], "^ok");
        CHECK_STR(rules->pass_regex[1], "done$");
        CHECK_INT(rules->fail_regex_count, 1);
        CHECK_STR(rules->fail_regex[0], "ERROR");
        CHECK_INT(rules->skip_regex_count, 1);
        CHECK_STR(rules->skip_regex[0], "SKIP");
        CHECK(rules->has_skip_exit);
        CHECK_INT(rules->skip_exit, 77);
        CHECK(rules->will_fail);
    }
    /* an empty object: CTest's rules with no property set (status 0 passes,
     * 77 is an ordinary failure); none: the usual oracle */
    CHECK(m.tests[1].ctest != NULL && m.tests[1].ctest->pass_regex_count == 0 &&
          !m.tests[1].ctest->has_skip_exit);
    CHECK(m.tests[2].ctest == NULL);
    culprit_manifest_free(&m);

    check_error("[{\"name\": \"a\", \"cmd\": \"x\", \"ctest\": []}]", NULL,
                "1:37: expected \"ctest\" to be an object of CTest's rules");
    check_error("[{\"name\": \"a\", \"cmd\": \"x\", \"ctest\": {\"pass\": []}}]", NULL,
                "1:38: unknown key \"ctest.pass\" (expected pass_regex, fail_regex, skip_regex, "
                "skip_return_code or will_fail)");
    check_error("[{\"name\": \"a\", \"cmd\": \"x\", \"ctest\": {\"fail_regex\": \"E\"}}]", NULL,
                "1:52: expected \"ctest.fail_regex\" to be an array of regular expressions");
    check_error("[{\"name\": \"a\", \"cmd\": \"x\", \"ctest\": {\"skip_regex\": [\"\"]}}]", NULL,
                "1:53: expected \"ctest.skip_regex\" to hold non-empty strings without NUL");
    check_error("[{\"name\": \"a\", \"cmd\": \"x\", \"ctest\": {\"fail_regex\": [\"ok\", \"(\"]}}]", NULL,
                "1:59: FAIL_REGULAR_EXPRESSION '(' is not a valid regular expression: Unmatched ( or \\(");
    check_error("[{\"name\": \"a\", \"cmd\": \"x\", \"ctest\": {\"skip_return_code\": 300}}]", NULL,
                "1:58: expected \"ctest.skip_return_code\" to be an integer from 0 to 255");
    check_error("[{\"name\": \"a\", \"cmd\": \"x\", \"ctest\": {\"will_fail\": 1}}]", NULL,
                "1:51: expected \"ctest.will_fail\" to be true or false");
}

static void test_json_errors(void)
{
    check_error("[{\"name\": \"a\", \"cmd\": \"x\", \"colour\": 1}]", NULL,
                "1:28: unknown key \"colour\" (expected name, cmd, argv, request, requests, stdin, cwd, env, "
                "expect_stdout, "
                "expect_exit, timeout, validator, oracle, expect_failure or ctest)");
    check_error("[{\"name\": \"a\", \"cmd\": \"x\", \"expect_failure\": \"yes\"}]", NULL,
                "1:46: expected \"expect_failure\" to be a boolean, found a string");
    check_error("[{\"name\": \"a\", \"cmd\": \"x\"},\n {\"name\": \"a\", \"cmd\": \"y\"}]", NULL,
                "2:2: duplicate test name 'a' (first at line 1)");
    check_error("[{\"name\": \"a\", \"cmd\": \"x\", \"stdin\": {\"file\": \"gone.txt\"}}]", NULL,
                "1:46: no file 'gone.txt'");
    check_error("[{\"name\": \"a\", \"cmd\": \"x\", \"cwd\": \"gone\"}]", NULL, "1:35: no directory 'gone'");
    check_error("[{\"name\": \"a\", \"cmd\": \"x\",}]", NULL,
                "1:27: expected '\"' to start a key, found '}'");
    check_error("[{\"name\": \"a\" \"cmd\": \"x\"}]", NULL, "1:15: expected ',' or '}', found '\"'");
    check_error("[\n  {\"name\": \"a\", \"cmd\": \"x\"}\n", NULL, "3:1: expected ',' or ']', found the end");
    check_error("{}", NULL, "1:1: expected an array of test objects, found an object");
    check_error("[3]", NULL, "1:2: expected a test object, found a number");
    check_error("[{\"cmd\": \"x\"}]", NULL, "1:2: expected a test object with a \"name\"");
    check_error("[{\"name\": \"a\"}]", NULL,
                "1:2: expected \"cmd\", \"argv\", \"request\" or \"requests\" in test 'a'");
    check_error("[{\"name\": \"a\", \"cmd\": \"x\", \"argv\": [\"x\"]}]", NULL,
                "1:28: expected \"cmd\" or \"argv\", not both");
    check_error("[{\"name\": \"a\", \"argv\": []}]", NULL, "1:24: expected a non-empty \"argv\" array");
    check_error("[{\"name\": 7, \"cmd\": \"x\"}]", NULL,
                "1:11: expected \"name\" to be a string, found a number");
    check_error("[{\"name\": \"a\", \"cmd\": \"x\", \"expect_exit\": 256}]", NULL,
                "1:43: expected \"expect_exit\" to be an integer from 0 to 255");
    check_error("[{\"name\": \"a\", \"cmd\": \"x\", \"timeout\": -1}]", NULL,
                "1:39: expected \"timeout\" to be a positive number of seconds");
    check_error("[{\"name\": \"a\", \"cmd\": \"x\", \"oracle\": [\"numbers\", \"exact\"]}]", NULL,
                "1:50: a second comparison 'exact' (a test has one)");
    check_error("[{\"name\": \"a\", \"cmd\": \"x\", \"oracle\": [\"html\", 3]}]", NULL,
                "1:47: expected \"oracle\" to be a string, found a number");
    check_error("[{\"name\": \"a\", \"cmd\": \"x\", \"oracle\": \"magic\"}]", NULL,
                "1:38: unknown oracle 'magic' (expected \"exact\", \"whitespace\", \"trailing-whitespace\", "
                "\"numbers\" or \"html\")");
    check_error("[{\"name\": \"a\", \"cmd\": \"x\", \"env\": {\"A=B\": \"1\"}}]", NULL,
                "1:36: expected an environment variable name (non-empty, no '=')");
    check_error("[{\"name\": \"a\", \"cmd\": \"x\", \"stdin\": {\"path\": \"x\"}}]", NULL,
                "1:38: unknown key \"path\" in \"stdin\" (expected only \"file\")");
    check_error("[{\"name\": \"a\", \"name\": \"b\"}]", NULL,
                "1:16: duplicate key \"name\" (first at line 1)");
    check_error("[\"\\x\"]", NULL, "1:4: expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u, found 'x'");
    check_error("[\"\\ud800\"]", NULL,
                "1:9: expected the low half of a surrogate pair (\\uDC00-\\uDFFF), found '\"'");
    check_error("[01]", NULL, "1:2: expected a number, found '0'");
    check_error("[tru]", NULL, "1:2: expected a JSON value, found 't'");
    check_error("[] x", NULL, "1:4: expected the end of the JSON text, found 'x'");
    culprit_manifest_options expect = {.expect_directory = "exp"};
    char expected[1024];
    snprintf(expected, sizeof expected,
             "--expect-dir applies to plain manifests; JSON tests set \"expect_stdout\"");
    culprit_manifest m;
    culprit_error err;
    CHECK_INT(parse("[]", &expect, &m, &err), CULPRIT_ERROR_INPUT);
    CHECK(strstr(err.message, expected) != NULL);
    culprit_manifest_free(&m);
}

/* A UTF-8 byte-order mark is skipped, in both forms: with it, a JSON
 * manifest was taken for a plain one, and its text run as a command. */
static void test_byte_order_mark(void)
{
    culprit_manifest m;
    culprit_error err;
    CHECK_INT(parse("\xEF\xBB\xBF[{\"name\": \"a\", \"argv\": [\"./prog\"]}]\n", NULL, &m, &err), CULPRIT_OK);
    CHECK_INT(m.count, 1);
    if (m.count == 1)
        CHECK(m.tests[0].argv && strcmp(m.tests[0].argv[0], "./prog") == 0 && !m.tests[0].shell_command);
    culprit_manifest_free(&m);
    CHECK_INT(parse("\xEF\xBB\xBF  \n{\"tests\": []}", NULL, &m, &err), CULPRIT_ERROR_INPUT);
    CHECK_RECORD(!strstr(err.message, "expected 'NAME: COMMAND'"), "read as plain: %s", err.message);
    culprit_manifest_free(&m);
    CHECK_INT(parse("\xEF\xBB\xBF"
                    "a: ./prog a\n",
                    NULL, &m, &err),
              CULPRIT_OK);
    CHECK_INT(m.count, 1);
    if (m.count == 1)
        CHECK_STR(m.tests[0].name, "a");
    culprit_manifest_free(&m);
}

/* A manifest past its bounds is an error, not all the memory there is. */
static void test_manifest_bounds(void)
{
    size_t values = (size_t)CULPRIT_LIMIT_MANIFEST_VALUES + 2, size = 3 * values + 8;
    char *text = malloc(size);
    size_t used = 0;
    text[used++] = '[';
    for (size_t i = 0; i < values; i++) {
        memcpy(text + used, i ? ",[]" : "[]", i ? 3 : 2);
        used += i ? 3 : 2;
    }
    text[used++] = ']';
    culprit_manifest m;
    culprit_error err;
    culprit_manifest_init(&m);
    CHECK_INT(culprit_manifest_parse(text, used, manifest_path, NULL, &m, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "more than 4194304 JSON values");
    culprit_manifest_free(&m);
    free(text);
    culprit_manifest_init(&m);
    CHECK_INT(culprit_manifest_read_file("/dev/zero", NULL, &m, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "/dev/zero: larger than 64 MiB, the most culprit reads for a manifest");
    culprit_manifest_free(&m);
}

static void test_limits_default(void)
{
    culprit_limits limits = culprit_limits_default();
    CHECK_INT(limits.cpu_seconds, 600);
    CHECK_INT(limits.processes, 1024);
    CHECK(limits.file_bytes == (uint64_t)4 << 30);
}

int main(void)
{
    if (!mkdtemp(directory))
        return 1;
    char exp_dir[600];
    snprintf(exp_dir, sizeof exp_dir, "%s/exp", directory);
    mkdir(exp_dir, 0700);
    snprintf(manifest_path, sizeof manifest_path, "%s/tests.txt", directory);
    test_plain_form();
    test_plain_errors();
    test_json_form();
    test_json_request();
    test_json_requests();
    test_json_ctest();
    test_json_errors();
    test_byte_order_mark();
    test_manifest_bounds();
    test_limits_default();
    culprit_remove_tree(directory);
    printf("test_manifest: %d passed, %d failed\n", check_passed, check_failed);
    return check_failed != 0;
}
