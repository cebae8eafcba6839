/*
 * iniparse --csv - an RFC 4180 reader that prints selected columns.
 *
 *   iniparse --csv [-d C] [--header] [--count] [COLUMNS]
 *
 * Fields are separated by C (default ','); a field starting with '"' is
 * quoted: it may contain the separator, newlines and doubled quotes ("").
 * CRLF line ends are accepted and blank lines are skipped.  COLUMNS is a
 * comma-separated list of 1-based numbers, ranges (2-4) or, with --header,
 * column names; without COLUMNS every column is printed.  Output fields are
 * joined by '|', with '|', '\' and newlines escaped as \|, \\ and \n.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iniparse.h"

#define MAX_SEL 64

typedef struct {
	char **fields;
	int n, cap;
} Record;

typedef struct {
	const char *p;
	int record;   /* number of the record being read, from 1 */
	char delim;
} Reader;

static void rec_push(Record *r, char *field)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 8;
		r->fields = xrealloc(r->fields, (size_t)r->cap * sizeof *r->fields);
	}
	r->fields[r->n++] = field;
}

static void rec_clear(Record *r)
{
	for (int k = 0; k < r->n; k++)
		free(r->fields[k]);
	r->n = 0;
}

static int at_eol(const char *p)
{
	return *p == '\n' || (*p == '\r' && p[1] == '\n') || *p == '\0';
}

/* Read one record; returns 1 when read, 0 at the end, -1 on error. */
static int read_record(Reader *rd, Record *rec)
{
	const char *p = rd->p;

	rec_clear(rec);
	while (*p == '\n' || (*p == '\r' && p[1] == '\n'))
		p += *p == '\r' ? 2 : 1;
	if (*p == '\0')
		return 0;
	rd->record++;
	for (;;) {
		size_t cap = 16, n = 0;
		char *f = xrealloc(NULL, cap);
		if (*p == '"') {
			p++;
			for (;;) {
				if (*p == '\0') {
					printf("record %d: unterminated quote\n", rd->record);
					free(f);
					return -1;
				}
				if (*p == '"') {
					if (p[1] != '"')
						break;
					p++;
				}
				if (n + 2 > cap)
					f = xrealloc(f, cap *= 2);
				f[n++] = *p++;
			}
			p++;
			if (*p != rd->delim && !at_eol(p)) {
				printf("record %d: junk after closing quote\n", rd->record);
				free(f);
				return -1;
			}
		} else {
			while (*p != rd->delim && !at_eol(p)) {
				if (n + 2 > cap)
					f = xrealloc(f, cap *= 2);
				f[n++] = *p++;
			}
		}
		f[n] = '\0';
		rec_push(rec, f);
		if (*p == rd->delim) {
			p++;
			continue;
		}
		break;
	}
	if (*p == '\r')
		p++;
	if (*p == '\n')
		p++;
	rd->p = p;
	return 1;
}

static void put_field(const char *s)
{
	for (; *s; s++) {
		if (*s == '\n')
			fputs("\\n", stdout);
		else if (*s == '|' || *s == '\\')
			printf("\\%c", *s);
		else
			putchar(*s);
	}
}

/* Parse the column list into 0-based indexes; returns the count or -1. */
static int parse_columns(const char *spec, const Record *header, int *sel)
{
	int n = 0;
	const char *p = spec;

	while (*p != '\0') {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char *item = xstrndup(p, len);
		char *dash = strchr(item, '-');
		char *stop;
		long lo = strtol(item, &stop, 10);
		if (stop != item && (*stop == '\0' || stop == dash)) {
			long hi = lo;
			if (dash != NULL) {
				hi = strtol(dash + 1, &stop, 10);
				if (stop == dash + 1 || *stop != '\0')
					lo = 0;
			}
			if (lo < 1 || hi < lo) {
				printf("bad column range '%s'\n", item);
				free(item);
				return -1;
			}
			for (long c = lo; c <= hi && n < MAX_SEL; c++)
				sel[n++] = (int)c - 1;
		} else {
			int found = -1;
			for (int k = 0; header != NULL && k < header->n; k++)
				if (strcmp(header->fields[k], item) == 0) {
					found = k;
					break;
				}
			if (found < 0) {
				printf("unknown column '%s'\n", item);
				free(item);
				return -1;
			}
			if (n < MAX_SEL)
				sel[n++] = found;
		}
		free(item);
		p += len;
		if (*p == ',')
			p++;
	}
	return n;
}

static void print_record(const Record *rec, const int *sel, int nsel)
{
	int count = nsel > 0 ? nsel : rec->n;

	for (int k = 0; k < count; k++) {
		int c = nsel > 0 ? sel[k] : k;
		if (k > 0)
			putchar('|');
		if (c < rec->n)
			put_field(rec->fields[c]);
	}
	putchar('\n');
}

int csv_main(int argc, char **argv, int first)
{
	Reader rd = { NULL, 0, ',' };
	int header = 0, count_only = 0;
	const char *spec = NULL;

	for (int k = first; k < argc; k++) {
		if (strcmp(argv[k], "-d") == 0 && k + 1 < argc) {
			const char *d = argv[++k];
			if (strlen(d) != 1 || d[0] == '"' || d[0] == '\n') {
				printf("bad delimiter '%s'\n", d);
				return 2;
			}
			rd.delim = d[0];
		} else if (strcmp(argv[k], "--header") == 0) {
			header = 1;
		} else if (strcmp(argv[k], "--count") == 0) {
			count_only = 1;
		} else if (spec == NULL && argv[k][0] != '-') {
			spec = argv[k];
		} else {
			printf("bad argument '%s'\n", argv[k]);
			return 2;
		}
	}

	size_t len;
	char *text = read_all(&len);
	Record rec = { NULL, 0, 0 }, head = { NULL, 0, 0 };
	int sel[MAX_SEL], nsel = 0, records = 0, status = 0, r;
	rd.p = text;

	if (header) {
		r = read_record(&rd, &head);
		if (r < 0)
			status = 2;
	}
	if (status == 0 && spec != NULL) {
		nsel = parse_columns(spec, header ? &head : NULL, sel);
		if (nsel < 0)
			status = 2;
	}
	if (status == 0 && header && !count_only && head.n > 0)
		print_record(&head, sel, nsel);
	while (status == 0 && (r = read_record(&rd, &rec)) != 0) {
		if (r < 0) {
			status = 2;
			break;
		}
		records++;
		if (!count_only)
			print_record(&rec, sel, nsel);
	}
	if (count_only && status == 0)
		printf("%d record%s\n", records, records == 1 ? "" : "s");
	rec_clear(&rec);
	rec_clear(&head);
	free(rec.fields);
	free(head.fields);
	free(text);
	return status;
}
