/*
 * php_output_fifo.h - the bytes waiting in PHP's output buffers, as runs of
 * bytes each with the statement that produced them (docs/php.md, "The
 * output map").  PHP's output buffers are a stack, but the bytes of all its
 * levels, bottom level first, are in the order they will reach stdout: a
 * flush appends a level to the one below it, new text goes to the top, and
 * what leaves the stack for stdout is always the front.  So one FIFO stands
 * for the whole stack: producing appends at the back, flushing to stdout
 * takes from the front, discarding a level (ob_clean, ob_end_clean,
 * ob_get_clean) drops bytes from the back.
 *
 * Knows nothing of PHP (tests/unit/test_php_output_fifo.c).
 */
#ifndef CULPRIT_PHP_OUTPUT_FIFO_H
#define CULPRIT_PHP_OUTPUT_FIFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "php/php_files.h"

typedef struct php_output_run {
    uint64_t length;
    php_dump_source source;
} php_output_run;

typedef struct php_output_fifo {
    php_output_run *runs;
    size_t head, count, capacity; /* runs[head .. head + count) */
    uint64_t bytes;               /* the lengths' sum */
} php_output_fifo;

/* Appends length bytes produced by source; a run of the same source just
 * before them grows instead.  False when out of memory (nothing added). */
bool php_fifo_push(php_output_fifo *fifo, uint64_t length, const php_dump_source *source);

/* Removes up to max bytes from the front, all of one run: *taken says how
 * many (0 when the FIFO is empty) and *source who produced them. */
uint64_t php_fifo_take(php_output_fifo *fifo, uint64_t max, php_dump_source *source);

/* Removes the last length bytes (all of them when there are fewer). */
void php_fifo_drop_back(php_output_fifo *fifo, uint64_t length);

/* Copies the last length bytes' runs into *into (emptied first); false when
 * there are fewer bytes or memory runs out. */
bool php_fifo_copy_back(const php_output_fifo *fifo, uint64_t length, php_output_fifo *into);

void php_fifo_clear(php_output_fifo *fifo);
void php_fifo_free(php_output_fifo *fifo);

#endif
