/*
 * eval.c - effectiveness measures for known faults (include/culprit/eval.h,
 * TECHNIQUES.md §9).
 *
 * The faults file names lines the way a developer writes them; the store
 * may hold absolute or build-relative paths.  So faults are matched to the
 * program's files by path suffix, and a fault that matches nothing, matches
 * ambiguously or names a line that is not executable is reported at its
 * place in the faults file: silently dropping a fault would make a
 * technique look better than it is.
 */
#include "culprit/eval.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"

const double culprit_eval_thresholds_percent[CULPRIT_EVAL_THRESHOLD_COUNT] = {1, 5, 10, 15, 20};
const unsigned culprit_eval_top_n[CULPRIT_EVAL_TOP_COUNT] = {1, 5, 10};

/* ---- The faults file ---------------------------------------------------- */

void culprit_fault_list_init(culprit_fault_list *faults)
{
    memset(faults, 0, sizeof *faults);
}

void culprit_fault_list_free(culprit_fault_list *faults)
{
    for (size_t i = 0; i < faults->count; i++)
        free(faults->faults[i].file);
    free(faults->faults);
    free(faults->path);
    culprit_fault_list_init(faults);
}

static culprit_status fault_list_append(culprit_fault_list *faults, const char *file, size_t file_length,
                                        uint32_t line, size_t source_line, culprit_error *err)
{
    if (!CULPRIT_GROW(faults->faults, faults->capacity, faults->count + 1, 8))
        return culprit_fail_memory(err);
    char *copy = strndup(file, file_length);
    if (!copy)
        return culprit_fail_memory(err);
    faults->faults[faults->count++] = (culprit_fault){.file = copy, .line = line, .source_line = source_line};
    return CULPRIT_OK;
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* The entry of one line: what is left after dropping the comment and the
 * blanks around it, as offsets [*start, *end) into the line.  '#' starts a
 * comment only at the start or after a blank, so a path may contain '#'. */
static void entry_bounds(const char *text, size_t length, size_t *start, size_t *end)
{
    size_t first = 0;
    while (first < length && is_blank(text[first]))
        first++;
    size_t last = length;
    for (size_t i = first; i < length; i++) {
        if (text[i] == '#' && (i == first || is_blank(text[i - 1]))) {
            last = i;
            break;
        }
    }
    while (last > first && is_blank(text[last - 1]))
        last--;
    *start = first;
    *end = last;
}

static const char *last_colon(const char *text, size_t start, size_t end)
{
    for (size_t i = end; i > start; i--)
        if (text[i - 1] == ':')
            return &text[i - 1];
    return NULL;
}

/* Whether text[start, end) is one or more digits. */
static bool all_digits(const char *text, size_t start, size_t end)
{
    if (start == end)
        return false;
    for (size_t i = start; i < end; i++)
        if (!isdigit((unsigned char)text[i]))
            return false;
    return true;
}

/* Parses the line number text[start, end) (known to be digits). */
static culprit_status parse_line_number(const char *path, size_t source_line, const char *text, size_t start,
                                        size_t end, uint32_t *line, culprit_error *err)
{
    uint64_t value = 0;
    for (size_t i = start; i < end; i++) {
        value = value * 10 + (uint64_t)(text[i] - '0');
        if (value > UINT32_MAX)
            return culprit_fail_at(err, path, source_line, start + 1,
                                   "expected FILE:LINE, line number %.*s is too large", (int)(end - start),
                                   text + start);
    }
    if (value == 0)
        return culprit_fail_at(err, path, source_line, start + 1,
                               "expected FILE:LINE, line numbers start at 1");
    *line = (uint32_t)value;
    return CULPRIT_OK;
}

/* Parses the entry text[start, end) of one line (columns are 1-based byte
 * offsets into text, the whole line). */
static culprit_status parse_entry(const char *path, size_t source_line, const char *text, size_t start,
                                  size_t end, culprit_fault_list *faults, culprit_error *err)
{
    const char *colon = last_colon(text, start, end);
    if (!colon)
        return culprit_fail_at(err, path, source_line, start + 1,
                               "expected FILE:LINE, found no ':' in '%.*s'", (int)(end - start),
                               text + start);
    size_t colon_at = (size_t)(colon - text);
    if (colon_at == start)
        return culprit_fail_at(err, path, source_line, start + 1,
                               "expected FILE:LINE, the file name is missing");
    if (colon_at + 1 == end)
        return culprit_fail_at(err, path, source_line, colon_at + 2,
                               "expected FILE:LINE, the line number is missing after ':'");
    for (size_t i = colon_at + 1; i < end; i++) {
        unsigned char c = (unsigned char)text[i];
        if (isdigit(c))
            continue;
        if (isprint(c))
            return culprit_fail_at(err, path, source_line, i + 1,
                                   "expected FILE:LINE, '%c' is not a digit of the line number", c);
        return culprit_fail_at(err, path, source_line, i + 1,
                               "expected FILE:LINE, byte 0x%02x is not a digit of the line number", c);
    }
    /* "x.c:12:5" would otherwise read as file "x.c:12", line 5. */
    const char *previous = last_colon(text, start, colon_at);
    if (previous && all_digits(text, (size_t)(previous - text) + 1, colon_at))
        return culprit_fail_at(err, path, source_line, (size_t)(previous - text) + 1,
                               "expected FILE:LINE, not FILE:LINE:COLUMN");
    uint32_t line = 0;
    culprit_status status = parse_line_number(path, source_line, text, colon_at + 1, end, &line, err);
    if (status)
        return status;
    return fault_list_append(faults, text + start, colon_at - start, line, source_line, err);
}

culprit_status culprit_faults_parse(const char *path, const char *text, size_t length,
                                    culprit_fault_list *faults, culprit_error *err)
{
    faults->path = strdup(path);
    if (!faults->path)
        return culprit_fail_memory(err);
    size_t source_line = 0;
    size_t offset = 0;
    while (offset < length) {
        const char *newline = memchr(text + offset, '\n', length - offset);
        size_t line_length = newline ? (size_t)(newline - (text + offset)) : length - offset;
        source_line++;
        size_t start, end;
        entry_bounds(text + offset, line_length, &start, &end);
        if (start < end) {
            culprit_status status = parse_entry(path, source_line, text + offset, start, end, faults, err);
            if (status)
                return status;
        }
        offset += line_length + 1;
    }
    if (faults->count == 0)
        return culprit_fail(err, CULPRIT_ERROR_INPUT,
                            "%s: no faulty lines in the file (expected FILE:LINE lines)", path);
    return CULPRIT_OK;
}

/* Reads a whole file into a malloc'd buffer. */
static culprit_status read_file(const char *path, char **text, size_t *length, culprit_error *err)
{
    FILE *in = fopen(path, "rb");
    if (!in)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "cannot open %s: %s", path, strerror(errno));
    size_t capacity = 0, used = 0;
    char *buffer = NULL;
    bool grown;
    while ((grown = CULPRIT_GROW(buffer, capacity, used + 1, 4096))) {
        used += fread(buffer + used, 1, capacity - used, in);
        if (used < capacity)
            break;
    }
    bool failed = ferror(in);
    fclose(in);
    if (!grown) {
        free(buffer);
        return culprit_fail_memory(err);
    }
    if (failed) {
        free(buffer);
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "cannot read %s", path);
    }
    *text = buffer;
    *length = used;
    return CULPRIT_OK;
}

