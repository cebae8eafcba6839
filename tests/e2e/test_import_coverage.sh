#!/bin/sh
# test_import_coverage.sh - localize a fault from coverage written by other
# tools: a small faulty C program is built with gcc --coverage and with
# clang's source-based coverage, six tests run one at a time, and each
# test's coverage is captured with gcov --json-format, lcov --capture and
# llvm-cov export -format=lcov, imported one file per test, and ranked.
# Then the exact error of each kind of malformed input.
. "$(dirname "$0")/lib.sh"

# mid(): the middle of three numbers.  Line 10 is the fault (m = y where
# m = x is meant); only the test (2,1,3) fails.
cat >mid.c <<'END'
#include <stdlib.h>

static int mid(int x, int y, int z)
{
    int m = z;
    if (y < z) {
        if (x < y)
            m = y;
        else if (x < z)
            m = y;
    } else {
        if (x > y)
            m = y;
        else if (x > z)
            m = x;
    }
    return m;
}

int main(int argc, char **argv)
{
    if (argc != 5)
        return 2;
    return mid(atoi(argv[1]), atoi(argv[2]), atoi(argv[3])) == atoi(argv[4]) ? 0 : 1;
}
END
# x y z and the expected middle, one test per line; the test is mid_x_y_z.
tests="3 3 5 3
1 2 3 2
3 2 1 2
5 5 5 5
5 3 4 4
2 1 3 2"

