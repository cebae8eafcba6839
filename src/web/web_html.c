/*
 * web_html.c - what a page offers its user, for culprit web (culprit/web.h;
 * Apollo's "user options", seeds/000 §3): the page is parsed with libtidy
 * (which repairs what a browser repairs) and walked for links (<a href>,
 * <area href>, <frame src>, <iframe src>) and forms (<form action method>
 * with their <input>, <textarea>, <select> and <button> fields).  Each
 * becomes a request with the field defaults a user who changes nothing
 * would send; a form with several named submit buttons gives a request per
 * button (and, when asked, a made-up value in each empty text field, and
 * a request per other option of each select, radio group and checkbox).
 * A POST form with a file input uploads a small text file in each, as
 * multipart/form-data (web_multipart.c); a GET form's file input is
 * left out (a browser sends only the file's name).
 * URLs are resolved as a browser would against the page's script
 * at http://localhost/: only PHP scripts of the application are requests;
 * another host, or a path above the application's directory, is off the
 * site and only listed, never followed.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/grow.h"
#include "culprit/web.h"
#include "run/tidy_library.h"

/* ---- URLs ---- */

static bool has_suffix(const char *text, size_t length, const char *suffix)
{
    size_t suffix_length = strlen(suffix);
    return length >= suffix_length && strncasecmp(text + length - suffix_length, suffix, suffix_length) == 0;
}

/* The scheme's length ("http" in http://...), 0 when url has none. */
static size_t scheme_length(const char *url)
{
    size_t length = 0;
    if (!isalpha((unsigned char)url[0]))
        return 0;
    while (isalnum((unsigned char)url[length]) || (url[length] && strchr("+.-", url[length])))
        length++;
    return url[length] == ':' ? length : 0;
}

/* Whether the authority at url (after "//", up to '/', '?' or the end) is
 * this machine, which the application is served as. */
static bool is_local_host(const char *authority, size_t length)
{
    const char *at = memchr(authority, '@', length);
    if (at) {
        length -= (size_t)(at + 1 - authority);
        authority = at + 1;
    }
    const char *colon = memchr(authority, ':', length);
    if (colon)
        length = (size_t)(colon - authority);
    return (length == 9 && strncasecmp(authority, "localhost", 9) == 0) ||
           (length == 9 && strncmp(authority, "127.0.0.1", 9) == 0);
}

/* Joins the segments of path (relative to the application's directory)
 * into a normalized one in out (as large as path plus 10): "." and empty
 * segments dropped, ".." going up; false when it goes above the top.  A
 * directory (a final '/', or nothing) becomes its index.php. */
static bool normalize(const char *path, char *out)
{
    size_t length = 0;
    const char *at = path;
    bool directory = true;
    while (*at) {
        size_t segment = strcspn(at, "/");
        directory = at[segment] == '/' || segment == 0;
        if (segment == 2 && strncmp(at, "..", 2) == 0) {
            if (length == 0)
                return false;
            while (length > 0 && out[length - 1] != '/')
                length--;
            if (length > 0)
                length--; /* the slash before the segment removed */
            directory = true;
        } else if (segment == 1 && at[0] == '.') {
            directory = true;
        } else if (segment > 0) {
            if (length > 0)
                out[length++] = '/';
            memcpy(out + length, at, segment);
            length += segment;
        }
        at += segment + (at[segment] == '/');
    }
    if (directory) {
        if (length > 0)
            out[length++] = '/';
        memcpy(out + length, "index.php", 9);
        length += 9;
    }
    out[length] = '\0';
    return true;
}

