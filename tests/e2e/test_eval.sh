# test_eval.sh - `culprit eval` end to end: import the mid() example of Jones,
# Harrold and Stasko (ICSE 2002) as GZoltar files, evaluate two faulty
# versions (each in its own store), then summarise both results files into a
# table, a curve CSV and an SVG plot.  Expected values are worked out below.
. "$(dirname "$0")/lib.sh"

# mid() in twelve lines; line 6 is the fault (m = y instead of m = x).
#  1 m = z        5 else if (x < z)   9 m = y
#  2 if (y < z)   6 m = y   <- fault 10 else if (x > z)
#  3 if (x < y)   7 else              11 m = x
#  4 m = y        8 if (x > y)        12 return m
{
    echo name
    for line in 1 2 3 4 5 6 7 8 9 10 11 12; do echo "src/mid.c:$line"; done
} >spectra.txt
# Tests (3,3,5) (1,2,3) (3,2,1) (5,5,5) (5,3,4) pass; (2,1,3) fails.
cat >matrix.txt <<'EOF'
1 1 1 0 1 1 0 0 0 0 0 1 +
1 1 1 1 0 0 0 0 0 0 0 1 +
1 1 0 0 0 0 1 1 1 0 0 1 +
1 1 0 0 0 0 1 1 0 1 0 1 +
1 1 1 0 1 0 0 0 0 0 0 1 +
1 1 1 0 1 1 0 0 0 0 0 1 -
EOF

