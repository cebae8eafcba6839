/*
 * program.h - the C program model that every later stage shares: a
 * program's units as their maps describe them (docs/collector.md §2), the
 * sites and output records a run reports, one test's collected counts, the
 * element table a set of units assembles into (§6), and the structure
 * (blocks, edges, predicates) the techniques walk.
 *
 * Pure data and pure functions over it: nothing here reads the store or
 * runs anything, so the store can keep these values and every stage above
 * it can read them (src/program/).  Nothing prints; errors name the map,
 * line and column that is wrong.
 */
#ifndef CULPRIT_PROGRAM_H
#define CULPRIT_PROGRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "culprit/dump_format.h"
#include "culprit/error.h"
#include "culprit/spectra.h"

/* ---- program maps (§2) ---- */

typedef enum culprit_unit_mode { CULPRIT_UNIT_FULL, CULPRIT_UNIT_LINES } culprit_unit_mode;

/* An edge whose count is its from-block's ('-' in the map). */
enum { CULPRIT_NO_COUNTER = UINT32_MAX };

typedef struct culprit_map_function {
    char *name; /* owned */
    uint32_t file, line;
} culprit_map_function;

typedef struct culprit_map_block {
    uint32_t function, file;
    uint32_t first_line, first_column, last_line, last_column; /* all 0 when no location */
} culprit_map_block;

typedef struct culprit_map_line {
    uint32_t file, line;
    uint32_t first_block, block_count; /* a slice of culprit_unit.line_blocks */
} culprit_map_line;

typedef struct culprit_map_edge {
    uint32_t counter; /* CULPRIT_NO_COUNTER: the from-block's count */
    uint32_t from, to;
} culprit_map_edge;

typedef struct culprit_map_branch {
    uint32_t counter; /* the edge's counter */
    uint32_t file, line, column;
    char *outcome; /* owned: "true", "false", "case V" or "default" */
    uint32_t condition;
} culprit_map_branch;

typedef struct culprit_map_return {
    uint32_t counter, block;
    uint32_t file, line, column;
    char *value_class; /* owned: null, nonnull, negative, zero, positive, false, true, nonzero */
    char *callee;      /* owned: a function name, or "*" for an indirect call */
} culprit_map_return;

/* A mutant compiled into the unit (culprit-cc --mutants; docs/mutation.md):
 * the map's `mutant` records. */
typedef struct culprit_map_mutant {
    uint32_t id;    /* 1-based, in map order: CULPRIT_MUTANT=<hash>:<id> selects it */
    uint32_t block; /* the block counter of the mutated instruction */
    uint32_t file, line, column;
    char *operator_name; /* owned: ror, aor, lcr, crp, neg, sdl, rvr (docs/mutation.md §1) */
    char *description;   /* owned: what changed, e.g. "< -> <=" */
} culprit_map_mutant;

/* A check of a specification (docs/specs.md): the map's `spec` records. */
typedef struct culprit_map_spec {
    uint32_t block; /* the block counter of the check's call: a violation crashes there */
    uint32_t file, line, column;
    char *kind; /* owned: requires, ensures, invariant or assert */
    char *text; /* owned: the checked condition as written */
} culprit_map_spec;

/* One instrumented translation unit, as its map describes it. */
typedef struct culprit_unit {
    char hash[65]; /* 64 lowercase hex digits */
    culprit_unit_mode mode;
    uint32_t counter_count, block_count;
    size_t file_count;
    char **files; /* owned paths */
    /* owned, file_count entries or NULL: each file's content SHA-256 at
     * compile time (the map's `source` records), "" when it has none */
    char (*file_sources)[65];
    size_t function_count;
    culprit_map_function *functions;
    culprit_map_block *blocks; /* block_count entries, indexed by block counter */
    size_t line_count;
    culprit_map_line *lines;
    size_t line_block_count;
    uint32_t *line_blocks;
    size_t edge_count;
    culprit_map_edge *edges;
    size_t branch_count;
    culprit_map_branch *branches;
    size_t return_count;
    culprit_map_return *returns;
    size_t mutant_count; /* 0 unless built with culprit-cc --mutants */
    culprit_map_mutant *mutants;
    size_t spec_count; /* checks of <culprit/contract.h> and assert() */
    culprit_map_spec *specs;
    char *text; /* owned: the unit's map, "culprit-map\t1\n" through "end\n", NUL-terminated */
    size_t text_size;
} culprit_unit;

