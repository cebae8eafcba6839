# test_phpunit.sh - `culprit phpunit` (src/cli/phpunit.c, src/php/php_tests.c,
# src/php/phpunit/; docs/php.md, "PHPUnit"): a PHPUnit 9.6 suite run in one
# PHP process, every test its own record with PHPUnit's verdict.  The
# subject is tests/subjects/php/cart (17 tests) and its seeded fault v1
# (src/Coupon.php:22); then a suite of odd tests (an exception, a PHP
# warning, no assertions, a fatal error that ends PHP in mid-test), and
# PHPUnit run with culprit's PHPUnit extension but without the Zend
# extension, or without collection.  Skips only without PHP or phpunit.
. "$(dirname "$0")/lib.sh"

need_culprit_php
if ! command -v phpunit >/dev/null 2>&1; then
    echo "$E2E_NAME: note: phpunit is not installed (Debian: phpunit); skipping"
    finish
    exit 0
fi

# ---- the correct version: every test passes or is skipped ----
cp -r "$TOP/tests/subjects/php/cart" cart
cd cart || exit 1
run 0 "$CULPRIT" phpunit
expect_contains "$WORK/out" "Tests: 17, Assertions: 17, Skipped: 1, Incomplete: 1."
expect_contains "$WORK/err" "culprit: recorded 17 PHPUnit tests: 15 pass, 2 skip"
run 0 "$CULPRIT" tests
[ "$(grep -c '^pass' "$WORK/out")" -eq 15 ] && pass || fail "expected 15 passing tests: $(cat "$WORK/out")"
# PHPUnit's names, data sets included
expect_contains "$WORK/out" 'Cart\Tests\BasketTest::testCouponAtMinimum'
expect_contains "$WORK/out" 'Cart\Tests\MoneyTest::testFormat with data set "thousands" (123456, '"'1,234.56')"
expect_contains "$WORK/out" "skipped: needs an exchange-rate service"
expect_contains "$WORK/out" "incomplete: formats for other locales are not written yet"

# ---- v1: the coupon's minimum compared with > ----
rm -rf "$CULPRIT_STORE"
patch -s -p1 <faults/v1.patch
run 1 "$CULPRIT" phpunit # PHPUnit's own exit status
expect_contains "$WORK/err" "culprit: recorded 17 PHPUnit tests: 14 pass, 1 fail, 2 skip"
run 0 "$CULPRIT" tests
grep -A1 '^fail' "$WORK/out" >"$WORK/failed"
expect_contains "$WORK/failed" 'Cart\Tests\BasketTest::testCouponAtMinimum'
expect_contains "$WORK/failed" "Failed asserting that 0 is identical to 61."
[ "$(grep -c '^fail' "$WORK/out")" -eq 1 ] && pass || fail "expected one failing test: $(cat "$WORK/out")"

# Each test has its own spectrum: Money::format's body (Money.php:12) runs
# in the four format tests and the receipt, not in the other twelve.
run 0 "$CULPRIT" rank --kind line --format csv
grep 'src/Money.php:12,' "$WORK/out" | grep -q ',0,5,1,9,' && pass ||
    fail "Money.php:12: $(grep 'src/Money.php:12,' "$WORK/out")"
# PHPUnit's own code (Debian's /usr/share/php, the phpunit script) and
# culprit's PHPUnit extension are not collected.
grep -q '/usr/share/php\|/usr/bin/phpunit\|Extension.php\|prepend.php' "$WORK/out" &&
    fail "PHPUnit's or culprit's own files are ranked: $(grep -m3 '/usr/\|Extension.php' "$WORK/out")" || pass
# The failing test's own lines lead (run by it alone); without the tests,
# the faulty line is among the first three (line 52, `return 0` when the
# coupon does not apply, is run by fewer passing tests).
case $(sed -n 2p "$WORK/out") in
*tests/BasketTest.php:*) pass ;;
*) fail "expected the failing test's lines first, got $(sed -n 2p "$WORK/out")" ;;
esac
rank_into ranking --kind line --exclude tests --format csv
rank=$(grep 'src/Coupon.php:22,' "$WORK/ranking" | cut -d, -f1)
[ -n "$rank" ] && [ "$rank" -le 3 ] && pass || fail "Coupon.php:22 ranks ${rank:-nowhere}: $(head -5 "$WORK/ranking")"
cd "$WORK" || exit 1

