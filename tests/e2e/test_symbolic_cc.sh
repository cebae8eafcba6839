# test_symbolic_cc.sh - culprit-cc --coverage=symbolic (docs/symbolic.md §1):
# the option and CULPRIT_COVERAGE=symbolic, valid IR at -O0 and -O2, a map
# byte-identical to full mode's, builder calls only where input can reach
# (none in a function doing constant, local work; none on culprit's own
# counters), the call area at entries, models in place of libc's input and
# parsing functions; then, with a runtime that has the symbolic half,
# programs that behave as their gcc and clang builds with and without
# CULPRIT_SYM, and a dump whose CULPSYM1 trailer holds the constraints of
# the input-dependent branches and switches (decoded after
# include/culprit/sym_format.h).
. "$(dirname "$0")/lib.sh"

CCC="$(cd "$(dirname "$CULPRIT")" && pwd)/culprit-cc"
RUNTIME="$(dirname "$CCC")/libculprit-rt.a"
CLANG=${CULPRIT_CLANG:-clang-14}
PROGRAM="$TOP/tests/e2e/symbolic_input.c"
export TMPDIR="$WORK/tmp"
mkdir "$TMPDIR"
need_culprit_cc llvm-dis-14 opt-14 objcopy nm "$CLANG"

extract_map() { objcopy -O binary --only-section=culprit_map "$1" "$2"; }

# function_ir LL NAME : the body of function NAME in the textual IR LL.
function_ir() { awk -v name="@$2(" 'index($0, "define") == 1 && index($0, name) { on = 1 } on { print } on && /^}/ { exit }' "$1"; }

expect_absent() { # FILE PATTERN LABEL
    if grep -qE -- "$2" "$1"; then fail "$3: $(grep -E -- "$2" "$1" | head -3)"; else pass; fi
}

# ---- the option --------------------------------------------------------------------------------------
run 0 "$CCC" --culprit-help
expect_contains "$WORK/out" "--coverage=symbolic"
run 1 "$CCC" --coverage=bogus -c "$PROGRAM" -o bogus.o
expect_contains "$WORK/err" "--coverage=symbolic"
CULPRIT_COVERAGE=bogus run 1 "$CCC" -c "$PROGRAM" -o bogus.o
expect_contains "$WORK/err" "expected full, lines or symbolic"

# ---- IR: verified, and shadows only where input reaches ---------------------------------------------
cp "$PROGRAM" prog.c
for level in -O0 -O2; do
    run 0 "$CCC" --coverage=symbolic $level -c -emit-llvm prog.c -o "sym$level.bc"
    run 0 opt-14 -verify -disable-output "sym$level.bc"
    run 0 llvm-dis-14 "sym$level.bc" -o "sym$level.ll"
    # The map is full mode's, byte for byte, and so is the environment's choice.
    run 0 "$CCC" --coverage=symbolic $level -c prog.c -o "sym$level.o"
    run 0 "$CCC" --coverage=full $level -c prog.c -o "full$level.o"
    CULPRIT_COVERAGE=symbolic run 0 "$CCC" $level -c prog.c -o "env$level.o"
    extract_map "sym$level.o" "sym$level.map"
    extract_map "full$level.o" "full$level.map"
    extract_map "env$level.o" "env$level.map"
    [ -s "full$level.map" ] && pass || fail "full$level.o has no map"
    expect_same "sym$level.map" "full$level.map"
    expect_same "env$level.map" "full$level.map"
    nm "env$level.o" >env.nm
    expect_contains env.nm "__culprit_sym_w_fread"
    nm "full$level.o" >full.nm
    expect_absent full.nm "__culprit_sym" "full mode has symbolic code"
done