typedef struct culprit_unit_set {
    size_t count, capacity;
    culprit_unit **units; /* owned */
} culprit_unit_set;

CULPRIT_API void culprit_unit_set_init(culprit_unit_set *set);
CULPRIT_API void culprit_unit_set_free(culprit_unit_set *set);
CULPRIT_API void culprit_unit_free(culprit_unit *unit);

/* Parses text (one map, or several concatenated with NUL bytes between them,
 * as in the culprit_map section) and appends its units to set.  A unit whose
 * hash set already holds is skipped.  source names the text in messages:
 * "SOURCE:LINE:COLUMN: expected ...".  On failure set is unchanged. */
CULPRIT_API culprit_status culprit_map_parse(const char *text, size_t size, const char *source,
                                             culprit_unit_set *set, culprit_error *err);
/* Reads path and parses it as above. */
CULPRIT_API culprit_status culprit_map_read_file(const char *path, culprit_unit_set *set, culprit_error *err);

/* Sorts set by hash (the order of §6). */
CULPRIT_API void culprit_unit_set_sort(culprit_unit_set *set);
/* The unit with hash (64 hex digits) or NULL. */
CULPRIT_API culprit_unit *culprit_unit_set_find(const culprit_unit_set *set, const char *hash);

/* ---- control dependence (src/program/control_dependence.c) ----
 * Which branch blocks decide, directly or through other branches, whether
 * a block runs: block X depends on branch block A when an edge out of A
 * leads to X on every path while another edge out of A avoids it.  Within
 * one function; a function of more than CULPRIT_CONTROL_MAX_BLOCKS blocks
 * has none. */
enum { CULPRIT_CONTROL_MAX_BLOCKS = 1024 };

typedef struct culprit_control_function {
    size_t words;      /* 64-bit words per row */
    uint64_t *depends; /* owned: a row per block of the function (local order), NULL: none */
} culprit_control_function;

typedef struct culprit_control_deps {
    uint32_t block_count, function_count;
    uint32_t *function_of, *local; /* per block counter: its function (UINT32_MAX: none) and index there */
    culprit_control_function *functions;
} culprit_control_deps;

CULPRIT_API culprit_status culprit_control_deps_build(const culprit_unit *unit, culprit_control_deps *deps,
                                                      culprit_error *err);
/* Whether block (a block counter of the unit) depends on branch_block. */
CULPRIT_API bool culprit_control_depends(const culprit_control_deps *deps, uint32_t block,
                                         uint32_t branch_block);
CULPRIT_API void culprit_control_deps_free(culprit_control_deps *deps);

/* ---- sites and output records (§5) ---- */

/* A block of a unit: in a dump, unit indexes the dump's units; in a
 * culprit_collected, the collected units. */
typedef struct culprit_site {
    uint32_t unit, block;
} culprit_site;

/* One write to stdout or stderr and the stack of blocks that made it. */
typedef struct culprit_output_record {
    int32_t pid;
    uint32_t stream; /* 1 stdout, 2 stderr */
    uint64_t offset, length;
    uint32_t depth;
    culprit_site frames[CULPRIT_DUMP_MAX_OUTPUT_DEPTH]; /* frame 0: the block of the call */
} culprit_output_record;

/* ---- one test's collected counts (§6) ---- */

/* One unit's counts summed over the test's processes: sparse, counters
 * ascending, counts non-zero (saturating at UINT64_MAX). */
typedef struct culprit_unit_counts {
    char hash[65];
    uint32_t counter_count;
    size_t length;
    uint32_t *counters;
    uint64_t *counts;
} culprit_unit_counts;

/* What one test's processes recorded, summed: culprit_collect_directory
 * (culprit/collect.h) makes it, culprit_store_save_collected keeps it. */
typedef struct culprit_collected {
    size_t dump_count;
    size_t unit_count;
    culprit_unit_counts *units; /* sorted by hash: every unit some dump names */
    bool crashed;               /* a crash site was found */
    int32_t crash_pid, crash_signal;
    uint32_t crash_depth;
    culprit_site crash_stack[CULPRIT_STACK_DEPTH]; /* unit indexes units above */
    size_t output_count;
    culprit_output_record *outputs; /* frames' unit indexes units; sorted by stream, pid, offset */
} culprit_collected;

