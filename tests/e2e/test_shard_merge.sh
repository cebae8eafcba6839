# test_shard_merge.sh - suites bigger than one machine (issue 22 item 3,
# docs/sharding.md): tests/subjects/calc with its seeded fault v3, run
# once whole and once as 4 shards (`culprit run --shard K/N`, shard 3
# through Kubernetes' JOB_COMPLETION_INDEX and shard 4 through GitLab's
# CI_NODE_INDEX/CI_NODE_TOTAL), then `culprit merge`d: the merged store
# ranks byte for byte as the unsharded one with every technique, and lists
# the same tests with the same verdicts and judgements (durations and the
# order they ran in aside).  Then what merge refuses - another build's
# program, a test from two stores, stores that are not culprit's - leaving
# the destination as it was, a merge killed halfway, the bad --shard
# values, and the recipes of docs/sharding.md: GNU parallel as written
# (where installed), GitHub Actions and a Kubernetes Indexed Job simulated
# by shard_recipes.py (where PyYAML is).
. "$(dirname "$0")/lib.sh"
need_culprit_cc patch sqlite3

subject="$TOP/tests/subjects/calc"
# build DIR FAULT: calc with faults/FAULT.patch in DIR, and DIR/manifest.json
build() {
    mkdir "$1" && cp -R "$subject/src" "$1/src" && ln -s "$subject/tests" "$1/tests"
    (cd "$1" && patch -s -p1 <"$subject/faults/$2.patch") && pass || fail "faults/$2.patch does not apply"
    python3 "$TOP/bench/eval_manifest.py" "$subject" "$1/manifest.json" && pass || fail "eval_manifest.py failed"
    (cd "$1" && "$culprit_cc" -std=c11 -O0 -g -o calc src/*.c -lm) >"$1.log" 2>&1 && pass ||
        fail "calc does not build: $(tail -n 3 "$1.log")"
}
build work v3
manifest=work/manifest.json

# 1: the fault makes some tests fail
run 1 "$CULPRIT" --store whole run --tests $manifest -j 2
run 1 "$CULPRIT" --store shard1 run --tests $manifest -j 2 --shard 1/4
expect_contains out "culprit run: shard 1/4: "
run 1 "$CULPRIT" --store shard2 run --tests $manifest -j 2 --shard 2/4
run 1 env JOB_COMPLETION_INDEX=2 "$CULPRIT" --store shard3 run --tests $manifest -j 2 --shard auto/4
expect_contains out "culprit run: shard 3/4: "
run 1 env CI_NODE_INDEX=4 CI_NODE_TOTAL=4 "$CULPRIT" --store shard4 run --tests $manifest -j 2 --shard auto
expect_contains out "culprit run: shard 4/4: "

# test_names STORE: the store's test names, sorted
test_names() { "$CULPRIT" --store "$1" tests --format csv | python3 -c '
import csv, sys
print("\n".join(sorted(row["name"] for row in csv.DictReader(sys.stdin))))'; }
# Each shard holds the tests the documented rule gives it: FNV-1a 64 of
# the name, mod N, plus 1 - and together they hold every test once.
python3 -c '
import json, sys
def fnv1a(text):
    h = 0xcbf29ce484222325
    for b in text.encode():
        h = ((h ^ b) * 0x100000001b3) % 2**64
    return h
names = [t["name"] for t in json.load(open(sys.argv[1]))]
for k in range(1, 5):
    open("expected-shard%d" % k, "w").write("".join(n + "\n" for n in sorted(names) if fnv1a(n) % 4 + 1 == k))
' $manifest
for k in 1 2 3 4; do
    test_names shard$k >names-shard$k
    expect_same expected-shard$k names-shard$k
    [ -s names-shard$k ] && pass || fail "shard $k got no tests"
done
test_names whole >names-whole
sort names-shard1 names-shard2 names-shard3 names-shard4 >names-shards
expect_same names-whole names-shards

# The merge, into a store that does not exist yet.
run 0 "$CULPRIT" --store merged merge shard1 shard2 shard3 shard4
expect_contains out "culprit merge: $(wc -l <names-whole | tr -d ' ') tests from 4 of 4 stores into merged; program "
# Also with --store after the command, and an empty store (a shard that
# got no tests) among the sources.
echo '[]' >empty.json
run 0 "$CULPRIT" --store empty run --tests empty.json
run 0 "$CULPRIT" merge --store merged2 shard4 empty shard3 shard2 shard1
expect_contains out "from 4 of 5 stores"

# same_rankings A B ARGS...: `culprit rank ARGS --format csv` of both stores, byte for byte.
same_rankings() {
    a=$1 b=$2
    shift 2
    label=$(echo "$*" | tr ' /' '__')
    "$CULPRIT" --store "$a" rank "$@" --format csv >"rank-$a$label.csv" 2>"rank-$a$label.err" ||
        fail "rank $* on $a failed: $(head -c 300 "rank-$a$label.err")"
    "$CULPRIT" --store "$b" rank "$@" --format csv >"rank-$b$label.csv" 2>"rank-$b$label.err" ||
        fail "rank $* on $b failed: $(head -c 300 "rank-$b$label.err")"
    [ -s "rank-$a$label.csv" ] && pass || fail "rank $* on $a printed nothing"
    expect_same "rank-$a$label.csv" "rank-$b$label.csv"
}
same_rankings whole merged
same_rankings whole merged --kind all --view element
same_rankings whole merged --formula tarantula
# (metallaxis and muse need mutant runs, which `culprit mutate` records on
# the merged store: docs/sharding.md; sat and sat-tar need the cores of
# culprit gen --core)
for technique in $("$CULPRIT" techniques --format csv | awk -F, 'NR > 1 && $3 !~ /mutants|cores/ { print $1 }'); do
    same_rankings whole merged --technique "$technique"
done
same_rankings whole merged2 --technique blockrank
same_rankings whole merged2

# ---- ranking while reading (rank --stream, docs/sharding.md) ----
# the merged store tallied a batch at a time ranks as the whole matrix does
# with the same formula over the same kind
for args in "--kind line" "--kind line --formula tarantula" "--kind branch" "--kind all --view element"; do
    # shellcheck disable=SC2086
    "$CULPRIT" --store merged rank $args --format csv >whole.csv 2>&1
    # shellcheck disable=SC2086
    "$CULPRIT" --store merged rank $args --stream --format csv >streamed.csv 2>&1
    [ -s whole.csv ] && pass || fail "rank $args printed nothing"
    expect_same streamed.csv whole.csv
done
run 2 "$CULPRIT" --store merged rank --stream --technique blockrank
expect_contains err "--stream ranks with a formula alone"
run 2 "$CULPRIT" --store merged rank --stream --cluster 1
expect_contains err "--stream ranks with a formula alone"

# The tests: every column but the duration, in name order (the merged
# store has the shards' order, the whole run its own).
tests_without_durations() { "$CULPRIT" --store "$1" tests --format "${2:-csv}" | python3 -c '
import csv, sys
rows = list(csv.reader(sys.stdin))
head, rows = rows[0], rows[1:]
drop = head.index("duration")
writer = csv.writer(sys.stdout, lineterminator="\n")
for row in [head] + sorted(rows):
    writer.writerow(row[:drop] + row[drop + 1:])'; }
tests_without_durations whole >tests-whole.csv
tests_without_durations merged >tests-merged.csv
expect_same tests-whole.csv tests-merged.csv
[ "$(wc -l <tests-whole.csv)" -gt 100 ] && pass || fail "tests-whole.csv has $(wc -l <tests-whole.csv) lines"
# Failure clusters and what wrote a failing test's output, too.
"$CULPRIT" --store whole failures --format csv | sort >failures-whole.csv
"$CULPRIT" --store merged failures --format csv | sort >failures-merged.csv
expect_same failures-whole.csv failures-merged.csv
failing=$("$CULPRIT" --store whole tests --failing --format csv | sed -n '2s/,.*//p')
"$CULPRIT" --store whole output "$failing" >output-whole.txt 2>&1
"$CULPRIT" --store merged output "$failing" >output-merged.txt 2>&1
expect_same output-whole.txt output-merged.txt
# And the matrix itself, as export writes it.
"$CULPRIT" --store whole export csv --output export-whole.csv 2>&1 && pass || fail "export csv of whole failed"
"$CULPRIT" --store merged export csv --output export-merged.csv 2>&1 && pass || fail "export csv of merged failed"
sort export-whole.csv >export-whole.sorted
sort export-merged.csv >export-merged.sorted
expect_same export-whole.sorted export-merged.sorted

# ---- refusals: the destination stays as it was ----
snapshot() { "$CULPRIT" --store "$1" tests --format csv | md5sum; }
before=$(snapshot merged)
build other v1 # another build, elsewhere: another program
run 1 "$CULPRIT" --store other-shard run --tests other/manifest.json -j 2 --shard 1/4
whole_hash=$(sqlite3 shard1/culprit.db 'SELECT hash FROM programs')
other_hash=$(sqlite3 other-shard/culprit.db 'SELECT hash FROM programs')
# Into a store that holds another program, as after a rebuild: the merged
# one is added and becomes current, as `culprit run` would make it.
cp -R merged rebuilt
run 0 "$CULPRIT" --store rebuilt merge other-shard
expect_contains out "program ${other_hash%"${other_hash#????????????}"}"
[ "$(sqlite3 rebuilt/culprit.db 'SELECT count(*) FROM programs')" = 2 ] && pass ||
    fail "rebuilt does not hold both programs"
# Built in another directory, its units are not rebuilds of these (no
# file path in common), so the programs could be united as `culprit run`
# would unite them; the tests' names clash, and that is refused.
run 2 "$CULPRIT" --store fresh merge shard2 shard1 other-shard
expect_contains err "culprit: test 't"
expect_contains err "' is in both shard1/culprit.db and other-shard/culprit.db"
[ "$(sqlite3 fresh/culprit.db 'SELECT count(*) FROM tests')" = 0 ] && pass || fail "fresh has tests after a refusal"
# A test from two stores: a store given twice, or one already merged.
run 2 "$CULPRIT" --store twice merge shard1 shard2 shard1
expect_contains err "' is in both shard1/culprit.db and shard1/culprit.db: a test may come from one store only"
run 2 "$CULPRIT" --store merged merge shard2
expect_contains err "' is in both merged/culprit.db and shard2/culprit.db"
[ "$(snapshot merged)" = "$before" ] && pass || fail "a refused merge changed the destination"
# Sources that are not culprit stores: the store's own messages.
mkdir junk && printf 'not a database at all, not even close' >junk/culprit.db
run 2 "$CULPRIT" --store fresh merge shard1 junk
expect_contains err "culprit: junk/culprit.db: not a culprit store (not an SQLite database)"
[ "$(sqlite3 fresh/culprit.db 'SELECT count(*) FROM tests')" = 0 ] && pass || fail "fresh has tests after a refusal"
mkdir foreign && sqlite3 foreign/culprit.db 'CREATE TABLE t (x); INSERT INTO t VALUES (1);'
run 2 "$CULPRIT" --store merged merge foreign
expect_contains err "culprit: foreign/culprit.db: not a culprit store (foreign SQLite database)"
run 2 "$CULPRIT" --store merged merge nowhere
expect_contains err "culprit: no culprit store at nowhere"
[ "$(snapshot merged)" = "$before" ] && pass || fail "a refused merge changed the destination"
run 2 "$CULPRIT" --store merged merge
expect_contains err "culprit merge: expected the stores to merge: STORE..."

# A merge killed halfway leaves no half-merged destination: the second
# source is made to block the merge (a copy in rollback-journal mode whose
# exclusive lock another process holds, so opening it waits in SQLite's busy
# handler) after the first has been copied, and the merge is killed there.
cp -R shard1 k1 && cp -R shard2 k2
sqlite3 k2/culprit.db 'PRAGMA journal_mode = DELETE' >/dev/null
python3 -c '
import sqlite3, time
connection = sqlite3.connect("k2/culprit.db", isolation_level=None)
connection.execute("BEGIN EXCLUSIVE")
open("k2-locked", "w").close()
time.sleep(30)' &
holder=$!
for _ in $(seq 100); do [ -e k2-locked ] && break; sleep 0.1; done
"$CULPRIT" --store killed merge k1 k2 >killed.log 2>&1 &
merger=$!
sleep 2
kill -0 $merger 2>/dev/null && pass || fail "the merge did not wait for k2: $(cat killed.log)"
kill -9 $merger
wait $merger 2>/dev/null
kill $holder
wait $holder 2>/dev/null
[ "$(sqlite3 killed/culprit.db 'SELECT count(*) FROM tests')" = 0 ] && pass ||
    fail "a killed merge left tests in the destination"
check=$(sqlite3 killed/culprit.db 'PRAGMA integrity_check')
[ "$check" = ok ] && pass || fail "killed/culprit.db after a killed merge: $check"
run 0 "$CULPRIT" --store killed merge k1 k2 # and the same merge, unblocked, completes
[ "$(sqlite3 killed/culprit.db 'SELECT count(*) FROM tests')" = "$(sort names-shard1 names-shard2 | wc -l | tr -d ' ')" ] &&
    pass || fail "the merge after the killed one is incomplete"

# ---- a suite of two executables: shards see different units ----
# Tests of a.c and b.c, sharded so that some shard sees one executable
# only: the shards' programs differ, and merge unites them into the
# program of both, as the unsharded run grew it (docs/sharding.md).
mkdir two && cd two || exit 1
printf '#include <stdio.h>\nint main(int argc, char **argv)\n{\n    if (argc > 1 && argv[1][0] == 0x78)\n        puts("bad");\n    else\n        puts("a");\n    return 0;\n}\n' >a.c
printf '#include <stdio.h>\nint main(int argc, char **argv)\n{\n    puts(argc > 1 ? "b1" : "b");\n    return 0;\n}\n' >b.c
"$culprit_cc" -o a a.c && "$culprit_cc" -o b b.c && pass || fail "a.c or b.c does not build"
python3 -c '
import itertools, json
def shard(name):  # docs/sharding.md
    h = 0xcbf29ce484222325
    for b in name.encode():
        h = ((h ^ b) * 0x100000001b3) % 2**64
    return h % 4 + 1
def names(prefix, shards):  # 8 names that land in the given shards
    return list(itertools.islice((n for n in ("%s%d" % (prefix, i) for i in itertools.count()) if shard(n) in shards), 8))
tests = [{"name": n, "argv": ["./a"] + (["x"] if i % 4 == 0 else []), "expect_stdout": "a\n"}
         for i, n in enumerate(names("a", (1, 2)))]
tests += [{"name": n, "argv": ["./b"] + (["1"] if i % 2 else []), "expect_stdout": "b1\n" if i % 2 else "b\n"}
          for i, n in enumerate(names("b", (2, 3, 4)))]
json.dump(tests, open("tests.json", "w"))'
run 1 "$CULPRIT" --store whole run --tests tests.json -j 2
for k in 1 2 3 4; do "$CULPRIT" --store shard$k run --tests tests.json -j 2 --shard $k/4 >/dev/null; done
programs=$(for k in 1 2 3 4; do sqlite3 shard$k/culprit.db 'SELECT hash FROM programs'; done | sort -u | wc -l)
[ "$programs" -gt 1 ] && pass || fail "the shards of two executables all have one program; the test tests nothing"
run 0 "$CULPRIT" --store merged merge shard1 shard2 shard3 shard4
expect_contains "$WORK/out" "culprit merge: 16 tests from 4 of 4 stores into merged; program "
[ "$(sqlite3 merged/culprit.db 'SELECT hash FROM programs')" = "$(sqlite3 whole/culprit.db 'SELECT hash FROM programs')" ] &&
    pass || fail "the merged program is not the unsharded run's"
[ "$(sqlite3 merged/culprit.db 'SELECT count(*) FROM programs')" = 1 ] && pass || fail "merged keeps more than one program"
same_rankings whole merged
same_rankings whole merged --technique blockrank
same_rankings whole merged --kind all --view element
tests_without_durations whole >tests-whole.csv
tests_without_durations merged >tests-merged.csv
expect_same tests-whole.csv tests-merged.csv
cd "$WORK" || exit 1

# ---- bad --shard values: exit 2, saying what was expected ----
for value in 0/0 5/4 x/y 0/4 4 1/4/4; do
    run 2 "$CULPRIT" --store bad run --tests $manifest --shard "$value"
    expect_contains err "culprit run: --shard '$value': "
done
run 2 "$CULPRIT" --store bad run --tests $manifest --shard 5/4
expect_contains err "--shard '5/4': shard 5 is not a shard of 4: shards are numbered 1 to 4"
run 2 env -u CI_NODE_INDEX -u JOB_COMPLETION_INDEX "$CULPRIT" --store bad run --tests $manifest --shard auto/4
expect_contains err "neither CI_NODE_INDEX nor JOB_COMPLETION_INDEX is set"
run 2 env JOB_COMPLETION_INDEX=4 "$CULPRIT" --store bad run --tests $manifest --shard auto/4
expect_contains err "JOB_COMPLETION_INDEX 4 is not below the shard count 4 (it counts from 0)"
[ ! -e bad ] && pass || fail "a refused --shard created the store"

# ---- the recipes of docs/sharding.md, copied from the page ----
case $CULPRIT in /*) ;; *) CULPRIT=$TOP/$CULPRIT ;; esac
PATH="$(dirname "$CULPRIT"):$PATH" # the recipes say `culprit` and `culprit-cc`
export PATH
# project: a checkout as the recipes expect one (make CC=culprit-cc, tests.json)
mkdir project && cp -R work/src project/src && ln -s "$subject/tests" project/tests
cp $manifest project/tests.json
printf 'calc: src/*.c\n\t$(CC) -std=c11 -O0 -g -o calc src/*.c -lm\n' >project/Makefile
# whole_at DIR: DIR (a fresh, built copy of project) run unsharded into DIR/whole
whole_at() {
    (cd "$1" && make CC=culprit-cc >/dev/null 2>&1 && culprit --store whole run --tests tests.json >/dev/null)
    [ $? -eq 1 ] && pass || fail "the unsharded run in $1 did not end with failing tests"
}
# same_as_whole STORE DIR: STORE ranks as DIR/whole, run from DIR
same_as_whole() {
    for method in "" "--technique blockrank" "--technique sober"; do
        # shellcheck disable=SC2086
        (cd "$2" && culprit --store whole rank $method --format csv >"$WORK/recipe-whole.csv" 2>&1 &&
            culprit --store "$1" rank $method --format csv >"$WORK/recipe-merged.csv" 2>&1) && pass ||
            fail "rank $method in $2 failed: $(tail -n 3 "$WORK/recipe-merged.csv")"
        expect_same recipe-whole.csv recipe-merged.csv
    done
}

# GNU parallel, as written, where it is installed.
if command -v parallel >/dev/null 2>&1; then
    cp -R project parallel-run
    (cd parallel-run && make CC=culprit-cc >/dev/null 2>&1) && pass || fail "make in parallel-run failed"
    sed -n '/^### GNU parallel/,/^```$/p' "$TOP/docs/sharding.md" | sed '1,/^```sh$/d; /^```$/d' >parallel.sh
    grep -q 'parallel culprit --store shard-{} run' parallel.sh && pass || fail "no parallel recipe: $(cat parallel.sh)"
    (cd parallel-run && sh "$WORK/parallel.sh" >"$WORK/parallel.log" 2>&1)
    expect_contains parallel.log "culprit merge: $(wc -l <names-whole | tr -d ' ') tests from 4 of 4 stores into merged"
    whole_at parallel-run
    same_as_whole merged parallel-run
else
    echo "$E2E_NAME: note: GNU parallel is not installed; its recipe is not tried"
fi
# GitHub Actions and the Kubernetes Indexed Job, simulated (shard_recipes.py).
if python3 -c 'import yaml' 2>/dev/null; then
    python3 "$TOP/tests/e2e/shard_recipes.py" github "$TOP/docs/sharding.md" project github >github.log 2>&1 &&
        pass || fail "the GitHub Actions recipe failed: $(tail -c 600 github.log)"
    ls github/artifacts >github-artifacts.txt
    expect_file_equals github-artifacts.txt "culprit-shard-1
culprit-shard-2
culprit-shard-3
culprit-shard-4
culprit-store"
    rm -rf github/checkout && cp -R project github/checkout
    whole_at github/checkout
    same_as_whole "$WORK/github/artifacts/culprit-store" github/checkout
    python3 "$TOP/tests/e2e/shard_recipes.py" kubernetes "$TOP/docs/sharding.md" project kubernetes \
        >kubernetes.log 2>&1 && pass || fail "the Kubernetes recipe failed: $(tail -c 600 kubernetes.log)"
    ls kubernetes/shards >kubernetes-shards.txt
    expect_file_equals kubernetes-shards.txt "merged
shard-0
shard-1
shard-2
shard-3"
    whole_at kubernetes/src
    same_as_whole "$WORK/kubernetes/shards/merged" kubernetes/src
else
    echo "$E2E_NAME: note: python3's yaml module is missing (Debian: python3-yaml); the CI recipes are not tried"
fi

# ---- another build at the same path: refused ----
# work rebuilt with fault v1 instead of v3: its changed file has other
# contents at the same path, so its unit is a rebuild, never united.
(cd work && patch -s -R -p1 <"$subject/faults/v3.patch" && patch -s -p1 <"$subject/faults/v1.patch") && pass ||
    fail "cannot switch work to fault v1"
(cd work && "$culprit_cc" -std=c11 -O0 -g -o calc src/*.c -lm) >rebuild.log 2>&1 && pass ||
    fail "the rebuild failed: $(tail -n 3 rebuild.log)"
"$CULPRIT" --store rebuilt-shard run --tests $manifest -j 2 --shard 1/4 >/dev/null
rebuilt_hash=$(sqlite3 rebuilt-shard/culprit.db 'SELECT hash FROM programs')
[ -n "$rebuilt_hash" ] && [ "$rebuilt_hash" != "$whole_hash" ] && pass || fail "the rebuild has program '$rebuilt_hash'"
run 2 "$CULPRIT" --store fresh merge shard2 rebuilt-shard
expect_contains err "culprit: cannot merge different programs: shard2/culprit.db has program $whole_hash, rebuilt-shard/culprit.db has program $rebuilt_hash (merge only the shards of one build)"
[ "$(sqlite3 fresh/culprit.db 'SELECT count(*) FROM tests')" = 0 ] && pass || fail "fresh has tests after a refusal"

finish
