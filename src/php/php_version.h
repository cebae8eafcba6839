/*
 * php_version.h - whether the PHP that loads the extension is the PHP it
 * was built for (php_version.c).  A Zend extension is tied to one PHP
 * minor version (its module API); PHP itself refuses another's with a
 * three-line "Unable to initialize module" warning.  The extension first
 * says, in one sentence of its own, which PHP it needs and how to get a
 * matching build (docs/php.md, "Installing").  Knows nothing of PHP's
 * headers (tests/unit/test_php_version.c).
 */
#ifndef CULPRIT_PHP_VERSION_H
#define CULPRIT_PHP_VERSION_H

#include <stdbool.h>
#include <stddef.h>

/* built: the Zend Engine version the extension was compiled against
 * (ZEND_VERSION, "4.2.36"), and php_built PHP's (PHP_VERSION); running:
 * what the loading PHP's get_zend_version() says ("Zend Engine v4.3.0,
 * Copyright (c) Zend Technologies..."), or NULL when it has none.  False,
 * with the sentence to print in message, when the two engines' major and
 * minor versions differ; true when they agree or running cannot be read
 * (PHP's own check then decides). */
bool php_version_compatible(const char *built, const char *php_built, const char *running, char *message,
                            size_t size);

#endif
