/*
 * sym_models_input.c - the wrappers of the reading functions and of the
 * functions that open and close descriptors and streams (sym_models.h).
 *
 * Each calls the real function first and returns its result unchanged
 * (errno included); in symbolic mode it then says what the bytes it gave
 * are: BYTE nodes when the descriptor or stream reads a source, concrete
 * (cleared shadows) otherwise, and marks the source READ_PAST_END when the
 * call met its end.  fread and fgets on a source are done as glibc does
 * them (a byte count, a getc loop) so that the exact number of bytes
 * consumed is known.  Opening a regular file for reading that is not
 * declared counts UNDECLARED_INPUT.
 */
#include "rt/sym_internal.h"
#include "rt/sym_wrappers.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <unistd.h>

extern int _IO_getc(FILE *stream); /* glibc's old name for getc, no longer declared */

#define ENTER(self, count)                                                                                   \
    culprit_sym_expr args[(count) > 0 ? (count) : 1];                                                        \
    culprit_rt_sym_enter((const void *)(self), args, (count));                                               \
    (void)args

ssize_t __culprit_sym_w_read(int fd, void *buffer, size_t size)
{
    ENTER(__culprit_sym_w_read, 3);
    ssize_t result = read(fd, buffer, size);
    if (!culprit_rt_sym_on())
        return result;
    int saved = errno;
    struct rt_sym_reader *reader = culprit_rt_sym_reader_fd(fd);
    if (result > 0)
        culprit_rt_sym_consumed(reader, buffer, (size_t)result);
    else if (result == 0 && size > 0)
        culprit_rt_sym_read_past_end(reader);
    errno = saved;
    return result;
}

size_t __culprit_sym_w_fread(void *data, size_t size, size_t count, FILE *stream)
{
    ENTER(__culprit_sym_w_fread, 4);
    struct rt_sym_reader *reader = culprit_rt_sym_on() ? culprit_rt_sym_reader_stream(stream) : NULL;
    if (!reader || size == 0 || count > SIZE_MAX / size) {
        size_t result = fread(data, size, count, stream);
        if (culprit_rt_sym_on())
            culprit_rt_sym_shadow_clear(data, result * size);
        return result;
    }
    /* glibc reads size * count bytes and returns how many whole elements came. */
    size_t wanted = size * count;
    size_t bytes = fread(data, 1, wanted, stream);
    int saved = errno;
    culprit_rt_sym_consumed(reader, data, bytes);
    if (bytes < wanted && feof(stream))
        culprit_rt_sym_read_past_end(reader);
    errno = saved;
    return bytes / size;
}

/* fgets as glibc does it: at most size - 1 bytes, up to a newline. */
static char *fgets_from_source(struct rt_sym_reader *reader, char *text, int size, FILE *stream)
{
    int character = 0, count = 0;
    flockfile(stream);
    int had_error = ferror_unlocked(stream);
    while (count < size - 1) {
        character = getc_unlocked(stream);
        if (character == EOF)
            break;
        text[count++] = (char)character;
        if (character == '\n')
            break;
    }
    int new_error = !had_error && ferror_unlocked(stream);
    int at_end = character == EOF && feof_unlocked(stream);
    funlockfile(stream);
    int saved = errno;
    culprit_rt_sym_consumed(reader, text, (size_t)count);
    if (at_end)
        culprit_rt_sym_read_past_end(reader);
    errno = saved;
    if (count == 0 || (new_error && errno != EAGAIN))
        return NULL;
    text[count] = '\0';
    culprit_rt_sym_shadow_set(text + count, 0);
    return text;
}

char *__culprit_sym_w_fgets(char *text, int size, FILE *stream)
{
    ENTER(__culprit_sym_w_fgets, 3);
    struct rt_sym_reader *reader = culprit_rt_sym_on() ? culprit_rt_sym_reader_stream(stream) : NULL;
    if (reader && size > 1)
        return fgets_from_source(reader, text, size, stream);
    char *result = fgets(text, size, stream);
    if (result && culprit_rt_sym_on()) {
        size_t length = 0;
        while (length + 1 < (size_t)size && text[length])
            length++;
        culprit_rt_sym_shadow_clear(text, length + 1);
    }
    return result;
}

/* After a getc-like call on stream returned character: its shadow. */
static culprit_sym_expr character_read(FILE *stream, int character)
{
    if (!culprit_rt_sym_on())
        return 0;
    struct rt_sym_reader *reader = culprit_rt_sym_reader_stream(stream);
    if (!reader)
        return 0;
    int saved = errno;
    culprit_sym_expr result = 0;
    if (character == EOF) {
        if (feof(stream))
            culprit_rt_sym_read_past_end(reader);
    } else {
        result =
            culprit_rt_sym_cast(CULPRIT_SYM_ZEXT, culprit_rt_sym_byte(reader->source, reader->offset), 32);
        culprit_rt_sym_consumed(reader, NULL, 1);
    }
    errno = saved;
    return result;
}

int __culprit_sym_w_getc(FILE *stream)
{
    ENTER(__culprit_sym_w_getc, 1);
    int character = getc(stream);
    culprit_rt_sym_return(character_read(stream, character));
    return character;
}

int __culprit_sym_w_fgetc(FILE *stream)
{
    ENTER(__culprit_sym_w_fgetc, 1);
    int character = fgetc(stream);
    culprit_rt_sym_return(character_read(stream, character));
    return character;
}

