/*
 * sym_models_scanf.c - the scanf family's wrappers: integer conversions
 * become typed fields (docs/symbolic.md §3) with the exact offset and
 * length of their text in the source.
 *
 * In symbolic mode the format is run one directive at a time by the real
 * fscanf / sscanf, each piece being
 *     <literal text before it> %n [" "] %n <the directive> %n
 * so that the three counts say where the literal ended, where the
 * conversion's text started (after the white space it skips anyway) and
 * where it ended.  Running the pieces in turn on the same stream (or on
 * the rest of the string) is what one call does: scanf keeps no state
 * between directives but the stream's position, and pushes back the one
 * character it looks ahead.  The result is reassembled as glibc computes
 * it: the number of assignments, or EOF when input failed before the
 * first one.  The user's own %n is answered from the running count.
 *
 * What each conversion stores gets a shadow: integers their field (from a
 * source stream: its offset; from a string: when the string's bytes are
 * consecutive input bytes), %s %c %[ the input bytes they copied, floating
 * point and %p nothing (counted as concretized when the input was
 * symbolic).  Formats this does not parse (positional arguments, a piece
 * too long) are run whole and their results are concrete.
 */
#include "rt/sym_internal.h"
#include "rt/sym_wrappers.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

enum { PIECE_MAX = 1024 };

/* What one call reads: a stream (reader set when it is a source) or a string. */
struct scan_input {
    FILE *stream;
    const char *text;
    struct rt_sym_reader *reader;
    size_t consumed; /* bytes consumed by the call so far */
    int symbolic;    /* the input may hold symbolic bytes */
};

/* One parsed directive (after '%'). */
struct directive {
    const char *start; /* the '%' */
    size_t length;     /* through the conversion character (or ']') */
    int suppressed;
    int allocating; /* 'm' */
    int width;      /* 0: none */
    int size;       /* bytes of the integer or float stored */
    char conversion;
};

static int integer_size(const char *length)
{
    if (length[0] == 'h')
        return length[1] == 'h' ? 1 : 2;
    if (length[0] == 'l' || length[0] == 'L' || length[0] == 'q' || length[0] == 'j' || length[0] == 'z' ||
        length[0] == 't')
        return 8;
    return 4;
}

static int float_size(const char *length)
{
    if (length[0] == 'L')
        return 16;
    return length[0] == 'l' ? 8 : 4;
}

/* Parses the directive at format (a '%' that is not "%%"); 0 when this
 * model does not handle it. */
static int parse_directive(const char *format, struct directive *d)
{
    const char *p = format + 1;
    *d = (struct directive){.start = format};
    if (*p == '*') {
        d->suppressed = 1;
        p++;
    }
    while (*p >= '0' && *p <= '9')
        d->width = d->width * 10 + (*p++ - '0');
    if (*p == '$')
        return 0; /* positional arguments */
    if (*p == 'm') {
        d->allocating = 1;
        p++;
    }
    const char *length = p;
    while (*p && strchr("hlLqjzt", *p))
        p++;
    if (p - length > 2)
        return 0;
    d->conversion = *p;
    if (!*p)
        return 0;
    if (*p == '[') {
        p++;
        if (*p == '^')
            p++;
        if (*p == ']')
            p++;
        while (*p && *p != ']')
            p++;
        if (!*p)
            return 0;
    } else if (!strchr("diuoxXnscpaAeEfFgG", *p)) {
        return 0;
    }
    d->size = strchr("aAeEfFgG", d->conversion) ? float_size(length) : integer_size(length);
    d->length = (size_t)(p + 1 - format);
    return 1;
}

/* Walks the format: 1 when every directive parses and each piece fits. */
static int format_is_modelled(const char *format)
{
    size_t literal = 0;
    for (const char *p = format; *p;) {
        if (p[0] == '%' && p[1] == '%') {
            literal += 2;
            p += 2;
            continue;
        }
        if (*p != '%') {
            literal++;
            p++;
            continue;
        }
        struct directive d;
        if (!parse_directive(p, &d) || literal + d.length + 8 >= PIECE_MAX)
            return 0;
        literal = 0;
        p += d.length;
    }
    return literal + 4 < PIECE_MAX;
}

static int is_integer(char conversion)
{
    return conversion && strchr("diuoxX", conversion);
}

static int skips_space(char conversion)
{
    return conversion != 'c' && conversion != '[' && conversion != 'n';
}

/* The field kind of an integer conversion's text. */
static uint32_t field_kind(char conversion, const char *text, size_t length)
{
    switch (conversion) {
    case 'u':
        return CULPRIT_SYM_FIELD_UNSIGNED;
    case 'x':
    case 'X':
        return CULPRIT_SYM_FIELD_HEX;
    case 'o':
        return CULPRIT_SYM_FIELD_OCTAL;
    case 'i': {
        size_t at = length > 0 && (text[0] == '+' || text[0] == '-');
        if (at + 1 < length && text[at] == '0' && (text[at + 1] == 'x' || text[at + 1] == 'X'))
            return CULPRIT_SYM_FIELD_HEX;
        if (at + 1 < length && text[at] == '0')
            return CULPRIT_SYM_FIELD_OCTAL;
        return CULPRIT_SYM_FIELD_DECIMAL;
    }
    default:
        return CULPRIT_SYM_FIELD_DECIMAL;
    }
}

