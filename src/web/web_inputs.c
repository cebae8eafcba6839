/*
 * web_inputs.c - culprit web's input constraints (culprit/web.h;
 * docs/web.md, "Input constraints"; issue 24 item 2): the records the
 * extension wrote for a request (src/php/php_inputs.c: a comparison, a
 * switch, an isset... on an operand derived from an input field, a line
 * of percent-encoded words `KIND OUTCOME SOURCE FIELD HOW SITE
 * [CONSTANT...]`) read back, and each one negated directly into new
 * requests: the same request with that one field changed so that the
 * comparison would go the other way (a GET or POST field, a cookie the
 * request sends of its own, a file it uploads or not).  One constraint,
 * one field at a time; the Z3 value of web_solve.c, when there is one,
 * is tried first.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "culprit/web.h"

enum { MAX_VALUES = 16 };

/* ---- reading ---- */

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

/* The word of length bytes at text, decoded ("-" is the empty word);
 * NULL when out of memory or a % escape is bad (*bad set). */
static char *decode_word(const char *text, size_t length, bool *bad)
{
    char *word = malloc(length + 1);
    size_t out = 0;
    if (!word)
        return NULL;
    if (length == 1 && text[0] == '-')
        length = 0;
    for (size_t i = 0; i < length; i++) {
        if (text[i] != '%') {
            word[out++] = text[i];
            continue;
        }
        int high = i + 2 < length ? hex_value(text[i + 1]) : -1;
        int low = high >= 0 ? hex_value(text[i + 2]) : -1;
        if (low < 0) {
            *bad = true;
            free(word);
            return NULL;
        }
        word[out++] = (char)(high * 16 + low);
        i += 2;
    }
    word[out] = '\0';
    return word;
}

static void constraint_free(culprit_web_constraint *constraint)
{
    free(constraint->kind);
    free(constraint->source);
    free(constraint->field);
    free(constraint->how);
    free(constraint->site);
    for (size_t i = 0; i < constraint->constant_count; i++)
        free(constraint->constants[i]);
    free(constraint->constants);
    *constraint = (culprit_web_constraint){0};
}

/* Splits line into words (decoded, owned by *words); where names the
 * line for an error. */
static culprit_status split_words(const char *line, size_t length, char ***words, size_t *count,
                                  const char *where, culprit_error *err)
{
    size_t capacity = 0;
    *words = NULL;
    *count = 0;
    for (size_t at = 0; at < length;) {
        size_t end = at;
        while (end < length && line[end] != ' ')
            end++;
        bool bad = false;
        char *word = end > at ? decode_word(line + at, end - at, &bad) : NULL;
        if (end > at && !word) {
            for (size_t i = 0; i < *count; i++)
                free((*words)[i]);
            free(*words);
            *words = NULL;
            return bad ? culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: a bad %% escape", where)
                       : culprit_fail_memory(err);
        }
        if (word && !CULPRIT_GROW(*words, capacity, *count + 1, 8)) {
            free(word);
            return culprit_fail_memory(err);
        }
        if (word)
            (*words)[(*count)++] = word;
        at = end + 1;
    }
    return CULPRIT_OK;
}

static culprit_status parse_line(const char *line, size_t length, const char *where,
                                 culprit_web_constraint *constraint, culprit_error *err)
{
    char **words;
    size_t count;
    culprit_status status = split_words(line, length, &words, &count, where, err);
    if (status != CULPRIT_OK)
        return status;
    bool outcome_ok = count >= 2 && (strcmp(words[1], "0") == 0 || strcmp(words[1], "1") == 0 ||
                                     strcmp(words[1], "") == 0 || strcmp(words[1], "-") == 0);
    if (count < 6 || !outcome_ok) {
        for (size_t i = 0; i < count; i++)
            free(words[i]);
        free(words);
        return culprit_fail(
            err, CULPRIT_ERROR_INPUT,
            "%s: expected KIND OUTCOME SOURCE FIELD HOW SITE [CONSTANT...] (OUTCOME 0, 1 or -)", where);
    }
    *constraint = (culprit_web_constraint){
        .kind = words[0],
        .outcome = words[1][0] == '1'   ? 1
                   : words[1][0] == '0' ? 0
                                        : -1,
        .source = words[2],
        .field = words[3],
        .how = words[4],
        .site = words[5],
        .constant_count = count - 6,
    };
    free(words[1]);
    if (count > 6) {
        memmove(words, words + 6, (count - 6) * sizeof *words);
        constraint->constants = words;
    } else {
        free(words);
    }
    return CULPRIT_OK;
}

