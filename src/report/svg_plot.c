/*
 * svg_plot.c - writes effectiveness curves as SVG (src/report/svg_plot.h).
 *
 * The chart is plain SVG 1.1 with no scripts or external resources, so it
 * opens in a browser and embeds in a paper.  Curves are step functions:
 * the share of faults located only changes where some fault's EXAM is, so
 * a straight segment between two corners would claim faults are found in
 * between.  Colours come from a ten-colour palette chosen to stay apart;
 * past ten curves the dash pattern changes too, so every curve stays
 * distinguishable even with `--formula all`.
 */
#include "report/svg_plot.h"

/* Geometry in SVG user units. */
enum {
    PLOT_LEFT = 70,
    PLOT_TOP = 40,
    PLOT_WIDTH = 480,
    PLOT_HEIGHT = 360,
    PLOT_BOTTOM_MARGIN = 60,
    LEGEND_GAP = 30,
    LEGEND_WIDTH = 210,
    LEGEND_ROW = 18,
    TICK_STEP = 10,
};

static const char *const palette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                      "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
/* NULL: a solid line. */
static const char *const dashes[] = {NULL, "6 3", "2 3", "10 3 2 3", "12 5"};

enum { PALETTE_SIZE = sizeof palette / sizeof palette[0], DASH_COUNT = sizeof dashes / sizeof dashes[0] };

static void write_escaped(FILE *out, const char *text)
{
    for (const char *p = text; *p; p++) {
        switch (*p) {
        case '&':
            fputs("&amp;", out);
            break;
        case '<':
            fputs("&lt;", out);
            break;
        case '>':
            fputs("&gt;", out);
            break;
        case '"':
            fputs("&quot;", out);
            break;
        case '\'':
            fputs("&apos;", out);
            break;
        default:
            /* XML 1.0 forbids most control characters even escaped. */
            if ((unsigned char)*p < 0x20 && *p != '\t' && *p != '\n')
                fputc('?', out);
            else
                fputc(*p, out);
        }
    }
}

static double clamp_percent(double value)
{
    return value < 0 ? 0 : value > 100 ? 100 : value;
}

static double to_x(double percent)
{
    return PLOT_LEFT + clamp_percent(percent) / 100.0 * PLOT_WIDTH;
}

static double to_y(double percent)
{
    return PLOT_TOP + PLOT_HEIGHT - clamp_percent(percent) / 100.0 * PLOT_HEIGHT;
}

static int legend_height(const culprit_plot *plot)
{
    return (int)plot->series_count * LEGEND_ROW + LEGEND_ROW;
}

static void write_header(FILE *out, const culprit_plot *plot, int width, int height)
{
    fprintf(out,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            width, height, width, height);
    if (plot->title) {
        fprintf(out, "<title>");
        write_escaped(out, plot->title);
        fprintf(out, "</title>\n<text x=\"%d\" y=\"%d\" font-size=\"14\" font-weight=\"bold\">", PLOT_LEFT,
                PLOT_TOP - 16);
        write_escaped(out, plot->title);
        fprintf(out, "</text>\n");
    }
}

