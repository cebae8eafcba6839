/*
 * test_web_inputs.c - culprit web's input constraints (src/web/web_inputs.c,
 * culprit/web.h; docs/web.md "Input constraints"): the extension's records
 * read back (percent-encoded words, the empty word, constants, bad lines
 * with their line numbers), each kind negated into requests with one field
 * changed (==, !=, <, switch, in_array, is_numeric, isset, empty; a POST
 * field of a GET request; a value already sent left out), cookies
 * negated into the request's own cookies and files uploaded or left out,
 * and a generated request kept apart from the default one in the queue.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "culprit/web.h"
#include "web_fixture.h"

static void test_parse(void)
{
    const char *text = "eq 0 post role id /app/panel.php:8 admin\n"
                       "switch 0 get kind trim /app/report.php:8 daily monthly a%20b\n"
                       "\n"
                       "isset 1 post role id /app/panel.php:5\n"
                       "ne 1 get q lower /app/x.php:3 -\n"
                       "numeric - get n int /app/x.php:4\n";
    culprit_web_constraints constraints = {0};
    culprit_error err = {0};
    CHECK_INT(culprit_web_constraints_parse(text, strlen(text), "inputs", &constraints, &err), CULPRIT_OK);
    CHECK_INT(constraints.count, 5);
    if (constraints.count == 5) {
        CHECK_STR(constraints.items[0].kind, "eq");
        CHECK_INT(constraints.items[0].outcome, 0);
        CHECK_STR(constraints.items[0].source, "post");
        CHECK_STR(constraints.items[0].field, "role");
        CHECK_STR(constraints.items[0].site, "/app/panel.php:8");
        CHECK_INT(constraints.items[0].constant_count, 1);
        CHECK_STR(constraints.items[0].constants[0], "admin");
        CHECK_INT(constraints.items[1].constant_count, 3);
        CHECK_STR(constraints.items[1].constants[2], "a b");
        CHECK_STR(constraints.items[1].how, "trim");
        CHECK_INT(constraints.items[2].outcome, 1);
        CHECK_INT(constraints.items[2].constant_count, 0);
        CHECK_STR(constraints.items[3].constants[0], ""); /* "-": the empty word */
        CHECK_INT(constraints.items[4].outcome, -1);
    }
    culprit_web_constraints_free(&constraints);
    /* bad lines: too few words, a bad outcome, a bad escape */
    const char *bad[] = {"eq 0 post role id\n", "eq 0 post role id s\neq 2 post role id site x\n",
                         "eq 0 post ro%zle id s\n"};
    const char *where[] = {"inputs:1", "inputs:2", "inputs:1"};
    for (size_t i = 0; i < 3; i++) {
        CHECK_INT(culprit_web_constraints_parse(bad[i], strlen(bad[i]), "inputs", &constraints, &err),
                  CULPRIT_ERROR_INPUT);
        CHECK(strstr(err.message, where[i]) != NULL);
        culprit_web_constraints_free(&constraints);
    }
}

/* The requests negate makes of the record line for request, described
 * one a line ("POST panel.php role=admin"). */
static char negated[2048];
static const char *negate_solved(const culprit_web_request *request, const char *line, const char *solved);
static const char *negate(const culprit_web_request *request, const char *line)
{
    return negate_solved(request, line, NULL);
}

/* ... with solved, the value Z3 found (web_solve.c), tried first. */
static const char *negate_solved(const culprit_web_request *request, const char *line, const char *solved)
{
    culprit_web_constraints constraints = {0};
    culprit_error err = {0};
    negated[0] = '\0';
    if (culprit_web_constraints_parse(line, strlen(line), "inputs", &constraints, &err) != CULPRIT_OK ||
        constraints.count != 1)
        return "(bad)";
    culprit_web_request *requests = NULL;
    size_t count = 0;
    if (culprit_web_constraint_negate(request, &constraints.items[0], solved, &requests, &count, &err) !=
        CULPRIT_OK)
        snprintf(negated, sizeof negated, "(error)");
    for (size_t i = 0; i < count; i++) {
        char *described = culprit_web_request_describe(&requests[i]);
        size_t at = strlen(negated);
        snprintf(negated + at, sizeof negated - at, "%s%s", i ? "\n" : "", described ? described : "?");
        free(described);
        culprit_web_request_free(&requests[i]);
    }
    free(requests);
    culprit_web_constraints_free(&constraints);
    return negated;
}

