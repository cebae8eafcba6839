#!/bin/sh
# culprit-php - runs PHP's command line with culprit's extension loaded, so
# that `culprit test -- culprit-php script.php ARGS` records a PHP run with
# no PHP configuration (docs/php.md).  The extension is found beside this
# script (a build tree: BUILD/culprit.so) or in the install prefix
# (PREFIX/lib/culprit/culprit.so); CULPRIT_PHP_EXTENSION names another, and
# CULPRIT_PHP another php binary.  Without CULPRIT_COLLECT_DIR the extension
# does nothing, so this is plain php.
# (parameter expansion, not dirname: every fork counts in a short test)
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
case $here in /*) ;; *) here=$PWD/$here ;; esac
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
# With the module enabled in PHP's configuration (`phpenmod culprit`,
# docs/php.md "Installing"), PHP loads it already, and loading it twice
# would make PHP warn: the ini files PHP scans are looked at, those of
# PHP_INI_SCAN_DIR or the PHP's own directory (culprit-php-cgi names
# php-cgi's in CULPRIT_PHP_SCAN_DIR).  That enabled module is then the one
# used.
enabled_in_ini() {
    dirs=${PHP_INI_SCAN_DIR-${CULPRIT_PHP_SCAN_DIR:-@PHP_SCAN_DIR@}}
    old_ifs=$IFS
    IFS=:
    for dir in $dirs; do
        IFS=$old_ifs
        [ -n "$dir" ] || dir=${CULPRIT_PHP_SCAN_DIR:-@PHP_SCAN_DIR@} # an empty entry is PHP's own
        for file in "$dir"/*.ini; do
            [ -f "$file" ] && loads_culprit "$file" && return 0
        done
    done
    IFS=$old_ifs
    return 1
}
# Whether the ini file $1 has a line `extension = ...culprit...` (read by
# the shell: a grep would be a fork and an exec in every PHP run).
loads_culprit() {
    while IFS= read -r line || [ -n "$line" ]; do
        line=${line#"${line%%[![:space:]]*}"}
        case $line in extension*) ;; *) continue ;; esac
        line=${line#extension}
        line=${line#"${line%%[![:space:]]*}"}
        case $line in =*culprit*) return 0 ;; esac
    done <"$1"
    return 1
}
if enabled_in_ini; then
    exec "${CULPRIT_PHP:-php}" "$@"
fi
exec "${CULPRIT_PHP:-php}" -d "extension=$extension" "$@"
