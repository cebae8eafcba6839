/*
 * web_request.c - culprit web's requests (culprit/web.h): their inputs
 * decoded from a query string and form-encoded again as a browser sends
 * them, the Cookie header of a request that sends cookies of its own over
 * its state's, and the key of the transition a request makes from a state
 * (the state matching of Apollo, seeds/000 §3: the script, the names of
 * its inputs and the state; the inputs' values too when asked).  The
 * multipart bodies of uploads are web_multipart.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "core/text.h"
#include "culprit/web.h"

culprit_status culprit_web_fields_add(culprit_web_fields *fields, const char *name, size_t name_length,
                                      const char *value, size_t value_length, culprit_error *err)
{
    if (!CULPRIT_GROW(fields->items, fields->capacity, fields->count + 1, 4))
        return culprit_fail_memory(err);
    culprit_web_field *field = &fields->items[fields->count];
    field->name = strndup(name, name_length);
    field->value = strndup(value, value_length);
    if (!field->name || !field->value) {
        free(field->name);
        free(field->value);
        return culprit_fail_memory(err);
    }
    fields->count++;
    return CULPRIT_OK;
}

void culprit_web_fields_free(culprit_web_fields *fields)
{
    for (size_t i = 0; i < fields->count; i++) {
        free(fields->items[i].name);
        free(fields->items[i].value);
    }
    free(fields->items);
    *fields = (culprit_web_fields){0};
}

culprit_status culprit_web_fields_copy(const culprit_web_fields *from, culprit_web_fields *to,
                                       culprit_error *err)
{
    culprit_status status = CULPRIT_OK;
    for (size_t i = 0; i < from->count && status == CULPRIT_OK; i++)
        status = culprit_web_fields_add(to, from->items[i].name, strlen(from->items[i].name),
                                        from->items[i].value, strlen(from->items[i].value), err);
    return status;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Decodes length bytes of text in place ('+' is a space, %XX a byte);
 * returns the decoded length. */
static size_t decode(char *text, size_t length)
{
    size_t out = 0;
    for (size_t i = 0; i < length; i++) {
        int high = i + 2 < length && text[i] == '%' ? hex_digit(text[i + 1]) : -1;
        int low = high >= 0 ? hex_digit(text[i + 2]) : -1;
        if (low >= 0) {
            text[out++] = (char)(high * 16 + low);
            i += 2;
        } else {
            text[out++] = text[i] == '+' ? ' ' : text[i];
        }
    }
    return out;
}

culprit_status culprit_web_fields_parse(const char *query, culprit_web_fields *fields, culprit_error *err)
{
    culprit_status status = CULPRIT_OK;
    while (*query && status == CULPRIT_OK) {
        size_t length = strcspn(query, "&;");
        char *pair = strndup(query, length);
        if (!pair)
            return culprit_fail_memory(err);
        char *equals = strchr(pair, '=');
        size_t name_length = equals ? (size_t)(equals - pair) : length;
        char *value = equals ? equals + 1 : pair + length;
        name_length = decode(pair, name_length);
        size_t value_length = decode(value, strlen(value));
        if (name_length > 0)
            status = culprit_web_fields_add(fields, pair, name_length, value, value_length, err);
        free(pair);
        query += length + (query[length] != '\0');
    }
    return status;
}

culprit_status culprit_web_fields_encode(const culprit_web_fields *fields, char **encoded, culprit_error *err)
{
    culprit_text t = {0};
    for (size_t i = 0; i < fields->count; i++) {
        if (i > 0)
            culprit_text_append(&t, "&", 1);
        culprit_text_append_form(&t, fields->items[i].name, strlen(fields->items[i].name), true);
        culprit_text_append(&t, "=", 1);
        culprit_text_append_form(&t, fields->items[i].value, strlen(fields->items[i].value), true);
    }
    return culprit_text_finish(&t, encoded, err);
}

void culprit_web_request_free(culprit_web_request *request)
{
    free(request->script);
    culprit_web_fields_free(&request->get);
    culprit_web_fields_free(&request->post);
    culprit_web_fields_free(&request->cookies);
    culprit_web_fields_free(&request->files);
    *request = (culprit_web_request){0};
}

culprit_status culprit_web_request_copy(const culprit_web_request *from, culprit_web_request *to,
                                        culprit_error *err)
{
    *to = (culprit_web_request){
        .script = strdup(from->script), .is_post = from->is_post, .multipart = from->multipart};
    culprit_status status = to->script ? CULPRIT_OK : culprit_fail_memory(err);
    if (status == CULPRIT_OK)
        status = culprit_web_fields_copy(&from->get, &to->get, err);
    if (status == CULPRIT_OK)
        status = culprit_web_fields_copy(&from->post, &to->post, err);
    if (status == CULPRIT_OK)
        status = culprit_web_fields_copy(&from->cookies, &to->cookies, err);
    if (status == CULPRIT_OK)
        status = culprit_web_fields_copy(&from->files, &to->files, err);
    if (status != CULPRIT_OK)
        culprit_web_request_free(to);
    return status;
}

/* Whether the jar's cookie at text (length bytes, "NAME=VALUE" or "NAME")
 * has the name of one of the request's own cookies, as encoded. */