static void test_negate(void)
{
    culprit_web_request post = request_of("panel.php", "tab=1", true, "role=role&go=Enter");
    /* == false: the constant; == true: another value; != the reverse */
    CHECK_STR(negate(&post, "eq 0 post role id s admin"), "POST panel.php?tab=1 role=admin&go=Enter");
    CHECK_STR(negate(&post, "eq 1 post role id s role"), "POST panel.php?tab=1 role=rolex&go=Enter");
    CHECK_STR(negate(&post, "eq 1 get tab int s 1"), "POST panel.php?tab=2 role=role&go=Enter");
    CHECK_STR(negate(&post, "ne 1 post role id s admin"), "POST panel.php?tab=1 role=admin&go=Enter");
    CHECK_STR(negate(&post, "ieq 0 post role lower s Admin"), "POST panel.php?tab=1 role=Admin&go=Enter");
    /* a solved value first, once, even when the table gives it too */
    CHECK_STR(negate_solved(&post, "lt 1 get tab int s 2", "7"), "POST panel.php?tab=7 role=role&go=Enter\n"
                                                                 "POST panel.php?tab=2 role=role&go=Enter\n"
                                                                 "POST panel.php?tab=3 role=role&go=Enter");
    CHECK_STR(negate_solved(&post, "lt 1 get tab int s 2", "3"), "POST panel.php?tab=3 role=role&go=Enter\n"
                                                                 "POST panel.php?tab=2 role=role&go=Enter");
    /* the value the request sent is left out */
    CHECK_STR(negate(&post, "eq 0 post role id s role"), "");
    /* < : the integers around the constant, but the one sent */
    CHECK_STR(negate(&post, "lt 1 get tab int s 2"), "POST panel.php?tab=2 role=role&go=Enter\n"
                                                     "POST panel.php?tab=3 role=role&go=Enter");
    /* a switch, in_array: each case */
    culprit_web_request get = request_of("report.php", "kind=daily", false, "");
    CHECK_STR(negate(&get, "switch 1 get kind id s daily monthly"),
              "GET report.php?kind=monthly\nGET report.php?kind=dailyx");
    CHECK_STR(negate(&get, "in 0 get format id s html text"),
              "GET report.php?kind=daily&format=html\nGET report.php?kind=daily&format=text");
    /* is_numeric, ctype_digit */
    CHECK_STR(negate(&get, "numeric 0 get kind id s"), "GET report.php?kind=1");
    CHECK_STR(negate(&get, "digits 1 get kind id s"), "GET report.php?kind=x");
    /* isset: absent, or present with its name; empty: the reverse */
    CHECK_STR(negate(&get, "isset 1 get kind id s"), "GET report.php");
    CHECK_STR(negate(&get, "isset 0 get page id s"), "GET report.php?kind=daily&page=page");
    CHECK_STR(negate(&get, "empty 0 get kind id s"), "GET report.php?kind=");
    CHECK_STR(negate(&post, "empty 1 post note id s"), "POST panel.php?tab=1 role=role&go=Enter&note=note");
    /* a POST field read by a GET request: the copy is a POST */
    CHECK_STR(negate(&get, "isset 0 post user id s"), "POST report.php?kind=daily user=user");
    /* $_REQUEST: the request's own method */
    CHECK_STR(negate(&get, "eq 0 request kind id s weekly"), "GET report.php?kind=weekly");
    /* preg_match: nothing */
    CHECK_STR(negate(&get, "match - get kind id s /^d/"), "");
    /* strlen() ("len"): strings of the lengths around the constant, the
     * value sent cut or padded with x; lengths past 256 or below 0 none */
    CHECK_STR(negate(&get, "gt 0 get kind len s 6"),
              "GET report.php?kind=dailyx\nGET report.php?kind=dailyxx");
    CHECK_STR(negate(&get, "eq 1 get kind len s 5"), "GET report.php?kind=dailyx");
    CHECK_STR(negate(&get, "lt 1 get kind len s 0"), "GET report.php?kind=\nGET report.php?kind=d");
    CHECK_STR(negate(&get, "ge 1 get kind len s 300"), "");
    /* a field twice (a hidden field and a checkbox): PHP reads the last,
     * so every one is changed or removed, and the last is what was sent */
    culprit_web_request twice = request_of("prefs.php", "", true, "mail=0&mail=1");
    CHECK_STR(negate(&twice, "eq 0 post mail id s 0"), "POST prefs.php mail=0&mail=0");
    CHECK_STR(negate(&twice, "isset 1 post mail id s"), "POST prefs.php "); /* an empty form */
    CHECK_STR(negate(&twice, "eq 1 post mail id s 1"), "POST prefs.php mail=2&mail=2");
    culprit_web_request_free(&twice);
    culprit_web_request_free(&post);
    culprit_web_request_free(&get);
}

/* A cookie is changed in the request's own cookies (the state's are sent
 * after them, web_request.c), with the same values as a field; a file is
 * uploaded or left out, which makes a multipart POST. */