culprit_status culprit_faults_read(const char *path, culprit_fault_list *faults, culprit_error *err)
{
    char *text = NULL;
    size_t length = 0;
    culprit_status status = read_file(path, &text, &length, err);
    if (status)
        return status;
    status = culprit_faults_parse(path, text, length, faults, err);
    free(text);
    return status;
}

/* ---- Matching faults to the program ------------------------------------- */

/* Whether longer ends with shorter right after a '/'. */
static bool is_path_suffix(const char *longer, const char *shorter)
{
    size_t long_length = strlen(longer), short_length = strlen(shorter);
    if (short_length == 0 || short_length >= long_length)
        return false;
    return longer[long_length - short_length - 1] == '/' &&
           strcmp(longer + long_length - short_length, shorter) == 0;
}

bool culprit_path_matches(const char *fault_path, const char *program_path)
{
    return strcmp(fault_path, program_path) == 0 || is_path_suffix(program_path, fault_path) ||
           is_path_suffix(fault_path, program_path);
}

static int compare_program_lines(const void *left, const void *right)
{
    const culprit_program_line *a = left, *b = right;
    if (a->file != b->file)
        return a->file < b->file ? -1 : 1;
    return a->line < b->line ? -1 : a->line > b->line;
}

/* The same selection as culprit_rank's line view. */
static bool in_line_view(const culprit_element *element, const culprit_rank_options *options)
{
    if (!options->all_kinds && element->kind != options->kind)
        return false;
    return element->file != CULPRIT_NO_FILE && element->line > 0;
}

