/*
 * mjson.c - the manifest JSON reader: recursive descent keeping line and
 * column of every value and key (see mjson.h for why not jansson).  Strict
 * RFC 8259: no comments, no trailing commas, strings must be valid escapes;
 * nesting is limited so a hostile manifest cannot exhaust the stack, and
 * the number of values so that it cannot exhaust memory (a value costs
 * some 100 bytes: "[[],[],...]" took 30 times its size).
 */
#include "run/mjson.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "core/input_limits.h"

enum { MAX_DEPTH = 64 };

typedef struct reader {
    const char *text, *source;
    size_t size, at, line, line_start;
    size_t values; /* made so far: bounded by CULPRIT_LIMIT_MANIFEST_VALUES */
    culprit_error *err;
} reader;

static size_t column_of(const reader *r)
{
    return r->at - r->line_start + 1;
}

static culprit_status fail_here(reader *r, const char *what)
{
    if (r->at >= r->size)
        return culprit_fail_at(r->err, r->source, r->line, column_of(r), "expected %s, found the end", what);
    char found = r->text[r->at];
    if (found >= 0x20 && found < 0x7f)
        return culprit_fail_at(r->err, r->source, r->line, column_of(r), "expected %s, found '%c'", what,
                               found);
    return culprit_fail_at(r->err, r->source, r->line, column_of(r), "expected %s, found byte 0x%02x", what,
                           (unsigned char)found);
}

static void skip_blanks(reader *r)
{
    while (r->at < r->size) {
        char c = r->text[r->at];
        if (c == '\n') {
            r->line++;
            r->line_start = r->at + 1;
        } else if (c != ' ' && c != '\t' && c != '\r') {
            return;
        }
        r->at++;
    }
}

static mjson_value *new_value(reader *r, mjson_type type)
{
    mjson_value *value = calloc(1, sizeof *value);
    if (value) {
        value->type = type;
        value->line = r->line;
        value->column = column_of(r);
    }
    return value;
}

/* ---- strings ---- */

typedef struct buffer {
    char *bytes;
    size_t length, capacity;
} buffer;

static bool buffer_put(buffer *b, const char *bytes, size_t count)
{
    if (!CULPRIT_GROW(b->bytes, b->capacity, b->length + count + 1, 32))
        return false;
    memcpy(b->bytes + b->length, bytes, count);
    b->length += count;
    b->bytes[b->length] = '\0';
    return true;
}

static bool put_utf8(buffer *b, uint32_t code)
{
    char bytes[4];
    size_t count;
    if (code < 0x80) {
        bytes[0] = (char)code;
        count = 1;
    } else if (code < 0x800) {
        bytes[0] = (char)(0xc0 | (code >> 6));
        bytes[1] = (char)(0x80 | (code & 0x3f));
        count = 2;
    } else if (code < 0x10000) {
        bytes[0] = (char)(0xe0 | (code >> 12));
        bytes[1] = (char)(0x80 | ((code >> 6) & 0x3f));
        bytes[2] = (char)(0x80 | (code & 0x3f));
        count = 3;
    } else {
        bytes[0] = (char)(0xf0 | (code >> 18));
        bytes[1] = (char)(0x80 | ((code >> 12) & 0x3f));
        bytes[2] = (char)(0x80 | ((code >> 6) & 0x3f));
        bytes[3] = (char)(0x80 | (code & 0x3f));
        count = 4;
    }
    return buffer_put(b, bytes, count);
}

static bool read_hex4(reader *r, uint32_t *code)
{
    *code = 0;
    for (int i = 0; i < 4; i++, r->at++) {
        if (r->at >= r->size)
            return false;
        char c = r->text[r->at];
        uint32_t digit = c >= '0' && c <= '9'   ? (uint32_t)(c - '0')
                         : c >= 'a' && c <= 'f' ? (uint32_t)(c - 'a' + 10)
                         : c >= 'A' && c <= 'F' ? (uint32_t)(c - 'A' + 10)
                                                : 16;
        if (digit == 16)
            return false;
        *code = *code * 16 + digit;
    }
    return true;
}

/* \uXXXX, with a surrogate pair joined; r->at is just past the 'u'. */
static culprit_status read_unicode_escape(reader *r, buffer *b)
{
    uint32_t code;
    if (!read_hex4(r, &code))
        return fail_here(r, "four hex digits after \\u");
    if (code >= 0xd800 && code < 0xdc00) {
        uint32_t low;
        if (r->at + 2 > r->size || r->text[r->at] != '\\' || r->text[r->at + 1] != 'u')
            return fail_here(r, "the low half of a surrogate pair (\\uDC00-\\uDFFF)");
        r->at += 2;
        if (!read_hex4(r, &low) || low < 0xdc00 || low > 0xdfff)
            return fail_here(r, "the low half of a surrogate pair (\\uDC00-\\uDFFF)");
        code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
    } else if (code >= 0xdc00 && code < 0xe000) {
        return fail_here(r, "a \\u escape that is not a lone low surrogate");
    }
    return put_utf8(b, code) ? CULPRIT_OK : culprit_fail_memory(r->err);
}

