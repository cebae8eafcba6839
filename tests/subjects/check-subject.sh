#!/bin/sh
# check-subject.sh - build the correct version and every faulty version of a
# subject in a temporary directory, run the test pool against each, and print
# a table.  Each subject's check.sh calls this with its own directory.
# Exits non-zero when the correct version fails a test, when a fault patch
# does not apply or build, or when a faulty version fails no test or more
# than 20% of the tests.
#
# Usage: sh check-subject.sh SUBJECT_DIR   (CC, CFLAGS, TEST_TIMEOUT and
#        VERBOSE=1 to list failing tests)

here=$(cd "${1:?usage: check-subject.sh SUBJECT_DIR}" && pwd) || exit 2
NAME=$(basename "$here")
ROOT=$(cd "$(dirname "$0")/../.." && pwd) || exit 2
CC=${CC:-cc}
CFLAGS=${CFLAGS:--std=c11 -O0}
# The subjects with specifications include <culprit/contract.h>; a plain
# compiler finds it in the repository's include/ (culprit-cc finds it itself).
CFLAGS="$CFLAGS -I$ROOT/include"
LIMIT=${TEST_TIMEOUT:-5}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-$NAME.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

if command -v timeout >/dev/null 2>&1; then
	TIMEOUT="timeout $LIMIT"
else
	TIMEOUT=
fi

manifest=$here/tests/manifest.txt
total=$(grep -c '^[A-Za-z0-9_]*:' "$manifest")
if [ "$total" -eq 0 ]; then
	echo "check.sh: no tests in $manifest" >&2
	exit 2
fi

# The run directory mirrors the subject directory: ./NAME plus tests/.
run=$tmp/run
mkdir "$run" || exit 2
ln -s "$here/tests" "$run/tests" || exit 2

# build DIR: compile DIR/src/*.c into $run/$NAME.
build() {
	rm -f "$run/$NAME"
	# shellcheck disable=SC2086
	$CC $CFLAGS -o "$run/$NAME" "$1"/src/*.c -lm 2>"$tmp/build.log"
}

# pool: run every test against $run/$NAME, set $fails to the failing count.
pool() {
	fails=0
	while IFS= read -r line; do
		case $line in
		''|'#'*) continue ;;
		esac
		id=${line%%:*}
		cmd=${line#*:}
		(cd "$run" && $TIMEOUT sh -c "$cmd") >"$tmp/out" 2>/dev/null </dev/null
		code=$?
		want=0
		if [ -f "$here/tests/expected/$id.exit" ]; then
			want=$(cat "$here/tests/expected/$id.exit")
		fi
		if [ "$code" -ne "$want" ] || ! cmp -s "$tmp/out" "$here/tests/expected/$id.out"; then
			fails=$((fails + 1))
			if [ -n "${VERBOSE:-}" ]; then echo "  $ver: $id fails" >&2; fi
		fi
	done <"$manifest"
}

status=0
printf '%-10s %8s %8s  %s\n' version failing '%' verdict

ver=correct
if ! build "$here"; then
	cat "$tmp/build.log" >&2
	echo "check.sh: the correct version does not build" >&2
	exit 1
fi
pool
if [ "$fails" -ne 0 ]; then verdict="FAIL (correct version must pass)"; status=1; else verdict=ok; fi
printf '%-10s %8s %8s  %s\n' "$ver" "$fails/$total" "$((fails * 100 / total))" "$verdict"

for n in $(ls "$here/faults" | sed -n 's/^v\([0-9][0-9]*\)\.patch$/\1/p' | sort -n); do
	ver=v$n
	p=$here/faults/$ver.patch
	src=$tmp/$ver
	mkdir "$src" && cp -R "$here/src" "$src/src" || exit 2
	if ! (cd "$src" && patch -s -p1 <"$p" >/dev/null 2>&1); then
		printf '%-10s %8s %8s  %s\n' "$ver" - - "FAIL (patch does not apply)"
		status=1
		continue
	fi
	if [ ! -s "$here/faults/$ver.lines" ]; then
		printf '%-10s %8s %8s  %s\n' "$ver" - - "FAIL (missing $ver.lines)"
		status=1
		continue
	fi
	if ! build "$src"; then
		printf '%-10s %8s %8s  %s\n' "$ver" - - "FAIL (does not build)"
		status=1
		continue
	fi
	pool
	if [ "$fails" -eq 0 ]; then
		verdict="FAIL (no failing test)"; status=1
	elif [ $((fails * 5)) -gt "$total" ]; then
		verdict="FAIL (more than 20%)"; status=1
	else
		verdict=ok
	fi
	printf '%-10s %8s %8s  %s\n' "$ver" "$fails/$total" "$((fails * 100 / total))" "$verdict"
	rm -rf "$src"
done

if [ "$status" -eq 0 ]; then echo "check.sh: $NAME: all rules hold"; else echo "check.sh: $NAME: rule violations" >&2; fi
exit "$status"
