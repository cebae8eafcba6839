# test_path_filters.sh - test code ranked with the program (issue 18, item
# 13): a program whose test driver is a source file of its own, built with
# culprit-cc.  Without filters the driver's lines rank with the library's;
# `--exclude`, `--include` and the store's config file (STORE/config,
# docs/config.md) leave them out of `culprit rank` (every view and
# technique, ranks renumbered as if they had never been ranked), of
# `culprit eval` (EXAM over the kept lines only) and of `culprit report`
# (the file is gone from the page, JSON and SARIF); bad config lines are
# errors at FILE:LINE:COL, exit 2.
. "$(dirname "$0")/lib.sh"
need_culprit_cc

mkdir src test
cat >src/calc.c <<'END'
/* calc.c - the library under test. */
int clamp(int value, int low, int high)
{
    if (value < low)
        return low;
    if (value > high)
        return low; /* BUG: high */
    return value;
}

int twice(int value)
{
    return 2 * value;
}
END
cat >test/driver.c <<'END'
/* driver.c - the test driver: one case per argument. */
#include <stdio.h>
#include <string.h>

int clamp(int value, int low, int high);
int twice(int value);

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    if (strcmp(argv[1], "high") == 0) {
        int got = clamp(50, 0, 10);
        printf("%d\n", got);
        return got == 10 ? 0 : 1;
    }
    if (strcmp(argv[1], "low") == 0) {
        printf("%d\n", clamp(-5, 0, 10));
        return 0;
    }
    if (strcmp(argv[1], "mid") == 0) {
        printf("%d\n", clamp(5, 0, 10));
        return 0;
    }
    printf("%d\n", twice(21));
    return 0;
}
END
run 0 "$culprit_cc" -g -o prog src/calc.c test/driver.c
run 1 "$CULPRIT" test --name high -- ./prog high
for name in low mid twice; do run 0 "$CULPRIT" test --name "$name" -- ./prog "$name"; done
driver="$WORK/test/driver.c"

# expect_filtered ALL KEPT : the JSON ranking KEPT is ALL without the
# driver's entries, ranks renumbered: a tie group keeps its members and
# counts only the entries kept before it.
expect_filtered() {
    if python3 - "$1" "$2" "$driver" >"$WORK/filtered.why" 2>&1 <<'END'
import json, sys
every = json.load(open(sys.argv[1]))["entries"]
kept_ranking = json.load(open(sys.argv[2]))
kept, ties = kept_ranking["entries"], kept_ranking["ties"]
left = [e for e in every if e["file"] != sys.argv[3]]
assert len(left) < len(every), "the driver ranked nothing without filters"
assert len(kept) == len(left), "%d entries kept, expected %d" % (len(kept), len(left))
start = 0
while start < len(left):
    end = start
    while end < len(left) and left[end]["best_rank"] == left[start]["best_rank"]:
        end += 1
    for e in left[start:end]:
        e["best_rank"], e["worst_rank"] = start + 1.0, float(end)
        e["rank"] = {"best": start + 1, "worst": end, "average": (start + 1 + end) / 2}[ties]
    start = end
for want, got in zip(left, kept):
    assert want == got, "got %s, expected %s" % (got, want)
END
    then pass; else fail "$2 is not $1 without $driver: $(head -c 600 "$WORK/filtered.why")"; fi
}

# ---- without filters, the driver ranks with the program ----
rank_into all.csv --format csv
expect_contains "$WORK/all.csv" "$driver:13,"
expect_contains "$WORK/all.csv" "$WORK/src/calc.c:7,"
if grep -q "^4,inf,$driver:13," "$WORK/all.csv"; then pass; else fail "driver line 13 does not tie with the bug: $(cat "$WORK/all.csv")"; fi

