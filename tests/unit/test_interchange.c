/*
 * test_interchange.c - the per-test coverage readers: lcov tracefiles and
 * gcov JSON (plain, gzip-compressed, several documents in one file), the
 * union of their elements across files, counts and hits, verdict files,
 * and the exact message of every kind of malformed input; and the
 * component names of GZoltar and CSV (line, GZoltar-named and opaque
 * elements); and the optional structure of the JSON spectra (files
 * without it still read; test_techniques.sh checks it on a real program);
 * a GZoltar tests file that names no test.  Inputs are
 * written to a fresh temporary directory; messages name files relative to
 * it, so the test changes into it.
 */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "check.h"
#include "culprit/interchange.h"

static void write_file(const char *path, const char *text)
{
    FILE *file = fopen(path, "w");
    if (!file) {
        perror(path);
        exit(2);
    }
    fputs(text, file);
    fclose(file);
}

static void write_gzip_file(const char *path, const char *text)
{
    gzFile file = gzopen(path, "wb");
    if (!file || gzputs(file, text) < 0) {
        perror(path);
        exit(2);
    }
    gzclose(file);
}

static culprit_verdict_list verdicts_failing(const char *name)
{
    culprit_verdict_list list;
    culprit_verdict_list_init(&list);
    list.unlisted_pass = true;
    culprit_error err;
    if (name && culprit_verdict_list_add(&list, name, CULPRIT_VERDICT_FAIL, 0, &err) != 0)
        exit(2);
    return list;
}

/* The label of every element, joined by spaces. */
static void element_labels(const culprit_spectra *spectra, char *out, size_t size)
{
    out[0] = '\0';
    char label[256];
    for (uint32_t e = 0; e < spectra->element_count; e++) {
        culprit_spectra_element_label(spectra, e, label, sizeof label);
        strncat(out, e ? " " : "", size - strlen(out) - 1);
        strncat(out, label, size - strlen(out) - 1);
    }
}

/* The counts of test t as "element=count ...". */
static void count_text(const culprit_spectra *spectra, size_t test, char *out, size_t size)
{
    out[0] = '\0';
    const culprit_counts *counts = &spectra->counts[test];
    for (size_t i = 0; i < counts->length; i++) {
        char pair[64];
        snprintf(pair, sizeof pair, "%s%u=%llu", i ? " " : "", (unsigned)counts->elements[i],
                 (unsigned long long)counts->counts[i]);
        strncat(out, pair, size - strlen(out) - 1);
    }
}

static const char lcov_first[] = "TN:\n"
                                 "SF:src/b.c\n"
                                 "FN:3,main\n"
                                 "FNDA:1,main\n"
                                 "FNF:1\n"
                                 "FNH:1\n"
                                 "DA:3,1\n"
                                 "DA:4,0\n"
                                 "DA:10,2,abcdef\n"
                                 "BRDA:4,0,0,-\n"
                                 "BRDA:4,0,1,-\n"
                                 "BRF:2\n"
                                 "BRH:0\n"
                                 "LF:3\n"
                                 "LH:2\n"
                                 "end_of_record\n";
/* Another file, a line the first never listed, lcov 2's records, and a
 * repeated SF whose counts add up. */
static const char lcov_second[] = "VER:2.0\n"
                                  "SF:src/a.c\n"
                                  "FN:1,9,f\n"
                                  "FNL:0,1,9\n"
                                  "FNA:0,5,f\n"
                                  "DA:1,5\n"
                                  "end_of_record\n"
                                  "SF:src/b.c\n"
                                  "DA:3,7\n"
                                  "DA:9,1\n"
                                  "BRDA:4,0,1,3\n"
                                  "BRDA:4,e0,expr,with,commas,2\n"
                                  "MCDC:4,2,t,1,0,a\n"
                                  "end_of_record\n"
                                  "SF:src/b.c\n"
                                  "DA:3,1\n"
                                  "end_of_record\n";

