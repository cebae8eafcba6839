/*
 * php_live.c - live servers (`php -S`, php-fpm, php-cgi behind a web
 * server; docs/php.md "Live servers"): a request that carries the header
 * `X-Culprit-Test: NAME` is part of the test NAME, so that an end-to-end
 * suite driving a browser against a running server (Playwright against
 * `php -S`) gets a spectrum per test.
 *
 * When such a request starts, the name is read from $_SERVER
 * (HTTP_X_CULPRIT_TEST, which every web SAPI fills from the request's
 * headers); when it ends, its dump goes into the test's own directory of
 * the collection directory, DIR/live.HASH (php_files.c), with the test's
 * name beside it, instead of into DIR itself.  Every process serving the
 * test's requests finds the same directory.  The maps stay in DIR.  The
 * verdict is not the server's to know: the suite gives it when it records
 * the test (`culprit test --name NAME --verdict V --collect-dir DIR`,
 * src/cli/test_live.c), which sums the test's dumps.  In the command-line
 * SAPI there is no request: the variable would be the environment's, and
 * is not looked at.
 */
#include "php/php_internal.h"

#include <SAPI.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *test_name; /* this request's test, or NULL */
static size_t test_name_length;

void php_live_begin(void)
{
    php_live_end();
    if (strcmp(sapi_module.name, "cli") == 0 || strcmp(sapi_module.name, "phpdbg") == 0)
        return;
    zend_is_auto_global_str(ZEND_STRL("_SERVER")); /* auto_globals_jit: made when first used */
    zval *server = &PG(http_globals)[TRACK_VARS_SERVER];
    if (Z_TYPE_P(server) != IS_ARRAY)
        return;
    zval *name = zend_hash_str_find(Z_ARRVAL_P(server), ZEND_STRL("HTTP_X_CULPRIT_TEST"));
    if (!name || Z_TYPE_P(name) != IS_STRING || Z_STRLEN_P(name) == 0)
        return;
    test_name = malloc(Z_STRLEN_P(name) + 1);
    if (!test_name)
        return;
    memcpy(test_name, Z_STRVAL_P(name), Z_STRLEN_P(name) + 1);
    test_name_length = Z_STRLEN_P(name);
}

const char *php_live_directory(char *path, size_t size)
{
    if (!test_name)
        return NULL;
    culprit_error err = {0};
    if (php_files_make_live_directory(php_state.dir, test_name, test_name_length, path, size, &err) !=
        CULPRIT_OK) {
        fprintf(stderr, "culprit: cannot record this request as part of its test: %s\n", err.message);
        return NULL;
    }
    return path;
}

void php_live_end(void)
{
    free(test_name);
    test_name = NULL;
    test_name_length = 0;
}
