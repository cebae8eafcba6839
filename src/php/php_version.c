/*
 * php_version.c - the extension's version check (php_version.h): the
 * engine's major.minor against the one it was built for.
 */
#include "php/php_version.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads "MAJOR.MINOR" at text; false when it is not there. */
static bool read_major_minor(const char *text, long *major, long *minor)
{
    char *end;
    *major = strtol(text, &end, 10);
    if (end == text || *end != '.')
        return false;
    const char *at = end + 1;
    *minor = strtol(at, &end, 10);
    return end != at;
}

bool php_version_compatible(const char *built, const char *php_built, const char *running, char *message,
                            size_t size)
{
    static const char engine[] = "Zend Engine v";
    long built_major, built_minor, major, minor;
    const char *at = running ? strstr(running, engine) : NULL;
    if (!at || !read_major_minor(at + strlen(engine), &major, &minor) ||
        !read_major_minor(built, &built_major, &built_minor))
        return true;
    if (major == built_major && minor == built_minor)
        return true;
    long php_major = 0, php_minor = 0;
    read_major_minor(php_built, &php_major, &php_minor);
    snprintf(
        message, size,
        "culprit: this culprit.so was built for PHP %ld.%ld (Zend Engine %ld.%ld) and cannot be loaded by "
        "this PHP (Zend Engine %ld.%ld): build culprit with this PHP's php-config "
        "(make php PHP_CONFIG=/path/to/php-config)",
        php_major, php_minor, built_major, built_minor, major, minor);
    return false;
}