static void test_lcov(void)
{
    write_file("t1.info", lcov_first);
    write_file("t2.info", lcov_second);
    culprit_verdict_list verdicts = verdicts_failing("t2");
    culprit_spectra s;
    culprit_spectra_init(&s);
    culprit_error err;
    const char *paths[] = {"t1.info", "t2.info"};
    CHECK_INT(culprit_lcov_read(paths, 2, &verdicts, &s, &err), 0);
    char text[1024];
    element_labels(&s, text, sizeof text);
    CHECK_STR(text, "src/a.c:1 src/b.c:3 src/b.c:4 src/b.c:4:0:0 src/b.c:4:0:1 src/b.c:4:e0:expr,with,commas "
                    "src/b.c:9 src/b.c:10");
    CHECK_INT(s.elements[3].kind, CULPRIT_KIND_BRANCH);
    CHECK_INT(s.elements[3].line, 4);
    CHECK_INT(s.file_count, 2);
    CHECK_STR(s.files[0], "src/a.c");
    CHECK_INT(s.test_count, 2);
    CHECK_STR(s.tests[0].name, "t1");
    CHECK_INT(s.tests[0].verdict, CULPRIT_VERDICT_PASS);
    CHECK_STR(s.tests[1].name, "t2");
    CHECK_INT(s.tests[1].verdict, CULPRIT_VERDICT_FAIL);
    count_text(&s, 0, text, sizeof text);
    CHECK_STR(text, "1=1 7=2");
    count_text(&s, 1, text, sizeof text);
    CHECK_STR(text, "0=5 1=8 4=3 5=2 6=1");
    CHECK(culprit_spectra_hit(&s, 0, 1) && !culprit_spectra_hit(&s, 0, 2) && culprit_spectra_hit(&s, 1, 4));
    CHECK(!culprit_spectra_hit(&s, 1, 3));

    /* The same program whatever the order of the files. */
    char hash[65], reversed_hash[65];
    culprit_spectra_program_hash(&s, hash);
    culprit_spectra_free(&s);
    culprit_spectra_init(&s);
    const char *reversed[] = {"t2.info", "t1.info"};
    CHECK_INT(culprit_lcov_read(reversed, 2, &verdicts, &s, &err), 0);
    culprit_spectra_program_hash(&s, reversed_hash);
    CHECK_STR(reversed_hash, hash);
    CHECK_STR(s.tests[0].name, "t2");
    culprit_spectra_free(&s);
    culprit_verdict_list_free(&verdicts);
}

/* Branch labels sort as numbers: 0:2 before 0:10, line 9 before 10. */
static void test_lcov_order(void)
{
    write_file("order.info", "SF:x.c\nBRDA:9,0,10,1\nBRDA:9,0,2,1\nDA:10,1\nDA:9,1\nend_of_record\n");
    culprit_verdict_list verdicts = verdicts_failing(NULL);
    culprit_spectra s;
    culprit_spectra_init(&s);
    culprit_error err;
    const char *paths[] = {"order.info"};
    CHECK_INT(culprit_lcov_read(paths, 1, &verdicts, &s, &err), 0);
    char text[512];
    element_labels(&s, text, sizeof text);
    CHECK_STR(text, "x.c:9 x.c:9:0:2 x.c:9:0:10 x.c:10");
    culprit_spectra_free(&s);
    culprit_verdict_list_free(&verdicts);
}

/* Reads one lcov file and checks the message. */
static void check_lcov_error(const char *content, const char *expected)
{
    write_file("bad.info", content);
    culprit_verdict_list verdicts = verdicts_failing(NULL);
    culprit_spectra s;
    culprit_spectra_init(&s);
    culprit_error err = {0};
    const char *paths[] = {"bad.info"};
    CHECK_INT(culprit_lcov_read(paths, 1, &verdicts, &s, &err), CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, expected);
    culprit_spectra_free(&s);
    culprit_verdict_list_free(&verdicts);
}

