#!/bin/sh
# test_input_bounds.sh - every reader stops at its documented bound with a
# clean error (exit 2) instead of taking all memory (issue 19, item 7;
# docs/formats.md, "Bounds"): `culprit import gcov-json /dev/zero` grew to
# 24 GB, a small gzip bomb took 3.1 GB.  Each case runs under `ulimit -v`
# (2 GB of address space), so that a reader that lost its bound fails here
# at once, out of memory, instead of eating the machine.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "$E2E_NAME: note: no python3; skipping"; finish; exit 0; }

LIMIT_KB=2000000
# bounded EXPECTED TEXT command...: runs the command under the memory
# limit; it must exit EXPECTED and say TEXT on stderr.
bounded() {
    expected=$1 text=$2
    shift 2
    (ulimit -v $LIMIT_KB && exec "$@") >"$WORK/out" 2>"$WORK/err"
    actual=$?
    if [ "$actual" -eq "$expected" ]; then pass; else
        fail "'$*' exited $actual, expected $expected; stderr: $(head -c 300 "$WORK/err")"
    fi
    expect_contains "$WORK/err" "$text"
}
import_limit="larger than 256 MiB, the most culprit reads for an import file"

# /dev/zero as every import file.
bounded 2 "$import_limit" "$CULPRIT" --store st import gcov-json --fail x /dev/zero
bounded 2 "$import_limit" "$CULPRIT" --store st import lcov --fail x /dev/zero
bounded 2 "$import_limit" "$CULPRIT" --store st import csv /dev/zero
bounded 2 "$import_limit" "$CULPRIT" --store st import json /dev/zero
printf 'name\na.c:1\n' >spectra.csv
printf '1 +\n' >matrix.txt
bounded 2 "$import_limit" "$CULPRIT" --store st import gzoltar --spectra /dev/zero --matrix matrix.txt
bounded 2 "$import_limit" "$CULPRIT" --store st import gzoltar --spectra spectra.csv --matrix /dev/zero
bounded 2 "$import_limit" "$CULPRIT" --store st import gzoltar --spectra spectra.csv --matrix matrix.txt \
    --tests /dev/zero
printf 'SF:/a.c\nDA:1,1\nend_of_record\n' >one.info
bounded 2 "$import_limit" "$CULPRIT" --store st import lcov --verdicts /dev/zero one.info

# Valid records without end: lcov lines that each add a record.
python3 -c "
import sys
sys.stdout.write('SF:/a.c\n' + 'DA:1,1\n' * (40 << 20))" >endless.info
bounded 2 "$import_limit" "$CULPRIT" --store st import lcov --fail endless endless.info
rm -f endless.info

# A gzip bomb: 32 gzip members of 64 MiB of blanks each, 2 GiB once
# decompressed from about 2 MB.
python3 -c "
import gzip, sys
member = gzip.compress(b' ' * (64 << 20), 9)
sys.stdout.buffer.write(member * 32)" >bomb.gcov.json.gz
bounded 2 "larger than 256 MiB, the most culprit reads for an import file, decompressed" \
    "$CULPRIT" --store st import gcov-json --fail bomb bomb.gcov.json.gz

# JSON whose values cost far more memory than their text: 5 M empty
# objects (15 MB of text, over 1 GB in jansson).
python3 -c "
import sys
sys.stdout.write('[' + ','.join(['{}'] * (5 << 20)) + ']')" >objects.json
bounded 2 "more than 4194304 JSON objects and arrays" "$CULPRIT" --store st import json objects.json
cp objects.json objects.gcov.json
bounded 2 "more than 4194304 JSON objects and arrays" "$CULPRIT" --store st import gcov-json --fail x \
    objects.gcov.json
rm -f objects.json objects.gcov.json

# Manifests: /dev/zero, and a JSON manifest of 5 M empty arrays.
bounded 2 "larger than 64 MiB, the most culprit reads for a manifest" "$CULPRIT" --store st run --tests /dev/zero
python3 -c "
import sys
sys.stdout.write('[' + ','.join(['[]'] * (5 << 20)) + ']')" >manifest.json
bounded 2 "more than 4194304 JSON values" "$CULPRIT" --store st run --tests manifest.json
rm -f manifest.json

# A test that leaves a 3 GiB (sparse) dump or map in its collection
# directory: recorded as an error with the reason, not read into memory.
for name in 1.0.dump "$(printf '%064d' 0).map"; do
    store=st-$name
    bounded 0 "" "$CULPRIT" --store "$store" test --name t -- sh -c \
        "truncate -s 3G \"\$CULPRIT_COLLECT_DIR/$name\""
    "$CULPRIT" --store "$store" tests --format csv >tests.csv 2>&1
    expect_contains tests.csv "cannot read the test's coverage"
    expect_contains tests.csv "larger than 256 MiB"
done
finish
