/*
 * iniparse - the INI reader.
 *
 * Syntax: `[section]` headers, `key = value` or `key: value` entries,
 * comment lines starting with ';' or '#', inline comments (';' or '#' after
 * whitespace) in unquoted values, "double quoted" values with \n \t \\ \"
 * escapes, 'single quoted' values taken literally, and continuation lines
 * (a line ending in a backslash is joined with the next one).  Section and
 * key names are case-insensitive.  Errors are printed as `line N: MESSAGE`.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iniparse.h"

static void error(Ini *ini, int line, const char *msg, const char *arg)
{
	printf("line %d: %s", line, msg);
	if (arg != NULL)
		printf(" '%s'", arg);
	putchar('\n');
	ini->errors++;
}

static Section *add_section(Ini *ini, const char *name)
{
	if (ini->n == ini->cap) {
		ini->cap = ini->cap ? ini->cap * 2 : 8;
		ini->sections = xrealloc(ini->sections, (size_t)ini->cap * sizeof *ini->sections);
	}
	Section *s = &ini->sections[ini->n++];
	s->name = xstrdup(name);
	s->entries = NULL;
	s->n = s->cap = 0;
	return s;
}

void ini_init(Ini *ini, int dup_policy)
{
	memset(ini, 0, sizeof *ini);
	ini->dup_policy = dup_policy;
	add_section(ini, "");
}

Section *ini_section(const Ini *ini, const char *name)
{
	for (int k = 0; k < ini->n; k++)
		if (strcmp(ini->sections[k].name, name) == 0)
			return &ini->sections[k];
	return NULL;
}

static Entry *find_entry(Section *s, const char *key)
{
	for (int k = 0; k < s->n; k++)
		if (strcmp(s->entries[k].key, key) == 0)
			return &s->entries[k];
	return NULL;
}

const char *ini_get(const Ini *ini, const char *section, const char *key)
{
	Section *s = ini_section(ini, section);
	if (s == NULL)
		return NULL;
	Entry *e = find_entry(s, key);
	return e ? e->value : NULL;
}

static void set_entry(Ini *ini, Section *s, char *key, char *value, int line)
{
	Entry *e = find_entry(s, key);

	if (e != NULL) {
		if (ini->dup_policy == DUP_LAST) {
			free(e->value);
			e->value = value;
			e->line = line;
		} else {
			if (ini->dup_policy == DUP_ERROR)
				printf("line %d: duplicate key '%s' (first on line %d)\n", line, key, e->line), ini->errors++;
			free(value);
		}
		free(key);
		return;
	}
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 8;
		s->entries = xrealloc(s->entries, (size_t)s->cap * sizeof *s->entries);
	}
	e = &s->entries[s->n++];
	e->key = key;
	e->value = value;
	e->line = line;
}

static const char *skip_space(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static int rest_is_blank(const char *p)
{
	p = skip_space(p);
	return *p == '\0' || *p == ';' || *p == '#';
}

/* Copy the trimmed text between s and e. */
static char *trimmed(const char *s, const char *e)
{
	s = skip_space(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	return xstrndup(s, (size_t)(e - s));
}

/* Parse the value starting at p; returns NULL (after reporting) on error. */
static char *parse_value(Ini *ini, const char *p, int line)
{
	p = skip_space(p);
	if (*p == '"') {
		size_t n = 0, len = strlen(p);
		char *out = xrealloc(NULL, len + 1);
		p++;
		while (*p != '\0' && *p != '"') {
			if (*p == '\\' && p[1] != '\0') {
				p++;
				switch (*p) {
				case 'n': out[n++] = '\n'; break;
				case 't': out[n++] = '\t'; break;
				default: out[n++] = *p; break;
				}
			} else {
				out[n++] = *p;
			}
			p++;
		}
		out[n] = '\0';
		if (*p != '"') {
			error(ini, line, "unterminated quote", NULL);
			free(out);
			return NULL;
		}
		if (!rest_is_blank(p + 1)) {
			error(ini, line, "junk after quoted value", NULL);
			free(out);
			return NULL;
		}
		return out;
	}
	if (*p == '\'') {
		const char *end = strchr(p + 1, '\'');
		if (end == NULL) {
			error(ini, line, "unterminated quote", NULL);
			return NULL;
		}
		if (!rest_is_blank(end + 1)) {
			error(ini, line, "junk after quoted value", NULL);
			return NULL;
		}
		return xstrndup(p + 1, (size_t)(end - p - 1));
	}
	const char *e = p;
	while (*e != '\0') {
		if ((*e == ';' || *e == '#') && (e == p || e[-1] == ' ' || e[-1] == '\t'))
			break;
		e++;
	}
	return trimmed(p, e);
}

static Section *parse_header(Ini *ini, const char *p, int line)
{
	const char *close = strchr(p, ']');

	if (close == NULL) {
		error(ini, line, "unterminated section header", NULL);
		return NULL;
	}
	if (!rest_is_blank(close + 1)) {
		error(ini, line, "junk after section header", NULL);
		return NULL;
	}
	char *name = trimmed(p + 1, close);
	if (name[0] == '\0') {
		error(ini, line, "empty section name", NULL);
		free(name);
		return NULL;
	}
	lower(name);
	Section *s = ini_section(ini, name);
	if (s == NULL)
		s = add_section(ini, name);
	free(name);
	return s;
}

static void parse_line(Ini *ini, Section **cur, const char *text, int line)
{
	const char *p = skip_space(text);

	if (*p == '\0' || *p == ';' || *p == '#')
		return;
	if (*p == '[') {
		Section *s = parse_header(ini, p, line);
		if (s != NULL)
			*cur = s;
		return;
	}
	const char *sep = p;
	while (*sep != '\0' && *sep != '=' && *sep != ':')
		sep++;
	if (*sep == '\0') {
		error(ini, line, "expected key = value", NULL);
		return;
	}
	char *key = trimmed(p, sep);
	if (key[0] == '\0') {
		error(ini, line, "empty key", NULL);
		free(key);
		return;
	}
	lower(key);
	char *value = parse_value(ini, sep + 1, line);
	if (value == NULL) {
		free(key);
		return;
	}
	set_entry(ini, *cur, key, value, line);
}

void ini_parse(Ini *ini, const char *text)
{
	int lineno = 0;
	size_t cap = 256;
	char *buf = xrealloc(NULL, cap);
	int cur = 0;   /* index of the current section */

	while (*text != '\0') {
		size_t n = 0;
		int start = lineno + 1;
		for (;;) {
			const char *nl = strchr(text, '\n');
			size_t len = nl ? (size_t)(nl - text) : strlen(text);
			lineno++;
			if (len > 0 && text[len - 1] == '\r')
				len--;
			const char *piece = n > 0 ? skip_space(text) : text;
			len -= (size_t)(piece - text);
			if (n + len + 1 > cap) {
				cap = (n + len + 1) * 2;
				buf = xrealloc(buf, cap);
			}
			memcpy(buf + n, piece, len);
			n += len;
			buf[n] = '\0';
			text = nl ? nl + 1 : text + strlen(text);
			if (n > 0 && buf[n - 1] == '\\' && *text != '\0') {
				buf[--n] = '\0';
				continue;
			}
			break;
		}
		Section *s = &ini->sections[cur];
		parse_line(ini, &s, buf, start);
		cur = (int)(s - ini->sections);
	}
	free(buf);
}

/* Print a value, quoting it when it would not read back as it is. */
static void print_value(const char *v)
{
	int quote = v[0] == ' ' || v[0] == '"' || v[0] == '\'' ||
	            (v[0] != '\0' && v[strlen(v) - 1] == ' ');
	for (const char *p = v; *p && !quote; p++)
		if (*p == ';' || *p == '#' || *p == '\n' || *p == '\t' || *p == '\\')
			quote = 1;
	if (!quote) {
		puts(v);
		return;
	}
	putchar('"');
	for (const char *p = v; *p; p++) {
		switch (*p) {
		case '\n': fputs("\\n", stdout); break;
		case '\t': fputs("\\t", stdout); break;
		case '"': fputs("\\\"", stdout); break;
		case '\\': fputs("\\\\", stdout); break;
		default: putchar(*p); break;
		}
	}
	puts("\"");
}

void ini_dump(const Ini *ini)
{
	for (int k = 0; k < ini->n; k++) {
		const Section *s = &ini->sections[k];
		if (k > 0)
			printf("%s[%s]\n", k > 1 || ini->sections[0].n > 0 ? "\n" : "", s->name);
		for (int j = 0; j < s->n; j++) {
			printf("%s = ", s->entries[j].key);
			print_value(s->entries[j].value);
		}
	}
}
