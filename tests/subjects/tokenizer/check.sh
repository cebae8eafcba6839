#!/bin/sh
# Builds the correct version and every faulty version of this subject in a
# temporary directory, runs the test pool against each, and checks that the
# correct version passes every test and that every faulty version fails at
# least one and at most 20% of the tests.  Prints a table; exits non-zero if
# any rule is violated.
NAME=tokenizer

here=$(cd "$(dirname "$0")" && pwd)
CC=${CC:-cc}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-$NAME.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
if command -v timeout >/dev/null 2>&1; then
    TO="timeout 10"
else
    TO=""
fi

ntests=$(grep -c '^[^#]' "$here/tests/manifest.txt")
status=0

# build VERSION_DIR: copy the sources, apply PATCH (if any), compile
build() {
    dir=$1
    patchfile=$2
    mkdir -p "$dir"
    cp -R "$here/src" "$dir/src"
    ln -s "$here/tests" "$dir/tests"
    if [ -n "$patchfile" ]; then
        (cd "$dir" && patch -s -p1 <"$patchfile") || return 1
    fi
    (cd "$dir" && $CC -std=c11 -o "$NAME" src/*.c -lm) || return 1
}

# run_pool VERSION_DIR: prints the number of failing tests
run_pool() {
    dir=$1
    fails=0
    while IFS= read -r line; do
        case $line in '' | '#'*) continue ;; esac
        t=${line%%:*}
        cmd=${line#*:}
        exp_exit=0
        if [ -f "$here/tests/expected/$t.exit" ]; then
            exp_exit=$(cat "$here/tests/expected/$t.exit")
        fi
        (cd "$dir" && $TO sh -c "$cmd" >"$tmp/out" 2>/dev/null </dev/null)
        got_exit=$?
        if [ "$got_exit" != "$exp_exit" ] ||
            ! cmp -s "$tmp/out" "$here/tests/expected/$t.out"; then
            fails=$((fails + 1))
            [ -n "$VERBOSE" ] && echo "  $1: $t failed" >&2
        fi
    done <"$here/tests/manifest.txt"
    echo "$fails"
}

printf '%-10s %8s %8s  %s\n' version failing '%' verdict
if ! build "$tmp/correct" ""; then
    echo "correct version does not build"
    exit 1
fi
f=$(run_pool "$tmp/correct")
if [ "$f" -eq 0 ]; then v=ok; else v="FAIL (correct version must pass all)"; status=1; fi
printf '%-10s %8s %7s%%  %s\n' correct "$f/$ntests" "$((f * 100 / ntests))" "$v"

max=$((ntests / 5))
nfaults=0
for n in $(ls "$here/faults" | sed -n 's/^v\([0-9][0-9]*\)\.patch$/\1/p' | sort -n); do
    id=v$n
    p=$here/faults/$id.patch
    nfaults=$((nfaults + 1))
    if [ ! -f "$here/faults/$id.lines" ]; then
        printf '%-10s %8s %8s  %s\n' "$id" - - "FAIL (no $id.lines)"
        status=1
        continue
    fi
    if ! build "$tmp/$id" "$p"; then
        printf '%-10s %8s %8s  %s\n' "$id" - - "FAIL (does not apply or build)"
        status=1
        continue
    fi
    f=$(run_pool "$tmp/$id")
    if [ "$f" -lt 1 ]; then
        v="FAIL (no failing test)"; status=1
    elif [ "$f" -gt "$max" ]; then
        v="FAIL (fails more than 20%)"; status=1
    else
        v=ok
    fi
    printf '%-10s %8s %7s%%  %s\n' "$id" "$f/$ntests" "$((f * 100 / ntests))" "$v"
    rm -rf "$tmp/$id"
done
if [ "$nfaults" -lt 10 ]; then
    echo "only $nfaults faulty versions (need at least 10)"
    status=1
fi
if [ "$status" -eq 0 ]; then
    echo "check: ok ($nfaults faulty versions, $ntests tests)"
else
    echo "check: FAILED"
fi
exit $status
