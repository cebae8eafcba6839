#ifndef HTMLGEN_H
#define HTMLGEN_H

#include <stdio.h>

#define MAX_BLOCKS 2000
#define MAX_TEXT 512
#define MAX_CELLS 12
#define MAX_NAV 32

enum block_type {
    B_SECTION,
    B_SUBSECTION,
    B_PARA,
    B_ITEM,
    B_OITEM,
    B_LINK,
    B_TABLE,
    B_CODE,
    B_QUOTE,
    B_IMAGE,
    B_END
};

struct block {
    enum block_type type;
    char text[MAX_TEXT];
    char extra[MAX_TEXT]; /* link target, image source */
    char id[MAX_TEXT];    /* anchor of a section */
    int line;
};

struct nav {
    char label[MAX_TEXT];
    char href[MAX_TEXT];
};

struct document {
    char title[MAX_TEXT];
    char author[MAX_TEXT];
    char date[MAX_TEXT];
    char lang[32];
    struct nav nav[MAX_NAV];
    int nnav;
    struct block blocks[MAX_BLOCKS];
    int nblocks;
};

struct options {
    int toc;
    int number;
    int footer;
    int compact;
    const char *theme;
};

/* escape.c */
void put_text(const char *s);
void put_attr(const char *s);
void put_inline(const char *s);
void make_slug(const char *s, char *out, size_t size);

/* emit.c */
void emit_page(const struct document *doc, const struct options *opt);

#endif
