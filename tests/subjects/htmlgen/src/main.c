/* htmlgen: writes a complete HTML5 page from a simple record file.
 *
 * Input lines are `key: value`; blank lines and lines starting with '#'
 * separate lists and tables.  Keys: title, author, date, lang,
 * nav (label | href), section, subsection, p, item, oitem,
 * link (text | href), table (cell | cell ...), code, quote,
 * image (alt | src), end. */
#include "htmlgen.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define LINE_BUF 1024

static struct document doc;

static const struct {
    const char *key;
    enum block_type type;
} block_keys[] = {
    {"section", B_SECTION}, {"subsection", B_SUBSECTION}, {"p", B_PARA},
    {"item", B_ITEM},       {"oitem", B_OITEM},           {"link", B_LINK},
    {"table", B_TABLE},     {"code", B_CODE},             {"quote", B_QUOTE},
    {"image", B_IMAGE},     {"end", B_END},               {NULL, B_END}};

static void usage(void)
{
    printf("usage: htmlgen [-t] [-n] [-F] [-c] [-T light|dark|plain]\n");
}

static int error(int line, const char *msg, const char *arg)
{
    printf("htmlgen: line %d: %s", line, msg);
    if (arg)
        printf(" '%s'", arg);
    putchar('\n');
    return -1;
}

static char *trim(char *s)
{
    char *end;
    while (isspace((unsigned char)*s))
        s++;
    end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1]))
        end--;
    *end = '\0';
    return s;
}

/* splits "a | b" at the first '|' into two trimmed parts */
static int split_pair(char *value, char **a, char **b)
{
    char *bar = strchr(value, '|');
    if (!bar)
        return -1;
    *bar = '\0';
    *a = trim(value);
    *b = trim(bar + 1);
    if (**a == '\0' || **b == '\0')
        return -1;
    return 0;
}

/* gives section block i a unique anchor name */
static void assign_id(int i)
{
    struct block *b = &doc.blocks[i];
    char base[MAX_TEXT - 16];
    int j, suffix = 1, clash;
    make_slug(b->text, base, sizeof base);
    strcpy(b->id, base);
    do {
        clash = 0;
        for (j = 0; j < i; j++) {
            const struct block *o = &doc.blocks[j];
            if ((o->type == B_SECTION || o->type == B_SUBSECTION) &&
                strcmp(o->id, b->id) == 0) {
                clash = 1;
                suffix++;
                snprintf(b->id, sizeof b->id, "%s-%d", base, suffix);
                break;
            }
        }
    } while (clash);
}

static int add_block(int line, enum block_type type, char *value)
{
    struct block *b;
    char *a, *t;
    if (doc.nblocks == MAX_BLOCKS)
        return error(line, "too many blocks", NULL);
    if (type != B_END && type != B_CODE && *value == '\0')
        return error(line, "empty value", NULL);
    b = &doc.blocks[doc.nblocks];
    memset(b, 0, sizeof *b);
    b->type = type;
    b->line = line;
    if (type == B_LINK || type == B_IMAGE) {
        if (split_pair(value, &a, &t) != 0)
            return error(line, "expected 'text | target'", NULL);
        strcpy(b->text, a);
        strcpy(b->extra, t);
    } else {
        strcpy(b->text, value);
    }
    doc.nblocks++;
    if (type == B_SECTION || type == B_SUBSECTION)
        assign_id(doc.nblocks - 1);
    return 0;
}

static int set_field(int line, char *field, size_t size, const char *value,
                     const char *name)
{
    if (field[0] != '\0' && strcmp(name, "lang") != 0)
        return error(line, "duplicate key", name);
    if (*value == '\0')
        return error(line, "empty value", NULL);
    if (strlen(value) >= size)
        return error(line, "value too long", NULL);
    strcpy(field, value);
    return 0;
}

