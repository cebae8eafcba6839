<?php

declare(strict_types=1);

namespace Cart;

/* A discount code: a percentage off a subtotal of at least $minimum cents. */
final class Coupon
{
    public function __construct(
        public readonly string $code,
        public readonly int $percent,
        public readonly int $minimum = 0
    ) {
        if ($percent < 1 || $percent > 100) {
            throw new \InvalidArgumentException("coupon $code: percent must be 1 to 100");
        }
    }

    public function appliesTo(int $subtotal): bool
    {
        return $subtotal >= $this->minimum;
    }
}
