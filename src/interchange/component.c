/*
 * component.c - component names, the element naming shared by the GZoltar
 * and CSV formats: "path:LINE" is a line element of path; any other name
 * ending in ":LINE" (GZoltar's "org.x$Y#m(int):42") keeps its text, with
 * the part before '#' standing for its file so that the line view can
 * group it; a name without ":LINE" (another tool's "cond22_true") is an
 * opaque element: its name and nothing else, ranked among the elements and
 * left out of the line view.  Writers name a component the same way back,
 * so an export re-imports to the same elements.
 */
#include <stdlib.h>
#include <string.h>

#include "culprit/interchange.h"
#include "interchange/component.h"

/* Parses the digits after the last ':'; returns 0 when there are none. */
static uint32_t trailing_line(const char *name, const char **colon)
{
    *colon = strrchr(name, ':');
    if (!*colon || !(*colon)[1])
        return 0;
    unsigned long long line = 0;
    for (const char *p = *colon + 1; *p; p++) {
        if (*p < '0' || *p > '9')
            return 0;
        line = line * 10 + (unsigned)(*p - '0');
        if (line > UINT32_MAX)
            return 0;
    }
    return (uint32_t)line;
}

culprit_status culprit_component_add(culprit_spectra *spectra, const char *name, const char *path,
                                     size_t line, size_t column, culprit_error *err)
{
    if (!*name)
        return culprit_fail_at(err, path, line, column, "expected a component name, found an empty one");
    const char *colon;
    uint32_t source_line = trailing_line(name, &colon);
    if (source_line == 0 || colon == name)
        return culprit_spectra_add_element(spectra, CULPRIT_KIND_OPAQUE, CULPRIT_NO_FILE, 0, 0, name, NULL,
                                           err);
    const char *hash = strchr(name, '#');
    size_t file_length = (size_t)((hash && hash < colon ? hash : colon) - name);
    char *file_path = strndup(name, file_length);
    if (!file_path)
        return culprit_fail_memory(err);
    uint32_t file;
    culprit_status status = culprit_spectra_add_file(spectra, file_path, &file, err);
    free(file_path);
    if (status)
        return status;
    return culprit_spectra_add_element(spectra, CULPRIT_KIND_LINE, file, source_line, 0,
                                       hash && hash < colon ? name : NULL, NULL, err);
}

void culprit_component_name(const culprit_spectra *spectra, uint32_t element, char *buffer, size_t size)
{
    culprit_spectra_element_label(spectra, element, buffer, size);
}

bool component_written(const culprit_element *element)
{
    return element->kind == CULPRIT_KIND_LINE || element->kind == CULPRIT_KIND_OPAQUE;
}
