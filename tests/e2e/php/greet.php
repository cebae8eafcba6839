<?php
// greet.php - a page for tests/e2e/test_php_cgi.sh: a greeting from a query
// field and a language cookie, and an order list from a POST form.  Seeded
// fault: line 12 does not escape the name (a German greeting of a name
// with markup breaks the page).
function greeting(string $name, string $lang): string
{
    if ($lang === 'fr') {
        return 'Bonjour, ' . htmlspecialchars($name);
    }
    if ($lang === 'de') {
        return 'Hallo, ' . $name;
    }
    return 'Hello, ' . htmlspecialchars($name);
}

function order(array $items): void
{
    echo "<ul>\n";
    foreach ($items as $item) {
        echo '<li>', htmlspecialchars($item), "</li>\n";
    }
    echo "</ul>\n";
}

$lang = $_COOKIE['lang'] ?? 'en';
$name = $_GET['name'] ?? 'guest';
?>
<html><head><title>greet</title></head><body>
<h1><?= greeting($name, $lang) ?></h1>
<?php
if ($_SERVER['REQUEST_METHOD'] === 'POST') {
    $items = array_filter(explode(',', $_POST['items'] ?? ''), 'strlen');
    if (count($items) > 0) {
        order($items);
    } else {
        echo "<p>nothing ordered</p>\n";
    }
}
?>
</body></html>
