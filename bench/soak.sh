#!/bin/sh
# Soak test of the harness (issue 19): TRIALS times (default 100), a
# 200-test `culprit run -j2 --rerun` with hostile tests in the mix
# (tests/e2e/hostile.c: a bounded fork bomb, a setsid child, a store
# vandal, a tty writer, a 1 GiB writer, a hang) is killed with kill -9 at a
# random moment of it (within the time a whole run takes, measured first).  After each kill it checks
# that the store is intact (PRAGMA integrity_check), that no recorded test
# was lost or recorded twice, that no test process is left (within 3 s),
# and that no temporary directory of the run is left; at the end a last
# run completes the suite.  Prints one line per problem and a summary:
#   trials N, kills N, lost N, duplicated N, left processes N, left
#   directories N, integrity failures N, zombies N, S seconds
# (zombies: killed tests that the system's init has not reaped; some
# container inits never do).  Exits 1 when something was lost, duplicated,
# left running or corrupted.  Not part of `make check`: it takes minutes.
# usage: bench/soak.sh BUILD_DIR   (SOAK_TRIALS=N changes the trials;
# run it as root and as an unprivileged user, e.g. under setpriv --reuid)
set -u
build=${1:?usage: bench/soak.sh BUILD_DIR}
case $build in /*) ;; *) build=$(pwd)/$build ;; esac
top=$(cd "$(dirname "$0")/.." && pwd)
culprit=$build/culprit
trials=${SOAK_TRIALS:-100}
for tool in sqlite3 pgrep awk; do
    command -v $tool >/dev/null || { echo "bench/soak.sh: $tool is missing" >&2; exit 1; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/culprit-soak.XXXXXX") || exit 1
trap 'pkill -9 -f "$work/hostile" 2>/dev/null; rm -rf "$work"' EXIT
trap 'exit 1' INT TERM
cd "$work" || exit 1
export TMPDIR="$work/tmp" CULPRIT_STORE="$work/store"
mkdir "$TMPDIR"
"$build/culprit-cc" -O1 -o hostile "$top/tests/e2e/hostile.c" || exit 1

# 200 tests: 194 quick ones, six hostile ones spread through the suite.
i=0
: >suite.txt
while [ $i -lt 200 ]; do
    case $i in
    20) echo "bomb$i: $work/hostile bomb $work/tally" ;;
    50) echo "escape$i: $work/hostile escape" ;;
    80) echo "vandal$i: $work/hostile store $CULPRIT_STORE" ;;
    110) echo "tty$i: $work/hostile tty" ;;
    140) echo "flood$i: $work/hostile flood" ;;
    170) echo "hang$i: $work/hostile hang" ;;
    *) echo "t$i: $work/hostile $i" ;;
    esac
    i=$((i + 1))
done >suite.txt

sql() { sqlite3 "$CULPRIT_STORE/culprit.db" "$1" 2>&1; }
lost=0 duplicated=0 left_processes=0 left_directories=0 corrupt=0 kills=0
recorded_before=""
run_suite() {
    "$culprit" run --tests suite.txt -j 2 --rerun --timeout 2 --output-cap 1M --process-limit 100 \
        >/dev/null 2>"$work/err" &
}
# One whole run first: how long a run takes (in hundredths of a second).
t0=$(date +%s%N)
"$culprit" run --tests suite.txt -j 2 --timeout 2 --output-cap 1M --process-limit 100 >/dev/null 2>&1
whole=$((($(date +%s%N) - t0) / 10000000))
recorded_before=$(sql "SELECT name FROM tests ORDER BY name")
started=$(date +%s)
trial=0
while [ $trial -lt "$trials" ]; do
    trial=$((trial + 1))
    run_suite
    runner=$!
    # a random moment of the run
    delay=$(awk -v seed="$$$trial" -v whole="$whole" 'BEGIN { srand(seed); printf "%.2f", 0.05 + rand() * whole / 100 * 0.95 }')
    sleep "$delay"
    if kill -9 $runner 2>/dev/null; then kills=$((kills + 1)); fi
    wait $runner 2>/dev/null
    tries=0
    while pgrep -f "$work/hostile" >/dev/null && [ $tries -lt 30 ]; do
        sleep 0.1
        tries=$((tries + 1))
    done
    if pgrep -f "$work/hostile" >/dev/null; then
        n=$(pgrep -f "$work/hostile" | wc -l)
        echo "trial $trial: $n test processes left: $(pgrep -af "$work/hostile" | head -3 | tr '\n' ';')"
        left_processes=$((left_processes + n))
        pkill -9 -f "$work/hostile"
    fi
    tries=0
    while ls "$TMPDIR" | grep -q . && [ $tries -lt 30 ]; do
        sleep 0.1
        tries=$((tries + 1))
    done
    if ls "$TMPDIR" | grep -q .; then
        echo "trial $trial: left in TMPDIR: $(ls "$TMPDIR" | tr '\n' ' ')"
        left_directories=$((left_directories + $(ls "$TMPDIR" | wc -l)))
        rm -rf "${TMPDIR:?}"/*
    fi
    [ -f "$CULPRIT_STORE/culprit.db" ] || continue
    check=$(sql "PRAGMA integrity_check")
    if [ "$check" != ok ]; then
        echo "trial $trial: the store is not intact: $check"
        corrupt=$((corrupt + 1))
        continue
    fi
    counts=$(sql "SELECT count(*) - count(DISTINCT name) FROM tests")
    if [ "$counts" != 0 ]; then
        echo "trial $trial: $counts tests recorded twice"
        duplicated=$((duplicated + counts))
    fi
    recorded=$(sql "SELECT name FROM tests ORDER BY name")
    gone=$(printf '%s\n' "$recorded_before" | grep -v '^$' | while read -r name; do
        printf '%s\n' "$recorded" | grep -qxF "$name" || echo "$name"
    done)
    if [ -n "$gone" ]; then
        echo "trial $trial: recorded tests lost: $(echo "$gone" | head -5 | tr '\n' ' ')"
        lost=$((lost + $(echo "$gone" | wc -l)))
    fi
    recorded_before=$recorded
done
# The last run completes the suite.
"$culprit" run --tests suite.txt -j 2 --timeout 2 --output-cap 1M --process-limit 100 >"$work/last.out" 2>&1
total=$(sql "SELECT count(*) || ' ' || count(DISTINCT name) FROM tests")
[ "$total" = "200 200" ] || { echo "after the last run: $total tests recorded (count, distinct), expected 200 200"; lost=$((lost + 1)); }
[ "$(sql "PRAGMA integrity_check")" = ok ] || corrupt=$((corrupt + 1))
zombies=$(ps -eo stat=,args= | awk '$1 ~ /^Z/' | grep -c hostile)
echo "trials $trials (a whole run: $((whole / 100)).$((whole % 100)) s), kills $kills, lost $lost, duplicated $duplicated, left processes $left_processes," \
    "left directories $left_directories, integrity failures $corrupt, zombies $zombies, $(($(date +%s) - started)) seconds" \
    "($(id -un))"
[ $lost -eq 0 ] && [ $duplicated -eq 0 ] && [ $left_processes -eq 0 ] && [ $corrupt -eq 0 ]
