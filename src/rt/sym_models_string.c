/*
 * sym_models_string.c - the wrappers of the number parsers and of the
 * memory and string functions (sym_models.h).
 *
 * strtol and friends: when the parsed text (from its sign or first digit to
 * where parsing stopped) is consecutive input bytes of one source, the
 * result is a typed field of that text; other symbolic text is concretized
 * (counted).  Copies move shadows.  Comparisons and searches over symbolic
 * bytes return expressions that make branches on their result meaningful,
 * over the positions the concrete run examined and at most
 * STRING_MODEL_MAX of them (past that the result is concrete and counted):
 *   strcmp / strncmp: ite(a0 != b0, a0 - b0, ite(a0 == 0, 0, ...)) up to
 *     the first difference, whose byte difference ends the chain;
 *   memcmp / bcmp: the same without the terminator tests;
 *   strlen / strnlen: ite(s0 == 0, 0, ite(s1 == 0, 1, ...)) up to the
 *     terminator;
 *   strchr / strrchr: the first (last) position equal to the character as
 *     a pointer constant, or NULL (strrchr does not re-test the length).
 * With a symbolic comparison the wrappers of strcmp, strncmp and memcmp
 * return the byte difference (glibc's value on x86-64; C promises only its
 * sign), so that the expression and the value agree.
 */
#include "rt/sym_internal.h"
#include "rt/sym_wrappers.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { STRING_MODEL_MAX = 64 };

#define ENTER(self, count)                                                                                   \
    culprit_sym_expr args[count];                                                                            \
    culprit_rt_sym_enter((const void *)(self), args, (count));                                               \
    (void)args

/* ---- typed fields ---- */

static uint32_t kind_of_base(const char *text, size_t length, int base, int is_unsigned, int *known)
{
    *known = 1;
    if (base == 10)
        return is_unsigned ? CULPRIT_SYM_FIELD_UNSIGNED : CULPRIT_SYM_FIELD_DECIMAL;
    if (base == 16)
        return CULPRIT_SYM_FIELD_HEX;
    if (base == 8)
        return CULPRIT_SYM_FIELD_OCTAL;
    if (base == 0) {
        size_t at = length > 0 && (text[0] == '+' || text[0] == '-');
        if (at + 1 < length && text[at] == '0' && (text[at + 1] == 'x' || text[at + 1] == 'X'))
            return CULPRIT_SYM_FIELD_HEX;
        if (at + 1 < length && text[at] == '0')
            return CULPRIT_SYM_FIELD_OCTAL;
        return is_unsigned ? CULPRIT_SYM_FIELD_UNSIGNED : CULPRIT_SYM_FIELD_DECIMAL;
    }
    *known = 0;
    return 0;
}

/* The field strtol(text, &end, base) parsed, 0 when concrete. */
static culprit_sym_expr number_field(const char *text, const char *end, int base, int is_unsigned)
{
    const char *start = text;
    while (start < end && isspace((unsigned char)*start))
        start++;
    if (end <= start)
        return 0;
    size_t length = (size_t)(end - start);
    int known;
    uint32_t kind = kind_of_base(start, length, base, is_unsigned, &known);
    if (!known) {
        if (culprit_rt_sym_shadow_any(start, length))
            culprit_rt_sym_count(CULPRIT_SYM_STAT_CONCRETIZED_OTHER);
        return 0;
    }
    return culprit_rt_sym_field_of_text(start, length, kind);
}

/* After a parse of text that stopped at stop: clears *end's shadow (libc
 * stored it) and returns the result's shadow at width bits. */
static culprit_sym_expr parsed(const char *text, char *stop, char **end, int base, int is_unsigned,
                               uint32_t bits)
{
    if (!culprit_rt_sym_on())
        return 0;
    int saved = errno;
    if (end)
        culprit_rt_sym_shadow_clear(end, sizeof *end);
    culprit_sym_expr field = number_field(text, stop, base, is_unsigned);
    errno = saved;
    return culprit_rt_sym_concrete_or(culprit_rt_sym_resize(field, bits));
}

long __culprit_sym_w_strtol(const char *text, char **end, int base)
{
    ENTER(__culprit_sym_w_strtol, 3);
    char *stop;
    long result = strtol(text, &stop, base);
    if (end)
        *end = stop;
    culprit_rt_sym_return(parsed(text, stop, end, base, 0, 64));
    return result;
}

