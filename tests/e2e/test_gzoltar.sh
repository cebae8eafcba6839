#!/bin/sh
# test_gzoltar.sh - import a GZoltar matrix of the classic mid() example,
# rank it, export it in every format and re-import it identically, and check
# the exact error of each kind of malformed input.
. "$(dirname "$0")/lib.sh"

# Executable lines of tests/subjects-style mid(): 7 8 9 10 11 12 14 15 16 17 19;
# line 12 is the fault (m = y where m = x is meant).  Rows: the tests
# (3,3,5) (1,2,3) (3,2,1) (5,5,5) (5,3,4) pass, (2,1,3) fails.
cat >spectra.csv <<'END'
name
src/mid.c:7
src/mid.c:8
src/mid.c:9
src/mid.c:10
src/mid.c:11
src/mid.c:12
src/mid.c:14
src/mid.c:15
src/mid.c:16
src/mid.c:17
src/mid.c:19
END
cat >matrix.txt <<'END'
1 1 1 0 1 1 0 0 0 0 1 +
1 1 1 1 0 0 0 0 0 0 1 +
1 1 0 0 0 0 1 1 0 0 1 +
1 1 0 0 0 0 1 0 1 0 1 +
1 1 1 0 1 0 0 0 0 0 1 +
1 1 1 0 1 1 0 0 0 0 1 -
END
cat >tests.csv <<'END'
name,outcome,runtime,stacktrace
mid_3_3_5,PASS,0,
mid_1_2_3,PASS,0,
mid_3_2_1,PASS,0,
mid_5_5_5,PASS,0,
mid_5_3_4,PASS,0,
mid_2_1_3,FAIL,0,
END

run 0 "$CULPRIT" import gzoltar --matrix matrix.txt --spectra spectra.csv --tests tests.csv
expect_contains err "imported 6 tests (1 failing) over 11 elements"

# An imported matrix has no tuples, so the default ranks plain lines: the
# method column says tarantula, not tuples:tarantula.
# Tarantula: line 12 = 1/(1 + 1/5) = 5/6; 11 = 1/(1 + 2/5); 9 = 1/(1 + 3/5);
# 7, 8, 19 = 0.5 (tied, worst rank 6); lines never run by the failing test last.
run 0 "$CULPRIT" rank --formula tarantula --format csv
expect_file_equals out "rank,score,element,confidence,ef,ep,nf,np,method
1,0.8333333333333334,src/mid.c:12,1,1,1,0,4,tarantula
2,0.7142857142857143,src/mid.c:11,1,1,2,0,3,tarantula
3,0.625,src/mid.c:9,1,1,3,0,2,tarantula
6,0.5,src/mid.c:7,1,1,5,0,0,tarantula
6,0.5,src/mid.c:8,1,1,5,0,0,tarantula
6,0.5,src/mid.c:19,1,1,5,0,0,tarantula
7,0,src/mid.c:14,0.4,0,2,1,3,tarantula
10,0,src/mid.c:10,0.2,0,1,1,4,tarantula
10,0,src/mid.c:15,0.2,0,1,1,4,tarantula
10,0,src/mid.c:16,0.2,0,1,1,4,tarantula
11,0,src/mid.c:17,0,0,0,1,5,tarantula"
run 0 "$CULPRIT" rank --formula tarantula --format csv --top 3
expect_file_equals out "rank,score,element,confidence,ef,ep,nf,np,method
1,0.8333333333333334,src/mid.c:12,1,1,1,0,4,tarantula
2,0.7142857142857143,src/mid.c:11,1,1,2,0,3,tarantula
3,0.625,src/mid.c:9,1,1,3,0,2,tarantula"

