/*
 * iniparse - query INI files, or select columns from CSV.
 *
 *   iniparse [--dup=last|first|error] [--sections] [--keys SECTION] [--dump]
 *            [SECTION.KEY | KEY]... < file.ini
 *   iniparse --csv [-d C] [--header] [--count] [COLUMNS] < file.csv
 *
 * Each query prints the value of a key (a query without a dot looks in the
 * global section, before the first header) or `QUERY: not found`.
 * --sections lists the sections, --keys SECTION lists the keys of one
 * section, --dump prints the whole file normalized.  The duplicate-key
 * policy decides which of two values of a key wins, or makes it an error.
 *
 * Exit status: 2 for syntax errors or bad arguments, 1 when a query or
 * section was not found, 0 otherwise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iniparse.h"

static int query(const Ini *ini, const char *q)
{
	char *copy = xstrdup(q);
	lower(copy);
	char *dot = strrchr(copy, '.');
	const char *section = "", *key = copy;

	if (dot != NULL) {
		*dot = '\0';
		section = copy;
		key = dot + 1;
	}
	const char *v = ini_get(ini, section, key);
	if (v == NULL)
		printf("%s: not found\n", q);
	else
		printf("%s\n", v);
	free(copy);
	return v == NULL;
}

static int list_keys(const Ini *ini, const char *name)
{
	char *copy = xstrdup(name);
	lower(copy);
	Section *s = ini_section(ini, copy);
	free(copy);
	if (s == NULL) {
		printf("no section '%s'\n", name);
		return 1;
	}
	for (int k = 0; k < s->n; k++)
		printf("%s\n", s->entries[k].key);
	return 0;
}

static int usage(void)
{
	puts("usage: iniparse [--dup=last|first|error] [--sections] [--keys SECTION] [--dump] [QUERY]...");
	puts("       iniparse --csv [-d C] [--header] [--count] [COLUMNS]");
	return 2;
}

int main(int argc, char **argv)
{
	int dup = DUP_LAST, k = 1;

	if (argc > 1 && strcmp(argv[1], "--csv") == 0)
		return csv_main(argc, argv, 2);
	for (; k < argc && strncmp(argv[k], "--dup=", 6) == 0; k++) {
		const char *p = argv[k] + 6;
		if (strcmp(p, "last") == 0)
			dup = DUP_LAST;
		else if (strcmp(p, "first") == 0)
			dup = DUP_FIRST;
		else if (strcmp(p, "error") == 0)
			dup = DUP_ERROR;
		else
			return usage();
	}

	size_t len;
	char *text = read_all(&len);
	Ini ini;
	ini_init(&ini, dup);
	ini_parse(&ini, text);
	free(text);

	int missing = 0;
	for (; k < argc; k++) {
		if (strcmp(argv[k], "--sections") == 0) {
			for (int s = 1; s < ini.n; s++)
				printf("%s\n", ini.sections[s].name);
		} else if (strcmp(argv[k], "--keys") == 0) {
			if (k + 1 >= argc)
				return usage();
			missing |= list_keys(&ini, argv[++k]);
		} else if (strcmp(argv[k], "--dump") == 0) {
			ini_dump(&ini);
		} else if (argv[k][0] == '-') {
			printf("unknown option '%s'\n", argv[k]);
			return usage();
		} else {
			missing |= query(&ini, argv[k]);
		}
	}
	if (ini.errors > 0)
		return 2;
	return missing ? 1 : 0;
}
