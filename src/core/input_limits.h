/*
 * input_limits.h - how much of each kind of input culprit reads before it
 * gives up with a clean error (issue 19: `culprit import gcov-json
 * /dev/zero` grew to 24 GB, a 1 MB gzip bomb took 3.1 GB).  Every reader
 * of a file that a user, a test or another tool wrote is bounded here, in
 * one place; docs/formats.md ("Bounds"), docs/collector.md and
 * docs/harness.md give the same numbers to users.
 *
 * A reader's memory is a small multiple of what it read: a few times the
 * bytes for the text formats, and for JSON, whose parsed values cost far
 * more than their text ("{}" takes three bytes of text and over 200 of
 * memory in jansson), the number of values is bounded as well.
 */
#ifndef CULPRIT_CORE_INPUT_LIMITS_H
#define CULPRIT_CORE_INPUT_LIMITS_H

#include <stddef.h>

#define CULPRIT_MIB ((size_t)1 << 20)

enum {
    /* Imports (lcov, gcov JSON after decompression, GZoltar's three files,
     * CSV and JSON spectra, verdict lists): bytes of one file. */
    CULPRIT_LIMIT_IMPORT_MIB = 256,
    /* JSON read with jansson (gcov JSON, JSON spectra): values in one file,
     * and of those, objects and arrays. */
    CULPRIT_LIMIT_JSON_VALUES = 32 << 20,
    CULPRIT_LIMIT_JSON_CONTAINERS = 4 << 20,
    /* Test manifests, both forms: bytes, and values of the JSON form. */
    CULPRIT_LIMIT_MANIFEST_MIB = 64,
    CULPRIT_LIMIT_MANIFEST_VALUES = 4 << 20,
    /* The config file of path filters (docs/config.md). */
    CULPRIT_LIMIT_CONFIG_MIB = 1,
    /* A program map file, and a dump file (docs/collector.md §2, §5). */
    CULPRIT_LIMIT_MAP_MIB = 256,
    CULPRIT_LIMIT_DUMP_MIB = 256,
    /* One test's collection directory: the bytes of all its dumps, read
     * together, and the number of maps and dumps it may hold. */
    CULPRIT_LIMIT_TEST_DUMPS_MIB = 1024,
    CULPRIT_LIMIT_TEST_FILES = 1 << 20,
};

#endif