# Ochiai: 12 = 1/sqrt(2); ties reported best / average.
run 0 "$CULPRIT" rank --formula ochiai --format csv --ties best --top 4
expect_file_equals out "rank,score,element,confidence,ef,ep,nf,np,method
1,0.7071067811865475,src/mid.c:12,,1,1,0,4,ochiai
2,0.5773502691896258,src/mid.c:11,,1,2,0,3,ochiai
3,0.5,src/mid.c:9,,1,3,0,2,ochiai
4,0.4082482904638631,src/mid.c:7,,1,5,0,0,ochiai"
run 0 "$CULPRIT" rank --formula ochiai --format csv --ties average --top 6
expect_contains out "5,0.4082482904638631,src/mid.c:7,,1,5,0,0"
expect_contains out "5,0.4082482904638631,src/mid.c:19,,1,5,0,0"

run 0 "$CULPRIT" rank --formula dstar --format json --top 1
expect_contains out '"element": "src/mid.c:12"'
# DStar (k=2) of line 12: 1^2 / (ep + nf) = 1 / (1 + 0) = 1.
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["entries"][0]["score"]==1, d' out && pass || fail "dstar json"
# An element run only by the failing test gets x/0: above every finite score.
printf 'a.c:1\na.c:2\n' >inf-spectra.txt
printf '1 1 -\n0 1 +\n' >inf-matrix.txt
run 0 "$CULPRIT" --store inf import gzoltar --matrix inf-matrix.txt --spectra inf-spectra.txt
run 0 "$CULPRIT" --store inf rank --formula dstar --format json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); e=d["entries"]; assert e[0]["score"]=="Infinity" and e[0]["element"]=="a.c:1" and e[1]["score"]==1, d' out && pass || fail "dstar infinite json"
run 0 "$CULPRIT" --store inf rank --formula dstar --format csv
expect_contains out "1,inf,a.c:1,"

run 0 "$CULPRIT" rank --format text
expect_contains out "src/mid.c:12"

# Round trips: gzoltar, csv and json exports re-import to identical exports.
run 0 "$CULPRIT" export gzoltar --output-dir out1
expect_same out1/matrix.txt matrix.txt
expect_same out1/spectra.csv spectra.csv
expect_same out1/tests.csv tests.csv
run 0 "$CULPRIT" --store store2 import gzoltar --matrix out1/matrix.txt --spectra out1/spectra.csv --tests out1/tests.csv
run 0 "$CULPRIT" --store store2 export gzoltar --output-dir out2
expect_same out1/matrix.txt out2/matrix.txt
expect_same out1/spectra.csv out2/spectra.csv
expect_same out1/tests.csv out2/tests.csv
for format in csv json; do
    run 0 "$CULPRIT" export "$format" -o "first.$format"
    run 0 "$CULPRIT" --store "store-$format" import "$format" "first.$format"
    run 0 "$CULPRIT" --store "store-$format" export "$format" -o "second.$format"
    expect_same "first.$format" "second.$format"
done

# GZoltar names keep their text and line.
printf 'org.x$Y#m(int,int):42\norg.x$Y#n():43\n' >java-spectra.txt
printf '1 0 -\n0 1 +\n' >java-matrix.txt
run 0 "$CULPRIT" --store java import gzoltar --matrix java-matrix.txt --spectra java-spectra.txt
run 0 "$CULPRIT" --store java rank --format csv --formula tarantula
expect_file_equals out 'rank,score,element,confidence,ef,ep,nf,np,method
1,1,"org.x$Y#m(int,int):42",1,1,0,0,1,tarantula
2,0,org.x$Y#n():43,1,0,1,1,0,tarantula'

