/*
 * oracle_report.c - what a crashed or sanitized test left on stderr, and
 * the normalization that lets equal failures have equal signatures.
 *
 * Sanitizers print a recognizable first line (ASan, LSan: "==PID==ERROR:
 * AddressSanitizer: ..."; UBSan: "FILE:LINE:COL: runtime error: ...") and
 * then stack frames "#N 0xADDR in FUNCTION FILE:LINE:COL"; glibc's
 * assert() prints "PROG: FILE:LINE: FUNCTION: Assertion `EXPR' failed.",
 * a check of <culprit/contract.h> "FILE:LINE: FUNCTION: postcondition
 * `EXPR' violated" (or precondition, invariant).
 * The PHP extension (src/php/php_module.c) says which PHP error failed a
 * run in a line of its own, "culprit: PHP KIND at FILE:LINE: MESSAGE".
 * The message is the first such line; the site is the first frame in the
 * program's own code (frames inside the sanitizer runtime and culprit's
 * output wrappers are skipped).  Two runs of the same bug differ in pids,
 * addresses and temporary directories, so those are normalized away
 * before a message becomes part of a signature.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "run/oracle_internal.h"

/* Sanitizer report headers, in the order they are looked for on a line. */
static const char *const sanitizer_markers[] = {
    "ERROR: AddressSanitizer:",  "ERROR: LeakSanitizer:",   "WARNING: ThreadSanitizer:",
    "WARNING: MemorySanitizer:", "ERROR: MemorySanitizer:", "ERROR: HWAddressSanitizer:",
};

/* Frames of these functions or files are the tools', not the program's. */
static bool foreign_frame(const char *function, size_t function_length, const char *file, size_t file_length)
{
    static const char *const prefixes[] = {"__interceptor_", "__asan",        "__lsan",         "__ubsan",
                                           "__sanitizer",    "__culprit_rt_", "___interceptor_"};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (function_length >= strlen(prefixes[i]) &&
            strncmp(function, prefixes[i], strlen(prefixes[i])) == 0)
            return true;
    char path[512];
    snprintf(path, sizeof path, "%.*s", (int)file_length, file);
    return strstr(path, "sanitizer") || strstr(path, "compiler-rt") || strstr(path, "/rt/rt_");
}

/* Copies [start, start+length) of a line, without a trailing '\r'. */
static void copy_span(const char *start, size_t length, char *out, size_t size)
{
    if (length > 0 && start[length - 1] == '\r')
        length--;
    snprintf(out, size, "%.*s", (int)length, start);
}

/* "#N 0xADDR in FUNCTION FILE:LINE[:COL]" -> "FILE:LINE (FUNCTION)". */
static bool parse_frame(const char *line, size_t length, char *site, size_t size)
{
    const char *end = line + length;
    const char *p = line;
    while (p < end && isspace((unsigned char)*p))
        p++;
    if (p >= end || *p != '#')
        return false;
    const char *in = NULL;
    for (const char *q = p; q + 4 <= end; q++)
        if (memcmp(q, " in ", 4) == 0) {
            in = q + 4;
            break;
        }
    if (!in)
        return false;
    const char *function_end = memchr(in, ' ', (size_t)(end - in));
    if (!function_end)
        return false;
    const char *file = function_end + 1;
    size_t file_length = (size_t)(end - file);
    if (file_length > 0 && file[file_length - 1] == '\r')
        file_length--;
    if (file_length == 0 || *file == '(' || foreign_frame(in, (size_t)(function_end - in), file, file_length))
        return false;
    /* drop the column: the line is what clusters */
    const char *colon = memchr(file, ':', file_length);
    const char *second = colon ? memchr(colon + 1, ':', (size_t)(file + file_length - colon - 1)) : NULL;
    if (second)
        file_length = (size_t)(second - file);
    snprintf(site, size, "%.*s (%.*s)", (int)file_length, file, (int)(function_end - in), in);
    return true;
}

