/*
 * test_php_version.c - the extension's version check (src/php/php_version.c):
 * a PHP whose engine has another major or minor version gets one sentence
 * naming both, a patch release or an unreadable version string none.
 *
 * The extension is not in libculprit, and this part needs no PHP headers,
 * so its source is compiled into the test.
 */
#include "php/php_version.c"

#include "check.h"

static const char built[] = "4.2.36", php_built[] = "8.2.36";

static void test_versions(void)
{
    char message[512] = "";
    CHECK(php_version_compatible(built, php_built, "Zend Engine v4.2.36, Copyright (c) Zend Technologies\n",
                                 message, sizeof message));
    CHECK(php_version_compatible(built, php_built, "Zend Engine v4.2.0, Copyright (c) Zend Technologies",
                                 message, sizeof message));
    CHECK_STR(message, "");
    CHECK(!php_version_compatible(built, php_built, "Zend Engine v4.3.1, Copyright (c) Zend Technologies",
                                  message, sizeof message));
    CHECK_STR(message,
              "culprit: this culprit.so was built for PHP 8.2 (Zend Engine 4.2) and cannot be loaded by "
              "this PHP (Zend Engine 4.3): build culprit with this PHP's php-config "
              "(make php PHP_CONFIG=/path/to/php-config)");
    message[0] = '\0';
    CHECK(!php_version_compatible(built, php_built, "Zend Engine v3.4.0, Copyright (c) Zend Technologies",
                                  message, sizeof message));
    CHECK(strstr(message, "(Zend Engine 3.4)") != NULL);
    /* what cannot be read is left to PHP's own check */
    CHECK(php_version_compatible(built, php_built, NULL, message, sizeof message));
    CHECK(php_version_compatible(built, php_built, "Zend Engine vX", message, sizeof message));
    CHECK(php_version_compatible(built, php_built, "something else", message, sizeof message));
}

int main(void)
{
    test_versions();
    return check_report("test_php_version");
}
