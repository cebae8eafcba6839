/*
 * oracle_differences.c - what the oracles keep of a wrong output besides
 * the wrong line numbers: for each wrong actual line the expected line it
 * should have been (or that it is extra, or which expected line is
 * missing there), and for validators and the HTML check, which have no
 * expected text, what they said about the line.  A user reads these next
 * to the wrong lines (`culprit tests`, `culprit output`, the report).
 *
 * Bounded per test, whatever the output: at most CULPRIT_DIFFERENCES_MAX
 * differences (the rest are only counted), each text at most
 * CULPRIT_DIFFERENCE_TEXT_MAX bytes.  A changed line pair longer than that
 * is cut at the same place on both sides, shortly before the first byte
 * where they differ, so the difference stays in view; cuts fall between
 * UTF-8 characters and are marked with an ellipsis.
 */
#include <stdlib.h>
#include <string.h>

#include "run/oracle_internal.h"

/* U+2026 in UTF-8. */
static const char ellipsis[] = "\xe2\x80\xa6";

/* Bytes kept before the first difference when a pair has to be cut. */
enum { CONTEXT_BEFORE = CULPRIT_DIFFERENCE_TEXT_MAX / 4 };

static bool continuation(char c)
{
    return ((unsigned char)c & 0xc0) == 0x80;
}

/* A copy of at most CULPRIT_DIFFERENCE_TEXT_MAX bytes of text from byte
 * from on (moved onto a character start), each cut end marked. */
static char *cut_copy(const char *text, size_t length, size_t from)
{
    if (from > length)
        from = length;
    while (from > 0 && from < length && continuation(text[from]))
        from++;
    size_t end = length - from > CULPRIT_DIFFERENCE_TEXT_MAX ? from + CULPRIT_DIFFERENCE_TEXT_MAX : length;
    while (end < length && end > from && continuation(text[end]))
        end--;
    size_t mark = sizeof ellipsis - 1;
    char *copy = malloc((end - from) + 2 * mark + 1);
    if (!copy)
        return NULL;
    size_t used = 0;
    if (from > 0) {
        memcpy(copy, ellipsis, mark);
        used += mark;
    }
    memcpy(copy + used, text + from, end - from);
    used += end - from;
    if (end < length) {
        memcpy(copy + used, ellipsis, mark);
        used += mark;
    }
    copy[used] = '\0';
    return copy;
}

/* Where a changed pair is cut: 0 when both fit, else a little before the
 * first byte where they differ. */
static size_t pair_start(const culprit_output_text_line *expected, const culprit_output_text_line *actual)
{
    if (expected->length <= CULPRIT_DIFFERENCE_TEXT_MAX && actual->length <= CULPRIT_DIFFERENCE_TEXT_MAX)
        return 0;
    size_t same = 0;
    while (same < expected->length && same < actual->length && expected->start[same] == actual->start[same])
        same++;
    return same > CONTEXT_BEFORE ? same - CONTEXT_BEFORE : 0;
}

/* The next free slot, or NULL when the bound is reached (then the
 * difference is counted as omitted). */
static culprit_difference *next_slot(culprit_differences *differences, culprit_error *err,
                                     culprit_status *status)
{
    *status = CULPRIT_OK;
    if (differences->count == CULPRIT_DIFFERENCES_MAX) {
        differences->omitted++;
        return NULL;
    }
    if (!differences->items) {
        differences->items = calloc(CULPRIT_DIFFERENCES_MAX, sizeof *differences->items);
        if (!differences->items) {
            *status = culprit_fail_memory(err);
            return NULL;
        }
    }
    culprit_difference *slot = &differences->items[differences->count++];
    *slot = (culprit_difference){0};
    return slot;
}

culprit_status oracle_add_difference(culprit_differences *differences, culprit_difference_kind kind,
                                     uint32_t actual_line, uint32_t expected_line,
                                     const culprit_output_text_line *expected,
                                     const culprit_output_text_line *actual, bool exact, culprit_error *err)
{
    culprit_status status;
    culprit_difference *d = next_slot(differences, err, &status);
    if (!d)
        return status;
    *d = (culprit_difference){.kind = kind, .actual_line = actual_line, .expected_line = expected_line};
    size_t from = expected && actual ? pair_start(expected, actual) : 0;
    bool copied = true;
    if (expected) {
        d->expected = cut_copy(expected->start, expected->length, from);
        d->expected_unterminated = exact && !expected->terminated;
        copied = d->expected != NULL;
    }
    if (actual && copied) {
        d->actual = cut_copy(actual->start, actual->length, from);
        d->actual_unterminated = exact && !actual->terminated;
        copied = d->actual != NULL;
    }
    return copied ? CULPRIT_OK : culprit_fail_memory(err);
}

culprit_status oracle_add_note(culprit_differences *differences, uint32_t actual_line, const char *message,
                               size_t length, culprit_error *err)
{
    culprit_status status;
    culprit_difference *d = next_slot(differences, err, &status);
    if (!d)
        return status;
    *d = (culprit_difference){.kind = CULPRIT_DIFFERENCE_NOTE, .actual_line = actual_line};
    d->message = cut_copy(message, length, 0);
    return d->message ? CULPRIT_OK : culprit_fail_memory(err);
}

/* Missing lines come before the line they are missing at, notes after
 * the diff's own entries for a line. */
static int place(const culprit_difference *d)
{
    return d->kind == CULPRIT_DIFFERENCE_MISSING ? 0 : d->kind == CULPRIT_DIFFERENCE_NOTE ? 2 : 1;
}

/* Insertion sort, stable: the diff's entries arrive in order and notes
 * are few, and the bound keeps it small anyway. */
static void sort_by_line(culprit_differences *differences)
{
    for (size_t i = 1; i < differences->count; i++) {
        culprit_difference moving = differences->items[i];
        size_t j = i;
        while (j > 0 && (differences->items[j - 1].actual_line > moving.actual_line ||
                         (differences->items[j - 1].actual_line == moving.actual_line &&
                          place(&differences->items[j - 1]) > place(&moving)))) {
            differences->items[j] = differences->items[j - 1];
            j--;
        }
        differences->items[j] = moving;
    }
}

culprit_status oracle_finish_differences(culprit_differences *differences, const char *stdout_text,
                                         size_t stdout_size, culprit_error *err)
{
    sort_by_line(differences);
    bool notes = false;
    for (size_t i = 0; i < differences->count; i++)
        notes = notes || differences->items[i].kind == CULPRIT_DIFFERENCE_NOTE;
    if (!notes)
        return CULPRIT_OK;
    culprit_output_text_line *lines = NULL;
    size_t count = 0;
    culprit_status status = culprit_split_output_lines(stdout_text, stdout_size, &lines, &count, err);
    for (size_t i = 0; status == CULPRIT_OK && i < differences->count; i++) {
        culprit_difference *d = &differences->items[i];
        if (d->kind != CULPRIT_DIFFERENCE_NOTE || d->actual || d->actual_line == 0 || d->actual_line > count)
            continue;
        d->actual = cut_copy(lines[d->actual_line - 1].start, lines[d->actual_line - 1].length, 0);
        if (!d->actual)
            status = culprit_fail_memory(err);
    }
    free(lines);
    return status;
}
