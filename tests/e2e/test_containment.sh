# test_containment.sh - what a hostile or unlucky test cannot do (issue 19,
# items 1-5; docs/harness.md, "Containment"): reach the store through
# culprit's open descriptors in /proc, through /proc/PID/root, by signals or
# by ptrace; fork past the process limit, as root too; outlive the run
# (setsid children, kill -9 of culprit run and culprit test, and the
# temporary directories after it); stop on, or write to, the user's
# terminal; and be judged a timeout for a deadline that passed after it had
# exited.  The hostile program (tests/e2e/hostile.c) is bounded: its fork
# bomb makes at most 364 processes, each of which lives about a second,
# and runs under `ulimit -u` and `timeout` of its own, so it cannot hurt
# the machine even when containment fails.
. "$(dirname "$0")/lib.sh"

need_culprit_cc sqlite3 timeout pgrep
if [ ! -f "$(dirname "$CULPRIT")/libculprit-rt.a" ]; then
    echo "$E2E_NAME: note: the runtime is not built; skipping"
    finish
    exit 0
fi
export TMPDIR="$WORK/tmp" # the run's temporary directories, to see them go
export CULPRIT_DUMP_TMPDIR="$WORK/dumps" # and the tests' collection directories
mkdir -p "$TMPDIR" "$CULPRIT_DUMP_TMPDIR"
sql() { sqlite3 "$CULPRIT_STORE/culprit.db" "$1"; }
expect_sql() {
    got=$(sql "$1" 2>&1)
    if [ "$got" = "$2" ]; then pass; else fail "'$1' gave '$got', expected '$2'"; fi
}
# no_process PATTERN WHAT: no process's command line has PATTERN (after up
# to 3 s for the kernel to finish killing).
no_process() {
    tries=0
    while pgrep -f "$1" >/dev/null && [ $tries -lt 30 ]; do
        sleep 0.1
        tries=$((tries + 1))
    done
    if pgrep -f "$1" >/dev/null; then
        fail "$2: $(pgrep -af "$1" | head -3)"
        pkill -9 -f "$1"
    else pass; fi
}
# no_directory PREFIX WHAT [DIR]: nothing named PREFIX* in DIR (default
# $TMPDIR; after up to 3 s).
no_directory() {
    dir=${3:-$TMPDIR}
    tries=0
    while ls "$dir" | grep -q "^$1" && [ $tries -lt 30 ]; do
        sleep 0.1
        tries=$((tries + 1))
    done
    if ls "$dir" | grep -q "^$1"; then
        fail "$2: $(ls "$dir")"
        rm -rf "$dir"/"$1"*
    else pass; fi
}
# watch PID: kills PID after 60 s unless unwatch is called first (for
# culprit started in the background, where timeout(1) would take its pid).
watch() {
    (sleep 60 && kill -9 "$1") >/dev/null 2>&1 &
    watcher=$!
}
unwatch() {
    pkill -P $watcher sleep 2>/dev/null
    kill $watcher 2>/dev/null
}
# wait_for FILE: up to 10 s
wait_for() {
    tries=0
    while [ ! -e "$1" ] && [ $tries -lt 100 ]; do
        sleep 0.1
        tries=$((tries + 1))
    done
}

if ! "$culprit_cc" -g -o hostile "$TOP/tests/e2e/hostile.c" 2>"$WORK/cc.err"; then
    fail "culprit-cc tests/e2e/hostile.c: $(head -c 300 "$WORK/cc.err")"
    finish
    exit 1
fi
HOSTILE="$WORK/hostile"

# ---- 1. the store: /proc/PID/fd, /proc/PID/root, inherited descriptors ----
for mode in "" --fork-server; do
    export CULPRIT_STORE="$WORK/store$mode"
    cat >store.txt <<EOF
before: $HOSTILE before
vandal: $HOSTILE store $CULPRIT_STORE
after: $HOSTILE after
EOF
    run 0 timeout 60 "$CULPRIT" run --tests store.txt -j 1 $mode
    expect_contains "$WORK/out" "3 tests: 3 passed"
    expect_sql "PRAGMA integrity_check" ok
    expect_sql "SELECT count(*) FROM tests WHERE verdict = 'pass'" 3
