# test_php.sh - the PHP collector (src/php/, docs/php.md) end to end: PHP
# scripts run through `culprit test -- culprit-php SCRIPT ARGS` and ranked by
# `culprit rank`.  Covers the mid example (its faulty line must rank first,
# alone), the map's never-run lines and its branches, an uncaught exception
# and a fatal error as crash sites, a script that does not compile, and the
# extension's silence without CULPRIT_COLLECT_DIR.  Skips (counting nothing)
# only when PHP or the extension is not there: `make check` installs
# php8.2-dev first, so in CI it runs.
. "$(dirname "$0")/lib.sh"

need_culprit_php
cp "$TOP"/tests/e2e/php/*.php .

# ---- mid: six tests, one failing; the fault is mid.php:11 ----
mid_test() { # NAME EXPECTED X Y Z
    printf '%s\n' "$2" >"$WORK/expect.$1"
    run 0 "$CULPRIT" test --name "$1" --expect "$WORK/expect.$1" -- "$PHP_RUN" mid.php "$3" "$4" "$5"
}
mid_test t1 3 3 3 5
mid_test t2 2 1 2 3
mid_test t3 2 3 2 1
mid_test t4 5 5 5 5
mid_test t5 4 5 3 4
mid_test t6 2 2 1 3 # the faulty program prints 1
expect_file_equals "$WORK/out" "1"
run 0 "$CULPRIT" tests
expect_contains "$WORK/out" "fail"
[ "$(grep -c '^pass' "$WORK/out")" -eq 5 ] && pass || fail "expected 5 passing tests: $(cat "$WORK/out")"

# Line 11 is run by t6 (failing) and t2 (passing) only: every formula that
# rewards failing runs and penalises passing ones puts it first, alone
# (the next line, 10, is also run by t5).
for formula in ochiai tarantula; do
    run 0 "$CULPRIT" rank --kind line --formula $formula --format csv
    case $(sed -n 2p "$WORK/out") in
    1,*mid.php:11,*) pass ;;
    *) fail "$formula ranks '$(sed -n 2p "$WORK/out")' first, expected mid.php:11 alone at rank 1" ;;
    esac
    case $(sed -n 3p "$WORK/out") in
    1,*) fail "$formula ties mid.php:11 with '$(sed -n 3p "$WORK/out")'" ;;
    *) pass ;;
    esac
done

# The map lists lines no test ran: never_called's (23: its header, 25).
run 0 "$CULPRIT" rank --kind line --formula ochiai --format csv
expect_contains "$WORK/out" "mid.php:25,"
expect_contains "$WORK/out" "mid.php:23,"
grep 'mid.php:25,' "$WORK/out" | grep -q ',0,0,1,5,' && pass || fail "line 25 should be run by no test"
# ... but not the closing braces (where PHP puts the implicit return), nor
# `} else {`.
grep -q 'mid.php:\(13\|21\|26\|32\),' "$WORK/out" && fail "closing braces are listed: $(cat "$WORK/out")" || pass

# Branch outcomes, with their counts: $y < $z (line 7) is true in t1, t2, t5, t6.
run 0 "$CULPRIT" rank --kind branch --formula ochiai --format csv
expect_contains "$WORK/out" "mid.php:7:1:true,"
grep 'mid.php:7:1:true,' "$WORK/out" | grep -q ',1,3,0,2,' && pass || fail "7:true: $(grep 'mid.php:7:1:true' "$WORK/out")"
grep 'mid.php:10:1:true,' "$WORK/out" | grep -q ',1,1,0,4,' && pass || fail "10:true: $(grep 'mid.php:10:1:true' "$WORK/out")"
# foreach (FE_FETCH) and ?? (COALESCE) are branches too
expect_contains "$WORK/out" "mid.php:30:1:false,"
expect_contains "$WORK/out" "mid.php:31:1:true,"
run 0 "$CULPRIT" rank --kind all --format csv
expect_contains "$WORK/out" "mid.php:11,"

# ---- the map itself, and silence without a collection directory ----
mkdir collected
CULPRIT_COLLECT_DIR="$WORK/collected" "$PHP_RUN" mid.php 1 2 3 >"$WORK/out"
expect_file_equals "$WORK/out" "2"
[ "$(ls collected/*.map | wc -l)" -eq 1 ] && pass || fail "expected one map: $(ls collected)"
[ "$(ls collected/*.dump | wc -l)" -eq 1 ] && pass || fail "expected one dump: $(ls collected)"
ls -a collected | grep -q '^\..*tmp$' && fail "temporary files left: $(ls -a collected)" || pass
map=$(ls collected/*.map)
grep -q "$(printf '^line\t0\t25\t')" "$map" && pass || fail "the map has no line 25"
grep -q "$(printf '^branch\t.*\ttrue\t')" "$map" && pass || fail "the map has no branch records"
grep -q "$(printf '^function\t[0-9]*\tnever_called\t0\t23$')" "$map" && pass || fail "no function record for never_called"
# The unit's hash does not change from run to run (the store joins runs by it).
mkdir again
CULPRIT_COLLECT_DIR="$WORK/again" "$PHP_RUN" mid.php 3 2 1 >/dev/null
[ "$(basename "$(ls again/*.map)")" = "$(basename "$map")" ] && pass || fail "the map's name changed between runs"
mkdir quiet && (cd quiet && env -u CULPRIT_COLLECT_DIR "$PHP_RUN" ../mid.php 1 2 3 >"$WORK/out" 2>"$WORK/err")
expect_file_equals "$WORK/out" "2"
[ -z "$(ls -A quiet)" ] && [ ! -s "$WORK/err" ] && pass || fail "culprit-php without a collection wrote: $(ls -A quiet) $(cat "$WORK/err")"

# ---- crashes: an uncaught exception and a fatal error, placed on their lines ----
# (culprit test exits with the test's status: php's 255 for both)
export CULPRIT_STORE="$WORK/crashes"
run 0 "$CULPRIT" test --name fine -- "$PHP_RUN" boom.php 0
run 255 "$CULPRIT" test --name exception -- "$PHP_RUN" boom.php 5
run 255 "$CULPRIT" test --name fatal -- "$PHP_RUN" boom.php 1
run 0 "$CULPRIT" export json
python3 - "$WORK/out" >"$WORK/crashes.txt" <<'PY'
import json, sys
for test in json.load(open(sys.argv[1]))["tests"]:
    stack = test.get("crash", {}).get("stack", [])
    print(test["name"], test["verdict"], *["%s@%d" % (f["function"], f["line"]) for f in stack])
PY
expect_contains "$WORK/crashes.txt" "fine pass"
expect_contains "$WORK/crashes.txt" "exception fail check@7"
expect_contains "$WORK/crashes.txt" "fatal fail deep@14"

# The oracle's message and signature carry PHP's message and the site.
run 0 "$CULPRIT" tests
expect_contains "$WORK/out" "PHP Fatal error: Uncaught RuntimeException: too big: 5"
expect_contains "$WORK/out" "boom.php:7 (check)"

# ---- warnings and notices fail a run when CULPRIT_PHP_FAIL_ON says so ----
export CULPRIT_STORE="$WORK/warnings"
run 0 "$CULPRIT" test --name default -- "$PHP_RUN" warn.php
run 255 env CULPRIT_PHP_FAIL_ON=warning "$CULPRIT" test --name strict -- "$PHP_RUN" warn.php
expect_contains "$WORK/out" "done" # the script ran to its end
run 255 env CULPRIT_PHP_FAIL_ON=notice "$CULPRIT" test --name stricter -- "$PHP_RUN" warn.php
run 0 env CULPRIT_PHP_FAIL_ON=bogus "$CULPRIT" test --name bogus -- "$PHP_RUN" warn.php
expect_contains "$WORK/err" "CULPRIT_PHP_FAIL_ON=bogus: expected error, warning or notice"
run 0 "$CULPRIT" tests
expect_contains "$WORK/out" 'PHP Warning: Undefined array key "missing" at '
expect_contains "$WORK/out" "warn.php:5 (lookup)"
[ "$(grep -c '^pass' "$WORK/out")" -eq 2 ] && pass || fail "expected 2 passing tests: $(cat "$WORK/out")"
# the silenced warning (@, line 7) is not the one reported; both failures are one cluster
run 0 "$CULPRIT" failures
expect_contains "$WORK/out" "cluster 1: 2 tests: PHP Warning"

# ---- return classes: calls of the program's functions whose result is used ----
export CULPRIT_STORE="$WORK/returns"
run 0 "$CULPRIT" test --name returns -- "$PHP_RUN" ret.php
run 0 "$CULPRIT" rank --kind return --format csv
sed 's|^[^,]*,[^,]*,[^,]*/||; s|App\\||' "$WORK/out" | cut -d, -f1,4 | grep ',1$' | sort >"$WORK/returns.txt"
# sign() over -2, 0, 3, 4; two calls of name() on one line (columns 1, 2);
# a method; strlen (namespaced: a site, but PHP's own at run time) and
# DateTime::format count nothing; `sign(1);` (line 18) is no site.  (The
# namespace, App\, is taken out of the callees' names.)
expect_file_equals "$WORK/returns.txt" "ret.php:11:1:sign()=negative,1
ret.php:11:1:sign()=positive,1
ret.php:11:1:sign()=zero,1
ret.php:13:1:name()=string,1
ret.php:13:2:name()=empty-string,1
ret.php:14:1:maybe()=null,1
ret.php:15:1:->get()=object,1"
grep -q 'ret.php:18:' "$WORK/out" && fail "an unused result is a return site" || pass

