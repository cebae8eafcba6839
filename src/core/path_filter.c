/*
 * path_filter.c - include and exclude patterns over source file paths
 * (include/culprit/path_filter.h, docs/config.md): compiling a pattern,
 * matching it per path component with fnmatch(3), and the config file's
 * `include = ...` / `exclude = ...` lines.
 *
 * Paths and patterns are split at '/' into components once; a pattern is
 * matched against the components of a path (anchored patterns) or against
 * each of them alone (patterns without a '/').  Stored paths are made
 * relative to the pattern's base directory lexically, so a program built
 * in /home/me/proj is filtered with `tests/unit` from there.
 */
#include "culprit/path_filter.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/grow.h"
#include "core/input_limits.h"
#include "core/read_file.h"

/* A list of path components: pointers into one buffer (or to "..").  */
typedef struct components {
    size_t count;
    const char **items; /* owned array; the strings are not */
    char *text;         /* owned: the path with every '/' made a NUL */
    bool absolute;
} components;

struct culprit_path_pattern {
    char *text; /* owned: as given, for messages */
    culprit_path_rule rule;
    bool absolute;       /* starts with '/' */
    bool anchored;       /* has a '/' before its last component */
    bool directory_only; /* ends with '/' */
    components segments;
    bool has_base;
    components base; /* the absolute directory relative paths start from */
};

static const char parent[] = "..";

static void components_free(components *list)
{
    free(list->items);
    free(list->text);
    *list = (components){0};
}

/* Splits path at '/', dropping empty and "." components; with fold, "x/.."
 * pairs cancel (".." above the root of an absolute path is dropped, above
 * the start of a relative one kept).  Returns false when out of memory. */
static bool split(const char *path, bool fold, components *list)
{
    *list = (components){.absolute = path[0] == '/'};
    size_t length = strlen(path);
    list->text = malloc(length + 1);
    list->items = malloc((length / 2 + 2) * sizeof *list->items);
    if (!list->text || !list->items) {
        components_free(list);
        return false;
    }
    memcpy(list->text, path, length + 1);
    for (char *save = NULL, *part = strtok_r(list->text, "/", &save); part;
         part = strtok_r(NULL, "/", &save)) {
        if (strcmp(part, ".") == 0)
            continue;
        bool climbs = fold && strcmp(part, parent) == 0;
        if (climbs && list->count > 0 && strcmp(list->items[list->count - 1], parent) != 0)
            list->count--;
        else if (!(climbs && list->absolute))
            list->items[list->count++] = part;
    }
    return true;
}

/* The components of an absolute path seen from the absolute directory
 * base: "../" once per component of base it does not share. */
static bool relative_to(const components *path, const components *base, components *relative)
{
    size_t shared = 0;
    while (shared < path->count && shared < base->count &&
           strcmp(path->items[shared], base->items[shared]) == 0)
        shared++;
    size_t up = base->count - shared;
    *relative = (components){.count = up + path->count - shared};
    relative->items = malloc((relative->count + 1) * sizeof *relative->items);
    if (!relative->items)
        return false;
    for (size_t i = 0; i < up; i++)
        relative->items[i] = parent;
    memcpy(relative->items + up, path->items + shared, (path->count - shared) * sizeof *path->items);
    return true;
}

/* base followed by a relative path, folded: the absolute form of a
 * relative stored path. */
static bool joined(const components *base, const components *path, components *absolute)
{
    *absolute = (components){.absolute = true};
    absolute->items = malloc((base->count + path->count + 1) * sizeof *absolute->items);
    if (!absolute->items)
        return false;
    memcpy(absolute->items, base->items, base->count * sizeof *base->items);
    absolute->count = base->count;
    for (size_t i = 0; i < path->count; i++) {
        if (strcmp(path->items[i], parent) != 0)
            absolute->items[absolute->count++] = path->items[i];
        else if (absolute->count > 0)
            absolute->count--;
    }
    return true;
}

/* ---- compiling ---- */

static void pattern_free(struct culprit_path_pattern *pattern)
{
    free(pattern->text);
    components_free(&pattern->segments);
    components_free(&pattern->base);
}

void culprit_path_filter_init(culprit_path_filter *filter)
{
    memset(filter, 0, sizeof *filter);
}

void culprit_path_filter_free(culprit_path_filter *filter)
{
    for (size_t i = 0; i < filter->count; i++)
        pattern_free(&filter->patterns[i]);
    free(filter->patterns);
    culprit_path_filter_init(filter);
}

bool culprit_path_filter_empty(const culprit_path_filter *filter)
{
    return filter->count == 0;
}

/* Consecutive "**" segments match what one does; keeping one keeps the
 * matcher's work linear in them. */
