/*
 * gentext.c - writes deterministic, prose-like text for the compression
 * workloads of bench/overhead.sh: log lines and sentences over a skewed
 * vocabulary, with numbers and punctuation, so that gzip and bzip2 see data
 * about as compressible as real text (roughly 3:1), not random bytes or runs.
 *
 * usage: gentext MEGABYTES > file
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t state = 0x2545f4914f6cdd1du;

static uint64_t next(void)
{
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 0x2545f4914f6cdd1du;
}

static const char *const words[] = {
    "the", "of", "and", "to", "in", "a", "is", "that", "for", "it", "as", "was", "with", "be", "by",
    "on", "not", "he", "this", "are", "or", "his", "from", "at", "which", "but", "have", "an", "had",
    "they", "you", "were", "their", "one", "all", "we", "can", "her", "has", "there", "been", "if",
    "more", "when", "will", "would", "who", "so", "no", "server", "request", "failed", "returned",
    "connection", "timeout", "buffer", "length", "value", "module", "kernel", "process", "thread",
    "memory", "allocation", "pointer", "function", "compiler", "instrumented", "coverage", "branch",
    "counter", "localization", "suspicious", "statement", "failing", "passing", "spectrum", "ranking"};

int main(int argc, char **argv)
{
    long megabytes = argc > 1 ? atol(argv[1]) : 8;
    long limit = megabytes * 1024 * 1024, written = 0;
    size_t count = sizeof words / sizeof words[0];
    while (written < limit) {
        uint64_t r = next();
        if (r % 4 == 0) { /* a log line */
            written += printf("2026-11-%02u %02u:%02u:%02u [%s] pid=%u %s %s: code %u\n",
                              (unsigned)(1 + r % 28), (unsigned)(r >> 8) % 24, (unsigned)(r >> 16) % 60,
                              (unsigned)(r >> 24) % 60, (r >> 32) % 5 ? "info" : "error",
                              (unsigned)(1000 + (r >> 36) % 30000), words[49 + (r >> 40) % 29],
                              words[49 + (r >> 48) % 29], (unsigned)(r >> 56));
            continue;
        }
        int length = 6 + (int)(r % 14);
        for (int i = 0; i < length; i++) {
            uint64_t w = next();
            /* skewed: the product of two uniforms favours small indices */
            size_t index = (size_t)((w & 0xff) * ((w >> 8) & 0xff) * count / 65536);
            const char *word = words[index];
            if (i == 0)
                written += printf("%c%s", word[0] - 'a' + 'A', word + 1);
            else
                written += printf(" %s", word);
        }
        written += printf(r % 3 ? ".\n" : ", %lu.\n", (unsigned long)(r >> 40));
    }
    return 0;
}