# Components another tool named without ':LINE' (issue 18, item 8) are
# opaque elements: they rank under their names (every element, by default,
# when the program has them), the line view leaves them out, and they
# export back under the same names.  Mixed with file:LINE components.
printf 'name\ncond22_true\ncond22_false\nsrc/a.c:3\nret5_neg\n' >opaque-spectra.csv
printf '1 0 1 0 -\n0 1 1 1 +\n1 0 0 1 -\n0 1 1 0 +\n' >opaque-matrix.txt
run 0 "$CULPRIT" --store opaque import gzoltar --matrix opaque-matrix.txt --spectra opaque-spectra.csv
expect_contains err "imported 4 tests (2 failing) over 4 elements"
run 0 "$CULPRIT" --store opaque rank --format csv
expect_file_equals out 'rank,score,element,confidence,ef,ep,nf,np,method
1,inf,cond22_true,,2,0,0,2,dstar
2,0.5,ret5_neg,,1,1,1,1,dstar
3,0.3333333333333333,src/a.c:3,,1,2,1,0,dstar
4,0,cond22_false,,0,2,2,0,dstar'
run 0 "$CULPRIT" --store opaque rank --kind opaque --format json
expect_contains out '"element": "cond22_true", "kind": "opaque", "file": null, "line": 0'
# (the line view of several kinds names the element each line's score
# came from: here the line itself)
run 0 "$CULPRIT" --store opaque rank --kind all --view line --format csv
expect_file_equals out 'rank,score,element,confidence,ef,ep,nf,np,method,decided_by,decided_by_ef,decided_by_ep,decided_by_nf,decided_by_np,why
1,0.3333333333333333,src/a.c:3,,1,2,1,0,dstar,src/a.c:3,1,2,1,0,line a.c:3'
run 0 "$CULPRIT" --store opaque rank --kind line --format csv
expect_line_count out 2
run 0 "$CULPRIT" --store opaque export gzoltar --output-dir opaque-out
expect_file_equals opaque-out/spectra.csv "$(cat opaque-spectra.csv)"
expect_same opaque-out/matrix.txt opaque-matrix.txt
run 0 "$CULPRIT" --store opaque export csv -o opaque.csv
expect_contains opaque.csv "test,verdict,cond22_true,cond22_false,src/a.c:3,ret5_neg"
run 0 "$CULPRIT" --store opaque-csv import csv opaque.csv
run 0 "$CULPRIT" --store opaque-csv export gzoltar --output-dir opaque-out2
expect_same opaque-out/spectra.csv opaque-out2/spectra.csv
expect_same opaque-out/matrix.txt opaque-out2/matrix.txt
run 0 "$CULPRIT" --store opaque export json -o opaque.json
expect_contains opaque.json '"kind": "opaque"'
run 0 "$CULPRIT" --store opaque-json import json opaque.json
run 0 "$CULPRIT" --store opaque-json export json -o opaque2.json
expect_same opaque.json opaque2.json
sed 's/"name": "cond22_true"/"name": null/' opaque.json >opaque-unnamed.json
run 2 "$CULPRIT" --store bad-spectra import json opaque-unnamed.json
expect_file_equals err 'culprit: opaque-unnamed.json: elements[0]: expected a non-empty string "name" for an opaque element'
# Only opaque components: the default ranking still shows every one.
printf 'p1\np2\n' >only-opaque.txt
printf '1 0 -\n0 1 +\n' >only-opaque-matrix.txt
run 0 "$CULPRIT" --store only-opaque import gzoltar --matrix only-opaque-matrix.txt --spectra only-opaque.txt
run 0 "$CULPRIT" --store only-opaque rank --format csv
expect_file_equals out 'rank,score,element,confidence,ef,ep,nf,np,method
1,inf,p1,,1,0,0,1,dstar
2,0,p2,,0,1,1,0,dstar'
printf 'test,verdict,a.c:1,,b\nt1,fail,1,0,1\n' >empty-name.csv
run 2 "$CULPRIT" --store bad-spectra import csv empty-name.csv
expect_file_equals err "culprit: empty-name.csv:1:20: expected a component name, found an empty one"

# Malformed inputs: one precise line each, exit 2.
bad() { # NAME MATRIX-CONTENT EXPECTED-MESSAGE
    printf "$2" >"bad-$1.txt"
    run 2 "$CULPRIT" --store "bad-store-$1" import gzoltar --matrix "bad-$1.txt" --spectra spectra.csv
    expect_file_equals err "culprit: $3"
}
bad truncated '1 1 1 0 1 1 0 0 0 0 1 +\n1 1 1 0\n' \
    'bad-truncated.txt:2:8: expected 11 coverage values (0 or 1) before the verdict, found only 4'
