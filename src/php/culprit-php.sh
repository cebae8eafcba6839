#!/bin/sh
# culprit-php - runs PHP's command line with culprit's extension loaded, so
# that `culprit test -- culprit-php script.php ARGS` records a PHP run with
# no PHP configuration (docs/php.md).  The extension is found beside this
# script (a build tree: BUILD/culprit.so) or in the install prefix
# (PREFIX/lib/culprit/culprit.so); CULPRIT_PHP_EXTENSION names another, and
# CULPRIT_PHP another php binary.  Without CULPRIT_COLLECT_DIR the extension
# does nothing, so this is plain php.
here=$(cd "$(dirname "$0")" && pwd)
extension=${CULPRIT_PHP_EXTENSION:-}
if [ -z "$extension" ]; then
    for candidate in "$here/culprit.so" "$here/../lib/culprit/culprit.so"; do
        if [ -f "$candidate" ]; then
            extension=$candidate
            break
        fi
    done
fi
if [ -z "$extension" ]; then
    echo "culprit-php: cannot find culprit's PHP extension (culprit.so) beside $here or in $here/../lib/culprit;" \
        "set CULPRIT_PHP_EXTENSION" >&2
    exit 127
fi
exec "${CULPRIT_PHP:-php}" -d "extension=$extension" "$@"