/* Grid lines, tick labels every TICK_STEP percent, the frame and the axis labels. */
static void write_axes(FILE *out, const culprit_plot *plot)
{
    fprintf(out, "<g stroke=\"#dddddd\" stroke-width=\"1\">\n");
    for (int tick = 0; tick <= 100; tick += TICK_STEP) {
        fprintf(out, "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\"/>\n", to_x(tick), PLOT_TOP,
                to_x(tick), PLOT_TOP + PLOT_HEIGHT);
        fprintf(out, "<line x1=\"%d\" y1=\"%.2f\" x2=\"%d\" y2=\"%.2f\"/>\n", PLOT_LEFT, to_y(tick),
                PLOT_LEFT + PLOT_WIDTH, to_y(tick));
    }
    fprintf(out,
            "</g>\n<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"black\"/>\n",
            PLOT_LEFT, PLOT_TOP, PLOT_WIDTH, PLOT_HEIGHT);
    fprintf(out, "<g text-anchor=\"middle\">\n");
    for (int tick = 0; tick <= 100; tick += TICK_STEP)
        fprintf(out, "<text x=\"%.2f\" y=\"%d\">%d</text>\n", to_x(tick), PLOT_TOP + PLOT_HEIGHT + 16, tick);
    fprintf(out, "</g>\n<g text-anchor=\"end\">\n");
    for (int tick = 0; tick <= 100; tick += TICK_STEP)
        fprintf(out, "<text x=\"%d\" y=\"%.2f\">%d</text>\n", PLOT_LEFT - 6, to_y(tick) + 4, tick);
    fprintf(out, "</g>\n<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", PLOT_LEFT + PLOT_WIDTH / 2,
            PLOT_TOP + PLOT_HEIGHT + 40);
    write_escaped(out, plot->x_label);
    fprintf(out, "</text>\n<text transform=\"translate(%d %d) rotate(-90)\" text-anchor=\"middle\">",
            PLOT_LEFT - 45, PLOT_TOP + PLOT_HEIGHT / 2);
    write_escaped(out, plot->y_label);
    fprintf(out, "</text>\n");
}

static void write_stroke(FILE *out, size_t index)
{
    fprintf(out, "stroke=\"%s\" stroke-width=\"2\"", palette[index % PALETTE_SIZE]);
    const char *dash = dashes[(index / PALETTE_SIZE) % DASH_COUNT];
    if (dash)
        fprintf(out, " stroke-dasharray=\"%s\"", dash);
}

/* One curve as a polyline through its corners, holding each y until the next x. */
static void write_series(FILE *out, const culprit_plot_series *series, size_t index)
{
    if (series->count == 0)
        return;
    fprintf(out, "<polyline fill=\"none\" ");
    write_stroke(out, index);
    fprintf(out, " points=\"%.2f,%.2f", to_x(series->points[0].code_percent),
            to_y(series->points[0].faults_percent));
    for (size_t i = 1; i < series->count; i++) {
        double x = to_x(series->points[i].code_percent);
        fprintf(out, " %.2f,%.2f %.2f,%.2f", x, to_y(series->points[i - 1].faults_percent), x,
                to_y(series->points[i].faults_percent));
    }
    fprintf(out, "\"><title>");
    write_escaped(out, series->label);
    fprintf(out, "</title></polyline>\n");
}

static void write_legend(FILE *out, const culprit_plot *plot)
{
    int left = PLOT_LEFT + PLOT_WIDTH + LEGEND_GAP;
    for (size_t i = 0; i < plot->series_count; i++) {
        int y = PLOT_TOP + (int)i * LEGEND_ROW + LEGEND_ROW / 2;
        fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" ", left, y, left + 24, y);
        write_stroke(out, i);
        fprintf(out, "/>\n<text x=\"%d\" y=\"%d\">", left + 30, y + 4);
        write_escaped(out, plot->series[i].label);
        fprintf(out, "</text>\n");
    }
}

culprit_status culprit_svg_write_plot(FILE *out, const culprit_plot *plot, culprit_error *err)
{
    int width = PLOT_LEFT + PLOT_WIDTH + LEGEND_GAP + LEGEND_WIDTH;
    int height = PLOT_TOP + PLOT_HEIGHT + PLOT_BOTTOM_MARGIN;
    if (PLOT_TOP + legend_height(plot) > height)
        height = PLOT_TOP + legend_height(plot);
    write_header(out, plot, width, height);
    write_axes(out, plot);
    for (size_t i = 0; i < plot->series_count; i++)
        write_series(out, &plot->series[i], i);
    write_legend(out, plot);
    fprintf(out, "</svg>\n");
    if (ferror(out))
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot write the SVG plot");
    return CULPRIT_OK;
}
