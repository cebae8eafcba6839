<?php
// php_cpu.php - the CPU-bound workload of bench/php_overhead.sh: code
// shaped like an application's, run many times over.  A tokenizer and a
// recursive-descent parser for arithmetic expressions, a small stack VM
// running the compiled code, a merge sort with a user comparator, records
// formatted and parsed back as text, and a word-frequency table.
// usage: php php_cpu.php [SCALE]   (prints one checksum line per part)
declare(strict_types=1);

final class Token
{
    public function __construct(public string $kind, public string $text)
    {
    }
}

function tokenize(string $source): array
{
    $tokens = [];
    $length = strlen($source);
    $i = 0;
    while ($i < $length) {
        $c = $source[$i];
        if ($c === ' ') {
            $i++;
            continue;
        }
        if (ctype_digit($c)) {
            $start = $i;
            while ($i < $length && ctype_digit($source[$i])) {
                $i++;
            }
            $tokens[] = new Token('num', substr($source, $start, $i - $start));
            continue;
        }
        if (ctype_alpha($c)) {
            $start = $i;
            while ($i < $length && ctype_alnum($source[$i])) {
                $i++;
            }
            $tokens[] = new Token('name', substr($source, $start, $i - $start));
            continue;
        }
        $tokens[] = new Token('op', $c);
        $i++;
    }
    $tokens[] = new Token('end', '');
    return $tokens;
}

final class Parser
{
    private int $at = 0;
    private array $code = [];

    public function __construct(private array $tokens)
    {
    }

    public function compile(): array
    {
        $this->expression();
        $this->code[] = ['halt', 0];
        return $this->code;
    }

    private function peek(): Token
    {
        return $this->tokens[$this->at];
    }

    private function expression(): void
    {
        $this->term();
        while (true) {
            $op = $this->peek()->text;
            if ($op !== '+' && $op !== '-') {
                return;
            }
            $this->at++;
            $this->term();
            $this->code[] = [$op === '+' ? 'add' : 'sub', 0];
        }
    }

    private function term(): void
    {
        $this->factor();
        while (true) {
            $op = $this->peek()->text;
            if ($op === '*') {
                $this->at++;
                $this->factor();
                $this->code[] = ['mul', 0];
            } elseif ($op === '%') {
                $this->at++;
                $this->factor();
                $this->code[] = ['mod', 0];
            } else {
                return;
            }
        }
    }

    private function factor(): void
    {
        $token = $this->tokens[$this->at++];
        switch ($token->kind) {
            case 'num':
                $this->code[] = ['push', (int)$token->text];
                break;
            case 'name':
                $this->code[] = ['load', $token->text];
                break;
            default:
                if ($token->text === '(') {
                    $this->expression();
                    $this->at++; // ')'
                } elseif ($token->text === '-') {
                    $this->factor();
                    $this->code[] = ['neg', 0];
                } else {
                    throw new RuntimeException("unexpected '{$token->text}'");
                }
        }
    }
}

function run_code(array $code, array $variables): int
{
    $stack = [];
    $sp = 0;
    $pc = 0;
    while (true) {
        [$op, $arg] = $code[$pc++];
        switch ($op) {
            case 'push':
                $stack[$sp++] = $arg;
                break;
            case 'load':
                $stack[$sp++] = $variables[$arg] ?? 0;
                break;
            case 'add':
                $sp--;
                $stack[$sp - 1] += $stack[$sp];
                break;
            case 'sub':
                $sp--;
                $stack[$sp - 1] -= $stack[$sp];
                break;
            case 'mul':
                $sp--;
                $stack[$sp - 1] = ($stack[$sp - 1] * $stack[$sp]) % 1000003;
                break;
            case 'mod':
                $sp--;
                $stack[$sp - 1] = $stack[$sp] === 0 ? 0 : $stack[$sp - 1] % $stack[$sp];
                break;
            case 'neg':
                $stack[$sp - 1] = -$stack[$sp - 1];
                break;
            case 'halt':
                return $stack[0];
        }
    }
}

