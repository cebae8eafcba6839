/*
 * test_json_text.c - libculprit's one JSON string writer
 * (culprit/json_text.h), which the reports and the CLI's --format json
 * share: the exact text it writes for ASCII, escapes, valid UTF-8 of every
 * length and each kind of invalid UTF-8 (overlong forms, surrogates, code
 * points past U+10FFFF, sequences cut short, bytes that never occur), and,
 * for every case, that jansson reads the text back as valid JSON and
 * decodes it to the expected string (invalid bytes as U+FFFD, one per
 * byte).
 */
#include <jansson.h>
#include <stdbool.h>
#include <stdlib.h>

#include "check.h"
#include "culprit/json_text.h"

#define REPLACEMENT "\xef\xbf\xbd" /* U+FFFD in UTF-8, what jansson decodes \ufffd to */

/* What the writer writes for length bytes of text (NULL text: the
 * NUL-terminated form's null).  The caller frees it. */
static char *written(const char *text, size_t length, bool html_safe, bool terminated)
{
    char *buffer = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&buffer, &size);
    if (!out) {
        perror("open_memstream");
        exit(2);
    }
    if (terminated)
        culprit_json_write_string(out, text);
    else
        culprit_json_write_string_n(out, text, length, html_safe);
    fclose(out);
    return buffer;
}

/* Checks the exact text written for input, then that it parses as a JSON
 * string and decodes to decoded (decoded_length bytes). */
static void check_case(const char *name, const char *input, size_t length, bool html_safe,
                       const char *expected, const char *decoded, size_t decoded_length)
{
    char *text = written(input, length, html_safe, false);
    CHECK_RECORD(strcmp(text, expected) == 0, "%s: wrote %s, expected %s", name, text, expected);
    json_error_t error;
    json_t *value = json_loads(text, JSON_DECODE_ANY | JSON_ALLOW_NUL, &error);
    CHECK_RECORD(value != NULL, "%s: %s is not valid JSON: %s", name, text, error.text);
    CHECK_RECORD(json_is_string(value), "%s: %s is not a JSON string", name, text);
    if (json_is_string(value)) {
        size_t got = json_string_length(value);
        CHECK_RECORD(got == decoded_length && memcmp(json_string_value(value), decoded, got) == 0,
                     "%s: %s decodes to %zu bytes \"%s\", expected %zu bytes \"%s\"", name, text, got,
                     json_string_value(value), decoded_length, decoded);
    }
    json_decref(value);
    free(text);
}

/* A case whose input and decoded string are NUL-terminated literals. */
#define CASE(name, input, expected, decoded)                                                                 \
    check_case(name, input, sizeof input - 1, false, expected, decoded, sizeof decoded - 1)
#define CASE_HTML(name, input, expected, decoded)                                                            \
    check_case(name, input, sizeof input - 1, true, expected, decoded, sizeof decoded - 1)

static void test_ascii_and_escapes(void)
{
    CASE("empty", "", "\"\"", "");
    CASE("ascii", "plain ascii: a/b, {x} [y] ~", "\"plain ascii: a/b, {x} [y] ~\"",
         "plain ascii: a/b, {x} [y] ~");
    CASE("quote and backslash", "say \"hi\" \\o/", "\"say \\\"hi\\\" \\\\o/\"", "say \"hi\" \\o/");
    CASE("short escapes", "a\nb\rc\td", "\"a\\nb\\rc\\td\"", "a\nb\rc\td");
    CASE("other controls", "\x01\b\f\x1b\x1f", "\"\\u0001\\u0008\\u000c\\u001b\\u001f\"", "\x01\b\f\x1b\x1f");
    CASE("DEL",
         "a\x7f"
         "b",
         "\"a\\u007fb\"",
         "a\x7f"
         "b");
    check_case("NUL inside", "a\0b", 3, false, "\"a\\u0000b\"", "a\0b", 3);
    /* Only html_safe escapes these. */
    CASE("html characters", "<a href=\"x\">&amp;</a>", "\"<a href=\\\"x\\\">&amp;</a>\"",
         "<a href=\"x\">&amp;</a>");
    CASE_HTML("html characters, html-safe", "</script>&", "\"\\u003c/script\\u003e\\u0026\"", "</script>&");
}