ll=sym-O0.ll # unoptimised after instrumentation: every call the instrumenter added is there
function_ir $ll constant_work >constant_work.ll
[ -s constant_work.ll ] && pass || fail "no constant_work in $ll"
expect_absent constant_work.ll "call [^@]*@__culprit_sym_" "constant, local work got builder calls"
expect_contains constant_work.ll "@__culprit_sym_call" # its return still clears the call area's ret
function_ir $ll mix >mix.ll
expect_contains mix.ll "@__culprit_sym_binary(i32 12," # a * 31: CULPRIT_SYM_MUL
expect_contains mix.ll "@__culprit_sym_binary(i32 22," # ^: CULPRIT_SYM_XOR
expect_contains mix.ll "bitcast (i64 (i64, i64)* @mix to i8*)" # the entry takes its parameters' shadows
# The off path (docs/symbolic.md §1): a twin, full mode's code, which the entry takes when
# __culprit_sym_active is 0; twins call twins and libc itself, not the models; none where no
# shadow code was added.
expect_contains mix.ll "load i8, i8* @__culprit_sym_active"
expect_contains mix.ll "@mix.culprit_fast("
function_ir $ll mix.culprit_fast >mix_fast.ll
[ -s mix_fast.ll ] && pass || fail "mix has no twin"
expect_absent mix_fast.ll "@__culprit_sym_" "mix's twin has symbolic code"
expect_absent $ll "define .*@constant_work.culprit_fast\(" "a function without shadow code got a twin"
function_ir $ll main.culprit_fast >main_fast.ll
expect_absent main_fast.ll "@__culprit_sym_" "main's twin has symbolic code"
expect_contains main_fast.ll "@fread("
expect_absent main_fast.ll "call [^@]*@(mix|classify|compare)\(" "a twin calls an instrumented function"
function_ir $ll classify >classify.ll
expect_contains classify.ll "call void @__culprit_sym_switch_cases("
# its case values, ascending, behind their count ('\n' '0' '1' '2' 'a' 'b')
expect_contains $ll "private unnamed_addr constant [7 x i64] [i64 6, i64 10, i64 48, i64 49, i64 50, i64 97, i64 98]"
expect_contains classify.ll "@__culprit_sym_compare(i32 36," # c > 127: CULPRIT_SYM_SGT
function_ir $ll compare >compare.ll
expect_contains compare.ll "bitcast (i32 (i8*, i8*)* @compare to i8*)"
function_ir $ll __culprit_program_main >main.ll # main, renamed (main_entry.c)
for call in __culprit_sym_branch __culprit_sym_load __culprit_sym_store __culprit_sym_memcpy \
    __culprit_sym_concretize __culprit_sym_call_returned __culprit_sym_cast __culprit_sym_w_fread \
    __culprit_sym_w_strtol __culprit_sym_w_atoi __culprit_sym_w___isoc99_sscanf; do
    expect_contains main.ll "@$call("
done
expect_contains main.ll "@llvm.memcpy." # stays an intrinsic, the shadow copy beside it
expect_absent main.ll "call [^@]*@(fread|strtol|atoi|__isoc99_sscanf)\(" "a modelled call was not redirected"
# Culprit's own code is left alone: no builder ever sees a counter or the shadow stack.
expect_absent $ll "@__culprit_sym_[a-z_]*\(.*@__culprit_(counters|rt_shadow)" "culprit's own code got shadows"
# A branch site names the unit's descriptor and a block counter.
expect_contains main.ll "@__culprit_unit to i8*), i32 "

# ---- runs ------------------------------------------------------------------------------------------------
if ! nm "$RUNTIME" 2>/dev/null | grep -q " T __culprit_sym_branch"; then
    echo "$E2E_NAME: note: $RUNTIME has no symbolic runtime (__culprit_sym_*); skipping the runs" >&2
    finish
    exit $?
fi

printf 'abc0129\nzzz\200\310axy' >in1
printf '42' >in2
printf '1234 hello' >in3
: >in4
printf 'b' >in5
builds=
for level in -O0 -O2; do
    run 0 "$CCC" --coverage=symbolic $level prog.c -o "sym$level"
    run 0 "$CLANG" $level prog.c -o "clang$level"
    builds="$builds clang$level"
    if command -v gcc >/dev/null; then
        run 0 gcc $level prog.c -o "gcc$level"
        builds="$builds gcc$level"
    fi
done

# Same output and exit status as the native builds, with and without CULPRIT_SYM.
for input in in1 in2 in3 in4 in5; do
    ./clang-O0 <$input >expected.out
    expected_status=$?
    for build in $builds sym-O0 sym-O2; do
        ./$build <$input >got.out
        status=$?
        [ $status -eq $expected_status ] && pass || fail "$build <$input exited $status, not $expected_status"
        expect_same got.out expected.out
    done
    for level in -O0 -O2; do
        rm -rf "dumps$level.$input"
        mkdir "dumps$level.$input"
        CULPRIT_SYM=1 CULPRIT_COLLECT_DIR="$WORK/dumps$level.$input" ./sym$level <$input >got.out
        status=$?
        [ $status -eq $expected_status ] && pass || fail "CULPRIT_SYM=1 sym$level <$input exited $status"
        expect_same got.out expected.out
    done
done