static void test_lcov_errors(void)
{
    check_lcov_error("SF:a.c\nDA:12\nend_of_record\n", "bad.info:2:6: expected DA:LINE,COUNT");
    check_lcov_error("SF:a.c\nDA:x,1\n", "bad.info:2:4: expected DA:LINE,COUNT");
    check_lcov_error("SF:a.c\nDA:0,1\n", "bad.info:2:4: expected DA:LINE,COUNT");
    check_lcov_error("SF:a.c\nDA:3,-1\n", "bad.info:2:6: expected DA:LINE,COUNT");
    check_lcov_error("SF:a.c\nDA:3,1x\n", "bad.info:2:7: expected DA:LINE,COUNT");
    check_lcov_error("SF:a.c\nDA:3,99999999999999999999\n", "bad.info:2:6: expected DA:LINE,COUNT");
    check_lcov_error("SF:a.c\nBRDA:3,0,1\n",
                     "bad.info:2:11: expected BRDA:LINE,BLOCK,BRANCH,TAKEN (TAKEN a count or -)");
    check_lcov_error("SF:a.c\nBRDA:3,0,,1\n",
                     "bad.info:2:10: expected BRDA:LINE,BLOCK,BRANCH,TAKEN (TAKEN a count or -)");
    check_lcov_error("SF:a.c\nBRDA:3,x,0,1\n",
                     "bad.info:2:8: expected BRDA:LINE,BLOCK,BRANCH,TAKEN (TAKEN a count or -)");
    check_lcov_error("SF:a.c\nBRDA:3,0,0,many\n",
                     "bad.info:2:12: expected BRDA:LINE,BLOCK,BRANCH,TAKEN (TAKEN a count or -)");
    check_lcov_error("SF:a.c\nFN:main\n", "bad.info:2:4: expected FN:LINE,NAME");
    check_lcov_error("SF:a.c\nFN:3,\n", "bad.info:2:6: expected FN:LINE,NAME");
    check_lcov_error("SF:a.c\nFNDA:x,main\n", "bad.info:2:6: expected FNDA:COUNT,NAME");
    check_lcov_error("SF:a.c\nFNL:0\n", "bad.info:2:6: expected FNL:INDEX,LINE[,END]");
    check_lcov_error("SF:a.c\nFNA:0,1\n", "bad.info:2:8: expected FNA:INDEX,COUNT,NAME");
    check_lcov_error("SF:a.c\nLF:3 lines\n", "bad.info:2:5: expected LF:COUNT");
    check_lcov_error("SF:a.c\nBRH:\n", "bad.info:2:5: expected BRH:COUNT");
    check_lcov_error("SF:\n", "bad.info:1:4: expected SF:PATH");
    check_lcov_error("DA:1,1\n", "bad.info:1:1: expected SF:PATH before DA");
    check_lcov_error("SF:a.c\nend_of_record\nBRDA:1,0,0,1\n", "bad.info:3:1: expected SF:PATH before BRDA");
    check_lcov_error("end_of_record\n", "bad.info:1:1: expected SF:PATH before end_of_record");
    check_lcov_error("SF:a.c\nDA:1,1\nSF:b.c\n", "bad.info:3:1: expected end_of_record before the next SF");
    check_lcov_error("SF:a.c\nDA:1,1\n", "bad.info:3:1: expected end_of_record");
    check_lcov_error("SF:a.c\nXYZ:1\n",
                     "bad.info:2:1: expected an lcov record (TN, SF, FN, FNDA, DA, BRDA, LF, "
                     "end_of_record, ...), found 'XYZ'");
    check_lcov_error("SF:a.c\nda:1,1\n",
                     "bad.info:2:1: expected an lcov record (TN, SF, FN, FNDA, DA, BRDA, LF, "
                     "end_of_record, ...), found 'da'");
    check_lcov_error("SF:a.c\nend_of_recor\n", "bad.info:2:1: expected an lcov record (TN, SF, FN, FNDA, DA, "
                                               "BRDA, LF, end_of_record, ...), found 'end_of_recor'");
    check_lcov_error("", "no coverage data in any of the 1 input files");
}

static const char gcov_document[] =
    "{\"format_version\": \"1\", \"gcc_version\": \"12.2.0\", \"current_working_directory\": \"/w\",\n"
    " \"files\": [{\"file\": \"mid.c\", \"functions\": [{\"name\": \"mid\"}], \"lines\": [\n"
    "  {\"line_number\": 4, \"count\": 3, \"unexecuted_block\": false, \"function_name\": \"mid\",\n"
    "   \"branches\": [{\"count\": 2, \"fallthrough\": true, \"throw\": false},\n"
    "                {\"count\": 0, \"fallthrough\": false, \"throw\": false}]},\n"
    "  {\"line_number\": 5, \"count\": 0, \"unexecuted_block\": true, \"branches\": []}]}]}\n";

