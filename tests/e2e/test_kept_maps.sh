# test_kept_maps.sh - `culprit test` keeps the runtime's maps across tests
# (CULPRIT_MAPS_DIR, docs/collector.md §4): in $TMPDIR/culprit-maps-UID/KEY,
# KEY a hash of the store's path, a map is written by the first test of a
# build and left alone by the next ones (creating files costs); a rebuilt
# unit adds its map; a map there that does not parse (anyone's test can
# write there) makes that test an error and is removed, so the next test
# writes it again; a maps directory that is not ours (a file in its
# place) is not used, and the rankings are the same either way.
. "$(dirname "$0")/lib.sh"
need_culprit_cc

cat >lib.c <<'EOF_C'
int twice(int x) { return 2 * x; }
EOF_C
cat >main.c <<'EOF_C'
#include <stdio.h>
#include <stdlib.h>
int twice(int x);
int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 0;
    if (n > 5)
        printf("big %d\n", twice(n));
    else
        printf("small %d\n", n);
    return 0;
}
EOF_C
"$culprit_cc" -o prog main.c lib.c || fail "the program did not build"
mkdir tmp
kept=tmp/culprit-maps-$(id -u)

TMPDIR=$WORK/tmp run 0 "$CULPRIT" test --name t1 -- ./prog 3
maps=$(find "$kept" -name '*.map' | sort)
[ "$(echo "$maps" | grep -c .)" = 2 ] && pass || fail "expected the 2 units' maps in $kept: $maps"
stamps=$(for m in $maps; do stat -c '%i %Y' "$m"; done)
sleep 1
TMPDIR=$WORK/tmp run 0 "$CULPRIT" test --name t2 -- ./prog 9
[ "$(for m in $maps; do stat -c '%i %Y' "$m"; done)" = "$stamps" ] && pass || fail "the kept maps were written again"
TMPDIR=$WORK/tmp run 0 "$CULPRIT" test --name t3 -- ./prog 7

# the same tests with the maps in the collection directory: the same ranking
mkdir tmp2 && : >"tmp2/culprit-maps-$(id -u)" # a file where the directory would be
for t in "t1 3" "t2 9" "t3 7"; do
    set -- $t
    TMPDIR=$WORK/tmp2 "$CULPRIT" --store plain test --name "$1" -- ./prog "$2" >/dev/null 2>&1
done
"$CULPRIT" rank --kind line >kept.rank 2>&1
"$CULPRIT" --store plain rank --kind line >plain.rank 2>&1
expect_same kept.rank plain.rank
[ -f "tmp2/culprit-maps-$(id -u)" ] && pass || fail "the file in the way was touched"

# a rebuilt unit adds its map beside the others
sed -i 's/2 \* x/3 * x/' lib.c
"$culprit_cc" -o prog main.c lib.c || fail "the program did not rebuild"
TMPDIR=$WORK/tmp run 0 "$CULPRIT" test --name t4 -- ./prog 8
[ "$(find "$kept" -name '*.map' | grep -c .)" = 3 ] && pass || fail "expected 3 maps: $(find "$kept" -name '*.map')"

# a damaged kept map: the test that needs it is an error, the map goes,
# and the next test writes it again (a new store needs every map)
echo "$maps" >before.maps
find "$kept" -name '*.map' | sort >after.maps
damaged=$(comm -13 before.maps after.maps) # the rebuilt unit's map
printf 'not a map\n' >"$damaged"
rm -rf "$CULPRIT_STORE" # the same store path (the same kept maps), knowing no unit
TMPDIR=$WORK/tmp "$CULPRIT" test --name t5 -- ./prog 8 >/dev/null 2>&1
"$CULPRIT" tests --format csv >tests.csv 2>&1
expect_contains tests.csv "t5,error,"
expect_contains tests.csv "cannot read the test's coverage"
[ -f "$damaged" ] && fail "the damaged map is still there" || pass
TMPDIR=$WORK/tmp run 0 "$CULPRIT" test --name t6 -- ./prog 8
[ -s "$damaged" ] && head -n 1 "$damaged" | grep -q '^culprit-map' && pass || fail "the map was not written again"
run 0 "$CULPRIT" tests
expect_contains "$WORK/out" "t6"

finish
