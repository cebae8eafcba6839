/* tokenizer: splits a small C-like language into tokens and prints them */
#include "lexer.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_IDENTS 512

struct ident {
    char name[TEXT_MAX];
    int count;
    int first_line;
};

struct options {
    int keep_comments;
    int positions;
    int summary_only;
    int tabwidth;
    int stop_on_error;
    int ident_table;
};

static struct ident idents[MAX_IDENTS];
static int nidents;
static int ident_overflow;

static void usage(void)
{
    printf("usage: tokenizer [-c] [-n] [-s] [-e] [-i] [-t TABWIDTH]\n");
}

static char *read_all(FILE *fp, size_t *size)
{
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    int c;
    if (!buf)
        return NULL;
    while ((c = getc(fp)) != EOF) {
        if (n + 1 >= cap) {
            char *nb;
            cap *= 2;
            nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                return NULL;
            }
            buf = nb;
        }
        buf[n++] = (char)c;
    }
    buf[n] = '\0';
    *size = n;
    return buf;
}

/* prints token text with non-printable characters made visible */
static void print_text(const struct token *tok)
{
    size_t i;
    for (i = 0; i < tok->len; i++) {
        unsigned char c = (unsigned char)tok->text[i];
        if (c == '\n')
            fputs("\\n", stdout);
        else if (c == '\t')
            fputs("\\t", stdout);
        else if (c < 32 || c >= 127)
            printf("\\%03o", c);
        else
            putchar(c);
    }
}

static void print_token(const struct token *tok, const struct options *opt)
{
    if (opt->positions)
        printf("%d:%d ", tok->line, tok->col);
    printf("%s ", kind_name(tok->kind));
    print_text(tok);
    switch (tok->kind) {
    case K_INT:
        printf(" =%ld", tok->ival);
        break;
    case K_CHAR:
        printf(" =%ld", tok->ival);
        break;
    case K_FLOAT:
        printf(" =%g", tok->fval);
        break;
    case K_STRING:
        printf(" len=%zu", tok->slen);
        break;
    case K_ERROR:
        printf(" (%s)", tok->msg);
        break;
    default:
        break;
    }
    putchar('\n');
}

static void record_ident(const struct token *tok)
{
    int i;
    for (i = 0; i < nidents; i++) {
        if (strcmp(idents[i].name, tok->text) == 0) {
            idents[i].count++;
            return;
        }
    }
    if (nidents == MAX_IDENTS) {
        ident_overflow = 1;
        return;
    }
    strcpy(idents[nidents].name, tok->text);
    idents[nidents].count = 1;
    idents[nidents].first_line = tok->line;
    nidents++;
}

static int ident_cmp(const void *a, const void *b)
{
    const struct ident *x = a, *y = b;
    if (x->count != y->count)
        return y->count - x->count;
    return strcmp(x->name, y->name);
}

static void print_idents(void)
{
    int i;
    qsort(idents, (size_t)nidents, sizeof idents[0], ident_cmp);
    printf("identifiers: %d distinct\n", nidents);
    for (i = 0; i < nidents; i++)
        printf("  %-16s %4d  (first on line %d)\n", idents[i].name,
               idents[i].count, idents[i].first_line);
    if (ident_overflow)
        printf("  (table full, some identifiers not counted)\n");
}

static void print_summary(const long *counts, int lines)
{
    int k;
    long total = 0;
    for (k = K_KEYWORD; k < K_COUNT; k++)
        total += counts[k];
    printf("lines: %d\n", lines);
    printf("tokens: %ld\n", total - counts[K_ERROR]);
    for (k = K_KEYWORD; k < K_COUNT; k++)
        if (counts[k] > 0)
            printf("  %-8s %ld\n", kind_name((enum kind)k), counts[k]);
}

static int parse_options(int argc, char **argv, struct options *opt)
{
    int i;
    opt->keep_comments = 0;
    opt->positions = 1;
    opt->summary_only = 0;
    opt->tabwidth = 8;
    opt->stop_on_error = 0;
    opt->ident_table = 0;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-c") == 0) {
            opt->keep_comments = 1;
        } else if (strcmp(a, "-n") == 0) {
            opt->positions = 0;
        } else if (strcmp(a, "-s") == 0) {
            opt->summary_only = 1;
        } else if (strcmp(a, "-e") == 0) {
            opt->stop_on_error = 1;
        } else if (strcmp(a, "-i") == 0) {
            opt->ident_table = 1;
        } else if (strcmp(a, "-t") == 0) {
            char *end;
            long w;
            if (i + 1 >= argc) {
                printf("tokenizer: -t needs a value\n");
                return -1;
            }
            w = strtol(argv[++i], &end, 10);
            if (*end != '\0' || w < 1 || w > 16) {
                printf("tokenizer: bad tab width '%s'\n", argv[i]);
                return -1;
            }
            opt->tabwidth = (int)w;
        } else {
            printf("tokenizer: unknown option '%s'\n", a);
            return -1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct options opt;
    struct lexer lx;
    struct token tok;
    long counts[K_COUNT] = {0};
    size_t size;
    char *src;
    int errors = 0;

    if (parse_options(argc, argv, &opt) != 0) {
        usage();
        return 2;
    }
    src = read_all(stdin, &size);
    if (!src) {
        printf("tokenizer: out of memory\n");
        return 2;
    }
    lexer_init(&lx, src, size, opt.tabwidth, opt.keep_comments);
    while (lexer_next(&lx, &tok)) {
        counts[tok.kind]++;
        if (tok.kind == K_IDENT)
            record_ident(&tok);
        if (!opt.summary_only)
            print_token(&tok, &opt);
        if (tok.kind == K_ERROR) {
            errors++;
            if (opt.stop_on_error)
                break;
        }
    }
    if (!opt.summary_only && tok.kind == K_EOF)
        print_token(&tok, &opt);
    if (opt.summary_only)
        print_summary(counts, lx.line);
    if (opt.ident_table)
        print_idents();
    if (errors > 0) {
        printf("%d lexical error%s\n", errors, errors == 1 ? "" : "s");
        free(src);
        return 1;
    }
    free(src);
    return 0;
}
