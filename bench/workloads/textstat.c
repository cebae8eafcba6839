/*
 * textstat.c - an input-processing workload for bench/symbolic_overhead.sh:
 * reads text from standard input a line at a time and prints how many
 * lines, words and digits it holds, the sum of the integers in it, the
 * longest line, a hash of all the words and the most frequent word bucket.
 *
 * Written to exercise what symbolic mode pays for on every input byte:
 * fgets and strtol are modelled functions (bytes and typed fields), each
 * byte goes through comparisons (branch constraints), a hash (a chain of
 * symbolic arithmetic) and a table index (a symbolic address, concretized).
 * Character classes are explicit comparisons, not <ctype.h>, so that they
 * stay symbolic.
 *
 * usage: textstat < text
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BUCKETS = 1024, LINE_MAX_BYTES = 8192 };

typedef struct totals {
    unsigned long lines, words, digits, longest;
    long long sum;
    unsigned hash;
    unsigned buckets[BUCKETS];
} totals;

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* One word starting at text: hashed (FNV-1a), counted in its bucket;
 * returns its length. */
static size_t word(totals *t, const char *text)
{
    unsigned hash = 2166136261u;
    size_t n = 0;
    while (text[n] && !is_blank(text[n])) {
        hash = (hash ^ (unsigned char)text[n]) * 16777619u;
        if (is_digit(text[n]))
            t->digits++;
        n++;
    }
    t->buckets[hash % BUCKETS]++;
    t->hash = t->hash * 31u + hash;
    t->words++;
    return n;
}

static void line(totals *t, char *text)
{
    size_t length = strlen(text);
    if (length > t->longest)
        t->longest = length;
    t->lines++;
    char *at = text;
    while (*at) {
        if (is_blank(*at)) {
            at++;
            continue;
        }
        if (is_digit(*at) || ((*at == '-' || *at == '+') && is_digit(at[1]))) {
            char *end;
            t->sum += strtol(at, &end, 10);
            if (*end && !is_blank(*end))
                t->sum += 1; /* a number glued to a word: "12th" */
        }
        at += word(t, at);
    }
}

int main(void)
{
    static totals t;
    static char buffer[LINE_MAX_BYTES];
    while (fgets(buffer, sizeof buffer, stdin))
        line(&t, buffer);
    unsigned most = 0;
    for (unsigned i = 1; i < BUCKETS; i++)
        if (t.buckets[i] > t.buckets[most])
            most = i;
    printf("lines %lu words %lu digits %lu longest %lu sum %lld hash %08x bucket %u (%u)\n", t.lines, t.words,
           t.digits, t.longest, t.sum, t.hash, most, t.buckets[most]);
    return 0;
}
