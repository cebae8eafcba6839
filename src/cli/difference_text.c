/*
 * difference_text.c - a test's differences (per wrong output line, the
 * expected line or what a validator said) as people read them: a unified
 * diff with no context lines for `culprit tests` (text, and the CSV
 * column), and the lines of `culprit output` annotated with what they
 * should have been.  Output text is shown as it is, with control
 * characters escaped so that a stray '\r' or escape sequence cannot garble
 * the terminal.  docs/oracles.md, "Differences", shows the forms.
 */
#include <string.h>

#include "cli/judged.h"

void cli_write_output_text(FILE *out, const char *text, size_t length)
{
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)text[i];
        if ((c < 0x20 && c != '\t') || c == 0x7f)
            fprintf(out, "\\x%02x", c);
        else
            fputc(c, out);
    }
}

static void write_text(FILE *out, const char *text)
{
    if (text)
        cli_write_output_text(out, text, strlen(text));
}

/* Where a difference starts and ends, in the expected and actual lines:
 * a hunk runs on while each difference starts where the last one ended. */
static void span(const culprit_difference *d, uint32_t start[2], uint32_t end[2])
{
    start[0] = d->expected_line;
    start[1] = d->actual_line;
    end[0] = start[0] + (d->kind != CULPRIT_DIFFERENCE_EXTRA);
    end[1] = start[1] + (d->kind != CULPRIT_DIFFERENCE_MISSING);
}

/* A hunk header's range: "3", "3,2", or for no lines the line before: "2,0". */
static void write_range(FILE *out, char sign, uint32_t start, uint32_t count)
{
    if (count == 1)
        fprintf(out, "%c%u", sign, start);
    else
        fprintf(out, "%c%u,%u", sign, count ? start : start - 1, count);
}

static void write_side(FILE *out, const char *indent, const culprit_difference *first, size_t count,
                       bool expected)
{
    for (size_t i = 0; i < count; i++) {
        const culprit_difference *d = &first[i];
        const char *text = expected ? d->expected : d->actual;
        if (!text)
            continue;
        fprintf(out, "%s%c", indent, expected ? '-' : '+');
        write_text(out, text);
        fputc('\n', out);
        if (expected ? d->expected_unterminated : d->actual_unterminated)
            fprintf(out, "%s\\ no newline at end\n", indent);
    }
}

/* The differences first .. first+count-1 of the diff, one hunk. */
static void write_hunk(FILE *out, const char *indent, const culprit_difference *first, size_t count)
{
    uint32_t start[2], end[2], lines[2] = {0, 0};
    span(first, start, end);
    for (size_t i = 0; i < count; i++) {
        lines[0] += first[i].expected != NULL;
        lines[1] += first[i].actual != NULL;
    }
    fprintf(out, "%s@@ ", indent);
    write_range(out, '-', start[0], lines[0]);
    fputc(' ', out);
    write_range(out, '+', start[1], lines[1]);
    fputs(" @@\n", out);
    write_side(out, indent, first, count, true);
    write_side(out, indent, first, count, false);
}

static void write_note(FILE *out, const char *indent, const culprit_difference *d)
{
    fprintf(out, "%s@@ +%u @@ ", indent, d->actual_line);
    write_text(out, d->message);
    fputc('\n', out);
    if (d->actual) {
        fprintf(out, "%s ", indent);
        write_text(out, d->actual);
        fputc('\n', out);
    }
}

void cli_write_differences(FILE *out, const culprit_differences *differences, const char *indent)
{
    bool diff = false;
    for (size_t i = 0; i < differences->count; i++)
        diff = diff || differences->items[i].kind != CULPRIT_DIFFERENCE_NOTE;
    if (diff)
        fprintf(out, "%s--- expected\n%s+++ actual\n", indent, indent);
    for (size_t i = 0; i < differences->count;) {
        const culprit_difference *d = &differences->items[i];
        if (d->kind == CULPRIT_DIFFERENCE_NOTE) {
            write_note(out, indent, d);
            i++;
            continue;
        }
        uint32_t start[2], end[2], next_start[2], next_end[2];
        span(d, start, end);
        size_t count = 1;
        while (i + count < differences->count &&
               differences->items[i + count].kind != CULPRIT_DIFFERENCE_NOTE) {
            span(&differences->items[i + count], next_start, next_end);
            if (next_start[0] != end[0] || next_start[1] != end[1])
                break;
            end[0] = next_end[0];
            end[1] = next_end[1];
            count++;
        }
        write_hunk(out, indent, d, count);
        i += count;
    }
    if (differences->omitted)
        fprintf(out, "%s(%zu more difference%s not kept)\n", indent, differences->omitted,
                differences->omitted == 1 ? "" : "s");
}

/* What a wrong line should have been, under it in `culprit output`. */
static void write_expectation(FILE *out, const culprit_difference *d)
{
    if (d->kind == CULPRIT_DIFFERENCE_CHANGED) {
        fputs("        expected: ", out);
        write_text(out, d->expected);
        bool same_text = d->expected && d->actual && strcmp(d->expected, d->actual) == 0;
        if (same_text && d->actual_unterminated && !d->expected_unterminated)
            fputs("  (with a newline at the end)", out);
        else if (same_text && d->expected_unterminated && !d->actual_unterminated)
            fputs("  (without a newline at the end)", out);
    } else if (d->kind == CULPRIT_DIFFERENCE_EXTRA) {
        fputs("        expected: nothing, the line is extra", out);
    } else {
        fputs("        note: ", out);
        write_text(out, d->message);
    }
    fputc('\n', out);
}

static void write_missing(FILE *out, const culprit_difference *d)
{
    fputs("      - missing: ", out);
    write_text(out, d->expected);
    fprintf(out, "  (expected line %u)\n", d->expected_line);
}

void cli_write_expectations(FILE *out, const culprit_differences *differences, uint32_t line)
{
    for (size_t i = 0; i < differences->count; i++) {
        const culprit_difference *d = &differences->items[i];
        if (d->actual_line == line && d->kind != CULPRIT_DIFFERENCE_MISSING)
            write_expectation(out, d);
    }
}

void cli_write_missing_lines(FILE *out, const culprit_differences *differences, uint32_t from, uint32_t to)
{
    for (size_t i = 0; i < differences->count; i++) {
        const culprit_difference *d = &differences->items[i];
        if (d->kind == CULPRIT_DIFFERENCE_MISSING && d->actual_line >= from && d->actual_line <= to)
            write_missing(out, d);
    }
}
