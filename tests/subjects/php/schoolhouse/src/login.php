<?php
require_once 'inc/common.php';

$login = isset($_POST['login']) ? trim($_POST['login']) : '';
$password = isset($_POST['password']) ? $_POST['password'] : '';
$row = $login != '' ? db_row('SELECT * FROM users WHERE login = ?', array($login)) : null;
if ($row !== null && $row['password'] === md5($password)) {
    setcookie('sh_login', $row['login'] . ':' . $row['password']);
    page_header('Logged in');
    echo '<p>Hello, ' . esc($row['name']) . ". <a href=\"index.php\">Continue</a></p>\n";
} else {
    page_header('Log in');
    echo "<p class=\"error\">Unknown login or wrong password.</p>\n<p><a href=\"index.php\">Try again</a></p>\n";
}
page_footer();