static void test_valid_utf8(void)
{
    CASE("two bytes", "caf\xc3\xa9 \xc2\x80", "\"caf\xc3\xa9 \xc2\x80\"", "caf\xc3\xa9 \xc2\x80");
    CASE("three bytes", "\xe2\x82\xac \xe0\xa0\x80 \xed\x9f\xbf \xef\xbf\xbf",
         "\"\xe2\x82\xac \xe0\xa0\x80 \xed\x9f\xbf \xef\xbf\xbf\"",
         "\xe2\x82\xac \xe0\xa0\x80 \xed\x9f\xbf \xef\xbf\xbf");
    CASE("four bytes", "\xf0\x9f\x98\x80 \xf0\x90\x80\x80 \xf4\x8f\xbf\xbf",
         "\"\xf0\x9f\x98\x80 \xf0\x90\x80\x80 \xf4\x8f\xbf\xbf\"",
         "\xf0\x9f\x98\x80 \xf0\x90\x80\x80 \xf4\x8f\xbf\xbf");
    CASE("line separators", "\xe2\x80\xa8\xe2\x80\xa9", "\"\xe2\x80\xa8\xe2\x80\xa9\"",
         "\xe2\x80\xa8\xe2\x80\xa9");
    CASE_HTML("line separators, html-safe", "\xe2\x80\xa8\xe2\x80\xa9", "\"\\u2028\\u2029\"",
              "\xe2\x80\xa8\xe2\x80\xa9");
}

static void test_invalid_utf8(void)
{
    CASE("0xff",
         "a\xff"
         "b",
         "\"a\\ufffdb\"", "a" REPLACEMENT "b");
    CASE("bytes that never occur", "\xc0\xc1\xf5\xfe\xff", "\"\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\"",
         REPLACEMENT REPLACEMENT REPLACEMENT REPLACEMENT REPLACEMENT);
    CASE("lone continuation",
         "\x80"
         "a\xbf",
         "\"\\ufffda\\ufffd\"", REPLACEMENT "a" REPLACEMENT);
    CASE("overlong two bytes", "\xc0\xaf", "\"\\ufffd\\ufffd\"", REPLACEMENT REPLACEMENT);
    CASE("overlong three bytes", "\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\"",
         REPLACEMENT REPLACEMENT REPLACEMENT);
    CASE("overlong four bytes", "\xf0\x80\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"",
         REPLACEMENT REPLACEMENT REPLACEMENT REPLACEMENT);
    CASE("high surrogate", "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"", REPLACEMENT REPLACEMENT REPLACEMENT);
    CASE("low surrogate", "\xed\xbf\xbf", "\"\\ufffd\\ufffd\\ufffd\"", REPLACEMENT REPLACEMENT REPLACEMENT);
    CASE("past U+10FFFF", "\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"",
         REPLACEMENT REPLACEMENT REPLACEMENT REPLACEMENT);
    CASE("cut short at the end", "x\xe2\x82", "\"x\\ufffd\\ufffd\"", "x" REPLACEMENT REPLACEMENT);
    CASE("cut short by ASCII",
         "\xe2\x82"
         "A",
         "\"\\ufffd\\ufffdA\"", REPLACEMENT REPLACEMENT "A");
    CASE("four bytes cut short", "\xf0\x9f\x98", "\"\\ufffd\\ufffd\\ufffd\"",
         REPLACEMENT REPLACEMENT REPLACEMENT);
    CASE("cut short by a lead byte", "\xc3\xe2\x82\xac", "\"\\ufffd\xe2\x82\xac\"",
         REPLACEMENT "\xe2\x82\xac");
    /* The length bounds the sequence even when more bytes follow in memory. */
    check_case("cut short by the length", "\xc3\xa9", 1, false, "\"\\ufffd\"", REPLACEMENT, 3);
    CASE_HTML("invalid, html-safe", "<\xff>", "\"\\u003c\\ufffd\\u003e\"", "<" REPLACEMENT ">");
}

static void test_terminated(void)
{
    char *text = written(NULL, 0, false, true);
    CHECK_STR(text, "null");
    free(text);
    text = written("t\xff\"<", 0, false, true);
    CHECK_STR(text, "\"t\\ufffd\\\"<\"");
    free(text);
}

int main(void)
{
    test_ascii_and_escapes();
    test_valid_utf8();
    test_invalid_utf8();
    test_terminated();
    return check_report("test_json_text");
}
