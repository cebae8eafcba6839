<?php
/*
 * The administrator: a cookie holding the user name and the password's hash.
 * (FAQDesk has one administrator; readers need no account.)
 */

function is_admin()
{
    global $faq_config;
    if (!isset($_COOKIE['faq_user']) || !isset($_COOKIE['faq_pass'])) {
        return false;
    }
    return $_COOKIE['faq_user'] === $faq_config['admin_user']
        && $_COOKIE['faq_pass'] === $faq_config['admin_hash'];
}

function check_login($user, $password)
{
    global $faq_config;
    return $user === $faq_config['admin_user'] && md5($password) === $faq_config['admin_hash'];
}

function require_admin()
{
    if (!is_admin()) {
        page_header('Administrators only');
        echo "<p class=\"error\">You must <a href=\"login.php\">log in</a> to see this page.</p>\n";
        page_footer();
        exit;
    }
}
