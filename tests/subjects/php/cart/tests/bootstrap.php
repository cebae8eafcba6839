<?php

declare(strict_types=1);

require __DIR__ . '/../src/Money.php';
require __DIR__ . '/../src/Coupon.php';
require __DIR__ . '/../src/Basket.php';
