/*
 * web_request.c - culprit web's requests (culprit/web.h): their inputs
 * decoded from a query string and form-encoded again as a browser sends
 * them, and the key of the transition a request makes from a state (the
 * state matching of Apollo, seeds/000 §3: the script, the names of its
 * inputs and the state; the inputs' values too when asked).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
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

/* A growing string; on out of memory, data is freed and failed set. */
typedef struct text {
    char *data;
    size_t length, capacity;
    bool failed;
} text;

static void append(text *t, const char *bytes, size_t length)
{
    if (t->failed)
        return;
    if (!CULPRIT_GROW(t->data, t->capacity, t->length + length + 1, 64)) {
        free(t->data);
        *t = (text){.failed = true};
        return;
    }
    memcpy(t->data + t->length, bytes, length);
    t->length += length;
    t->data[t->length] = '\0';
}

static void append_encoded(text *t, const char *value)
{
    static const char hex[] = "0123456789ABCDEF";
    for (const unsigned char *c = (const unsigned char *)value; *c; c++) {
        char escaped[3] = {'%', hex[*c >> 4], hex[*c & 15]};
        if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
            strchr("-_.~", *c))
            append(t, (const char *)c, 1);
        else if (*c == ' ')
            append(t, "+", 1);
        else
            append(t, escaped, 3);
    }
}

static culprit_status finish(text *t, char **out, culprit_error *err)
{
    append(t, "", 0);
    if (t->failed)
        return culprit_fail_memory(err);
    *out = t->data;
    return CULPRIT_OK;
}

culprit_status culprit_web_fields_encode(const culprit_web_fields *fields, char **encoded, culprit_error *err)
{
    text t = {0};
    for (size_t i = 0; i < fields->count; i++) {
        if (i > 0)
            append(&t, "&", 1);
        append_encoded(&t, fields->items[i].name);
        append(&t, "=", 1);
        append_encoded(&t, fields->items[i].value);
    }
    return finish(&t, encoded, err);
}

void culprit_web_request_free(culprit_web_request *request)
{
    free(request->script);
    culprit_web_fields_free(&request->get);
    culprit_web_fields_free(&request->post);
    *request = (culprit_web_request){0};
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The inputs of fields as the key has them: each name (with its value
 * when with_values), encoded, sorted, comma-separated. */
static void append_inputs(text *t, const culprit_web_fields *fields, bool with_values)
{
    char **inputs = fields->count ? calloc(fields->count, sizeof *inputs) : NULL;
    bool ok = !fields->count || inputs;
    for (size_t i = 0; ok && i < fields->count; i++) {
        text input = {0};
        append_encoded(&input, fields->items[i].name);
        if (with_values)
            append(&input, "=", 1), append_encoded(&input, fields->items[i].value);
        append(&input, "", 0);
        ok = !input.failed;
        inputs[i] = input.data;
    }
    if (ok && fields->count)
        qsort(inputs, fields->count, sizeof *inputs, compare_strings);
    for (size_t i = 0; ok && i < fields->count; i++) {
        if (i > 0)
            append(t, ",", 1);
        append(t, inputs[i], strlen(inputs[i]));
    }
    for (size_t i = 0; inputs && i < fields->count; i++)
        free(inputs[i]);
    free(inputs);
    if (!ok) {
        free(t->data);
        *t = (text){.failed = true};
    }
}

culprit_status culprit_web_request_key(const culprit_web_request *request, const char *state_digest,
                                       bool with_values, char **key, culprit_error *err)
{
    text t = {0};
    append(&t, request->is_post ? "POST " : "GET ", request->is_post ? 5 : 4);
    append(&t, request->script, strlen(request->script));
    append(&t, "?", 1);
    append_inputs(&t, &request->get, with_values);
    append(&t, " ", 1);
    append_inputs(&t, &request->post, with_values);
    append(&t, " @", 2);
    append(&t, state_digest, strlen(state_digest));
    return finish(&t, key, err);
}

char *culprit_web_request_describe(const culprit_web_request *request)
{
    text t = {0};
    char *query = NULL, *body = NULL;
    culprit_error ignored;
    if (culprit_web_fields_encode(&request->get, &query, &ignored) != CULPRIT_OK ||
        culprit_web_fields_encode(&request->post, &body, &ignored) != CULPRIT_OK) {
        free(query);
        return NULL;
    }
    append(&t, request->is_post ? "POST " : "GET ", request->is_post ? 5 : 4);
    append(&t, request->script, strlen(request->script));
    if (*query)
        append(&t, "?", 1), append(&t, query, strlen(query));
    if (request->is_post)
        append(&t, " ", 1), append(&t, body, strlen(body));
    free(query);
    free(body);
    char *out = NULL;
    return finish(&t, &out, &ignored) == CULPRIT_OK ? out : NULL;
}