/* The message of a sanitizer header line: from the tool's name on. */
static bool sanitizer_line(const char *line, size_t length, oracle_report *report)
{
    char text[ORACLE_MESSAGE_SIZE];
    copy_span(line, length, text, sizeof text);
    for (size_t i = 0; i < sizeof sanitizer_markers / sizeof sanitizer_markers[0]; i++) {
        const char *found = strstr(text, sanitizer_markers[i]);
        if (found) {
            const char *tool = strchr(found, ' ') + 1;
            snprintf(report->message, sizeof report->message, "%s", tool);
            return true;
        }
    }
    const char *runtime = strstr(text, ": runtime error: ");
    if (!runtime)
        return false;
    snprintf(report->message, sizeof report->message, "%s", runtime + 2);
    /* UBSan's own prefix is the site: FILE:LINE:COL */
    snprintf(report->site, sizeof report->site, "%.*s", (int)(runtime - text), text);
    char *column = strrchr(report->site, ':');
    if (column && column != strchr(report->site, ':'))
        *column = '\0';
    return true;
}

/* Where a check's line says it failed: "FILE:LINE: FUNCTION" (with a
 * "PROG: " in front for assert()) -> "FILE:LINE (FUNCTION)".  text ends
 * where the check's own words begin. */
static void check_site(char *text, bool has_program, oracle_report *report)
{
    char *function = strrchr(text, ':');
    if (!function || function[1] != ' ')
        return;
    *function = '\0';
    char *file = has_program ? strstr(text, ": ") : NULL;
    snprintf(report->site, sizeof report->site, "%.180s (%.60s)", file ? file + 2 : text, function + 2);
}

/* "PROG: FILE:LINE: FUNCTION: Assertion `EXPR' failed." */
static bool assertion_line(const char *line, size_t length, oracle_report *report)
{
    char text[ORACLE_MESSAGE_SIZE];
    copy_span(line, length, text, sizeof text);
    char *assertion = strstr(text, ": Assertion `");
    if (!assertion)
        return false;
    snprintf(report->message, sizeof report->message, "%s", assertion + 2);
    *assertion = '\0';
    check_site(text, true, report);
    return true;
}

/* "FILE:LINE: FUNCTION: postcondition `COND' violated": a check of
 * <culprit/contract.h>, in either build (src/rt/rt_spec.c, docs/specs.md).
 * The message is from the kind on. */
static bool spec_line(const char *line, size_t length, oracle_report *report)
{
    static const char *const kinds[] = {": precondition `", ": postcondition `", ": invariant `"};
    char text[ORACLE_MESSAGE_SIZE];
    copy_span(line, length, text, sizeof text);
    size_t text_length = strlen(text);
    static const char tail[] = "' violated";
    if (text_length < sizeof tail || strcmp(text + text_length - (sizeof tail - 1), tail) != 0)
        return false;
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
        char *kind = strstr(text, kinds[i]);
        if (!kind)
            continue;
        snprintf(report->message, sizeof report->message, "%s", kind + 2);
        *kind = '\0';
        check_site(text, false, report);
        return true;
    }
    return false;
}

/* "culprit: PHP Warning at FILE:LINE: MESSAGE": the message is
 * "PHP Warning: MESSAGE", the site FILE:LINE.  The path may hold ": ", so
 * the site ends at the first ": " after a ':' followed by digits. */
static bool php_line(const char *line, size_t length, oracle_report *report)
{
    static const char prefix[] = "culprit: PHP ";
    char text[ORACLE_MESSAGE_SIZE];
    copy_span(line, length, text, sizeof text);
    if (strncmp(text, prefix, sizeof prefix - 1) != 0)
        return false;
    char *kind = text + sizeof prefix - 1;
    char *at = strstr(kind, " at ");
    if (!at)
        return false;
    char *site = at + 4;
    for (char *colon = strchr(site, ':'); colon; colon = strchr(colon + 1, ':')) {
        size_t digits = strspn(colon + 1, "0123456789");
        if (digits > 0 && strncmp(colon + 1 + digits, ": ", 2) == 0) {
            char *message = colon + 1 + digits + 2;
            colon[1 + digits] = '\0';
            *at = '\0';
            snprintf(report->message, sizeof report->message, "PHP %s: %s", kind, message);
            snprintf(report->site, sizeof report->site, "%s", site);
            return true;
        }
    }
    return false;
}