culprit_status culprit_web_constraints_parse(const char *text, size_t length, const char *name,
                                             culprit_web_constraints *constraints, culprit_error *err)
{
    culprit_status status = CULPRIT_OK;
    size_t line_number = 0;
    for (size_t at = 0; at < length && status == CULPRIT_OK;) {
        const char *newline = memchr(text + at, '\n', length - at);
        size_t end = newline ? (size_t)(newline - text) : length;
        line_number++;
        if (end > at) {
            char where[512];
            snprintf(where, sizeof where, "%s:%zu", name, line_number);
            culprit_web_constraint constraint;
            status = parse_line(text + at, end - at, where, &constraint, err);
            if (status == CULPRIT_OK &&
                !CULPRIT_GROW(constraints->items, constraints->capacity, constraints->count + 1, 8)) {
                constraint_free(&constraint);
                status = culprit_fail_memory(err);
            }
            if (status == CULPRIT_OK)
                constraints->items[constraints->count++] = constraint;
        }
        at = end + 1;
    }
    return status;
}

void culprit_web_constraints_free(culprit_web_constraints *constraints)
{
    for (size_t i = 0; i < constraints->count; i++)
        constraint_free(&constraints->items[i]);
    free(constraints->items);
    *constraints = (culprit_web_constraints){0};
}

/* ---- negating ---- */

/* The values to try, a NULL value meaning "the field absent". */
typedef struct values {
    char *items[MAX_VALUES];
    bool absent;
    size_t count;
} values;

static void add_value(values *v, const char *text)
{
    for (size_t i = 0; i < v->count; i++)
        if (strcmp(v->items[i], text) == 0)
            return;
    if (v->count < MAX_VALUES && (v->items[v->count] = strdup(text)))
        v->count++;
}

static bool integer_text(const char *text, long long *number)
{
    char *end;
    errno = 0;
    *number = strtoll(text, &end, 10);
    return *text && !*end && !errno;
}

/* text as the first value (moved there if it is one already; the last
 * dropped when they are as many as they may be). */
static void add_first(values *v, const char *text)
{
    size_t at = 0;
    while (at < v->count && strcmp(v->items[at], text) != 0)
        at++;
    char *item = at < v->count ? v->items[at] : strdup(text);
    if (!item)
        return;
    if (at == v->count && v->count == MAX_VALUES)
        free(v->items[--at]);
    else if (at == v->count)
        v->count++;
    memmove(v->items + 1, v->items, at * sizeof *v->items);
    v->items[0] = item;
}

/* A value other than text: the next integer, or text with an x. */
static void add_other(values *v, const char *text)
{
    long long number;
    char other[512];
    if (integer_text(text, &number))
        snprintf(other, sizeof other, "%lld", number + 1);
    else
        snprintf(other, sizeof other, "%.500sx", text);
    add_value(v, other);
}

/* Values on both sides of an order comparison's constant. */
static void add_around(values *v, const char *text)
{
    long long number;
    char near[32];
    if (!integer_text(text, &number)) {
        add_value(v, text);
        add_other(v, text);
        return;
    }
    for (long long d = -1; d <= 1; d++) {
        snprintf(near, sizeof near, "%lld", number + d);
        add_value(v, near);
    }
}