static void test_gcov_json(void)
{
    write_gzip_file("pass1.gcov.json.gz", gcov_document);
    /* gcov --stdout: one document per object file, one after another. */
    write_file("fail1.json", "{\"format_version\": \"2\", \"files\": [{\"file\": \"mid.c\", \"lines\": [\n"
                             "  {\"line_number\": 5, \"count\": 1, \"branches\": []}]}]}\n"
                             "{\"format_version\": \"2\", \"files\": [{\"file\": \"util.c\", \"lines\": [\n"
                             "  {\"line_number\": 2, \"count\": 4}]}]}\n");
    culprit_verdict_list verdicts = verdicts_failing("fail1");
    culprit_spectra s;
    culprit_spectra_init(&s);
    culprit_error err = {0};
    const char *paths[] = {"pass1.gcov.json.gz", "fail1.json"};
    CHECK_INT(culprit_gcov_json_read(paths, 2, &verdicts, &s, &err), 0);
    CHECK_STR(err.message, "");
    char text[1024];
    element_labels(&s, text, sizeof text);
    CHECK_STR(text, "mid.c:4 mid.c:4:branch#0 mid.c:4:branch#1 mid.c:5 util.c:2");
    CHECK_STR(s.tests[0].name, "pass1");
    CHECK_STR(s.tests[1].name, "fail1");
    CHECK_INT(s.tests[1].verdict, CULPRIT_VERDICT_FAIL);
    count_text(&s, 0, text, sizeof text);
    CHECK_STR(text, "0=3 1=2");
    count_text(&s, 1, text, sizeof text);
    CHECK_STR(text, "3=1 4=4");
    culprit_spectra_free(&s);
    culprit_verdict_list_free(&verdicts);
}

static void check_gcov_error(const char *content, const char *expected)
{
    write_file("bad.json", content);
    culprit_verdict_list verdicts = verdicts_failing(NULL);
    culprit_spectra s;
    culprit_spectra_init(&s);
    culprit_error err = {0};
    const char *paths[] = {"bad.json"};
    CHECK_INT(culprit_gcov_json_read(paths, 1, &verdicts, &s, &err), CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, expected);
    culprit_spectra_free(&s);
    culprit_verdict_list_free(&verdicts);
}

static void test_gcov_json_errors(void)
{
    check_gcov_error("{\"format_version\": \"1\",\n \"files\": [}\n",
                     "bad.json:2:12: unexpected token near '}'");
    /* A syntax error in a later document is placed in the whole file. */
    check_gcov_error("{\"format_version\": \"1\", \"files\": []}\n  {\"files\": x}\n",
                     "bad.json:2:13: invalid token near 'x'");
    check_gcov_error("[]", "bad.json: top level: expected an object (gcov --json-format output)");
    check_gcov_error(
        "{\"format_version\": \"3\", \"files\": []}",
        "bad.json: format_version: expected \"1\" or \"2\" (gcov --json-format of gcc 9 or later)");
    check_gcov_error("{\"format_version\": \"1\"}", "bad.json: files: expected an array");
    check_gcov_error(
        "{\"format_version\": \"1\", \"files\": [{\"lines\": []}]}",
        "bad.json: files[0]: expected an object with a non-empty string \"file\" and a \"lines\" array");
    check_gcov_error("{\"format_version\": \"1\", \"files\": [{\"file\": \"a.c\", \"lines\": [3]}]}",
                     "bad.json: files[0].lines[0]: expected an object");
    check_gcov_error("{\"format_version\": \"1\", \"files\": [{\"file\": \"a.c\", \"lines\": "
                     "[{\"line_number\": 1, \"count\": 1}, {\"line_number\": 0, \"count\": 1}]}]}",
                     "bad.json: files[0].lines[1]: expected \"line_number\" to be an integer from 1");
    check_gcov_error("{\"format_version\": \"1\", \"files\": [{\"file\": \"a.c\", \"lines\": "
                     "[{\"line_number\": 1, \"count\": -2}]}]}",
                     "bad.json: files[0].lines[0]: expected \"count\" to be a non-negative integer");
    check_gcov_error("{\"format_version\": \"1\", \"files\": [{\"file\": \"a.c\", \"lines\": "
                     "[{\"line_number\": 1, \"count\": 1, \"branches\": {}}]}]}",
                     "bad.json: files[0].lines[0]: expected \"branches\" to be an array");
    check_gcov_error(
        "{\"format_version\": \"1\", \"files\": [{\"file\": \"a.c\", \"lines\": "
        "[{\"line_number\": 1, \"count\": 1, \"branches\": [{\"count\": 1}, {}]}]}]}",
        "bad.json: files[0].lines[0].branches[1]: expected an object with a non-negative integer "
        "\"count\"");
    check_gcov_error("{\"format_version\": \"1\", \"files\": []}\n{\"format_version\": \"1\", \"files\": 1}",
                     "bad.json: document 2: files: expected an array");
    check_gcov_error("{\"format_version\": \"1\", \"format_version\": \"1\", \"files\": []}",
                     "bad.json:1:40: duplicate object key near '\"format_version\"'");
    write_gzip_file("truncated.json.gz", gcov_document);
    FILE *file = fopen("truncated.json.gz", "r+");
    CHECK(file && ftruncate(fileno(file), 40) == 0);
    if (file)
        fclose(file);
    culprit_verdict_list verdicts = verdicts_failing(NULL);
    culprit_spectra s;
    culprit_spectra_init(&s);
    culprit_error err = {0};
    const char *paths[] = {"truncated.json.gz", "missing.json"};
    CHECK_INT(culprit_gcov_json_read(paths, 1, &verdicts, &s, &err), CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, "truncated.json.gz: cannot decompress: unexpected end of file");
    CHECK_INT(culprit_gcov_json_read(paths + 1, 1, &verdicts, &s, &err), CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, "missing.json: cannot open: No such file or directory");
    culprit_spectra_free(&s);
    culprit_verdict_list_free(&verdicts);
}