# decode DUMP_DIRECTORY : the trailer of the one dump there, as "key value" lines and one line per constraint.
decode() {
    python3 - "$1" <<'PY'
import glob, struct, sys
dumps = glob.glob(sys.argv[1] + "/*.dump")
if len(dumps) != 1:
    sys.exit("%d dumps in %s" % (len(dumps), sys.argv[1]))
data = open(dumps[0], "rb").read()
at = data.rfind(b"CULPSYM1")
if at < 0:
    print("trailer none")
    sys.exit(0)
version, sources, nodes, constraints = struct.unpack_from("<4I", data, at + 8)
print("trailer yes")
print("version", version)
print("sources", sources)
p = at + 24
kinds = []
for _ in range(sources):
    kind, index, length, flags, name_length = struct.unpack_from("<IIQII", data, p)
    kinds.append(kind)
    p += 24 + name_length
print("source_kinds", " ".join(map(str, kinds)))
ops = []
for number in range(1, nodes + 1):
    op, bits, flags, a, b, c, value = struct.unpack_from("<BBHIIIQ", data, p)
    for operand in (a, b, c) if op >= 10 else ():
        if operand >= number:
            sys.exit("node %d names a later node %d" % (number, operand))
    ops.append(op)
    p += 24
print("byte_nodes", sum(op == 2 for op in ops))
print("field_nodes", sum(op == 3 for op in ops))
for _ in range(constraints):
    kind, expression, unit, block, value = struct.unpack_from("<IIIIQ", data, p)
    if not 1 <= expression <= nodes:
        sys.exit("constraint names node %d of %d" % (expression, nodes))
    print("constraint", "branch" if kind == 0 else "switch" if kind == 1 else kind, unit, block, value)
    p += 24
stats = struct.unpack_from("<16Q", data, p)
p += 128
if version >= 2:
    (switches,) = struct.unpack_from("<I", data, p)
    p += 4
    for _ in range(switches):
        unit, block, count = struct.unpack_from("<III", data, p)
        cases = struct.unpack_from("<%dQ" % count, data, p + 12)
        p += 12 + 8 * count
        print("switch_site", unit, block, "cases", " ".join(map(str, cases)))
print("end_ok", p == len(data))
print("constraints_stat", stats[1])
PY
}

decode "dumps-O0.in1" >in1.trailer || fail "in1's trailer: $(cat in1.trailer)"
expect_contains in1.trailer "trailer yes"
expect_contains in1.trailer "version 3"
expect_contains in1.trailer "cases 10 48 49 50 97 98"
expect_contains in1.trailer "end_ok True"
expect_contains in1.trailer "source_kinds 0"
expect_contains in1.trailer "constraint branch"
expect_contains in1.trailer "constraint switch"
branches=$(grep -c "^constraint" in1.trailer)
[ "$branches" -gt 5 ] && pass || fail "only $branches constraints for in1"
decode "dumps-O2.in1" >in1-O2.trailer || fail "in1's -O2 trailer: $(cat in1-O2.trailer)"
expect_contains in1-O2.trailer "constraint switch"
expect_contains in1-O2.trailer "cases 10 48 49 50 97 98"
# The path depends on the input: another input, another path constraint.
decode "dumps-O0.in5" >in5.trailer || fail "in5's trailer: $(cat in5.trailer)"
if cmp -s in1.trailer in5.trailer; then fail "in1 and in5 have one path constraint"; else pass; fi
# Parsed integers are typed fields.
decode "dumps-O0.in2" >in2.trailer || fail "in2's trailer: $(cat in2.trailer)"
if grep -q "^field_nodes [1-9]" in2.trailer; then pass; else fail "in2 (42) made no typed field: $(cat in2.trailer)"; fi
# Without CULPRIT_SYM: no trailer.
mkdir plain
CULPRIT_COLLECT_DIR="$WORK/plain" ./sym-O0 <in1 >/dev/null
decode plain >plain.trailer
expect_contains plain.trailer "trailer none"

# A program that reads no input records no constraint.
cat >quiet.c <<'C'
#include <stdio.h>
static int square(int x) { return x * x; }
int main(void)
{
    int total = 0;
    for (int i = 0; i < 50; i++)
        if (square(i) % 3 == 1)
            total += i;
    printf("%d\n", total);
    return 0;
}
C
run 0 "$CCC" --coverage=symbolic -O1 quiet.c -o quiet
mkdir quiet.dumps
CULPRIT_SYM=1 CULPRIT_COLLECT_DIR="$WORK/quiet.dumps" ./quiet <in1 >quiet.out
expect_file_equals quiet.out "817"
decode quiet.dumps >quiet.trailer
if grep -q "^constraint " quiet.trailer; then fail "quiet recorded constraints: $(cat quiet.trailer)"; else pass; fi

finish
