/* rlezip: run-length and LZ77-style compressor with a text (hex) encoding
 *   rlezip -c   compress stdin, write the encoding to stdout
 *   rlezip -d   decode stdin, write the original bytes to stdout
 *   rlezip -t   compress, decode again, compare and print statistics
 *   rlezip -x   print the token stream in readable form */
#include "codec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC "RLZ1"

struct options {
    int mode;  /* 'c', 'd', 't' or 'x' */
    int width; /* encoded bytes per output line */
    struct params params;
};

static const char hexdigits[] = "0123456789abcdef";

static void usage(void)
{
    printf("usage: rlezip -c|-d|-t|-x [-w WINDOW] [-m MINMATCH] [-l WIDTH] "
           "[-R]\n");
}

static int read_input(FILE *fp, struct buffer *b)
{
    int c;
    while ((c = getc(fp)) != EOF)
        if (buf_put(b, (unsigned char)c))
            return -1;
    return 0;
}

/* writes the header and the token stream as lines of hex digits */
static int encode_text(const struct buffer *tokens, size_t origlen,
                       unsigned long sum, const struct options *o,
                       struct buffer *text)
{
    char header[96];
    size_t i;
    int n = snprintf(header, sizeof header, "%s %d %d %zu %08lx\n", MAGIC,
                     o->params.window, o->params.minmatch, origlen, sum);
    for (i = 0; i < (size_t)n; i++)
        if (buf_put(text, (unsigned char)header[i]))
            return -1;
    for (i = 0; i < tokens->len; i++) {
        unsigned char c = tokens->data[i];
        if (buf_put(text, (unsigned char)hexdigits[c >> 4]) ||
            buf_put(text, (unsigned char)hexdigits[c & 15]))
            return -1;
        if ((i + 1) % (size_t)o->width == 0 || i + 1 == tokens->len)
            if (buf_put(text, '\n'))
                return -1;
    }
    return 0;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

struct header {
    int window;
    int minmatch;
    unsigned long length;
    unsigned long sum;
};

/* parses the header line; returns the offset of the hex text or -1 */
static long parse_header(const struct buffer *text, struct header *h)
{
    char line[96];
    size_t i = 0;
    char magic[8];
    while (i < text->len && text->data[i] != '\n') {
        if (i + 1 >= sizeof line)
            return -1;
        line[i] = (char)text->data[i];
        i++;
    }
    if (i == text->len)
        return -1;
    line[i] = '\0';
    if (sscanf(line, "%7s %d %d %lu %lx", magic, &h->window, &h->minmatch,
               &h->length, &h->sum) != 5)
        return -1;
    if (strcmp(magic, MAGIC) != 0)
        return -1;
    if (h->minmatch < 2 || h->minmatch > 8 || h->window < 1 ||
        h->window > WINDOW_MAX)
        return -1;
    return (long)i + 1;
}

static int fail(const char *msg)
{
    printf("rlezip: error: %s\n", msg);
    return 1;
}

/* decodes text into out; returns 0 or prints an error and returns 1 */
static int decode_text(const struct buffer *text, struct buffer *out)
{
    struct header h;
    struct buffer tokens;
    long start = parse_header(text, &h);
    size_t i;
    int hi = -1;
    enum codec_error e;

    if (start < 0)
        return fail("bad header");
    buf_init(&tokens);
    for (i = (size_t)start; i < text->len; i++) {
        int c = text->data[i];
        int v;
        if (c == '\n' || c == ' ' || c == '\r' || c == '\t')
            continue;
        v = hexval(c);
        if (v < 0) {
            buf_free(&tokens);
            return fail("bad hex digit");
        }
        if (hi < 0) {
            hi = v;
        } else {
            if (buf_put(&tokens, (unsigned char)(hi << 4 | v))) {
                buf_free(&tokens);
                return fail("out of memory");
            }
            hi = -1;
        }
    }
    if (hi >= 0) {
        buf_free(&tokens);
        return fail("odd number of hex digits");
    }
    e = decompress(tokens.data, tokens.len, h.minmatch, out);
    buf_free(&tokens);
    if (e != OK)
        return fail(codec_message(e));
    if (out->len != h.length)
        return fail("length mismatch");
    if (checksum(out->data, out->len) != h.sum)
        return fail("checksum mismatch");
    return 0;
}

static void print_stats(const struct stats *st, size_t inlen, size_t toklen,
                        size_t textlen)
{
    printf("input: %zu bytes\n", inlen);
    printf("tokens: %zu bytes\n", toklen);
    printf("text: %zu bytes\n", textlen);
    if (inlen > 0)
        printf("ratio: %.3f\n", (double)toklen / (double)inlen);
    else
        printf("ratio: -\n");
    printf("literals: %zu in %zu blocks\n", st->literals, st->literal_blocks);
    printf("runs: %zu covering %zu bytes\n", st->runs, st->run_bytes);
    printf("matches: %zu covering %zu bytes", st->matches, st->match_bytes);
    if (st->matches > 0)
        printf(", longest %zu, farthest %zu", st->longest, st->farthest);
    putchar('\n');
}

static int parse_number(const char *s, int lo, int hi, int *out)
{
    char *end;
    long v;
    if (!s)
        return -1;
    v = strtol(s, &end, 10);
    if (*end != '\0' || end == s || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

static int parse_options(int argc, char **argv, struct options *o)
{
    int i;
    o->mode = 0;
    o->width = 32;
    o->params.window = 1024;
    o->params.minmatch = 3;
    o->params.runs = 1;
    o->params.dump = 0;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-c") == 0 || strcmp(a, "-d") == 0 ||
            strcmp(a, "-t") == 0 || strcmp(a, "-x") == 0) {
            if (o->mode && o->mode != a[1]) {
                printf("rlezip: conflicting modes\n");
                return -1;
            }
            o->mode = a[1];
        } else if (strcmp(a, "-R") == 0) {
            o->params.runs = 0;
        } else if (strcmp(a, "-w") == 0) {
            if (parse_number(argv[++i], 1, WINDOW_MAX, &o->params.window)) {
                printf("rlezip: window must be 1..%d\n", WINDOW_MAX);
                return -1;
            }
        } else if (strcmp(a, "-m") == 0) {
            if (parse_number(argv[++i], 2, 8, &o->params.minmatch)) {
                printf("rlezip: minimum match must be 2..8\n");
                return -1;
            }
        } else if (strcmp(a, "-l") == 0) {
            if (parse_number(argv[++i], 1, 64, &o->width)) {
                printf("rlezip: line width must be 1..64\n");
                return -1;
            }
        } else {
            printf("rlezip: unknown option %s\n", a);
            return -1;
        }
    }
    if (!o->mode) {
        printf("rlezip: no mode given\n");
        return -1;
    }
    return 0;
}

static int round_trip(const struct buffer *in, const struct options *o)
{
    struct buffer tokens, text, back;
    struct stats st;
    int status = 0;

    memset(&st, 0, sizeof st);
    buf_init(&tokens);
    buf_init(&text);
    buf_init(&back);
    if (compress(in->data, in->len, &o->params, &tokens, &st) ||
        encode_text(&tokens, in->len, checksum(in->data, in->len), o, &text)) {
        status = fail("out of memory");
    } else {
        print_stats(&st, in->len, tokens.len, text.len);
        if (decode_text(&text, &back) != 0) {
            status = 1;
        } else if (back.len != in->len ||
                   (in->len > 0 && memcmp(back.data, in->data, in->len) != 0)) {
            printf("round trip: MISMATCH\n");
            status = 1;
        } else {
            printf("round trip: ok\n");
        }
    }
    buf_free(&tokens);
    buf_free(&text);
    buf_free(&back);
    return status;
}

int main(int argc, char **argv)
{
    struct options o;
    struct buffer in, out;
    struct stats st;
    int status = 0;

    if (parse_options(argc, argv, &o) != 0) {
        usage();
        return 2;
    }
    buf_init(&in);
    buf_init(&out);
    memset(&st, 0, sizeof st);
    if (read_input(stdin, &in) != 0)
        return fail("out of memory");
    switch (o.mode) {
    case 'c': {
        struct buffer text;
        buf_init(&text);
        if (compress(in.data, in.len, &o.params, &out, &st) ||
            encode_text(&out, in.len, checksum(in.data, in.len), &o, &text)) {
            status = fail("out of memory");
        } else {
            fwrite(text.data, 1, text.len, stdout);
        }
        buf_free(&text);
        break;
    }
    case 'x':
        o.params.dump = 1;
        status = compress(in.data, in.len, &o.params, &out, &st);
        printf("%zu literals, %zu runs, %zu matches\n", st.literals, st.runs,
               st.matches);
        break;
    case 'd':
        status = decode_text(&in, &out);
        if (status == 0)
            fwrite(out.data, 1, out.len, stdout);
        break;
    case 't':
        status = round_trip(&in, &o);
        break;
    }
    buf_free(&in);
    buf_free(&out);
    return status;
}