culprit_web_target culprit_web_resolve(const char *script, const char *url, char **path, char **query)
{
    *path = *query = NULL;
    while (isspace((unsigned char)*url))
        url++;
    size_t length = strcspn(url, "#");
    while (length > 0 && isspace((unsigned char)url[length - 1]))
        length--;
    if (length == 0 && url[0] == '#')
        return CULPRIT_WEB_IGNORED; /* a place in the same page */
    size_t scheme = scheme_length(url);
    if (scheme && !((scheme == 4 && strncasecmp(url, "http", 4) == 0) ||
                    (scheme == 5 && strncasecmp(url, "https", 5) == 0)))
        return CULPRIT_WEB_IGNORED; /* mailto:, javascript:, ftp: ... */
    const char *rest = url + (scheme ? scheme + 1 : 0);
    length -= (size_t)(rest - url);
    bool absolute = false;
    if (length >= 2 && rest[0] == '/' && rest[1] == '/') {
        size_t authority = strcspn(rest + 2, "/?");
        if (authority > length - 2)
            authority = length - 2;
        if (!is_local_host(rest + 2, authority))
            return CULPRIT_WEB_OFF_SITE;
        rest += 2 + authority;
        length -= 2 + authority;
        absolute = true;
    } else if (scheme) {
        return CULPRIT_WEB_OFF_SITE; /* http:path: not something a page means */
    }
    size_t path_length = strcspn(rest, "?");
    if (path_length > length)
        path_length = length;
    const char *slash = strrchr(script, '/');
    size_t base = absolute || (path_length > 0 && rest[0] == '/') ? 0
                  : slash                                         ? (size_t)(slash - script + 1)
                                                                  : 0;
    char *joined = malloc(base + path_length + strlen(script) + 2);
    char *normalized = malloc(base + path_length + strlen(script) + 12);
    if (!joined || !normalized) {
        free(joined);
        free(normalized);
        return CULPRIT_WEB_SCRIPT;
    }
    if (path_length == 0 && !absolute) /* "?a=1", "": the page itself */
        strcpy(joined, script);
    else {
        memcpy(joined, script, base);
        memcpy(joined + base, rest, path_length);
        joined[base + path_length] = '\0';
    }
    bool inside = normalize(joined, normalized);
    free(joined);
    if (!inside || !has_suffix(normalized, strlen(normalized), ".php")) {
        free(normalized);
        return inside ? CULPRIT_WEB_IGNORED : CULPRIT_WEB_OFF_SITE;
    }
    *path = normalized;
    size_t query_length = path_length < length ? length - path_length - 1 : 0;
    *query = strndup(rest + path_length + (path_length < length), query_length);
    return CULPRIT_WEB_SCRIPT;
}

/* ---- the page ---- */

typedef struct walk {
    TidyDoc document;
    const char *script;
    culprit_web_page *page;
    culprit_web_page_options options;
    culprit_error *err;
    culprit_status status;
} walk;

static const char *attribute(TidyNode node, TidyAttrId id)
{
    TidyAttr found = tidyAttrGetById(node, id);
    return found ? tidyAttrValue(found) : NULL;
}

static bool has_attribute(TidyNode node, TidyAttrId id)
{
    return tidyAttrGetById(node, id) != NULL;
}

static void note_off_site(walk *w, const char *url)
{
    culprit_web_page *page = w->page;
    for (size_t i = 0; i < page->off_site_count; i++)
        if (strcmp(page->off_site[i], url) == 0)
            return;
    char *copy = strdup(url);
    if (!copy || !CULPRIT_GROW(page->off_site, page->off_site_capacity, page->off_site_count + 1, 4)) {
        free(copy);
        w->status = culprit_fail_memory(w->err);
        return;
    }
    page->off_site[page->off_site_count++] = copy;
}

/* Adds request to the page (taking it). */
static void add_request(walk *w, culprit_web_request *request)
{
    culprit_web_page *page = w->page;
    if (!CULPRIT_GROW(page->requests, page->request_capacity, page->request_count + 1, 8)) {
        culprit_web_request_free(request);
        w->status = culprit_fail_memory(w->err);
        return;
    }
    page->requests[page->request_count++] = *request;
}

/* Starts a request to url from the page: the script and the URL's query
 * as GET fields (keep_query); false when url is not a script of the
 * application (an off-site one noted). */
static bool start_request(walk *w, const char *url, bool keep_query, culprit_web_request *request)
{
    char *query = NULL;
    *request = (culprit_web_request){0};
    culprit_web_target target = culprit_web_resolve(w->script, url, &request->script, &query);
    if (target == CULPRIT_WEB_OFF_SITE)
        note_off_site(w, url);
    if (target != CULPRIT_WEB_SCRIPT)
        return false;
    if (!request->script || !query) {
        free(query);
        culprit_web_request_free(request);
        w->status = culprit_fail_memory(w->err);
        return false;
    }
    if (keep_query)
        w->status = culprit_web_fields_parse(query, &request->get, w->err);
    free(query);
    if (w->status != CULPRIT_OK)
        culprit_web_request_free(request);
    return w->status == CULPRIT_OK;
}

static void add_link(walk *w, const char *url)
{
    culprit_web_request request;
    if (url && *url && start_request(w, url, true, &request))
        add_request(w, &request);
}

/* ---- forms ---- */

typedef struct form {
    culprit_web_fields fields;
    culprit_web_fields buttons; /* named submit buttons: name and value */
    culprit_web_fields choices; /* every option, radio button and unchecked checkbox: name and value */
    culprit_web_fields files;   /* file inputs: name and CULPRIT_WEB_UPLOAD_NAME */
    bool has_submit;
} form;