CULPRIT_API void culprit_collected_init(culprit_collected *collected);
CULPRIT_API void culprit_collected_free(culprit_collected *collected);

/* ---- program assembly (§6) ---- */

/* Where each unit's elements start in the element table.  The table is:
 * lines (distinct (path, line) of all units, sorted by path then line), then
 * every unit's blocks, then edges, branches and returns, units in hash
 * order and each unit's records in map order. */
/* A counting plan (src/program/count_plan.c): everything that turning a
 * test's per-unit counts into its row of the element table needs, without
 * the maps: per unit, the counter each of its edge, branch and return
 * elements reads, and the blocks each of its line elements covers.  Parsing
 * a program's maps and assembling its table cost far more than a small test
 * does, so a store keeps the plan of each collected program and recording
 * a test reads it instead (docs/store.md, program_plans). */
typedef struct culprit_plan_unit {
    char hash[65];
    uint32_t counter_count, block_count; /* blocks are counters 0 .. block_count-1 */
    uint32_t block_base, edge_base, branch_base, return_base;
    uint32_t edge_count, branch_count, return_count, line_count;
    uint32_t *edge_counters, *branch_counters, *return_counters; /* the counter each element reads */
    uint32_t *line_elements;                                     /* per map line: its line element */
    uint32_t *line_starts;                                       /* line_count + 1 offsets into line_blocks */
    uint32_t *line_blocks;                                       /* block counters */
    uint32_t *words; /* owned: every array above is a part of it */
} culprit_plan_unit;

typedef struct culprit_count_plan {
    uint32_t element_count;
    size_t unit_count;
    culprit_plan_unit *units; /* sorted by hash */
} culprit_count_plan;

/* One test's row: its hit words and its sparse counts (elements ascending). */
typedef struct culprit_test_row {
    size_t word_count; /* (element_count + 63) / 64 */
    uint64_t *hits;
    culprit_counts counts;
} culprit_test_row;

CULPRIT_API void culprit_count_plan_free(culprit_count_plan *plan);
CULPRIT_API const culprit_plan_unit *culprit_count_plan_find(const culprit_count_plan *plan,
                                                             const char *hash);
/* The row that counts (per unit, any order) give: block, edge, branch and
 * return elements get counts, lines are hit when any of their blocks is.
 * Every unit of counts must be in the plan, with the same counter count. */
CULPRIT_API culprit_status culprit_count_plan_row(const culprit_count_plan *plan, size_t unit_count,
                                                  const culprit_unit_counts *counts, culprit_test_row *row,
                                                  culprit_error *err);
CULPRIT_API void culprit_test_row_free(culprit_test_row *row);
/* The plan as bytes (little-endian, docs/store.md) and back.  Decoding
 * checks every bound, so that a damaged blob is an error naming source,
 * never a read out of range. */
CULPRIT_API culprit_status culprit_count_plan_encode(const culprit_count_plan *plan, unsigned char **bytes,
                                                     size_t *size, culprit_error *err);
CULPRIT_API culprit_status culprit_count_plan_decode(const unsigned char *bytes, size_t size,
                                                     const char *source, culprit_count_plan *plan,
                                                     culprit_error *err);

typedef struct culprit_program_layout {
    size_t unit_count;
    const culprit_unit **units; /* borrowed, sorted by hash */
    uint32_t *block_base, *edge_base, *branch_base, *return_base;
    uint32_t **line_elements; /* per unit, per map line: its line element */
    culprit_count_plan plan;  /* the same mapping, without the maps */
} culprit_program_layout;

/* Builds the files and elements of units (which need not be sorted) into an
 * empty spectra, and layout to map counts. */
CULPRIT_API culprit_status culprit_program_build(const culprit_unit_set *units, culprit_spectra *spectra,
                                                 culprit_program_layout *layout, culprit_error *err);
CULPRIT_API void culprit_program_layout_free(culprit_program_layout *layout);

/* Appends a test with the hits and sparse counts that counts (per unit, any
 * order) give: block, edge, branch and return elements get counts, lines
 * are hit when any of their blocks is.  Every unit of counts must be in
 * the layout, with the same counter count. */
CULPRIT_API culprit_status culprit_program_add_test(const culprit_program_layout *layout,
                                                    culprit_spectra *spectra, const char *name,
                                                    culprit_verdict verdict, size_t unit_count,
                                                    const culprit_unit_counts *counts, size_t *test,
                                                    culprit_error *err);

