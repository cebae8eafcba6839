<?php declare(strict_types=1);
/*
 * Extension.php - culprit's PHPUnit extension (PHPUnit 9.6's hooks): makes
 * every PHPUnit test its own culprit record, in one PHP process
 * (docs/php.md, "PHPUnit").  `culprit phpunit` loads it (through
 * prepend.php and --extensions); it needs culprit's Zend extension, whose
 * culprit_test_begin() starts a test's counters from zero and whose
 * culprit_test_end() writes the test's dump and result.
 *
 * PHPUnit's outcomes become culprit's verdicts: a success (risky or not)
 * passes, a failure fails, an error is an error (counted as failing by
 * the rankings), a skipped or incomplete test and one PHPUnit only warns
 * about are skips.  The message is PHPUnit's, prefixed with the outcome
 * where the verdict does not say it.
 */
namespace Culprit\PHPUnit;

use PHPUnit\Runner\AfterIncompleteTestHook;
use PHPUnit\Runner\AfterRiskyTestHook;
use PHPUnit\Runner\AfterSkippedTestHook;
use PHPUnit\Runner\AfterTestErrorHook;
use PHPUnit\Runner\AfterTestFailureHook;
use PHPUnit\Runner\AfterTestHook;
use PHPUnit\Runner\AfterTestWarningHook;
use PHPUnit\Runner\BeforeTestHook;

final class Extension implements BeforeTestHook, AfterTestFailureHook, AfterTestErrorHook,
    AfterTestWarningHook, AfterIncompleteTestHook, AfterSkippedTestHook, AfterRiskyTestHook, AfterTestHook
{
    /* How bad each verdict is: a test keeps the worst outcome PHPUnit
     * reports for it (a failure and then "risky", for one). */
    private const RANK = ['pass' => 0, 'skip' => 1, 'fail' => 2, 'error' => 3];

    /** @var bool whether tests are being recorded */
    private $recording;
    /** @var bool whether a test is open */
    private $open = false;
    /** @var string */
    private $verdict = 'pass';
    /** @var string */
    private $message = '';

    public function __construct()
    {
        $this->recording = function_exists('culprit_test_begin');
        if (!$this->recording) {
            self::say('the culprit PHP extension (culprit.so) is not loaded in this PHP, so no test is '
                . 'recorded; run the suite with `culprit phpunit`');
        }
    }

    public function executeBeforeTest(string $test): void
    {
        if (!$this->recording) {
            return;
        }
        if (!\culprit_test_begin($test)) {
            $this->recording = false;
            self::say('the culprit PHP extension is loaded but not collecting (CULPRIT_COLLECT_DIR is not '
                . 'set), so no test is recorded; run the suite with `culprit phpunit`');
            return;
        }
        $this->open = true;
        $this->verdict = 'pass';
        $this->message = '';
    }

    public function executeAfterTestFailure(string $test, string $message, float $time): void
    {
        $this->note('fail', $message);
    }

    public function executeAfterTestError(string $test, string $message, float $time): void
    {
        $this->note('error', $message);
    }

    public function executeAfterTestWarning(string $test, string $message, float $time): void
    {
        $this->note('skip', 'PHPUnit warning: ' . $message);
    }

    public function executeAfterIncompleteTest(string $test, string $message, float $time): void
    {
        $this->note('skip', 'incomplete: ' . $message);
    }

    public function executeAfterSkippedTest(string $test, string $message, float $time): void
    {
        $this->note('skip', 'skipped: ' . $message);
    }

    public function executeAfterRiskyTest(string $test, string $message, float $time): void
    {
        $this->note('pass', 'risky: ' . $message);
    }

    public function executeAfterTest(string $test, float $time): void
    {
        if (!$this->open) {
            return;
        }
        $this->open = false;
        \culprit_test_end($this->verdict, $this->message);
    }

    private function note(string $verdict, string $message): void
    {
        $rank = self::RANK[$verdict];
        $now = self::RANK[$this->verdict];
        if ($rank > $now || ($rank === $now && $this->message === '')) {
            $this->verdict = $verdict;
            $this->message = trim($message);
        }
    }

    private static function say(string $sentence): void
    {
        fwrite(STDERR, 'culprit: ' . $sentence . PHP_EOL);
    }
}
