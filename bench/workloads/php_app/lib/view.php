<?php
// view.php - the templates of the request workload: output-buffered PHP
// templates with escaping, as plain-PHP applications write them.
declare(strict_types=1);

function e(string $text): string
{
    return htmlspecialchars($text, ENT_QUOTES | ENT_HTML5, 'UTF-8');
}

function money(int $cents): string
{
    return number_format($cents / 100, 2, '.', ',');
}

function stars(int $rating): string
{
    $out = '';
    for ($i = 1; $i <= 5; $i++) {
        $out .= $i <= $rating ? '*' : '.';
    }
    return $out;
}

// A short description of an item, wrapped at 40 columns: the text
// processing of a real page (a Markdown filter, a summary).
function describe(array $item): string
{
    $words = explode(' ', strtolower($item['name']) . ' for every ' . $item['category']
        . ' lover, rated ' . $item['rating'] . ' of 5 by our customers and ' . ($item['stock'] > 0
        ? 'ready to ship today' : 'back soon'));
    $lines = [];
    $line = '';
    foreach ($words as $word) {
        if ($line !== '' && strlen($line) + 1 + strlen($word) > 40) {
            $lines[] = $line;
            $line = $word;
        } else {
            $line = $line === '' ? ucfirst($word) : "$line $word";
        }
    }
    $lines[] = $line;
    return implode("\n", $lines);
}

function render(string $template, array $data): string
{
    ob_start();
    switch ($template) {
        case 'layout': ?>
<!DOCTYPE html>
<html><head><title><?= e($data['title']) ?> - Shop</title></head>
<body><nav><a href="?page=list">Catalogue</a> <a href="?page=basket">Basket</a></nav>
<main><?= $data['body'] ?></main></body></html>
<?php break;
        case 'list': ?>
<form><input name="q" value="<?= e($data['search']) ?>"><select name="category"><option value="">all</option>
<?php foreach ($data['categories'] as $category): ?>
<option><?= e($category) ?></option>
<?php endforeach ?>
</select></form>
<table>
<?php foreach ($data['items'] as $item): ?>
<tr><td><a href="?page=item&amp;id=<?= $item['id'] ?>"><?= e($item['name']) ?></a></td>
<td><?= money($item['price']) ?></td><td><?= stars($item['rating']) ?></td>
<td><?= $item['stock'] > 0 ? 'in stock' : 'sold out' ?></td><td><?= nl2br(e(describe($item))) ?></td></tr>
<?php endforeach ?>
</table>
<p>page <?= $data['page'] ?> of <?= $data['pages'] ?></p>
<?php break;
        case 'item':
            $item = $data['item']; ?>
<h1><?= e($item['name']) ?></h1><p><?= money($item['price']) ?> <?= stars($item['rating']) ?></p>
<ul><?php foreach ($data['related'] as $other): ?><li><?= e($other['name']) ?></li><?php endforeach ?></ul>
<?php break;
        case 'basket': ?>
<table><?php foreach ($data['lines'] as $line): ?>
<tr><td><?= e($line['item']['name']) ?></td><td><?= $line['quantity'] ?></td><td><?= money($line['sum']) ?></td></tr>
<?php endforeach ?></table><p>total <?= money($data['total']) ?></p>
<?php break;
        case 'checkout':
            if ($data['done']): ?>
<p>Thank you, <?= e($data['post']['name']) ?>: <?= money($data['total']) ?> will be charged.</p>
<?php else: ?>
<ul><?php foreach ($data['errors'] as $field => $error): ?><li><?= e($field) ?>: <?= e($error) ?></li><?php endforeach ?></ul>
<form method="post"><input name="name"><input name="email"><input name="zip"></form>
<?php endif;
            break;
        default: ?>
<p>No item <?= e((string)$data['id']) ?>.</p>
<?php
    }
    return (string)ob_get_clean();
}
