/* writes the HTML page: head, header, navigation, table of contents,
 * sections with their blocks, and footer */
#include "htmlgen.h"

#include <ctype.h>
#include <string.h>

static const struct options *opts;

static void indent(int depth)
{
    int i;
    if (opts->compact)
        return;
    for (i = 0; i < depth; i++)
        fputs("  ", stdout);
}

static void newline(void)
{
    if (!opts->compact)
        putchar('\n');
}

/* writes one line holding a complete tag */
static void tag_line(int depth, const char *tag)
{
    indent(depth);
    fputs(tag, stdout);
    newline();
}

static void emit_style(int depth)
{
    const char *theme = opts->theme;
    if (strcmp(theme, "plain") == 0)
        return;
    tag_line(depth, "<style>");
    if (strcmp(theme, "dark") == 0) {
        tag_line(depth + 1, "body { background: #1e1e1e; color: #ddd; }");
        tag_line(depth + 1, "a { color: #8cf; }");
    } else {
        tag_line(depth + 1, "body { background: #fff; color: #222; }");
        tag_line(depth + 1, "a { color: #05c; }");
    }
    tag_line(depth + 1, "td.num { text-align: right; }");
    tag_line(depth, "</style>");
}

static void emit_head(const struct document *doc)
{
    printf("<!DOCTYPE html>");
    newline();
    printf("<html lang=\"");
    put_attr(doc->lang);
    printf("\">");
    newline();
    tag_line(0, "<head>");
    tag_line(1, "<meta charset=\"utf-8\">");
    if (doc->author[0]) {
        indent(1);
        fputs("<meta name=\"author\" content=\"", stdout);
        put_attr(doc->author);
        fputs("\">", stdout);
        newline();
    }
    indent(1);
    fputs("<title>", stdout);
    put_text(doc->title);
    fputs("</title>", stdout);
    newline();
    emit_style(1);
    tag_line(0, "</head>");
}

static void emit_header(const struct document *doc)
{
    tag_line(1, "<header>");
    indent(2);
    fputs("<h1>", stdout);
    put_text(doc->title);
    fputs("</h1>", stdout);
    newline();
    if (doc->author[0] || doc->date[0]) {
        indent(2);
        fputs("<p class=\"byline\">", stdout);
        if (doc->author[0]) {
            fputs("by ", stdout);
            put_text(doc->author);
        }
        if (doc->author[0] && doc->date[0])
            fputs(", ", stdout);
        if (doc->date[0]) {
            fputs("<time>", stdout);
            put_text(doc->date);
            fputs("</time>", stdout);
        }
        fputs("</p>", stdout);
        newline();
    }
    tag_line(1, "</header>");
}

static void emit_anchor(const char *href, const char *label)
{
    fputs("<a href=\"", stdout);
    put_attr(href);
    fputs("\">", stdout);
    put_text(label);
    fputs("</a>", stdout);
}

static void emit_nav(const struct document *doc)
{
    int i;
    if (doc->nnav == 0)
        return;
    tag_line(1, "<nav>");
    tag_line(2, "<ul>");
    for (i = 0; i < doc->nnav; i++) {
        indent(3);
        fputs("<li>", stdout);
        emit_anchor(doc->nav[i].href, doc->nav[i].label);
        fputs("</li>", stdout);
        newline();
    }
    tag_line(2, "</ul>");
    tag_line(1, "</nav>");
}

static void toc_entry(int depth, const struct block *b, int n, int m)
{
    char href[MAX_TEXT + 1];
    indent(depth);
    fputs("<li>", stdout);
    href[0] = '#';
    strcpy(href + 1, b->id);
    if (opts->number) {
        if (m > 0)
            printf("%d.%d ", n, m);
        else
            printf("%d. ", n);
    }
    emit_anchor(href, b->text);
}

/* table of contents: sections, with their subsections in nested lists */
static void emit_toc(const struct document *doc)
{
    int i, n = 0, m = 0;
    int open_item = 0, open_sub = 0;
    tag_line(2, "<nav class=\"toc\">");
    tag_line(3, "<h2>Contents</h2>");
    tag_line(3, "<ol>");
    for (i = 0; i < doc->nblocks; i++) {
        const struct block *b = &doc->blocks[i];
        if (b->type == B_SECTION) {
            if (open_sub) {
                tag_line(5, "</ol>");
                open_sub = 0;
            }
            if (open_item) {
                indent(4);
                fputs("</li>", stdout);
                newline();
            }
            n++;
            m = 0;
            toc_entry(4, b, n, 0);
            newline();
            open_item = 1;
        } else if (b->type == B_SUBSECTION) {
            if (!open_item) {
                /* subsection before any section: an item of its own */
                toc_entry(4, b, n, ++m);
                fputs("</li>", stdout);
                newline();
                continue;
            }
            if (!open_sub) {
                tag_line(5, "<ol>");
                open_sub = 1;
            }
            toc_entry(6, b, n, ++m);
            fputs("</li>", stdout);
            newline();
        }
    }
    if (open_sub)
        tag_line(5, "</ol>");
    if (open_item)
        tag_line(4, "</li>");
    tag_line(3, "</ol>");
    tag_line(2, "</nav>");
}