/* ---- a program's structure as stored (src/program/program_graph.c) ---- */

/* What a program collected from culprit-cc builds has beyond its matrix,
 * and what its graph (below) is made of: the maps of the units it was
 * assembled from, and each test's crash stack.  The store keeps it
 * (culprit/store.h), the JSON spectra format carries it
 * (culprit/interchange.h). */
typedef struct culprit_program_structure {
    culprit_unit_set units; /* sorted by hash; empty for programs no collector made */
    size_t test_count;
    /* owned; NULL, or test_count entries: test t's crash as the store's
     * test_runs.crash holds it (JSON, docs/store.md), or NULL when it did
     * not crash */
    char **crashes;
} culprit_program_structure;

CULPRIT_API void culprit_program_structure_init(culprit_program_structure *structure);
CULPRIT_API void culprit_program_structure_free(culprit_program_structure *structure);

/* ---- program structure for the techniques (src/program/program_graph.c) ---- */

/* "None" in the index fields below. */
enum { CULPRIT_GRAPH_NONE = UINT32_MAX };

/* A basic block: its element, function and CFG neighbourhood.  Edge lists
 * and line lists are slices of culprit_program_graph.adjacent / .block_lines. */
typedef struct culprit_graph_block {
    uint32_t element;
    uint32_t function; /* program-wide function number */
    bool entry;        /* the function's entry block: its executions include the function's entries */
    uint32_t first_out, out_count;   /* out-edge indexes */
    uint32_t first_in, in_count;     /* in-edge indexes */
    uint32_t first_line, line_count; /* line elements with instructions of this block */
} culprit_graph_block;

typedef struct culprit_graph_edge {
    uint32_t element;
    uint32_t from, to; /* block indexes */
    bool counted;      /* has a counter; else its count is the from-block's (one successor) */
} culprit_graph_edge;

/* A branch outcome or a return class: one predicate of TECHNIQUES.md §5. */
typedef struct culprit_graph_predicate {
    uint32_t element;      /* a branch or return element */
    uint32_t site;         /* one conditional branch or switch instruction, or one call site */
    uint32_t decision;     /* the source-level decision (branches sharing a map `condition`); returns: site */
    uint32_t edge;         /* branches: the outcome's edge; returns: CULPRIT_GRAPH_NONE */
    uint32_t line_element; /* the line element of its location, or CULPRIT_GRAPH_NONE */
} culprit_graph_predicate;

/* The structure of a collected program, in element ids of its spectra. */
typedef struct culprit_program_graph {
    size_t lines_mode_units; /* units built with --coverage=lines: blocks only, no edges or predicates */
    size_t function_count;
    size_t block_count;
    culprit_graph_block *blocks;
    size_t edge_count;
    culprit_graph_edge *edges;
    uint32_t *adjacent; /* owned: every block's out-edges, then its in-edges */
    size_t block_line_count;
    uint32_t *block_lines; /* owned */
    size_t predicate_count;
    culprit_graph_predicate *predicates; /* branches then returns, in element order */
    size_t site_count, decision_count;
    size_t element_count;
    uint32_t *block_of_element; /* element_count entries: block index or CULPRIT_GRAPH_NONE */
    size_t test_count;
    size_t *crash_first;    /* test_count + 1 offsets into crash_blocks */
    uint32_t *crash_blocks; /* per test, the blocks on its crash stack, innermost first */
} culprit_program_graph;

CULPRIT_API void culprit_program_graph_init(culprit_program_graph *graph);
CULPRIT_API void culprit_program_graph_free(culprit_program_graph *graph);

/* Derives graph from the units a program was assembled from; spectra is
 * that program (it must have the element table culprit_program_build makes
 * of units).  No crash stacks: test_count is 0. */
CULPRIT_API culprit_status culprit_program_graph_build(const culprit_unit_set *units,
                                                       const culprit_spectra *spectra,
                                                       culprit_program_graph *graph, culprit_error *err);

/* Fills the adjacency (first_out, out_count, first_in, in_count) of blocks
 * from edges, and block_of_element; for graphs built by hand (tests). */
CULPRIT_API culprit_status culprit_program_graph_link(culprit_program_graph *graph, culprit_error *err);

#endif