static bool overridden(const culprit_web_fields *own, const char *text, size_t length)
{
    const char *equals = memchr(text, '=', length);
    size_t name_length = equals ? (size_t)(equals - text) : length;
    for (size_t i = 0; i < own->count; i++) {
        culprit_text name = {0};
        culprit_text_append_form(&name, own->items[i].name, strlen(own->items[i].name), false);
        bool same = name.data && name.length == name_length && memcmp(name.data, text, name_length) == 0;
        free(name.data);
        if (same)
            return true;
    }
    return false;
}

culprit_status culprit_web_request_cookies(const culprit_web_request *request, const char *jar, char **header,
                                           culprit_error *err)
{
    culprit_text t = {0};
    const culprit_web_fields *own = &request->cookies;
    for (size_t i = 0; i < own->count; i++) {
        if (i > 0)
            culprit_text_append(&t, "; ", 2);
        /* as PHP's setcookie() encodes them, which PHP decodes again */
        culprit_text_append_form(&t, own->items[i].name, strlen(own->items[i].name), false);
        culprit_text_append(&t, "=", 1);
        culprit_text_append_form(&t, own->items[i].value, strlen(own->items[i].value), false);
    }
    for (const char *at = jar ? jar : ""; *at;) {
        while (*at == ' ' || *at == ';')
            at++;
        size_t length = strcspn(at, ";");
        if (length && !overridden(own, at, length)) {
            if (t.length)
                culprit_text_append(&t, "; ", 2);
            culprit_text_append(&t, at, length);
        }
        at += length;
    }
    return culprit_text_finish(&t, header, err);
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The inputs of fields as the key has them: each name (with its value
 * when with_values), encoded, sorted, comma-separated. */
static void append_inputs(culprit_text *t, const culprit_web_fields *fields, bool with_values)
{
    char **inputs = fields->count ? calloc(fields->count, sizeof *inputs) : NULL;
    bool ok = !fields->count || inputs;
    for (size_t i = 0; ok && i < fields->count; i++) {
        culprit_text input = {0};
        culprit_text_append_form(&input, fields->items[i].name, strlen(fields->items[i].name), true);
        if (with_values)
            culprit_text_append(&input, "=", 1),
                culprit_text_append_form(&input, fields->items[i].value, strlen(fields->items[i].value),
                                         true);
        culprit_text_append(&input, "", 0);
        ok = !input.failed;
        inputs[i] = input.data;
    }
    if (ok && fields->count)
        qsort(inputs, fields->count, sizeof *inputs, compare_strings);
    for (size_t i = 0; ok && i < fields->count; i++) {
        if (i > 0)
            culprit_text_append(t, ",", 1);
        culprit_text_append(t, inputs[i], strlen(inputs[i]));
    }
    for (size_t i = 0; inputs && i < fields->count; i++)
        free(inputs[i]);
    free(inputs);
    if (!ok) {
        free(t->data);
        *t = (culprit_text){.failed = true};
    }
}

culprit_status culprit_web_request_key(const culprit_web_request *request, const char *state_digest,
                                       bool with_values, char **key, culprit_error *err)
{
    culprit_text t = {0};
    culprit_text_append(&t, request->is_post ? "POST " : "GET ", request->is_post ? 5 : 4);
    culprit_text_append(&t, request->script, strlen(request->script));
    culprit_text_append(&t, "?", 1);
    append_inputs(&t, &request->get, with_values);
    culprit_text_append(&t, " ", 1);
    append_inputs(&t, &request->post, with_values);
    /* only when there are some: the keys of requests without are as before */
    if (request->cookies.count)
        culprit_text_append(&t, " cookies:", 9), append_inputs(&t, &request->cookies, with_values);
    if (request->files.count)
        culprit_text_append(&t, " files:", 7), append_inputs(&t, &request->files, false);
    if (request->multipart)
        culprit_text_append(&t, " multipart", 10);
    culprit_text_append(&t, " @", 2);
    culprit_text_append(&t, state_digest, strlen(state_digest));
    return culprit_text_finish(&t, key, err);
}

char *culprit_web_request_describe(const culprit_web_request *request)
{
    culprit_text t = {0};
    char *query = NULL, *body = NULL, *cookies = NULL;
    culprit_error ignored;
    if (culprit_web_fields_encode(&request->get, &query, &ignored) != CULPRIT_OK ||
        culprit_web_fields_encode(&request->post, &body, &ignored) != CULPRIT_OK ||
        culprit_web_request_cookies(request, "", &cookies, &ignored) != CULPRIT_OK) {
        free(query);
        free(body);
        return NULL;
    }
    culprit_text_append(&t, request->is_post ? "POST " : "GET ", request->is_post ? 5 : 4);
    culprit_text_append(&t, request->script, strlen(request->script));
    if (*query)
        culprit_text_append(&t, "?", 1), culprit_text_append(&t, query, strlen(query));
    if (request->is_post)
        culprit_text_append(&t, " ", 1), culprit_text_append(&t, body, strlen(body));
    if (*cookies)
        culprit_text_append(&t, " cookie ", 8), culprit_text_append(&t, cookies, strlen(cookies));
    for (size_t i = 0; request->is_post && i < request->files.count; i++)
        culprit_text_append(&t, " file ", 6),
            culprit_text_append(&t, request->files.items[i].name, strlen(request->files.items[i].name));
    free(query);
    free(body);
    free(cookies);
    char *out = NULL;
    return culprit_text_finish(&t, &out, &ignored) == CULPRIT_OK ? out : NULL;
}
