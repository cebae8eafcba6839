/*
 * test_web.c - culprit web's library half (src/web/, culprit/web.h): URLs
 * resolved against a page's script (relative, absolute, ./.., a directory,
 * this host, another host, above the application), the links and forms a
 * page offers (hidden fields, defaults, selects, checkboxes, radio groups,
 * textareas, submit buttons, GET forms replacing the action's query), the
 * transition keys of state matching and the queue that skips a transition
 * seen before, and a state's cookies and digest.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "culprit/harness.h"
#include "culprit/web.h"

/* "SCRIPT?QUERY" of url resolved on page, or "off" / "ignored". */
static char resolved[512];
static const char *resolve(const char *page, const char *url)
{
    char *path = NULL, *query = NULL;
    culprit_web_target target = culprit_web_resolve(page, url, &path, &query);
    if (target == CULPRIT_WEB_OFF_SITE)
        snprintf(resolved, sizeof resolved, "off");
    else if (target == CULPRIT_WEB_IGNORED)
        snprintf(resolved, sizeof resolved, "ignored");
    else
        snprintf(resolved, sizeof resolved, "%s?%s", path ? path : "(null)", query ? query : "(null)");
    free(path);
    free(query);
    return resolved;
}

static void test_resolve(void)
{
    CHECK_STR(resolve("index.php", "login.php"), "login.php?");
    CHECK_STR(resolve("admin/users.php", "edit.php?id=3&x=a+b"), "admin/edit.php?id=3&x=a+b");
    CHECK_STR(resolve("admin/users.php", "../index.php"), "index.php?");
    CHECK_STR(resolve("admin/users.php", "./sub/../edit.php#top"), "admin/edit.php?");
    CHECK_STR(resolve("admin/users.php", "/shop/cart.php?add=1"), "shop/cart.php?add=1");
    CHECK_STR(resolve("admin/users.php", "?page=2"), "admin/users.php?page=2");
    CHECK_STR(resolve("admin/users.php", ""), "admin/users.php?");
    CHECK_STR(resolve("admin/users.php", "../"), "index.php?");
    CHECK_STR(resolve("index.php", "forum/"), "forum/index.php?");
    CHECK_STR(resolve("index.php", "http://localhost/a.php?q=1"), "a.php?q=1");
    CHECK_STR(resolve("index.php", "http://localhost:8080"), "index.php?");
    CHECK_STR(resolve("index.php", "  b.php  "), "b.php?");
    /* off the site: never followed */
    CHECK_STR(resolve("index.php", "http://example.com/steal.php"), "off");
    CHECK_STR(resolve("index.php", "https://evil.example/x.php?a=1"), "off");
    CHECK_STR(resolve("index.php", "//cdn.example.com/lib.php"), "off");
    CHECK_STR(resolve("admin/users.php", "../../etc/passwd.php"), "off");
    /* not requests to PHP scripts */
    CHECK_STR(resolve("index.php", "#top"), "ignored");
    CHECK_STR(resolve("index.php", "mailto:ann@example.com"), "ignored");
    CHECK_STR(resolve("index.php", "javascript:void(0)"), "ignored");
    CHECK_STR(resolve("index.php", "style.css"), "ignored");
    CHECK_STR(resolve("index.php", "docs/readme.html"), "ignored");
}

/* The page's requests, "GET a.php?x=1" / "POST b.php?q=1 u=ann", one a line. */
static char described[4096];
static culprit_web_page_options page_options;
static const char *describe_page(const char *html, const char *script, culprit_web_page *page)
{
    culprit_error err = {0};
    *page = (culprit_web_page){0};
    described[0] = '\0';
    if (culprit_web_page_read(html, strlen(html), script, &page_options, page, &err) != CULPRIT_OK) {
        snprintf(described, sizeof described, "error: %s", err.message);
        return described;
    }
    for (size_t i = 0; i < page->request_count; i++) {
        char *text = culprit_web_request_describe(&page->requests[i]);
        snprintf(described + strlen(described), sizeof described - strlen(described), "%s\n", text);
        free(text);
    }
    return described;
}