static culprit_status read_escape(reader *r, buffer *b)
{
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    if (r->at >= r->size)
        return fail_here(r, "an escape character");
    const char *known = strchr(from, r->text[r->at]);
    if (known && *known) {
        r->at++;
        return buffer_put(b, &to[known - from], 1) ? CULPRIT_OK : culprit_fail_memory(r->err);
    }
    if (r->text[r->at] != 'u')
        return fail_here(r, "one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u");
    r->at++;
    return read_unicode_escape(r, b);
}

/* A string; r->at is at the opening quote. */
static culprit_status read_string(reader *r, char **text, size_t *length)
{
    buffer b = {0};
    culprit_status status = buffer_put(&b, "", 0) ? CULPRIT_OK : culprit_fail_memory(r->err);
    r->at++;
    while (status == CULPRIT_OK) {
        if (r->at >= r->size) {
            status = fail_here(r, "'\"' to close the string");
            break;
        }
        char c = r->text[r->at];
        if (c == '"') {
            r->at++;
            break;
        }
        if ((unsigned char)c < 0x20) {
            status = fail_here(r, "no control characters inside a string (escape them)");
        } else if (c == '\\') {
            r->at++;
            status = read_escape(r, &b);
        } else {
            status = buffer_put(&b, &c, 1) ? CULPRIT_OK : culprit_fail_memory(r->err);
            r->at++;
        }
    }
    if (status != CULPRIT_OK) {
        free(b.bytes);
        return status;
    }
    *text = b.bytes;
    *length = b.length;
    return CULPRIT_OK;
}

/* ---- numbers and literals ---- */

static size_t skip_digits(const reader *r, size_t at)
{
    while (at < r->size && r->text[at] >= '0' && r->text[at] <= '9')
        at++;
    return at;
}

static culprit_status read_number(reader *r, mjson_value *value)
{
    size_t at = r->at;
    if (at < r->size && r->text[at] == '-')
        at++;
    size_t digits = skip_digits(r, at);
    if (digits == at || (r->text[at] == '0' && digits > at + 1))
        return fail_here(r, "a number");
    at = digits;
    value->integer = true;
    if (at < r->size && r->text[at] == '.') {
        value->integer = false;
        size_t fraction = skip_digits(r, at + 1);
        if (fraction == at + 1)
            return fail_here(r, "digits after the decimal point");
        at = fraction;
    }
    if (at < r->size && (r->text[at] == 'e' || r->text[at] == 'E')) {
        value->integer = false;
        at++;
        if (at < r->size && (r->text[at] == '+' || r->text[at] == '-'))
            at++;
        size_t exponent = skip_digits(r, at);
        if (exponent == at)
            return fail_here(r, "digits in the exponent");
        at = exponent;
    }
    char copy[64];
    size_t length = at - r->at < sizeof copy - 1 ? at - r->at : sizeof copy - 1;
    memcpy(copy, r->text + r->at, length);
    copy[length] = '\0';
    value->number = strtod(copy, NULL);
    r->at = at;
    return CULPRIT_OK;
}

static culprit_status read_literal(reader *r, mjson_value *value)
{
    static const struct {
        const char *word;
        mjson_type type;
        bool boolean;
    } literals[] = {
        {"true", MJSON_BOOLEAN, true}, {"false", MJSON_BOOLEAN, false}, {"null", MJSON_NULL, false}};
    for (size_t i = 0; i < sizeof literals / sizeof *literals; i++) {
        size_t length = strlen(literals[i].word);
        if (r->size - r->at >= length && memcmp(r->text + r->at, literals[i].word, length) == 0) {
            value->type = literals[i].type;
            value->boolean = literals[i].boolean;
            r->at += length;
            return CULPRIT_OK;
        }
    }
    return fail_here(r, "a JSON value");
}

/* ---- arrays and objects ---- */

static culprit_status read_value(reader *r, int depth, mjson_value **out);

static culprit_status read_array(reader *r, int depth, mjson_value *array)
{
    size_t capacity = 0;
    r->at++;
    skip_blanks(r);
    if (r->at < r->size && r->text[r->at] == ']') {
        r->at++;
        return CULPRIT_OK;
    }
    for (;;) {
        if (!CULPRIT_GROW(array->items, capacity, array->count + 1, 8))
            return culprit_fail_memory(r->err);
        culprit_status status = read_value(r, depth + 1, &array->items[array->count]);
        if (status != CULPRIT_OK) {
            mjson_free(array->items[array->count]);
            return status;
        }
        array->count++;
        skip_blanks(r);
        if (r->at < r->size && r->text[r->at] == ']') {
            r->at++;
            return CULPRIT_OK;
        }
        if (r->at >= r->size || r->text[r->at] != ',')
            return fail_here(r, "',' or ']'");
        r->at++;
    }
}

