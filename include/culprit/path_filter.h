/*
 * path_filter.h - which source files `culprit rank`, `report` and `eval`
 * look at: include and exclude patterns over file paths, given as
 * --include/--exclude or kept in the store's config file (docs/config.md),
 * so that a test driver compiled into the program does not rank with it.
 *
 * A file is kept when it matches some include pattern (or none is given)
 * and no exclude pattern.  Patterns read like .gitignore lines:
 *
 *   - matching is per path component, with fnmatch(3) and no flags: `*`,
 *     `?` and `[...]` never match a '/', and a segment `**` matches any
 *     number of components (none included);
 *   - a pattern without a '/' (`*_test.c`, `tests`) matches when it matches
 *     the file's name or the name of any directory it lies in;
 *   - a pattern with a '/' is anchored: `tests/unit` and `./tests` are
 *     relative to the pattern's base directory, `/usr/include` is
 *     absolute; it matches when it matches the whole path or one of the
 *     directories that hold the file, so `tests` followed by a slash and a
 *     star also leaves out tests/unit/x.c (docs/config.md has examples);
 *   - a trailing '/' matches directories only.
 *
 * Paths are compared lexically ("." and "x/.." folded, no symbolic links
 * followed).  A stored absolute path is also seen relative to the pattern's
 * base directory ("../lib/x.c" when it lies beside it); a stored relative
 * path is taken as relative to that directory.  Elements without a file
 * are always kept.
 *
 * The filter applies to what was ranked, not to the spectra: scores are
 * computed over the whole program (techniques that walk the control-flow
 * graph need all of it), and culprit_ranking_keep_files (rank.h) then
 * drops the entries of the files left out and renumbers the others.
 */
#ifndef CULPRIT_PATH_FILTER_H
#define CULPRIT_PATH_FILTER_H

#include <stdbool.h>
#include <stddef.h>

#include "culprit/error.h"
#include "culprit/spectra.h"

typedef enum culprit_path_rule {
    CULPRIT_PATH_INCLUDE,
    CULPRIT_PATH_EXCLUDE,
} culprit_path_rule;

struct culprit_path_pattern; /* private: a compiled pattern */

/* A set of patterns.  All zeros is an empty filter, which keeps everything. */
typedef struct culprit_path_filter {
    size_t count, capacity;
    struct culprit_path_pattern *patterns; /* owned */
    size_t include_count;
} culprit_path_filter;

CULPRIT_API void culprit_path_filter_init(culprit_path_filter *filter);
CULPRIT_API void culprit_path_filter_free(culprit_path_filter *filter);

/* Whether the filter has no pattern (and so keeps every file). */
CULPRIT_API bool culprit_path_filter_empty(const culprit_path_filter *filter);

/* Adds one pattern.  base is the absolute directory relative patterns are
 * relative to (the current directory for a command-line option), or NULL:
 * then a relative pattern only matches relative stored paths.  An empty
 * pattern, or one that names nothing ("/", "./"), is CULPRIT_ERROR_INPUT. */
CULPRIT_API culprit_status culprit_path_filter_add(culprit_path_filter *filter, culprit_path_rule rule,
                                                   const char *pattern, const char *base, culprit_error *err);

/* Parses a config file's text (length bytes) named path: one setting per
 * line, `include = PATTERN` or `exclude = PATTERN`, blanks around the '='
 * and the pattern ignored, blank lines and lines whose first non-blank is
 * '#' skipped.  Anything else is CULPRIT_ERROR_INPUT "PATH:LINE:COLUMN:
 * ...".  Relative patterns are relative to base. */
CULPRIT_API culprit_status culprit_path_filter_parse(culprit_path_filter *filter, const char *path,
                                                     const char *text, size_t length, const char *base,
                                                     culprit_error *err);

/* Reads and parses the config file at path; a missing file adds nothing. */
CULPRIT_API culprit_status culprit_path_filter_read(culprit_path_filter *filter, const char *path,
                                                    const char *base, culprit_error *err);

/* Sets *kept to whether the filter keeps the file at path. */
CULPRIT_API culprit_status culprit_path_filter_match(const culprit_path_filter *filter, const char *path,
                                                     bool *kept, culprit_error *err);

/* (*kept)[f] for every file f of spectra (file_count + 1 entries, malloc'd,
 * the caller frees them). */
CULPRIT_API culprit_status culprit_path_filter_files(const culprit_path_filter *filter,
                                                     const culprit_spectra *spectra, bool **kept,
                                                     culprit_error *err);

#endif
