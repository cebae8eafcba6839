<?php
/*
 * Who is looking: the cookie "sh_login" holds login:md5(password).
 */

function current_user()
{
    static $user = false;
    if ($user !== false) {
        return $user;
    }
    $user = null;
    if (isset($_COOKIE['sh_login']) && strpos($_COOKIE['sh_login'], ':') !== false) {
        list($login, $hash) = explode(':', $_COOKIE['sh_login'], 2);
        $row = db_row('SELECT * FROM users WHERE login = ?', array($login));
        if ($row !== null && $row['password'] === $hash) {
            $user = $row;
        }
    }
    return $user;
}

function user_is($role)
{
    $user = current_user();
    return $user !== null && $user['role'] == $role;
}

/* Teachers may see their own classes; the office sees every class. */
function may_see_class($class)
{
    $user = current_user();
    if ($user === null) {
        return false;
    }
    return $user['role'] == 'admin' || ($user['role'] == 'teacher' && $user['id'] == $class['teacher_id']);
}

/* Students may see their own record; teachers and the office anyone's. */
function may_see_student($student_id)
{
    $user = current_user();
    if ($user === null) {
        return false;
    }
    return $user['role'] != 'student' || $user['id'] == $student_id;
}

function deny($what)
{
    page_header('Not allowed');
    echo '<p class="error">You may not see ' . esc($what) . ". <a href=\"index.php\">Log in</a> first.</p>\n";
    page_footer();
    exit;
}