static void merge_double_stars(components *segments)
{
    size_t kept = 0;
    for (size_t i = 0; i < segments->count; i++) {
        bool stars = strcmp(segments->items[i], "**") == 0;
        if (stars && kept > 0 && strcmp(segments->items[kept - 1], "**") == 0)
            continue;
        segments->items[kept++] = segments->items[i];
    }
    segments->count = kept;
}

static culprit_status compile(struct culprit_path_pattern *pattern, culprit_path_rule rule, const char *text,
                              const char *base, culprit_error *err)
{
    *pattern = (struct culprit_path_pattern){.rule = rule, .absolute = text[0] == '/'};
    if (text[0] == '\0')
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "an empty pattern matches no file");
    size_t length = strlen(text);
    pattern->directory_only = text[length - 1] == '/';
    /* Before the last component, ignoring a trailing one: "tests/" is not anchored, "./tests" is. */
    while (length > 1 && text[length - 1] == '/')
        length--;
    pattern->anchored = pattern->absolute || memchr(text, '/', length) != NULL;
    if (!(pattern->text = strdup(text)) || !split(text, false, &pattern->segments))
        return culprit_fail_memory(err);
    merge_double_stars(&pattern->segments);
    if (pattern->segments.count == 0)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "pattern '%s' names no file or directory", text);
    if (base) { /* absolute patterns need it too, to place relative stored paths */
        if (base[0] != '/')
            return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "the base directory %s is not absolute", base);
        pattern->has_base = true;
        if (!split(base, true, &pattern->base))
            return culprit_fail_memory(err);
    }
    return CULPRIT_OK;
}

culprit_status culprit_path_filter_add(culprit_path_filter *filter, culprit_path_rule rule,
                                       const char *pattern, const char *base, culprit_error *err)
{
    if (!CULPRIT_GROW(filter->patterns, filter->capacity, filter->count + 1, 4))
        return culprit_fail_memory(err);
    struct culprit_path_pattern *added = &filter->patterns[filter->count];
    culprit_status status = compile(added, rule, pattern, base, err);
    if (status) {
        pattern_free(added);
        return status;
    }
    filter->count++;
    filter->include_count += rule == CULPRIT_PATH_INCLUDE;
    return CULPRIT_OK;
}

/* ---- matching ---- */

/* Whether the pattern's segments match the path's components exactly. */
static bool match_components(const char *const *segments, size_t segment_count, const char *const *parts,
                             size_t part_count)
{
    if (segment_count == 0)
        return part_count == 0;
    if (strcmp(segments[0], "**") == 0) {
        for (size_t skip = 0; skip <= part_count; skip++)
            if (match_components(segments + 1, segment_count - 1, parts + skip, part_count - skip))
                return true;
        return false;
    }
    return part_count > 0 && fnmatch(segments[0], parts[0], 0) == 0 &&
           match_components(segments + 1, segment_count - 1, parts + 1, part_count - 1);
}

static bool pattern_matches(const struct culprit_path_pattern *pattern, const components *path)
{
    /* A directory-only pattern never matches the last component, the file itself. */
    size_t usable = path->count - (pattern->directory_only && path->count > 0);
    if (!pattern->anchored) {
        for (size_t i = 0; i < usable; i++)
            if (strcmp(path->items[i], parent) != 0 &&
                fnmatch(pattern->segments.items[0], path->items[i], 0) == 0)
                return true;
        return false;
    }
    /* The whole path, or the directories that hold it. */
    for (size_t prefix = 1; prefix <= usable; prefix++)
        if (match_components(pattern->segments.items, pattern->segments.count, path->items, prefix))
            return true;
    return false;
}

/* The form of a stored path a pattern is matched against: absolute for an
 * absolute pattern, relative to the base otherwise (the path as stored when
 * there is no base to relate it to).  *seen is path itself or a list made
 * in *made, which the caller frees. */
static bool seen_by(const struct culprit_path_pattern *pattern, const components *path, components *made,
                    const components **seen)
{
    *made = (components){0};
    *seen = path;
    if (pattern->absolute) {
        if (path->absolute || !pattern->has_base)
            return true;
        *seen = made;
        return joined(&pattern->base, path, made);
    }
    if (!path->absolute || !pattern->has_base)
        return true;
    *seen = made;
    return relative_to(path, &pattern->base, made);
}

culprit_status culprit_path_filter_match(const culprit_path_filter *filter, const char *path, bool *kept,
                                         culprit_error *err)
{
    *kept = true;
    if (filter->count == 0)
        return CULPRIT_OK;
    components parts;
    if (!split(path, true, &parts))
        return culprit_fail_memory(err);
    bool included = filter->include_count == 0, excluded = false;
    for (size_t i = 0; i < filter->count && !excluded; i++) {
        const struct culprit_path_pattern *pattern = &filter->patterns[i];
        if (pattern->rule == CULPRIT_PATH_INCLUDE && included)
            continue;
        components made;
        const components *seen;
        if (!seen_by(pattern, &parts, &made, &seen)) {
            components_free(&parts);
            return culprit_fail_memory(err);
        }
        /* An absolute pattern never matches a relative path, nor a relative one an absolute path. */
        bool matches =
            (seen->absolute == pattern->absolute || !pattern->anchored) && pattern_matches(pattern, seen);
        components_free(&made);
        if (matches && pattern->rule == CULPRIT_PATH_EXCLUDE)
            excluded = true;
        else if (matches)
            included = true;
    }
    components_free(&parts);
    *kept = included && !excluded;
    return CULPRIT_OK;
}

