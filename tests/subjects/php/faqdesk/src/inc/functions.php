<?php
/*
 * General helpers: escaping, dates, text, request parameters.
 */

function h($text)
{
    return htmlspecialchars($text, ENT_QUOTES, 'UTF-8');
}

function format_date($iso)
{
    global $faq_config;
    $ts = strtotime($iso . ' 00:00:00');
    if ($ts === false) {
        return 'unknown';
    }
    return date($faq_config['date_format'], $ts);
}

/* The first words of a text, up to $len characters, with an ellipsis. */
function excerpt($text, $len)
{
    $text = trim(preg_replace('/\s+/', ' ', strip_tags($text)));
    if (strlen($text) <= $len) {
        return $text;
    }
    $cut = substr($text, 0, $len);
    $space = strrpos($cut, ' ');
    if ($space !== false && $space > $len / 2) {
        $cut = substr($cut, 0, $space);
    }
    return rtrim($cut, ' ,.;:') . '...';
}

/* An integer request parameter, or $default when absent or not a number. */
function param_int($name, $default = 0)
{
    if (!isset($_GET[$name]) || !is_numeric($_GET[$name])) {
        return $default;
    }
    return (int) $_GET[$name];
}

function param_str($name, $default = '')
{
    if (!isset($_GET[$name])) {
        return $default;
    }
    return trim((string) $_GET[$name]);
}

function post_str($name)
{
    return isset($_POST[$name]) ? trim((string) $_POST[$name]) : '';
}

/* Wrap every occurrence of the words of $query in <mark>; $text is plain. */
function highlight($text, $query)
{
    $out = h($text);
    foreach (preg_split('/\s+/', trim($query)) as $word) {
        if (strlen($word) < 2) {
            continue;
        }
        $out = preg_replace('/(' . preg_quote(h($word), '/') . ')/i', '<mark>$1</mark>', $out);
    }
    return $out;
}

function plural($n, $one, $many)
{
    return $n . ' ' . ($n == 1 ? $one : $many);
}

/* Page links: « 1 2 3 » with the current page not linked. */
function pager($base, $page, $pages)
{
    if ($pages <= 1) {
        return '';
    }
    $sep = strpos($base, '?') === false ? '?' : '&amp;';
    $html = '<p class="pager">';
    if ($page > 1) {
        $html .= '<a href="' . $base . $sep . 'page=' . ($page - 1) . '">&laquo; previous</a> ';
    }
    for ($i = 1; $i <= $pages; $i++) {
        if ($i == $page) {
            $html .= '<strong>' . $i . '</strong> ';
        } else {
            $html .= '<a href="' . $base . $sep . 'page=' . $i . '">' . $i . '</a> ';
        }
    }
    if ($page < $pages) {
        $html .= '<a href="' . $base . $sep . 'page=' . ($page + 1) . '">next &raquo;</a>';
    }
    return rtrim($html) . "</p>\n";
}
