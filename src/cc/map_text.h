/*
 * map_text.h - builds one unit's program map text (docs/collector.md §2).
 *
 * The instrumenter (map_unit.c) walks LLVM IR and reports what it finds
 * here; this module owns the text format, the record order, the line index
 * and the hash.  It knows nothing about LLVM so that the format can be unit
 * tested on its own (tests/unit/test_cc_map.c).
 */
#ifndef CULPRIT_CC_MAP_TEXT_H
#define CULPRIT_CC_MAP_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "culprit/error.h"

/* The values are the descriptor's `mode` field (§3). */
typedef enum cc_coverage { CC_COVERAGE_FULL = 0, CC_COVERAGE_LINES = 1 } cc_coverage;

/* A growable NUL-terminated byte buffer. */
typedef struct cc_text {
    char *data;
    size_t size;
    size_t capacity;
} cc_text;

culprit_status cc_text_append(cc_text *text, const char *format, ...) __attribute__((format(printf, 2, 3)));
void cc_text_free(cc_text *text);

/* A source position inside the unit: file index, 1-based line, column (0 when unknown). */
typedef struct cc_map_location {
    uint32_t file;
    uint32_t line;
    uint32_t column;
} cc_map_location;

typedef struct cc_map_block {
    uint32_t counter;
    uint32_t function;
    uint32_t file;
    uint32_t first_line, first_column;
    uint32_t last_line, last_column;
} cc_map_block;

/* One (file, line, block) fact; finish() groups them into `line` records. */
typedef struct cc_map_line_fact {
    uint32_t file;
    uint32_t line;
    uint32_t block;
} cc_map_line_fact;

typedef struct cc_map {
    cc_coverage mode;
    /* The map's `source` records (cc_map_digest_sources): per file, the
     * SHA-256 (hex) of its content, "" when it could not be read; NULL
     * when not digested.  A unit rebuilt from an edited file is then a new
     * unit even when its structure did not change (a fixed operand, another
     * constant), and the store can tell a rebuild (a file's content
     * changed) from the same file in another executable. */
    char (*source_digests)[65];
    /* The sources' text, read once when first asked for (cc_map_source_line):
     * per file, its bytes (NULL when unreadable), their size, the offsets of
     * its lines, and whether it was tried. */
    struct cc_map_source *sources;
    size_t source_count, source_capacity;
    char **paths; /* file index -> path (owned) */
    size_t path_count, path_capacity;
    uint32_t function_count;
    uint32_t mutant_count; /* the last mutant's id (docs/mutation.md §1) */
    /* One buffer per record kind, concatenated in the order of §2 by finish(). */
    cc_text files, functions, blocks, edges, branches, returns, specs, mutants;
    cc_map_line_fact *lines;
    size_t line_count, line_capacity;
} cc_map;

/* The finished map: the whole text (header, unit line, body), its size and hash. */
typedef struct cc_map_result {
    char *text; /* owned by the caller: free() */
    size_t size;
    char hash[65];
} cc_map_result;

void cc_map_init(cc_map *map, cc_coverage mode);
void cc_map_free(cc_map *map);

/* Returns the index of path, adding it when new.  Paths with a tab, newline
 * or carriage return are rejected: they would break the record syntax. */
culprit_status cc_map_add_file(cc_map *map, const char *path, uint32_t *index, culprit_error *err);
/* Adds the next function (numbered from 0) and returns its number. */
culprit_status cc_map_add_function(cc_map *map, const char *name, uint32_t file, uint32_t line,
                                   uint32_t *index, culprit_error *err);
culprit_status cc_map_add_block(cc_map *map, const cc_map_block *block, culprit_error *err);
/* Records that block has an instruction on (file, line); duplicates are fine. */
culprit_status cc_map_add_line(cc_map *map, uint32_t file, uint32_t line, uint32_t block, culprit_error *err);
/* counter < 0 writes `-` (the edge has no counter of its own). */
culprit_status cc_map_add_edge(cc_map *map, int64_t counter, uint32_t from, uint32_t to, culprit_error *err);
culprit_status cc_map_add_branch(cc_map *map, uint32_t edge_counter, cc_map_location condition_at,
                                 const char *outcome, uint32_t condition, culprit_error *err);
/* A spec site (docs/specs.md): kind is requires, ensures, invariant or
 * assert; text is the checked condition (tabs and newlines become spaces). */
culprit_status cc_map_add_spec(cc_map *map, uint32_t block, const char *kind, cc_map_location at,
                               const char *text, culprit_error *err);
culprit_status cc_map_add_return(cc_map *map, uint32_t counter, uint32_t block, cc_map_location call_at,
                                 const char *class_name, const char *callee, culprit_error *err);
/* Adds the next mutant (numbered from 1) of the instruction at `at` in
 * block (a block counter) and returns its id.  operator_name is one of
 * docs/mutation.md §1's; description says the change in source terms. */
culprit_status cc_map_add_mutant(cc_map *map, uint32_t block, cc_map_location at, const char *operator_name,
                                 const char *description, uint32_t *id, culprit_error *err);

/* Digests every file of the map's file table as it is now, for the
 * `source` records.  The sources, not the bitcode: -O levels and -D flags
 * that leave the structure alone give the same unit, and only an edit
 * makes a new one. */
culprit_status cc_map_digest_sources(cc_map *map, culprit_error *err);

/* The text of line (1-based) of the file, without its newline, read from
 * the file as it is now (clang has just compiled it) and kept for the rest
 * of the unit.  Returns false when the file cannot be read or has no such
 * line. */
bool cc_map_source_line(cc_map *map, uint32_t file, uint32_t line, const char **text, size_t *length);

/* Assembles the text and hashes its body.  The map stays valid (and must
 * still be freed). */
culprit_status cc_map_finish(cc_map *map, uint32_t counter_count, uint32_t block_count, cc_map_result *result,
                             culprit_error *err);

#endif