culprit_status culprit_program_lines_build(const culprit_spectra *spectra, const culprit_tally *tallies,
                                           const culprit_rank_options *options, culprit_program_lines *lines,
                                           culprit_error *err)
{
    memset(lines, 0, sizeof *lines);
    culprit_program_line *all = malloc((spectra->element_count + 1) * sizeof *all);
    if (!all)
        return culprit_fail_memory(err);
    size_t count = 0;
    for (uint32_t e = 0; e < spectra->element_count; e++) {
        const culprit_element *element = &spectra->elements[e];
        if (!in_line_view(element, options))
            continue;
        bool executed = tallies[e].ef + tallies[e].ep > 0;
        all[count++] =
            (culprit_program_line){.file = element->file, .line = element->line, .executed = executed};
    }
    qsort(all, count, sizeof *all, compare_program_lines);
    /* Several elements on one line make one line, executed if any of them ran. */
    size_t kept = 0;
    for (size_t i = 0; i < count; i++) {
        if (kept && compare_program_lines(&all[kept - 1], &all[i]) == 0)
            all[kept - 1].executed |= all[i].executed;
        else
            all[kept++] = all[i];
    }
    lines->lines = all;
    lines->count = kept;
    for (size_t i = 0; i < kept; i++)
        lines->executed_count += all[i].executed;
    return CULPRIT_OK;
}

void culprit_program_lines_free(culprit_program_lines *lines)
{
    free(lines->lines);
    memset(lines, 0, sizeof *lines);
}

void culprit_program_lines_keep_files(culprit_program_lines *lines, const bool *kept_files)
{
    if (!kept_files)
        return;
    size_t kept = 0;
    lines->executed_count = 0;
    for (size_t i = 0; i < lines->count; i++) {
        if (!kept_files[lines->lines[i].file])
            continue;
        lines->executed_count += lines->lines[i].executed;
        lines->lines[kept++] = lines->lines[i];
    }
    lines->count = kept;
}

static const culprit_program_line *find_program_line(const culprit_program_lines *lines, uint32_t file,
                                                     uint32_t line)
{
    culprit_program_line key = {.file = file, .line = line};
    return bsearch(&key, lines->lines, lines->count, sizeof key, compare_program_lines);
}

/* The program file a fault names: its exact path, else the one file that
 * matches by suffix. */
static culprit_status resolve_file(const culprit_fault_list *faults, const culprit_fault *fault,
                                   const culprit_spectra *spectra, uint32_t *file, culprit_error *err)
{
    *file = culprit_spectra_find_file(spectra, fault->file);
    if (*file != CULPRIT_NO_FILE)
        return CULPRIT_OK;
    for (uint32_t f = 0; f < spectra->file_count; f++) {
        if (!culprit_path_matches(fault->file, spectra->files[f]))
            continue;
        if (*file != CULPRIT_NO_FILE)
            return culprit_fail_at(err, faults->path, fault->source_line, 0,
                                   "faulty line %s:%u is ambiguous: the program has %s and %s; "
                                   "write more of the path",
                                   fault->file, (unsigned)fault->line, spectra->files[*file],
                                   spectra->files[f]);
        *file = f;
    }
    if (*file == CULPRIT_NO_FILE)
        return culprit_fail_at(err, faults->path, fault->source_line, 0,
                               "faulty line %s:%u is not in the program: no file of the program matches %s",
                               fault->file, (unsigned)fault->line, fault->file);
    return CULPRIT_OK;
}

culprit_status culprit_faults_resolve(const culprit_fault_list *faults, const culprit_spectra *spectra,
                                      const culprit_program_lines *lines, culprit_fault_location *locations,
                                      culprit_error *err)
{
    for (size_t i = 0; i < faults->count; i++) {
        const culprit_fault *fault = &faults->faults[i];
        uint32_t file;
        culprit_status status = resolve_file(faults, fault, spectra, &file, err);
        if (status)
            return status;
        if (!find_program_line(lines, file, fault->line))
            return culprit_fail_at(err, faults->path, fault->source_line, 0,
                                   "faulty line %s:%u is not an executable line of the program", fault->file,
                                   (unsigned)fault->line);
        locations[i] = (culprit_fault_location){.file = file, .line = fault->line};
    }
    return CULPRIT_OK;
}

/* ---- Measures of one ranking -------------------------------------------- */

/* A fault location with its position in the caller's array. */
typedef struct indexed_location {
    uint32_t file, line;
    size_t index;
} indexed_location;

static int compare_indexed_locations(const void *left, const void *right)
{
    const indexed_location *a = left, *b = right;
    if (a->file != b->file)
        return a->file < b->file ? -1 : 1;
    return a->line < b->line ? -1 : a->line > b->line;
}

/* Finds the first ranking entry that is a fault: entries are in rank order,
 * so it is the faulty line with the best rank. */