/* The values that make the constraint go the other way. */
static void negations(const culprit_web_constraint *c, values *v)
{
    const char *k = c->constant_count ? c->constants[0] : NULL;
    const char *kind = c->kind;
    bool equality = !strcmp(kind, "eq") || !strcmp(kind, "ieq");
    if ((equality || !strcmp(kind, "ne")) && k) {
        bool equal_now = equality ? c->outcome == 1 : c->outcome == 0;
        if (equal_now)
            add_other(v, k);
        else
            add_value(v, k);
    } else if ((!strcmp(kind, "lt") || !strcmp(kind, "le") || !strcmp(kind, "gt") || !strcmp(kind, "ge")) &&
               k) {
        add_around(v, k);
    } else if (!strcmp(kind, "switch") || !strcmp(kind, "in")) {
        for (size_t i = 0; i < c->constant_count; i++)
            add_value(v, c->constants[i]);
        if (c->outcome == 1 && k)
            add_other(v, k);
    } else if (!strcmp(kind, "numeric") || !strcmp(kind, "digits")) {
        add_value(v, c->outcome == 1 ? "x" : "1");
    } else if (!strcmp(kind, "isset")) {
        if (c->outcome == 1)
            v->absent = true;
        else
            add_value(v, *c->field ? c->field : "1");
    } else if (!strcmp(kind, "empty")) {
        add_value(v, c->outcome == 1 ? (*c->field ? c->field : "1") : "");
    }
}

/* Where a record's field is in a request. */
typedef enum place { IN_GET, IN_POST, IN_COOKIES, IN_FILES, NOWHERE } place;

static place place_of(const culprit_web_request *request, const char *source)
{
    if (!strcmp(source, "get"))
        return IN_GET;
    if (!strcmp(source, "post"))
        return IN_POST;
    if (!strcmp(source, "request"))
        return request->is_post ? IN_POST : IN_GET;
    if (!strcmp(source, "cookie"))
        return IN_COOKIES; /* the request's own, sent over the state's */
    if (!strcmp(source, "files"))
        return IN_FILES;
    return NOWHERE;
}

/* Of fields of one name, PHP reads a query's or form's last (a hidden
 * field and a checkbox), a cookie's first. */
static bool reads_last(place where)
{
    return where == IN_GET || where == IN_POST;
}

static culprit_web_fields *fields_at(culprit_web_request *request, place where)
{
    return where == IN_GET       ? &request->get
           : where == IN_POST    ? &request->post
           : where == IN_COOKIES ? &request->cookies
                                 : &request->files;
}

/* A copy of request with field set to value (NULL: removed) where it is. */
static culprit_status changed(const culprit_web_request *request, place where, const char *field,
                              const char *value, culprit_web_request *out, culprit_error *err)
{
    culprit_status status = culprit_web_request_copy(request, out, err);
    if (status != CULPRIT_OK)
        return status;
    out->is_post |= where == IN_POST || where == IN_FILES;
    out->multipart |= where == IN_FILES; /* a file travels only in a multipart body */
    /* every field of that name where PHP reads the last, else the first */
    bool every = reads_last(where), found = false;
    culprit_web_fields *fields = fields_at(out, where);
    for (size_t i = 0; i < fields->count && (every || !found);) {
        culprit_web_field *f = &fields->items[i];
        if (strcmp(f->name, field) != 0) {
            i++;
            continue;
        }
        found = true;
        char *copy = value ? strdup(value) : NULL;
        if (value && !copy) {
            culprit_web_request_free(out);
            return culprit_fail_memory(err);
        }
        free(f->value);
        f->value = copy;
        if (value) {
            i++;
            continue;
        }
        free(f->name);
        memmove(f, f + 1, (fields->count - i - 1) * sizeof *f);
        fields->count--;
    }
    if (!found && value)
        status = culprit_web_fields_add(fields, field, strlen(field), value, strlen(value), err);
    if (status != CULPRIT_OK)
        culprit_web_request_free(out);
    return status;
}

