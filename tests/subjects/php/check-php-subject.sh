#!/bin/sh
# check-php-subject.sh - the PHP web subjects' counterpart of
# ../check-subject.sh: run the request tests of the correct version and of
# every faulty version of a subject, each in a temporary copy, and print a
# table.  The tests are judged by culprit itself (`culprit run` on
# tests/manifest.json: the expected page, the HTML oracle, and PHP warnings
# as failures through CULPRIT_PHP_FAIL_ON), so culprit must be built.
# Exits non-zero when the correct version fails a test, when a fault patch
# does not apply, or when a faulty version fails no test or more than 20%
# of the tests.
#
# Usage: sh check-php-subject.sh SUBJECT_DIR [vN...]   (the correct version,
#        then the faulty versions named, or all of them)
#        CULPRIT_BUILD: the build directory (default: the repository's build/);
#        MANIFEST: the suite in tests/ (default manifest.json; fourplay's
#        chains.json is its suite as "requests" chains);
#        VERBOSE=1 lists the failing tests.
set -eu

here=$(cd "${1:?usage: check-php-subject.sh SUBJECT_DIR [vN...]}" && pwd)
shift
NAME=$(basename "$here")
top=$(cd "$here/../../../.." && pwd)
build=$(cd "${CULPRIT_BUILD:-$top/build}" && pwd)
culprit=$build/culprit
for f in "$culprit" "$build/culprit-php-cgi" "$build/culprit.so"; do
	if [ ! -e "$f" ]; then
		echo "check.sh: $f is not built (make && make php)" >&2
		exit 2
	fi
done
PATH=$build:$PATH
export PATH

tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-$NAME.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

MANIFEST=${MANIFEST:-manifest.json}
total=$(grep -c '"name":' "$here/tests/$MANIFEST" || true)
if [ "$total" -eq 0 ]; then
	echo "check.sh: no tests in $here/tests/$MANIFEST" >&2
	exit 2
fi

# pool DIR: run the tests of the copy DIR, set $fails to the failing count.
pool() {
	"$culprit" --store "$1/.culprit" run --tests "$1/tests/$MANIFEST" -j 2 >"$tmp/run.out" 2>&1 || true
	"$culprit" --store "$1/.culprit" tests --format csv --failing >"$tmp/failing.csv" 2>/dev/null || true
	fails=$(($(wc -l <"$tmp/failing.csv") - 1))
	if [ "$fails" -lt 0 ]; then fails=0; fi
	if [ -n "${VERBOSE:-}" ] && [ "$fails" -gt 0 ]; then
		sed '1d; s/^/  '"$ver"': /; s/,.*//' "$tmp/failing.csv" >&2
	fi
}

# copy DIR: the subject's src/ and tests/ (tests are run from their copy:
# the manifest names the pages as ../src/...).
copy() {
	mkdir "$1"
	cp -R "$here/src" "$1/src"
	cp -R "$here/tests" "$1/tests"
}

status=0
printf '%-10s %8s %8s  %s\n' version failing '%' verdict
ver=correct
copy "$tmp/$ver"
pool "$tmp/$ver"
if [ "$fails" -ne 0 ]; then verdict="FAIL (correct version must pass)"; status=1; else verdict=ok; fi
printf '%-10s %8s %8s  %s\n' "$ver" "$fails/$total" "$((fails * 100 / total))" "$verdict"
rm -rf "${tmp:?}/$ver"
if [ $# -eq 0 ]; then
	# shellcheck disable=SC2046
	set -- $(ls "$here/faults" | sed -n 's/^\(v[0-9][0-9]*\)\.patch$/\1/p' | sort -t v -k 2 -n)
fi

for ver in "$@"; do
	if [ ! -f "$here/faults/$ver.patch" ]; then
		printf '%-10s %8s %8s  %s\n' "$ver" - - "FAIL (no faults/$ver.patch)"
		status=1
		continue
	fi
	copy "$tmp/$ver"
	if ! (cd "$tmp/$ver" && patch -s -p1 <"$here/faults/$ver.patch" >/dev/null 2>&1); then
		printf '%-10s %8s %8s  %s\n' "$ver" - - "FAIL (patch does not apply)"
		status=1
		continue
	fi
	if [ ! -s "$here/faults/$ver.lines" ]; then
		printf '%-10s %8s %8s  %s\n' "$ver" - - "FAIL (missing $ver.lines)"
		status=1
		continue
	fi
	pool "$tmp/$ver"
	if [ "$fails" -eq 0 ]; then
		verdict="FAIL (no failing test)"; status=1
	elif [ $((fails * 5)) -gt "$total" ]; then
		verdict="FAIL (more than 20%)"; status=1
	else
		verdict=ok
	fi
	printf '%-10s %8s %8s  %s\n' "$ver" "$fails/$total" "$((fails * 100 / total))" "$verdict"
	rm -rf "${tmp:?}/$ver"
done

if [ "$status" -eq 0 ]; then echo "check.sh: $NAME: all rules hold"; else echo "check.sh: $NAME: rule violations" >&2; fi
exit "$status"