unsigned long __culprit_sym_w_strtoul(const char *text, char **end, int base)
{
    ENTER(__culprit_sym_w_strtoul, 3);
    char *stop;
    unsigned long result = strtoul(text, &stop, base);
    if (end)
        *end = stop;
    culprit_rt_sym_return(parsed(text, stop, end, base, 1, 64));
    return result;
}

long long __culprit_sym_w_strtoll(const char *text, char **end, int base)
{
    ENTER(__culprit_sym_w_strtoll, 3);
    char *stop;
    long long result = strtoll(text, &stop, base);
    if (end)
        *end = stop;
    culprit_rt_sym_return(parsed(text, stop, end, base, 0, 64));
    return result;
}

unsigned long long __culprit_sym_w_strtoull(const char *text, char **end, int base)
{
    ENTER(__culprit_sym_w_strtoull, 3);
    char *stop;
    unsigned long long result = strtoull(text, &stop, base);
    if (end)
        *end = stop;
    culprit_rt_sym_return(parsed(text, stop, end, base, 1, 64));
    return result;
}

/* atoi and friends are strtol(text, NULL, 10) (glibc's definition). */
int __culprit_sym_w_atoi(const char *text)
{
    ENTER(__culprit_sym_w_atoi, 1);
    char *stop;
    int result = (int)strtol(text, &stop, 10);
    culprit_rt_sym_return(parsed(text, stop, NULL, 10, 0, 32));
    return result;
}

long __culprit_sym_w_atol(const char *text)
{
    ENTER(__culprit_sym_w_atol, 1);
    char *stop;
    long result = strtol(text, &stop, 10);
    culprit_rt_sym_return(parsed(text, stop, NULL, 10, 0, 64));
    return result;
}

long long __culprit_sym_w_atoll(const char *text)
{
    ENTER(__culprit_sym_w_atoll, 1);
    char *stop;
    long long result = strtoll(text, &stop, 10);
    culprit_rt_sym_return(parsed(text, stop, NULL, 10, 0, 64));
    return result;
}

/* ---- copies ---- */

void *__culprit_sym_w_memcpy(void *destination, const void *source, size_t size)
{
    ENTER(__culprit_sym_w_memcpy, 3);
    void *result = memcpy(destination, source, size);
    if (culprit_rt_sym_on())
        __culprit_sym_memcpy(destination, source, size);
    culprit_rt_sym_return(args[0]);
    return result;
}

void *__culprit_sym_w_memmove(void *destination, const void *source, size_t size)
{
    ENTER(__culprit_sym_w_memmove, 3);
    void *result = memmove(destination, source, size);
    if (culprit_rt_sym_on())
        __culprit_sym_memmove(destination, source, size);
    culprit_rt_sym_return(args[0]);
    return result;
}

void *__culprit_sym_w_memset(void *destination, int byte, size_t size)
{
    ENTER(__culprit_sym_w_memset, 3);
    void *result = memset(destination, byte, size);
    if (culprit_rt_sym_on())
        __culprit_sym_memset(destination, args[1], size);
    culprit_rt_sym_return(args[0]);
    return result;
}

char *__culprit_sym_w_strcpy(char *destination, const char *source)
{
    ENTER(__culprit_sym_w_strcpy, 2);
    size_t length = strlen(source);
    char *result = strcpy(destination, source);
    if (culprit_rt_sym_on())
        __culprit_sym_memmove(destination, source, length + 1);
    culprit_rt_sym_return(args[0]);
    return result;
}

char *__culprit_sym_w_strncpy(char *destination, const char *source, size_t size)
{
    ENTER(__culprit_sym_w_strncpy, 3);
    size_t length = strnlen(source, size);
    char *result = strncpy(destination, source, size);
    if (culprit_rt_sym_on()) {
        __culprit_sym_memmove(destination, source, length);
        culprit_rt_sym_shadow_clear(destination + length, size - length);
    }
    culprit_rt_sym_return(args[0]);
    return result;
}

char *__culprit_sym_w_strcat(char *destination, const char *source)
{
    ENTER(__culprit_sym_w_strcat, 2);
    size_t start = strlen(destination), length = strlen(source);
    char *result = strcat(destination, source);
    if (culprit_rt_sym_on())
        __culprit_sym_memmove(destination + start, source, length + 1);
    culprit_rt_sym_return(args[0]);
    return result;
}

char *__culprit_sym_w_strdup(const char *text)
{
    ENTER(__culprit_sym_w_strdup, 1);
    char *result = strdup(text);
    if (result && culprit_rt_sym_on())
        __culprit_sym_memcpy(result, text, strlen(text) + 1);
    return result;
}

