# test_deps_graph.sh - scripts/deps-graph.sh: the real tree's module graph
# has no cycle, no upward arrow and no reach into another module's
# *_internal.h; and the script does fail on small fake trees that have one
# (and passes on a clean one), so that the first check means something.
. "$(dirname "$0")/lib.sh"

DEPS_GRAPH="$TOP/scripts/deps-graph.sh"

# ---- the real tree ----
if sh "$DEPS_GRAPH" "$TOP" >"$WORK/real.out" 2>&1; then pass; else
    fail "the module graph of the sources is not layered:
$(grep '^deps-graph:' "$WORK/real.out")"
fi

# ---- fake trees ----
# put FILE : writes stdin to FILE, making its directory.
put() {
    mkdir -p "$(dirname "$1")"
    cat >"$1"
}
# lacks FILE TEXT : FILE does not contain the fixed string TEXT.
lacks() {
    if grep -qF -- "$2" "$1"; then fail "$1 has '$2': $(head -c 1000 "$1")"; else pass; fi
}

# clean: core (stage 1) <- store (3) <- cli (8), every arrow downward.
# box.h belongs to store (it defines box.h's functions, one of them in the
# type-on-its-own-line style); types.h declares no function and goes to its
# lowest-stage includer, store; core includes its own private header.
clean=$WORK/clean
put "$clean/include/culprit/base.h" <<'EOF'
#ifndef CULPRIT_BASE_H
#define CULPRIT_BASE_H
/* culprit_base_value(void) is documented here, not declared. */
int culprit_base_value(void);
#endif
EOF
put "$clean/include/culprit/box.h" <<'EOF'
#include "culprit/base.h"
void culprit_box_put(int value);
int culprit_box_get(void);
typedef int (*culprit_box_visit)(int value);
EOF
put "$clean/include/culprit/types.h" <<'EOF'
typedef struct culprit_pair { int a, b; } culprit_pair;
EOF
put "$clean/src/core/core_internal.h" <<'EOF'
int core_helper(void);
EOF
put "$clean/src/core/util.h" <<'EOF'
int core_util(void);
EOF
put "$clean/src/core/base.c" <<'EOF'
#include "culprit/base.h"
#include "core/core_internal.h"
#include "core/util.h"
int culprit_base_value(void)
{
    return core_helper();
}
EOF
put "$clean/src/store/box.c" <<'EOF'
#include <stdio.h>
#include "culprit/box.h"
#include "culprit/types.h"
#include "core/util.h"
static int box;
void culprit_box_put(int value)
{
    box = value + culprit_base_value();
}
int
culprit_box_get(void)
{
    return box;
}
EOF
put "$clean/src/cli/cli.h" <<'EOF'
#include "culprit/box.h"
EOF
put "$clean/src/cli/main.c" <<'EOF'
#include "cli/cli.h"
#include "culprit/types.h"
int main(void)
{
    culprit_box_put(1);
    return culprit_box_get();
}
EOF

# fresh NAME : a copy of the clean tree in $WORK/NAME, its path in $tree.
fresh() {
    tree=$WORK/$1
    cp -R "$clean" "$tree"
}

run 0 sh "$DEPS_GRAPH" --owners "$clean"
expect_contains "$WORK/out" "store -> core  (src/store/box.c: core/util.h; include/culprit/box.h: culprit/base.h)"
expect_contains "$WORK/out" "cli -> store  (src/cli/cli.h: culprit/box.h; src/cli/main.c: culprit/types.h)"
expect_contains "$WORK/out" "header culprit/box.h -> store  (defines 2 of its 2 functions)"
expect_contains "$WORK/out" "header culprit/base.h -> core  (defines 1 of its 1 functions)"
expect_contains "$WORK/out" "header culprit/types.h -> store  (no functions; its lowest-stage includer)"
expect_contains "$WORK/out" "deps-graph: ok (3 modules, 2 arrows)"
lacks "$WORK/out" "cli -> core"