# ---- odd tests: an exception, a warning, a risky test ----
mkdir odd
cat >odd/OddTest.php <<'EOF'
<?php
use PHPUnit\Framework\TestCase;
final class OddTest extends TestCase
{
    public function testThrows(): void
    {
        throw new RuntimeException('boom');
    }
    public function testWarning(): void
    {
        $values = [];
        $this->assertSame(1, $values['missing']);
    }
    public function testNoAssertion(): void
    {
    }
}
EOF
run 2 "$CULPRIT" phpunit -- odd
expect_contains "$WORK/err" "culprit: recorded 3 PHPUnit tests: 1 pass, 2 error"
run 0 "$CULPRIT" tests
expect_block "$WORK/out" "OddTest::testThrows
        boom"
expect_block "$WORK/out" "OddTest::testWarning
        Undefined array key \"missing\""
expect_block "$WORK/out" "OddTest::testNoAssertion
        risky: This test did not perform any assertions"

# ---- a fatal error ends PHP inside a test: that test fails with it ----
rm -rf "$CULPRIT_STORE"
mkdir fatal
cat >fatal/FatalTest.php <<'EOF'
<?php
use PHPUnit\Framework\TestCase;
final class FatalTest extends TestCase
{
    public function testFirst(): void
    {
        $this->assertTrue(true);
    }
    public function testExhausts(): void
    {
        ini_set('memory_limit', '16M');
        $text = str_repeat('x', 64 * 1024 * 1024);
        $this->assertNotEmpty($text);
    }
    public function testNeverRuns(): void
    {
        $this->assertTrue(true);
    }
}
EOF
run 255 "$CULPRIT" phpunit -- fatal
expect_contains "$WORK/err" "culprit: recorded 2 PHPUnit tests: 1 pass, 1 fail"
run 0 "$CULPRIT" tests
expect_block "$WORK/out" "FatalTest::testExhausts
        PHP Fatal error: Allowed memory size of 16777216 bytes exhausted"
expect_contains "$WORK/out" "FatalTest.php:12 (FatalTest::testExhausts)"
grep -q testNeverRuns "$WORK/out" && fail "a test PHPUnit never ran is recorded" || pass

# ... and exit() in a test fails it with PHP's exit status, which passes on
rm -rf "$CULPRIT_STORE"
mkdir exits
cat >exits/ExitTest.php <<'EOF'
<?php
use PHPUnit\Framework\TestCase;
final class ExitTest extends TestCase
{
    public function testExits(): void
    {
        exit(3);
    }
}
EOF
run 3 "$CULPRIT" phpunit -- exits
run 0 "$CULPRIT" tests
expect_block "$WORK/out" "ExitTest::testExits
        PHP exited during the test (exit status 3)"

# ---- bad input ----
# culprit's PHPUnit extension in a PHP without culprit's Zend extension, or
# with it but not collecting: a sentence, and PHPUnit runs on.
phpunit_script=$(command -v phpunit)
cd cart || exit 1
run 0 php "$phpunit_script" --prepend "$BUILD_DIR/phpunit/prepend.php" --extensions 'Culprit\PHPUnit\Extension' \
    tests/MoneyTest.php
expect_contains "$WORK/err" "culprit: the culprit PHP extension (culprit.so) is not loaded in this PHP, so no test is recorded"
expect_contains "$WORK/out" "OK, but incomplete"
run 0 "$PHP_RUN" "$phpunit_script" --prepend "$BUILD_DIR/phpunit/prepend.php" \
    --extensions 'Culprit\PHPUnit\Extension' tests/MoneyTest.php
expect_contains "$WORK/err" "culprit: the culprit PHP extension is loaded but not collecting (CULPRIT_COLLECT_DIR is not set)"
cd "$WORK" || exit 1
run 2 "$CULPRIT" phpunit --phpunit "$WORK/no-such-phpunit"
expect_contains "$WORK/err" "culprit: --phpunit $WORK/no-such-phpunit: No such file or directory"
run 2 "$CULPRIT" phpunit --exclude-dir "$WORK/odd/OddTest.php" -- odd
expect_contains "$WORK/err" "culprit: --exclude-dir $WORK/odd/OddTest.php: not a directory"
run 2 "$CULPRIT" phpunit odd
expect_contains "$WORK/err" "unexpected argument 'odd' (phpunit's own arguments go after --)"

finish