static void add_field(walk *w, culprit_web_fields *fields, const char *name, const char *value)
{
    if (w->status == CULPRIT_OK)
        w->status = culprit_web_fields_add(fields, name, strlen(name), value, strlen(value), w->err);
}

static culprit_web_field *find_field(culprit_web_fields *fields, const char *name)
{
    for (size_t i = 0; i < fields->count; i++)
        if (strcmp(fields->items[i].name, name) == 0)
            return &fields->items[i];
    return NULL;
}

/* A radio button: its group's first button, unless a later one is checked. */
static void add_radio(walk *w, form *f, const char *name, const char *value, bool checked)
{
    culprit_web_field *group = find_field(&f->fields, name);
    if (!group) {
        add_field(w, &f->fields, name, value);
        return;
    }
    char *copy = checked ? strdup(value) : NULL;
    if (checked && !copy) {
        w->status = culprit_fail_memory(w->err);
        return;
    }
    if (copy) {
        free(group->value);
        group->value = copy;
    }
}

/* A text-like field: the value the user gave for its name, else its value,
 * or with fill_empty, when it has none and a user would have to type one, a
 * made-up one. */
static void add_text(walk *w, form *f, const char *name, const char *type, const char *value)
{
    static const char *const typed[] = {"text", "password", "search", "url", "tel", "textarea"};
    /* not a hidden field: the page's own (a token) */
    const culprit_web_fields *given = strcasecmp(type, "hidden") != 0 ? w->options.given : NULL;
    for (size_t i = 0; given && i < given->count; i++)
        if (strcmp(given->items[i].name, name) == 0) {
            add_field(w, &f->fields, name, given->items[i].value); /* the user's: a login */
            return;
        }
    bool fill = w->options.fill_empty && (!value || !*value);
    bool typable = false;
    for (size_t i = 0; i < sizeof typed / sizeof *typed; i++)
        typable |= strcasecmp(type, typed[i]) == 0;
    if (fill && strcasecmp(type, "number") == 0) {
        add_field(w, &f->fields, name, "1");
    } else if (fill && strcasecmp(type, "email") == 0) {
        size_t length = strlen(name) + sizeof "@example.com";
        char *address = malloc(length);
        if (address)
            snprintf(address, length, "%s@example.com", name);
        else
            w->status = culprit_fail_memory(w->err);
        if (address)
            add_field(w, &f->fields, name, address);
        free(address);
    } else {
        add_field(w, &f->fields, name, fill && typable ? name : value ? value : "");
    }
}

static void add_input(walk *w, form *f, TidyNode node)
{
    const char *name = attribute(node, TidyAttr_NAME), *type = attribute(node, TidyAttr_TYPE);
    const char *value = attribute(node, TidyAttr_VALUE);
    if (!type)
        type = "text";
    bool submit = strcasecmp(type, "submit") == 0 || strcasecmp(type, "image") == 0;
    f->has_submit |= submit;
    if (!name || !*name || has_attribute(node, TidyAttr_DISABLED) || strcasecmp(type, "reset") == 0 ||
        strcasecmp(type, "button") == 0)
        return;
    if (strcasecmp(type, "file") == 0)
        add_field(w, &f->files, name, CULPRIT_WEB_UPLOAD_NAME);
    else if (submit)
        add_field(w, &f->buttons, name, value ? value : "Submit");
    else if (strcasecmp(type, "radio") == 0) {
        add_radio(w, f, name, value ? value : "on", has_attribute(node, TidyAttr_CHECKED));
        add_field(w, &f->choices, name, value ? value : "on");
    } else if (strcasecmp(type, "checkbox") == 0)
        add_field(w, has_attribute(node, TidyAttr_CHECKED) ? &f->fields : &f->choices, name,
                  value ? value : "on");
    else if (strcasecmp(type, "checkbox") != 0)
        add_text(w, f, name, type, value);
}

/* The text inside node (a <textarea>, an <option>), without a final newline. */
static char *text_of(walk *w, TidyNode node)
{
    TidyBuffer buffer;
    tidyBufInit(&buffer);
    for (TidyNode child = tidyGetChild(node); child; child = tidyGetNext(child))
        if (tidyNodeIsText(child))
            tidyNodeGetValue(w->document, child, &buffer);
    char *text = strndup(buffer.bp ? (const char *)buffer.bp : "", buffer.size);
    tidyBufFree(&buffer);
    if (!text)
        w->status = culprit_fail_memory(w->err);
    return text;
}

/* The options of a <select> (in <optgroup>s too): the first enabled one
 * and the first selected one. */
