/*
 * oracle_diff.c - the expected-output oracle: compare a test's stdout with
 * the expected text line by line and name the wrong lines of the actual
 * output, which Apollo's output mapping (TECHNIQUES.md §3) turns into the
 * statements that wrote them.
 *
 * The lines that match are a longest common subsequence found with Myers'
 * O((N+M)D) algorithm after the common prefix and suffix are set aside
 * (usually nearly everything).  Between two matches, actual lines are
 * wrong (changed or inserted); when only expected lines are missing there,
 * the actual line at the place where they are missing is blamed: the next
 * actual line, or the last one when they are missing at the end.  An empty
 * actual output has no line to blame.  Past MAX_EDIT_DISTANCE differences
 * the search stops and every actual line between prefix and suffix counts
 * as wrong, so a runaway output costs bounded time and memory.
 *
 * Each gap between matches also becomes differences (oracle_differences.c)
 * for the user to read: the lines of both sides paired in order are
 * changed lines, the rest of the longer side extra or missing lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/oracle_internal.h"

enum { MAX_EDIT_DISTANCE = 2048 };

/* A line as compared: its (possibly normalized) bytes and a hash. */
typedef struct line_key {
    const char *bytes;
    size_t length;
    uint64_t hash;
} line_key;

typedef struct line_keys {
    size_t count;
    line_key *keys;
    char *normalized; /* owned storage of normalized lines */
} line_keys;