static void test_negate_cookies_files(void)
{
    culprit_web_request get = request_of("index.php", "p=1", false, "");
    CHECK_STR(negate(&get, "eq 0 cookie mode id s expert"), "GET index.php?p=1 cookie mode=expert");
    CHECK_STR(negate(&get, "lt 1 cookie n int s 5"),
              "GET index.php?p=1 cookie n=4\nGET index.php?p=1 cookie n=5\nGET index.php?p=1 cookie n=6");
    CHECK_STR(negate(&get, "isset 0 cookie seen id s"), "GET index.php?p=1 cookie seen=seen");
    /* a cookie of the state's cannot be taken away: nothing */
    CHECK_STR(negate(&get, "isset 1 cookie lang id s"), "");
    culprit_error err = {0};
    culprit_web_fields_add(&get.cookies, "mode", 4, "expert", 6, &err);
    CHECK_STR(negate(&get, "eq 1 cookie mode id s expert"), "GET index.php?p=1 cookie mode=expertx");
    CHECK_STR(negate(&get, "eq 0 cookie mode id s expert"), ""); /* sent already */
    CHECK_STR(negate(&get, "isset 1 cookie mode id s"), "GET index.php?p=1");
    /* the Z3 value first, as for a field */
    culprit_web_constraints constraints = {0};
    const char *line = "lt 0 cookie n int s 5";
    culprit_web_constraints_parse(line, strlen(line), "inputs", &constraints, &err);
    culprit_web_request *requests = NULL;
    size_t count = 0;
    CHECK_INT(culprit_web_constraint_negate(&get, &constraints.items[0], "3", &requests, &count, &err),
              CULPRIT_OK);
    CHECK(count >= 1);
    if (count >= 1) {
        char *described = culprit_web_request_describe(&requests[0]);
        CHECK_STR(described, "GET index.php?p=1 cookie mode=expert; n=3");
        free(described);
    }
    for (size_t i = 0; i < count; i++)
        culprit_web_request_free(&requests[i]);
    free(requests);
    culprit_web_constraints_free(&constraints);
    /* files: isset false uploads it (a GET becomes a multipart POST) */
    CHECK_STR(negate(&get, "isset 0 files doc id s"), "POST index.php?p=1  cookie mode=expert file doc");
    /* ... and the copy is multipart, the only body a file travels in */
    line = "isset 0 files doc id s";
    culprit_web_constraints_parse(line, strlen(line), "inputs", &constraints, &err);
    CHECK_INT(culprit_web_constraint_negate(&get, &constraints.items[0], NULL, &requests, &count, &err),
              CULPRIT_OK);
    CHECK(count == 1 && requests[0].is_post && requests[0].multipart);
    for (size_t i = 0; i < count; i++)
        culprit_web_request_free(&requests[i]);
    free(requests);
    culprit_web_constraints_free(&constraints);
    culprit_web_request post = request_of("up.php", "", true, "t=1");
    post.multipart = true;
    culprit_web_fields_add(&post.files, "doc", 3, CULPRIT_WEB_UPLOAD_NAME, strlen(CULPRIT_WEB_UPLOAD_NAME),
                           &err);
    CHECK_STR(negate(&post, "isset 1 files doc id s"), "POST up.php t=1");
    CHECK_STR(negate(&post, "isset 0 files doc id s"), ""); /* uploaded already */
    CHECK_STR(negate(&post, "empty 0 files doc id s"), "POST up.php t=1");
    CHECK_STR(negate(&post, "isset 0 files pic id s"), "POST up.php t=1 file doc file pic");
    CHECK_STR(negate(&post, "eq 0 files doc id s x"), ""); /* any value is the upload, sent already */
    culprit_web_request_free(&get);
    culprit_web_request_free(&post);
}

/* A generated request differs from the one it came from only in values:
 * it is its own transition, but one equal to a request queued by names is
 * not queued again. */
static void test_queue_generated(void)
{
    culprit_web_queue queue = {0};
    culprit_error err = {0};
    bool queued;
    culprit_web_step step = {.request = request_of("panel.php", "", true, "role=role")};
    CHECK_INT(culprit_web_queue_push(&queue, &step, "s0", &queued, &err), CULPRIT_OK);
    CHECK(queued);
    step = (culprit_web_step){.request = request_of("panel.php", "", true, "role=admin"), .generated = true};
    culprit_web_queue_push(&queue, &step, "s0", &queued, &err);
    CHECK(queued);
    step = (culprit_web_step){.request = request_of("panel.php", "", true, "role=admin"), .generated = true};
    culprit_web_queue_push(&queue, &step, "s0", &queued, &err);
    CHECK(!queued);
    step = (culprit_web_step){.request = request_of("panel.php", "", true, "role=role"), .generated = true};
    culprit_web_queue_push(&queue, &step, "s0", &queued, &err);
    CHECK(!queued); /* the default request, run already */
    step = (culprit_web_step){.request = request_of("panel.php", "", true, "role=x")};
    culprit_web_queue_push(&queue, &step, "s0", &queued, &err);
    CHECK(!queued); /* not generated: matched by names */
    culprit_web_queue_free(&queue);
}

int main(void)
{
    test_parse();
    test_negate();
    test_negate_cookies_files();
    test_queue_generated();
    return check_report("web_inputs");
}