static void test_links(void)
{
    culprit_web_page page;
    const char *html = "<html><head><title>t</title></head><body>\n"
                       "<a href=\"about.php\">about</a> <a href='list.php?sort=name&amp;page=2'>list</a>\n"
                       "<a href=\"#top\">top</a> <a>no href</a> <a href=\"style.css\">css</a>\n"
                       "<a href=\"http://example.com/x.php\">away</a> <a href=\"mailto:a@b.c\">mail</a>\n"
                       "<iframe src=\"frame.php\"></iframe></body></html>\n";
    CHECK_STR(describe_page(html, "shop/index.php", &page),
              "GET shop/about.php\nGET shop/list.php?sort=name&page=2\nGET shop/frame.php\n");
    CHECK_INT(page.off_site_count, 1);
    if (page.off_site_count == 1)
        CHECK_STR(page.off_site[0], "http://example.com/x.php");
    culprit_web_page_free(&page);
}

static void test_forms(void)
{
    culprit_web_page page;
    const char *html =
        "<html><head><title>t</title></head><body>\n"
        "<form action=\"login.php?next=home\" method=\"post\">\n"
        " <input type=\"hidden\" name=\"token\" value=\"abc 1\">\n"
        " <table><tr><td><input name=\"user\" value=\"guest\"></td></tr></table>\n"
        " <input type=\"password\" name=\"pass\">\n"
        " <input type=\"checkbox\" name=\"remember\" checked> <input type=\"checkbox\" name=\"spam\" "
        "value=\"y\">\n"
        " <input type=\"radio\" name=\"lang\" value=\"en\"> <input type=\"radio\" name=\"lang\" value=\"fr\" "
        "checked>\n"
        " <select name=\"role\"><option value=\"u\">user</option><option selected>admin</option></select>\n"
        " <select name=\"tz\"><optgroup label=\"x\"><option value=\"utc\">UTC</option></optgroup></select>\n"
        " <textarea name=\"note\">hi there</textarea>\n"
        " <input type=\"text\" name=\"off\" value=\"1\" disabled> <input type=\"reset\" name=\"r\">\n"
        " <input type=\"submit\" name=\"go\" value=\"Log in\"> <button name=\"cancel\" "
        "value=\"1\">x</button>\n"
        "</form>\n"
        "<form action=\"search.php?old=1\"><input name=\"q\" value=\"\"><input type=\"submit\"></form>\n"
        "<form method=\"POST\"><input name=\"again\" value=\"1\"></form>\n"
        "<form action=\"https://other.example.com/pay.php\" method=\"post\"><input name=\"card\"></form>\n"
        "</body></html>\n";
    CHECK_STR(describe_page(html, "site/index.php", &page),
              "POST site/login.php?next=home "
              "token=abc+1&user=guest&pass=&remember=on&lang=fr&role=admin&tz=utc&note=hi+there&go=Log+in\n"
              "POST site/login.php?next=home "
              "token=abc+1&user=guest&pass=&remember=on&lang=fr&role=admin&tz=utc&note=hi+there&cancel=1\n"
              "GET site/search.php?q=\n"
              "POST site/index.php again=1\n");
    CHECK_INT(page.off_site_count, 1);
    if (page.off_site_count == 1)
        CHECK_STR(page.off_site[0], "https://other.example.com/pay.php");
    culprit_web_page_free(&page);
    /* --fill: the fields a user must type get a value, each its own */
    page_options.fill_empty = true;
    CHECK_STR(describe_page("<form method=post action=start.php><input name=a><input name=b value=''>"
                            "<input type=number name=n><input type=email name=e><input type=hidden name=h>"
                            "<input name=k value=kept><textarea name=t></textarea></form>",
                            "index.php", &page),
              "POST start.php a=a&b=b&n=1&e=e%40example.com&h=&k=kept&t=t\n");
    culprit_web_page_free(&page);
    /* --field: the user's values by name, over the default and over --fill;
     * not for hidden fields */
    culprit_web_fields given = {0};
    culprit_error err;
    culprit_web_fields_add(&given, "user", 4, "admin", 5, &err);
    culprit_web_fields_add(&given, "pass", 4, "let me in", 9, &err);
    culprit_web_fields_add(&given, "h", 1, "no", 2, &err);
    page_options.given = &given;
    CHECK_STR(describe_page("<form method=post action=login.php><input name=user value=guest>"
                            "<input type=password name=pass><input type=hidden name=h value=t><input name=a>"
                            "</form>",
                            "index.php", &page),
              "POST login.php user=admin&pass=let+me+in&h=t&a=a\n");
    culprit_web_page_free(&page);
    page_options.given = NULL;
    culprit_web_fields_free(&given);
    page_options.fill_empty = false;
    /* --each-option: one field changed at a time, with the first button */
    page_options.each_option = true;
    CHECK_STR(describe_page("<form action=f.php><select name=s><option>a</option><optgroup><option selected>b"
                            "</option><option value=c>C</option></optgroup></select>"
                            "<input type=radio name=r value=x checked><input type=radio name=r value=y>"
                            "<input type=checkbox name=k><input type=submit name=go value=1>"
                            "<input type=submit name=stop value=2></form>",
                            "index.php", &page),
              "GET f.php?s=b&r=x&go=1\nGET f.php?s=b&r=x&stop=2\nGET f.php?s=a&r=x&go=1\n"
              "GET f.php?s=c&r=x&go=1\nGET f.php?s=b&r=y&go=1\nGET f.php?s=b&r=x&k=on&go=1\n");
    culprit_web_page_free(&page);
    page_options.each_option = false;
    /* not HTML at all: nothing offered, no error */
    CHECK_STR(describe_page("plain text, <<< not a page", "a.php", &page), "");
    culprit_web_page_free(&page);
}