static void check_verdicts_error(const char *content, const char *expected)
{
    write_file("verdicts.txt", content);
    culprit_verdict_list list;
    culprit_verdict_list_init(&list);
    culprit_error err = {0};
    CHECK_INT(culprit_verdict_list_read(&list, "verdicts.txt", &err), CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, expected);
    culprit_verdict_list_free(&list);
}

static void test_verdict_file(void)
{
    write_file("verdicts.txt", "# tests of mid()\n\nt1 pass\n  t2\tfail   # off by one\nt3 timeout\n");
    culprit_verdict_list list;
    culprit_verdict_list_init(&list);
    culprit_error err;
    CHECK_INT(culprit_verdict_list_read(&list, "verdicts.txt", &err), 0);
    CHECK_INT(list.count, 3);
    CHECK_STR(list.entries[1].name, "t2");
    CHECK_INT(list.entries[1].verdict, CULPRIT_VERDICT_FAIL);
    CHECK_INT(list.entries[1].line, 4);
    CHECK(!list.unlisted_pass);
    culprit_verdict_list_free(&list);

    check_verdicts_error(
        "t1 pass\nt2\n",
        "verdicts.txt:2:3: expected a verdict (pass, fail, error, timeout or skip) after the test "
        "name");
    check_verdicts_error(
        "t1 passed\n",
        "verdicts.txt:1:4: expected a verdict (pass, fail, error, timeout or skip), found 'passed'");
    check_verdicts_error(
        "t1 pass extra\n",
        "verdicts.txt:1:9: expected the end of the line (or a # comment) after the verdict, found "
        "'extra'");
    CHECK_INT(culprit_verdict_list_read(&list, "nosuch.txt", &err), CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, "nosuch.txt: cannot open: No such file or directory");
    culprit_verdict_list_free(&list);
}

/* Reads t1.info and t2.info (from test_lcov) with a verdicts file. */
static void check_matching_error(const char *const *paths, size_t count, const char *verdicts_text,
                                 const char *expected)
{
    write_file("match.txt", verdicts_text);
    culprit_verdict_list list;
    culprit_verdict_list_init(&list);
    culprit_error err = {0};
    CHECK_INT(culprit_verdict_list_read(&list, "match.txt", &err), 0);
    culprit_spectra s;
    culprit_spectra_init(&s);
    CHECK_INT(culprit_lcov_read(paths, count, &list, &s, &err), CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, expected);
    culprit_spectra_free(&s);
    culprit_verdict_list_free(&list);
}