static int parse_line(int line, char *text)
{
    char *colon, *key, *value, *a, *b;
    int i;
    if (text[0] == '#' || *trim(text) == '\0') {
        /* a separator: ends the current list or table */
        if (doc.nblocks > 0 && doc.blocks[doc.nblocks - 1].type != B_END)
            return add_block(line, B_END, "");
        return 0;
    }
    colon = strchr(text, ':');
    if (!colon)
        return error(line, "missing ':'", NULL);
    *colon = '\0';
    key = trim(text);
    value = colon + 1;
    if (strcmp(key, "code") == 0) {
        /* keep indentation of code, dropping one space after the colon */
        if (*value == ' ')
            value++;
        value[strcspn(value, "\r\n")] = '\0';
        return add_block(line, B_CODE, value);
    }
    value = trim(value);
    if (strcmp(key, "title") == 0)
        return set_field(line, doc.title, sizeof doc.title, value, key);
    if (strcmp(key, "author") == 0)
        return set_field(line, doc.author, sizeof doc.author, value, key);
    if (strcmp(key, "date") == 0)
        return set_field(line, doc.date, sizeof doc.date, value, key);
    if (strcmp(key, "lang") == 0)
        return set_field(line, doc.lang, sizeof doc.lang, value, key);
    if (strcmp(key, "nav") == 0) {
        if (doc.nnav == MAX_NAV)
            return error(line, "too many nav entries", NULL);
        if (split_pair(value, &a, &b) != 0)
            return error(line, "expected 'text | target'", NULL);
        strcpy(doc.nav[doc.nnav].label, a);
        strcpy(doc.nav[doc.nnav].href, b);
        doc.nnav++;
        return 0;
    }
    for (i = 0; block_keys[i].key; i++)
        if (strcmp(key, block_keys[i].key) == 0)
            return add_block(line, block_keys[i].type, value);
    return error(line, "unknown key", key);
}

static int read_document(FILE *fp)
{
    char buf[LINE_BUF];
    int line = 0, errors = 0;
    while (fgets(buf, sizeof buf, fp)) {
        size_t len = strlen(buf);
        line++;
        if (len == sizeof buf - 1 && buf[len - 1] != '\n') {
            int c;
            while ((c = getc(fp)) != EOF && c != '\n')
                ;
            error(line, "line too long", NULL);
            errors++;
            continue;
        }
        if (len >= MAX_TEXT) {
            error(line, "value too long", NULL);
            errors++;
            continue;
        }
        if (parse_line(line, buf) != 0)
            errors++;
    }
    if (doc.title[0] == '\0')
        strcpy(doc.title, "Untitled");
    if (doc.lang[0] == '\0')
        strcpy(doc.lang, "en");
    return errors;
}

static int parse_options(int argc, char **argv, struct options *opt)
{
    int i;
    opt->toc = 0;
    opt->number = 0;
    opt->footer = 1;
    opt->compact = 0;
    opt->theme = "light";
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-t") == 0) {
            opt->toc = 1;
        } else if (strcmp(argv[i], "-n") == 0) {
            opt->number = 1;
        } else if (strcmp(argv[i], "-F") == 0) {
            opt->footer = 0;
        } else if (strcmp(argv[i], "-c") == 0) {
            opt->compact = 1;
        } else if (strcmp(argv[i], "-T") == 0 && i + 1 < argc) {
            opt->theme = argv[++i];
            if (strcmp(opt->theme, "light") != 0 &&
                strcmp(opt->theme, "dark") != 0 &&
                strcmp(opt->theme, "plain") != 0) {
                printf("htmlgen: unknown theme '%s'\n", opt->theme);
                return -1;
            }
        } else {
            printf("htmlgen: bad option '%s'\n", argv[i]);
            return -1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct options opt;
    int errors;
    if (parse_options(argc, argv, &opt) != 0) {
        usage();
        return 2;
    }
    errors = read_document(stdin);
    if (errors > 0) {
        printf("htmlgen: %d error%s, no page written\n", errors,
               errors == 1 ? "" : "s");
        return 1;
    }
    emit_page(&doc, &opt);
    return 0;
}
