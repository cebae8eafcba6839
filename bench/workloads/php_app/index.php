<?php
// index.php - the front controller of the request workload of
// bench/php_overhead.sh: a small shop whose pages (a catalogue with search,
// sorting and pages, an item, a basket, a checkout form) are built the way
// many PHP applications build them: a router, a data layer, output-buffered
// templates with escaping, form validation.  One request per php-cgi run.
declare(strict_types=1);

require __DIR__ . '/lib/catalog.php';
require __DIR__ . '/lib/view.php';
require __DIR__ . '/lib/form.php';

function route(array $query, array $post, array $cookies): array
{
    $catalog = new Catalog(3000);
    $basket = Basket::fromCookie($cookies['basket'] ?? '');
    switch ($query['page'] ?? 'list') {
        case 'item':
            $item = $catalog->find((int)($query['id'] ?? 0));
            if ($item === null) {
                return ['Not found', render('missing', ['id' => $query['id'] ?? ''])];
            }
            return [$item['name'], render('item', ['item' => $item, 'related' => $catalog->related($item, 6)])];
        case 'basket':
            return ['Basket', render('basket', ['lines' => $basket->lines($catalog), 'total' => $basket->total($catalog)])];
        case 'checkout':
            $errors = $post ? validate_checkout($post) : [];
            $done = $post && !$errors;
            return ['Checkout', render('checkout', ['errors' => $errors, 'done' => $done, 'post' => $post,
                'total' => $basket->total($catalog)])];
        default:
            $search = trim((string)($query['q'] ?? ''));
            $items = $catalog->search($search, (string)($query['category'] ?? ''));
            $items = $catalog->sort($items, (string)($query['sort'] ?? 'name'));
            $page = max(1, (int)($query['p'] ?? 1));
            $pages = max(1, (int)ceil(count($items) / 40));
            return ['Catalogue', render('list', ['items' => array_slice($items, ($page - 1) * 40, 40),
                'page' => min($page, $pages), 'pages' => $pages, 'search' => $search,
                'categories' => $catalog->categories()])];
    }
}

[$title, $body] = route($_GET, $_POST, $_COOKIE);
echo render('layout', ['title' => $title, 'body' => $body]);