# ---- every spelling of "not the driver" leaves the same ranking ----
rank_into kept.csv --format csv --exclude 'test/*'
if grep -q "driver" "$WORK/kept.csv"; then fail "kept.csv still has the driver: $(cat "$WORK/kept.csv")"; else pass; fi
if grep -q "^1,inf,$WORK/src/calc.c:7," "$WORK/kept.csv"; then pass; else fail "the bug is not rank 1: $(cat "$WORK/kept.csv")"; fi
set -f # the patterns reach culprit unexpanded
for filter in "--exclude test" "--exclude test/" "--exclude driver.c" "--exclude */driver.c" \
    "--exclude **/driver.c" "--exclude ./test" "--include src/*" "--include *.c --exclude test/**" \
    "--exclude $WORK/test/*" "--include calc.c --exclude nothing.c"; do
    # shellcheck disable=SC2086
    rank_into same.csv --format csv $filter
    expect_same "$WORK/kept.csv" "$WORK/same.csv"
done
# A pattern that matches a name only in part keeps the file; '*' does not cross '/'.
set +f
rank_into partial.csv --format csv --exclude tes --exclude 'src/*/calc.c'
expect_same "$WORK/all.csv" "$WORK/partial.csv"

# ---- every view, kind and technique: the same entries, renumbered ----
for args in "" "--kind line" "--kind branch" "--kind block" "--kind all --view element" \
    "--technique blockrank" "--technique cp" "--formula tarantula --ties average"; do
    # shellcheck disable=SC2086
    rank_into all.json --format json $args
    # shellcheck disable=SC2086
    rank_into kept.json --format json $args --exclude 'test/*'
    expect_filtered "$WORK/all.json" "$WORK/kept.json"
done

# ---- the config file keeps the filters; options add to it ----
printf '# what culprit ranks\n\n   exclude = test/*   \n' >.culprit/config
rank_into config.csv --format csv
expect_same "$WORK/kept.csv" "$WORK/config.csv"
rank_into no-config.csv --format csv --no-config
expect_same "$WORK/all.csv" "$WORK/no-config.csv"
# (--exclude 'src/*' alone keeps the driver: with the config's line, nothing is left.)
run 2 "$CULPRIT" rank --format csv --exclude 'src/*'
expect_contains "$WORK/err" "keep none of the program's 2 files"
# Its relative patterns start at the directory holding the store, the options' at the current one.
(cd src && "$CULPRIT" rank --format csv) >"$WORK/from-src.csv" 2>"$WORK/err"
expect_same "$WORK/kept.csv" "$WORK/from-src.csv"
(cd src && "$CULPRIT" rank --format csv --no-config --exclude 'test/*') >"$WORK/from-src.csv" 2>"$WORK/err"
expect_same "$WORK/all.csv" "$WORK/from-src.csv"
(cd src && "$CULPRIT" rank --format csv --no-config --exclude '../test/*') >"$WORK/from-src.csv" 2>"$WORK/err"
expect_same "$WORK/kept.csv" "$WORK/from-src.csv"
# Comments only: no filter, the same bytes as without a config file.
printf '# nothing yet\n' >.culprit/config
rank_into comments.csv --format csv
expect_same "$WORK/all.csv" "$WORK/comments.csv"

