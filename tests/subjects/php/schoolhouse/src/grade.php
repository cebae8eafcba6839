<?php
/* Enter or change a mark: ?class=N shows the form, a POST saves it. */
require_once 'inc/common.php';

$class = find_class(int_param('class'));
if ($class === null) {
    page_header('No such class');
    echo "<p class=\"error\">There is no such class.</p>\n";
    page_footer();
    exit;
}
if (!may_see_class($class)) {
    deny('this gradebook');
}
$assignments = class_assignments($class['id']);
$students = class_students($class['id']);
$message = '';
$errors = array();

if ($_SERVER['REQUEST_METHOD'] == 'POST') {
    $assignment = null;
    foreach ($assignments as $a) {
        if (isset($_POST['assignment']) && $a['id'] == $_POST['assignment']) {
            $assignment = $a;
        }
    }
    $student = null;
    foreach ($students as $s) {
        if (isset($_POST['student']) && $s['id'] == $_POST['student']) {
            $student = $s;
        }
    }
    $score = isset($_POST['score']) ? trim($_POST['score']) : '';
    if ($assignment === null) {
        $errors[] = 'Choose an assignment of this class.';
    }
    if ($student === null) {
        $errors[] = 'Choose a student of this class.';
    }
    if (!is_numeric($score)) {
        $errors[] = 'The mark must be a number.';
    } elseif ($assignment !== null && ($score < 0 || $score > $assignment['points'])) {
        $errors[] = 'The mark must be between 0 and ' . $assignment['points'] . '.';
    }
    if (count($errors) == 0) {
        $old = db_value('SELECT score FROM grades WHERE assignment_id = ? AND student_id = ?',
                        array($assignment['id'], $student['id']));
        if ($old === false) {
            db_exec('INSERT INTO grades (assignment_id, student_id, score) VALUES (?, ?, ?)',
                    array($assignment['id'], $student['id'], $score));
            $message = 'Mark saved: ' . $student['name'] . ', ' . $assignment['title'] . ': ' . ($score + 0) . '.';
        } else {
            db_exec('UPDATE grades SET score = ? WHERE assignment_id = ? AND student_id = ?',
                    array($score, $assignment['id'], $student['id']));
            $message = 'Mark changed from ' . ($old + 0) . ' to ' . ($score + 0) . ': ' . $student['name'] . ', '
                . $assignment['title'] . '.';
        }
        $percent = class_percent($assignments, class_scores($class['id']), $student['id']);
        $message .= ' ' . $student['name'] . ' now has ' . format_percent($percent) . ' (' . letter_grade($percent) . ').';
    }
}

page_header('Marks: ' . $class['name']);
if ($message != '') {
    echo '<p class="message">' . esc($message) . "</p>\n";
}
if (count($errors) > 0) {
    echo "<ul class=\"errors\">\n";
    foreach ($errors as $e) {
        echo '<li>' . esc($e) . "</li>\n";
    }
    echo "</ul>\n";
}
?>
<form action="grade.php?class=<?php echo $class['id']; ?>" method="post">
<p><select name="assignment">
<?php foreach ($assignments as $a): ?>
<option value="<?php echo $a['id']; ?>"><?php echo esc($a['title']); ?> (out of <?php echo $a['points']; ?>)</option>
<?php endforeach; ?>
</select>
<select name="student">
<?php foreach ($students as $s): ?>
<option value="<?php echo $s['id']; ?>"><?php echo esc($s['name']); ?></option>
<?php endforeach; ?>
</select>
<input type="text" name="score" size="5">
<input type="submit" value="Save"></p>
</form>
<?php
page_footer();