static uint64_t hash_bytes(const char *bytes, size_t length, bool terminated)
{
    uint64_t hash = 1469598103934665603ULL ^ (uint64_t)terminated;
    for (size_t i = 0; i < length; i++)
        hash = (hash ^ (unsigned char)bytes[i]) * 1099511628211ULL;
    return hash;
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* Collapses runs of blanks to one space and drops leading and trailing
 * ones; returns the new length. */
static size_t normalize_line(const culprit_output_text_line *line, char *out)
{
    size_t length = 0;
    bool pending_space = false;
    for (size_t i = 0; i < line->length; i++) {
        char c = line->start[i];
        if (is_blank(c)) {
            pending_space = length > 0;
            continue;
        }
        if (pending_space)
            out[length++] = ' ';
        pending_space = false;
        out[length++] = c;
    }
    return length;
}

/* Drops a line's trailing blanks; returns the new length. */
static size_t strip_trailing(const culprit_output_text_line *line, char *out)
{
    size_t length = line->length;
    while (length > 0 && is_blank(line->start[length - 1]))
        length--;
    memcpy(out, line->start, length);
    return length;
}

/* Turns every run of digits into one '0'; returns the new length. */
static size_t mask_numbers(const culprit_output_text_line *line, char *out)
{
    size_t length = 0;
    for (size_t i = 0; i < line->length; i++) {
        bool digit = line->start[i] >= '0' && line->start[i] <= '9';
        if (digit && length > 0 && out[length - 1] == '0' && i > 0 && line->start[i - 1] >= '0' &&
            line->start[i - 1] <= '9')
            continue;
        out[length++] = digit ? '0' : line->start[i];
    }
    return length;
}

static size_t normalized_key(culprit_comparison compare, const culprit_output_text_line *line, char *out)
{
    switch (compare) {
    case CULPRIT_COMPARE_TRAILING:
        return strip_trailing(line, out);
    case CULPRIT_COMPARE_NUMBERS:
        return mask_numbers(line, out);
    default:
        return normalize_line(line, out);
    }
}

/* Keys of lines; compared other than exactly, they lose blanks (all runs,
 * or the trailing ones) or the values of their numbers, the line
 * terminator and trailing empty lines. */
static culprit_status make_keys(const culprit_output_text_line *lines, size_t count, size_t text_size,
                                culprit_comparison compare, line_keys *keys, culprit_error *err)
{
    bool normalize = compare != CULPRIT_COMPARE_EXACT;
    *keys = (line_keys){0};
    keys->keys = malloc((count ? count : 1) * sizeof *keys->keys);
    keys->normalized = normalize ? malloc(text_size + 1) : NULL;
    if (!keys->keys || (normalize && !keys->normalized)) {
        free(keys->keys);
        free(keys->normalized);
        return culprit_fail_memory(err);
    }
    size_t used = 0;
    for (size_t i = 0; i < count; i++) {
        line_key *key = &keys->keys[i];
        if (normalize) {
            key->bytes = keys->normalized + used;
            key->length = normalized_key(compare, &lines[i], keys->normalized + used);
            used += key->length;
            key->hash = hash_bytes(key->bytes, key->length, false);
        } else {
            key->bytes = lines[i].start;
            key->length = lines[i].length;
            key->hash = hash_bytes(key->bytes, key->length, lines[i].terminated);
        }
    }
    keys->count = count;
    while (normalize && keys->count > 0 && keys->keys[keys->count - 1].length == 0)
        keys->count--;
    return CULPRIT_OK;
}

static void free_keys(line_keys *keys)
{
    free(keys->keys);
    free(keys->normalized);
}

/* Exact mode hashes the terminator in, so equal hashes and bytes suffice. */
static bool same_line(const line_key *a, const line_key *b)
{
    return a->hash == b->hash && a->length == b->length && memcmp(a->bytes, b->bytes, a->length) == 0;
}

/* The region Myers works on: expected [x0, x1) against actual [y0, y1). */
typedef struct diff_region {
    const line_keys *expected, *actual;
    size_t x0, x1, y0, y1;
} diff_region;

/* Follows the diagonal from (x, y) while lines match. */
static size_t snake(const diff_region *region, size_t x, size_t y)
{
    while (x < region->x1 && y < region->y1 &&
           same_line(&region->expected->keys[x], &region->actual->keys[y])) {
        x++;
        y++;
    }
    return x;
}

/* The forward pass: trace[d] is V after d-1 rounds (2d+1 entries for
 * k = -d..d, offsets relative to x0).  Returns the edit distance, or -1
 * when it exceeds MAX_EDIT_DISTANCE or memory runs out. */
static long myers_forward(const diff_region *region, long **trace)
{
    long n = (long)(region->x1 - region->x0), m = (long)(region->y1 - region->y0);
    long max = n + m < MAX_EDIT_DISTANCE ? n + m : MAX_EDIT_DISTANCE;
    long *v = calloc((size_t)(2 * max + 3), sizeof *v);
    if (!v)
        return -1;
    long *diagonal = v + max + 1; /* index k in [-max-1, max+1] */
    for (long d = 0; d <= max; d++) {
        trace[d] = malloc((size_t)(2 * d + 1) * sizeof **trace);
        if (!trace[d])
            break;
        memcpy(trace[d], diagonal - d, (size_t)(2 * d + 1) * sizeof **trace);
        for (long k = -d; k <= d; k += 2) {
            long x = (k == -d || (k != d && diagonal[k - 1] < diagonal[k + 1])) ? diagonal[k + 1]
                                                                                : diagonal[k - 1] + 1;
            long y = x - k;
            x = (long)snake(region, region->x0 + (size_t)x, region->y0 + (size_t)y) - (long)region->x0;
            diagonal[k] = x;
            if (x >= n && x - k >= m) {
                free(v);
                return d;
            }
        }
    }
    free(v);
    return -1;
}

/* Marks the matches of a diagonal run: expected x + i with actual y + i
 * for i below length (region-relative coordinates). */
static void mark_run(const diff_region *region, long x, long y, long length, size_t *matched)
{
    for (long i = 0; i < length; i++)
        matched[region->y0 + (size_t)(y + i)] = region->x0 + (size_t)(x + i) + 1;
}

/* Walks the trace back from the end, marking matched actual lines:
 * matched[y] = expected index + 1.  Each round d ends with a run of
 * matches from the point its one edit reached to the round's end point. */
static void myers_backtrack(const diff_region *region, long *const *trace, long distance, size_t *matched)
{
    long x = (long)(region->x1 - region->x0), y = (long)(region->y1 - region->y0);
    for (long d = distance; d > 0; d--) {
        const long *v = trace[d] + d; /* index k in [-d, d] */
        long k = x - y;
        bool down = k == -d || (k != d && v[k - 1] < v[k + 1]);
        long previous_k = down ? k + 1 : k - 1;
        long previous_x = v[previous_k];
        long run_x = down ? previous_x : previous_x + 1;
        mark_run(region, run_x, run_x - k, x - run_x, matched);
        x = previous_x;
        y = previous_x - previous_k;
    }
    mark_run(region, 0, 0, x, matched);
}

/* Matches the middle region; false when it is too different (nothing in
 * it is matched then). */
static bool match_region(const diff_region *region, size_t *matched, culprit_error *err,
                         culprit_status *status)
{
    long limit = MAX_EDIT_DISTANCE;
    long **trace = calloc((size_t)limit + 1, sizeof *trace);
    if (!trace) {
        *status = culprit_fail_memory(err);
        return false;
    }
    long distance = myers_forward(region, trace);
    if (distance >= 0)
        myers_backtrack(region, trace, distance, matched);
    for (long d = 0; d <= limit; d++)
        free(trace[d]);
    free(trace);
    return distance >= 0;
}

/* Where a diff's findings go: the wrong lines, and the differences with
 * the texts of the lines as split (not as compared). */
typedef struct diff_report {
    const culprit_output_text_line *expected, *actual;
    bool exact;
    oracle_line_set *wrong;
    culprit_differences *differences;
} diff_report;

/* The differences of one gap between matches, expected [x0, x1) against
 * actual [y0, y1) (0-based): lines side by side are changed, the rest of
 * the longer side extra or missing, placed before the match after the gap. */
static culprit_status record_gap(const diff_report *report, size_t x0, size_t x1, size_t y0, size_t y1,
                                 culprit_error *err)
{
    size_t pairs = x1 - x0 < y1 - y0 ? x1 - x0 : y1 - y0;
    culprit_status status = CULPRIT_OK;
    for (size_t i = 0; status == CULPRIT_OK && i < pairs; i++)
        status = oracle_add_difference(
            report->differences, CULPRIT_DIFFERENCE_CHANGED, (uint32_t)(y0 + i + 1), (uint32_t)(x0 + i + 1),
            &report->expected[x0 + i], &report->actual[y0 + i], report->exact, err);
    for (size_t y = y0 + pairs; status == CULPRIT_OK && y < y1; y++)
        status = oracle_add_difference(report->differences, CULPRIT_DIFFERENCE_EXTRA, (uint32_t)(y + 1),
                                       (uint32_t)(x1 + 1), NULL, &report->actual[y], report->exact, err);
    for (size_t x = x0 + pairs; status == CULPRIT_OK && x < x1; x++)
        status = oracle_add_difference(report->differences, CULPRIT_DIFFERENCE_MISSING, (uint32_t)(y1 + 1),
                                       (uint32_t)(x + 1), &report->expected[x], NULL, report->exact, err);
    return status;
}

/* Turns the matches into wrong lines (the rules at the top of the file)
 * and differences. */
static culprit_status blame_gaps(const size_t *matched, size_t expected_count, size_t actual_count,
                                 const diff_report *report, culprit_error *err)
{
    size_t next_x = 0; /* expected lines before next_x are accounted for */
    size_t gap_start = 0;
    culprit_status status = CULPRIT_OK;
    for (size_t y = 0; y <= actual_count && status == CULPRIT_OK; y++) {
        bool end = y == actual_count;
        if (!end && !matched[y])
            continue;
        size_t x = end ? expected_count : matched[y] - 1;
        if (y > gap_start) {
            for (size_t j = gap_start; j < y && status == CULPRIT_OK; j++)
                status = oracle_line_set_add(report->wrong, (uint32_t)(j + 1), err);
        } else if (x > next_x && actual_count > 0) {
            status = oracle_line_set_add(report->wrong, (uint32_t)(end ? actual_count : y + 1), err);
        }
        if (status == CULPRIT_OK && (y > gap_start || x > next_x))
            status = record_gap(report, next_x, x, gap_start, y, err);
        next_x = x + 1;
        gap_start = y + 1;
    }
    return status;
}

/* Finds the matched actual lines and blames the rest. */
static culprit_status diff_keys(const line_keys *expected, const line_keys *actual, const diff_report *report,
                                culprit_error *err)
{
    size_t *matched = calloc(actual->count + 1, sizeof *matched);
    if (!matched)
        return culprit_fail_memory(err);
    size_t prefix = 0;
    while (prefix < expected->count && prefix < actual->count &&
           same_line(&expected->keys[prefix], &actual->keys[prefix])) {
        matched[prefix] = prefix + 1;
        prefix++;
    }
    size_t suffix = 0;
    while (
        suffix < expected->count - prefix && suffix < actual->count - prefix &&
        same_line(&expected->keys[expected->count - 1 - suffix], &actual->keys[actual->count - 1 - suffix])) {
        matched[actual->count - 1 - suffix] = expected->count - suffix;
        suffix++;
    }
    diff_region region = {expected, actual, prefix, expected->count - suffix, prefix, actual->count - suffix};
    culprit_status status = CULPRIT_OK;
    if (region.x1 > region.x0 || region.y1 > region.y0)
        (void)match_region(&region, matched, err, &status);
    if (status == CULPRIT_OK)
        status = blame_gaps(matched, expected->count, actual->count, report, err);
    free(matched);
    return status;
}

static void describe(const oracle_line_set *wrong, size_t actual_lines, size_t expected_lines,
                     culprit_comparison compare, oracle_finding *finding)
{
    const char *how = compare == CULPRIT_COMPARE_WHITESPACE ? " (whitespace normalized)"
                      : compare == CULPRIT_COMPARE_TRAILING ? " (trailing whitespace ignored)"
                      : compare == CULPRIT_COMPARE_NUMBERS  ? " (numbers ignored)"
                                                            : "";
    if (actual_lines == 0)
        snprintf(finding->message, sizeof finding->message, "stdout is empty, expected %zu line%s",
                 expected_lines, expected_lines == 1 ? "" : "s");
    else
        snprintf(finding->message, sizeof finding->message,
                 "stdout differs from the expected output%s: %zu wrong line%s, the first is line %u", how,
                 wrong->count, wrong->count == 1 ? "" : "s", wrong->count ? wrong->lines[0] : 0);
    snprintf(finding->signature, sizeof finding->signature, "%s%s",
             actual_lines == 0 ? "stdout is empty" : "stdout differs from the expected output", how);
}

culprit_status oracle_check_expected(const char *expected, size_t expected_size, const char *actual,
                                     size_t actual_size, culprit_comparison compare, oracle_finding *finding,
                                     culprit_error *err)
{
    if (compare == CULPRIT_COMPARE_EXACT && expected_size == actual_size &&
        memcmp(expected, actual, actual_size) == 0)
        return CULPRIT_OK;
    culprit_output_text_line *expected_lines = NULL, *actual_lines = NULL;
    size_t expected_count = 0, actual_count = 0;
    line_keys expected_keys = {0}, actual_keys = {0};
    oracle_line_set wrong = {0};
    culprit_status status =
        culprit_split_output_lines(expected, expected_size, &expected_lines, &expected_count, err);
    if (status == CULPRIT_OK)
        status = culprit_split_output_lines(actual, actual_size, &actual_lines, &actual_count, err);
    if (status == CULPRIT_OK)
        status = make_keys(expected_lines, expected_count, expected_size, compare, &expected_keys, err);
    if (status == CULPRIT_OK)
        status = make_keys(actual_lines, actual_count, actual_size, compare, &actual_keys, err);
    diff_report report = {expected_lines, actual_lines, compare == CULPRIT_COMPARE_EXACT, &wrong,
                          &finding->differences};
    if (status == CULPRIT_OK)
        status = diff_keys(&expected_keys, &actual_keys, &report, err);
    bool differs = expected_keys.count != actual_keys.count || wrong.count > 0;
    for (size_t i = 0; status == CULPRIT_OK && i < wrong.count; i++)
        status = oracle_line_set_add(&finding->wrong, wrong.lines[i], err);
    if (status == CULPRIT_OK && differs && !finding->failed) {
        finding->failed = true;
        describe(&wrong, actual_keys.count, expected_keys.count, compare, finding);
    }
    oracle_line_set_free(&wrong);
    free_keys(&expected_keys);
    free_keys(&actual_keys);
    free(expected_lines);
    free(actual_lines);
    return status;
}