done
# What the vandal printed: nothing reached (its stdout is kept in the store
# only compressed, so run it through culprit test, which passes it on).
export CULPRIT_STORE="$WORK/store-test"
run 0 timeout 60 "$CULPRIT" test --name vandal -- "$HOSTILE" store "$CULPRIT_STORE"
expect_contains "$WORK/out" "reached 0"
expect_sql "PRAGMA integrity_check" ok

# ---- 1. signals and ptrace at culprit ----
# attacked ARGS...: culprit ARGS in the background, its pid in culprit.pid
# for the test to attack; $code is its exit status, $runner its pid.
attacked() {
    rm -f culprit.pid
    "$CULPRIT" "$@" >"$WORK/out" 2>"$WORK/err" &
    runner=$!
    watch $runner
    echo $runner >culprit.pid
    wait $runner
    code=$?
    unwatch
}
export CULPRIT_STORE="$WORK/store-attack"
printf 'attack: %s attack %s\nafter: %s after\n' "$HOSTILE" "$WORK/culprit.pid" "$HOSTILE" >attack.txt
attacked run --tests attack.txt -j 1
[ $code -eq 0 ] && pass || fail "culprit run with a test that signals and ptraces it exited $code: $(head -c 300 "$WORK/err")"
expect_sql "SELECT count(*) FROM tests" 2
attacked test --name attack -- "$HOSTILE" attack "$WORK/culprit.pid"
[ $code -eq 0 ] && pass || fail "culprit test with a test that signals and ptraces it exited $code"
if grep -qE "^(ptraced|killed)" "$WORK/out"; then fail "the test reached culprit test: $(cat "$WORK/out")"; else pass; fi
expect_contains "$WORK/out" "attacked $runner"

# ---- 2. the process limit holds, for root too ----
# At most 364 processes of a second each, under ulimit -u (which binds
# other users) and timeout (which binds everyone).
export CULPRIT_STORE="$WORK/store-bomb"
bomb_check() { # LABEL TALLY_FILE
    forks=$(tr -cd F <"$2" | wc -c)
    failures=$(tr -cd X <"$2" | wc -c)
    if [ "$forks" -le 45 ] && [ "$failures" -gt 0 ]; then pass; else
        fail "$1: the fork bomb made $forks processes ($failures forks failed) under a limit of 40"
    fi
}
(ulimit -u 2000 2>/dev/null; timeout 60 "$CULPRIT" test --process-limit 40 --name bomb -- "$HOSTILE" bomb "$WORK/tally1" \
    >"$WORK/out" 2>"$WORK/err")
bomb_check "culprit test --process-limit 40" "$WORK/tally1"
[ ! -s "$WORK/err" ] && pass || fail "culprit test --process-limit warned: $(head -c 300 "$WORK/err")"
printf 'bomb: %s bomb %s\n' "$HOSTILE" "$WORK/tally2" >bomb.txt
(ulimit -u 2000 2>/dev/null; timeout 60 "$CULPRIT" run --tests bomb.txt --process-limit 40 >"$WORK/out" 2>"$WORK/err")
bomb_check "culprit run --process-limit 40" "$WORK/tally2"
# The limit is shared: tests that cannot start while the bomb holds it
# wait for it instead of failing.
export CULPRIT_STORE="$WORK/store-bomb-and-others"
{
    printf 'bomb: %s bomb %s\n' "$HOSTILE" "$WORK/tally3"
    for i in 1 2 3 4 5 6; do printf 'quick%s: %s %s\n' $i "$HOSTILE" $i; done
} >bomb-and-others.txt
(ulimit -u 2000 2>/dev/null; timeout 60 "$CULPRIT" run --tests bomb-and-others.txt -j 2 --process-limit 40 \
    >"$WORK/out" 2>"$WORK/err")
expect_contains "$WORK/out" "7 tests: 7 passed"
bomb_check "culprit run -j 2 with other tests" "$WORK/tally3"
no_process "$HOSTILE bomb" "fork bomb processes outlived the run"

