/*
 * search_delta.c - the delta candidates of strategy `delta` (beyond the
 * papers; docs/symbolic.md, "Strategies"): the failing input with one
 * piece of a text part left out, each piece once.
 *
 * Why: localization needs runs close to the failing one, and the flips of
 * a long failing path keep the part of the input that caused the failure
 * (`make eval-gen`: PCS generated only failing tests on fmt and htmlgen).
 * Leaving a line out is the step delta debugging takes: a run without the
 * line that caused the failure passes while running nearly everything the
 * failing run ran, and the runs without other lines fail again, each a
 * little differently - both kinds sharpen a ranking where a dozen more
 * copies of the failing path do not.  The pieces are the part's lines, or,
 * when a part has more lines than DELTA_MAX_PIECES, that many runs of
 * consecutive lines; a one-line part's pieces are its blank-separated
 * tokens (calc's failing tests are one expression); binary parts (a NUL
 * byte) are left alone.
 */
#include <stdlib.h>
#include <string.h>

#include "concolic/search_internal.h"

enum { DELTA_MAX_PIECES = 64 };

static bool is_text(const culprit_input_part *part)
{
    return part->length > 0 && memchr(part->bytes, '\0', part->length) == NULL;
}

/* The offsets where lines start, and the end: starts[0..count]. */
static size_t line_starts(const culprit_input_part *part, size_t *starts, size_t capacity)
{
    size_t count = 0;
    starts[count++] = 0;
    for (size_t i = 0; i < part->length && count < capacity; i++)
        if (part->bytes[i] == '\n' && i + 1 < part->length)
            starts[count++] = i + 1;
    starts[count] = part->length;
    return count;
}

/* parent's input with bytes [from, to) of the part left out, queued. */
static culprit_status queue_without(gen_search *search, size_t run_index, const culprit_input_part *part,
                                    size_t from, size_t to, culprit_error *err)
{
    gen_candidate candidate = {.run = run_index, .delta = true};
    culprit_status status = culprit_input_copy(&search->runs[run_index].input, &candidate.input, err);
    unsigned char *bytes = status == CULPRIT_OK ? malloc(part->length - (to - from) + 1) : NULL;
    if (status == CULPRIT_OK && !bytes)
        status = culprit_fail_memory(err);
    if (status == CULPRIT_OK) {
        memcpy(bytes, part->bytes, from);
        memcpy(bytes + from, part->bytes + to, part->length - to);
        status = culprit_input_set(&candidate.input, part->kind, part->index, bytes,
                                   part->length - (to - from), err);
    }
    free(bytes);
    candidate.solved = status == CULPRIT_OK;
    if (status != CULPRIT_OK) {
        gen_candidate_free(&candidate);
        return status;
    }
    return gen_add_candidate(search, &candidate, err);
}

static bool is_blank(unsigned char c)
{
    return c == ' ' || c == '\t';
}

/* The offsets where blank-separated tokens start (a token owns the blanks
 * after it, so leaving it out leaves one separator), and the end. */
static size_t token_starts(const culprit_input_part *part, size_t *starts, size_t capacity)
{
    size_t count = 0;
    for (size_t i = 0; i < part->length && count < capacity; i++)
        if (!is_blank(part->bytes[i]) && part->bytes[i] != '\n' && (i == 0 || is_blank(part->bytes[i - 1])))
            starts[count++] = i;
    starts[count] = part->length;
    /* the last token keeps the line's end */
    while (count > 0 && starts[count] > starts[count - 1] && part->bytes[starts[count] - 1] == '\n')
        starts[count]--;
    return count;
}

static culprit_status part_candidates(gen_search *search, size_t run_index, const culprit_input_part *part,
                                      culprit_error *err)
{
    size_t *starts = malloc((part->length + 2) * sizeof *starts);
    if (!starts)
        return culprit_fail_memory(err);
    size_t lines = line_starts(part, starts, part->length + 1);
    if (lines == 1)
        lines = token_starts(part, starts, part->length + 1);
    size_t pieces = lines < DELTA_MAX_PIECES ? lines : DELTA_MAX_PIECES;
    culprit_status status = CULPRIT_OK;
    /* A single piece is worth leaving out only when something is left. */
    for (size_t p = 0; p < pieces && lines > 1 && status == CULPRIT_OK; p++) {
        size_t first = p * lines / pieces, last = (p + 1) * lines / pieces;
        status = queue_without(search, run_index, part, starts[first], starts[last], err);
    }
    free(starts);
    return status;
}

culprit_status gen_delta_candidates(gen_search *search, size_t run_index, culprit_error *err)
{
    const culprit_input *input = &search->runs[run_index].input;
    culprit_status status = CULPRIT_OK;
    for (size_t i = 0; i < input->part_count && status == CULPRIT_OK; i++) {
        const culprit_input_part *part = &input->parts[i];
        if (part->kind != CULPRIT_SYM_SOURCE_ARGV && is_text(part))
            status = part_candidates(search, run_index, part, err);
    }
    return status;
}