# run_tests DIR CAPTURE: runs each test with the program built in DIR, from
# fresh counters, then `CAPTURE NAME` (in DIR) saves its coverage; the
# verdicts, from the exit statuses, go to DIR/verdicts.txt.
run_tests() {
    : >"$1/verdicts.txt"
    echo "$tests" | while read -r x y z expected; do
        name="mid_${x}_${y}_${z}"
        (
            cd "$1" || exit 1
            rm -f ./*.gcda ./*.profraw
            if LLVM_PROFILE_FILE="$name.profraw" ./mid "$x" "$y" "$z" "$expected"; then verdict=pass; else verdict=fail; fi
            echo "$name $verdict" >>verdicts.txt
            $2 "$name" >capture.log 2>&1 || { cat capture.log >&2; exit 1; }
        ) || fail "capturing the coverage of $name in $1"
    done
}

# The tarantula ranking of lines that all three pipelines must give first:
# line 10 = 1/(1 + 1/5), run by the failing test and one passing test.
expect_fault_first() { # LABEL
    line=$(sed -n 2p "$WORK/out")
    case $line in
    1,0.8333333333333334,*mid.c:10,1,1,1,0,4,tarantula) pass ;;
    *) fail "$1: the first entry is '$line', expected the fault mid.c:10; ranking:
$(cat "$WORK/out")" ;;
    esac
}

# (a) gcc --coverage, gcov --json-format: one mid.gcov.json.gz per test.
mkdir gcc cov-gcov cov-gcov-stdout cov-lcov
cp mid.c gcc/
(cd gcc && gcc -O0 --coverage -c mid.c && gcc --coverage -o mid mid.o) && pass || fail "gcc --coverage"
capture_gcov() {
    gcov -b --json-format mid.c && mv mid.gcov.json.gz "../cov-gcov/$1.gcov.json.gz" &&
        gcov -b --stdout --json-format mid.c >"../cov-gcov-stdout/$1.json"
}
run_tests gcc capture_gcov
expect_file_equals gcc/verdicts.txt "mid_3_3_5 pass
mid_1_2_3 pass
mid_3_2_1 pass
mid_5_5_5 pass
mid_5_3_4 pass
mid_2_1_3 fail"
run 0 "$CULPRIT" --store gcov import gcov-json --verdicts gcc/verdicts.txt cov-gcov/*.gcov.json.gz
expect_contains err "imported 6 tests (1 failing)"
# Plain lines: with gcov's branches the default would score lines by their tuples.
run 0 "$CULPRIT" --store gcov rank --kind line --formula tarantula --format csv
expect_fault_first "gcov-json"
cp out rank-gcov.csv
# gcov's branches are tuples: by default they score their lines.
run 0 "$CULPRIT" --store gcov rank --formula tarantula --format csv
expect_contains out "mid.c:10,1,1,1,0,4,tuples:tarantula"
# The branch into the fault has the fault's spectrum.
run 0 "$CULPRIT" --store gcov rank --formula tarantula --format csv --kind branch --top 1
expect_file_equals out "rank,score,element,confidence,ef,ep,nf,np,method
1,0.8333333333333334,mid.c:9:branch#0,1,1,1,0,4,tarantula"
# gcov --stdout writes plain JSON: the same spectra, the same program.
run 0 "$CULPRIT" --store gcov import gcov-json --fail mid_2_1_3 cov-gcov-stdout/*.json
run 0 "$CULPRIT" --store gcov rank --kind line --formula tarantula --format csv
expect_same out rank-gcov.csv
# Every gcov line is an executable line: run or not, each is an element.
run 0 "$CULPRIT" --store gcov export csv -o gcov.csv
expect_contains gcov.csv "test,verdict,mid.c:3,mid.c:5,mid.c:6,mid.c:7,mid.c:8,mid.c:9,mid.c:10,mid.c:12"

# (b) the same build, captured by lcov --capture (geninfo) with branches.
capture_lcov() {
    lcov --quiet --capture --directory . --rc lcov_branch_coverage=1 --output-file "../cov-lcov/$1.info"
}
run_tests gcc capture_lcov
run 0 "$CULPRIT" --store lcov import lcov --verdicts gcc/verdicts.txt cov-lcov/*.info
expect_contains err "imported 6 tests (1 failing)"
run 0 "$CULPRIT" --store lcov rank --kind line --formula tarantula --format csv
expect_fault_first "lcov --capture"
expect_contains out "$WORK/gcc/mid.c:10,"

# (c) clang source-based coverage, exported by llvm-cov as lcov.
mkdir llvm cov-llvm
cp mid.c llvm/
(cd llvm && clang-14 -O0 -fprofile-instr-generate -fcoverage-mapping -o mid mid.c) && pass || fail "clang-14"
capture_llvm() {
    llvm-profdata-14 merge -o "$1.profdata" "$1.profraw" &&
        llvm-cov-14 export -format=lcov -instr-profile "$1.profdata" ./mid >"../cov-llvm/$1.info"
}
run_tests llvm capture_llvm
expect_same llvm/verdicts.txt gcc/verdicts.txt
run 0 "$CULPRIT" --store llvm import lcov --verdicts llvm/verdicts.txt cov-llvm/*.info
expect_contains err "imported 6 tests (1 failing)"
run 0 "$CULPRIT" --store llvm rank --kind line --formula tarantula --format csv
expect_fault_first "llvm-cov export"

# Malformed coverage: one precise line each, exit 2, no store left behind.
mkdir bad
cp cov-lcov/mid_3_3_5.info bad/good.info
bad_lcov() { # NAME CONTENT EXPECTED-MESSAGE
    printf "$2" >"bad/$1.info"
    run 2 "$CULPRIT" --store bad-store import lcov --fail "$1" bad/good.info "bad/$1.info"
    expect_file_equals err "culprit: $3"
}
bad_lcov no-count 'TN:\nSF:a.c\nDA:12\nend_of_record\n' 'bad/no-count.info:3:6: expected DA:LINE,COUNT'
bad_lcov taken 'SF:a.c\nBRDA:3,0,1,yes\nend_of_record\n' \
    'bad/taken.info:2:12: expected BRDA:LINE,BLOCK,BRANCH,TAKEN (TAKEN a count or -)'
bad_lcov unterminated 'SF:a.c\nDA:1,1\n' 'bad/unterminated.info:3:1: expected end_of_record'
bad_lcov unknown 'SF:a.c\nLINE:1,1\nend_of_record\n' \
    "bad/unknown.info:2:1: expected an lcov record (TN, SF, FN, FNDA, DA, BRDA, LF, end_of_record, ...), found 'LINE'"
printf '{"format_version": "1", "files": [{"file": "a.c", "lines": [{"line_number": 1}]}]}\n' >bad/count.json
run 2 "$CULPRIT" --store bad-store import gcov-json --fail count bad/count.json
expect_file_equals err 'culprit: bad/count.json: files[0].lines[0]: expected "count" to be a non-negative integer'
printf '{"format_version": "1",\n "files": [,]}\n' >bad/syntax.json
run 2 "$CULPRIT" --store bad-store import gcov-json --fail syntax bad/syntax.json
expect_file_equals err "culprit: bad/syntax.json:2:12: unexpected token near ','"
printf 'not gzip' | gzip -c | head -c 12 >bad/short.gcov.json.gz
run 2 "$CULPRIT" --store bad-store import gcov-json --fail short bad/short.gcov.json.gz
expect_file_equals err "culprit: bad/short.gcov.json.gz: cannot decompress: unexpected end of file"

# Verdicts that do not fit the files.
sed '$d' gcc/verdicts.txt >short-verdicts.txt
run 2 "$CULPRIT" --store bad-store import lcov --verdicts short-verdicts.txt cov-lcov/*.info
expect_file_equals err "culprit: short-verdicts.txt: no verdict for test 'mid_2_1_3' (from cov-lcov/mid_2_1_3.info)"
{ cat gcc/verdicts.txt && echo "mid_9_9_9 pass"; } >long-verdicts.txt
run 2 "$CULPRIT" --store bad-store import lcov --verdicts long-verdicts.txt cov-lcov/*.info
expect_file_equals err "culprit: long-verdicts.txt:7:1: no coverage file for test 'mid_9_9_9'"
printf '# mid\nmid_3_3_5 passed\n' >word-verdicts.txt
run 2 "$CULPRIT" --store bad-store import lcov --verdicts word-verdicts.txt cov-lcov/*.info
expect_file_equals err "culprit: word-verdicts.txt:2:11: expected a verdict (pass, fail, error, timeout or skip), found 'passed'"
run 2 "$CULPRIT" --store bad-store import lcov --fail mid_2_1_4 cov-lcov/*.info
expect_file_equals err "culprit: no coverage file for test 'mid_2_1_4'"
run 2 "$CULPRIT" --store bad-store import lcov --fail mid_3_3_5 cov-lcov/mid_3_3_5.info cov-gcov/../cov-lcov/mid_3_3_5.info
expect_file_equals err "culprit: cov-gcov/../cov-lcov/mid_3_3_5.info: test 'mid_3_3_5' already comes from cov-lcov/mid_3_3_5.info"
[ ! -e bad-store ] && pass || fail "a failed import must not leave a store behind"

# Usage errors.
run 2 "$CULPRIT" import lcov cov-lcov/mid_3_3_5.info
expect_contains err "lcov needs --verdicts FILE or --fail NAME"
run 2 "$CULPRIT" import gcov-json --verdicts gcc/verdicts.txt --fail mid_2_1_3 cov-gcov/mid_2_1_3.gcov.json.gz
expect_contains err "give --verdicts FILE or --fail NAME, not both"
run 2 "$CULPRIT" import lcov --fail mid_2_1_3
expect_contains err "lcov needs one coverage FILE per test"
run 2 "$CULPRIT" import csv --fail x gcov.csv
expect_contains err "--verdicts and --fail are for lcov and gcov-json"
run 0 "$CULPRIT" help import
expect_contains out "culprit import lcov|gcov-json"
finish
