/*
 * gen_trace.c - `culprit gen --trace FILE [--faults FILE]`: one JSON line
 * per generated test, so that a benchmark (bench/eval_gen.sh) can draw how
 * localization improves test by test without re-running anything.
 *
 * Each line says which test ran, its verdict, the seconds since the
 * generation started and how many tests failed so far; with --faults (the
 * known faulty lines, as `culprit eval --faults` reads them) it adds where
 * the first faulty line ranks under the default method of `culprit rank`
 * and under Ochiai over lines, measured by libculprit's eval code
 * (culprit/eval.h) exactly as `culprit eval` measures a store: the
 * program's executable lines as N, worst ties for EXAM.  The measures need
 * only the spectra gen.c loads after each test.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/gen.h"
#include "culprit/eval.h"
#include "culprit/json_text.h"
#include "culprit/techniques.h"

struct gen_trace {
    FILE *out;
    culprit_fault_list faults;
    bool have_faults;
    struct timespec start;
    /* the last test's measures under the default method, for the summary */
    bool measured;
    culprit_eval_measures last;
    char last_method[96];
};

culprit_status gen_trace_open(const gen_options *options, gen_trace **trace, culprit_error *err)
{
    *trace = NULL;
    if (!options->trace_path && !options->faults_path)
        return CULPRIT_OK;
    gen_trace *made = calloc(1, sizeof *made);
    if (!made)
        return culprit_fail_memory(err);
    culprit_fault_list_init(&made->faults);
    clock_gettime(CLOCK_MONOTONIC, &made->start);
    culprit_status status = CULPRIT_OK;
    if (options->faults_path) {
        status = culprit_faults_read(options->faults_path, &made->faults, err);
        made->have_faults = status == CULPRIT_OK;
    }
    if (status == CULPRIT_OK && options->trace_path && !(made->out = fopen(options->trace_path, "w")))
        status = culprit_fail(err, CULPRIT_ERROR_INPUT, "--trace %s: cannot write it: %s",
                              options->trace_path, strerror(errno));
    if (status != CULPRIT_OK) {
        gen_trace_close(made);
        return status;
    }
    *trace = made;
    return CULPRIT_OK;
}

void gen_trace_close(gen_trace *trace)
{
    if (!trace)
        return;
    if (trace->out)
        fclose(trace->out);
    culprit_fault_list_free(&trace->faults);
    free(trace);
}

/* What eval needs of the spectra once per test: tallies, the executable
 * lines and where the faults lie among them. */
typedef struct trace_measure {
    culprit_tally *tallies;
    culprit_totals totals;
    culprit_program_lines lines;
    culprit_fault_location *locations;
} trace_measure;

static const culprit_rank_options LINE_VIEW = {.kind = CULPRIT_KIND_LINE, .view = CULPRIT_VIEW_LINE};

static culprit_status measure_prepare(const gen_trace *trace, const culprit_spectra *spectra,
                                      trace_measure *m, culprit_error *err)
{
    culprit_verdict_policy policy = culprit_verdict_policy_default();
    m->tallies = malloc((spectra->element_count + 1) * sizeof *m->tallies);
    m->locations = malloc((trace->faults.count + 1) * sizeof *m->locations);
    if (!m->tallies || !m->locations)
        return culprit_fail_memory(err);
    culprit_status status = culprit_spectra_tally(spectra, &policy, m->tallies, &m->totals, err);
    if (status == CULPRIT_OK)
        status = culprit_program_lines_build(spectra, m->tallies, &LINE_VIEW, &m->lines, err);
    if (status == CULPRIT_OK)
        status = culprit_faults_resolve(&trace->faults, spectra, &m->lines, m->locations, err);
    return status;
}

static void measure_free(trace_measure *m)
{
    free(m->tallies);
    free(m->locations);
    culprit_program_lines_free(&m->lines);
}

static culprit_status measure_method(const gen_trace *trace, const culprit_spectra *spectra,
                                     const trace_measure *m, const culprit_method *method,
                                     culprit_eval_measures *measures, char *name, size_t name_size,
                                     culprit_error *err)
{
    culprit_technique_input input = {.spectra = spectra,
                                     .tallies = m->tallies,
                                     .totals = m->totals,
                                     .policy = culprit_verdict_policy_default(),
                                     .formula = method->formula,
                                     .mapping = culprit_output_mapping_default()};
    culprit_method_ranking ranked;
    culprit_status status = culprit_rank_method(method, &input, &LINE_VIEW, &ranked, err);
    if (status == CULPRIT_OK) {
        snprintf(name, name_size, "%s", ranked.name);
        status = culprit_eval_measure(&ranked.ranking, &m->lines, m->locations, trace->faults.count,
                                      CULPRIT_TIES_WORST, measures, err);
    }
    culprit_method_ranking_free(&ranked);
    return status;
}

