#ifndef LEXER_H
#define LEXER_H

#include <stddef.h>

enum kind {
    K_EOF,
    K_KEYWORD,
    K_IDENT,
    K_INT,
    K_FLOAT,
    K_CHAR,
    K_STRING,
    K_OP,
    K_PUNCT,
    K_COMMENT,
    K_ERROR,
    K_COUNT
};

#define TEXT_MAX 256

struct token {
    enum kind kind;
    int line;
    int col;
    char text[TEXT_MAX];
    size_t len;
    long ival;      /* integer or character value */
    double fval;    /* float value */
    size_t slen;    /* decoded string length */
    const char *msg; /* error message for K_ERROR */
};

struct lexer {
    const char *src;
    size_t pos;
    size_t size;
    int line;
    int col;
    int tabwidth;
    int keep_comments;
};

void lexer_init(struct lexer *lx, const char *src, size_t size, int tabwidth,
                int keep_comments);
int lexer_next(struct lexer *lx, struct token *tok);
const char *kind_name(enum kind k);

#endif
