/* token stream coder: literal blocks, runs of equal bytes, and matches
 * that copy earlier output (LZ77 style) */
#include "codec.h"

#include <stdio.h>
#include <stdlib.h>

void buf_init(struct buffer *b)
{
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
}

int buf_put(struct buffer *b, unsigned char c)
{
    if (b->len == b->cap) {
        size_t ncap = b->cap ? b->cap * 2 : 256;
        unsigned char *nd = realloc(b->data, ncap);
        if (!nd)
            return -1;
        b->data = nd;
        b->cap = ncap;
    }
    b->data[b->len++] = c;
    return 0;
}

void buf_free(struct buffer *b)
{
    free(b->data);
    buf_init(b);
}

unsigned long checksum(const unsigned char *data, size_t n)
{
    unsigned long a = 1, b = 0;
    size_t i;
    for (i = 0; i < n; i++) {
        a = (a + data[i]) % 65521;
        b = (b + a) % 65521;
    }
    return (b << 16) | a;
}

const char *codec_message(enum codec_error e)
{
    switch (e) {
    case OK:
        return "ok";
    case ERR_TRUNCATED:
        return "truncated token";
    case ERR_DISTANCE:
        return "match distance out of range";
    case ERR_MEMORY:
        return "out of memory";
    }
    return "unknown error";
}

static size_t run_length(const unsigned char *in, size_t n, size_t i)
{
    size_t r = 1;
    while (i + r < n && in[i + r] == in[i] && r < RUN_MAX)
        r++;
    return r;
}

/* longest earlier match for position i; returns its length, sets *dist */
static size_t find_match(const unsigned char *in, size_t n, size_t i,
                         const struct params *p, size_t *dist)
{
    size_t best = 0, d, maxd = (size_t)p->window;
    size_t maxlen = (size_t)p->minmatch + 63;
    if (maxd > i)
        maxd = i;
    *dist = 0;
    for (d = 1; d <= maxd; d++) {
        size_t k = 0;
        while (i + k < n && k < maxlen && in[i + k - d] == in[i + k])
            k++;
        if (k > best) {
            best = k;
            *dist = d;
        }
    }
    return best;
}

static void print_bytes(const unsigned char *s, size_t n)
{
    size_t i;
    putchar('"');
    for (i = 0; i < n; i++) {
        if (s[i] == '"' || s[i] == '\\')
            printf("\\%c", s[i]);
        else if (s[i] >= 32 && s[i] < 127)
            putchar(s[i]);
        else
            printf("\\x%02x", s[i]);
    }
    putchar('"');
}

static int flush_literals(const unsigned char *lit, size_t n,
                          const struct params *p, struct buffer *out,
                          struct stats *st)
{
    size_t i;
    if (n == 0)
        return 0;
    st->literal_blocks++;
    st->literals += n;
    if (p->dump) {
        printf("LIT %zu ", n);
        print_bytes(lit, n);
        putchar('\n');
        return 0;
    }
    if (buf_put(out, (unsigned char)(n - 1)))
        return -1;
    for (i = 0; i < n; i++)
        if (buf_put(out, lit[i]))
            return -1;
    return 0;
}

int compress(const unsigned char *in, size_t n, const struct params *p,
             struct buffer *out, struct stats *st)
{
    size_t i = 0, start = 0;
    while (i < n) {
        size_t dist;
        size_t run = p->runs ? run_length(in, n, i) : 0;
        size_t len = find_match(in, n, i, p, &dist);
        if (run >= RUN_MIN && run >= len) {
            if (flush_literals(in + start, i - start, p, out, st))
                return -1;
            st->runs++;
            st->run_bytes += run;
            if (p->dump) {
                printf("RUN %zu 0x%02x\n", run, in[i]);
            } else if (buf_put(out, (unsigned char)(0x80 | (run - RUN_MIN))) ||
                       buf_put(out, in[i])) {
                return -1;
            }
            i += run;
            start = i;
        } else if (len >= (size_t)p->minmatch) {
            if (flush_literals(in + start, i - start, p, out, st))
                return -1;
            st->matches++;
            st->match_bytes += len;
            if (len > st->longest)
                st->longest = len;
            if (dist > st->farthest)
                st->farthest = dist;
            if (p->dump) {
                printf("MATCH %zu back %zu\n", len, dist);
            } else if (buf_put(out, (unsigned char)(0xC0 | (len - p->minmatch))) ||
                       buf_put(out, (unsigned char)(dist >> 8)) ||
                       buf_put(out, (unsigned char)(dist & 0xFF))) {
                return -1;
            }
            i += len;
            start = i;
        } else {
            i++;
            if (i - start == LIT_MAX) {
                if (flush_literals(in + start, i - start, p, out, st))
                    return -1;
                start = i;
            }
        }
    }
    return flush_literals(in + start, i - start, p, out, st);
}

enum codec_error decompress(const unsigned char *in, size_t n, int minmatch,
                            struct buffer *out)
{
    size_t i = 0;
    while (i < n) {
        unsigned char c = in[i++];
        if (c < 0x80) {
            size_t len = (size_t)c + 1, k;
            if (i + len > n)
                return ERR_TRUNCATED;
            for (k = 0; k < len; k++)
                if (buf_put(out, in[i + k]))
                    return ERR_MEMORY;
            i += len;
        } else if (c < 0xC0) {
            size_t len = (size_t)(c & 0x3F) + RUN_MIN, k;
            if (i >= n)
                return ERR_TRUNCATED;
            for (k = 0; k < len; k++)
                if (buf_put(out, in[i]))
                    return ERR_MEMORY;
            i++;
        } else {
            size_t len = (size_t)(c & 0x3F) + (size_t)minmatch, dist, k;
            if (i + 2 > n)
                return ERR_TRUNCATED;
            dist = ((size_t)in[i] << 8) | in[i + 1];
            i += 2;
            if (dist == 0 || dist > out->len)
                return ERR_DISTANCE;
            for (k = 0; k < len; k++)
                if (buf_put(out, out->data[out->len - dist]))
                    return ERR_MEMORY;
        }
    }
    return OK;
}
