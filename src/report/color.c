/*
 * color.c - Tarantula's colors (include/culprit/report.h): the hue says how
 * suspicious a line is (red most, through yellow, to green least) and the
 * brightness how much to trust that (the confidence).  The HTML page
 * computes the same in its script; this copy serves the terminal.
 */
#include <math.h>
#include <stdlib.h>

#include "culprit/report.h"

culprit_status culprit_report_suspiciousness(const culprit_ranking *ranking, double **values,
                                             culprit_error *err)
{
    *values = malloc((ranking->count + 1) * sizeof **values);
    if (!*values)
        return culprit_fail_memory(err);
    double low = HUGE_VAL, high = -HUGE_VAL;
    for (size_t i = 0; i < ranking->count; i++) {
        double score = ranking->entries[i].score;
        if (isfinite(score)) {
            low = fmin(low, score);
            high = fmax(high, score);
        }
    }
    /* Scores already in [0, 1] keep their meaning: 0.5 stays yellow. */
    bool unit = low >= 0 && high <= 1;
    for (size_t i = 0; i < ranking->count; i++) {
        double score = ranking->entries[i].score, value;
        if (isnan(score))
            value = 0;
        else if (isinf(score))
            value = score > 0 ? 1 : 0;
        else if (unit)
            value = score;
        else
            value = high > low ? (score - low) / (high - low) : 1;
        (*values)[i] = value;
    }
    return CULPRIT_OK;
}

/* HSV with full saturation to RGB, h in degrees [0, 120]. */
static void hsv_to_rgb(double hue, double value, unsigned char rgb[3])
{
    double h = hue / 60, x = value * (1 - fabs(fmod(h, 2) - 1));
    double r = h < 1 ? value : x, g = h < 1 ? x : value;
    rgb[0] = (unsigned char)lround(r * 255);
    rgb[1] = (unsigned char)lround(g * 255);
    rgb[2] = 0;
}

void culprit_report_color(double suspiciousness, double confidence, unsigned char rgb[3])
{
    double s = isnan(suspiciousness) ? 0 : fmin(1, fmax(0, suspiciousness));
    double c = isnan(confidence) ? 1 : fmin(1, fmax(0, confidence));
    hsv_to_rgb((1 - s) * 120, 0.35 + 0.65 * c, rgb);
}
