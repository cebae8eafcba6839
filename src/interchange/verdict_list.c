/*
 * verdict_list.c - the verdicts of tests imported one coverage file per
 * test (lcov, gcov JSON): a file of "NAME VERDICT" lines, or names given
 * one by one.  Matching them to the imported tests is coverage_set.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "culprit/interchange.h"
#include "interchange/text_lines.h"

void culprit_verdict_list_init(culprit_verdict_list *list)
{
    memset(list, 0, sizeof *list);
}

void culprit_verdict_list_free(culprit_verdict_list *list)
{
    for (size_t i = 0; i < list->count; i++)
        free(list->entries[i].name);
    free(list->entries);
    memset(list, 0, sizeof *list);
}

culprit_status culprit_verdict_list_add(culprit_verdict_list *list, const char *name, culprit_verdict verdict,
                                        size_t line, culprit_error *err)
{
    if (!CULPRIT_GROW(list->entries, list->capacity, list->count + 1, 64))
        return culprit_fail_memory(err);
    char *copy = strdup(name);
    if (!copy)
        return culprit_fail_memory(err);
    list->entries[list->count++] = (culprit_verdict_entry){.name = copy, .verdict = verdict, .line = line};
    return CULPRIT_OK;
}

#define BLANKS " \t"
#define COLUMN(p) ((size_t)((p)-lines->line) + 1)

/* Parses "NAME VERDICT [# comment]"; blank and '#' lines add nothing. */
static culprit_status parse_verdict_line(culprit_verdict_list *list, const text_lines *lines,
                                         culprit_error *err)
{
    char *p = lines->line + strspn(lines->line, BLANKS);
    if (*p == '\0' || *p == '#')
        return CULPRIT_OK;
    char *name = p;
    p += strcspn(p, BLANKS);
    char *name_end = p;
    p += strspn(p, BLANKS);
    if (*p == '\0' || *p == '#')
        return culprit_fail_at(err, lines->path, lines->number, COLUMN(p),
                               "expected a verdict (pass, fail, error, timeout or skip) after the test name");
    char *word = p;
    p += strcspn(p, BLANKS);
    char saved = *p;
    *p = '\0';
    culprit_verdict verdict;
    int unknown = culprit_verdict_parse(word, &verdict) != 0;
    if (unknown)
        return culprit_fail_at(err, lines->path, lines->number, COLUMN(word),
                               "expected a verdict (pass, fail, error, timeout or skip), found '%s'", word);
    *p = saved;
    p += strspn(p, BLANKS);
    if (*p != '\0' && *p != '#')
        return culprit_fail_at(err, lines->path, lines->number, COLUMN(p),
                               "expected the end of the line (or a # comment) after the verdict, found '%s'",
                               p);
    *name_end = '\0';
    return culprit_verdict_list_add(list, name, verdict, lines->number, err);
}

culprit_status culprit_verdict_list_read(culprit_verdict_list *list, const char *path, culprit_error *err)
{
    text_lines lines;
    culprit_status status = text_lines_open(&lines, path, err);
    int more = 0;
    list->path = path;
    while (!status && (more = text_lines_next(&lines, err)) == 1)
        status = parse_verdict_line(list, &lines, err);
    if (!status && more < 0)
        status = err->status;
    text_lines_close(&lines);
    return status;
}
