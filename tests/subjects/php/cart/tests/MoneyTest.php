<?php

declare(strict_types=1);

namespace Cart\Tests;

use Cart\Money;
use PHPUnit\Framework\TestCase;

final class MoneyTest extends TestCase
{
    /** @dataProvider formats */
    public function testFormat(int $cents, string $text): void
    {
        $this->assertSame($text, Money::format($cents));
    }

    public function formats(): array
    {
        return ['zero' => [0, '0.00'], 'cents' => [7, '0.07'], 'thousands' => [123456, '1,234.56'],
            'negative' => [-250, '-2.50']];
    }

    public function testPercentRoundsHalfUp(): void
    {
        $this->assertSame(13, Money::percentOf(125, 10));
        $this->assertSame(12, Money::percentOf(124, 10));
    }

    public function testLocalizedFormat(): void
    {
        $this->markTestIncomplete('formats for other locales are not written yet');
    }
}