# ---- switch and match: the case each run took is a branch outcome ----
# PHP compiles cases.php's switches and its match to jump tables, which go
# straight to the case: the extension compiles switches without them (each
# case a comparison and a jump whose `true` is the case taken) and counts
# a match's arms ("case 's'|'xs'", ..., "default").  Test "three" takes
# case 3, "g" and 'xs'; "many" no case (default), no color, and 10.
export CULPRIT_STORE="$WORK/cases"
run 0 "$CULPRIT" test --name three -- "$PHP_RUN" cases.php 3 g xs
expect_file_equals "$WORK/out" "three green 1"
run 0 "$CULPRIT" test --name many -- "$PHP_RUN" cases.php 9 b 10
expect_file_equals "$WORK/out" "many none 3"
run 0 "$CULPRIT" export json --output cases.json
python3 - cases.json >"$WORK/cases.txt" <<'PY'
import json, sys
spectra = json.load(open(sys.argv[1]))
for i, element in enumerate(spectra["elements"]):
    if element["kind"] == "branch":
        taken = [t["name"] for t in spectra["tests"] if i in t["hits"]]
        print(element["name"].split("/")[-1], " ".join(taken) or "-")
PY
expect_file_equals "$WORK/cases.txt" "cases.php:44:1:true many
cases.php:44:1:false three
cases.php:8:1:true -
cases.php:8:1:false three many
cases.php:10:1:true -
cases.php:10:1:false three many
cases.php:12:1:true three
cases.php:12:1:false many
cases.php:14:1:true -
cases.php:14:1:false many
cases.php:16:1:true -
cases.php:16:1:false many
cases.php:26:1:true -
cases.php:26:1:false three many
cases.php:28:1:true three
cases.php:28:1:false many
cases.php:36:1:case 's'|'xs' three
cases.php:36:1:case 'm' -
cases.php:36:1:case 10 many
cases.php:36:1:default -"

