#!/bin/sh
# sym_stats.sh BUILD [N] - what symbolic execution records on the subjects:
# each tests/subjects program built with BUILD/culprit-cc --coverage=symbolic
# -O0, the first N (default 20) tests of its pool run with CULPRIT_SYM=1,
# and the sums of their trailers' statistics printed, one line per subject
# (constraints, nodes, and the CONCRETIZED_* counts).  docs/symbolic.md
# §1 "Tables" quotes its numbers before and after table loads.
set -u
BUILD=$(cd "$1" && pwd)
N=${2:-20}
TOP=$(cd "$(dirname "$0")/.." && pwd)/tests/subjects
WORK=$(mktemp -d "${TMPDIR:-/tmp}/culprit-sym-stats-XXXXXX")
trap 'rm -rf "$WORK"' EXIT
for s in calc fmt htmlgen iniparse patmatch rlezip schedule tokenizer; do
    cp -r "$TOP/$s" "$WORK/$s"
    if ! (cd "$WORK/$s" && "$BUILD/culprit-cc" --coverage=symbolic -O0 -o "$s" src/*.c -lm 2>"$WORK/$s.err"); then
        echo "$s: does not build: $(head -3 "$WORK/$s.err")"
        continue
    fi
    head -n "$N" "$WORK/$s/tests/manifest.txt" | while IFS= read -r line; do
        mkdir -p "$WORK/dumps/$s/${line%%:*}"
        (cd "$WORK/$s" && CULPRIT_SYM=1 CULPRIT_COLLECT_DIR="$WORK/dumps/$s/${line%%:*}" sh -c "${line#*: }" \
            >/dev/null 2>&1)
    done
    python3 - "$WORK/dumps/$s" "$s" <<'PY'
import glob, struct, sys
total, runs = [0] * 16, 0
for dump in glob.glob(sys.argv[1] + "/*/*.dump"):
    data = open(dump, "rb").read()
    at = data.rfind(b"CULPSYM1")
    if at < 0:
        continue
    version, sources, nodes, constraints = struct.unpack_from("<4I", data, at + 8)
    p = at + 24
    for _ in range(sources):
        p += 24 + struct.unpack_from("<IIQII", data, p)[4]
    p += 24 * (nodes + constraints)
    total = [a + b for a, b in zip(total, struct.unpack_from("<16Q", data, p))]
    runs += 1
print("%-10s runs %d constraints %d nodes %d address %d call %d other %d site_cap %d" %
      (sys.argv[2], runs, total[1], total[0], total[8], total[7], total[9], total[3]))
PY
done