static void test_verdict_matching(void)
{
    const char *both[] = {"t1.info", "t2.info"};
    check_matching_error(both, 2, "t1 pass\n", "match.txt: no verdict for test 't2' (from t2.info)");
    check_matching_error(both, 2, "t1 pass\nt2 fail\nt3 fail\n",
                         "match.txt:3:1: no coverage file for test 't3'");
    check_matching_error(both, 2, "t1 pass\nt2 fail\nt1 fail\n",
                         "match.txt:3:1: a second verdict for test 't1'");
    CHECK(mkdir("sub", 0755) == 0 || access("sub", F_OK) == 0);
    write_file("sub/t1.info", lcov_first);
    const char *same_name[] = {"t1.info", "sub/t1.info"};
    check_matching_error(same_name, 2, "t1 pass\n", "sub/t1.info: test 't1' already comes from t1.info");
    write_file(".info", lcov_first);
    const char *empty_name[] = {".info"};
    /* A name that is all suffix is kept whole rather than left empty. */
    check_matching_error(empty_name, 1, "", "match.txt: no verdict for test '.info' (from .info)");

    /* Listed one by one: the others pass; a name without a file is an error. */
    culprit_verdict_list list = verdicts_failing("t9");
    culprit_spectra s;
    culprit_spectra_init(&s);
    culprit_error err = {0};
    CHECK_INT(culprit_lcov_read(both, 2, &list, &s, &err), CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, "no coverage file for test 't9'");
    culprit_spectra_free(&s);
    culprit_verdict_list_free(&list);
}

/* Names with a line are line elements; any other name is an opaque
 * element that keeps it, with no file and no line. */
