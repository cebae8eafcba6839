/*
 * test_web_upload.c - what a culprit web request sends besides its GET and
 * POST fields (culprit/web.h; docs/web.md "Cookies and uploads"): its own
 * cookies before the state's in the Cookie header (web_request.c), in its
 * transition key, description and the strategies' field values and
 * similarity; its files as a multipart/form-data body,
 * byte for byte, and read back (web_multipart.c); and the forms with a
 * file input that make such requests (web_html.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "culprit/web.h"
#include "web_fixture.h"

static void add(culprit_web_fields *fields, const char *name, const char *value)
{
    culprit_error err;
    culprit_web_fields_add(fields, name, strlen(name), value, strlen(value), &err);
}

static char header[512];
static const char *cookies_over(const culprit_web_request *request, const char *jar)
{
    char *text = NULL;
    culprit_error err = {0};
    if (culprit_web_request_cookies(request, jar, &text, &err) != CULPRIT_OK)
        return "(error)";
    snprintf(header, sizeof header, "%s", text);
    free(text);
    return header;
}

/* The request's own cookies first, encoded; the jar's after them, but for
 * the names the request sends. */
static void test_cookie_header(void)
{
    culprit_web_request request = request_of("index.php", "", false, "");
    CHECK_STR(cookies_over(&request, ""), "");
    CHECK_STR(cookies_over(&request, "PHPSESSID=abc; lang=fr"), "PHPSESSID=abc; lang=fr");
    add(&request.cookies, "mode", "expert user");
    add(&request.cookies, "a;b", "1=2");
    CHECK_STR(cookies_over(&request, NULL), "mode=expert%20user; a%3Bb=1%3D2");
    CHECK_STR(cookies_over(&request, "PHPSESSID=abc; mode=basic; modes=x; a%3Bb=0"),
              "mode=expert%20user; a%3Bb=1%3D2; PHPSESSID=abc; modes=x");
    culprit_web_request_free(&request);
}

static char text[1024];
static const char *key_of(const culprit_web_request *request, bool with_values)
{
    char *key = NULL;
    culprit_error err = {0};
    if (culprit_web_request_key(request, "D", with_values, &key, &err) != CULPRIT_OK)
        return "(error)";
    snprintf(text, sizeof text, "%s", key);
    free(key);
    return text;
}

static const char *described(const culprit_web_request *request)
{
    char *description = culprit_web_request_describe(request);
    snprintf(text, sizeof text, "%s", description ? description : "(null)");
    free(description);
    return text;
}

/* Cookies and files are part of the transition and of the description;
 * a request without them keeps the key it had. */
static void test_key_describe(void)
{
    culprit_web_request request = request_of("up.php", "a=1", true, "t=x");
    CHECK_STR(key_of(&request, true), "POST up.php?a=1 t=x @D");
    add(&request.cookies, "mode", "expert");
    CHECK_STR(key_of(&request, false), "POST up.php?a t cookies:mode @D");
    CHECK_STR(key_of(&request, true), "POST up.php?a=1 t=x cookies:mode=expert @D");
    CHECK_STR(described(&request), "POST up.php?a=1 t=x cookie mode=expert");
    request.multipart = true;
    add(&request.files, "doc", CULPRIT_WEB_UPLOAD_NAME);
    CHECK_STR(key_of(&request, true), "POST up.php?a=1 t=x cookies:mode=expert files:doc multipart @D");
    CHECK_STR(described(&request), "POST up.php?a=1 t=x cookie mode=expert file doc");
    culprit_web_request other = {0};
    culprit_error err = {0};
    CHECK_INT(culprit_web_request_copy(&request, &other, &err), CULPRIT_OK);
    CHECK_STR(key_of(&other, true), "POST up.php?a=1 t=x cookies:mode=expert files:doc multipart @D");
    culprit_web_request_free(&other);
    culprit_web_request_free(&request);
}

/* The strategies read a cookie's value from the request's own cookies
 * (a GET field of the same name is another input), a file's as its name. */
static void test_field_value(void)
{
    culprit_web_request request = request_of("a.php", "mode=get", false, "");
    culprit_web_constraint cookie = {.kind = "eq", .source = "cookie", .field = "mode"};
    culprit_web_constraint file = {.kind = "isset", .source = "files", .field = "doc"};
    CHECK(culprit_web_field_value(&request, &cookie) == NULL);
    CHECK(culprit_web_field_value(&request, &file) == NULL);
    add(&request.cookies, "mode", "expert");
    add(&request.files, "doc", CULPRIT_WEB_UPLOAD_NAME);
    const char *value = culprit_web_field_value(&request, &cookie);
    CHECK_STR(value ? value : "(null)", "expert");
    value = culprit_web_field_value(&request, &file);
    CHECK_STR(value ? value : "(null)", CULPRIT_WEB_UPLOAD_NAME);
    culprit_web_request other = request_of("a.php", "mode=get", false, "");
    CHECK_NEAR(culprit_web_request_similarity(&request, &other), 2.0 / 4.0, 1e-9);
    culprit_web_request_free(&other);
    culprit_web_request_free(&request);
}