bad no-verdict '1 1 1 0 1 1 0 0 0 0 1\n' \
    'bad-no-verdict.txt:1:22: expected + (pass) or - (fail) after the 11 coverage values'
bad truncated-verdict '1 1 1 0 1 +\n' \
    'bad-truncated-verdict.txt:1:11: expected 11 coverage values (0 or 1) before the verdict, found only 5'
bad columns '1 1 1 0 1 1 0 0 0 0 1 1 +\n' \
    'bad-columns.txt:1:23: expected + (pass) or - (fail) after 11 coverage values, found another value (the spectra file has 11 components)'
bad verdict '1 1 1 0 1 1 0 0 0 0 1 PASS\n' \
    "bad-verdict.txt:1:23: expected + (pass) or - (fail), found 'PASS'"
bad value '1 1 2 0 1 1 0 0 0 0 1 +\n' \
    "bad-value.txt:1:5: expected 0 or 1, found '2'"
bad trailing '1 1 1 0 1 1 0 0 0 0 1 + x\n' \
    'bad-trailing.txt:1:25: expected the end of the line after the verdict'
bad empty '' 'bad-empty.txt:1:1: expected at least one test row'

: >empty-spectra.txt
run 2 "$CULPRIT" --store bad-spectra import gzoltar --matrix matrix.txt --spectra empty-spectra.txt
expect_file_equals err "culprit: empty-spectra.txt:1:1: expected at least one component name"
run 2 "$CULPRIT" --store bad-spectra import gzoltar --matrix matrix.txt --spectra spectra.csv --tests spectra.csv
expect_file_equals err "culprit: matrix.txt:7:1: expected 12 rows (one per name in the tests file), found 6"
head -n 3 tests.csv >short-tests.csv
run 2 "$CULPRIT" --store bad-spectra import gzoltar --matrix matrix.txt --spectra spectra.csv --tests short-tests.csv
expect_file_equals err "culprit: matrix.txt:3:1: the tests file names 2 tests, but the matrix has more rows"
[ ! -e bad-spectra ] && pass || fail "a failed import must not leave a store behind"

# Test names with commas and quotes survive tests.csv quoting both ways.
printf 'name,outcome,runtime,stacktrace\n"t(1,2)",FAIL,0,\n"say ""hi""",PASS,0,\n' >quoted-tests.csv
run 0 "$CULPRIT" --store quoted import gzoltar --matrix java-matrix.txt --spectra java-spectra.txt --tests quoted-tests.csv
run 0 "$CULPRIT" --store quoted export gzoltar --output-dir quoted-out
expect_same quoted-out/tests.csv quoted-tests.csv
printf 'name,outcome\n"unterminated,FAIL\nok,PASS\n' >broken-tests.csv
run 2 "$CULPRIT" --store broken import gzoltar --matrix java-matrix.txt --spectra java-spectra.txt --tests broken-tests.csv
expect_file_equals err "culprit: broken-tests.csv:2:1: expected a test name, found a broken quote"

# A store that is not a culprit database is reported and left untouched.
mkdir notastore && echo "hello, not a database" >notastore/culprit.db
cp notastore/culprit.db before.db
run 2 "$CULPRIT" --store notastore rank
expect_file_equals err "culprit: notastore/culprit.db: not a culprit store (not an SQLite database)"
expect_same notastore/culprit.db before.db
run 2 "$CULPRIT" --store notastore import gzoltar --matrix matrix.txt --spectra spectra.csv
expect_same notastore/culprit.db before.db
run 2 "$CULPRIT" --store nowhere rank
expect_contains err "no culprit store at nowhere"

# Usage errors.
run 2 "$CULPRIT" rank --formula nosuch
expect_contains err "unknown formula 'nosuch'"
run 2 "$CULPRIT" rank --ties median
expect_contains err "unknown tie policy 'median'"
run 2 "$CULPRIT" import gzoltar --matrix matrix.txt
expect_contains err "gzoltar needs --matrix FILE and --spectra FILE"
run 2 "$CULPRIT" frobnicate
run 0 "$CULPRIT" help rank
expect_contains out "usage: culprit rank"
finish
