/*
 * php_headers.c - the response's HTTP headers, for `culprit web` (docs/web.md):
 * culprit-php-cgi --headers FILE sets CULPRIT_PHP_CGI_HEADERS=FILE, and when
 * a request ends the extension writes there the status and every header the
 * page set (`Status: 302`, `Set-Cookie: PHPSESSID=...; path=/`,
 * `Location: members.php`), one a line.
 *
 * With CULPRIT_PHP_CGI_BODY=1 php-cgi sends no headers (the body is the
 * test's output), but PHP still keeps them in SG(sapi_headers) until the
 * request is deactivated, after the modules' RSHUTDOWN: the session's cookie,
 * setcookie() and header() all land there.  Written collecting or not, like
 * the body, and to a temporary name renamed at the end, so that a reader never
 * sees half a file.
 */
#include "php/php_internal.h"

#include <SAPI.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *headers_path; /* CULPRIT_PHP_CGI_HEADERS, or NULL */

void php_headers_startup(void)
{
    const char *path = getenv("CULPRIT_PHP_CGI_HEADERS");
    free(headers_path);
    headers_path = path && *path ? strdup(path) : NULL;
}

void php_headers_shutdown(void)
{
    free(headers_path);
    headers_path = NULL;
}

static void write_header(void *element, void *file)
{
    const sapi_header_struct *header = element;
    fwrite(header->header, 1, header->header_len, file);
    fputc('\n', file);
}

void php_headers_write(void)
{
    if (!headers_path)
        return;
    size_t length = strlen(headers_path);
    char *temporary = malloc(length + 8);
    if (!temporary)
        return;
    memcpy(temporary, headers_path, length);
    memcpy(temporary + length, ".part", 6);
    FILE *file = fopen(temporary, "w");
    bool ok = file != NULL;
    if (file) {
        int code = SG(sapi_headers).http_response_code;
        fprintf(file, "Status: %d\n", code ? code : 200);
        zend_llist_apply_with_argument(&SG(sapi_headers).headers, write_header, file);
        ok = fclose(file) == 0;
    }
    if (!ok || rename(temporary, headers_path) != 0)
        fprintf(stderr, "culprit: cannot write the response's headers to %s\n", headers_path);
    free(temporary);
}