function interpreter(int $scale): int
{
    $sources = [
        '(a + 3) * (b - 2) % 97 + c * 7',
        'a * a + b * b - (c % 5) * -(a + 1)',
        '((x + y) * (x - y) + 12345) % 1009 * z',
    ];
    $sum = 0;
    for ($round = 0; $round < 40 * $scale; $round++) {
        foreach ($sources as $k => $source) {
            $code = (new Parser(tokenize($source)))->compile();
            for ($i = 0; $i < 25; $i++) {
                $variables = ['a' => $i + $round, 'b' => $i * 3, 'c' => $k + $i, 'x' => $round, 'y' => $i, 'z' => 3];
                $sum = ($sum + run_code($code, $variables)) % 1000000007;
            }
        }
    }
    return $sum;
}

function merge_sort(array $items, callable $less): array
{
    $n = count($items);
    if ($n <= 1) {
        return $items;
    }
    $middle = intdiv($n, 2);
    $left = merge_sort(array_slice($items, 0, $middle), $less);
    $right = merge_sort(array_slice($items, $middle), $less);
    $merged = [];
    $i = $j = 0;
    while ($i < count($left) && $j < count($right)) {
        if ($less($right[$j], $left[$i])) {
            $merged[] = $right[$j++];
        } else {
            $merged[] = $left[$i++];
        }
    }
    while ($i < count($left)) {
        $merged[] = $left[$i++];
    }
    while ($j < count($right)) {
        $merged[] = $right[$j++];
    }
    return $merged;
}

function sorting(int $scale): int
{
    $seed = 12345;
    $sum = 0;
    for ($round = 0; $round < $scale; $round++) {
        $people = [];
        for ($i = 0; $i < 600; $i++) {
            $seed = ($seed * 1103515245 + 12345) % 2147483648;
            $people[] = ['age' => $seed % 90, 'name' => 'p' . ($seed % 10007), 'id' => $i];
        }
        $sorted = merge_sort($people, function (array $a, array $b): bool {
            if ($a['age'] !== $b['age']) {
                return $a['age'] < $b['age'];
            }
            return strcmp($a['name'], $b['name']) < 0;
        });
        foreach ($sorted as $rank => $person) {
            $sum = ($sum + $rank * $person['id']) % 1000000007;
        }
    }
    return $sum;
}

function format_record(array $record): string
{
    $fields = [];
    foreach ($record as $key => $value) {
        $fields[] = $key . '=' . (is_int($value) ? (string)$value : '"' . addslashes($value) . '"');
    }
    return implode(';', $fields);
}

function parse_record(string $line): array
{
    $record = [];
    foreach (explode(';', $line) as $field) {
        $equals = strpos($field, '=');
        $key = substr($field, 0, $equals);
        $value = substr($field, $equals + 1);
        if ($value !== '' && $value[0] === '"') {
            $record[$key] = stripslashes(substr($value, 1, -1));
        } else {
            $record[$key] = (int)$value;
        }
    }
    return $record;
}

function records(int $scale): int
{
    $words = ['alpha', 'beta', 'gamma', 'delta', "o'neil", 'zeta', 'eta', 'theta'];
    $frequency = [];
    $sum = 0;
    for ($i = 0; $i < 1500 * $scale; $i++) {
        $record = ['id' => $i, 'name' => $words[$i % 8] . ' ' . $words[($i * 7) % 8], 'qty' => $i % 13];
        $back = parse_record(format_record($record));
        if ($back !== $record) {
            throw new RuntimeException("record $i did not survive");
        }
        foreach (explode(' ', $back['name']) as $word) {
            $frequency[$word] = ($frequency[$word] ?? 0) + $back['qty'];
        }
        $sum = ($sum + strlen($back['name']) * $back['qty']) % 1000000007;
    }
    ksort($frequency);
    foreach ($frequency as $word => $count) {
        $sum = ($sum + crc32($word) % 1000 * $count) % 1000000007;
    }
    return $sum;
}

$scale = (int)($argv[1] ?? 10);
printf("interpreter %d\n", interpreter($scale));
printf("sorting %d\n", sorting($scale));
printf("records %d\n", records($scale));
