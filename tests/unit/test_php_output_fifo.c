/*
 * test_php_output_fifo.c - the runs of produced bytes waiting in PHP's
 * output buffers (src/php/php_output_fifo.c): the moves the output map
 * makes on them (docs/php.md, "The output map") — appending produced text,
 * flushing the front to stdout a piece at a time, discarding the top
 * buffer from the back, and copying the top buffer's runs for the string
 * ob_get_clean returns.
 *
 * The file needs no PHP headers, so its source is compiled into the test.
 */
#include "php/php_output_fifo.c"

#include "check.h"

static php_dump_source at(uint32_t block)
{
    return (php_dump_source){.depth = 1, .frames = {{.unit = 0, .block = block}}};
}

static void test_push_and_take(void)
{
    php_output_fifo fifo = {0};
    php_dump_source a = at(1), b = at(2), got = {0};
    CHECK(php_fifo_push(&fifo, 5, &a));
    CHECK(php_fifo_push(&fifo, 3, &a)); /* the same statement again: one run */
    CHECK(php_fifo_push(&fifo, 0, &b)); /* nothing produced: no run */
    CHECK(php_fifo_push(&fifo, 4, &b));
    CHECK_INT(fifo.count, 2);
    CHECK_INT(fifo.bytes, 12);
    /* a flush of 6 bytes, then of the rest: one run at a time */
    CHECK_INT(php_fifo_take(&fifo, 6, &got), 6);
    CHECK_INT(got.frames[0].block, 1);
    CHECK_INT(php_fifo_take(&fifo, 100, &got), 2);
    CHECK_INT(got.frames[0].block, 1);
    CHECK_INT(php_fifo_take(&fifo, 100, &got), 4);
    CHECK_INT(got.frames[0].block, 2);
    CHECK_INT(php_fifo_take(&fifo, 100, &got), 0);
    CHECK_INT(fifo.bytes, 0);
    /* many runs through a short array: the front is reclaimed */
    for (uint32_t i = 0; i < 1000; i++) {
        php_dump_source s = at(i);
        CHECK(php_fifo_push(&fifo, 1, &s));
        CHECK_INT(php_fifo_take(&fifo, 1, &got), 1);
        CHECK_INT(got.frames[0].block, i);
    }
    CHECK(fifo.capacity <= 16);
    php_fifo_free(&fifo);
}

static void test_drop_and_copy_back(void)
{
    php_output_fifo fifo = {0}, top = {0};
    php_dump_source a = at(1), b = at(2), c = at(3), got = {0};
    php_fifo_push(&fifo, 4, &a); /* level 1 */
    php_fifo_push(&fifo, 3, &b); /* level 2: b then c */
    php_fifo_push(&fifo, 2, &c);
    /* ob_get_clean of level 2: its 5 bytes are b's 3 and c's 2 */
    CHECK(php_fifo_copy_back(&fifo, 5, &top));
    CHECK_INT(top.bytes, 5);
    CHECK_INT(php_fifo_take(&top, 100, &got), 3);
    CHECK_INT(got.frames[0].block, 2);
    CHECK_INT(php_fifo_take(&top, 100, &got), 2);
    CHECK_INT(got.frames[0].block, 3);
    /* a part of a run */
    CHECK(php_fifo_copy_back(&fifo, 6, &top));
    CHECK_INT(php_fifo_take(&top, 100, &got), 1);
    CHECK_INT(got.frames[0].block, 1);
    CHECK(!php_fifo_copy_back(&fifo, 10, &top)); /* more than there is */
    CHECK_INT(top.bytes, 0);
    /* the level is discarded: level 1 is left, whole */
    php_fifo_drop_back(&fifo, 5);
    CHECK_INT(fifo.bytes, 4);
    CHECK_INT(fifo.count, 1);
    php_fifo_drop_back(&fifo, 1);
    CHECK_INT(php_fifo_take(&fifo, 100, &got), 3);
    CHECK_INT(got.frames[0].block, 1);
    php_fifo_drop_back(&fifo, 7); /* more than there is: empty */
    CHECK_INT(fifo.bytes, 0);
    php_fifo_free(&fifo);
    php_fifo_free(&top);
}

int main(void)
{
    test_push_and_take();
    test_drop_and_copy_back();
    return check_report("test_php_output_fifo");
}
