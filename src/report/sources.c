/*
 * sources.c - the program's source text for reports and the terminal
 * (include/culprit/report.h).
 *
 * Files are read only when a line of them is shown, so `culprit rank` on a
 * terminal reads the few files of its top ten and nothing else.  A file
 * that cannot be read is not an error: reports show the ranking without
 * its text and say which files were missing.
 */
#include <stdlib.h>
#include <string.h>

#include "culprit/report.h"

culprit_status culprit_sources_init(culprit_sources *sources, const culprit_spectra *spectra,
                                    const char *root, culprit_error *err)
{
    *sources = (culprit_sources){.spectra = spectra, .count = spectra->file_count};
    sources->files = calloc(spectra->file_count + 1, sizeof *sources->files);
    sources->root = root ? strdup(root) : NULL;
    if (!sources->files || (root && !sources->root)) {
        culprit_sources_free(sources);
        return culprit_fail_memory(err);
    }
    return CULPRIT_OK;
}

void culprit_sources_free(culprit_sources *sources)
{
    for (size_t i = 0; sources->files && i < sources->count; i++) {
        free(sources->files[i].path);
        free(sources->files[i].text);
        free(sources->files[i].line_starts);
    }
    free(sources->files);
    free(sources->root);
    *sources = (culprit_sources){0};
}

/* root/name, or name alone without a root; NULL when out of memory. */
static char *joined(const char *root, const char *name)
{
    if (!root)
        return strdup(name);
    size_t size = strlen(root) + strlen(name) + 2;
    char *path = malloc(size);
    if (path)
        snprintf(path, size, "%s/%s", root, name);
    return path;
}

/* Reads the whole of path; NULL when it cannot be opened or read. */
static char *read_all(const char *path, size_t *size)
{
    FILE *in = fopen(path, "rb");
    if (!in)
        return NULL;
    char *text = NULL;
    size_t length = 0;
    FILE *buffer = open_memstream(&text, &length);
    char chunk[65536];
    size_t got;
    bool ok = buffer != NULL;
    while (ok && (got = fread(chunk, 1, sizeof chunk, in)) > 0)
        ok = fwrite(chunk, 1, got, buffer) == got;
    ok = ok && !ferror(in);
    fclose(in);
    if (buffer && fclose(buffer) != 0)
        ok = false;
    if (!ok) {
        free(text);
        return NULL;
    }
    *size = length;
    return text;
}

/* Splits text into lines: each '\n' ends one, and a tail without it is one. */
static bool index_lines(culprit_source_file *file, size_t size)
{
    size_t count = 0;
    for (size_t i = 0; i < size; i++)
        count += file->text[i] == '\n';
    if (size && file->text[size - 1] != '\n')
        count++;
    file->line_starts = malloc((count + 1) * sizeof *file->line_starts);
    if (!file->line_starts)
        return false;
    size_t line = 0;
    file->line_starts[0] = 0;
    for (size_t i = 0; i < size; i++)
        if (file->text[i] == '\n')
            file->line_starts[++line] = i + 1;
    file->line_starts[count] = size;
    file->line_count = count;
    return true;
}

static char *read_candidate(culprit_sources *sources, const char *name, char **path, size_t *size)
{
    bool absolute = name[0] == '/';
    *path = joined(absolute ? NULL : sources->root, name);
    char *text = *path ? read_all(*path, size) : NULL;
    if (!text && absolute && sources->root) {
        const char *base = strrchr(name, '/') + 1;
        free(*path);
        *path = joined(sources->root, base);
        text = *path ? read_all(*path, size) : NULL;
    }
    return text;
}

bool culprit_sources_load(culprit_sources *sources, uint32_t file)
{
    if (file >= sources->count)
        return false;
    culprit_source_file *source = &sources->files[file];
    if (source->tried)
        return source->found;
    source->tried = true;
    size_t size = 0;
    source->text = read_candidate(sources, sources->spectra->files[file], &source->path, &size);
    if (source->text && index_lines(source, size)) {
        source->found = true;
    } else {
        free(source->text);
        source->text = NULL;
    }
    return source->found;
}

bool culprit_sources_line(culprit_sources *sources, uint32_t file, uint32_t line, const char **text,
                          size_t *length)
{
    if (!culprit_sources_load(sources, file))
        return false;
    const culprit_source_file *source = &sources->files[file];
    if (line == 0 || line > source->line_count)
        return false;
    size_t start = source->line_starts[line - 1], end = source->line_starts[line];
    if (end > start && source->text[end - 1] == '\n')
        end--;
    if (end > start && source->text[end - 1] == '\r')
        end--;
    *text = source->text + start;
    *length = end - start;
    return true;
}