/* Runs one piece with counts[0..2] for its three %n; returns scanf's result. */
static int run_piece(struct scan_input *in, const char *piece, void *argument, int with_argument,
                     int counts[3])
{
    counts[0] = counts[1] = counts[2] = -1;
    if (in->stream)
        return with_argument ? fscanf(in->stream, piece, &counts[0], &counts[1], argument, &counts[2])
                             : fscanf(in->stream, piece, &counts[0], &counts[1], &counts[2]);
    const char *rest = in->text + in->consumed;
    return with_argument ? sscanf(rest, piece, &counts[0], &counts[1], argument, &counts[2])
                         : sscanf(rest, piece, &counts[0], &counts[1], &counts[2]);
}

/* The input bytes [start, start + length) of this call (stream: offsets
 * from the reader; string: its shadows) copied to destination's shadow. */
static void copy_input_shadow(struct scan_input *in, size_t start, char *destination, size_t length)
{
    if (in->reader) {
        for (size_t i = 0; i < length; i++)
            culprit_rt_sym_shadow_set(
                destination + i, culprit_rt_sym_byte(in->reader->source, in->reader->offset + start + i));
    } else if (in->text) {
        __culprit_sym_memmove(destination, in->text + start, length);
    } else {
        culprit_rt_sym_shadow_clear(destination, length);
    }
}

static culprit_sym_expr integer_field(struct scan_input *in, const struct directive *d, size_t start,
                                      size_t length, const char *text)
{
    if (in->reader)
        return culprit_rt_sym_field(in->reader->source, in->reader->offset + start, (uint32_t)length,
                                    field_kind(d->conversion, text, length));
    if (in->text)
        return culprit_rt_sym_field_of_text(in->text + start, length,
                                            field_kind(d->conversion, text, length));
    return 0;
}

/* The shadow of what a successful conversion stored at argument. */
static void shadow_stored(struct scan_input *in, const struct directive *d, void *argument, size_t start,
                          size_t length)
{
    if (d->suppressed)
        return;
    if (is_integer(d->conversion)) {
        /* %i's kind needs the text, which only a string keeps: from a
         * stream it is taken as decimal */
        const char *text = in->text ? in->text + start : "";
        __culprit_sym_store(argument, (uint32_t)d->size, integer_field(in, d, start, length, text));
        return;
    }
    if (d->conversion == 's' || d->conversion == 'c' || d->conversion == '[') {
        char *destination = argument;
        if (d->allocating) {
            culprit_rt_sym_shadow_clear(argument, sizeof(char *));
            destination = *(char **)argument;
        }
        copy_input_shadow(in, start, destination, length);
        if (d->conversion != 'c')
            culprit_rt_sym_shadow_set(destination + length, 0);
        return;
    }
    if (in->symbolic)
        culprit_rt_sym_count(d->conversion == 'p' ? CULPRIT_SYM_STAT_CONCRETIZED_OTHER
                                                  : CULPRIT_SYM_STAT_CONCRETIZED_FLOAT);
    culprit_rt_sym_shadow_clear(argument, d->conversion == 'p' ? sizeof(void *) : (size_t)d->size);
}

/* The user's %n: the count so far, in the integer size asked for. */
static void store_count(const struct directive *d, void *argument, size_t count)
{
    if (d->suppressed)
        return;
    switch (d->size) {
    case 1:
        *(signed char *)argument = (signed char)count;
        break;
    case 2:
        *(short *)argument = (short)count;
        break;
    case 8:
        *(long long *)argument = (long long)count;
        break;
    default:
        *(int *)argument = (int)count;
        break;
    }
    culprit_rt_sym_shadow_clear(argument, (size_t)d->size);
}

/* Builds "<literal>%n[ ]%n<directive>%n" (directive NULL: literal and one %n). */
static void build_piece(char *piece, const char *literal, size_t literal_length, const struct directive *d)
{
    memcpy(piece, literal, literal_length);
    char *p = piece + literal_length;
    if (!d) {
        memcpy(p, "%n%n%n", 7);
        return;
    }
    memcpy(p, skips_space(d->conversion) ? "%n %n" : "%n%n", skips_space(d->conversion) ? 5 : 4);
    p += skips_space(d->conversion) ? 5 : 4;
    memcpy(p, d->start, d->length);
    p += d->length;
    memcpy(p, "%n", 3);
}