int __culprit_sym_w__IO_getc(FILE *stream)
{
    ENTER(__culprit_sym_w__IO_getc, 1);
    int character = _IO_getc(stream);
    culprit_rt_sym_return(character_read(stream, character));
    return character;
}

int __culprit_sym_w_getchar(void)
{
    ENTER(__culprit_sym_w_getchar, 0);
    int character = getchar();
    culprit_rt_sym_return(character_read(stdin, character));
    return character;
}

static ssize_t getdelim_model(char **line, size_t *size, int delimiter, FILE *stream)
{
    ssize_t result = getdelim(line, size, delimiter, stream);
    if (!culprit_rt_sym_on())
        return result;
    int saved = errno;
    struct rt_sym_reader *reader = culprit_rt_sym_reader_stream(stream);
    culprit_rt_sym_shadow_clear(line, sizeof *line);
    culprit_rt_sym_shadow_clear(size, sizeof *size);
    if (result > 0) {
        culprit_rt_sym_consumed(reader, *line, (size_t)result);
        culprit_rt_sym_shadow_set(*line + result, 0);
    } else if (result < 0 && feof(stream)) {
        culprit_rt_sym_read_past_end(reader);
    }
    errno = saved;
    return result;
}

ssize_t __culprit_sym_w_getdelim(char **line, size_t *size, int delimiter, FILE *stream)
{
    ENTER(__culprit_sym_w_getdelim, 4);
    return getdelim_model(line, size, delimiter, stream);
}

ssize_t __culprit_sym_w_getline(char **line, size_t *size, FILE *stream)
{
    ENTER(__culprit_sym_w_getline, 3);
    return getdelim_model(line, size, '\n', stream);
}

int __culprit_sym_w_ungetc(int character, FILE *stream)
{
    ENTER(__culprit_sym_w_ungetc, 2);
    int result = ungetc(character, stream);
    if (result != EOF && culprit_rt_sym_on()) {
        struct rt_sym_reader *reader = culprit_rt_sym_reader_stream(stream);
        if (reader && reader->offset > 0)
            reader->offset--;
    }
    culprit_rt_sym_return(0);
    return result;
}

/* ---- opening and closing ---- */

static int takes_mode(int flags)
{
#ifdef O_TMPFILE
    if ((flags & O_TMPFILE) == O_TMPFILE)
        return 1;
#endif
    return (flags & O_CREAT) != 0;
}

static int opened_descriptor(int fd, int flags)
{
    if (fd >= 0 && culprit_rt_sym_on()) {
        int saved = errno;
        culprit_rt_sym_opened(fd, NULL, (flags & O_ACCMODE) != O_WRONLY);
        errno = saved;
    }
    return fd;
}

int __culprit_sym_w_open(const char *path, int flags, ...)
{
    ENTER(__culprit_sym_w_open, 2);
    int mode = 0;
    if (takes_mode(flags)) {
        va_list list;
        va_start(list, flags);
        mode = va_arg(list, int);
        va_end(list);
    }
    return opened_descriptor(open(path, flags, mode), flags);
}

int __culprit_sym_w_open64(const char *path, int flags, ...)
{
    ENTER(__culprit_sym_w_open64, 2);
    int mode = 0;
    if (takes_mode(flags)) {
        va_list list;
        va_start(list, flags);
        mode = va_arg(list, int);
        va_end(list);
    }
    return opened_descriptor(open64(path, flags, mode), flags);
}

int __culprit_sym_w_openat(int directory, const char *path, int flags, ...)
{
    ENTER(__culprit_sym_w_openat, 3);
    int mode = 0;
    if (takes_mode(flags)) {
        va_list list;
        va_start(list, flags);
        mode = va_arg(list, int);
        va_end(list);
    }
    return opened_descriptor(openat(directory, path, flags, mode), flags);
}

static FILE *opened_stream(FILE *stream, const char *mode)
{
    if (stream && culprit_rt_sym_on()) {
        int saved = errno;
        int reading = 0;
        for (const char *c = mode; *c; c++)
            reading |= *c == 'r' || *c == '+';
        culprit_rt_sym_opened(fileno(stream), stream, reading);
        errno = saved;
    }
    return stream;
}

FILE *__culprit_sym_w_fopen(const char *path, const char *mode)
{
    ENTER(__culprit_sym_w_fopen, 2);
    return opened_stream(fopen(path, mode), mode);
}

FILE *__culprit_sym_w_fopen64(const char *path, const char *mode)
{
    ENTER(__culprit_sym_w_fopen64, 2);
    return opened_stream(fopen64(path, mode), mode);
}

FILE *__culprit_sym_w_fdopen(int fd, const char *mode)
{
    ENTER(__culprit_sym_w_fdopen, 2);
    FILE *stream = fdopen(fd, mode);
    if (stream && culprit_rt_sym_on())
        culprit_rt_sym_adopted(stream, fd);
    return stream;
}

int __culprit_sym_w_close(int fd)
{
    ENTER(__culprit_sym_w_close, 1);
    if (culprit_rt_sym_on())
        culprit_rt_sym_closed(fd, NULL);
    return close(fd);
}

int __culprit_sym_w_fclose(FILE *stream)
{
    ENTER(__culprit_sym_w_fclose, 1);
    if (stream && culprit_rt_sym_on())
        culprit_rt_sym_closed(fileno(stream), stream);
    return fclose(stream);
}
