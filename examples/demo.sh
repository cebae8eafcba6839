#!/bin/sh
# demo.sh - culprit's main job on the bundled mid() example: build the faulty
# program with culprit-cc, run its six tests through `culprit test` (each
# checked against its expected output), rank the lines, and measure every
# formula against the known fault.
# usage: examples/demo.sh PATH/TO/culprit   (culprit-cc must sit beside it)
set -eu
culprit=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
bindir=$(dirname "$culprit")
example=$(cd "$(dirname "$0")/mid" && pwd)
work=${DEMO_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/culprit-demo.XXXXXX")}
cd "$work"
export CULPRIT_STORE="$work/.culprit"
rm -rf "$CULPRIT_STORE"

echo "== building mid.c with culprit-cc (line 12 has the fault: m = y where m = x is meant)"
"$bindir/culprit-cc" -O2 -o mid "$example/mid.c"
echo
echo "== running the six tests through culprit test"
for input in "3 3 5" "1 2 3" "3 2 1" "5 5 5" "5 3 4" "2 1 3"; do
    name=mid_$(echo "$input" | tr ' ' _)
    # shellcheck disable=SC2086
    if "$culprit" test --name "$name" --expect "$example/expected/$name.out" -- ./mid $input >/dev/null; then
        echo "   $name: recorded"
    fi
done
"$culprit" rank --top 0 --format csv >/dev/null # fails loudly if nothing was recorded
echo
echo "== culprit rank  (the default: DStar over enriched entities, a line scoring the best of its tuples and itself)"
"$culprit" rank --top 5
echo
echo "== culprit rank --formula tarantula --kind line  (Tarantula over plain lines, as in the paper)"
"$culprit" rank --formula tarantula --kind line --top 5
echo
echo "== culprit rank --kind branch  (the tuples themselves: <line, branch outcome>)"
"$culprit" rank --kind branch --top 5
echo
echo "== culprit eval: where does each formula put the known fault (mid.c:12)?"
"$culprit" eval --faults "$example/faults.txt" --formula tarantula,ochiai,dstar,op2,jaccard,sbi --format text
echo
echo "The store is in $CULPRIT_STORE; the source is $example/mid.c (line 12)."
echo
echo "== culprit report --html: the rankings as a colored source view (Tarantula's visualization), opening on rank's default"
"$culprit" report --html "$work/report" --source-root "$example" >/dev/null
echo "The HTML report is $work/report/index.html (open it in a browser)."