/* ---- comparisons and searches ---- */

/* The byte at text + i as an expression (a constant when concrete). */
static culprit_sym_expr byte_at(const void *text, size_t i)
{
    const unsigned char *bytes = text;
    return culprit_rt_sym_or_const(culprit_rt_sym_shadow_byte(bytes + i), bytes[i], 8);
}

static culprit_sym_expr equal(culprit_sym_expr a, culprit_sym_expr b)
{
    return culprit_rt_sym_op2(CULPRIT_SYM_EQ, a, b);
}

static culprit_sym_expr difference(culprit_sym_expr a, culprit_sym_expr b)
{
    return culprit_rt_sym_op2(CULPRIT_SYM_SUB, culprit_rt_sym_cast(CULPRIT_SYM_ZEXT, a, 32),
                              culprit_rt_sym_cast(CULPRIT_SYM_ZEXT, b, 32));
}

/* The comparison of a and b over [0, last]: last is where the concrete
 * run stopped (first difference, terminator, or the limit when equal:
 * then through is 0 and the end is "equal").  nul: stop at terminators. */
static culprit_sym_expr comparison(const void *a, const void *b, size_t last, int through, int nul)
{
    if (last >= STRING_MODEL_MAX) {
        culprit_rt_sym_count(CULPRIT_SYM_STAT_CONCRETIZED_OTHER);
        return 0;
    }
    culprit_sym_expr zero = culprit_rt_sym_const(0, 8), result;
    if (through)
        result = difference(byte_at(a, last), byte_at(b, last));
    else
        result = culprit_rt_sym_const(0, 32);
    for (size_t i = last + (through ? 0 : 1); i-- > 0;) {
        culprit_sym_expr x = byte_at(a, i), y = byte_at(b, i);
        if (nul)
            result = culprit_rt_sym_ite(equal(x, zero), culprit_rt_sym_const(0, 32), result);
        result = culprit_rt_sym_ite(equal(x, y), result, difference(x, y));
    }
    return culprit_rt_sym_concrete_or(result);
}

static int byte_difference(const void *a, const void *b, size_t i)
{
    return (int)((const unsigned char *)a)[i] - (int)((const unsigned char *)b)[i];
}

/* strcmp's or strncmp's model; limit SIZE_MAX for strcmp. */
static int compare_strings(const char *a, const char *b, size_t limit, int result)
{
    size_t i = 0;
    while (i < limit && a[i] == b[i] && a[i])
        i++;
    int through = i < limit;
    size_t examined = through ? i + 1 : i;
    culprit_sym_expr shadow = 0;
    if (culprit_rt_sym_on() &&
        (culprit_rt_sym_shadow_any(a, examined) || culprit_rt_sym_shadow_any(b, examined)))
        shadow = comparison(a, b, through ? i : i - 1, through, 1);
    culprit_rt_sym_return(shadow);
    return shadow && through ? byte_difference(a, b, i) : result;
}

int __culprit_sym_w_strcmp(const char *a, const char *b)
{
    ENTER(__culprit_sym_w_strcmp, 2);
    return compare_strings(a, b, SIZE_MAX, strcmp(a, b));
}

int __culprit_sym_w_strncmp(const char *a, const char *b, size_t limit)
{
    ENTER(__culprit_sym_w_strncmp, 3);
    int result = strncmp(a, b, limit);
    if (limit == 0)
        return result;
    return compare_strings(a, b, limit, result);
}

static int compare_memory(const void *a, const void *b, size_t size, int result)
{
    const unsigned char *x = a, *y = b;
    size_t i = 0;
    while (i < size && x[i] == y[i])
        i++;
    int through = i < size;
    size_t examined = through ? i + 1 : i;
    culprit_sym_expr shadow = 0;
    if (size > 0 && culprit_rt_sym_on() &&
        (culprit_rt_sym_shadow_any(a, examined) || culprit_rt_sym_shadow_any(b, examined)))
        shadow = comparison(a, b, through ? i : i - 1, through, 0);
    culprit_rt_sym_return(shadow);
    return shadow && through ? byte_difference(a, b, i) : result;
}

int __culprit_sym_w_memcmp(const void *a, const void *b, size_t size)
{
    ENTER(__culprit_sym_w_memcmp, 3);
    return compare_memory(a, b, size, memcmp(a, b, size));
}

int __culprit_sym_w_bcmp(const void *a, const void *b, size_t size)
{
    ENTER(__culprit_sym_w_bcmp, 3);
    int result = bcmp(a, b, size);
    int model = compare_memory(a, b, size, result);
    return (model != 0) == (result != 0) ? result : model; /* bcmp promises only zero or not */
}

