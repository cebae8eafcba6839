# test_line_model.sh - which lines culprit-cc's program map lists as
# executable (the `line` records, docs/collector.md §2): those holding a
# statement, a condition or a function's entry, as gcov counts them.  Not
# the lines that carry only the jump ending a block (`}`, `} else {`, the
# `}` of a loop or a function, `do {`, `for (;;)`), nor continuation lines
# holding only operands of a statement on another line; yes the function
# headers, and `break;`, `continue;`, `goto` (even through a macro) and
# `return` lines.  Checked on tests/e2e/line_model.c and examples/mid/mid.c
# against fixed lists, in full and lines mode, and against gcov's lines for
# the same files (gcc --coverage -O0), with the differences the model
# documents: gcov also counts `case` and `goto` labels, and places a call
# that is the argument of another call on the outer call's line.
. "$(dirname "$0")/lib.sh"
need_culprit_cc objcopy

# map_lines OBJECT NAME : the sorted line numbers of the map's `line`
# records for the file whose path ends in /NAME; block_lines likewise the
# first and last lines of its blocks (0 for a block that holds none).
map_lines() {
    objcopy -O binary --only-section=culprit_map "$1" "$1.map"
    awk -F'\t' -v name="/$2" '$1 == "file" && substr($3, length($3) - length(name) + 1) == name { f = $2 }
        $1 == "line" && $2 == f { print $3 }' "$1.map" | sort -n | tr '\n' ' ' | sed 's/ $//'
}
block_lines() {
    awk -F'\t' '$1 == "block" { print $5; print $7 }' "$1.map" | sort -n | uniq | grep -v '^0$' | tr '\n' ' ' |
        sed 's/ $//'
}

# gcov_lines SOURCE : the lines gcov counts (a count or #####), from the
# notes file alone: nothing needs to run.
gcov_lines() {
    base=$(basename "$1" .c)
    gcc --coverage -O0 -c -o "gcov-$base.o" "$1" 2>/dev/null &&
        gcov -t "gcov-$base.gcno" 2>/dev/null |
        awk -F: -v want="$1" '/^ +-: +0:Source:/ { source = substr($0, index($0, "Source:") + 7) }
            { count = $1; gsub(/ /, "", count); line = $2; gsub(/ /, "", line)
              if (source == want && count != "-" && line + 0 > 0) print line }' | sort -n | uniq | tr '\n' ' ' |
        sed 's/ $//'
}

# only_in "A" "B" : the numbers of list A not in list B.
only_in() {
    for n in $1; do
        case " $2 " in *" $n "*) ;; *) printf '%s ' "$n" ;; esac
    done | sed 's/ $//'
}

cp "$TOP/tests/e2e/line_model.c" line_model.c
cp "$TOP/examples/mid/mid.c" mid.c

# ---- line_model.c: the expected list, in both modes -----------------------------------------------
model_lines="11 13 16 18 19 20 21 22 24 26 29 31 32 33 34 35 36 37 39 40 43 44 45 48 51 52 54 57 60 62 63 64 \
67 69 71 73 74 76 78 81 84 85 86 87 89 92 94 98 103 106 107 108 109 111 113 116 118 119 120 121 122 123 124 125"
for mode in full lines; do
    run 0 "$culprit_cc" --coverage=$mode -O0 -c -o "line_model-$mode.o" line_model.c
    map_lines "line_model-$mode.o" line_model.c >"lines-$mode"
    expect_file_equals "lines-$mode" "$model_lines"
    # Blocks keep their number; their ranges span only lines of the model.
    block_lines "line_model-$mode.o" >"blocks-$mode"
    stray=$(only_in "$(cat "blocks-$mode")" "$model_lines")
    if [ -z "$stray" ]; then pass; else fail "$mode: blocks begin or end on lines that are not lines: $stray"; fi
done
expect_same lines-full lines-lines
if [ "$(grep -c '^block' line_model-full.o.map)" -eq "$(grep -c '^block' line_model-lines.o.map)" ]; then pass; else
    fail "full and lines mode have different blocks"
fi

# ---- mid.c: no `}` or `} else {` to tie with the faulty line 17; the headers ------------------------
run 0 "$culprit_cc" -O0 -c -o mid.o mid.c
map_lines mid.o mid.c >lines-mid
expect_file_equals lines-mid "5 7 8 9 10 11 12 14 15 16 17 19 22 24 25 26 28 29"

# ---- against gcov -------------------------------------------------------------------------------
if command -v gcc >/dev/null && command -v gcov >/dev/null; then
    gcov_lines "$WORK/line_model.c" >gcov-line_model
    gcov_lines "$WORK/mid.c" >gcov-mid
    if [ -s gcov-line_model ] && [ -s gcov-mid ]; then
        expect_file_equals gcov-mid "$(cat lines-mid)"
        # gcov only: the `case` labels (70 72 75) and the labels `found:`
        # and `out:` (88 112), which have no instruction in clang's IR.
        only_in "$(cat gcov-line_model)" "$model_lines" >gcov-only
        expect_file_equals gcov-only "70 72 75 88 112"
        # culprit only: the calls on line 124 are arguments of the printf
        # on line 123, which gcc places on 123.
        only_in "$model_lines" "$(cat gcov-line_model)" >culprit-only
        expect_file_equals culprit-only "124"
    else
        echo "$E2E_NAME: note: gcc --coverage or gcov gave nothing; skipping the comparison with gcov"
    fi
else
    echo "$E2E_NAME: note: no gcc or gcov; skipping the comparison with gcov"
fi

finish