# A match arm whose values do not fit an outcome's name keeps whole values
# only (a name cut inside its list would make the map unreadable and the
# file's coverage lost); a value longer than the name is cut and closed.
long_a=$(printf 'a%.0s' $(seq 61)) long_e=$(printf 'e%.0s' $(seq 200))
printf '<?php\necho match ($argv[1]) {\n    %s => 1,\n    "%s" => 2,\n    default => 0,\n};\n' \
    "'$long_a', '${long_a}b', '${long_a}c', '${long_a}d'" "$long_e" >long.php
run 0 "$CULPRIT" test --name long -- "$PHP_RUN" long.php x
grep -q 'wrote no coverage' "$WORK/err" && fail "the long match lost its coverage: $(cat "$WORK/err")" || pass
run 0 "$CULPRIT" export json --output long.json
python3 - long.json <<'PY' && pass || fail "long match outcomes: $(cat long.json | head -c 300)"
import json, sys
names = [e["name"].split(":", 3)[3] for e in json.load(open(sys.argv[1]))["elements"]
         if e["kind"] == "branch" and "long.php" in e["file"]]
assert names[0] == "case '" + "a" * 61 + "'", names[0]  # the second value would not fit
assert names[1].startswith("case 'eee") and names[1].endswith("'") and len(names[1]) < 128, names[1]
assert names[2] == "default", names
PY

# ---- a script that does not compile: PHP's message, a failing test, a sound store ----
export CULPRIT_STORE="$WORK/syntax"
run 255 "$CULPRIT" test --name broken -- "$PHP_RUN" bad.php
expect_contains "$WORK/err" "bad.php on line"
run 0 "$CULPRIT" test --name fine -- "$PHP_RUN" boom.php 0
run 0 "$CULPRIT" tests
expect_contains "$WORK/out" "broken"
expect_contains "$WORK/out" "fine"
run 0 "$CULPRIT" rank --kind line --format csv
expect_contains "$WORK/out" "boom.php:"
# check()'s parameter is untyped, so the VM skips its RECV: the header line
# (4) still counts the call.
grep 'boom.php:4,' "$WORK/out" | grep -q ',0,1,' && pass || fail "boom.php:4: $(grep 'boom.php:4,' "$WORK/out")"

finish