static void test_fields(void)
{
    culprit_web_fields fields = {0};
    culprit_error err = {0};
    CHECK_INT(culprit_web_fields_parse("a=1&b=x+y%21&&c&=skip&d=%zz", &fields, &err), CULPRIT_OK);
    CHECK_INT(fields.count, 4);
    if (fields.count == 4) {
        CHECK_STR(fields.items[1].value, "x y!");
        CHECK_STR(fields.items[2].name, "c");
        CHECK_STR(fields.items[2].value, "");
        CHECK_STR(fields.items[3].value, "%zz");
    }
    char *encoded = NULL;
    CHECK_INT(culprit_web_fields_encode(&fields, &encoded, &err), CULPRIT_OK);
    CHECK_STR(encoded, "a=1&b=x+y%21&c=&d=%25zz");
    free(encoded);
    culprit_web_fields_free(&fields);
}

static culprit_web_step step_of(const char *script, const char *query, bool is_post, const char *body)
{
    culprit_web_step step = {.request = {.script = strdup(script), .is_post = is_post}};
    culprit_error err;
    culprit_web_fields_parse(query, &step.request.get, &err);
    culprit_web_fields_parse(body, &step.request.post, &err);
    return step;
}

static void test_queue(void)
{
    culprit_web_queue queue = {0};
    culprit_error err = {0};
    bool queued;
    culprit_web_step step = step_of("item.php", "id=1&view=full", false, "");
    CHECK_INT(culprit_web_queue_push(&queue, &step, "s0", &queued, &err), CULPRIT_OK);
    CHECK(queued);
    /* the same names in another order, other values: the same transition */
    step = step_of("item.php", "view=x&id=2", false, "");
    CHECK_INT(culprit_web_queue_push(&queue, &step, "s0", &queued, &err), CULPRIT_OK);
    CHECK(!queued);
    /* another state, another name, a POST: new transitions */
    step = step_of("item.php", "id=1&view=full", false, "");
    culprit_web_queue_push(&queue, &step, "s1", &queued, &err);
    CHECK(queued);
    step = step_of("item.php", "id=1", false, "");
    culprit_web_queue_push(&queue, &step, "s0", &queued, &err);
    CHECK(queued);
    step = step_of("item.php", "", true, "id=1&view=full");
    culprit_web_queue_push(&queue, &step, "s0", &queued, &err);
    CHECK(queued);
    culprit_web_step taken;
    size_t count = 0;
    while (culprit_web_queue_pop(&queue, &taken)) {
        if (count == 0)
            CHECK_STR(taken.request.get.items[1].value, "full"); /* oldest first */
        culprit_web_request_free(&taken.request);
        count++;
    }
    CHECK_INT(count, 4);
    culprit_web_queue_free(&queue);
    /* matching values too: other values are another transition */
    culprit_web_queue values = {.match_values = true};
    step = step_of("item.php", "id=1&view=full", false, "");
    culprit_web_queue_push(&values, &step, "s0", &queued, &err);
    CHECK(queued);
    step = step_of("item.php", "view=full&id=1", false, "");
    culprit_web_queue_push(&values, &step, "s0", &queued, &err);
    CHECK(!queued);
    step = step_of("item.php", "id=2&view=full", false, "");
    culprit_web_queue_push(&values, &step, "s0", &queued, &err);
    CHECK(queued);
    culprit_web_queue_free(&values);
}

