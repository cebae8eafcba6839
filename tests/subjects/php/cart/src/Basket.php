<?php

declare(strict_types=1);

namespace Cart;

/* A shopping basket: lines of (price, quantity) by SKU, a coupon, tax. */
final class Basket
{
    /** @var array<string, array{int, int}> */
    private array $lines = [];

    public function add(string $sku, int $price, int $quantity = 1): void
    {
        if ($quantity <= 0) {
            throw new \InvalidArgumentException("quantity must be positive, not $quantity");
        }
        if (isset($this->lines[$sku])) {
            $this->lines[$sku][1] += $quantity;
        } else {
            $this->lines[$sku] = [$price, $quantity];
        }
    }

    public function remove(string $sku): void
    {
        unset($this->lines[$sku]);
    }

    public function count(): int
    {
        $items = 0;
        foreach ($this->lines as [, $quantity]) {
            $items += $quantity;
        }
        return $items;
    }

    public function subtotal(): int
    {
        $sum = 0;
        foreach ($this->lines as [$price, $quantity]) {
            $sum += $price * $quantity;
        }
        return $sum;
    }

    public function discount(?Coupon $coupon): int
    {
        $subtotal = $this->subtotal();
        if ($coupon === null || !$coupon->appliesTo($subtotal)) {
            return 0;
        }
        return Money::percentOf($subtotal, $coupon->percent);
    }

    public function total(?Coupon $coupon, int $taxPercent): int
    {
        $net = $this->subtotal() - $this->discount($coupon);
        return $net + Money::percentOf($net, $taxPercent);
    }

    public function receipt(?Coupon $coupon, int $taxPercent): string
    {
        $lines = [];
        foreach ($this->lines as $sku => [$price, $quantity]) {
            $lines[] = sprintf('%-10s %3d x %10s', $sku, $quantity, Money::format($price));
        }
        $discount = $this->discount($coupon);
        if ($discount > 0) {
            $lines[] = sprintf('%-16s %10s', 'discount', Money::format(-$discount));
        }
        $lines[] = sprintf('%-16s %10s', 'total', Money::format($this->total($coupon, $taxPercent)));
        return implode("\n", $lines) . "\n";
    }
}
