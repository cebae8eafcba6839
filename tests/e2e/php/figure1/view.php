<?php
// view.php - seeds/000 Figure 1(d): shows a topic to a logged-in user,
// and administrative details to the administrator.
require dirname(__FILE__) . '/constants.php';
session_start();
if (!isset($_SESSION[$userTag]) || !check_password($_SESSION[$userTag], $_SESSION[$pwTag])) {
    echo "<html><head><title>View</title></head><body><p>Please log in.</p></body></html>\n";
    exit;
}
$topic = isset($_GET['topic']) ? $_GET['topic'] : 'news';
?>
<html>
<head><title>View</title></head>
<body>
<h1><?php echo htmlspecialchars($topic); ?></h1>
<?php
foreach (entries_for($topic) as $entry) {
    echo '<p>' . htmlspecialchars($entry) . "</p>\n";
}
if (isset($_SESSION[$typeTag]) && $_SESSION[$typeTag] == 'admin') {
    echo "<h2>Administrative details\n"; // the fault: the h2 is never closed
    echo '<p>' . count(entries_for($topic)) . " entries</p>\n";
}
?>
</body>
</html>
