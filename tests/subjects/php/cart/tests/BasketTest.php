<?php

declare(strict_types=1);

namespace Cart\Tests;

use Cart\Basket;
use Cart\Coupon;
use PHPUnit\Framework\TestCase;

final class BasketTest extends TestCase
{
    private function basket(): Basket
    {
        $basket = new Basket();
        $basket->add('apple', 120, 3);
        $basket->add('pear', 250);
        return $basket;
    }

    public function testCountAndSubtotal(): void
    {
        $basket = $this->basket();
        $basket->add('apple', 120);
        $this->assertSame(5, $basket->count());
        $this->assertSame(730, $basket->subtotal());
    }

    public function testRemove(): void
    {
        $basket = $this->basket();
        $basket->remove('apple');
        $this->assertSame(250, $basket->subtotal());
    }

    public function testBadQuantity(): void
    {
        $this->expectException(\InvalidArgumentException::class);
        $this->basket()->add('plum', 90, 0);
    }

    public function testTotalWithoutCoupon(): void
    {
        $this->assertSame(671, $this->basket()->total(null, 10));
    }

    public function testCouponAboveMinimum(): void
    {
        $this->assertSame(61, $this->basket()->discount(new Coupon('TEN', 10, 500)));
    }

    public function testCouponBelowMinimum(): void
    {
        $this->assertSame(0, $this->basket()->discount(new Coupon('BIG', 10, 1000)));
    }

    public function testCouponAtMinimum(): void
    {
        $this->assertSame(61, $this->basket()->discount(new Coupon('EXACT', 10, 610)));
    }

    public function testTotalWithCoupon(): void
    {
        $this->assertSame(604, $this->basket()->total(new Coupon('TEN', 10), 10));
    }

    public function testReceipt(): void
    {
        $expected = "apple        3 x       1.20\n"
            . "pear         1 x       2.50\n"
            . "discount              -0.61\n"
            . "total                  6.04\n";
        $this->assertSame($expected, $this->basket()->receipt(new Coupon('TEN', 10), 10));
    }

    public function testBadCoupon(): void
    {
        $this->expectException(\InvalidArgumentException::class);
        new Coupon('HUGE', 150);
    }

    public function testCurrencyConversion(): void
    {
        $this->markTestSkipped('needs an exchange-rate service');
    }
}