static bool find_first_fault(const culprit_ranking *ranking, const indexed_location *sorted, size_t count,
                             size_t *entry, size_t *fault)
{
    for (size_t i = 0; i < ranking->count; i++) {
        indexed_location key = {.file = ranking->entries[i].file, .line = ranking->entries[i].line};
        const indexed_location *found = bsearch(&key, sorted, count, sizeof key, compare_indexed_locations);
        if (found) {
            *entry = i;
            *fault = found->index;
            return true;
        }
    }
    return false;
}

culprit_status culprit_eval_measure(const culprit_ranking *ranking, const culprit_program_lines *lines,
                                    const culprit_fault_location *locations, size_t location_count,
                                    culprit_tie_policy ties, culprit_eval_measures *measures,
                                    culprit_error *err)
{
    if (location_count == 0)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "no faulty lines to evaluate");
    if (ranking->count != lines->count)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL,
                            "the ranking has %zu lines but the program has %zu executable lines",
                            ranking->count, lines->count);
    indexed_location *sorted = malloc(location_count * sizeof *sorted);
    if (!sorted)
        return culprit_fail_memory(err);
    for (size_t i = 0; i < location_count; i++)
        sorted[i] = (indexed_location){.file = locations[i].file, .line = locations[i].line, .index = i};
    qsort(sorted, location_count, sizeof *sorted, compare_indexed_locations);
    size_t entry = 0, fault = 0;
    bool found = find_first_fault(ranking, sorted, location_count, &entry, &fault);
    free(sorted);
    if (!found)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "no faulty line is in the ranking");

    const culprit_ranked *first = &ranking->entries[entry];
    *measures = (culprit_eval_measures){
        .first_fault = fault,
        .entry = entry,
        .best_rank = first->best_rank,
        .worst_rank = first->worst_rank,
        .average_rank = first->average_rank,
        .ties = ties,
        .rank = culprit_ranked_rank(first, ties),
        .executable_lines = lines->count,
        .executed_lines = lines->executed_count,
    };
    measures->exam = measures->rank / (double)lines->count;
    measures->exam_executed = lines->executed_count ? measures->rank / (double)lines->executed_count : NAN;
    measures->well_localized = measures->exam < CULPRIT_EVAL_WELL_LOCALIZED;
    return CULPRIT_OK;
}

/* ---- Summaries over many faulty versions -------------------------------- */

void culprit_eval_summaries_free(culprit_eval_summaries *summaries)
{
    for (size_t i = 0; i < summaries->count; i++) {
        free(summaries->items[i].technique);
        free(summaries->items[i].curve);
    }
    free(summaries->items);
    summaries->items = NULL;
    summaries->count = 0;
}

static int compare_doubles(const void *left, const void *right)
{
    double a = *(const double *)left, b = *(const double *)right;
    return a < b ? -1 : a > b;
}

static int compare_strings(const void *left, const void *right)
{
    return strcmp(*(const char *const *)left, *(const char *const *)right);
}

/* The records of one technique, gathered from the mixed input. */
typedef struct technique_group {
    const char *technique;
    size_t count;
    double *exams; /* sorted ascending once gathered */
    double *ranks;
    const char **versions;
} technique_group;

static void group_free(technique_group *group)
{
    free(group->exams);
    free(group->ranks);
    free(group->versions);
}

static culprit_status group_gather(const culprit_eval_record *records, size_t count, const char *technique,
                                   technique_group *group, culprit_error *err)
{
    *group = (technique_group){.technique = technique};
    group->exams = malloc(count * sizeof *group->exams);
    group->ranks = malloc(count * sizeof *group->ranks);
    group->versions = malloc(count * sizeof *group->versions);
    if (!group->exams || !group->ranks || !group->versions)
        return culprit_fail_memory(err);
    for (size_t i = 0; i < count; i++) {
        if (strcmp(records[i].technique, technique) != 0)
            continue;
        if (isnan(records[i].exam) || isnan(records[i].rank))
            return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s, version %s: EXAM or rank is not a number",
                                technique, records[i].version);
        group->exams[group->count] = records[i].exam;
        group->ranks[group->count] = records[i].rank;
        group->versions[group->count] = records[i].version;
        group->count++;
    }
    qsort(group->exams, group->count, sizeof *group->exams, compare_doubles);
    qsort(group->versions, group->count, sizeof *group->versions, compare_strings);
    for (size_t i = 1; i < group->count; i++)
        if (strcmp(group->versions[i - 1], group->versions[i]) == 0)
            return culprit_fail(err, CULPRIT_ERROR_INPUT, "version %s appears twice for %s",
                                group->versions[i], technique);
    return CULPRIT_OK;
}