# cycle: collect and run (both stage 4) include each other.
fresh cycle
echo 'int run_thing(void);' | put "$tree/src/run/thing.h"
printf '#include "run/thing.h"\n#include "collect/gather.h"\n' | put "$tree/src/run/thing.c"
echo 'int collect_gather(void);' | put "$tree/src/collect/gather.h"
printf '#include "collect/gather.h"\n#include "run/thing.h"\n' | put "$tree/src/collect/gather.c"
run 1 sh "$DEPS_GRAPH" "$tree"
expect_contains "$WORK/out" "collect -> run  (src/collect/gather.c: run/thing.h)"
expect_contains "$WORK/out" "deps-graph: cycle: collect -> run -> collect"
expect_contains "$WORK/out" "deps-graph: 1 violation"
lacks "$WORK/out" "upward"
lacks "$WORK/out" "deps-graph: ok"
run 1 sh "$DEPS_GRAPH" --dot "$tree"
expect_contains "$WORK/out" '"collect" -> "run" [color=red];'
expect_contains "$WORK/out" '"store" -> "core";'
expect_contains "$WORK/err" "deps-graph: cycle: collect -> run -> collect"

# upward: store (3) includes a cli (8) header.
fresh upward
printf '#include "cli/cli.h"\n' | put "$tree/src/store/up.c"
run 1 sh "$DEPS_GRAPH" "$tree"
expect_contains "$WORK/out" "deps-graph: upward: store -> cli (src/store/up.c includes cli/cli.h)"
# ... which also closes a cycle with cli -> store.
expect_contains "$WORK/out" "deps-graph: cycle: store -> cli -> store"
lacks "$WORK/out" "deps-graph: ok"

# upward through public headers: store's box.h includes cli's front.h.
fresh upward_public
echo 'void culprit_front_go(void);' | put "$tree/include/culprit/front.h"
printf '#include "culprit/front.h"\nvoid culprit_front_go(void)\n{\n}\n' | put "$tree/src/cli/front.c"
printf '#include "culprit/front.h"\n' >>"$tree/include/culprit/box.h"
run 1 sh "$DEPS_GRAPH" "$tree"
expect_contains "$WORK/out" "deps-graph: upward: store -> cli (include/culprit/box.h includes culprit/front.h)"

# internal: cli includes core's private header (a downward arrow, else fine).
fresh internal
printf '#include "core/core_internal.h"\n' >>"$tree/src/cli/main.c"
run 1 sh "$DEPS_GRAPH" "$tree"
expect_contains "$WORK/out" "deps-graph: internal: src/cli/main.c includes core/core_internal.h (private to core)"
expect_contains "$WORK/out" "deps-graph: 1 violation"
lacks "$WORK/out" "upward"
lacks "$WORK/out" "cycle"

# unknown module: src/widget/ is not in the stage table.
fresh unknown
printf '#include "core/util.h"\n' | put "$tree/src/widget/widget.c"
run 1 sh "$DEPS_GRAPH" "$tree"
expect_contains "$WORK/out" "deps-graph: unknown module: widget (add it to the stage table"
expect_contains "$WORK/out" "widget -> core"

# unowned header: declares no function and no module includes it.
fresh unowned
echo 'typedef int culprit_lonely;' | put "$tree/include/culprit/lonely.h"
run 1 sh "$DEPS_GRAPH" "$tree"
expect_contains "$WORK/out" "deps-graph: unowned header: include/culprit/lonely.h"
# ... which an entry in the script's HEADER_OWNERS table places.
awk '{ print } /^HEADER_OWNERS=/ { print "lonely.h core" }' "$DEPS_GRAPH" >"$WORK/deps-graph.sh"
run 0 sh "$WORK/deps-graph.sh" --owners "$tree"
expect_contains "$WORK/out" "header culprit/lonely.h -> core  (HEADER_OWNERS)"

# a root without src/ is a usage error.
run 2 sh "$DEPS_GRAPH" "$WORK/nowhere"
expect_contains "$WORK/err" "no src/ directory"

finish
