/* iniparse - small helpers. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iniparse.h"

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (q == NULL) {
		fputs("iniparse: out of memory\n", stderr);
		exit(3);
	}
	return q;
}

char *xstrndup(const char *s, size_t n)
{
	char *d = xrealloc(NULL, n + 1);
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

void lower(char *s)
{
	for (; *s; s++)
		*s = (char)tolower((unsigned char)*s);
}

/* Read all of stdin into a NUL-terminated buffer. */
char *read_all(size_t *len)
{
	size_t cap = 4096, n = 0, got;
	char *buf = xrealloc(NULL, cap);

	while ((got = fread(buf + n, 1, cap - n - 1, stdin)) > 0) {
		n += got;
		if (cap - n - 1 == 0) {
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}