# ---- 3. nothing outlives the run ----
export CULPRIT_STORE="$WORK/store-escape"
printf 'escape: %s escape\n' "$HOSTILE" >escape.txt
run 0 timeout 60 "$CULPRIT" run --tests escape.txt
no_process "$HOSTILE sleeper" "a setsid() child outlived culprit run"
run 0 timeout 60 "$CULPRIT" test --name escape -- "$HOSTILE" escape
no_process "$HOSTILE sleeper" "a setsid() child outlived culprit test"
# kill -9 of culprit run and culprit test: in-flight tests die, and the
# temporary directories go.
printf 'hang1: %s hang %s\nhang2: %s hang %s\n' "$HOSTILE" "$WORK/started1" "$HOSTILE" "$WORK/started2" >hang.txt
"$CULPRIT" run --tests hang.txt -j 2 >/dev/null 2>&1 &
runner=$!
watch $runner
wait_for "$WORK/started1"
wait_for "$WORK/started2"
kill -9 $runner
wait $runner 2>/dev/null
unwatch
no_process "$HOSTILE hang" "tests outlived kill -9 of culprit run"
no_directory culprit-run "kill -9 of culprit run left its temporary directory"
no_directory culprit-run "kill -9 of culprit run left its dump directory" "$CULPRIT_DUMP_TMPDIR"
rm -f "$WORK/started1"
"$CULPRIT" test --name hang -- "$HOSTILE" hang "$WORK/started1" >/dev/null 2>&1 &
runner=$!
watch $runner
wait_for "$WORK/started1"
kill -9 $runner
wait $runner 2>/dev/null
unwatch
no_process "$HOSTILE hang" "a test outlived kill -9 of culprit test"
no_directory culprit-test "kill -9 of culprit test left its temporary directory"
no_directory culprit-test "kill -9 of culprit test left its collection directory" "$CULPRIT_DUMP_TMPDIR"

# ---- 4. the user's terminal ----
# script(1) gives culprit a terminal of its own; a test that touches
# /dev/tty must neither stop on SIGTTOU nor write to it.
if command -v script >/dev/null; then
    export CULPRIT_STORE="$WORK/store-tty"
    timeout 30 script -qec "'$CULPRIT' test --name tty -- '$HOSTILE' tty" /dev/null </dev/null >"$WORK/tty.out" 2>&1
    code=$?
    [ $code -eq 0 ] && pass || fail "culprit test of a test touching /dev/tty exited $code (124: it hung)"
    if grep -q TTY-SCRIBBLE "$WORK/tty.out"; then fail "a test wrote to the terminal under culprit test"; else pass; fi
    printf 'tty: %s tty\n' "$HOSTILE" >tty.txt
    timeout 30 script -qec "'$CULPRIT' run --tests tty.txt --timeout 3" /dev/null </dev/null >"$WORK/tty.out" 2>&1
    if grep -q TTY-SCRIBBLE "$WORK/tty.out"; then fail "a test wrote to the terminal under culprit run"; else pass; fi
    expect_sql "SELECT verdict FROM tests WHERE name = 'tty'" pass
else
    echo "$E2E_NAME: note: script(1) is missing; the terminal is not tested"
fi

# ---- 5. a test that exited is not a timeout, however late we look ----
export CULPRIT_STORE="$WORK/store-late"
cat >slow-validator.sh <<'EOF'
sleep 0.8
exit 0
EOF
printf 'q1: %s a\nq2: %s b\nq3: %s c\n' "$HOSTILE" "$HOSTILE" "$HOSTILE" >late.txt
for jobs in 1 2; do
    run 0 timeout 60 "$CULPRIT" run --tests late.txt -j $jobs --timeout 0.5 --rerun --validator "sh $WORK/slow-validator.sh"
    expect_contains "$WORK/out" "3 tests: 3 passed, 0 failed, 0 errors, 0 timeouts"
done
# The timeout message gives the limit.
printf 'hang: %s hang\n' "$HOSTILE" >limit.txt
run 1 timeout 60 "$CULPRIT" run --tests limit.txt --timeout 0.5 --kill-grace 0.2
expect_contains "$WORK/out" "; the limit is 0.5 s)"

finish
