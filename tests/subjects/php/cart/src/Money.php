<?php

declare(strict_types=1);

namespace Cart;

/* Amounts are integer cents; this formats them and takes percentages. */
final class Money
{
    public static function format(int $cents): string
    {
        $sign = $cents < 0 ? '-' : '';
        $cents = abs($cents);
        $units = intdiv($cents, 100);
        $rest = $cents % 100;
        return sprintf('%s%s.%02d', $sign, number_format($units), $rest);
    }

    /* $percent of $cents, rounded half up. */
    public static function percentOf(int $cents, int $percent): int
    {
        return intdiv($cents * $percent + 50, 100);
    }
}
