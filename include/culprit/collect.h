/*
 * collect.h - the C collector: the dumps an instrumented run writes, and a
 * test's collection directory (its maps and dumps) summed into one
 * culprit_collected (docs/collector.md is the contract with culprit-cc and
 * the runtime).  The program model those values are expressed in is
 * culprit/program.h; the store keeps them (culprit_store_save_collected).
 *
 * Nothing here prints; every failure is a culprit_error naming the file
 * (for dumps the byte) that is wrong.
 */
#ifndef CULPRIT_COLLECT_H
#define CULPRIT_COLLECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "culprit/dump_format.h"
#include "culprit/error.h"
#include "culprit/program.h"

/* ---- dumps (§5; the layout is culprit/dump_format.h) ---- */

typedef enum culprit_process_end {
    CULPRIT_PROCESS_EXIT = CULPRIT_DUMP_END_EXIT,
    CULPRIT_PROCESS_SIGNAL = CULPRIT_DUMP_END_SIGNAL,
    CULPRIT_PROCESS_EXEC = CULPRIT_DUMP_END_EXEC,
    CULPRIT_PROCESS_UNDERSCORE_EXIT = CULPRIT_DUMP_END__EXIT,
} culprit_process_end;

typedef struct culprit_dump_unit {
    char hash[65];
    uint32_t counter_count;
    size_t length; /* non-zero entries, counters ascending */
    uint32_t *counters;
    uint64_t *counts;
} culprit_dump_unit;

typedef struct culprit_dump {
    int32_t pid, parent_pid;
    culprit_process_end end;
    int32_t status; /* exit status, or the signal number */
    bool crashed;
    uint32_t stack_depth;
    culprit_site stack[CULPRIT_STACK_DEPTH]; /* frame 0: the last block run */
    size_t unit_count;
    culprit_dump_unit *units;
    size_t output_count;
    culprit_output_record *outputs;
    /* The path-constraint trailer (culprit/sym_format.h) of a symbolic
     * run, a copy of its bytes from the magic "CULPSYM1" to the end, or
     * NULL; culprit/concolic.h reads it.  sym_offset: where it starts in
     * the dump. */
    unsigned char *sym_trailer;
    size_t sym_size, sym_offset;
} culprit_dump;

/* Parses a dump; bytes after the output records are an error unless they
 * start with the symbolic trailer's magic (kept, not parsed, here).
 * source names it in messages, which are
 * "SOURCE: truncated at byte N: expected ..." (N is where the bytes end) or
 * "SOURCE: at byte N: expected ..." (N is where the bad field starts). */
CULPRIT_API culprit_status culprit_dump_parse(const unsigned char *bytes, size_t size, const char *source,
                                              culprit_dump *dump, culprit_error *err);
CULPRIT_API culprit_status culprit_dump_read_file(const char *path, culprit_dump *dump, culprit_error *err);
CULPRIT_API void culprit_dump_free(culprit_dump *dump);

/* ---- one test's collection directory (§6) ---- */

/* Reads every *.map of directory into maps (which it sorts by hash) and sums
 * every *.dump into collected.  child_pid is the process the harness
 * started: its crash site wins; else any crashed process's (lowest pid).
 * Every unit a dump names must have a map, with the same counter count.
 * maps may already hold units (a harness keeps one set for a whole run):
 * a map file named HASH.map whose HASH the set holds is not read again,
 * since maps are named by the hash of their content (docs/collector.md §4). */
CULPRIT_API culprit_status culprit_collect_directory(const char *directory, int32_t child_pid,
                                                     culprit_unit_set *maps, culprit_collected *collected,
                                                     culprit_error *err);
/* The same, without reading the maps of the units that known (the store's
 * counting plan of the current program: culprit_store_current_plan)
 * describes, except those on a crashed process's stack, whose blocks
 * describe the crash: the store has their maps, and parsing a program's
 * maps costs far more than the rest of a small test's collection.  Their
 * counter and block counts are known's.  known may be NULL.  Maps that
 * are neither in the directory nor known are read from maps_directory
 * (CULPRIT_MAPS_DIR, docs/collector.md §4; NULL: none), where a map that
 * does not parse is removed as well as reported. */
CULPRIT_API culprit_status culprit_collect_directory_known(const char *directory, const char *maps_directory,
                                                           int32_t child_pid, const culprit_count_plan *known,
                                                           culprit_unit_set *maps,
                                                           culprit_collected *collected, culprit_error *err);

#endif
