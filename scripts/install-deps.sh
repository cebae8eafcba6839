#!/bin/sh
# Installs the Debian packages culprit needs to build, test and benchmark
# (afl++: only `make eval-gen` uses it, as the fuzzer it compares with;
# php8.2-xdebug: only bench/php_overhead.sh, which loads it for its own runs;
# parallel and python3-yaml: the sharding recipes of test_shard_merge.sh;
# mariadb-server-core, mariadb-client and php8.2-mysql: culprit web
# --mariadb's disposable server, which test_web_mariadb.sh starts - the
# -core package has the server's programs and no service that starts),
# when they are missing.  Called by `make check`, `make demo` and `make bench`.
set -eu
packages="gcc make php8.2-cli php8.2-cgi php8.2-dev php8.2-sqlite3 php8.2-fpm libfcgi-bin phpunit pkg-config libsqlite3-dev libjansson-dev sqlite3 python3 clang-14 llvm-14-dev libclang-rt-14-dev libz3-dev lcov zlib1g-dev autoconf automake meson ninja-build cmake libtidy-dev chromium afl++ php8.2-xdebug parallel python3-yaml mariadb-server-core mariadb-client php8.2-mysql"
missing=""
for package in $packages; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' ||
        missing="$missing $package"
done
[ -z "$missing" ] && exit 0
echo "culprit: installing missing Debian packages:$missing" >&2
if [ "$(id -u)" -eq 0 ]; then
    sudo=""
elif command -v sudo >/dev/null 2>&1; then
    sudo="sudo"
else
    echo "culprit: need root (or sudo) to install:$missing" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
# Debian enables Xdebug for every SAPI when it installs it; culprit's tests
# and every other PHP run must not pay for it (nor see its output), so it
# is disabled again: the benchmark loads it with -d zend_extension=xdebug.so.
case " $missing " in
*" php8.2-xdebug "*) $sudo phpdismod -v 8.2 xdebug ;;
esac
