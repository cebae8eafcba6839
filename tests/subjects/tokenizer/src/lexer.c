#include "lexer.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char *keywords[] = {
    "break", "case",   "char",   "const",  "continue", "default", "do",
    "else",  "float",  "for",    "if",     "int",      "return",  "sizeof",
    "static", "struct", "switch", "typedef", "void",   "while",   NULL};

/* operators, longest first within each leading character */
static const char *operators[] = {
    "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==",
    "!=",  "&&",  "||",  "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
    "+",   "-",   "*",   "/",  "%",  "<",  ">",  "=",  "!",  "&",  "|",
    "^",   "~",   "?",   ":",  ".",  ",",  NULL};

static const char punctuation[] = ";()[]{}";

static const char *kind_names[K_COUNT] = {
    "EOF", "KEYWORD", "IDENT", "INT", "FLOAT", "CHAR",
    "STRING", "OP", "PUNCT", "COMMENT", "ERROR"};

const char *kind_name(enum kind k)
{
    if (k >= K_COUNT)
        return "?";
    return kind_names[k];
}

void lexer_init(struct lexer *lx, const char *src, size_t size, int tabwidth,
                int keep_comments)
{
    lx->src = src;
    lx->pos = 0;
    lx->size = size;
    lx->line = 1;
    lx->col = 1;
    lx->tabwidth = tabwidth;
    lx->keep_comments = keep_comments;
}

static int peek(const struct lexer *lx, size_t ahead)
{
    if (lx->pos + ahead >= lx->size)
        return -1;
    return (unsigned char)lx->src[lx->pos + ahead];
}

/* consume one character, keeping line and column up to date */
static int advance(struct lexer *lx)
{
    int c = peek(lx, 0);
    if (c < 0)
        return c;
    lx->pos++;
    if (c == '\n') {
        lx->line++;
        lx->col = 1;
    } else if (c == '\t') {
        int w = lx->tabwidth;
        lx->col = ((lx->col - 1) / w + 1) * w + 1;
    } else {
        lx->col++;
    }
    return c;
}

static void append(struct token *tok, int c)
{
    if (tok->len + 1 < TEXT_MAX)
        tok->text[tok->len++] = (char)c;
    tok->text[tok->len] = '\0';
}

static int error(struct token *tok, const char *msg)
{
    tok->kind = K_ERROR;
    tok->msg = msg;
    return 1;
}

static int is_ident_start(int c)
{
    return c == '_' || isalpha(c);
}

static int is_ident_char(int c)
{
    return c == '_' || isalnum(c);
}

