/*
 * fmt - fill and align paragraphs of text.
 *
 *   fmt [-w WIDTH] [-t TABSTOP] [-l | -r | -c | -j] < text
 *
 * Paragraphs are separated by blank lines, which are kept.  Tabs are expanded
 * to TABSTOP (default 8) first.  A paragraph keeps the indentation of its
 * first line for the first output line and the indentation of its second line
 * for the others (a "crown" margin).  Words are filled greedily to WIDTH
 * columns (default 72); a word that does not fit may be broken after one of
 * its inner hyphens; a word longer than the line gets a line of its own.
 *
 *   -l  left aligned (default)     -r  right aligned to WIDTH
 *   -c  centred in WIDTH           -j  justified: spaces are spread so that
 *                                      every line but the last of a
 *                                      paragraph ends at WIDTH
 *
 * Errors (bad option or value) are reported on stdout; exit status 1 for a
 * bad value, 2 for a bad option.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WIDTH 1000

enum { ALIGN_LEFT, ALIGN_RIGHT, ALIGN_CENTER, ALIGN_JUSTIFY };

typedef struct {
	char *text;
	int len;
} Word;

typedef struct {
	Word *words;
	int n, cap;
	int indent1;   /* indentation of the first line */
	int indent2;   /* indentation of the following lines */
	int nlines;    /* input lines collected so far */
} Para;

static int width = 72;
static int tabstop = 8;
static int align = ALIGN_LEFT;

static void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n);
	if (q == NULL) {
		fputs("fmt: out of memory\n", stderr);
		exit(3);
	}
	return q;
}

static char *xstrndup(const char *s, int n)
{
	char *d = xrealloc(NULL, (size_t)n + 1);
	memcpy(d, s, (size_t)n);
	d[n] = '\0';
	return d;
}

/* ---- input -------------------------------------------------------- */

/* Read a line, expanding tabs and dropping the newline and trailing blanks.
   Returns NULL at end of input. */
static char *read_line(void)
{
	size_t cap = 128, n = 0;
	int c, any = 0;
	char *buf = xrealloc(NULL, cap);

	while ((c = getchar()) != EOF) {
		any = 1;
		if (c == '\n')
			break;
		int spaces = 1;
		if (c == '\t')
			spaces = tabstop - (int)(n % (size_t)tabstop);
		if (n + (size_t)spaces + 1 >= cap) {
			cap = (cap + (size_t)spaces) * 2;
			buf = xrealloc(buf, cap);
		}
		if (c == '\t') {
			for (int k = 0; k < spaces; k++)
				buf[n++] = ' ';
		} else {
			buf[n++] = (char)c;
		}
	}
	if (!any) {
		free(buf);
		return NULL;
	}
	while (n > 0 && (buf[n - 1] == ' ' || buf[n - 1] == '\r'))
		n--;
	buf[n] = '\0';
	return buf;
}

static int leading_spaces(const char *s)
{
	int k = 0;
	while (s[k] == ' ')
		k++;
	return k;
}

/* ---- paragraphs --------------------------------------------------- */

static void add_word(Para *p, const char *s, int len)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 16;
		p->words = xrealloc(p->words, (size_t)p->cap * sizeof *p->words);
	}
	p->words[p->n].text = xstrndup(s, len);
	p->words[p->n].len = len;
	p->n++;
}

static void add_line(Para *p, const char *line)
{
	int ind = leading_spaces(line);

	if (p->nlines == 0)
		p->indent1 = p->indent2 = ind;
	else if (p->nlines == 1)
		p->indent2 = ind;
	p->nlines++;
	for (int k = ind; line[k] != '\0';) {
		while (line[k] == ' ')
			k++;
		int start = k;
		while (line[k] != '\0' && line[k] != ' ')
			k++;
		if (k > start)
			add_word(p, line + start, k - start);
	}
}

static void clear_para(Para *p)
{
	for (int k = 0; k < p->n; k++)
		free(p->words[k].text);
	p->n = 0;
	p->nlines = 0;
}

/* ---- output ------------------------------------------------------- */

static void put_spaces(int n)
{
	while (n-- > 0)
		putchar(' ');
}

/* Print words[from..to) as one output line. */
static void emit_line(Word *w, int from, int to, int indent, int last)
{
	int textlen = 0;

	for (int k = from; k < to; k++)
		textlen += w[k].len;
	textlen += to - from - 1;

	switch (align) {
	case ALIGN_RIGHT:
		put_spaces(width - indent - textlen > 0 ? width - textlen : indent);
		break;
	case ALIGN_CENTER:
		put_spaces(indent + (width - indent - textlen > 0 ? (width - indent - textlen) / 2 : 0));
		break;
	default:
		put_spaces(indent);
		break;
	}

	int gaps = to - from - 1;
	int extra = 0;
	if (align == ALIGN_JUSTIFY && !last && gaps > 0) {
		extra = width - indent - textlen;
		if (extra < 0)
			extra = 0;
	}
	for (int k = from; k < to; k++) {
		fputs(w[k].text, stdout);
		if (k + 1 < to) {
			int g = k - from;
			int sp = 1;
			if (extra > 0)
				sp += extra / gaps + (g < extra % gaps ? 1 : 0);
			put_spaces(sp);
		}
	}
	putchar('\n');
}

