<?php
// catalog.php - the data layer of the request workload: generated items
// (as a database would return them), search, sorting, a basket in a cookie.
declare(strict_types=1);

final class Catalog
{
    private array $items = [];
    private const CATEGORIES = ['books', 'garden', 'kitchen', 'music', 'toys', 'tools'];
    private const WORDS = ['red', 'small', 'classic', 'steel', 'wooden', 'deluxe', 'compact', 'blue',
        'travel', 'family', 'pro', 'mini'];

    public function __construct(int $count)
    {
        $seed = 7;
        for ($id = 1; $id <= $count; $id++) {
            $seed = ($seed * 48271) % 2147483647;
            $name = ucfirst(self::WORDS[$seed % 12]) . ' ' . self::WORDS[($seed >> 4) % 12] . ' '
                . self::CATEGORIES[$id % 6] . " #$id";
            $this->items[$id] = ['id' => $id, 'name' => $name, 'category' => self::CATEGORIES[$id % 6],
                'price' => 100 + $seed % 9900, 'stock' => $seed % 7, 'rating' => 1 + $seed % 5];
        }
    }

    public function categories(): array
    {
        return self::CATEGORIES;
    }

    public function find(int $id): ?array
    {
        return $this->items[$id] ?? null;
    }

    public function search(string $words, string $category): array
    {
        $terms = $words === '' ? [] : preg_split('/\s+/', strtolower($words));
        $found = [];
        foreach ($this->items as $item) {
            if ($category !== '' && $item['category'] !== $category) {
                continue;
            }
            $name = strtolower($item['name']);
            $matches = true;
            foreach ($terms as $term) {
                if (!str_contains($name, $term)) {
                    $matches = false;
                    break;
                }
            }
            if ($matches) {
                $found[] = $item;
            }
        }
        return $found;
    }

    public function sort(array $items, string $by): array
    {
        usort($items, match ($by) {
            'price' => fn(array $a, array $b): int => $a['price'] <=> $b['price'] ?: $a['id'] <=> $b['id'],
            'rating' => fn(array $a, array $b): int => $b['rating'] <=> $a['rating'] ?: $a['id'] <=> $b['id'],
            default => fn(array $a, array $b): int => strcmp($a['name'], $b['name']),
        });
        return $items;
    }

    public function related(array $item, int $count): array
    {
        $scored = [];
        foreach ($this->items as $other) {
            if ($other['id'] === $item['id']) {
                continue;
            }
            $score = ($other['category'] === $item['category'] ? 10 : 0) - abs($other['price'] - $item['price']) / 100;
            $scored[] = [$score, $other];
        }
        usort($scored, fn(array $a, array $b): int => $b[0] <=> $a[0]);
        return array_column(array_slice($scored, 0, $count), 1);
    }
}

final class Basket
{
    private function __construct(private array $quantities)
    {
    }

    public static function fromCookie(string $cookie): self
    {
        $quantities = [];
        foreach (explode(',', $cookie) as $pair) {
            if (!str_contains($pair, ':')) {
                continue;
            }
            [$id, $quantity] = explode(':', $pair, 2);
            if (ctype_digit($id) && ctype_digit($quantity) && (int)$quantity > 0) {
                $quantities[(int)$id] = ($quantities[(int)$id] ?? 0) + (int)$quantity;
            }
        }
        return new self($quantities);
    }

    public function lines(Catalog $catalog): array
    {
        $lines = [];
        foreach ($this->quantities as $id => $quantity) {
            $item = $catalog->find($id);
            if ($item !== null) {
                $lines[] = ['item' => $item, 'quantity' => $quantity, 'sum' => $item['price'] * $quantity];
            }
        }
        return $lines;
    }

    public function total(Catalog $catalog): int
    {
        $total = 0;
        foreach ($this->lines($catalog) as $line) {
            $total += $line['sum'];
        }
        return $total >= 5000 ? $total : $total + 490; // shipping under 50.00
    }
}