static void write_file(const char *path, const char *text)
{
    FILE *file = fopen(path, "w");
    fputs(text, file);
    fclose(file);
}

static void test_state(void)
{
    char root[] = "/tmp/culprit-web-test.XXXXXX", a[600], b[600], path[700], headers[600];
    culprit_error err = {0};
    if (!mkdtemp(root)) {
        CHECK(!"mkdtemp");
        return;
    }
    snprintf(a, sizeof a, "%s/a", root);
    snprintf(b, sizeof b, "%s/b", root);
    snprintf(headers, sizeof headers, "%s/headers", root);
    culprit_web_databases none = {.app_directory = root};
    CHECK_INT(culprit_web_state_initial(a, &none, &err), CULPRIT_OK);
    char digest_a[65], digest_b[65];
    CHECK_INT(culprit_web_state_digest(a, digest_a, &err), CULPRIT_OK);
    /* a new session and a cookie */
    write_file(headers, "Status: 302\nSet-Cookie: PHPSESSID=abc123; path=/\nSet-Cookie: lang=fr\n"
                        "Location: members.php\n");
    snprintf(path, sizeof path, "%s/sessions/sess_abc123", a);
    write_file(path, "user|s:5:\"guest\";");
    char *location = NULL, *cookies = NULL;
    CHECK_INT(culprit_web_state_apply_headers(a, headers, &location, &err), CULPRIT_OK);
    CHECK_STR(location, "members.php");
    CHECK_INT(culprit_web_state_cookies(a, &cookies, &err), CULPRIT_OK);
    CHECK_STR(cookies, "PHPSESSID=abc123; lang=fr");
    free(location);
    free(cookies);
    CHECK_INT(culprit_web_state_digest(a, digest_b, &err), CULPRIT_OK);
    CHECK(strcmp(digest_a, digest_b) != 0);
    /* the same session under another id: the same state */
    CHECK_INT(culprit_web_state_copy(a, b, &err), CULPRIT_OK);
    snprintf(path, sizeof path, "%s/sessions/sess_abc123", b);
    unlink(path);
    snprintf(path, sizeof path, "%s/sessions/sess_zzz999", b);
    write_file(path, "user|s:5:\"guest\";");
    write_file(headers, "Status: 200\nSet-Cookie: PHPSESSID=zzz999; path=/\n");
    CHECK_INT(culprit_web_state_apply_headers(b, headers, &location, &err), CULPRIT_OK);
    CHECK(location == NULL);
    CHECK_INT(culprit_web_state_digest(b, digest_a, &err), CULPRIT_OK);
    CHECK_STR(digest_a, digest_b);
    /* a cookie removed */
    write_file(headers,
               "Status: 200\nSet-Cookie: lang=deleted; expires=Thu, 01 Jan 1970 00:00:01 GMT; Max-Age=0\n");
    CHECK_INT(culprit_web_state_apply_headers(b, headers, &location, &err), CULPRIT_OK);
    CHECK_INT(culprit_web_state_cookies(b, &cookies, &err), CULPRIT_OK);
    CHECK_STR(cookies, "PHPSESSID=zzz999");
    free(cookies);
    /* a Cookie header as the state's cookies (culprit web --from): a piece
     * without "=" is not a cookie */
    CHECK_INT(culprit_web_state_set_cookies(b, "lang=fr;  id=a%3Db; junk; e=", &err), CULPRIT_OK);
    CHECK_INT(culprit_web_state_cookies(b, &cookies, &err), CULPRIT_OK);
    CHECK_STR(cookies, "lang=fr; id=a%3Db; e=");
    free(cookies);
    culprit_remove_tree(root);
}

int main(void)
{
    test_resolve();
    test_links();
    test_forms();
    test_fields();
    test_queue();
    test_state();
    return check_report("web");
}