static double percent_of(size_t part, size_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* Number of the (sorted) values that are <= limit. */
static size_t count_at_most(const double *sorted, size_t count, double limit)
{
    size_t n = 0;
    while (n < count && sorted[n] <= limit)
        n++;
    return n;
}

static void summarize_exam(const technique_group *group, culprit_eval_summary *summary)
{
    double sum = 0;
    for (size_t i = 0; i < group->count; i++)
        sum += group->exams[i];
    summary->exam_mean = sum / (double)group->count;
    if (group->count < 2) {
        summary->exam_sd = NAN;
    } else {
        double squares = 0;
        for (size_t i = 0; i < group->count; i++)
            squares += (group->exams[i] - summary->exam_mean) * (group->exams[i] - summary->exam_mean);
        summary->exam_sd = sqrt(squares / (double)(group->count - 1));
    }
    for (size_t t = 0; t < CULPRIT_EVAL_THRESHOLD_COUNT; t++) {
        double limit = culprit_eval_thresholds_percent[t] / 100.0;
        summary->within_percent[t] =
            percent_of(count_at_most(group->exams, group->count, limit), group->count);
    }
    size_t well = 0;
    for (size_t i = 0; i < group->count; i++)
        well += group->exams[i] < CULPRIT_EVAL_WELL_LOCALIZED;
    summary->well_localized_percent = percent_of(well, group->count);
}

static void summarize_top(const technique_group *group, culprit_eval_summary *summary)
{
    for (size_t t = 0; t < CULPRIT_EVAL_TOP_COUNT; t++) {
        size_t within = 0;
        for (size_t i = 0; i < group->count; i++)
            within += group->ranks[i] <= (double)culprit_eval_top_n[t];
        summary->top_count[t] = within;
        summary->top_percent[t] = percent_of(within, group->count);
    }
}

/* The step curve's corners: at 0, at every distinct EXAM in (0, 1], at 100. */
static culprit_status summarize_curve(const technique_group *group, culprit_eval_summary *summary,
                                      culprit_error *err)
{
    summary->curve = malloc((group->count + 2) * sizeof *summary->curve);
    if (!summary->curve)
        return culprit_fail_memory(err);
    const double *exams = group->exams;
    size_t n = group->count, points = 0;
    summary->curve[points++] = (culprit_curve_point){0, percent_of(count_at_most(exams, n, 0), n)};
    for (size_t i = 0; i < n; i++) {
        if (exams[i] <= 0 || exams[i] > 1 || (i + 1 < n && exams[i + 1] == exams[i]))
            continue; /* only the last of equal values: it has the full count */
        summary->curve[points++] = (culprit_curve_point){100.0 * exams[i], percent_of(i + 1, n)};
    }
    if (summary->curve[points - 1].code_percent < 100)
        summary->curve[points++] = (culprit_curve_point){100, percent_of(count_at_most(exams, n, 1), n)};
    summary->curve_count = points;
    return CULPRIT_OK;
}

static culprit_status summarize_group(const technique_group *group, culprit_eval_summary *summary,
                                      culprit_error *err)
{
    *summary = (culprit_eval_summary){.fault_count = group->count};
    summary->technique = strdup(group->technique);
    if (!summary->technique)
        return culprit_fail_memory(err);
    summarize_exam(group, summary);
    summarize_top(group, summary);
    return summarize_curve(group, summary, err);
}

/* Whether technique already has a summary (techniques come in order of
 * first appearance; there are few of them, so a linear scan will do). */
static bool already_summarized(const culprit_eval_summaries *summaries, const char *technique)
{
    for (size_t i = 0; i < summaries->count; i++)
        if (strcmp(summaries->items[i].technique, technique) == 0)
            return true;
    return false;
}

culprit_status culprit_eval_summarize(const culprit_eval_record *records, size_t count,
                                      culprit_eval_summaries *summaries, culprit_error *err)
{
    summaries->count = 0;
    summaries->items = malloc((count + 1) * sizeof *summaries->items);
    if (!summaries->items)
        return culprit_fail_memory(err);
    for (size_t i = 0; i < count; i++) {
        if (already_summarized(summaries, records[i].technique))
            continue;
        technique_group group;
        culprit_status status = group_gather(records, count, records[i].technique, &group, err);
        if (!status) {
            status = summarize_group(&group, &summaries->items[summaries->count], err);
            summaries->count++; /* counted even on failure so that free releases it */
        }
        group_free(&group);
        if (status) {
            culprit_eval_summaries_free(summaries);
            return status;
        }
    }
    return CULPRIT_OK;
}
