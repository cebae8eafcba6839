<?php declare(strict_types=1);
/*
 * prepend.php - loaded by `culprit phpunit` through PHPUnit's --prepend,
 * before PHPUnit itself: makes culprit's PHPUnit extension class
 * (Extension.php, beside this file) loadable by its name, so that
 * `--extensions Culprit\PHPUnit\Extension` finds it.  It cannot be
 * declared here: its interfaces are PHPUnit's, not loaded yet.
 */
spl_autoload_register(static function (string $class): void {
    if ($class === 'Culprit\\PHPUnit\\Extension') {
        require __DIR__ . '/Extension.php';
    }
});
