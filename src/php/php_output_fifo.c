/*
 * php_output_fifo.c - the runs of produced bytes waiting in PHP's output
 * buffers (php_output_fifo.h).  Runs are taken from the front far more often
 * than the array grows, so the front is an index (head) and the array is
 * compacted only when it must grow.
 */
#include "php/php_output_fifo.h"

#include <stdlib.h>
#include <string.h>

#include "core/grow.h"

static bool same_source(const php_dump_source *a, const php_dump_source *b)
{
    if (a->depth != b->depth)
        return false;
    for (uint32_t i = 0; i < a->depth && i < CULPRIT_DUMP_MAX_OUTPUT_DEPTH; i++)
        if (a->frames[i].unit != b->frames[i].unit || a->frames[i].block != b->frames[i].block)
            return false;
    return true;
}

bool php_fifo_push(php_output_fifo *fifo, uint64_t length, const php_dump_source *source)
{
    if (length == 0)
        return true;
    if (fifo->count > 0) {
        php_output_run *last = &fifo->runs[fifo->head + fifo->count - 1];
        if (same_source(&last->source, source)) {
            last->length += length;
            fifo->bytes += length;
            return true;
        }
    }
    if (fifo->head + fifo->count == fifo->capacity && fifo->head > 0) {
        memmove(fifo->runs, fifo->runs + fifo->head, fifo->count * sizeof *fifo->runs);
        fifo->head = 0;
    }
    if (!CULPRIT_GROW(fifo->runs, fifo->capacity, fifo->head + fifo->count + 1, 16))
        return false;
    fifo->runs[fifo->head + fifo->count++] = (php_output_run){.length = length, .source = *source};
    fifo->bytes += length;
    return true;
}

uint64_t php_fifo_take(php_output_fifo *fifo, uint64_t max, php_dump_source *source)
{
    if (fifo->count == 0 || max == 0)
        return 0;
    php_output_run *front = &fifo->runs[fifo->head];
    *source = front->source;
    uint64_t taken = front->length < max ? front->length : max;
    front->length -= taken;
    fifo->bytes -= taken;
    if (front->length == 0) {
        fifo->head++;
        if (--fifo->count == 0)
            fifo->head = 0;
    }
    return taken;
}

void php_fifo_drop_back(php_output_fifo *fifo, uint64_t length)
{
    while (length > 0 && fifo->count > 0) {
        php_output_run *last = &fifo->runs[fifo->head + fifo->count - 1];
        uint64_t dropped = last->length < length ? last->length : length;
        last->length -= dropped;
        fifo->bytes -= dropped;
        length -= dropped;
        if (last->length == 0)
            fifo->count--;
    }
    if (fifo->count == 0)
        fifo->head = 0;
}

bool php_fifo_copy_back(const php_output_fifo *fifo, uint64_t length, php_output_fifo *into)
{
    php_fifo_clear(into);
    if (length > fifo->bytes)
        return false;
    /* The first run that holds part of the last length bytes. */
    size_t first = fifo->head + fifo->count;
    uint64_t covered = 0;
    while (covered < length) {
        first--;
        covered += fifo->runs[first].length;
    }
    for (size_t i = first; i < fifo->head + fifo->count; i++) {
        uint64_t part = fifo->runs[i].length;
        if (i == first)
            part -= covered - length; /* only the end of the first run */
        if (!php_fifo_push(into, part, &fifo->runs[i].source)) {
            php_fifo_clear(into);
            return false;
        }
    }
    return true;
}

void php_fifo_clear(php_output_fifo *fifo)
{
    fifo->head = fifo->count = 0;
    fifo->bytes = 0;
}

void php_fifo_free(php_output_fifo *fifo)
{
    free(fifo->runs);
    *fifo = (php_output_fifo){0};
}
