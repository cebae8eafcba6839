<?php
require_once 'inc/common.php';

$message = '';
if ($_SERVER['REQUEST_METHOD'] == 'POST') {
    $user = post_str('user');
    $password = isset($_POST['password']) ? (string) $_POST['password'] : '';
    if ($user == '' || $password == '') {
        $message = 'Please give both your name and your password.';
    } elseif (check_login($user, $password)) {
        setcookie('faq_user', $user);
        setcookie('faq_pass', md5($password));
        $_COOKIE['faq_user'] = $user;
        $_COOKIE['faq_pass'] = md5($password);
        page_header('Logged in', 'login');
        echo '<p>Welcome back, ' . h($user) . ". <a href=\"index.php\">Continue</a>.</p>\n";
        page_footer();
        exit;
    } else {
        $message = 'Wrong name or password.';
    }
}
if (param_str('logout') == '1') {
    setcookie('faq_user', '', 1);
    setcookie('faq_pass', '', 1);
    unset($_COOKIE['faq_user'], $_COOKIE['faq_pass']);
    $message = 'You are logged out.';
}

page_header('Log in', 'login');
if ($message != '') {
    echo '<p class="message">' . h($message) . "</p>\n";
}
?>
<form action="login.php" method="post">
<table class="form">
<tr><td><label for="user">Name</label></td><td><input type="text" id="user" name="user" value="<?php echo h(post_str('user')); ?>"></td></tr>
<tr><td><label for="password">Password</label></td><td><input type="password" id="password" name="password"></td></tr>
</table>
<p><input type="submit" value="Log in"></p>
</form>
<?php
page_footer();
