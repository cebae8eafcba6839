/*
 * patmatch - substitute a pattern in every line of stdin (a tiny `sed s///g`).
 *
 *   patmatch [-1] [-i] [-n] [-c] PATTERN REPLACEMENT
 *
 * Pattern syntax:
 *   c        a literal character         .       any character
 *   [abc]    a character class           [^a-z]  a negated class (ranges allowed)
 *   x*       zero or more x              x+      one or more x
 *   x?       zero or one x               \c      c literally (\t tab, \n newline)
 *   ^        at the start: anchors the match at the beginning of the line
 *   $        at the end: anchors the match at the end of the line
 * A closure character with nothing to repeat is literal, as are ^ and $
 * anywhere else.
 *
 * Replacement: & is the matched text, \& a literal &, \t a tab, \n a newline,
 * \\ a backslash; any other \c is c.
 *
 * Options: -1 replace only the first match of each line; -i ignore case;
 * -n print only the lines where something was replaced; -c print the number
 * of replacements at the end.
 *
 * Exit status: 0 when something was replaced, 1 when nothing was, 2 on a
 * usage error or a bad pattern.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ELEMS 128
#define MAX_REPL 256

enum { E_CHAR, E_ANY, E_CLASS };
enum { C_ONE, C_STAR, C_PLUS, C_QUES };

typedef struct {
	int kind;
	int closure;
	unsigned char ch;
	unsigned char set[32];
} Elem;

typedef struct {
	Elem elems[MAX_ELEMS];
	int n;
	int bol;
	int eol;
} Pattern;

typedef struct {
	int is_match;   /* 1: insert the matched text (&) */
	char ch;
} ReplItem;

typedef struct {
	ReplItem items[MAX_REPL];
	int n;
} Replacement;

static int opt_first, opt_icase, opt_changed_only, opt_count;

/* ---- character sets ----------------------------------------------- */

static void set_add(unsigned char *set, int c)
{
	set[c >> 3] |= (unsigned char)(1u << (c & 7));
}

static int set_has(const unsigned char *set, int c)
{
	return (set[c >> 3] >> (c & 7)) & 1;
}

static int escape_char(int c)
{
	switch (c) {
	case 't': return '\t';
	case 'n': return '\n';
	default: return c;
	}
}

/* Parse a class starting after '['; returns the index after ']' or -1. */
static int parse_class(const char *pat, int k, Elem *e, const char **err)
{
	int negate = 0, first = 1;

	memset(e->set, 0, sizeof e->set);
	e->kind = E_CLASS;
	if (pat[k] == '^') {
		negate = 1;
		k++;
	}
	while (pat[k] != '\0' && (pat[k] != ']' || first)) {
		int lo = (unsigned char)pat[k];
		if (lo == '\\' && pat[k + 1] != '\0') {
			k++;
			lo = escape_char((unsigned char)pat[k]);
		}
		k++;
		first = 0;
		if (pat[k] == '-' && pat[k + 1] != ']' && pat[k + 1] != '\0') {
			int hi = (unsigned char)pat[k + 1];
			k += 2;
			if (hi == '\\' && pat[k] != '\0') {
				hi = escape_char((unsigned char)pat[k]);
				k++;
			}
			if (hi < lo) {
				*err = "bad range in class";
				return -1;
			}
			for (int c = lo; c <= hi; c++)
				set_add(e->set, c);
		} else {
			set_add(e->set, lo);
		}
	}
	if (pat[k] != ']') {
		*err = "unterminated class";
		return -1;
	}
	if (negate)
		for (int b = 0; b < 32; b++)
			e->set[b] = (unsigned char)~e->set[b];
	return k + 1;
}

static int compile_pattern(const char *pat, Pattern *p, const char **err)
{
	int k = 0;
	size_t len = strlen(pat);

	memset(p, 0, sizeof *p);
	if (pat[0] == '^') {
		p->bol = 1;
		k = 1;
	}
	if (len > (size_t)k && pat[len - 1] == '$' && (len < 2 || pat[len - 2] != '\\')) {
		p->eol = 1;
		len--;
	}
	while ((size_t)k < len) {
		int c = (unsigned char)pat[k];
		if ((c == '*' || c == '+' || c == '?') && p->n > 0 &&
		    p->elems[p->n - 1].closure == C_ONE) {
			p->elems[p->n - 1].closure = c == '*' ? C_STAR : c == '+' ? C_PLUS : C_QUES;
			k++;
			continue;
		}
		if (p->n == MAX_ELEMS) {
			*err = "pattern too long";
			return -1;
		}
		Elem *e = &p->elems[p->n];
		e->closure = C_ONE;
		if (c == '.') {
			e->kind = E_ANY;
			k++;
		} else if (c == '[') {
			k = parse_class(pat, k + 1, e, err);
			if (k < 0)
				return -1;
			if ((size_t)k > len) {
				*err = "unterminated class";
				return -1;
			}
		} else if (c == '\\') {
			if ((size_t)k + 1 >= len) {
				*err = "trailing backslash";
				return -1;
			}
			e->kind = E_CHAR;
			e->ch = (unsigned char)escape_char((unsigned char)pat[k + 1]);
			k += 2;
		} else {
			e->kind = E_CHAR;
			e->ch = (unsigned char)c;
			k++;
		}
		p->n++;
	}
	return 0;
}

/* ---- matching ----------------------------------------------------- */

static int elem_matches(const Elem *e, int c)
{
	switch (e->kind) {
	case E_ANY:
		return c != '\n';
	case E_CHAR:
		if (opt_icase)
			return tolower(c) == tolower(e->ch);
		return c == e->ch;
	default:
		if (set_has(e->set, c))
			return 1;
		if (opt_icase)
			return set_has(e->set, tolower(c)) || set_has(e->set, toupper(c));
		return 0;
	}
}

