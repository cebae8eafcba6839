# test_pass_plugin.sh - culprit-cc instruments inside clang (issue 22 item
# 1; src/cc/plugin.c): one clang process per C file, through the pass
# plugin culprit-pass.so, gives the same maps, byte for byte, and the same
# behaviour as the three-process path (bitcode, culprit-cc, clang) that
# CULPRIT_CC_PLUGIN=0 keeps, in every mode and at every -O; dependency
# files are the same; clang given the plugin without culprit-cc's settings
# instruments nothing; a plugin that cannot be loaded fails the compile,
# either way (culprit-cc itself links no LLVM).
. "$(dirname "$0")/lib.sh"
need_culprit_cc

run 0 "$culprit_cc" --culprit-version
expect_contains "$WORK/out" "instruments in clang's process: "
CULPRIT_CC_PLUGIN=0 run 0 "$culprit_cc" --culprit-version
expect_contains "$WORK/out" "instruments in three steps"

cp "$TOP/tests/e2e/spec_list.c" list.c
cp "$TOP/tests/e2e/line_model.c" shapes.c
cp "$TOP/tests/e2e/symbolic_input.c" symbolic.c

# same_build NAME FLAGS... : builds NAME.c both ways, runs each with the
# same arguments collecting into its own directory, and compares maps and
# output.
same_build() {
    sb_name=$1
    shift
    rm -rf three plugin && mkdir three plugin
    CULPRIT_CC_PLUGIN=0 "$culprit_cc" "$@" -o "$sb_name.three" "$sb_name.c" 2>build.err ||
        { fail "$sb_name $*: the three-step build failed: $(head -c 300 build.err)"; return; }
    "$culprit_cc" "$@" -o "$sb_name.plugin" "$sb_name.c" 2>build.err ||
        { fail "$sb_name $*: the plugin build failed: $(head -c 300 build.err)"; return; }
    CULPRIT_COLLECT_DIR="$WORK/three" "./$sb_name.three" 8 1 3 <list.c >three.out 2>&1
    CULPRIT_COLLECT_DIR="$WORK/plugin" "./$sb_name.plugin" 8 1 3 <list.c >plugin.out 2>&1
    (cd three && ls *.map) >three.maps
    (cd plugin && ls *.map) >plugin.maps
    if cmp -s three.maps plugin.maps && [ -s three.maps ]; then pass; else
        fail "$sb_name $*: the maps differ: $(cat three.maps) / $(cat plugin.maps)"
    fi
    expect_same three.out plugin.out
    # The counts too: at -O1 and above the plugin defers full mode's
    # increments to the end of clang's pipeline (cc_lower_counters), the
    # three-step path does not.  The header's pids (bytes 17-24) differ.
    for sb_way in three plugin; do
        sb_dumps=$(ls "$sb_way"/*.dump 2>/dev/null | wc -l)
        [ "$sb_dumps" -eq 1 ] || { fail "$sb_name $*: $sb_way wrote $sb_dumps dumps"; return; }
        tail -c +25 "$sb_way"/*.dump >"$sb_way.counts"
    done
    if cmp -s three.counts plugin.counts; then pass; else fail "$sb_name $*: the dumps differ"; fi
    if nm "$sb_name.plugin" | grep -q __culprit_count$; then
        fail "$sb_name $*: a deferred increment was left in the program"
    else pass; fi
}
for program in list shapes symbolic; do
    for level in -O0 -O2; do
        same_build "$program" "$level"
        same_build "$program" "$level" --coverage=lines
        same_build "$program" "$level" -g --coverage=symbolic
    done
done

# Hits agree too: the same test recorded from each build ranks the same.
for way in three plugin; do
    for args in "3 1 2" "9 8" "8 7"; do
        "$CULPRIT" --store "$way.store" test --name "t-$(echo "$args" | tr ' ' -)" -- "./list.$way" $args \
            >/dev/null 2>&1
    done
    "$CULPRIT" --store "$way.store" rank --kind line >"$way.rank" 2>&1
done
expect_same three.rank plugin.rank

# Dependency files are clang's own either way.
CULPRIT_CC_PLUGIN=0 run 0 "$culprit_cc" -MD -MF three.d -c -o list.o list.c
run 0 "$culprit_cc" -MD -MF plugin.d -c -o list.o list.c
expect_same three.d plugin.d

# clang given the plugin by hand, without culprit-cc's settings: a plain object.
plugin=$("$culprit_cc" --culprit-version | sed -n "s/^instruments in clang's process: //p")
run 0 clang-14 -I"$TOP/include" -fpass-plugin="$plugin" -c -o plain.o list.c
if nm plain.o | grep -q __culprit_; then fail "the plugin instrumented without culprit-cc's settings"; else pass; fi
CULPRIT_CC_PASS="sideways 0 0 0 list.c" run 1 clang-14 -I"$TOP/include" -fpass-plugin="$plugin" -c -o bad.o list.c
expect_contains "$WORK/err" "culprit-cc: CULPRIT_CC_PASS=sideways 0 0 0 list.c: not culprit-cc's settings"

# A plugin that is not one: the compile fails, saying so.
printf 'not a library\n' >fake.so
CULPRIT_PASS_PLUGIN="$WORK/fake.so" run 1 "$culprit_cc" -c -o fake.o list.c
expect_contains "$WORK/err" "fake.so"
CULPRIT_CC_PLUGIN=0 CULPRIT_PASS_PLUGIN="$WORK/fake.so" run 1 "$culprit_cc" -c -o fake.o list.c
expect_contains "$WORK/err" "fake.so: cannot load the instrumenter"
# The three-step path needs the plugin's instrumenter too: culprit-cc links
# no LLVM (loading it cost every compile about 22 ms), and says where it
# looked.
CULPRIT_CC_PLUGIN=0 CULPRIT_PASS_PLUGIN="$WORK/missing.so" run 1 "$culprit_cc" -c -o missing.o list.c
expect_contains "$WORK/err" "culprit-pass.so, which holds the instrumenter, is neither at"
if ldd "$culprit_cc" | grep -qi llvm; then fail "culprit-cc links LLVM: $(ldd "$culprit_cc" | grep -i llvm)"; else pass; fi

finish
