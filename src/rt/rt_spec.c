/*
 * rt_spec.c - the spec checks of <culprit/contract.h> under culprit-cc
 * (docs/specs.md): a violated CULPRIT_REQUIRES, CULPRIT_ENSURES or
 * CULPRIT_INVARIANT says what was violated where, in the words of the
 * header's plain build, and aborts, as assert() does (in trace mode, once
 * the checks that follow it directly have run: sym_path.c).
 *
 * The abort is what makes a violation a failing run whose crash site is
 * the check's block; the oracle reads the line (src/run/oracle_report.c)
 * for the failure's message and signature, and the program map's `spec`
 * record of that block says which spec it was.  The message is assembled
 * in a buffer and written with one write(2): no stdio, whose locks and
 * buffers the program may be in the middle of using.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt/culprit_rt.h"
#include "rt/sym_internal.h"

enum { SPEC_MESSAGE_SIZE = 1024 };

typedef struct spec_message {
    char text[SPEC_MESSAGE_SIZE];
    size_t length;
} spec_message;

/* Appends what fits; a message longer than the buffer is cut. */
static void add_text(spec_message *message, const char *text)
{
    size_t room = sizeof message->text - 1 - message->length;
    size_t length = strnlen(text ? text : "?", room);
    memcpy(message->text + message->length, text ? text : "?", length);
    message->length += length;
}

static void add_unsigned(spec_message *message, unsigned value)
{
    char digits[16];
    size_t count = 0;
    do
        digits[sizeof digits - 1 - count++] = (char)('0' + value % 10);
    while ((value /= 10) && count < sizeof digits);
    char copy[sizeof digits + 1];
    memcpy(copy, digits + sizeof digits - count, count);
    copy[count] = '\0';
    add_text(message, copy);
}

static const char *kind_name(int kind)
{
    switch (kind) {
    case 1:
        return "precondition";
    case 2:
        return "postcondition";
    case 3:
        return "invariant";
    default:
        return "specification";
    }
}

void __culprit_rt_spec(int kind, const char *text, const char *file, unsigned line, const char *function,
                       int holds)
{
    /* holds' shadow (symbolic mode passes it through the call area): what
     * the trace formula asserts to hold when the check failed. */
    int go_on =
        culprit_rt_sym_spec_checked(culprit_rt_sym_argument((const void *)__culprit_rt_spec, 5), holds);
    if (holds)
        return;
    spec_message message = {.length = 0};
    add_text(&message, file);
    add_text(&message, ":");
    add_unsigned(&message, line);
    add_text(&message, ": ");
    add_text(&message, function);
    add_text(&message, ": ");
    add_text(&message, kind_name(kind));
    add_text(&message, " `");
    add_text(&message, text);
    add_text(&message, "' violated\n");
    for (size_t done = 0; done < message.length;) {
        ssize_t wrote = write(STDERR_FILENO, message.text + done, message.length - done);
        if (wrote <= 0)
            break;
        done += (size_t)wrote;
    }
    if (!go_on)
        abort();
}
