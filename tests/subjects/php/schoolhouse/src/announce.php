<?php
/* The office posts announcements. */
require_once 'inc/common.php';

if (!user_is('admin')) {
    deny('this page');
}
$user = current_user();
$errors = array();
$title = isset($_POST['title']) ? trim($_POST['title']) : '';
$body = isset($_POST['body']) ? trim($_POST['body']) : '';
$posted = isset($_POST['posted']) ? $_POST['posted'] : date('Y-m-d');
if ($_SERVER['REQUEST_METHOD'] == 'POST') {
    if ($title == '') {
        $errors[] = 'The announcement needs a title.';
    }
    if (strlen($body) < 10) {
        $errors[] = 'Write at least ten characters.';
    }
    if (count($errors) == 0) {
        db_exec('INSERT INTO announcements (posted, author_id, title, body) VALUES (?, ?, ?, ?)',
                array($posted, $user['id'], $title, $body));
        $title = $body = '';
    }
}
$all = db_all('SELECT a.*, u.name AS author FROM announcements a JOIN users u ON u.id = a.author_id ORDER BY a.posted DESC, a.id DESC');

page_header('Announcements');
foreach ($errors as $e) {
    echo '<p class="error">' . esc($e) . "</p>\n";
}
?>
<form action="announce.php" method="post">
<p><input type="text" name="title" size="40" value="<?php echo esc($title); ?>"></p>
<p><textarea name="body" rows="4" cols="60"><?php echo esc($body); ?></textarea></p>
<p><input type="submit" value="Post"></p>
</form>
<table>
<tr><th>Date</th><th>Title</th><th>By</th></tr>
<?php foreach ($all as $a): ?>
<tr><td><?php echo $a['posted']; ?></td><td><?php echo esc($a['title']); ?></td><td><?php echo esc($a['author']); ?></td></tr>
<?php endforeach; ?>
</table>
<?php
page_footer();