static int lex_word(struct lexer *lx, struct token *tok)
{
    int i;
    while (is_ident_char(peek(lx, 0)))
        append(tok, advance(lx));
    tok->kind = K_IDENT;
    for (i = 0; keywords[i]; i++) {
        if (strcmp(keywords[i], tok->text) == 0) {
            tok->kind = K_KEYWORD;
            break;
        }
    }
    return 1;
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

static int lex_number(struct lexer *lx, struct token *tok)
{
    int is_float = 0;
    int digits = 0;

    if (peek(lx, 0) == '0' && (peek(lx, 1) == 'x' || peek(lx, 1) == 'X')) {
        append(tok, advance(lx));
        append(tok, advance(lx));
        tok->ival = 0;
        while (hexval(peek(lx, 0)) >= 0) {
            tok->ival = tok->ival * 16 + hexval(peek(lx, 0));
            append(tok, advance(lx));
            digits++;
        }
        if (digits == 0)
            return error(tok, "hex literal without digits");
        tok->kind = K_INT;
        return 1;
    }
    while (isdigit(peek(lx, 0))) {
        append(tok, advance(lx));
        digits++;
    }
    if (peek(lx, 0) == '.' && isdigit(peek(lx, 1))) {
        is_float = 1;
        append(tok, advance(lx));
        while (isdigit(peek(lx, 0)))
            append(tok, advance(lx));
    }
    if (peek(lx, 0) == 'e' || peek(lx, 0) == 'E') {
        int exp_digits = 0;
        is_float = 1;
        append(tok, advance(lx));
        if (peek(lx, 0) == '+' || peek(lx, 0) == '-')
            append(tok, advance(lx));
        while (isdigit(peek(lx, 0))) {
            append(tok, advance(lx));
            exp_digits++;
        }
        if (exp_digits == 0)
            return error(tok, "exponent without digits");
    }
    if (is_ident_start(peek(lx, 0))) {
        while (is_ident_char(peek(lx, 0)))
            append(tok, advance(lx));
        return error(tok, "invalid suffix on number");
    }
    if (is_float) {
        tok->kind = K_FLOAT;
        tok->fval = strtod(tok->text, NULL);
    } else {
        tok->kind = K_INT;
        if (tok->text[0] == '0' && tok->len > 1) {
            size_t i;
            for (i = 1; i < tok->len; i++)
                if (tok->text[i] > '7')
                    return error(tok, "invalid digit in octal literal");
            tok->ival = strtol(tok->text, NULL, 8);
        } else {
            tok->ival = strtol(tok->text, NULL, 10);
        }
    }
    return 1;
}

/* reads one escape sequence after the backslash; returns its value or -1 */
static int lex_escape(struct lexer *lx, struct token *tok)
{
    int c = peek(lx, 0);
    int v;
    switch (c) {
    case 'n':
        v = '\n';
        break;
    case 't':
        v = '\t';
        break;
    case 'r':
        v = '\r';
        break;
    case '0':
        v = 0;
        break;
    case '\\':
    case '\'':
    case '"':
        v = c;
        break;
    case 'x': {
        int n = 0;
        append(tok, advance(lx));
        v = 0;
        while (n < 2 && hexval(peek(lx, 0)) >= 0) {
            v = v * 16 + hexval(peek(lx, 0));
            append(tok, advance(lx));
            n++;
        }
        if (n == 0)
            return -1;
        return v;
    }
    default:
        return -1;
    }
    append(tok, advance(lx));
    return v;
}

static int lex_quoted(struct lexer *lx, struct token *tok, int quote)
{
    size_t count = 0;
    long value = 0;

    append(tok, advance(lx));
    for (;;) {
        int c = peek(lx, 0);
        if (c < 0 || c == '\n')
            return error(tok, quote == '"' ? "unterminated string"
                                           : "unterminated character");
        if (c == quote)
            break;
        append(tok, advance(lx));
        if (c == '\\') {
            int v = lex_escape(lx, tok);
            if (v < 0) {
                /* skip the rest of the literal to resynchronise */
                while (peek(lx, 0) >= 0 && peek(lx, 0) != quote &&
                       peek(lx, 0) != '\n')
                    append(tok, advance(lx));
                if (peek(lx, 0) == quote)
                    append(tok, advance(lx));
                return error(tok, "bad escape sequence");
            }
            c = v;
        }
        value = c;
        count++;
    }
    append(tok, advance(lx));
    if (quote == '"') {
        tok->kind = K_STRING;
        tok->slen = count;
        return 1;
    }
    if (count == 0)
        return error(tok, "empty character literal");
    if (count > 1)
        return error(tok, "multi-character literal");
    tok->kind = K_CHAR;
    tok->ival = value;
    return 1;
}

/* skips or lexes a comment; returns 1 when a token was produced */
static int lex_comment(struct lexer *lx, struct token *tok, int *bad)
{
    int block = peek(lx, 1) == '*';
    append(tok, advance(lx));
    append(tok, advance(lx));
    if (!block) {
        while (peek(lx, 0) >= 0 && peek(lx, 0) != '\n')
            append(tok, advance(lx));
    } else {
        for (;;) {
            int c = peek(lx, 0);
            if (c < 0) {
                *bad = 1;
                return error(tok, "unterminated comment");
            }
            if (c == '*' && peek(lx, 1) == '/') {
                append(tok, advance(lx));
                append(tok, advance(lx));
                break;
            }
            append(tok, advance(lx));
        }
    }
    tok->kind = K_COMMENT;
    return lx->keep_comments;
}

static int lex_operator(struct lexer *lx, struct token *tok)
{
    int i;
    for (i = 0; operators[i]; i++) {
        size_t n = strlen(operators[i]);
        size_t j;
        for (j = 0; j < n; j++)
            if (peek(lx, j) != (unsigned char)operators[i][j])
                break;
        if (j == n) {
            for (j = 0; j < n; j++)
                append(tok, advance(lx));
            tok->kind = K_OP;
            return 1;
        }
    }
    return 0;
}

int lexer_next(struct lexer *lx, struct token *tok)
{
    for (;;) {
        int c;
        int bad = 0;

        while (peek(lx, 0) >= 0 && isspace(peek(lx, 0)))
            advance(lx);

        memset(tok, 0, sizeof *tok);
        tok->line = lx->line;
        tok->col = lx->col;
        c = peek(lx, 0);
        if (c < 0) {
            tok->kind = K_EOF;
            return 0;
        }
        if (c == '/' && (peek(lx, 1) == '/' || peek(lx, 1) == '*')) {
            if (lex_comment(lx, tok, &bad) || bad)
                return 1;
            continue;
        }
        if (is_ident_start(c))
            return lex_word(lx, tok);
        if (isdigit(c) || (c == '.' && isdigit(peek(lx, 1))))
            return lex_number(lx, tok);
        if (c == '"' || c == '\'')
            return lex_quoted(lx, tok, c);
        if (strchr(punctuation, c)) {
            append(tok, advance(lx));
            tok->kind = K_PUNCT;
            return 1;
        }
        if (lex_operator(lx, tok))
            return 1;
        append(tok, advance(lx));
        return error(tok, "invalid character");
    }
}
