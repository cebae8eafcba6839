/*
 * terminal.c - `culprit rank` on a terminal (include/culprit/report.h):
 * one row per entry with rank, score, location and the source text of the
 * line, the first three colored like Tarantula's display, and under a
 * line whose score is another element's (a tuple's, a block's) a dim line
 * naming it.  Piped output never comes here; it keeps the plain format
 * scripts read.
 *
 * Source text is the program's, so it is shown defanged: control
 * characters (an ESC could drive the terminal) become '?', tabs spaces.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "culprit/report.h"

enum { RANK_WIDTH = 6, SCORE_WIDTH = 8, LOCATION_WIDTH = 28, TAB_WIDTH = 4 };

void culprit_terminal_detect(int fd, culprit_terminal_options *options)
{
    const char *term = getenv("TERM"), *colorterm = getenv("COLORTERM"), *no_color = getenv("NO_COLOR");
    options->color = !(no_color && no_color[0]) && !(term && strcmp(term, "dumb") == 0);
    options->truecolor =
        colorterm && (strcmp(colorterm, "truecolor") == 0 || strcmp(colorterm, "24bit") == 0);
    struct winsize size;
    options->width = ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col > 0 ? size.ws_col : 0;
}

static void start_color(FILE *out, const culprit_terminal_options *options, const unsigned char rgb[3])
{
    if (options->truecolor) {
        fprintf(out, "\033[1;38;2;%u;%u;%um", rgb[0], rgb[1], rgb[2]);
    } else {
        /* The 6x6x6 cube of the 256-color palette. */
        int r = (rgb[0] * 5 + 127) / 255, g = (rgb[1] * 5 + 127) / 255, b = (rgb[2] * 5 + 127) / 255;
        fprintf(out, "\033[1;38;5;%dm", 16 + 36 * r + 6 * g + b);
    }
}

/* Writes at most columns characters of text (UTF-8 sequences count once),
 * leading blanks dropped. */
static void write_source(FILE *out, const char *text, size_t length, size_t columns)
{
    size_t i = 0, used = 0;
    while (i < length && (text[i] == ' ' || text[i] == '\t'))
        i++;
    for (; i < length && used < columns; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c == '\t') {
            for (int k = 0; k < TAB_WIDTH && used < columns; k++, used++)
                fputc(' ', out);
            continue;
        }
        fputc(c < 0x20 || c == 0x7f ? '?' : c, out);
        used += (c & 0xc0) != 0x80;
    }
}

static void format_score(double score, char *buffer, size_t size)
{
    if (isinf(score))
        snprintf(buffer, size, "%s", score > 0 ? "inf" : "-inf");
    else
        snprintf(buffer, size, "%.4f", score);
}

/* A dimmed line under a row, aligned with its location. */
static void write_note(FILE *out, const culprit_terminal_options *options, const char *text)
{
    size_t indent = RANK_WIDTH + 2 + SCORE_WIDTH + 2;
    fprintf(out, "%*s", (int)indent, "");
    if (options->color)
        fputs("\033[2m", out);
    size_t left = options->width > indent ? options->width - indent : 0;
    write_source(out, text, strlen(text), options->width ? left : SIZE_MAX);
    if (options->color)
        fputs("\033[0m", out);
    fputc('\n', out);
}

/* The line under a row whose score is another element's: which, and its
 * counts; else the caller's note, if any. */
static void write_decider(FILE *out, const culprit_terminal_options *options, const culprit_spectra *spectra,
                          const culprit_ranked *entry, culprit_sources *sources)
{
    char element[512], text[640];
    text[0] = '\0';
    if (culprit_report_decided_elsewhere(spectra, entry, options->view)) {
        culprit_report_describe_element(spectra, entry->decider, sources, element, sizeof element);
        snprintf(text, sizeof text, "scores as %s (ef=%u ep=%u)", element, entry->decider_tally.ef,
                 entry->decider_tally.ep);
    } else if (options->explain) {
        options->explain(options->explain_context, entry, text, sizeof text);
    }
    if (text[0])
        write_note(out, options, text);
}

static void write_row(FILE *out, const culprit_terminal_options *options, const culprit_spectra *spectra,
                      const culprit_ranked *entry, double suspiciousness, culprit_sources *sources)
{
    const culprit_element *element = &spectra->elements[entry->element];
    char label[4096], score[32];
    if (element->name || entry->file == CULPRIT_NO_FILE)
        culprit_spectra_element_label(spectra, entry->element, label, sizeof label);
    else
        snprintf(label, sizeof label, "%s:%u", spectra->files[entry->file], entry->line);
    format_score(entry->score, score, sizeof score);
    bool ran = entry->tally.ef + entry->tally.ep > 0;
    if (options->color && ran) {
        unsigned char rgb[3];
        culprit_report_color(suspiciousness, culprit_tarantula_confidence(&entry->tally), rgb);
        start_color(out, options, rgb);
    }
    int used = fprintf(out, "%*g  %*s  %-*s", RANK_WIDTH, culprit_ranked_rank(entry, options->ties),
                       SCORE_WIDTH, score, LOCATION_WIDTH, label);
    if (options->color && ran)
        fputs("\033[0m", out);
    const char *text;
    size_t length;
    if (entry->file != CULPRIT_NO_FILE &&
        culprit_sources_line(sources, entry->file, entry->line, &text, &length)) {
        size_t left = options->width > (size_t)used + 2 ? options->width - (size_t)used - 2 : 0;
        fputs("  ", out);
        write_source(out, text, length, options->width ? left : SIZE_MAX);
    }
    fputc('\n', out);
    write_decider(out, options, spectra, entry, sources);
}

culprit_status culprit_terminal_write_ranking(FILE *out, const culprit_terminal_options *options,
                                              const culprit_spectra *spectra, const culprit_ranking *ranking,
                                              culprit_sources *sources, culprit_error *err)
{
    double *suspiciousness;
    culprit_status status = culprit_report_suspiciousness(ranking, &suspiciousness, err);
    if (status)
        return status;
    size_t count = options->top && options->top < ranking->count ? options->top : ranking->count;
    fprintf(out,
            "%*s  %*s  %-*s  source   (%s, %u failing, %u passing tests; tied entries share the %s rank)\n",
            RANK_WIDTH, "rank", SCORE_WIDTH, "score", LOCATION_WIDTH, "location", options->method,
            options->totals.failing, options->totals.passing, culprit_tie_policy_name(options->ties));
    size_t missing = 0;
    for (size_t i = 0; i < count; i++) {
        const culprit_ranked *entry = &ranking->entries[i];
        write_row(out, options, spectra, entry, suspiciousness[i], sources);
        if (entry->file != CULPRIT_NO_FILE && !culprit_sources_load(sources, entry->file))
            missing++;
    }
    if (missing)
        fprintf(out, "(source text not found for %zu of these lines; run from the source directory)\n",
                missing);
    if (count < ranking->count)
        fprintf(out, "(%zu more; --top 0 shows all)\n", ranking->count - count);
    free(suspiciousness);
    return CULPRIT_OK;
}