static void scan_options(TidyNode parent, TidyNode *first, TidyNode *chosen)
{
    for (TidyNode child = tidyGetChild(parent); child && !*chosen; child = tidyGetNext(child)) {
        if (tidyNodeGetId(child) == TidyTag_OPTGROUP)
            scan_options(child, first, chosen);
        if (tidyNodeGetId(child) != TidyTag_OPTION || has_attribute(child, TidyAttr_DISABLED))
            continue;
        if (!*first)
            *first = child;
        if (has_attribute(child, TidyAttr_SELECTED))
            *chosen = child;
    }
}

/* An <option>'s value (its text when it has no value attribute) as name's. */
static void add_option(walk *w, culprit_web_fields *fields, const char *name, TidyNode option)
{
    const char *value = attribute(option, TidyAttr_VALUE);
    char *text = value ? NULL : text_of(w, option);
    if (value || text)
        add_field(w, fields, name, value ? value : text);
    free(text);
}

/* Every enabled option of a <select> (in <optgroup>s too), as choices. */
static void add_choices(walk *w, form *f, const char *name, TidyNode parent)
{
    for (TidyNode child = tidyGetChild(parent); child && w->status == CULPRIT_OK;
         child = tidyGetNext(child)) {
        if (tidyNodeGetId(child) == TidyTag_OPTGROUP)
            add_choices(w, f, name, child);
        else if (tidyNodeGetId(child) == TidyTag_OPTION && !has_attribute(child, TidyAttr_DISABLED))
            add_option(w, &f->choices, name, child);
    }
}

/* A <select>: its selected option (the first selected), else its first. */
static void add_select(walk *w, form *f, TidyNode node)
{
    const char *name = attribute(node, TidyAttr_NAME);
    if (!name || !*name || has_attribute(node, TidyAttr_DISABLED))
        return;
    TidyNode chosen = NULL, first = NULL;
    scan_options(node, &first, &chosen);
    if (!chosen)
        chosen = first;
    if (chosen)
        add_option(w, &f->fields, name, chosen);
    if (w->options.each_option)
        add_choices(w, f, name, node);
}

static void add_form_fields(walk *w, form *f, TidyNode node)
{
    for (TidyNode child = tidyGetChild(node); child && w->status == CULPRIT_OK; child = tidyGetNext(child)) {
        TidyTagId id = tidyNodeGetId(child);
        const char *name = attribute(child, TidyAttr_NAME);
        if (id == TidyTag_INPUT)
            add_input(w, f, child);
        else if (id == TidyTag_SELECT)
            add_select(w, f, child);
        else if (id == TidyTag_TEXTAREA && name && *name && !has_attribute(child, TidyAttr_DISABLED)) {
            char *text = text_of(w, child);
            if (text)
                add_text(w, f, name, "textarea", text);
            free(text);
        } else if (id == TidyTag_BUTTON) {
            const char *type = attribute(child, TidyAttr_TYPE);
            bool submit = !type || strcasecmp(type, "submit") == 0;
            f->has_submit |= submit;
            if (submit && name && *name && !has_attribute(child, TidyAttr_DISABLED)) {
                const char *value = attribute(child, TidyAttr_VALUE);
                add_field(w, &f->buttons, name, value ? value : "");
            }
        } else {
            add_form_fields(w, f, child);
        }
    }
}

/* Sets field name to value in fields (adding it when absent). */
static culprit_status set_field(culprit_web_fields *fields, const culprit_web_field *field,
                                culprit_error *err)
{
    culprit_web_field *found = find_field(fields, field->name);
    if (!found)
        return culprit_web_fields_add(fields, field->name, strlen(field->name), field->value,
                                      strlen(field->value), err);
    char *copy = strdup(field->value);
    if (!copy)
        return culprit_fail_memory(err);
    free(found->value);
    found->value = copy;
    return CULPRIT_OK;
}

/* One request of a form, with button (NULL: none) as the submit button and
 * variant (NULL: none) the one field changed from its default. */