/* strlen's model up to length (the concrete result); bounded: the
 * terminator is tested only when it was found (not at strnlen's limit). */
static culprit_sym_expr length_model(const char *text, size_t length, int terminated)
{
    size_t examined = length + (terminated ? 1 : 0);
    if (!culprit_rt_sym_on() || !culprit_rt_sym_shadow_any(text, examined))
        return 0;
    if (examined > STRING_MODEL_MAX) {
        culprit_rt_sym_count(CULPRIT_SYM_STAT_CONCRETIZED_OTHER);
        return 0;
    }
    culprit_sym_expr zero = culprit_rt_sym_const(0, 8);
    culprit_sym_expr result = culprit_rt_sym_const(length, 64);
    if (terminated)
        result = culprit_rt_sym_ite(equal(byte_at(text, length), zero), result,
                                    culprit_rt_sym_const(length + 1, 64));
    for (size_t i = length; i-- > 0;)
        result = culprit_rt_sym_ite(equal(byte_at(text, i), zero), culprit_rt_sym_const(i, 64), result);
    return culprit_rt_sym_concrete_or(result);
}

size_t __culprit_sym_w_strlen(const char *text)
{
    ENTER(__culprit_sym_w_strlen, 1);
    size_t length = strlen(text);
    culprit_rt_sym_return(length_model(text, length, 1));
    return length;
}

size_t __culprit_sym_w_strnlen(const char *text, size_t limit)
{
    ENTER(__culprit_sym_w_strnlen, 2);
    size_t length = strnlen(text, limit);
    culprit_rt_sym_return(length_model(text, length, length < limit));
    return length;
}

/* The searched character as an 8-bit expression. */
static culprit_sym_expr searched(culprit_sym_expr shadow, int character)
{
    return shadow ? culprit_rt_sym_extract(culprit_rt_sym_resize(shadow, 32), 0, 8)
                  : culprit_rt_sym_const((unsigned char)character, 8);
}

static culprit_sym_expr pointer_to(const char *text, size_t i)
{
    return culprit_rt_sym_const((uintptr_t)(text + i), 64);
}

char *__culprit_sym_w_strchr(const char *text, int character)
{
    ENTER(__culprit_sym_w_strchr, 2);
    char *result = strchr(text, character);
    if (!culprit_rt_sym_on())
        return result;
    size_t last = 0;
    while (text[last] != (char)character && text[last])
        last++;
    if (!args[1] && !culprit_rt_sym_shadow_any(text, last + 1))
        return result;
    if (last >= STRING_MODEL_MAX) {
        culprit_rt_sym_count(CULPRIT_SYM_STAT_CONCRETIZED_OTHER);
        return result;
    }
    culprit_sym_expr wanted = searched(args[1], character), zero = culprit_rt_sym_const(0, 8);
    culprit_sym_expr model = culprit_rt_sym_ite(equal(byte_at(text, last), wanted), pointer_to(text, last),
                                                culprit_rt_sym_const(0, 64));
    for (size_t i = last; i-- > 0;)
        model = culprit_rt_sym_ite(
            equal(byte_at(text, i), wanted), pointer_to(text, i),
            culprit_rt_sym_ite(equal(byte_at(text, i), zero), culprit_rt_sym_const(0, 64), model));
    culprit_rt_sym_return(culprit_rt_sym_concrete_or(model));
    return result;
}

char *__culprit_sym_w_strrchr(const char *text, int character)
{
    ENTER(__culprit_sym_w_strrchr, 2);
    char *result = strrchr(text, character);
    if (!culprit_rt_sym_on())
        return result;
    size_t length = strlen(text);
    if (!args[1] && !culprit_rt_sym_shadow_any(text, length + 1))
        return result;
    if (length >= STRING_MODEL_MAX) {
        culprit_rt_sym_count(CULPRIT_SYM_STAT_CONCRETIZED_OTHER);
        return result;
    }
    culprit_sym_expr wanted = searched(args[1], character);
    culprit_sym_expr model = culprit_rt_sym_ite(equal(byte_at(text, length), wanted),
                                                pointer_to(text, length), culprit_rt_sym_const(0, 64));
    for (size_t i = 0; i < length; i++)
        model = culprit_rt_sym_ite(equal(byte_at(text, i), wanted), pointer_to(text, i), model);
    culprit_rt_sym_return(culprit_rt_sym_concrete_or(model));
    return result;
}