/* The body, byte for byte: CRLF line ends, the file's part last. */
static void test_multipart(void)
{
    culprit_web_request request = request_of("up.php", "", true, "title=a+b&empty=");
    add(&request.files, "doc\"x", CULPRIT_WEB_UPLOAD_NAME);
    request.multipart = true;
    char *body = NULL;
    culprit_error err = {0};
    CHECK_INT(culprit_web_multipart_encode(&request, &body, &err), CULPRIT_OK);
    CHECK_STR(body, "--culprit-form-boundary-5f0c2a\r\n"
                    "Content-Disposition: form-data; name=\"title\"\r\n"
                    "\r\n"
                    "a b\r\n"
                    "--culprit-form-boundary-5f0c2a\r\n"
                    "Content-Disposition: form-data; name=\"empty\"\r\n"
                    "\r\n"
                    "\r\n"
                    "--culprit-form-boundary-5f0c2a\r\n"
                    "Content-Disposition: form-data; name=\"doc%22x\"; filename=\"culprit.txt\"\r\n"
                    "Content-Type: text/plain\r\n"
                    "\r\n"
                    "culprit upload\n"
                    "\r\n"
                    "--culprit-form-boundary-5f0c2a--\r\n");
    CHECK_STR(CULPRIT_WEB_MULTIPART_TYPE, "multipart/form-data; boundary=culprit-form-boundary-5f0c2a");
    /* read back (culprit web --from) */
    culprit_web_request back = {0};
    CHECK_INT(culprit_web_multipart_parse(body ? body : "", &back, &err), CULPRIT_OK);
    CHECK(back.is_post && back.multipart);
    CHECK_INT(back.post.count, 2);
    CHECK_INT(back.files.count, 1);
    if (back.post.count == 2 && back.files.count == 1) {
        CHECK_STR(back.post.items[0].value, "a b");
        CHECK_STR(back.post.items[1].value, "");
        CHECK_STR(back.files.items[0].name, "doc\"x");
        CHECK_STR(back.files.items[0].value, "culprit.txt");
    }
    culprit_web_request_free(&back);
    /* only fields, only the end */
    culprit_web_request_free(&request);
    request = request_of("up.php", "", true, "");
    request.multipart = true;
    free(body);
    CHECK_INT(culprit_web_multipart_encode(&request, &body, &err), CULPRIT_OK);
    CHECK_STR(body, "--culprit-form-boundary-5f0c2a--\r\n");
    CHECK_INT(culprit_web_multipart_parse(body ? body : "", &back, &err), CULPRIT_OK);
    CHECK_INT(back.post.count + back.files.count, 0);
    culprit_web_request_free(&back);
    /* another boundary, a body cut short */
    CHECK_INT(culprit_web_multipart_parse("--other\r\n", &back, &err), CULPRIT_ERROR_INPUT);
    CHECK_INT(culprit_web_multipart_parse("--culprit-form-boundary-5f0c2a\r\nContent-Disposition: form-data; "
                                          "name=\"a\"\r\n\r\nx",
                                          &back, &err),
              CULPRIT_ERROR_INPUT);
    culprit_web_request_free(&back);
    culprit_web_request_free(&request);
    free(body);
}

/* A POST form with a file input uploads a file in it (multipart); its
 * enctype alone makes it multipart; a GET form's file input is left out. */
static void test_forms(void)
{
    const char *html = "<html><head><title>t</title></head><body>\n"
                       "<form action=\"up.php\" method=\"post\"><input name=\"t\" value=\"1\">"
                       "<input type=\"file\" name=\"doc\"><input type=\"file\" name=\"off\" disabled>"
                       "<input type=\"file\"></form>\n"
                       "<form action=\"b.php\" method=\"post\" enctype=\"multipart/form-data\">"
                       "<input name=\"t\" value=\"2\"></form>\n"
                       "<form action=\"c.php\"><input type=\"file\" name=\"doc\"></form>\n"
                       "</body></html>\n";
    culprit_web_page page = {0};
    culprit_web_page_options options = {0};
    culprit_error err = {0};
    CHECK_INT(culprit_web_page_read(html, strlen(html), "index.php", &options, &page, &err), CULPRIT_OK);
    CHECK_INT(page.request_count, 3);
    if (page.request_count == 3) {
        CHECK_STR(described(&page.requests[0]), "POST up.php t=1 file doc");
        CHECK(page.requests[0].multipart);
        CHECK_STR(page.requests[0].files.items[0].value, CULPRIT_WEB_UPLOAD_NAME);
        CHECK_STR(described(&page.requests[1]), "POST b.php t=2");
        CHECK(page.requests[1].multipart);
        CHECK_STR(described(&page.requests[2]), "GET c.php");
        CHECK(!page.requests[2].multipart);
    }
    culprit_web_page_free(&page);
}

int main(void)
{
    test_cookie_header();
    test_key_describe();
    test_field_value();
    test_multipart();
    test_forms();
    return check_report("web_upload");
}