static void test_component_names(void)
{
    culprit_spectra s;
    culprit_spectra_init(&s);
    culprit_error err = {0};
    const char *names[] = {"src/a.c:3", "org.x$Y#m(int):42", "cond22_true", "a.c:0", ":7", "x:y:"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        CHECK_INT(culprit_component_add(&s, names[i], "spectra.csv", i + 1, 1, &err), 0);
    CHECK_INT(s.elements[0].kind, CULPRIT_KIND_LINE);
    CHECK_INT(s.elements[0].line, 3);
    CHECK(s.elements[0].name == NULL);
    CHECK_INT(s.elements[1].kind, CULPRIT_KIND_LINE);
    CHECK_STR(s.files[s.elements[1].file], "org.x$Y");
    for (size_t e = 2; e < 6; e++) {
        CHECK_INT(s.elements[e].kind, CULPRIT_KIND_OPAQUE);
        CHECK_INT(s.elements[e].file, CULPRIT_NO_FILE);
        CHECK_INT(s.elements[e].line, 0);
        char label[64];
        culprit_component_name(&s, (uint32_t)e, label, sizeof label);
        CHECK_STR(label, names[e]);
    }
    CHECK_INT(culprit_component_add(&s, "", "h.csv", 1, 14, &err), CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, "h.csv:1:14: expected a component name, found an empty one");
    culprit_spectra_free(&s);
}

/* A GZoltar tests file without a name used to reach memcpy(dst, NULL, 0),
 * undefined behaviour that UBSan stops at (found by
 * tests/fuzz/fuzz_import_gzoltar.c).  Whether such a file is an error is
 * the reader's to say; here only that it answers. */
static void test_gzoltar_empty_tests_file(void)
{
    write_file("gz-spectra.txt", "name\na.c:1\n");
    write_file("gz-matrix.txt", "1 -\n");
    write_file("gz-tests.txt", "");
    culprit_spectra s;
    culprit_spectra_init(&s);
    culprit_error err = {0};
    culprit_status status = culprit_gzoltar_read("gz-spectra.txt", "gz-matrix.txt", "gz-tests.txt", &s, &err);
    CHECK(status == CULPRIT_OK || status == CULPRIT_ERROR_INPUT);
    culprit_spectra_free(&s);
}

/* A JSON spectra of one line and one failing test, with extra text
 * (fields) in the root and in the test. */
static void write_json(const char *path, const char *root_extra, const char *test_extra)
{
    char text[1024];
    snprintf(text, sizeof text,
             "{\"format\": \"culprit-spectra\", \"version\": 1, %s\"elements\": [{\"kind\": \"line\", "
             "\"file\": \"a.c\", \"line\": 1, \"column\": 0, \"name\": null}], \"tests\": [{\"name\": \"t\", "
             "\"verdict\": \"fail\", %s\"hits\": [0]}]}\n",
             root_extra, test_extra);
    write_file(path, text);
}

static culprit_status read_json(const char *path, bool with_structure, culprit_program_structure *structure,
                                culprit_error *err)
{
    culprit_spectra s;
    culprit_spectra_init(&s);
    culprit_program_structure_init(structure);
    culprit_status status = culprit_json_read(path, &s, with_structure ? structure : NULL, err);
    culprit_spectra_free(&s);
    return status;
}

/* "units" and "crash" are optional, read only when asked for, and a crash
 * needs the units its frames name. */
static void test_json_structure(void)
{
    culprit_program_structure structure;
    culprit_error err = {0};
    write_json("old.json", "", "");
    CHECK_INT(read_json("old.json", true, &structure, &err), 0);
    CHECK_INT(structure.units.count, 0);
    CHECK_INT(structure.test_count, 1);
    CHECK(structure.crashes && !structure.crashes[0]);
    culprit_program_structure_free(&structure);
    write_json("unused.json", "\"units\": 5, ", "\"crash\": 3, ");
    CHECK_INT(read_json("unused.json", false, &structure, &err), 0);
    CHECK_INT(read_json("unused.json", true, &structure, &err), CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, "unused.json: units: expected an array of program maps (strings)");
    culprit_program_structure_free(&structure);
    write_json("lone-crash.json", "\"units\": [], ", "\"crash\": {\"stack\": []}, ");
    CHECK_INT(read_json("lone-crash.json", true, &structure, &err), CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message,
              "lone-crash.json: tests[0].crash: expected the program's \"units\" beside it (a crash "
              "stack names their blocks)");
    culprit_program_structure_free(&structure);
}

/* A tests file must name every matrix row: an empty one (or one with only
 * GZoltar's header) was taken as no tests file, and the rows got invented
 * names (and UBSan saw memcpy from NULL checking them for duplicates). */
static void test_gzoltar_tests_file(void)
{
    write_file("g-spectra.csv", "name\na.c:1\na.c:2\n");
    write_file("g-matrix.txt", "1 0 +\n1 1 -\n");
    write_file("g-header.csv", "name,outcome,runtime,stacktrace\n");
    write_file("g-empty.csv", "");
    write_file("g-short.csv", "name,outcome,runtime,stacktrace\nt1,PASS,1,\n");
    write_file("g-full.csv", "t1\nt2\n");
    const char *const files[] = {"g-header.csv", "g-empty.csv", "g-short.csv"};
    const char *const messages[] = {
        "g-header.csv:2:1: expected a test name per matrix row, found none",
        "g-empty.csv:1:1: expected a test name per matrix row, found none",
        "g-matrix.txt:2:1: the tests file names 1 tests, but the matrix has more rows"};
    for (size_t i = 0; i < 3; i++) {
        culprit_spectra spectra;
        culprit_spectra_init(&spectra);
        culprit_error err = {0};
        CHECK_INT(culprit_gzoltar_read("g-spectra.csv", "g-matrix.txt", files[i], &spectra, &err),
                  CULPRIT_ERROR_INPUT);
        CHECK_STR(err.message, messages[i]);
        culprit_spectra_free(&spectra);
    }
    culprit_spectra spectra;
    culprit_spectra_init(&spectra);
    culprit_error err;
    CHECK_INT(culprit_gzoltar_read("g-spectra.csv", "g-matrix.txt", "g-full.csv", &spectra, &err),
              CULPRIT_OK);
    CHECK_INT(spectra.test_count, 2);
    if (spectra.test_count == 2)
        CHECK_STR(spectra.tests[1].name, "t2");
    culprit_spectra_free(&spectra);
}

int main(void)
{
    char directory[] = "/tmp/culprit-test-interchange.XXXXXX";
    if (!mkdtemp(directory) || chdir(directory) != 0) {
        perror("mkdtemp");
        return 2;
    }
    test_lcov();
    test_lcov_order();
    test_lcov_errors();
    test_gcov_json();
    test_gcov_json_errors();
    test_verdict_file();
    test_verdict_matching();
    test_component_names();
    test_json_structure();
    test_gzoltar_tests_file();
    test_gzoltar_empty_tests_file();
    char command[128];
    snprintf(command, sizeof command, "rm -rf '%s'", directory);
    if (chdir("/") != 0 || system(command) != 0)
        fprintf(stderr, "could not remove %s\n", directory);
    return check_report("test_interchange");
}