# json_get FILE EXPRESSION : prints a value from a JSON file (d is the document).
json_get() {
    python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# expect_value ACTUAL EXPECTED WHAT
expect_value() {
    if [ "$1" = "$2" ]; then pass; else fail "$3 is '$1', expected '$2'"; fi
}

run 0 "$CULPRIT" import gzoltar --matrix matrix.txt --spectra spectra.txt

# Version 1: the real fault.  Tarantula: line 6 scores 1/(1+1/5) = 0.83, the
# only best line, so every rank is 1.  12 executable lines, 11 executed (line
# 11 never runs): EXAM 1/12 and 1/11.
printf '# mid, version 1\nsrc/mid.c:6\n' >v1.txt
run 0 "$CULPRIT" eval --faults v1.txt --formula tarantula --format json
cp "$WORK/out" v1.json
expect_value "$(json_get v1.json 'd["version"], d["executable_lines"], d["executed_lines"], d["ties"]')" \
    "('v1.txt', 12, 11, 'worst')" "v1 header"
expect_value "$(json_get v1.json '[(r["formula"], r["best"], r["worst"], r["average"], r["rank"]) for r in d["results"]]')" \
    "[('tarantula', 1, 1, 1, 1)]" "v1 ranks"
expect_value "$(json_get v1.json 'd["results"][0]["exam"] == 1/12, d["results"][0]["exam_executed"] == 1/11')" \
    "(True, True)" "v1 EXAM"
expect_value "$(json_get v1.json 'd["results"][0]["well_localized"], d["results"][0]["first_fault"]')" \
    "(False, {'file': 'src/mid.c', 'line': 6})" "v1 first fault"

# Version 2, in another store: a fault on line 12, which every test runs
# (score 0.5 like lines 1 and 2, behind 6, 5 and 3): best 4, worst 6,
# average 5; EXAM 6/12 = 0.5 and 6/11.  The faults file names the file by a
# longer path, which matches by suffix.
printf 'proj/src/mid.c:12\n' >v2.txt
run 0 "$CULPRIT" --store "$WORK/store2" import gzoltar --matrix matrix.txt --spectra spectra.txt
run 0 "$CULPRIT" eval --store "$WORK/store2" --faults v2.txt --formula tarantula --version-name mid-v2 --format json
cp "$WORK/out" v2.json
expect_value "$(json_get v2.json '[(r["best"], r["worst"], r["average"], r["exam"], r["exam_executed"] == 6/11) for r in d["results"]]')" \
    "[(4, 6, 5, 0.5, True)]" "v2 ranks and EXAM"
expect_value "$(json_get v2.json 'd["version"]')" "mid-v2" "v2 version name"

# --ties chooses the rank EXAM uses: average 5 -> 5/12.
run 0 "$CULPRIT" eval --store "$WORK/store2" --faults v2.txt --formula tarantula --ties average --format csv
expect_file_equals "$WORK/out" "formula,best,worst,average,exam,exam_executed,well_localized,rank,ties,first_faulty_line,executable_lines,executed_lines,version
tarantula,4,6,5,0.4166666666666667,0.45454545454545453,false,5,average,proj/src/mid.c:12,12,11,v2.txt"

# Every formula by default; text output.
run 0 "$CULPRIT" eval --faults v1.txt
expect_contains "$WORK/out" "executable lines: 12, executed by the tests: 11"
expect_contains "$WORK/out" "ochiai "
expect_contains "$WORK/out" "dstar "

# The summary of both versions, Tarantula: EXAM 1/12 and 1/2, mean 7/24,
# sample sd sqrt(2 (5/24)^2) = 0.2946278254943948; within 10/15/20%: 50%;
# top-1 and top-5: 1 (rank 1), top-10: 2 (rank 6); none well-localized.
run 0 "$CULPRIT" eval --summary v1.json v2.json --format csv --curve-csv curve.csv --svg curve.svg
expect_file_equals "$WORK/out" "formula,faults,exam_mean,exam_sd,within_1_percent,within_5_percent,within_10_percent,within_15_percent,within_20_percent,top_1,top_5,top_10,top_1_percent,top_5_percent,top_10_percent,well_localized_percent
tarantula,2,0.2916666666666667,0.2946278254943948,0,0,50,50,50,1,1,2,50,50,100,0"
expect_file_equals curve.csv "formula,code_percent,faults_percent
tarantula,0,0
tarantula,8.333333333333332,50
tarantula,50,100
tarantula,100,100"
if python3 -c 'import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])' curve.svg 2>"$WORK/err"; then pass; else
    fail "curve.svg is not well-formed XML: $(cat "$WORK/err")"
fi
expect_contains curve.svg 'xmlns="http://www.w3.org/2000/svg"'
expect_contains curve.svg '% of code examined'
expect_contains curve.svg '% of faults located'
expect_contains curve.svg '>tarantula</text>'

# The same summary as JSON, and over executed lines (EXAM 1/11 and 6/11).
run 0 "$CULPRIT" eval --summary v1.json v2.json --format json
cp "$WORK/out" summary.json
expect_value "$(json_get summary.json '[(f["formula"], f["faults"], f["exam_mean"] == 7/24, f["top"]) for f in d["formulas"]]')" \
    "[('tarantula', 2, True, {'1': 1, '5': 1, '10': 2})]" "summary JSON"
run 0 "$CULPRIT" eval --summary --exam executed v1.json v2.json --format json
expect_value "$(json_get "$WORK/out" 'abs(d["formulas"][0]["exam_mean"] - 7/22) < 1e-15, d["exam"]')" \
    "(True, 'executed')" "summary over executed lines"
run 0 "$CULPRIT" eval --summary v1.json v2.json
expect_contains "$WORK/out" "summary of 2 results files; EXAM over executable lines"

# Bad input: exit 2 with the file, line and column.
printf 'src/mid.c:6\n  src/mid.c:x6\n' >bad.txt
run 2 "$CULPRIT" eval --faults bad.txt
expect_file_equals "$WORK/err" "culprit: bad.txt:2:13: expected FILE:LINE, 'x' is not a digit of the line number"
printf 'src/mid.c\n' >bad.txt
run 2 "$CULPRIT" eval --faults bad.txt
expect_file_equals "$WORK/err" "culprit: bad.txt:1:1: expected FILE:LINE, found no ':' in 'src/mid.c'"
printf '# nothing\n' >empty.txt
run 2 "$CULPRIT" eval --faults empty.txt
expect_file_equals "$WORK/err" "culprit: empty.txt: no faulty lines in the file (expected FILE:LINE lines)"
printf 'src/mid.c:6\nsrc/mid.c:13\n' >outside.txt
run 2 "$CULPRIT" eval --faults outside.txt
expect_file_equals "$WORK/err" "culprit: outside.txt:2: faulty line src/mid.c:13 is not an executable line of the program"
printf 'src/other.c:1\n' >other.txt
run 2 "$CULPRIT" eval --faults other.txt
expect_file_equals "$WORK/err" "culprit: other.txt:1: faulty line src/other.c:1 is not in the program: no file of the program matches src/other.c"

run 2 "$CULPRIT" eval --faults v1.txt --formula nosuch
run 2 "$CULPRIT" eval --faults v1.txt --ties middle
run 2 "$CULPRIT" eval
run 2 "$CULPRIT" eval --faults v1.txt --svg x.svg
expect_contains "$WORK/err" "culprit eval: --svg needs --summary"
run 2 "$CULPRIT" eval --summary
run 2 "$CULPRIT" eval --summary v1.json v1.json
expect_file_equals "$WORK/err" "culprit: version v1.txt appears twice for tarantula"
printf '{"culprit_eval": 1,\n "version": "x",\n "results": [1 2]}\n' >broken.json
run 2 "$CULPRIT" eval --summary broken.json
expect_contains "$WORK/err" "culprit: broken.json:3:"
run 2 "$CULPRIT" eval --summary v1.txt
expect_contains "$WORK/err" "culprit: v1.txt:1:1:"
printf '{"culprit_eval": 1, "version": "x", "results": [{"formula": "t", "rank": 1}]}\n' >partial.json
run 2 "$CULPRIT" eval --summary partial.json
expect_file_equals "$WORK/err" 'culprit: partial.json: results[0]: "exam" must be a number'
printf '{"results": []}\n' >foreign.json
run 2 "$CULPRIT" eval --summary foreign.json
expect_file_equals "$WORK/err" "culprit: foreign.json: not a culprit eval results file (write one with 'culprit eval --format json')"

run 0 "$CULPRIT" eval --help
expect_contains "$WORK/out" "usage: culprit eval --faults FILE"

finish