static culprit_status read_key(reader *r, mjson_value *object, mjson_member *member)
{
    skip_blanks(r);
    if (r->at >= r->size || r->text[r->at] != '"')
        return fail_here(r, "'\"' to start a key");
    member->line = r->line;
    member->column = column_of(r);
    size_t length;
    culprit_status status = read_string(r, &member->key, &length);
    if (status != CULPRIT_OK)
        return status;
    if (strlen(member->key) != length)
        return culprit_fail_at(r->err, r->source, member->line, member->column, "expected a key without NUL");
    for (size_t i = 0; i < object->count; i++)
        if (strcmp(object->members[i].key, member->key) == 0)
            return culprit_fail_at(r->err, r->source, member->line, member->column,
                                   "duplicate key \"%s\" (first at line %zu)", member->key,
                                   object->members[i].line);
    skip_blanks(r);
    if (r->at >= r->size || r->text[r->at] != ':')
        return fail_here(r, "':' after the key");
    r->at++;
    return CULPRIT_OK;
}

static culprit_status read_member(reader *r, int depth, mjson_value *object, size_t *capacity)
{
    if (!CULPRIT_GROW(object->members, *capacity, object->count + 1, 8))
        return culprit_fail_memory(r->err);
    mjson_member member = {0};
    culprit_status status = read_key(r, object, &member);
    if (status == CULPRIT_OK)
        status = read_value(r, depth + 1, &member.value);
    if (status != CULPRIT_OK) {
        free(member.key);
        mjson_free(member.value);
        return status;
    }
    object->members[object->count++] = member;
    return CULPRIT_OK;
}

static culprit_status read_object(reader *r, int depth, mjson_value *object)
{
    size_t capacity = 0;
    r->at++;
    skip_blanks(r);
    if (r->at < r->size && r->text[r->at] == '}') {
        r->at++;
        return CULPRIT_OK;
    }
    for (;;) {
        culprit_status status = read_member(r, depth, object, &capacity);
        if (status != CULPRIT_OK)
            return status;
        skip_blanks(r);
        if (r->at < r->size && r->text[r->at] == '}') {
            r->at++;
            return CULPRIT_OK;
        }
        if (r->at >= r->size || r->text[r->at] != ',')
            return fail_here(r, "',' or '}'");
        r->at++;
    }
}

static culprit_status read_value(reader *r, int depth, mjson_value **out)
{
    *out = NULL;
    skip_blanks(r);
    if (++r->values > CULPRIT_LIMIT_MANIFEST_VALUES)
        return culprit_fail_at(r->err, r->source, r->line, column_of(r),
                               "more than %d JSON values, the most culprit reads (docs/formats.md, Bounds)",
                               CULPRIT_LIMIT_MANIFEST_VALUES);
    if (depth > MAX_DEPTH)
        return fail_here(r, "less nesting");
    if (r->at >= r->size)
        return fail_here(r, "a JSON value");
    mjson_value *value = new_value(r, MJSON_NULL);
    if (!value)
        return culprit_fail_memory(r->err);
    *out = value;
    char c = r->text[r->at];
    if (c == '{') {
        value->type = MJSON_OBJECT;
        return read_object(r, depth, value);
    }
    if (c == '[') {
        value->type = MJSON_ARRAY;
        return read_array(r, depth, value);
    }
    if (c == '"') {
        value->type = MJSON_STRING;
        return read_string(r, &value->string, &value->length);
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        value->type = MJSON_NUMBER;
        return read_number(r, value);
    }
    return read_literal(r, value);
}

culprit_status mjson_parse(const char *text, size_t size, const char *source, mjson_value **root,
                           culprit_error *err)
{
    reader r = {.text = text, .source = source, .size = size, .line = 1, .err = err};
    culprit_status status = read_value(&r, 0, root);
    if (status == CULPRIT_OK) {
        skip_blanks(&r);
        if (r.at < r.size)
            status = fail_here(&r, "the end of the JSON text");
    }
    if (status != CULPRIT_OK) {
        mjson_free(*root);
        *root = NULL;
    }
    return status;
}

void mjson_free(mjson_value *value)
{
    if (!value)
        return;
    for (size_t i = 0; value->type == MJSON_ARRAY && i < value->count; i++)
        mjson_free(value->items[i]);
    for (size_t i = 0; value->type == MJSON_OBJECT && i < value->count; i++) {
        free(value->members[i].key);
        mjson_free(value->members[i].value);
    }
    free(value->items);
    free(value->members);
    free(value->string);
    free(value);
}

const char *mjson_type_name(mjson_type type)
{
    static const char *const names[] = {"null", "a boolean", "a number", "a string", "an array", "an object"};
    return names[type];
}