static void add_form_request(walk *w, TidyNode node, const form *f, const culprit_web_field *button,
                             const culprit_web_field *variant)
{
    const char *action = attribute(node, TidyAttr_ACTION), *method = attribute(node, TidyAttr_METHOD);
    bool is_post = method && strcasecmp(method, "post") == 0;
    culprit_web_request request;
    /* A GET form's data replaces its action's query, as in a browser. */
    if (!start_request(w, action ? action : "", is_post, &request))
        return;
    request.is_post = is_post;
    /* A POST form with a file input is sent as multipart/form-data, as
     * its enctype must say for the file to be uploaded at all: one that
     * forgot it would upload only the file's name, which is not $_FILES. */
    const char *enctype = attribute(node, TidyAttr_ENCTYPE);
    request.multipart =
        is_post && (f->files.count || (enctype && !strcasecmp(enctype, "multipart/form-data")));
    culprit_web_fields *fields = is_post ? &request.post : &request.get;
    w->status = culprit_web_fields_copy(&f->fields, fields, w->err);
    if (w->status == CULPRIT_OK && request.multipart)
        w->status = culprit_web_fields_copy(&f->files, &request.files, w->err);
    if (w->status == CULPRIT_OK && variant)
        w->status = set_field(fields, variant, w->err);
    if (w->status == CULPRIT_OK && button)
        w->status = culprit_web_fields_add(fields, button->name, strlen(button->name), button->value,
                                           strlen(button->value), w->err);
    if (w->status == CULPRIT_OK)
        add_request(w, &request);
    else
        culprit_web_request_free(&request);
}

/* With each_option: a request per choice that is not its field's default. */
static void add_form_variants(walk *w, TidyNode node, form *f)
{
    const culprit_web_field *button = f->buttons.count ? &f->buttons.items[0] : NULL;
    for (size_t i = 0; i < f->choices.count && w->status == CULPRIT_OK; i++) {
        const culprit_web_field *choice = &f->choices.items[i];
        const culprit_web_field *current = find_field(&f->fields, choice->name);
        if (!current || strcmp(current->value, choice->value) != 0)
            add_form_request(w, node, f, button, choice);
    }
}

static void add_form(walk *w, TidyNode node)
{
    form f = {0};
    add_form_fields(w, &f, node);
    for (size_t i = 0; i < f.buttons.count && w->status == CULPRIT_OK; i++)
        add_form_request(w, node, &f, &f.buttons.items[i], NULL);
    if (f.buttons.count == 0 && w->status == CULPRIT_OK)
        add_form_request(w, node, &f, NULL, NULL);
    if (w->options.each_option)
        add_form_variants(w, node, &f);
    culprit_web_fields_free(&f.fields);
    culprit_web_fields_free(&f.buttons);
    culprit_web_fields_free(&f.choices);
    culprit_web_fields_free(&f.files);
}

static void visit(walk *w, TidyNode node)
{
    for (TidyNode child = tidyGetChild(node); child && w->status == CULPRIT_OK; child = tidyGetNext(child)) {
        TidyTagId id = tidyNodeGetId(child);
        if (id == TidyTag_A || id == TidyTag_AREA)
            add_link(w, attribute(child, TidyAttr_HREF));
        else if (id == TidyTag_FRAME || id == TidyTag_IFRAME)
            add_link(w, attribute(child, TidyAttr_SRC));
        else if (id == TidyTag_FORM)
            add_form(w, child);
        visit(w, child); /* a form's links too */
    }
}

culprit_status culprit_web_page_read(const char *html, size_t length, const char *script,
                                     const culprit_web_page_options *options, culprit_web_page *page,
                                     culprit_error *err)
{
    culprit_status loaded = culprit_tidy_load(err);
    if (loaded != CULPRIT_OK)
        return loaded;
    TidyDoc document = tidyCreate();
    if (!document)
        return culprit_fail_memory(err);
    TidyBuffer errors, input;
    tidyBufInit(&errors);
    tidyBufInit(&input);
    bool configured =
        tidySetErrorBuffer(document, &errors) >= 0 && tidyOptSetBool(document, TidyQuiet, yes) &&
        tidyOptSetBool(document, TidyShowWarnings, no) && tidySetInCharEncoding(document, "utf8") >= 0;
    if (length > UINT32_MAX)
        length = UINT32_MAX; /* TidyBuffer sizes are 32-bit */
    /* tidy reads a TidyBuffer without copying; it never writes to it */
    tidyBufAttach(&input, (byte *)(uintptr_t)html, (uint)length);
    int code = configured ? tidyParseBuffer(document, &input) : -1;
    walk w = {.document = document, .script = script, .page = page, .options = *options, .err = err};
    if (!configured)
        w.status = culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot configure libtidy");
    else if (code >= 0)
        visit(&w, tidyGetRoot(document));
    tidyBufDetach(&input);
    tidyBufFree(&errors);
    tidyRelease(document);
    return w.status;
}

void culprit_web_page_free(culprit_web_page *page)
{
    for (size_t i = 0; i < page->request_count; i++)
        culprit_web_request_free(&page->requests[i]);
    free(page->requests);
    for (size_t i = 0; i < page->off_site_count; i++)
        free(page->off_site[i]);
    free(page->off_site);
    *page = (culprit_web_page){0};
}
