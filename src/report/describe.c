/*
 * describe.c - a program element in words (include/culprit/report.h), so
 * that the terminal, `culprit rank`'s text, CSV and JSON, and the HTML,
 * SARIF and JSON reports say the same about the element a line's score
 * came from: "branch `x < z` taken true", "`power()` returned negative".
 *
 * culprit-cc's programs name their elements in the collector
 * (src/program/assemble.c): a branch outcome FILE:LINE:COLUMN:OUTCOME, a
 * return class FILE:LINE:COLUMN:CALLEE()=CLASS, a block FUNCTION:bN, an
 * edge FUNCTION:bA->bB.  A branch is shown by its condition when the source
 * is at hand: clang puts the branch's column on the condition (on the
 * operator of a comparison, on the keyword of `while (a && b)` for the
 * whole of it), and the condition is the operand of && || ? : ; , or an
 * assignment around that column, inside the innermost parentheses of the
 * line, or on the whole line when none are around it (`return a < b;`).
 * A condition that goes on over several lines, or a source not found,
 * leaves the branch named by its place ("branch at mid.c:11:20 taken
 * true").  Names of other origins (an imported matrix's) are shown as
 * they are.
 */
#include <stdarg.h>
#include <string.h>

#include "culprit/report.h"

/* Conditions longer than this are cut (with "..."): a description is one line. */
enum { CONDITION_LIMIT = 60 };

static void put(char *buffer, size_t size, const char *format, ...) __attribute__((format(printf, 3, 4)));

