<?php
/* The page frame and small HTML helpers. */

function esc($text)
{
    return htmlspecialchars((string) $text, ENT_QUOTES, 'UTF-8');
}

function page_header($title)
{
    global $sh_config;
    $user = current_user();
    echo "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
    echo '<title>' . esc($title) . ' | ' . esc($sh_config['school']) . "</title>\n</head>\n<body>\n";
    echo '<div class="top"><strong>' . esc($sh_config['school']) . '</strong>';
    if ($user !== null) {
        echo ' &mdash; ' . esc($user['name']) . ' (' . $user['role'] . ')';
    }
    echo "</div>\n<ul class=\"nav\">\n<li><a href=\"index.php\">Home</a></li>\n<li><a href=\"classes.php\">Classes</a></li>\n";
    if ($user !== null && $user['role'] == 'student') {
        echo '<li><a href="report.php?id=' . $user['id'] . "\">My report</a></li>\n";
    }
    echo "</ul>\n<h1>" . esc($title) . "</h1>\n";
}

function page_footer()
{
    echo "<hr>\n<p class=\"small\">Schoolhouse 0.9</p>\n</body>\n</html>\n";
}

function int_param($name)
{
    return isset($_GET[$name]) && ctype_digit((string) $_GET[$name]) ? (int) $_GET[$name] : 0;
}
