# test_rank_default.sh - the default method of `culprit rank` (neither
# --technique nor --kind): enriched entities (--technique tuples) when the
# program has tuples, i.e. branch or return elements, as a program built
# with culprit-cc has; plain lines (--kind line) when it has none, as an
# imported GZoltar matrix has, silently and with exit 0.  Every format must
# name the method that actually ran.  The collected part is skipped when
# culprit-cc or the runtime has not been built.
. "$(dirname "$0")/lib.sh"

# json_field FILE FIELD : the top-level FIELD of a JSON ranking ("-" when absent).
json_field() {
    python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get(sys.argv[2], "-"))' "$1" "$2"
}

expect_json_field() { # FILE FIELD VALUE
    value=$(json_field "$1" "$2")
    if [ "$value" = "$3" ]; then pass; else fail "$1: \"$2\" is '$value', expected '$3'"; fi
}

# ---- an imported GZoltar matrix has no tuples: the default is plain lines ----
run 0 "$CULPRIT" import gzoltar --matrix "$TOP/examples/mid/matrix.txt" \
    --spectra "$TOP/examples/mid/spectra.csv" --tests "$TOP/examples/mid/tests.csv"
for format in text csv json; do
    rank_into "imported-default.$format" --format "$format"
    rank_into "imported-line.$format" --kind line --format "$format"
    expect_same "$WORK/imported-default.$format" "$WORK/imported-line.$format"
done
expect_contains "$WORK/imported-default.text" "(formula dstar,"
expect_json_field "$WORK/imported-default.json" method dstar
expect_json_field "$WORK/imported-default.json" technique -
if head -n 1 "$WORK/imported-default.csv" | grep -qx 'rank,score,element,confidence,ef,ep,nf,np,method'; then
    pass
else
    fail "imported csv header: $(head -n 1 "$WORK/imported-default.csv")"
fi
if sed 1d "$WORK/imported-default.csv" | grep -qv ',dstar$'; then fail "imported csv: a row's method is not dstar"; else pass; fi
# Another formula: still plain, under that formula's name.
rank_into imported-ochiai.csv --formula ochiai --format csv
rank_into imported-ochiai-line.csv --formula ochiai --kind line --format csv
expect_same "$WORK/imported-ochiai.csv" "$WORK/imported-ochiai-line.csv"
expect_contains "$WORK/imported-ochiai.csv" ",1,1,0,4,ochiai"
# An explicit --technique tuples keeps its behaviour: the same entries, named
# tuples (with the columns naming what each line scores as: here itself).
rank_into imported-tuples.csv --technique tuples --format csv
sed 's/,method,decided_by,.*$/,method/; s/,tuples:dstar,.*$/,dstar/' "$WORK/imported-tuples.csv" \
    >"$WORK/imported-tuples-renamed.csv"
expect_same "$WORK/imported-tuples-renamed.csv" "$WORK/imported-default.csv"

# ---- a program built with culprit-cc has tuples: the default is tuples ----
BUILD_DIR=$(dirname "$CULPRIT")
CC_WRAPPER="$BUILD_DIR/culprit-cc"
if [ ! -x "$CC_WRAPPER" ] || [ ! -f "$BUILD_DIR/libculprit-rt.a" ]; then
    echo "$E2E_NAME: note: $CC_WRAPPER or the runtime is not built; skipping the collected part"
    finish
    exit 0
fi
export CULPRIT_STORE="$WORK/collected"
if "$CC_WRAPPER" -g -o mid "$TOP/examples/mid/mid.c" 2>"$WORK/cc.err"; then pass; else
    fail "culprit-cc mid.c: $(head -c 300 "$WORK/cc.err")"
fi
for input in "3 3 5" "1 2 3" "3 2 1" "5 5 5" "5 3 4" "2 1 3"; do
    name=mid_$(echo "$input" | tr ' ' _)
    # shellcheck disable=SC2086
    run 0 "$CULPRIT" test --name "$name" --expect "$TOP/examples/mid/expected/$name.out" -- ./mid $input
done
for format in text csv json; do
    rank_into "cc-default.$format" --format "$format"
    rank_into "cc-tuples.$format" --technique tuples --format "$format"
    expect_same "$WORK/cc-default.$format" "$WORK/cc-tuples.$format"
    rank_into "cc-kind-tuple.$format" --kind tuple --format "$format"
    expect_same "$WORK/cc-default.$format" "$WORK/cc-kind-tuple.$format"
done
expect_contains "$WORK/cc-default.text" "(technique tuples, formula dstar,"
expect_json_field "$WORK/cc-default.json" method tuples:dstar
expect_json_field "$WORK/cc-default.json" technique tuples
expect_json_field "$WORK/cc-default.json" formula dstar
expect_contains "$WORK/cc-default.csv" ",tuples:dstar"
# The formula is the tuples' formula.
rank_into cc-tarantula.csv --formula tarantula --format csv
rank_into cc-tuples-tarantula.csv --technique tuples --formula tarantula --format csv
expect_same "$WORK/cc-tarantula.csv" "$WORK/cc-tuples-tarantula.csv"

# --kind line is the plain ranking, and on mid() it differs from tuples:
# line 11's true outcome has the fault's spectrum (ef=1, ep=1), so the
# tuples give lines 11 and 12 the same score, and the tie goes to the line
# that scores better by itself: 12 first, 11 second (DStar, ef^2 / (ep +
# nf): 1/1 and 1/2).  Line 11 reports its own counts (ef=1, ep=2) and names
# the outcome.
rank_into cc-line.csv --kind line --format csv
expect_contains "$WORK/cc-line.csv" ",dstar"
case $(sed -n 2p "$WORK/cc-line.csv") in
1,1,*mid.c:12,,1,1,0,4,dstar) pass ;;
*) fail "--kind line's first row is '$(sed -n 2p "$WORK/cc-line.csv")', expected mid.c:12 alone at rank 1" ;;
esac
case $(sed -n 2p "$WORK/cc-default.csv") in
1,1,*mid.c:12,1,1,1,0,4,tuples:dstar,*mid.c:12,1,1,0,4,'line mid.c:12') pass ;;
*) fail "the default's first row is '$(sed -n 2p "$WORK/cc-default.csv")', expected mid.c:12 alone at rank 1" ;;
esac
case $(sed -n 3p "$WORK/cc-default.csv") in
2,1,*mid.c:11,0.5,1,2,0,3,tuples:dstar,*mid.c:11:20:true,1,1,0,4,'branch `x < z` taken true') pass ;;
*) fail "the default's second row is '$(sed -n 3p "$WORK/cc-default.csv")', expected mid.c:11 at rank 2" ;;
esac
if cmp -s "$WORK/cc-line.csv" "$WORK/cc-default.csv"; then fail "--kind line ranks as the default does"; else pass; fi

# ---- the help says what the default is ----
run 0 "$CULPRIT" rank --help
expect_contains "$WORK/out" "--kind KIND       tuple (the default when the program has tuples)"
expect_contains "$WORK/out" "46.9%"

finish
