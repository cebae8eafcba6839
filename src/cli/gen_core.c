/*
 * gen_core.c - `culprit gen --core` (issue 23 item 2; TECHNIQUES.md §7):
 * the unsat core of a failing run's trace formula, as lines.
 *
 * gen_run.c runs each failing input once more in trace mode
 * (CULPRIT_SYM_TRACE=1, docs/symbolic.md §6); this file asks the library
 * for the core (culprit_trace_core), turns each statement's site (unit,
 * block, line) into a file and line through the program's maps (a branch
 * is its block's last line, the terminator's; a relaxed branch frees the
 * stores it decides, by the control dependences of the unit's map), saves
 * the lines for the test (culprit_store_save_core) and says what it found on stderr, so
 * `culprit rank --technique sat | sat-tar` can rank from them; and after
 * each test, SAT-TAR's round (seeds/003's per-round table): the test
 * added, its verdict, and the top lines' suspiciousness and confidence.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/gen.h"
#include "core/grow.h"
#include "culprit/cores.h"
#include "culprit/techniques.h"

enum { SHOWN_LINES = 8, ROUND_TOP = 3 };

static const culprit_unit *unit_of(const gen_state *state, const culprit_dump *dump, uint32_t index)
{
    return index < dump->unit_count ? culprit_unit_set_find(&state->maps, dump->units[index].hash) : NULL;
}

/* The statement's file and line; false when the maps do not place it. */
static bool place(const gen_state *state, const culprit_dump *dump, const culprit_core_statement *statement,
                  culprit_core_line *line)
{
    const culprit_unit *unit = unit_of(state, dump, statement->unit);
    if (!unit || statement->block >= unit->block_count)
        return false;
    const culprit_map_block *block = &unit->blocks[statement->block];
    if (block->file >= unit->file_count)
        return false;
    line->file = unit->files[block->file];
    line->line =
        statement->kind == CULPRIT_CORE_STORE && statement->line ? statement->line : block->last_line;
    line->kind = statement->kind == CULPRIT_CORE_STORE ? "store" : "branch";
    line->instances = statement->instances;
    return line->line != 0;
}

/* Statements of one line merge (a line may hold several stores). */
static size_t merge_lines(culprit_core_line *lines, size_t count)
{
    size_t kept = 0;
    for (size_t i = 0; i < count; i++) {
        size_t k = 0;
        while (k < kept && !(lines[k].line == lines[i].line && strcmp(lines[k].file, lines[i].file) == 0 &&
                             strcmp(lines[k].kind, lines[i].kind) == 0))
            k++;
        if (k < kept)
            lines[k].instances += lines[i].instances;
        else
            lines[kept++] = lines[i];
    }
    return kept;
}

static void describe(const char *name, const culprit_core *core, const culprit_core_line *lines, size_t count)
{
    fprintf(stderr,
            "culprit gen: %s: unsat core of %zu line%s (of %zu statements in the sliced trace, %zu "
            "instances; %zu in the whole trace)%s:",
            name, count, count == 1 ? "" : "s", core->formula_statements, core->formula_instances,
            core->trace_instances, core->minimal ? "" : ", not minimal: the time limit stopped it");
    for (size_t i = 0; i < count && i < SHOWN_LINES; i++)
        fprintf(stderr, " %s:%u (%s)", lines[i].file, (unsigned)lines[i].line, lines[i].kind);
    fputs(count > SHOWN_LINES ? " ...\n" : "\n", stderr);
}

/* The control dependences of the run's units, built when first asked. */
typedef struct unit_controls {
    const gen_state *state;
    const culprit_dump *dump;
    culprit_control_deps *deps; /* per dump unit */
    bool *built;
} unit_controls;

