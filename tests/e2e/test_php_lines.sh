#!/bin/sh
# test_php_lines.sh - the PHP extension's lines mode (CULPRIT_PHP_COVERAGE=
# lines, src/php/php_probes.c; docs/php.md "Lines mode"): it records the
# same lines as full mode, test by test, though its probes sit on the
# blocks' first opcodes only and remove themselves when they fire.  Run on
# the PHP scripts of tests/e2e/php (mid, an uncaught exception and an
# undefined function, return values, output buffers), on the benchmark's
# CPU workload (methods, closures, switch, untyped parameters whose RECVs
# the VM skips) and on PHPUnit tests of tests/subjects/php/cart in one PHP
# process (the probes that fired in one test are put back for the next),
# and generators suspended in one PHPUnit test and resumed in the next.
# Its map is a `lines` map, without branch or return records; a bad value
# of the variable is said and full mode used.
. "$(dirname "$0")/lib.sh"

need_culprit_php
cp "$TOP"/tests/e2e/php/*.php "$TOP"/bench/workloads/php_cpu.php .

# record MODE: the same tests in the store MODE.store, exported as csv
# (test, verdict, then one column per line: whether the test ran it).
record() {
    export CULPRIT_STORE="$WORK/$1.store" CULPRIT_PHP_COVERAGE=$1
    run 0 "$CULPRIT" test --name mid1 -- "$PHP_RUN" mid.php 3 3 5
    run 0 "$CULPRIT" test --name mid2 -- "$PHP_RUN" mid.php 2 1 3
    run 0 "$CULPRIT" test --name fine -- "$PHP_RUN" boom.php 0
    run 255 "$CULPRIT" test --name exception -- "$PHP_RUN" boom.php 5
    run 255 "$CULPRIT" test --name fatal -- "$PHP_RUN" boom.php 1
    run 0 "$CULPRIT" test --name returns -- "$PHP_RUN" ret.php
    run 0 "$CULPRIT" test --name page -- "$PHP_RUN" page.php
    run 0 "$CULPRIT" test --name shop -- "$PHP_RUN" shop.php
    run 0 "$CULPRIT" test --name cpu -- "$PHP_RUN" php_cpu.php 1
    run 0 "$CULPRIT" export csv --output "$WORK/$1.csv"
    unset CULPRIT_PHP_COVERAGE
}
record full
record lines
[ "$(wc -l <"$WORK/lines.csv")" -eq 10 ] && pass || fail "expected 9 tests in lines.csv: $(wc -l <"$WORK/lines.csv")"
if cmp -s "$WORK/full.csv" "$WORK/lines.csv"; then pass; else
    fail "lines mode records other lines than full mode: $(diff "$WORK/full.csv" "$WORK/lines.csv" | head -c 600)"
fi
# The crash sites are kept: the uncaught exception at check@7.
export CULPRIT_STORE="$WORK/lines.store"
run 0 "$CULPRIT" tests
expect_contains "$WORK/out" "boom.php:7 (check)"

# The map: mode lines, blocks and lines only.
mkdir collected
CULPRIT_PHP_COVERAGE=lines CULPRIT_COLLECT_DIR="$WORK/collected" "$PHP_RUN" mid.php 1 2 3 >"$WORK/out"
expect_file_equals "$WORK/out" "2"
map=$(ls collected/*.map)
head -n 2 "$map" | grep -q '^unit	[0-9a-f]*	lines	' && pass || fail "not a lines map: $(head -n 2 "$map")"
grep -q '^line	' "$map" && pass || fail "the lines map lists no line"
if grep -q -e '^branch	' -e '^edge	' -e '^return	' "$map"; then fail "a lines map with branch, edge or return records"; else pass; fi
[ "$(ls collected/*.dump | wc -l)" -eq 1 ] && pass || fail "expected one dump: $(ls collected)"

# A bad value: said, and full mode used.
rm -rf collected && mkdir collected
CULPRIT_PHP_COVERAGE=branches CULPRIT_COLLECT_DIR="$WORK/collected" "$PHP_RUN" mid.php 1 2 3 >"$WORK/out" 2>"$WORK/err"
expect_contains "$WORK/err" "CULPRIT_PHP_COVERAGE=branches: expected full or lines; using full"
head -n 2 collected/*.map | grep -q '^unit	[0-9a-f]*	full	' && pass || fail "a bad value should give full mode"

# PHPUnit: every test of one process has its own lines, in both modes.
if command -v phpunit >/dev/null 2>&1; then
    cp -R "$TOP/tests/subjects/php/cart" cart
    for mode in full lines; do
        (cd cart && CULPRIT_STORE="$WORK/phpunit-$mode" CULPRIT_PHP_COVERAGE=$mode \
            "$CULPRIT" phpunit >/dev/null 2>"$WORK/err.$mode") && pass || fail "culprit phpunit ($mode): $(cat "$WORK/err.$mode")"
        run 0 env CULPRIT_STORE="$WORK/phpunit-$mode" "$CULPRIT" export csv --output "$WORK/phpunit-$mode.csv"
    done
    expect_contains "$WORK/err.lines" "recorded 17 PHPUnit tests: 15 pass, 2 skip"
    if cmp -s "$WORK/phpunit-full.csv" "$WORK/phpunit-lines.csv"; then pass; else
        fail "PHPUnit: lines mode records other lines: $(diff "$WORK/phpunit-full.csv" "$WORK/phpunit-lines.csv" | head -c 600)"
    fi
    # Generators suspended in one test and resumed in the next (a function's,
    # and a closure's, started by a file's top-level code): their probes are
    # put back too.
    mkdir -p generators/tests
    cat >generators/Lib.php <<'END'
<?php
function numbers(): Generator
{
    $i = 0;
    while (true) {
        if ($i % 2 === 0) {
            $even = true;
        } else {
            $even = false;
        }
        yield $i => $even;
        $i++;
    }
}
$GLOBALS['shared'] = (function (): Generator {
    $k = 0;
    while (true) {
        yield $k;
        $k += 3;
    }
})();
END
    cat >generators/tests/GenTest.php <<'END'
<?php
use PHPUnit\Framework\TestCase;
require_once __DIR__ . '/../Lib.php';
final class GenTest extends TestCase
{
    private static ?Generator $numbers = null;
    public function testFirst(): void
    {
        self::$numbers = numbers();
        $this->assertTrue(self::$numbers->current());
        self::$numbers->next();
        $this->assertFalse(self::$numbers->current());
        $this->assertSame(0, $GLOBALS['shared']->current());
    }
    public function testSecond(): void
    {
        self::$numbers->next();
        $this->assertTrue(self::$numbers->current());
        $GLOBALS['shared']->next();
        $this->assertSame(3, $GLOBALS['shared']->current());
    }
}
END
    for mode in full lines; do
        (cd generators && CULPRIT_STORE="$WORK/generators-$mode" CULPRIT_PHP_COVERAGE=$mode \
            "$CULPRIT" phpunit -- tests >/dev/null 2>"$WORK/err.$mode") && pass || fail "generators ($mode): $(cat "$WORK/err.$mode")"
        run 0 env CULPRIT_STORE="$WORK/generators-$mode" "$CULPRIT" export csv --output "$WORK/generators-$mode.csv"
    done
    expect_contains "$WORK/err.lines" "recorded 2 PHPUnit tests: 2 pass"
    if cmp -s "$WORK/generators-full.csv" "$WORK/generators-lines.csv"; then pass; else
        fail "generators: lines mode records other lines: $(diff "$WORK/generators-full.csv" "$WORK/generators-lines.csv" | head -c 600)"
    fi
    # testSecond resumed both: the closure's `$k += 3` (19) runs in it.
    grep '^GenTest::testSecond,' "$WORK/generators-lines.csv" >"$WORK/second"
    head -n 1 "$WORK/generators-lines.csv" | tr ',' '\n' >"$WORK/columns"
    column=$(grep -n 'Lib.php:19$' "$WORK/columns" | cut -d: -f1)
    [ -n "$column" ] && [ "$(cut -d, -f"$column" "$WORK/second")" != 0 ] && pass ||
        fail "testSecond should run Lib.php:19: $(cat "$WORK/second")"
else
    echo "$E2E_NAME: note: phpunit is not installed (Debian: phpunit); its part skipped"
fi

finish
