/*
 * oracle_html.c - the HTML oracle: parse the test's stdout with libtidy
 * and fail it when the markup is broken, naming the output lines where.
 *
 * Tidy reports almost every structural problem as a *warning* (a missing
 * </div> is "Warning: missing </div>"), and keeps its *errors* for what it
 * cannot repair (an unknown element).  For a test oracle, markup that tidy
 * had to repair is wrong output, so a fixed list of structural warnings
 * (missing, unexpected or mismatched tags, unterminated attributes and
 * comments, a premature end of file) counts as errors here.  Errors fail the
 * test and their lines are the wrong output lines, with tidy's message
 * kept as a note on each.  Other warnings (a missing doctype, an empty
 * paragraph, a proprietary attribute) do not make the page wrong: they are
 * counted in the message of a failing test and otherwise ignored.  Tidy's line numbers count lines as
 * culprit_split_output_lines does.
 */
#include <stdio.h>
#include <string.h>

#include "run/oracle_internal.h"
#include "run/tidy_library.h"

/* Tidy message keys (stable by tidy's API) that mean broken structure. */
static const char *const structural_keys[] = {
    "MISSING_ENDTAG_FOR",   "MISSING_ENDTAG_BEFORE",  "DISCARDING_UNEXPECTED",
    "NON_MATCHING_ENDTAG",  "MISSING_STARTTAG",       "UNEXPECTED_ENDTAG",
    "UNEXPECTED_ENDTAG_IN", "UNEXPECTED_END_OF_FILE", "UNEXPECTED_END_OF_FILE_ATTR",
    "COERCE_TO_ENDTAG",     "MISSING_QUOTEMARK",      "MISSING_QUOTEMARK_OPEN",
    "UNEXPECTED_QUOTEMARK", "MALFORMED_COMMENT",      "MALFORMED_COMMENT_DROPPING",
    "TOO_MANY_ELEMENTS",    "TOO_MANY_ELEMENTS_IN",   "DUPLICATE_FRAMESET",
    "REPEATED_ATTRIBUTE",   "ELEMENT_NOT_EMPTY",
};

/* What the message callback collects (tidy's per-document app data). */
typedef struct html_messages {
    size_t errors, warnings;
    char first[ORACLE_MESSAGE_SIZE]; /* "line L column C - Error: ..." */
    char first_text[ORACLE_MESSAGE_SIZE];
    oracle_line_set *wrong;
    culprit_differences *notes; /* tidy's message per wrong line */
    culprit_status status;
    culprit_error *err;
} html_messages;

static bool structural(const char *key)
{
    for (size_t i = 0; key && i < sizeof structural_keys / sizeof structural_keys[0]; i++)
        if (strcmp(key, structural_keys[i]) == 0)
            return true;
    return false;
}

static Bool collect_message(TidyMessage message)
{
    html_messages *messages = tidyGetAppData(tidyGetMessageDoc(message));
    TidyReportLevel level = tidyGetMessageLevel(message);
    bool error = level == TidyError || level == TidyBadDocument || level == TidyFatal ||
                 (level == TidyWarning && structural(tidyGetMessageKey(message)));
    if (!error) {
        messages->warnings += level == TidyWarning;
        return no;
    }
    int line = tidyGetMessageLine(message), column = tidyGetMessageColumn(message);
    const char *text = tidyGetMessageDefault(message);
    if (messages->errors++ == 0) {
        snprintf(messages->first, sizeof messages->first, "line %d column %d - %s", line, column,
                 text ? text : "?");
        snprintf(messages->first_text, sizeof messages->first_text, "%s", text ? text : "?");
    }
    if (line > 0 && messages->status == CULPRIT_OK)
        messages->status = oracle_line_set_add(messages->wrong, (uint32_t)line, messages->err);
    if (line > 0 && messages->status == CULPRIT_OK && text)
        messages->status =
            oracle_add_note(messages->notes, (uint32_t)line, text, strlen(text), messages->err);
    return no; /* never let tidy print */
}

static culprit_status parse_html(const char *text, size_t size, html_messages *messages, culprit_error *err)
{
    culprit_status loaded = culprit_tidy_load(err);
    if (loaded != CULPRIT_OK)
        return loaded;
    TidyDoc document = tidyCreate();
    if (!document)
        return culprit_fail_memory(err);
    TidyBuffer errors, input;
    tidyBufInit(&errors);
    tidyBufInit(&input);
    tidySetAppData(document, messages);
    bool configured =
        tidySetMessageCallback(document, collect_message) && tidySetErrorBuffer(document, &errors) >= 0 &&
        tidyOptSetInt(document, TidyShowErrors, 1000000) && tidyOptSetBool(document, TidyQuiet, yes) &&
        tidyOptSetBool(document, TidyShowWarnings, yes) && tidySetInCharEncoding(document, "utf8") >= 0;
    /* tidy reads a TidyBuffer without copying; it never writes to it */
    tidyBufAttach(&input, (byte *)(uintptr_t)text, (uint)size);
    int code = configured ? tidyParseBuffer(document, &input) : -1;
    tidyBufDetach(&input);
    tidyBufFree(&errors);
    tidyRelease(document);
    if (!configured)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot configure libtidy");
    if (code < 0 && messages->errors == 0)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "libtidy could not parse the output (status %d)",
                            code);
    return messages->status;
}

culprit_status oracle_check_html(const char *text, size_t size, oracle_finding *finding, culprit_error *err)
{
    if (size > UINT32_MAX)
        size = UINT32_MAX; /* TidyBuffer sizes are 32-bit */
    html_messages messages = {.wrong = &finding->wrong, .notes = &finding->differences, .err = err};
    culprit_status status = parse_html(text, size, &messages, err);
    if (status != CULPRIT_OK || messages.errors == 0 || finding->failed)
        return status;
    finding->failed = true;
    snprintf(finding->message, sizeof finding->message, "invalid HTML: %zu error%s, %zu warning%s; %.400s",
             messages.errors, messages.errors == 1 ? "" : "s", messages.warnings,
             messages.warnings == 1 ? "" : "s", messages.first);
    char plain[ORACLE_MESSAGE_SIZE];
    oracle_normalize(messages.first_text, false, plain, sizeof plain);
    snprintf(finding->signature, sizeof finding->signature, "invalid HTML: %.400s", plain);
    return CULPRIT_OK;
}
