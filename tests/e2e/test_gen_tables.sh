# test_gen_tables.sh - table loads through a symbolic index, end to end
# (docs/symbolic.md §1 "Tables"): tests/e2e/gen/classify.c takes every
# decision on a character through a table (isspace, isdigit, isalpha,
# toupper, its own hexval[]).  Built with culprit-cc --coverage=symbolic
# at -O0 and -O2 it records those branches as constraints and concretizes
# nothing; for each of the 256 byte values as input, every recorded
# constraint evaluates, on that input, to the outcome the run took (the
# expressions agree with the compiled program); and culprit gen, from a
# seed made of letters, generates the inputs that flip them: a digit, an
# x, an f where the seed had an a.
. "$(dirname "$0")/lib.sh"
need_culprit_cc nm

PROGRAM="$TOP/tests/e2e/gen/classify.c"
RUNTIME="$(dirname "$culprit_cc")/libculprit-rt.a"
if ! nm "$RUNTIME" 2>/dev/null | grep -q ' T __culprit_sym_load_table'; then
    echo "$E2E_NAME: note: the runtime has no table loads; skipping" >&2
    finish
    exit 0
fi
cc -O0 -DFIXED -o fixed "$PROGRAM" || fail "cannot build the reference"
cc -O0 -o native "$PROGRAM" || fail "cannot build classify.c natively"
for level in -O0 -O2; do
    "$culprit_cc" --coverage=symbolic $level -o "classify$level" "$PROGRAM" || fail "cannot build classify.c $level"
done

# check DUMP_DIRECTORY INPUT_FILE ... : for each pair, every constraint of the
# directory's one dump, evaluated on the input's bytes, gives the outcome
# recorded; prints "constraints N address A call C" for each (the
# concretization counts).
check() {
    python3 - "$@" <<'PY'
import glob, struct, sys
def check(directory, input_file):
    dumps = glob.glob(directory + "/*.dump")
    if len(dumps) != 1:
        sys.exit("%d dumps in %s" % (len(dumps), directory))
    data = open(dumps[0], "rb").read()
    stdin = open(input_file, "rb").read()
    return trailer(data, stdin)
def trailer(data, stdin):
    at = data.rfind(b"CULPSYM1")
    if at < 0:
        sys.exit("no trailer")
    version, sources, count, constraints = struct.unpack_from("<4I", data, at + 8)
    p = at + 24
    for _ in range(sources):
        kind, index, length, flags, name_length = struct.unpack_from("<IIQII", data, p)
        p += 24 + name_length
    nodes = [None]
    for _ in range(count):
        nodes.append(struct.unpack_from("<BBHIIIQ", data, p))
        p += 24
    mask = lambda bits: (1 << bits) - 1
    signed = lambda v, bits: v - (1 << bits) if v >> (bits - 1) & 1 else v
    values = [None]
    for op, bits, flags, a, b, c, value in nodes[1:]:
        m = mask(bits)
        A = values[a] if op >= 10 else 0
        B = values[b] if 10 <= op < 50 or op in (54, 60) else 0
        wa = nodes[a][1] if op >= 10 else 0
        if op == 1: v = value
        elif op == 2: v = stdin[value]
        elif op == 10: v = A + B
        elif op == 11: v = A - B
        elif op == 20: v = A & B
        elif op == 21: v = A | B
        elif op == 22: v = A ^ B
        elif op == 30: v = int(A == B)
        elif op == 31: v = int(A != B)
        elif op == 32: v = int(A > B)
        elif op == 33: v = int(A >= B)
        elif op == 34: v = int(A < B)
        elif op == 35: v = int(A <= B)
        elif op in (36, 37, 38, 39):
            x, y = signed(A, wa), signed(B, wa)
            v = int({36: x > y, 37: x >= y, 38: x < y, 39: x <= y}[op])
        elif op == 50: v = A
        elif op == 51: v = signed(A, wa)
        elif op in (52, 53): v = A >> (value if op == 53 else 0)
        elif op == 54: v = A << nodes[b][1] | B
        elif op == 60: v = B if A else values[c]
        elif op == 61: v = 1 - A
        else: sys.exit("op %d not evaluated here" % op)
        values.append(v & m)
    for _ in range(constraints):
        kind, expression, unit, block, value = struct.unpack_from("<IIIIQ", data, p)
        p += 24
        if values[expression] != value:
            sys.exit("the constraint at block %d evaluates to %d on %r, the run took %d" % (block, values[expression], stdin, value))
    stats = struct.unpack_from("<16Q", data, p)
    return "constraints %d address %d call %d" % (constraints, stats[8], stats[7])
for i in range(1, len(sys.argv), 2):
    print(check(sys.argv[i], sys.argv[i + 1]))
PY
}

# ---- the seed's run: the branches are constraints, nothing is concretized ----
printf 'ab cd\n' >seed.txt
for level in -O0 -O2; do
    rm -rf "seed$level" && mkdir "seed$level"
    CULPRIT_SYM=1 CULPRIT_COLLECT_DIR="$WORK/seed$level" "./classify$level" <seed.txt >got.out
    ./native <seed.txt >expected.out
    expect_same got.out expected.out
    check "seed$level" seed.txt >"seed$level.summary" || fail "$level: $(cat "seed$level.summary")"
    expect_contains "seed$level.summary" "address 0 call 0"
    constraints=$(cut -d' ' -f2 "seed$level.summary")
    [ "${constraints:-0}" -ge 12 ] && pass || fail "$level: $constraints constraints from 'ab cd'"
done

# ---- every byte value: the expressions agree with the program ----
pairs=
for level in -O0 -O2; do
    byte=0
    while [ $byte -lt 256 ]; do
        printf "$(printf '\\%03o' $byte)" >"byte$byte.in"
        mkdir -p "bytes$level/$byte"
        CULPRIT_SYM=1 CULPRIT_COLLECT_DIR="$WORK/bytes$level/$byte" "./classify$level" <"byte$byte.in" >/dev/null
        pairs="$pairs bytes$level/$byte byte$byte.in"
        byte=$((byte + 1))
    done
done
check $pairs >bytes.summary 2>&1 && pass || fail "constraints that disagree with the run: $(tail -1 bytes.summary)"
[ "$(grep -c 'address 0 call 0' bytes.summary)" = 512 ] && pass || fail "a byte's run concretized: $(sort bytes.summary | uniq -c)"

# ---- culprit gen flips them: a digit, an x, an f where the seed had a letter ----
run 0 "$CULPRIT" gen --store gen.store --strategy coverage --budget 6 --stable 0 --input seed.txt \
    --reference ./fixed -- ./classify-O0
firsts=$(for f in gen.store/gen/coverage/*/stdin; do head -c 1 "$f" | od -An -c | tr -d ' '; done | sort -u | tr '\n' ' ')
for wanted in "[0-9]" "[xX]" "[fF]"; do
    if echo " $firsts" | grep -q " $wanted "; then pass; else
        fail "no generated input starts with $wanted (first bytes: $firsts)"
    fi
done
finish