/* emits consecutive list items starting at i; returns the next index */
static int emit_list(const struct document *doc, int i, int depth)
{
    enum block_type type = doc->blocks[i].type;
    const char *tag = type == B_OITEM ? "ol" : "ul";
    indent(depth);
    printf("<%s>", tag);
    newline();
    while (i < doc->nblocks && doc->blocks[i].type == type) {
        indent(depth + 1);
        fputs("<li>", stdout);
        put_inline(doc->blocks[i].text);
        fputs("</li>", stdout);
        newline();
        i++;
    }
    indent(depth);
    printf("</%s>", tag);
    newline();
    return i;
}

/* splits a table row at '|' into trimmed cells; returns the cell count */
static int split_cells(const char *row, char cells[][MAX_TEXT], int max)
{
    int n = 0;
    const char *p = row;
    while (n < max) {
        const char *bar = strchr(p, '|');
        const char *end = bar ? bar : p + strlen(p);
        size_t len;
        while (p < end && isspace((unsigned char)*p))
            p++;
        while (end > p && isspace((unsigned char)end[-1]))
            end--;
        len = (size_t)(end - p);
        memcpy(cells[n], p, len);
        cells[n][len] = '\0';
        n++;
        if (!bar)
            break;
        p = bar + 1;
    }
    return n;
}

static int is_number(const char *s)
{
    int digits = 0;
    if (*s == '-')
        s++;
    for (; *s; s++) {
        if (isdigit((unsigned char)*s))
            digits++;
        else if (*s != '.' && *s != ',')
            return 0;
    }
    return digits > 0;
}

static void emit_row(int depth, char cells[][MAX_TEXT], int ncells, int width,
                     int header)
{
    int c;
    indent(depth);
    fputs("<tr>", stdout);
    for (c = 0; c < width; c++) {
        const char *cell = c < ncells ? cells[c] : "";
        if (header)
            fputs("<th>", stdout);
        else if (is_number(cell))
            fputs("<td class=\"num\">", stdout);
        else
            fputs("<td>", stdout);
        put_inline(cell);
        fputs(header ? "</th>" : "</td>", stdout);
    }
    fputs("</tr>", stdout);
    newline();
}

/* emits consecutive table rows starting at i; the first is the header */
static int emit_table(const struct document *doc, int i, int depth)
{
    static char cells[MAX_CELLS][MAX_TEXT];
    int width, n, row = 1;
    tag_line(depth, "<table>");
    width = split_cells(doc->blocks[i].text, cells, MAX_CELLS);
    tag_line(depth + 1, "<thead>");
    emit_row(depth + 2, cells, width, width, 1);
    tag_line(depth + 1, "</thead>");
    i++;
    if (i < doc->nblocks && doc->blocks[i].type == B_TABLE) {
        tag_line(depth + 1, "<tbody>");
        while (i < doc->nblocks && doc->blocks[i].type == B_TABLE) {
            n = split_cells(doc->blocks[i].text, cells, MAX_CELLS);
            row++;
            if (n > width) {
                indent(depth + 2);
                printf("<!-- row %d: %d extra cell%s dropped -->", row,
                       n - width, n - width == 1 ? "" : "s");
                newline();
            }
            emit_row(depth + 2, cells, n, width, 0);
            i++;
        }
        tag_line(depth + 1, "</tbody>");
    }
    tag_line(depth, "</table>");
    return i;
}

/* consecutive code lines form one preformatted block */
static int emit_code(const struct document *doc, int i, int depth)
{
    indent(depth);
    fputs("<pre><code>", stdout);
    while (i < doc->nblocks && doc->blocks[i].type == B_CODE) {
        put_text(doc->blocks[i].text);
        i++;
        if (i < doc->nblocks && doc->blocks[i].type == B_CODE)
            putchar('\n');
    }
    fputs("</code></pre>", stdout);
    newline();
    return i;
}