static void write_measures(FILE *out, const char *key, const char *name, const culprit_eval_measures *m)
{
    fprintf(out, ", \"%s\": {\"method\": ", key);
    culprit_json_write_string(out, name);
    fputs(", \"worst\": ", out);
    cli_write_number(out, m->worst_rank, CLI_FORMAT_JSON);
    fputs(", \"average\": ", out);
    cli_write_number(out, m->average_rank, CLI_FORMAT_JSON);
    fputs(", \"exam\": ", out);
    cli_write_number(out, m->exam, CLI_FORMAT_JSON);
    fputs(", \"exam_executed\": ", out);
    cli_write_number(out, m->exam_executed, CLI_FORMAT_JSON);
    fprintf(out, ", \"well_localized\": %s}", m->well_localized ? "true" : "false");
}

/* The default method and Ochiai over lines, measured and written.  Before
 * any test passes the rankings still exist (every executed line ties), so
 * every test gets its measures. */
static culprit_status write_fault_measures(gen_trace *trace, const culprit_spectra *spectra, FILE *out,
                                           culprit_error *err)
{
    culprit_formula_choice ochiai, default_formula;
    trace_measure m = {0};
    culprit_status status = culprit_formula_find("ochiai", &ochiai, err);
    if (status == CULPRIT_OK)
        status = culprit_formula_find(CULPRIT_DEFAULT_FORMULA, &default_formula, err);
    if (status == CULPRIT_OK)
        status = measure_prepare(trace, spectra, &m, err);
    culprit_method methods[2] = {cli_quick_method(spectra, default_formula), {.formula = ochiai}};
    const char *keys[2] = {"default", "ochiai"};
    for (size_t i = 0; i < 2 && status == CULPRIT_OK; i++) {
        culprit_eval_measures measures;
        char name[96];
        status = measure_method(trace, spectra, &m, &methods[i], &measures, name, sizeof name, err);
        if (status == CULPRIT_OK && out)
            write_measures(out, keys[i], name, &measures);
        if (status == CULPRIT_OK && i == 0) {
            trace->measured = true;
            trace->last = measures;
            memcpy(trace->last_method, name, sizeof name);
        }
    }
    if (status == CULPRIT_OK && out)
        fprintf(out, ", \"executable_lines\": %zu, \"executed_lines\": %zu", m.lines.count,
                m.lines.executed_count);
    measure_free(&m);
    return status;
}

culprit_status gen_trace_test(gen_trace *trace, const gen_state *state, const culprit_spectra *spectra,
                              size_t number, const char *name, culprit_verdict verdict, culprit_error *err)
{
    if (!trace)
        return CULPRIT_OK;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double seconds =
        (double)(now.tv_sec - trace->start.tv_sec) + (double)(now.tv_nsec - trace->start.tv_nsec) / 1e9;
    FILE *out = trace->out;
    if (out) {
        fprintf(out, "{\"index\": %zu, \"test\": ", number);
        culprit_json_write_string(out, name);
        fprintf(out, ", \"verdict\": \"%s\", \"seconds\": %.3f, \"tests\": %zu, \"failing\": %zu",
                culprit_verdict_name(verdict), seconds, state->tests, state->failing);
    }
    /* Without --trace, --faults still measures: the summary gives the
     * last test's. */
    culprit_status status = trace->have_faults ? write_fault_measures(trace, spectra, out, err) : CULPRIT_OK;
    if (out) {
        fputs("}\n", out);
        if (fflush(out) != 0)
            status =
                status ? status : culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot write the --trace file");
    }
    return status;
}

void gen_trace_summarize(const gen_trace *trace)
{
    if (!trace || !trace->measured)
        return;
    const culprit_eval_measures *m = &trace->last;
    const culprit_fault *fault = &trace->faults.faults[m->first_fault];
    fprintf(stderr,
            "culprit gen: the first faulty line, %s:%u, ranks %.15g (worst; average %.15g) under %s: EXAM "
            "%.2f%%%s\n",
            fault->file, (unsigned)fault->line, m->worst_rank, m->average_rank, trace->last_method,
            100 * m->exam, m->well_localized ? ", well localized" : "");
}