static bool controls(void *context, uint32_t unit, uint32_t store_block, uint32_t branch_block)
{
    unit_controls *c = context;
    if (unit >= c->dump->unit_count)
        return false;
    if (!c->built[unit]) {
        const culprit_unit *map = unit_of(c->state, c->dump, unit);
        culprit_error err;
        c->built[unit] = true;
        if (!map || culprit_control_deps_build(map, &c->deps[unit], &err) != CULPRIT_OK)
            memset(&c->deps[unit], 0, sizeof c->deps[unit]);
    }
    return culprit_control_depends(&c->deps[unit], store_block, branch_block);
}

/* The condition sites the core names (culprit gen --strategy sat-tar aims
 * at them): its branches' and, for its stores, the branches that decide
 * them.  Best effort: out of memory, fewer. */
static void core_suspects(unit_controls *c, const culprit_core *core, culprit_gen_run *run)
{
    size_t capacity = 0;
    for (size_t i = 0; i < core->count; i++) {
        const culprit_core_statement *statement = &core->statements[i];
        if (statement->unit >= c->dump->unit_count)
            continue;
        const char *hash = c->dump->units[statement->unit].hash;
        uint32_t blocks =
            statement->kind == CULPRIT_CORE_BRANCH ? 1 : c->dump->units[statement->unit].counter_count;
        for (uint32_t b = 0; b < blocks; b++) {
            uint32_t branch = statement->kind == CULPRIT_CORE_BRANCH ? statement->block : b;
            if (statement->kind == CULPRIT_CORE_STORE &&
                !controls(c, statement->unit, statement->block, branch))
                continue;
            if (!CULPRIT_GROW(run->suspects, capacity, run->suspect_count + 1, 16))
                return;
            run->suspects[run->suspect_count++] = culprit_condition_site(hash, branch);
        }
    }
}

static culprit_status core_of(gen_state *state, const culprit_dump *dump, const culprit_path *path,
                              const culprit_input *input, culprit_core *core, culprit_gen_run *run,
                              culprit_error *why)
{
    size_t units = dump->unit_count ? dump->unit_count : 1;
    unit_controls c = {state, dump, calloc(units, sizeof *c.deps), calloc(units, sizeof *c.built)};
    culprit_core_options options = state->options->core_options;
    if (c.deps && c.built) {
        options.controls = controls;
        options.controls_context = &c;
    }
    culprit_status status = culprit_trace_core(path, input, &options, core, why);
    if (status == CULPRIT_OK && c.deps && c.built)
        core_suspects(&c, core, run);
    for (size_t u = 0; c.deps && u < dump->unit_count; u++)
        culprit_control_deps_free(&c.deps[u]);
    free(c.deps);
    free(c.built);
    return status;
}

static bool has_spec(const culprit_path *path)
{
    for (size_t j = 0; j < path->constraint_count; j++)
        if (path->constraints[j].kind == CULPRIT_SYM_SPEC)
            return true;
    return false;
}

static bool has_edge(const culprit_unit *unit, uint32_t from, uint32_t to)
{
    for (size_t e = 0; e < unit->edge_count; e++)
        if (unit->edges[e].from == from && unit->edges[e].to == to)
            return true;
    return false;
}

/* A run that crashed in an assert() (its last block is a `spec` record of
 * kind assert): the last recorded branch into that block decided it, and
 * is the violation's window (culprit_path_add_violation).  False when the
 * run was no such crash, or no recorded branch leads there (the
 * assertion's condition depends on nothing the trace recorded). */
static bool assertion_window(const gen_state *state, const culprit_dump *dump, const culprit_path *path,
                             size_t *window)
{
    if (!dump->crashed || dump->stack_depth == 0)
        return false;
    const culprit_site *site = &dump->stack[0];
    const culprit_unit *unit = unit_of(state, dump, site->unit);
    bool is_assert = false;
    for (size_t i = 0; unit && i < unit->spec_count && !is_assert; i++)
        is_assert = unit->specs[i].block == site->block && strcmp(unit->specs[i].kind, "assert") == 0;
    for (size_t j = path->constraint_count; is_assert && j-- > 0;) {
        const culprit_path_constraint *c = &path->constraints[j];
        if (c->kind == CULPRIT_SYM_BRANCH && c->unit == site->unit && has_edge(unit, c->block, site->block)) {
            *window = j;
            return true;
        }
    }
    return false;
}