/* Find a hyphen in w so that w[0..h] (hyphen included) fits in room;
   returns the prefix length, or 0 when there is none. */
static int hyphen_split(const Word *w, int room)
{
	for (int k = w->len - 2; k > 0; k--)
		if (w->text[k] == '-' && k + 1 <= room && isalpha((unsigned char)w->text[k - 1]))
			return k + 1;
	return 0;
}

/* Break word k after `at` characters: it becomes two words. */
static void split_word(Para *p, int k, int at)
{
	Word tail;

	tail.text = xstrndup(p->words[k].text + at, p->words[k].len - at);
	tail.len = p->words[k].len - at;
	p->words[k].text[at] = '\0';
	p->words[k].len = at;
	if (p->n == p->cap) {
		p->cap *= 2;
		p->words = xrealloc(p->words, (size_t)p->cap * sizeof *p->words);
	}
	memmove(&p->words[k + 2], &p->words[k + 1], (size_t)(p->n - k - 1) * sizeof *p->words);
	p->words[k + 1] = tail;
	p->n++;
}

static void flush_para(Para *p)
{
	int start = 0, line = 0;

	while (start < p->n) {
		int indent = line == 0 ? p->indent1 : p->indent2;
		int avail = width - indent;
		if (avail < 1)
			avail = 1;
		int len = p->words[start].len;
		int end = start + 1;
		while (end < p->n) {
			int need = len + 1 + p->words[end].len;
			if (need <= avail) {
				len = need;
				end++;
				continue;
			}
			int room = avail - len - 1;
			int cut = room > 1 ? hyphen_split(&p->words[end], room) : 0;
			if (cut > 0) {
				split_word(p, end, cut);
				len += 1 + cut;
				end++;
			}
			break;
		}
		if (end == start + 1 && len > avail) {
			int cut = hyphen_split(&p->words[start], avail);
			if (cut > 0) {
				split_word(p, start, cut);
				len = cut;
			}
		}
		emit_line(p->words, start, end, indent, end == p->n);
		start = end;
		line++;
	}
	clear_para(p);
}

/* ---- options ------------------------------------------------------ */

static int parse_number(const char *s, int lo, int hi, int *out)
{
	char *end;
	long v;

	if (s == NULL || !isdigit((unsigned char)s[0]))
		return -1;
	v = strtol(s, &end, 10);
	if (*end != '\0' || v < lo || v > hi)
		return -1;
	*out = (int)v;
	return 0;
}

static void usage(void)
{
	puts("usage: fmt [-w WIDTH] [-t TABSTOP] [-l | -r | -c | -j]");
	exit(2);
}

static void parse_args(int argc, char **argv)
{
	for (int k = 1; k < argc; k++) {
		const char *a = argv[k];
		if (strcmp(a, "-w") == 0 || strcmp(a, "-t") == 0) {
			int *dst = a[1] == 'w' ? &width : &tabstop;
			const char *val = k + 1 < argc ? argv[++k] : NULL;
			if (parse_number(val, 1, MAX_WIDTH, dst) < 0) {
				printf("fmt: invalid %s '%s'\n", a[1] == 'w' ? "width" : "tab stop",
				       val ? val : "");
				exit(1);
			}
		} else if (strcmp(a, "-l") == 0) {
			align = ALIGN_LEFT;
		} else if (strcmp(a, "-r") == 0) {
			align = ALIGN_RIGHT;
		} else if (strcmp(a, "-c") == 0) {
			align = ALIGN_CENTER;
		} else if (strcmp(a, "-j") == 0) {
			align = ALIGN_JUSTIFY;
		} else {
			printf("fmt: unknown option '%s'\n", a);
			usage();
		}
	}
}

int main(int argc, char **argv)
{
	Para para;
	char *line;

	memset(&para, 0, sizeof para);
	parse_args(argc, argv);
	while ((line = read_line()) != NULL) {
		if (line[0] == '\0') {
			if (para.n > 0)
				flush_para(&para);
			putchar('\n');
		} else {
			add_line(&para, line);
		}
		free(line);
	}
	if (para.n > 0)
		flush_para(&para);
	free(para.words);
	return 0;
}
