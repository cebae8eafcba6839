<?php
require_once 'inc/common.php';

$news = db_all('SELECT a.*, u.name AS author FROM announcements a JOIN users u ON u.id = a.author_id
                ORDER BY a.posted DESC LIMIT ' . (int) $sh_config['news']);
$user = current_user();

page_header('Welcome');
if ($user === null) {
    ?>
<form action="login.php" method="post">
<p><label>Login <input type="text" name="login"></label>
<label>Password <input type="password" name="password"></label>
<input type="submit" value="Log in"></p>
</form>
<?php
} elseif ($user['role'] == 'teacher') {
    $classes = db_all('SELECT id, name, period FROM classes WHERE teacher_id = ? ORDER BY period', array($user['id']));
    echo "<h2>Your classes</h2>\n<ul>\n";
    foreach ($classes as $c) {
        echo '<li><a href="class.php?id=' . $c['id'] . '">' . esc($c['name']) . '</a>, period ' . $c['period'] . "</li>\n";
    }
    echo "</ul>\n";
} elseif ($user['role'] == 'student') {
    echo '<p>See <a href="report.php?id=' . $user['id'] . "\">your report card</a>.</p>\n";
} else {
    echo "<p><a href=\"announce.php\">Post an announcement</a></p>\n";
}
?>
<h2>Announcements</h2>
<?php foreach ($news as $item): ?>
<div class="news">
<h3><?php echo esc($item['title']); ?></h3>
<p class="small"><?php echo date('j F Y', strtotime($item['posted'])); ?>, <?php echo esc($item['author']); ?></p>
<p><?php echo esc($item['body']); ?></p>
</div>
<?php endforeach; ?>
<?php
page_footer();