static void put(char *buffer, size_t size, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(buffer, size, format, args);
    va_end(args);
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The part of name after "FILE:LINE:COLUMN:", or NULL when name is not
 * such a name for element. */
static const char *after_place(const culprit_spectra *spectra, const culprit_element *element,
                               const char *name)
{
    if (element->file == CULPRIT_NO_FILE)
        return NULL;
    const char *path = spectra->files[element->file];
    size_t length = strlen(path);
    if (strncmp(name, path, length) != 0)
        return NULL;
    char numbers[32];
    snprintf(numbers, sizeof numbers, ":%u:%u:", element->line, element->column);
    size_t numbers_length = strlen(numbers);
    return strncmp(name + length, numbers, numbers_length) == 0 ? name + length + numbers_length : NULL;
}

/* Whether text[i] is a lone '=' (an assignment's, not part of == <= >= !=). */
static bool assignment_at(const char *text, size_t i, size_t end)
{
    if (text[i] != '=' || (i + 1 < end && text[i + 1] == '='))
        return false;
    return i == 0 || !strchr("=!<>", text[i - 1]);
}

/* The width of the operator that ends one operand of a condition at text[i]
 * (&& || ; , ? : or an assignment's =), or 0. */
static size_t separator_at(const char *text, size_t i, size_t end)
{
    char c = text[i];
    if (c == ';' || c == ',' || c == '?' || c == ':' || assignment_at(text, i, end))
        return 1;
    bool pair = i + 1 < end && text[i + 1] == c;
    return pair && (c == '&' || c == '|') ? 2 : 0;
}

/* [*start, *end) of the innermost parentheses around position at, on one
 * line of length bytes; false when they are not both there. */
static bool enclosing_parentheses(const char *text, size_t length, size_t at, size_t *start, size_t *end)
{
    int depth = 0;
    size_t open = 0;
    bool found = false;
    for (size_t i = at; i-- > 0 && !found;) {
        if (text[i] == ')')
            depth++;
        else if (text[i] == '(' && depth-- == 0)
            found = true, open = i;
    }
    depth = 0;
    for (size_t i = at; found && i < length; i++) {
        if (text[i] == '(') {
            depth++;
        } else if (text[i] == ')' && depth-- == 0) {
            *start = open + 1;
            *end = i;
            return true;
        }
    }
    return false;
}

/* Whether every parenthesis of the line is closed on it. */
static bool balanced(const char *text, size_t length)
{
    int depth = 0;
    for (size_t i = 0; i < length && depth >= 0; i++)
        depth += text[i] == '(' ? 1 : text[i] == ')' ? -1 : 0;
    return depth == 0;
}

/* When at is on the keyword of `if (...)`, `while (...)` or `switch (...)`
 * (where clang puts a whole compound condition), the position just inside
 * its parentheses; else length. */
static size_t after_keyword(const char *text, size_t length, size_t at)
{
    static const char *const keywords[] = {"if", "while", "switch"};
    for (size_t k = 0; k < 3; k++) {
        size_t n = strlen(keywords[k]), i = at + n;
        if (length - at < n || strncmp(text + at, keywords[k], n) != 0)
            continue;
        while (i < length && (text[i] == ' ' || text[i] == '\t'))
            i++;
        if (i < length && text[i] == '(')
            return i + 1;
    }
    return length;
}

/* Narrows [*first, *last) to the operand around at: between the top-level
 * separators before and after it. */
static void operand_around(const char *text, size_t at, size_t *first, size_t *last)
{
    size_t end = *last;
    int depth = 0;
    for (size_t i = *first; i < end; i++) {
        size_t width = 0;
        if (text[i] == '(' || text[i] == '[')
            depth++;
        else if (text[i] == ')' || text[i] == ']')
            depth--;
        else if (depth == 0)
            width = separator_at(text, i, end);
        if (width && i + width <= at)
            *first = i + width;
        else if (width && i >= at && *last == end)
            *last = i;
        i += width ? width - 1 : 0;
    }
}

/* Copies text[first, last) into condition, blanks trimmed and a leading
 * `return` dropped, control characters as spaces, a long one cut; false
 * when nothing is left. */
static bool copy_condition(const char *text, size_t first, size_t last, char *condition, size_t size)
{
    while (first < last && (text[first] == ' ' || text[first] == '\t'))
        first++;
    if (last - first > 7 && strncmp(text + first, "return", 6) == 0 && strchr(" \t(", text[first + 6]))
        first += 6;
    while (first < last && (text[first] == ' ' || text[first] == '\t'))
        first++;
    while (last > first && (text[last - 1] == ' ' || text[last - 1] == '\t'))
        last--;
    if (first == last || size < 4)
        return false;
    size_t count = last - first, room = (CONDITION_LIMIT < size ? CONDITION_LIMIT + 1 : size) - 1;
    bool cut = count > room;
    if (cut) {
        count = room - 3;
        while (count > 0 && ((unsigned char)text[first + count] & 0xc0) == 0x80)
            count--; /* not inside a UTF-8 sequence */
    }
    for (size_t i = 0; i < count; i++) {
        unsigned char c = (unsigned char)text[first + i];
        condition[i] = c < 0x20 || c == 0x7f ? ' ' : (char)c;
    }
    strcpy(condition + count, cut ? "..." : "");
    return true;
}

/* The condition around 1-based column of one line of text: inside the
 * innermost parentheses, or, on a line without them around it (`return a
 * < b;`, `x = a < b ? a : b;`), of the whole line when its parentheses
 * balance.  False when there is none. */
static bool condition_at(const char *text, size_t length, uint32_t column, char *condition, size_t size)
{
    size_t at = column ? column - 1 : length, first, last;
    if (at >= length)
        return false;
    size_t inside = after_keyword(text, length, at);
    if (inside < length && enclosing_parentheses(text, length, inside, &first, &last))
        return copy_condition(text, first, last, condition, size);
    if (!enclosing_parentheses(text, length, at, &first, &last)) {
        if (!balanced(text, length))
            return false;
        first = 0;
        last = length;
    }
    operand_around(text, at, &first, &last);
    return copy_condition(text, first, last, condition, size);
}

static void describe_branch(const culprit_spectra *spectra, uint32_t index, const char *outcome,
                            culprit_sources *sources, char *buffer, size_t size)
{
    const culprit_element *element = &spectra->elements[index];
    bool is_case = strncmp(outcome, "case ", 5) == 0 || strcmp(outcome, "default") == 0;
    const char *what = is_case ? "switch" : "branch", *verb = is_case ? "took" : "taken";
    char condition[CONDITION_LIMIT + 1];
    const char *text;
    size_t length;
    if (sources && culprit_sources_line(sources, element->file, element->line, &text, &length) &&
        condition_at(text, length, element->column, condition, sizeof condition))
        put(buffer, size, "%s `%s` %s %s", what, condition, verb, outcome);
    else
        put(buffer, size, "%s at %s:%u:%u %s %s", what, base_name(spectra->files[element->file]),
            element->line, element->column, verb, outcome);
}

static void describe_return(const char *call, char *buffer, size_t size)
{
    const char *sign = strstr(call, "()=");
    if (!sign) {
        put(buffer, size, "return `%s`", call);
        return;
    }
    const char *class = sign + 3;
    if (strcmp(class, "nonnull") == 0)
        class = "non-null";
    else if (strcmp(class, "nonzero") == 0)
        class = "non-zero";
    put(buffer, size, "`%.*s()` returned %s", (int)(sign - call), call, class);
}

/* "block b4 of mid() at mid.c:12", "edge b3->b4 of mid()". */
static void describe_block(const culprit_spectra *spectra, const culprit_element *element, char *buffer,
                           size_t size)
{
    const char *kind = element->kind == CULPRIT_KIND_BLOCK ? "block" : "edge";
    const char *colon = strrchr(element->name, ':');
    if (!colon || colon[1] != 'b') {
        put(buffer, size, "%s `%s`", kind, element->name);
        return;
    }
    int function = (int)(colon - element->name);
    if (element->file == CULPRIT_NO_FILE || element->line == 0)
        put(buffer, size, "%s %s of %.*s()", kind, colon + 1, function, element->name);
    else
        put(buffer, size, "%s %s of %.*s() at %s:%u", kind, colon + 1, function, element->name,
            base_name(spectra->files[element->file]), element->line);
}

void culprit_report_describe_element(const culprit_spectra *spectra, uint32_t index, culprit_sources *sources,
                                     char *buffer, size_t size)
{
    if (!size)
        return;
    const culprit_element *element = &spectra->elements[index];
    const char *suffix = element->name ? after_place(spectra, element, element->name) : NULL;
    if (element->kind == CULPRIT_KIND_LINE && !element->name && element->file != CULPRIT_NO_FILE)
        put(buffer, size, "line %s:%u", base_name(spectra->files[element->file]), element->line);
    else if (element->kind == CULPRIT_KIND_BRANCH && suffix)
        describe_branch(spectra, index, suffix, sources, buffer, size);
    else if (element->kind == CULPRIT_KIND_RETURN && suffix)
        describe_return(suffix, buffer, size);
    else if ((element->kind == CULPRIT_KIND_BLOCK || element->kind == CULPRIT_KIND_EDGE) && element->name)
        describe_block(spectra, element, buffer, size);
    else if (element->name)
        put(buffer, size, "%s `%s`", culprit_kind_name(element->kind), element->name);
    else
        culprit_spectra_element_label(spectra, index, buffer, size);
}

bool culprit_report_decided_elsewhere(const culprit_spectra *spectra, const culprit_ranked *entry,
                                      culprit_view view)
{
    if (entry->decider != entry->element)
        return true;
    return view == CULPRIT_VIEW_LINE && spectra->elements[entry->decider].kind != CULPRIT_KIND_LINE;
}
