#ifndef CODEC_H
#define CODEC_H

#include <stddef.h>

#define RUN_MIN 4
#define RUN_MAX (RUN_MIN + 63)
#define LIT_MAX 128
#define WINDOW_MAX 4096

struct buffer {
    unsigned char *data;
    size_t len;
    size_t cap;
};

struct params {
    int window;   /* how far back matches may reach */
    int minmatch; /* shortest match worth encoding */
    int runs;     /* encode runs of equal bytes */
    int dump;     /* print tokens instead of encoding */
};

struct stats {
    size_t literals;
    size_t literal_blocks;
    size_t runs;
    size_t run_bytes;
    size_t matches;
    size_t match_bytes;
    size_t longest;
    size_t farthest;
};

enum codec_error {
    OK = 0,
    ERR_TRUNCATED,
    ERR_DISTANCE,
    ERR_MEMORY
};

void buf_init(struct buffer *b);
int buf_put(struct buffer *b, unsigned char c);
void buf_free(struct buffer *b);

int compress(const unsigned char *in, size_t n, const struct params *p,
             struct buffer *out, struct stats *st);
enum codec_error decompress(const unsigned char *in, size_t n, int minmatch,
                            struct buffer *out);
unsigned long checksum(const unsigned char *data, size_t n);
const char *codec_message(enum codec_error e);

#endif
