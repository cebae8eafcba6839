#!/bin/sh
# demo.sh - culprit's main job on the bundled mid() example: import its
# spectra, rank the lines, and measure every formula against the known fault.
# usage: examples/demo.sh PATH/TO/culprit
set -eu
culprit=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
example=$(cd "$(dirname "$0")/mid" && pwd)
work=${DEMO_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/culprit-demo.XXXXXX")}
cd "$work"
export CULPRIT_STORE="$work/.culprit"
rm -rf "$CULPRIT_STORE"

echo "== importing the mid() example (6 tests, 1 failing)"
"$culprit" import gzoltar --spectra "$example/spectra.csv" --matrix "$example/matrix.txt" \
    --tests "$example/tests.csv"
echo
echo "== culprit rank --formula tarantula"
"$culprit" rank --formula tarantula --top 5
echo
echo "== culprit rank --formula ochiai"
"$culprit" rank --formula ochiai --top 5
echo
echo "== culprit eval: where does each formula put the known fault (mid.c:12)?"
"$culprit" eval --faults "$example/faults.txt" --formula all --format text | head -n 20
echo
echo "The store is in $CULPRIT_STORE; the source is $example/mid.c (line 12)."