# ---- bad config lines: FILE:LINE:COL, exit 2 ----
config_error() { # TEXT MESSAGE
    printf '%s' "$1" >.culprit/config
    for command in "rank" "report --json" "eval --faults faults.txt"; do
        # shellcheck disable=SC2086
        run 2 "$CULPRIT" $command
        expect_file_equals "$WORK/err" "culprit: $WORK/.culprit/config:$2"
    done
}
echo "src/calc.c:7" >faults.txt
config_error "exclude test/*
" "1:9: expected '=' after 'exclude'"
config_error "# fine
  excldue = test/*
" "2:3: unknown setting 'excldue' (expected include or exclude)"
config_error "exclude =
" "1:10: expected a pattern after 'exclude ='"
config_error "include = /" "1:11: pattern '/' names no file or directory"
rm .culprit/config
run 2 "$CULPRIT" rank --exclude ''
expect_contains "$WORK/err" "culprit rank: --exclude '': an empty pattern matches no file"

# ---- eval: EXAM over the lines of the files kept ----
run 0 "$CULPRIT" rank --kind line --format csv
driver_lines=$(grep -c "$driver:" "$WORK/out")
for which in all kept; do
    filter=
    [ "$which" = kept ] && filter="--exclude test/*"
    # shellcheck disable=SC2086
    run 0 "$CULPRIT" eval --faults faults.txt --formula ochiai --technique tuples --format json $filter
    cp "$WORK/out" "$WORK/eval-$which.json"
done
if python3 - "$WORK/eval-all.json" "$WORK/eval-kept.json" "$driver_lines" >"$WORK/eval.why" 2>&1 <<'END'
import json, sys
every, kept, driver = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), int(sys.argv[3])
assert driver > 0
assert kept["executable_lines"] == every["executable_lines"] - driver, (kept["executable_lines"], every["executable_lines"], driver)
assert kept["executed_lines"] < every["executed_lines"]
for all_result, result in zip(every["results"], kept["results"]):
    assert result["rank"] < all_result["rank"], (result, all_result)
    assert abs(result["exam"] - result["rank"] / kept["executable_lines"]) < 1e-12, result
    assert abs(result["exam_executed"] - result["rank"] / kept["executed_lines"]) < 1e-12, result
END
then pass; else fail "eval with --exclude: $(cat "$WORK/eval.why")"; fi
echo "test/driver.c:13" >driver-faults.txt
run 2 "$CULPRIT" eval --faults driver-faults.txt --exclude 'test/*'
expect_file_equals "$WORK/err" "culprit: driver-faults.txt:1: faulty line test/driver.c:13 lies in $driver, which the path filters leave out (--include, --exclude or the store's config)"
run 2 "$CULPRIT" eval --summary --exclude 'test/*' "$WORK/eval-all.json"
expect_contains "$WORK/err" "--exclude cannot be used with --summary"

# ---- report: the page, the JSON and SARIF omit the file left out ----
run 0 "$CULPRIT" report --json=all-report.json --html all-html
run 0 "$CULPRIT" report --json=kept-report.json --html kept-html --sarif kept.sarif --exclude 'test/*'
if python3 - "$WORK/all-report.json" "$WORK/kept-report.json" "$driver" "$WORK/kept.csv" \
    >"$WORK/report.why" 2>&1 <<'END'
import csv, json, sys
every, kept, driver = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
assert driver in [f["path"] for f in every["files"]]
paths = [f["path"] for f in kept["files"]]
assert paths == [p for p in (f["path"] for f in every["files"]) if p != driver], paths
for method in kept["methods"]:
    assert len(method["files"]) == len(paths), method["name"]
    assert all(0 <= f < len(paths) for f in method["ranking"]["file"]), method["name"]
# The page opens on rank's default method, with rank's (renumbered) ranks.
first = kept["methods"][0]["ranking"]
shown = {"%s:%d" % (paths[f], l): r for f, l, r in zip(first["file"], first["line"], first["rank"])}
ranked = {row["element"]: int(row["rank"]) for row in csv.DictReader(open(sys.argv[4]))
          if int(row["ef"]) + int(row["ep"]) > 0}
assert shown == ranked, (shown, ranked)
END
then pass; else fail "report with --exclude: $(cat "$WORK/report.why")"; fi
expect_contains "$WORK/all-html/index.html" "\"path\": \"$driver\""
if grep -qF "\"path\": \"$driver\"" "$WORK/kept-html/index.html"; then fail "the page still lists $driver"; else pass; fi
if grep -q "test/driver.c" "$WORK/kept.sarif"; then fail "kept.sarif still names the driver"; else pass; fi
expect_contains "$WORK/kept.sarif" "src/calc.c"

# ---- every command documents the options ----
for command in rank report eval; do
    run 0 "$CULPRIT" "$command" --help
    for option in "--include GLOB" "--exclude GLOB" "--no-config"; do expect_contains "$WORK/out" "$option"; done
done
finish