static void emit_heading(int depth, const struct block *b, int n, int m)
{
    const char *h = b->type == B_SECTION ? "h2" : "h3";
    indent(depth);
    if (b->type == B_SECTION)
        fputs("<section id=\"", stdout);
    else
        fputs("<section class=\"sub\" id=\"", stdout);
    put_attr(b->id);
    fputs("\">", stdout);
    newline();
    indent(depth + 1);
    printf("<%s>", h);
    if (opts->number) {
        if (b->type == B_SECTION)
            printf("%d. ", n);
        else
            printf("%d.%d ", n, m);
    }
    put_inline(b->text);
    printf("</%s>", h);
    newline();
}

static int emit_content(const struct document *doc)
{
    int i = 0, in_section = 0, in_sub = 0, n = 0, m = 0;
    while (i < doc->nblocks) {
        const struct block *b = &doc->blocks[i];
        int depth = 2 + in_section + in_sub;
        switch (b->type) {
        case B_SECTION:
            if (in_sub)
                tag_line(2 + in_section, "</section>");
            if (in_section)
                tag_line(2, "</section>");
            in_sub = 0;
            n++;
            m = 0;
            emit_heading(2, b, n, m);
            in_section = 1;
            i++;
            break;
        case B_SUBSECTION:
            if (in_sub)
                tag_line(2 + in_section, "</section>");
            m++;
            emit_heading(2 + in_section, b, n, m);
            in_sub = 1;
            i++;
            break;
        case B_ITEM:
        case B_OITEM:
            i = emit_list(doc, i, depth);
            break;
        case B_TABLE:
            i = emit_table(doc, i, depth);
            break;
        case B_CODE:
            i = emit_code(doc, i, depth);
            break;
        case B_PARA:
            indent(depth);
            fputs("<p>", stdout);
            put_inline(b->text);
            fputs("</p>", stdout);
            newline();
            i++;
            break;
        case B_QUOTE:
            tag_line(depth, "<blockquote>");
            indent(depth + 1);
            fputs("<p>", stdout);
            put_inline(b->text);
            fputs("</p>", stdout);
            newline();
            tag_line(depth, "</blockquote>");
            i++;
            break;
        case B_LINK:
            indent(depth);
            fputs("<p class=\"link\">", stdout);
            emit_anchor(b->extra, b->text);
            fputs("</p>", stdout);
            newline();
            i++;
            break;
        case B_IMAGE:
            tag_line(depth, "<figure>");
            indent(depth + 1);
            fputs("<img src=\"", stdout);
            put_attr(b->extra);
            fputs("\" alt=\"", stdout);
            put_attr(b->text);
            fputs("\">", stdout);
            newline();
            indent(depth + 1);
            fputs("<figcaption>", stdout);
            put_inline(b->text);
            fputs("</figcaption>", stdout);
            newline();
            tag_line(depth, "</figure>");
            i++;
            break;
        case B_END:
            i++;
            break;
        }
    }
    if (in_sub)
        tag_line(2 + in_section, "</section>");
    if (in_section)
        tag_line(2, "</section>");
    return n;
}

static void emit_footer(const struct document *doc, int sections)
{
    int i, blocks = 0;
    for (i = 0; i < doc->nblocks; i++)
        if (doc->blocks[i].type != B_SECTION &&
            doc->blocks[i].type != B_SUBSECTION && doc->blocks[i].type != B_END)
            blocks++;
    tag_line(1, "<footer>");
    indent(2);
    printf("<p>%d section%s, %d block%s. Generated by htmlgen.</p>", sections,
           sections == 1 ? "" : "s", blocks, blocks == 1 ? "" : "s");
    newline();
    tag_line(1, "</footer>");
}

void emit_page(const struct document *doc, const struct options *opt)
{
    int sections, i, have_sections = 0;
    opts = opt;
    emit_head(doc);
    tag_line(0, "<body>");
    emit_header(doc);
    emit_nav(doc);
    tag_line(1, "<main>");
    for (i = 0; i < doc->nblocks; i++)
        if (doc->blocks[i].type == B_SECTION ||
            doc->blocks[i].type == B_SUBSECTION)
            have_sections = 1;
    if (opt->toc && have_sections)
        emit_toc(doc);
    sections = emit_content(doc);
    tag_line(1, "</main>");
    if (opt->footer)
        emit_footer(doc, sections);
    tag_line(0, "</body>");
    tag_line(0, "</html>");
}
