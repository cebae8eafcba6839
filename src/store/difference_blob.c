/*
 * difference_blob.c - the byte encoding of judgements.differences (schema
 * version 4): how a test's stdout differs from what its oracle wanted,
 * line by line (culprit_differences in culprit/store.h), so that `culprit
 * tests`, `culprit output` and reports can show the expected line next to
 * each wrong one.  docs/store.md, "Blob encodings", has the layout:
 *
 *   varint count, varint omitted, then per difference
 *   varint kind, varint flags, varint actual_line, varint expected_line,
 *   and three texts (expected, actual, message), each a varint of its
 *   length + 1 (0: none) and its bytes.
 *
 * Also the owner of the type's free function and kind names, which every
 * module that holds differences (oracle, store, judgement, reports) uses.
 */
#include <stdlib.h>
#include <string.h>

#include "store/store_internal.h"

enum { FLAG_EXPECTED_UNTERMINATED = 1, FLAG_ACTUAL_UNTERMINATED = 2 };

const char *culprit_difference_kind_name(culprit_difference_kind kind)
{
    switch (kind) {
    case CULPRIT_DIFFERENCE_CHANGED:
        return "changed";
    case CULPRIT_DIFFERENCE_EXTRA:
        return "extra";
    case CULPRIT_DIFFERENCE_MISSING:
        return "missing";
    case CULPRIT_DIFFERENCE_NOTE:
        return "note";
    }
    return "unknown";
}

void culprit_differences_free(culprit_differences *differences)
{
    for (size_t i = 0; i < differences->count; i++) {
        free(differences->items[i].expected);
        free(differences->items[i].actual);
        free(differences->items[i].message);
    }
    free(differences->items);
    *differences = (culprit_differences){0};
}

static size_t text_bound(const char *text)
{
    return 10 + (text ? strlen(text) : 0);
}

static unsigned char *put_text(unsigned char *out, const char *text)
{
    if (!text)
        return culprit_store_put_varint(out, 0);
    size_t length = strlen(text);
    out = culprit_store_put_varint(out, (uint64_t)length + 1);
    memcpy(out, text, length);
    return out + length;
}

bool culprit_store_encode_differences(const culprit_differences *differences, unsigned char **blob,
                                      size_t *size)
{
    *blob = NULL;
    *size = 0;
    if (differences->count == 0 && differences->omitted == 0)
        return true;
    size_t bound = 20;
    for (size_t i = 0; i < differences->count; i++) {
        const culprit_difference *d = &differences->items[i];
        bound += 40 + text_bound(d->expected) + text_bound(d->actual) + text_bound(d->message);
    }
    *blob = malloc(bound);
    if (!*blob)
        return false;
    unsigned char *out = culprit_store_put_varint(*blob, differences->count);
    out = culprit_store_put_varint(out, differences->omitted);
    for (size_t i = 0; i < differences->count; i++) {
        const culprit_difference *d = &differences->items[i];
        out = culprit_store_put_varint(out, (uint64_t)d->kind);
        out = culprit_store_put_varint(out, (d->expected_unterminated ? FLAG_EXPECTED_UNTERMINATED : 0u) |
                                                (d->actual_unterminated ? FLAG_ACTUAL_UNTERMINATED : 0u));
        out = culprit_store_put_varint(out, d->actual_line);
        out = culprit_store_put_varint(out, d->expected_line);
        out = put_text(out, d->expected);
        out = put_text(out, d->actual);
        out = put_text(out, d->message);
    }
    *size = (size_t)(out - *blob);
    return true;
}

static culprit_store_decode_result get_text(const unsigned char *blob, size_t size, size_t *position,
                                            char **text)
{
    uint64_t length;
    if (!culprit_store_get_varint(blob, size, position, &length) || length > size - *position + 1)
        return CULPRIT_STORE_DECODE_MALFORMED;
    if (length == 0)
        return CULPRIT_STORE_DECODE_OK;
    length--;
    *text = malloc((size_t)length + 1);
    if (!*text)
        return CULPRIT_STORE_DECODE_NO_MEMORY;
    memcpy(*text, blob + *position, (size_t)length);
    (*text)[length] = '\0';
    *position += (size_t)length;
    return CULPRIT_STORE_DECODE_OK;
}

static culprit_store_decode_result get_difference(const unsigned char *blob, size_t size, size_t *position,
                                                  culprit_difference *d)
{
    uint64_t kind, flags, actual_line, expected_line;
    if (!culprit_store_get_varint(blob, size, position, &kind) ||
        !culprit_store_get_varint(blob, size, position, &flags) ||
        !culprit_store_get_varint(blob, size, position, &actual_line) ||
        !culprit_store_get_varint(blob, size, position, &expected_line) ||
        kind < CULPRIT_DIFFERENCE_CHANGED || kind > CULPRIT_DIFFERENCE_NOTE || actual_line > UINT32_MAX ||
        expected_line > UINT32_MAX)
        return CULPRIT_STORE_DECODE_MALFORMED;
    d->kind = (culprit_difference_kind)kind;
    d->expected_unterminated = (flags & FLAG_EXPECTED_UNTERMINATED) != 0;
    d->actual_unterminated = (flags & FLAG_ACTUAL_UNTERMINATED) != 0;
    d->actual_line = (uint32_t)actual_line;
    d->expected_line = (uint32_t)expected_line;
    culprit_store_decode_result result = get_text(blob, size, position, &d->expected);
    if (result == CULPRIT_STORE_DECODE_OK)
        result = get_text(blob, size, position, &d->actual);
    if (result == CULPRIT_STORE_DECODE_OK)
        result = get_text(blob, size, position, &d->message);
    return result;
}

culprit_store_decode_result culprit_store_decode_differences(const unsigned char *blob, size_t size,
                                                             culprit_differences *differences)
{
    *differences = (culprit_differences){0};
    if (!blob || size == 0)
        return CULPRIT_STORE_DECODE_OK; /* NULL: none, or recorded before version 4 */
    size_t position = 0;
    uint64_t count, omitted;
    if (!culprit_store_get_varint(blob, size, &position, &count) ||
        !culprit_store_get_varint(blob, size, &position, &omitted) || count > size || omitted > SIZE_MAX)
        return CULPRIT_STORE_DECODE_MALFORMED;
    differences->omitted = (size_t)omitted;
    differences->items = calloc(count ? (size_t)count : 1, sizeof *differences->items);
    if (!differences->items)
        return CULPRIT_STORE_DECODE_NO_MEMORY;
    culprit_store_decode_result result = CULPRIT_STORE_DECODE_OK;
    for (uint64_t i = 0; i < count && result == CULPRIT_STORE_DECODE_OK; i++) {
        differences->count++;
        result = get_difference(blob, size, &position, &differences->items[i]);
    }
    if (result == CULPRIT_STORE_DECODE_OK && position != size)
        result = CULPRIT_STORE_DECODE_MALFORMED;
    if (result != CULPRIT_STORE_DECODE_OK)
        culprit_differences_free(differences);
    return result;
}
