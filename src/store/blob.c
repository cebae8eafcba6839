/*
 * blob.c - the byte layouts of the two blobs in the tests table (the
 * authoritative description is docs/store.md, "Blob encodings").
 *
 * hits: the test's hit row, ceil(element_count / 64) 64-bit words, each
 * little-endian, bit e of the row = bit (e % 64) of word (e / 64).  Fixed
 * width and the same layout as the in-memory row on little-endian hosts, so
 * saving binds the row as it is and loading is one memcpy.
 *
 * counts: sparse execution counts, which are mostly small numbers on
 * mostly-near element ids, so they are stored as unsigned LEB128 varints:
 * the entry count, then per entry the gap to the previous element id (the
 * id minus previous id minus 1; the first entry's gap is its id) and the
 * count.
 */
#include "store/store_internal.h"

#include <stdlib.h>
#include <string.h>

size_t culprit_store_hits_bytes(size_t element_count)
{
    return (element_count + 63) / 64 * sizeof(uint64_t);
}

static bool host_is_little_endian(void)
{
    const uint16_t probe = 1;
    unsigned char first;
    memcpy(&first, &probe, 1);
    return first == 1;
}

static uint64_t swap_bytes(uint64_t word)
{
    uint64_t swapped = 0;
    for (int i = 0; i < 8; i++)
        swapped |= ((word >> (8 * i)) & 0xff) << (8 * (7 - i));
    return swapped;
}

const void *culprit_store_encode_hits(const uint64_t *row, size_t words, uint64_t *scratch)
{
    if (host_is_little_endian())
        return row;
    for (size_t i = 0; i < words; i++)
        scratch[i] = swap_bytes(row[i]);
    return scratch;
}

void culprit_store_decode_hits(const void *blob, size_t words, uint64_t *row)
{
    memcpy(row, blob, words * sizeof(uint64_t));
    if (!host_is_little_endian())
        for (size_t i = 0; i < words; i++)
            row[i] = swap_bytes(row[i]);
}

enum { VARINT_MAX_BYTES = 10 }; /* 64 bits, 7 per byte */

unsigned char *culprit_store_put_varint(unsigned char *out, uint64_t value)
{
    while (value >= 0x80) {
        *out++ = (unsigned char)(value | 0x80);
        value >>= 7;
    }
    *out++ = (unsigned char)value;
    return out;
}

bool culprit_store_get_varint(const unsigned char *blob, size_t size, size_t *position, uint64_t *value)
{
    uint64_t result = 0;
    for (unsigned shift = 0; shift < 64 && *position < size; shift += 7) {
        unsigned char byte = blob[(*position)++];
        if (shift == 63 && byte > 1)
            return false;
        result |= (uint64_t)(byte & 0x7f) << shift;
        if (!(byte & 0x80)) {
            *value = result;
            return true;
        }
    }
    return false;
}

int culprit_store_encode_counts(const culprit_counts *counts, unsigned char **blob, size_t *size)
{
    *blob = malloc(VARINT_MAX_BYTES * (1 + 2 * counts->length));
    if (!*blob)
        return -1;
    unsigned char *out = culprit_store_put_varint(*blob, counts->length);
    uint64_t next_possible = 0; /* previous id + 1 */
    for (size_t i = 0; i < counts->length; i++) {
        out = culprit_store_put_varint(out, counts->elements[i] - next_possible);
        out = culprit_store_put_varint(out, counts->counts[i]);
        next_possible = (uint64_t)counts->elements[i] + 1;
    }
    *size = (size_t)(out - *blob);
    return 0;
}

static bool reserve_counts(culprit_store_counts_buffer *buffer, size_t length)
{
    if (length <= buffer->capacity)
        return true;
    uint32_t *elements = realloc(buffer->elements, length * sizeof *elements);
    if (elements)
        buffer->elements = elements;
    uint64_t *counts = realloc(buffer->counts, length * sizeof *counts);
    if (counts)
        buffer->counts = counts;
    if (!elements || !counts)
        return false;
    buffer->capacity = length;
    return true;
}

culprit_store_decode_result culprit_store_decode_counts(const unsigned char *blob, size_t size,
                                                        size_t element_count,
                                                        culprit_store_counts_buffer *out,
                                                        const char **problem)
{
    size_t position = 0;
    uint64_t length;
    out->length = 0;
    /* Each entry takes at least two bytes, which bounds the allocation by
     * the blob's size whatever the length claims. */
    if (!culprit_store_get_varint(blob, size, &position, &length) || length > (size - position) / 2) {
        *problem = "a bad entry count";
        return CULPRIT_STORE_DECODE_MALFORMED;
    }
    if (!reserve_counts(out, (size_t)length))
        return CULPRIT_STORE_DECODE_NO_MEMORY;
    uint64_t next_possible = 0;
    for (size_t i = 0; i < length; i++) {
        uint64_t gap, count;
        if (!culprit_store_get_varint(blob, size, &position, &gap) ||
            !culprit_store_get_varint(blob, size, &position, &count)) {
            *problem = "a truncated entry";
            return CULPRIT_STORE_DECODE_MALFORMED;
        }
        if (gap >= element_count || next_possible + gap >= element_count) {
            *problem = "an element id out of range";
            return CULPRIT_STORE_DECODE_MALFORMED;
        }
        out->elements[i] = (uint32_t)(next_possible + gap);
        out->counts[i] = count;
        next_possible += gap + 1;
    }
    if (position != size) {
        *problem = "trailing bytes";
        return CULPRIT_STORE_DECODE_MALFORMED;
    }
    out->length = (size_t)length;
    return CULPRIT_STORE_DECODE_OK;
}

void culprit_store_counts_buffer_free(culprit_store_counts_buffer *buffer)
{
    free(buffer->elements);
    free(buffer->counts);
    buffer->elements = NULL;
    buffer->counts = NULL;
    buffer->length = buffer->capacity = 0;
}
