/*
 * dump_bytes.h - dumps built byte by byte from docs/collector.md §5, for the
 * collector's unit tests (test_collect.c, test_count_plan.c): written from
 * the format, not from src/rt, so that the tests pin the contract.
 */
#ifndef CULPRIT_TEST_DUMP_BYTES_H
#define CULPRIT_TEST_DUMP_BYTES_H

#include <stdint.h>
#include <string.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"

typedef struct dump_bytes {
    unsigned char data[4096];
    size_t size;
} dump_bytes;

static void put_u32(dump_bytes *out, uint32_t value)
{
    for (int i = 0; i < 4; i++)
        out->data[out->size++] = (unsigned char)(value >> (8 * i));
}

static void put_u64(dump_bytes *out, uint64_t value)
{
    for (int i = 0; i < 8; i++)
        out->data[out->size++] = (unsigned char)(value >> (8 * i));
}

static void put_raw(dump_bytes *out, const void *data, size_t size)
{
    memcpy(out->data + out->size, data, size);
    out->size += size;
}

typedef struct counter_entry {
    uint32_t counter;
    uint64_t count;
} counter_entry;

static void put_header(dump_bytes *out, uint32_t unit_count, int32_t pid, uint32_t end, int32_t status,
                       uint32_t crashed, uint32_t depth, const uint32_t *frames)
{
    put_raw(out, "CULPDMP1", 8);
    put_u32(out, 1);
    put_u32(out, unit_count);
    put_u32(out, (uint32_t)pid);
    put_u32(out, 1);
    put_u32(out, end);
    put_u32(out, (uint32_t)status);
    put_u32(out, crashed);
    put_u32(out, depth);
    for (uint32_t i = 0; i < 2 * depth; i++)
        put_u32(out, frames[i]);
}

static void put_unit(dump_bytes *out, const char *hash, uint32_t counters, size_t count,
                     const counter_entry *entries)
{
    put_raw(out, hash, 64);
    put_u32(out, counters);
    put_u32(out, (uint32_t)count);
    for (size_t i = 0; i < count; i++) {
        put_u32(out, entries[i].counter);
        put_u64(out, entries[i].count);
    }
}

#pragma GCC diagnostic pop

#endif