culprit_status gen_save_core(gen_state *state, const culprit_dump *dump, culprit_path *path,
                             const culprit_input *input, int64_t program, const char *name,
                             culprit_gen_run *run, culprit_error *err)
{
    culprit_core core;
    culprit_error why;
    size_t window;
    culprit_status status = CULPRIT_OK;
    if (!has_spec(path) && assertion_window(state, dump, path, &window))
        status = culprit_path_add_violation(path, window, err);
    if (status != CULPRIT_OK)
        return status;
    if (core_of(state, dump, path, input, &core, run, &why) != CULPRIT_OK) {
        fprintf(stderr, "culprit gen: %s: no core: %s\n", name, why.message);
        return CULPRIT_OK;
    }
    culprit_core_line *lines = calloc(core.count ? core.count : 1, sizeof *lines);
    if (!lines) {
        culprit_core_free(&core);
        return culprit_fail_memory(err);
    }
    size_t count = 0;
    for (size_t i = 0; i < core.count; i++)
        count += place(state, dump, &core.statements[i], &lines[count]);
    count = merge_lines(lines, count);
    status = culprit_store_save_core(state->store, program, name, lines, count, err);
    if (status == CULPRIT_OK && count == 0)
        fprintf(stderr,
                "culprit gen: %s: the core is empty: the violated check's condition depends on no "
                "statement the trace recorded (only on input and values the program never stored)\n",
                name);
    else if (status == CULPRIT_OK)
        describe(name, &core, lines, count);
    free(lines);
    culprit_core_free(&core);
    return status;
}

/* One line per test once a core exists: "round N: TEST (VERDICT); sat-tar
 * top: FILE:LINE SCORE (confidence C) ...". */
void gen_print_round(gen_state *state, const culprit_spectra *spectra, int64_t program, size_t number,
                     const char *name, culprit_verdict verdict)
{
    culprit_cores cores;
    culprit_error err;
    const culprit_technique *technique;
    if (culprit_store_load_cores(state->store, program, spectra, &cores, &err) != CULPRIT_OK)
        return;
    culprit_method_ranking result = {0};
    bool ranked = false;
    if (cores.core_count > 0 && culprit_technique_find("sat-tar", &technique, &err) == CULPRIT_OK) {
        culprit_method method = {.technique = technique};
        culprit_technique_input input = {
            .spectra = spectra, .policy = culprit_verdict_policy_default(), .cores = &cores};
        culprit_rank_options options = {.kind = CULPRIT_KIND_LINE, .view = CULPRIT_VIEW_LINE};
        ranked = culprit_rank_method(&method, &input, &options, &result, &err) == CULPRIT_OK;
    }
    if (ranked) {
        char top[sizeof state->round_top] = "";
        for (size_t i = 0; i < result.ranking.count && i < ROUND_TOP; i++)
            snprintf(top + strlen(top), sizeof top - strlen(top), "%u:%.6f ",
                     (unsigned)result.ranking.entries[i].element, result.ranking.entries[i].score);
        state->round_stable = strcmp(top, state->round_top) == 0 ? state->round_stable + 1 : 0;
        memcpy(state->round_top, top, sizeof top);
        fprintf(stderr, "culprit gen: round %zu: %s (%s); sat-tar top:", number, name,
                culprit_verdict_name(verdict));
        for (size_t i = 0; i < result.ranking.count && i < ROUND_TOP; i++) {
            const culprit_ranked *entry = &result.ranking.entries[i];
            fprintf(stderr, " %s:%u %.3f (confidence %.3f)",
                    entry->file < spectra->file_count ? spectra->files[entry->file] : "?",
                    (unsigned)entry->line, entry->score, entry->confidence);
        }
        fputc('\n', stderr);
        culprit_method_ranking_free(&result);
    }
    culprit_cores_free(&cores);
}
