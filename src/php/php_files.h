/*
 * php_files.h - what the PHP extension leaves in the collection directory:
 * program maps (DIR/<hash>.map) and dumps (DIR/<pid>.<sequence>.dump), in
 * the formats of docs/collector.md §2 and §5, published the way the C
 * runtime publishes them (src/rt/rt_maps.c, rt_dump.c): written to a
 * temporary name that starts with '.', then renamed, so the collector never
 * reads half a file.  Knows nothing of PHP (tests/unit/test_php_files.c).
 */
#ifndef CULPRIT_PHP_FILES_H
#define CULPRIT_PHP_FILES_H

#include <stddef.h>
#include <stdint.h>

#include "culprit/dump_format.h"
#include "culprit/error.h"

/* One unit's counters as the dump lists them. */
typedef struct php_dump_unit {
    const char *hash; /* 64 hex digits */
    uint32_t counter_count;
    const uint64_t *counts; /* counter_count of them */
} php_dump_unit;

typedef struct php_dump_frame {
    uint32_t unit; /* index into the dump's units */
    uint32_t block;
} php_dump_frame;

/* The statement that produced some output bytes: frame 0 is its block,
 * the rest its callers (docs/collector.md §5). */
typedef struct php_dump_source {
    uint32_t depth;
    php_dump_frame frames[CULPRIT_DUMP_MAX_OUTPUT_DEPTH];
} php_dump_source;

/* One output record: bytes [offset, offset + length) of a stream. */
typedef struct php_dump_output {
    uint32_t stream; /* enum culprit_dump_stream */
    uint64_t offset, length;
    php_dump_source source;
} php_dump_output;

typedef struct php_dump {
    int32_t pid, parent_pid;
    uint32_t sequence; /* the request's number in this process, from 0 */
    uint32_t end;      /* enum culprit_dump_end */
    int32_t status;    /* the exit status */
    uint32_t crashed;  /* 1 when a fatal error or an uncaught exception ended it */
    uint32_t stack_depth;
    php_dump_frame stack[CULPRIT_STACK_DEPTH]; /* frame 0 is where it ended */
    size_t unit_count;
    const php_dump_unit *units;
    size_t output_count;
    const php_dump_output *outputs; /* in offset order per stream */
} php_dump;

/* Writes DIR/<hash>.map unless it exists. */
culprit_status php_files_write_map(const char *dir, const char *hash, const char *text, size_t size,
                                   culprit_error *err);

/* Writes DIR/<pid>.<sequence>.dump. */
culprit_status php_files_write_dump(const char *dir, const php_dump *dump, culprit_error *err);

/* A PHPUnit test's directory in the collection directory
 * (DIR/phpunit.NNNNNN, docs/php.md "PHPUnit"): its dump, and the files
 * `name` (the test's name) and `result` (a culprit verdict, a newline,
 * PHPUnit's message). */
#define PHP_TEST_DIRECTORY_PREFIX "phpunit."

/* Makes DIR/phpunit.N for the first N from *number whose name is free (a
 * process PHPUnit runs in isolation may have taken some), into path (of
 * size bytes), and moves *number past it. */
culprit_status php_files_make_test_directory(const char *dir, uint32_t *number, char *path, size_t size,
                                             culprit_error *err);

/* The directory of a test of a live server (docs/php.md, "Live servers"):
 * DIR/live.<the first 16 hex digits of the SHA-256 of the test's name>,
 * the same in every process that serves the test's requests, holding
 * their dumps and the file `name`.  `culprit test --collect-dir` finds it
 * by that file (src/cli/test_live.c). */
#define PHP_LIVE_DIRECTORY_PREFIX "live."

/* Makes DIR/live.HASH for the test name (length bytes) unless it exists,
 * writes its `name`, and puts its path into path (of size bytes). */
culprit_status php_files_make_live_directory(const char *dir, const char *name, size_t length, char *path,
                                             size_t size, culprit_error *err);

/* Writes DIR/NAME (a temporary name, then rename), replacing it. */
culprit_status php_files_write_text(const char *dir, const char *name, const char *text, size_t size,
                                    culprit_error *err);

#endif