culprit_status culprit_path_filter_files(const culprit_path_filter *filter, const culprit_spectra *spectra,
                                         bool **kept, culprit_error *err)
{
    *kept = malloc((spectra->file_count + 1) * sizeof **kept);
    if (!*kept)
        return culprit_fail_memory(err);
    for (size_t f = 0; f < spectra->file_count; f++) {
        culprit_status status = culprit_path_filter_match(filter, spectra->files[f], &(*kept)[f], err);
        if (status) {
            free(*kept);
            *kept = NULL;
            return status;
        }
    }
    return CULPRIT_OK;
}

/* ---- the config file ---- */

static bool is_blank(char c)
{
    return c == ' ' || c == '\t';
}

/* One line, text[0, length): a setting, a comment or nothing.  Columns are
 * 1-based byte offsets. */
static culprit_status parse_line(culprit_path_filter *filter, const char *path, size_t number,
                                 const char *text, size_t length, const char *base, culprit_error *err)
{
    if (length > 0 && text[length - 1] == '\r')
        length--;
    const char *nul = memchr(text, '\0', length);
    if (nul)
        return culprit_fail_at(err, path, number, (size_t)(nul - text) + 1, "a NUL byte in the config file");
    size_t at = 0;
    while (at < length && is_blank(text[at]))
        at++;
    if (at == length || text[at] == '#')
        return CULPRIT_OK;
    size_t key = at;
    while (at < length && !is_blank(text[at]) && text[at] != '=')
        at++;
    size_t key_length = at - key;
    culprit_path_rule rule;
    if (key_length == 7 && memcmp(text + key, "include", 7) == 0)
        rule = CULPRIT_PATH_INCLUDE;
    else if (key_length == 7 && memcmp(text + key, "exclude", 7) == 0)
        rule = CULPRIT_PATH_EXCLUDE;
    else if (key_length == 0)
        return culprit_fail_at(err, path, number, key + 1,
                               "expected a setting (include or exclude) before '='");
    else
        return culprit_fail_at(err, path, number, key + 1,
                               "unknown setting '%.*s' (expected include or exclude)", (int)key_length,
                               text + key);
    while (at < length && is_blank(text[at]))
        at++;
    if (at == length || text[at] != '=')
        return culprit_fail_at(err, path, number, at + 1, "expected '=' after '%.*s'", (int)key_length,
                               text + key);
    at++;
    while (at < length && is_blank(text[at]))
        at++;
    size_t end = length;
    while (end > at && is_blank(text[end - 1]))
        end--;
    if (end == at)
        return culprit_fail_at(err, path, number, at + 1, "expected a pattern after '%.*s ='",
                               (int)key_length, text + key);
    char *pattern = strndup(text + at, end - at);
    if (!pattern)
        return culprit_fail_memory(err);
    culprit_error why;
    culprit_status status = culprit_path_filter_add(filter, rule, pattern, base, &why);
    free(pattern);
    if (status == CULPRIT_ERROR_INPUT)
        return culprit_fail_at(err, path, number, at + 1, "%s", why.message);
    if (status)
        *err = why;
    return status;
}

culprit_status culprit_path_filter_parse(culprit_path_filter *filter, const char *path, const char *text,
                                         size_t length, const char *base, culprit_error *err)
{
    size_t number = 1;
    for (size_t start = 0; start < length; number++) {
        const char *newline = memchr(text + start, '\n', length - start);
        size_t end = newline ? (size_t)(newline - text) : length;
        culprit_status status = parse_line(filter, path, number, text + start, end - start, base, err);
        if (status)
            return status;
        start = end + 1;
    }
    return CULPRIT_OK;
}

culprit_status culprit_path_filter_read(culprit_path_filter *filter, const char *path, const char *base,
                                        culprit_error *err)
{
    if (access(path, F_OK) != 0 && errno == ENOENT)
        return CULPRIT_OK;
    char *text;
    size_t size;
    culprit_status status = culprit_read_whole_file(path, (size_t)CULPRIT_LIMIT_CONFIG_MIB * CULPRIT_MIB,
                                                    "a config file", &text, &size, err);
    if (!status)
        status = culprit_path_filter_parse(filter, path, text, size, base, err);
    free(text);
    return status;
}