/* The value PHP sees (reads_last). */
static const char *current_value(const culprit_web_request *request, place where, const char *field)
{
    const culprit_web_fields *fields = fields_at((culprit_web_request *)request, where);
    const char *seen = NULL;
    for (size_t i = 0; i < fields->count; i++)
        if (strcmp(fields->items[i].name, field) == 0) {
            seen = fields->items[i].value;
            if (!reads_last(where))
                break;
        }
    return seen;
}

/* A strlen() comparison ("len"): each integer value n (0 to 256) becomes a
 * string of n bytes, the value sent cut or padded with x, so that what
 * else the page compares of it stays as it was. */
static void as_lengths(values *v, const char *now)
{
    values lengths = {0};
    size_t have = now ? strlen(now) : 0;
    for (size_t i = 0; i < v->count; i++) {
        long long n;
        if (integer_text(v->items[i], &n) && n >= 0 && n <= 256) {
            char text[260];
            for (long long b = 0; b < n; b++)
                text[b] = (size_t)b < have ? now[b] : 'x';
            text[n] = '\0';
            add_value(&lengths, text);
        }
        free(v->items[i]);
    }
    lengths.absent = v->absent;
    *v = lengths;
}

/* A file is uploaded or not: every value but "" (empty's "not empty")
 * is the upload, "" its absence. */
static void as_uploads(values *v)
{
    bool upload = false;
    for (size_t i = 0; i < v->count; i++) {
        v->absent |= !*v->items[i];
        upload |= *v->items[i] != '\0';
        free(v->items[i]);
    }
    v->count = 0;
    if (upload)
        add_value(v, CULPRIT_WEB_UPLOAD_NAME);
}

static culprit_status add_request(culprit_web_request **requests, size_t *count, size_t *capacity,
                                  culprit_web_request *request, culprit_error *err)
{
    if (!CULPRIT_GROW(*requests, *capacity, *count + 1, 4)) {
        culprit_web_request_free(request);
        return culprit_fail_memory(err);
    }
    (*requests)[(*count)++] = *request;
    return CULPRIT_OK;
}

culprit_status culprit_web_constraint_negate(const culprit_web_request *request,
                                             const culprit_web_constraint *constraint, const char *solved,
                                             culprit_web_request **requests, size_t *count,
                                             culprit_error *err)
{
    *requests = NULL;
    *count = 0;
    place where = place_of(request, constraint->source);
    if (where == NOWHERE || !*constraint->field)
        return CULPRIT_OK;
    const char *now = current_value(request, where, constraint->field);
    values v = {0};
    negations(constraint, &v);
    if (!strcmp(constraint->how, "len"))
        as_lengths(&v, now);
    if (solved)
        add_first(&v, solved); /* the earlier comparisons on the field hold with it */
    if (where == IN_FILES)
        as_uploads(&v);
    size_t capacity = 0;
    culprit_status status = CULPRIT_OK;
    if (v.absent && now) {
        culprit_web_request out;
        status = changed(request, where, constraint->field, NULL, &out, err);
        if (status == CULPRIT_OK)
            status = add_request(requests, count, &capacity, &out, err);
    }
    for (size_t i = 0; i < v.count && status == CULPRIT_OK; i++) {
        if (now && strcmp(now, v.items[i]) == 0)
            continue; /* what was sent already */
        culprit_web_request out;
        status = changed(request, where, constraint->field, v.items[i], &out, err);
        if (status == CULPRIT_OK)
            status = add_request(requests, count, &capacity, &out, err);
    }
    for (size_t i = 0; i < v.count; i++)
        free(v.items[i]);
    if (status != CULPRIT_OK) {
        for (size_t i = 0; i < *count; i++)
            culprit_web_request_free(&(*requests)[i]);
        free(*requests);
        *requests = NULL;
        *count = 0;
    }
    return status;
}