/* Match elements k.. at text[pos]; return the end of the match or -1. */
static int match_here(const Pattern *p, int k, const char *text, int pos, int len)
{
	if (k == p->n) {
		if (p->eol && pos != len)
			return -1;
		return pos;
	}
	const Elem *e = &p->elems[k];
	if (e->closure == C_ONE) {
		if (pos < len && elem_matches(e, (unsigned char)text[pos]))
			return match_here(p, k + 1, text, pos + 1, len);
		return -1;
	}
	int max = 0;
	while (pos + max < len && elem_matches(e, (unsigned char)text[pos + max])) {
		max++;
		if (e->closure == C_QUES)
			break;
	}
	int min = e->closure == C_PLUS ? 1 : 0;
	for (int n = max; n >= min; n--) {
		int end = match_here(p, k + 1, text, pos + n, len);
		if (end >= 0)
			return end;
	}
	return -1;
}

/* ---- replacement -------------------------------------------------- */

static int compile_replacement(const char *s, Replacement *r)
{
	r->n = 0;
	for (int k = 0; s[k] != '\0'; k++) {
		if (r->n == MAX_REPL)
			return -1;
		ReplItem *it = &r->items[r->n++];
		it->is_match = 0;
		if (s[k] == '&') {
			it->is_match = 1;
		} else if (s[k] == '\\' && s[k + 1] != '\0') {
			k++;
			it->ch = (char)escape_char((unsigned char)s[k]);
		} else {
			it->ch = s[k];
		}
	}
	return 0;
}

static void emit_replacement(const Replacement *r, const char *text, int start, int end)
{
	for (int k = 0; k < r->n; k++) {
		if (r->items[k].is_match)
			fwrite(text + start, 1, (size_t)(end - start), stdout);
		else
			putchar(r->items[k].ch);
	}
}

/* Substitute in one line (without its newline); returns the replacement count. */
static int subst_line(const Pattern *p, const Replacement *r, const char *text, int len, int dry)
{
	int pos = 0, count = 0, last_end = -1;

	while (pos <= len) {
		if (p->bol && pos > 0)
			break;
		int end = match_here(p, 0, text, pos, len);
		if (end >= 0 && !(end == pos && pos == last_end)) {
			count++;
			if (!dry)
				emit_replacement(r, text, pos, end);
			last_end = end;
			if (end > pos) {
				pos = end;
			} else {
				if (pos < len && !dry)
					putchar(text[pos]);
				pos++;
			}
			if (opt_first)
				break;
			continue;
		}
		if (pos < len && !dry)
			putchar(text[pos]);
		pos++;
	}
	if (pos < len && !dry)
		fwrite(text + pos, 1, (size_t)(len - pos), stdout);
	return count;
}

/* ---- input -------------------------------------------------------- */

/* Read one line into a growing buffer; returns its length or -1 at EOF. */
static int read_line(char **buf, size_t *cap, int *had_newline)
{
	size_t n = 0;
	int c;

	*had_newline = 0;
	while ((c = getchar()) != EOF) {
		if (n + 1 >= *cap) {
			size_t ncap = *cap ? *cap * 2 : 64;
			char *nb = realloc(*buf, ncap);
			if (nb == NULL) {
				fputs("patmatch: out of memory\n", stderr);
				exit(2);
			}
			*buf = nb;
			*cap = ncap;
		}
		if (c == '\n') {
			*had_newline = 1;
			break;
		}
		(*buf)[n++] = (char)c;
	}
	if (n == 0 && !*had_newline)
		return -1;
	(*buf)[n] = '\0';
	return (int)n;
}

static void usage(void)
{
	puts("usage: patmatch [-1] [-i] [-n] [-c] PATTERN REPLACEMENT");
	exit(2);
}

int main(int argc, char **argv)
{
	int k = 1;

	for (; k < argc && argv[k][0] == '-' && argv[k][1] != '\0'; k++) {
		if (strcmp(argv[k], "--") == 0) {
			k++;
			break;
		}
		for (const char *o = argv[k] + 1; *o; o++) {
			switch (*o) {
			case '1': opt_first = 1; break;
			case 'i': opt_icase = 1; break;
			case 'n': opt_changed_only = 1; break;
			case 'c': opt_count = 1; break;
			default:
				printf("patmatch: unknown option -%c\n", *o);
				usage();
			}
		}
	}
	if (argc - k != 2)
		usage();

	Pattern pat;
	Replacement rep;
	const char *err = NULL;
	if (compile_pattern(argv[k], &pat, &err) < 0) {
		printf("patmatch: bad pattern: %s\n", err);
		return 2;
	}
	if (compile_replacement(argv[k + 1], &rep) < 0) {
		printf("patmatch: replacement too long\n");
		return 2;
	}

	char *buf = NULL;
	size_t cap = 0;
	int len, nl, total = 0;
	while ((len = read_line(&buf, &cap, &nl)) >= 0) {
		int n = 1;
		if (opt_changed_only) {
			n = subst_line(&pat, &rep, buf, len, 1);
			if (n > 0)
				subst_line(&pat, &rep, buf, len, 0);
		} else {
			n = subst_line(&pat, &rep, buf, len, 0);
		}
		total += n;
		if ((n > 0 || !opt_changed_only) && nl)
			putchar('\n');
	}
	free(buf);
	if (opt_count)
		printf("%d replacement%s\n", total, total == 1 ? "" : "s");
	return total > 0 ? 0 : 1;
}
