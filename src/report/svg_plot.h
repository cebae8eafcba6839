/*
 * svg_plot.h - effectiveness curves as a standalone SVG line chart.
 *
 * `culprit eval --summary --svg FILE` draws, for each technique, the step
 * curve "% of faults located" (y) against "% of code examined" (x), both
 * axes 0..100, with ticks, a grid and a legend.  The chart is written to a
 * FILE* the caller opened, so the library stays free of path handling; a
 * write failure is returned as an error, never printed.
 */
#ifndef CULPRIT_SVG_PLOT_H
#define CULPRIT_SVG_PLOT_H

#include <stddef.h>
#include <stdio.h>

#include "culprit/error.h"
#include "culprit/eval.h"

/* One curve: its corners, as culprit_eval_summarize makes them (a step
 * function that holds each y until the next corner's x). */
typedef struct culprit_plot_series {
    const char *label;
    size_t count;
    const culprit_curve_point *points;
} culprit_plot_series;

typedef struct culprit_plot {
    const char *title; /* NULL for none */
    const char *x_label, *y_label;
    size_t series_count;
    const culprit_plot_series *series;
} culprit_plot;

/* Writes plot as an SVG document to out. */
culprit_status culprit_svg_write_plot(FILE *out, const culprit_plot *plot, culprit_error *err);

#endif
