/* iniparse - shared declarations for the INI and CSV parts. */
#ifndef INIPARSE_H
#define INIPARSE_H

#include <stddef.h>

enum { DUP_LAST, DUP_FIRST, DUP_ERROR };

typedef struct {
	char *key;
	char *value;
	int line;
} Entry;

typedef struct {
	char *name;
	Entry *entries;
	int n, cap;
} Section;

typedef struct {
	Section *sections;   /* sections[0] is the global section, name "" */
	int n, cap;
	int errors;
	int dup_policy;
} Ini;

/* util */
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
void lower(char *s);
char *read_all(size_t *len);

/* ini.c */
void ini_init(Ini *ini, int dup_policy);
void ini_parse(Ini *ini, const char *text);
Section *ini_section(const Ini *ini, const char *name);
const char *ini_get(const Ini *ini, const char *section, const char *key);
void ini_dump(const Ini *ini);

/* csv.c */
int csv_main(int argc, char **argv, int first);

#endif