static int scan_pieces(struct scan_input *in, const char *format, va_list arguments)
{
    char piece[PIECE_MAX];
    int assigned = 0, counts[3];
    const char *literal = format;
    const char *p = format;
    for (;;) {
        while (*p && !(p[0] == '%' && p[1] != '%'))
            p += (p[0] == '%') ? 2 : 1;
        if (!*p)
            break;
        struct directive d;
        parse_directive(p, &d);
        void *argument = d.suppressed ? NULL : va_arg(arguments, void *);
        if (d.conversion == 'n') {
            build_piece(piece, literal, (size_t)(p - literal), NULL);
            if (run_piece(in, piece, NULL, 0, counts) == EOF)
                return assigned ? assigned : EOF;
            if (counts[0] < 0)
                return assigned;
            in->consumed += (size_t)counts[0];
            store_count(&d, argument, in->consumed);
        } else {
            build_piece(piece, literal, (size_t)(p - literal), &d);
            int result = run_piece(in, piece, argument, !d.suppressed, counts);
            if (result == EOF)
                return assigned ? assigned : EOF;
            if (counts[2] < 0) {
                in->consumed += (size_t)(counts[1] >= 0 ? counts[1] : counts[0] >= 0 ? counts[0] : 0);
                return assigned;
            }
            size_t start = in->consumed + (size_t)counts[1];
            shadow_stored(in, &d, argument, start, (size_t)(counts[2] - counts[1]));
            in->consumed += (size_t)counts[2];
            assigned += result;
        }
        p += d.length;
        literal = p;
    }
    if (*literal) {
        build_piece(piece, literal, strlen(literal), NULL);
        if (run_piece(in, piece, NULL, 0, counts) == EOF)
            return assigned ? assigned : EOF;
        if (counts[0] >= 0)
            in->consumed += (size_t)counts[0];
    }
    return assigned;
}

static int scan_stream(FILE *stream, const char *format, va_list arguments)
{
    if (!culprit_rt_sym_on())
        return vfscanf(stream, format, arguments);
    struct rt_sym_reader *reader = culprit_rt_sym_reader_stream(stream);
    if (!format_is_modelled(format)) {
        if (reader)
            culprit_rt_sym_count(CULPRIT_SYM_STAT_CONCRETIZED_OTHER);
        return vfscanf(stream, format, arguments);
    }
    struct scan_input in = {.stream = stream, .reader = reader, .symbolic = reader != NULL};
    int result = scan_pieces(&in, format, arguments);
    int saved = errno;
    if (reader) {
        culprit_rt_sym_consumed(reader, NULL, in.consumed);
        if (feof(stream))
            culprit_rt_sym_read_past_end(reader);
    }
    errno = saved;
    return result;
}

static int scan_text(const char *text, const char *format, va_list arguments)
{
    if (!culprit_rt_sym_on())
        return vsscanf(text, format, arguments);
    int symbolic = culprit_rt_sym_shadow_any(text, strlen(text));
    if (!format_is_modelled(format)) {
        if (symbolic)
            culprit_rt_sym_count(CULPRIT_SYM_STAT_CONCRETIZED_OTHER);
        return vsscanf(text, format, arguments);
    }
    struct scan_input in = {.text = text, .symbolic = symbolic};
    return scan_pieces(&in, format, arguments);
}

#define ENTER(self, count)                                                                                   \
    culprit_sym_expr args[count];                                                                            \
    culprit_rt_sym_enter((const void *)(self), args, (count));                                               \
    (void)args

int __culprit_sym_w_scanf(const char *format, ...)
{
    ENTER(__culprit_sym_w_scanf, 1);
    va_list arguments;
    va_start(arguments, format);
    int result = scan_stream(stdin, format, arguments);
    va_end(arguments);
    return result;
}

int __culprit_sym_w___isoc99_scanf(const char *format, ...)
{
    ENTER(__culprit_sym_w___isoc99_scanf, 1);
    va_list arguments;
    va_start(arguments, format);
    int result = scan_stream(stdin, format, arguments);
    va_end(arguments);
    return result;
}

int __culprit_sym_w_fscanf(FILE *stream, const char *format, ...)
{
    ENTER(__culprit_sym_w_fscanf, 2);
    va_list arguments;
    va_start(arguments, format);
    int result = scan_stream(stream, format, arguments);
    va_end(arguments);
    return result;
}

int __culprit_sym_w___isoc99_fscanf(FILE *stream, const char *format, ...)
{
    ENTER(__culprit_sym_w___isoc99_fscanf, 2);
    va_list arguments;
    va_start(arguments, format);
    int result = scan_stream(stream, format, arguments);
    va_end(arguments);
    return result;
}

int __culprit_sym_w_sscanf(const char *text, const char *format, ...)
{
    ENTER(__culprit_sym_w_sscanf, 2);
    va_list arguments;
    va_start(arguments, format);
    int result = scan_text(text, format, arguments);
    va_end(arguments);
    return result;
}

int __culprit_sym_w___isoc99_sscanf(const char *text, const char *format, ...)
{
    ENTER(__culprit_sym_w___isoc99_sscanf, 2);
    va_list arguments;
    va_start(arguments, format);
    int result = scan_text(text, format, arguments);
    va_end(arguments);
    return result;
}