void oracle_scan_stderr(const char *text, size_t size, oracle_report *report)
{
    *report = (oracle_report){0};
    const char *end = text + size;
    for (const char *line = text; line < end;) {
        const char *newline = memchr(line, '\n', (size_t)(end - line));
        size_t length = (size_t)((newline ? newline : end) - line);
        if (!report->sanitizer && !report->assertion && !report->php) {
            if (sanitizer_line(line, length, report))
                report->sanitizer = true;
            else if (assertion_line(line, length, report) || spec_line(line, length, report))
                report->assertion = true;
            else if (!report->php && php_line(line, length, report))
                report->php = true;
        } else if (report->sanitizer && !report->site[0] &&
                   parse_frame(line, length, report->site, sizeof report->site)) {
            break;
        }
        line = newline ? newline + 1 : end;
    }
}

/* ---- normalization ---- */

typedef struct writer {
    char *out;
    size_t size, used;
} writer;

static void put(writer *w, const char *text, size_t length)
{
    for (size_t i = 0; i < length && w->used + 1 < w->size; i++)
        w->out[w->used++] = text[i];
    w->out[w->used] = '\0';
}

static bool word_character(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* Length of the run-dependent token at text[i], with its replacement;
 * 0 when there is none. */
static size_t variable_token(const char *text, size_t i, bool numbers, const char **replacement)
{
    const char *p = text + i;
    bool starts_word = i == 0 || !word_character(text[i - 1]);
    size_t n = 0;
    if (p[0] == '=' && p[1] == '=' && isdigit((unsigned char)p[2])) { /* ==1234== */
        for (n = 2; isdigit((unsigned char)p[n]);)
            n++;
        *replacement = "==PID";
        return n;
    }
    if (starts_word && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && isxdigit((unsigned char)p[2])) {
        for (n = 2; isxdigit((unsigned char)p[n]);)
            n++;
        *replacement = "0xADDR";
        return n;
    }
    if (starts_word && strncmp(p, "pid", 3) == 0 && (p[3] == ' ' || p[3] == '=' || p[3] == ':') &&
        isdigit((unsigned char)p[4])) {
        for (n = 4; isdigit((unsigned char)p[n]);)
            n++;
        *replacement = "pid N";
        return n;
    }
    if (starts_word && isdigit((unsigned char)p[0]) && isdigit((unsigned char)p[1]) && p[2] == ':' &&
        isdigit((unsigned char)p[3]) && isdigit((unsigned char)p[4]) && p[5] == ':' &&
        isdigit((unsigned char)p[6]) && isdigit((unsigned char)p[7])) { /* HH:MM:SS[.fff] */
        for (n = 8; p[n] == '.' || isdigit((unsigned char)p[n]);)
            n++;
        *replacement = "TIME";
        return n;
    }
    if (numbers && starts_word && isdigit((unsigned char)p[0])) {
        for (n = 0; isdigit((unsigned char)p[n]);)
            n++;
        if (!word_character(p[n])) {
            *replacement = "N";
            return n;
        }
    }
    return 0;
}

/* A path starting at text[i] ("/..." at a word boundary): its length, and
 * where its last component starts. */
static size_t path_token(const char *text, size_t i, size_t *base)
{
    if (text[i] != '/' || (i > 0 && !strchr(" \t'\"(`=", text[i - 1])))
        return 0;
    size_t n = 0;
    *base = 0;
    while (text[i + n] && !strchr(" \t'\":`()", text[i + n])) {
        if (text[i + n] == '/')
            *base = n + 1;
        n++;
    }
    return *base > 1 ? n : 0; /* "/x" has no directory to drop */
}

void oracle_normalize(const char *text, bool numbers, char *out, size_t size)
{
    writer w = {out, size, 0};
    if (size)
        out[0] = '\0';
    for (size_t i = 0; text[i];) {
        const char *replacement = NULL;
        size_t base = 0;
        size_t length = variable_token(text, i, numbers, &replacement);
        if (length) {
            put(&w, replacement, strlen(replacement));
        } else if ((length = path_token(text, i, &base)) != 0) {
            /* directories differ between runs (temporary ones) and machines */
            put(&w, text + i + base, length - base);
        } else {
            length = 1;
            put(&w, text + i, 1);
        }
        i += length;
    }
}
