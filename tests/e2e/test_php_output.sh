# test_php_output.sh - the PHP output map (src/php/php_output.c, docs/php.md
# "The output map") end to end: every line of a page printed from several
# functions, through nested output buffers, ob_get_clean and inline HTML, is
# mapped to the statement that produced it (not the one that flushed it);
# smap and scomb rank the seeded fault of shop.php first, alone, through the
# wrong total line that a buffered printf wrote.  Skips (counting nothing)
# only when PHP or the extension is not there.
. "$(dirname "$0")/lib.sh"

need_culprit_php
cp "$TOP"/tests/e2e/php/*.php .

# ---- page.php: each line of output to its statement ----
export CULPRIT_STORE="$WORK/page"
run 0 "$CULPRIT" test --name page -- "$PHP_RUN" page.php
run 0 "$CULPRIT" output --format json page
python3 - "$WORK/out" >"$WORK/map.txt" <<'PY'
import json, os, sys
for line in json.load(open(sys.argv[1]))["lines"]:
    print(line["text"], *["%s:%d" % (os.path.basename(s["file"]), s["line"]) for s in line["statements"]])
PY
# echo in a function (6); inline HTML (27); printf in a function called in
# a loop inside a buffer returned by ob_get_clean, echoed by line 29 (11,
# not 29); print (30); all of it flushed by ob_end_flush (31, never); a
# discarded buffer (33) leaves nothing; echo after it (35).
expect_file_equals "$WORK/map.txt" "<h1>Menu</h1> page.php:6
<ul> page.php:27
<li>tea</li> page.php:11
<li>cake</li> page.php:11
</ul> page.php:30
<p>end</p> page.php:35"

# The same without buffering on the way: the statements are the same.
run 0 "$CULPRIT" test --name direct -- "$PHP_RUN" mid.php 3 3 5
run 0 "$CULPRIT" output direct
expect_contains "$WORK/out" "mid.php:"

# Offsets are stdout's bytes: records cover the whole output, in order.
mkdir collected
CULPRIT_COLLECT_DIR="$WORK/collected" "$PHP_RUN" page.php >"$WORK/page.out"
python3 - collected/*.dump "$(wc -c <"$WORK/page.out")" <<'PY' >"$WORK/records.txt"
import struct, sys
data = open(sys.argv[1], "rb").read()
units, depth = struct.unpack_from("<I", data, 12)[0], struct.unpack_from("<I", data, 36)[0]
at = 40 + 8 * depth
for _ in range(units):
    nonzero = struct.unpack_from("<I", data, at + 68)[0]
    at += 72 + 12 * nonzero
count = struct.unpack_from("<I", data, at)[0]
at += 4
end = 0
for _ in range(count):
    stream, offset, length, frames = struct.unpack_from("<IQQI", data, at)
    at += 24 + 8 * frames
    print("gap" if offset != end else "ok", stream, frames)
    end = offset + length
print("total", end == int(sys.argv[2]))
PY
expect_contains "$WORK/records.txt" "total True"
grep -q '^gap' "$WORK/records.txt" && fail "records leave gaps: $(cat "$WORK/records.txt")" || pass
# item()'s records carry its callers: item, render_list, {main}.
grep -q '^ok 1 3$' "$WORK/records.txt" && pass || fail "no record with 3 frames: $(cat "$WORK/records.txt")"

# ---- shop.php: smap and scomb find the seeded fault through the output map ----
export CULPRIT_STORE="$WORK/shop"
sed 's/money(\$total + \$off)/money($total - $off)/' shop.php >shop_fixed.php
shop_test() { # NAME ITEMS...
    name=$1
    shift
    php shop_fixed.php "$@" >"$WORK/expect.$name"
    "$CULPRIT" test --name "$name" --expect "$WORK/expect.$name" -- "$PHP_RUN" shop.php "$@" >/dev/null 2>&1
}
shop_test p1 1:500
shop_test p2 2:300 3:100
shop_test p3 1:9999
shop_test p4 4:250 1:1
shop_test f1 1:10000
shop_test f2 2:6000 1:5
run 0 "$CULPRIT" tests
[ "$(grep -c '^fail' "$WORK/out")" -eq 2 ] && pass || fail "expected 2 failing tests: $(cat "$WORK/out")"
run 0 "$CULPRIT" output f1
expect_contains "$WORK/out" "shop.php:32 (summary)"
grep -A1 'total' "$WORK/out" | grep -q 'shop.php:32' && pass || fail "the total line is not shop.php:32's: $(cat "$WORK/out")"
for technique in smap scomb; do
    run 0 "$CULPRIT" rank --technique $technique --format csv
    case $(sed -n 2p "$WORK/out") in
    1,*shop.php:32,*) pass ;;
    *) fail "$technique ranks '$(sed -n 2p "$WORK/out")' first, expected shop.php:32" ;;
    esac
    [ $technique = smap ] && continue # binary: its top is a tie by design
    case $(sed -n 3p "$WORK/out") in
    1,*) fail "$technique ties shop.php:32 with '$(sed -n 3p "$WORK/out")'" ;;
    *) pass ;;
    esac
done
# Tarantula alone ties it with the other lines only orders with a discount run.
# (16 and 31: ranks are mid-ranks, so the three share rank 3).
run 0 "$CULPRIT" rank --formula tarantula --kind line --format csv
rank=$(grep 'shop.php:32,' "$WORK/out" | cut -d, -f1)
[ "$(grep -c "^$rank,1," "$WORK/out")" -eq 3 ] && pass || fail "tarantula does not tie shop.php:32 three ways: $(sed -n 2,4p "$WORK/out")"


finish
