<?php
/* Every class of a term, with its teacher and number of students. */
require_once 'inc/common.php';

$terms = db_all('SELECT * FROM terms ORDER BY starts');
$term_id = int_param('term');
if ($term_id == 0) {
    $term_id = $terms[0]['id'];
}
$classes = db_all('SELECT c.id, c.name, c.period, c.room, u.name AS teacher, COUNT(e.student_id) AS students
                   FROM classes c JOIN users u ON u.id = c.teacher_id
                   LEFT JOIN enrolments e ON e.class_id = c.id
                   WHERE c.term_id = ? GROUP BY c.id ORDER BY c.period, c.name', array($term_id));

page_header('Classes');
echo '<p>Term: ';
foreach ($terms as $i => $t) {
    if ($i > 0) {
        echo ' | ';
    }
    if ($t['id'] == $term_id) {
        echo '<strong>' . esc($t['name']) . '</strong>';
    } else {
        echo '<a href="classes.php?term=' . $t['id'] . '">' . esc($t['name']) . '</a>';
    }
}
echo "</p>\n";
if (count($classes) == 0) {
    echo "<p>No classes in this term.</p>\n";
} else {
    echo "<table>\n<tr><th>Period</th><th>Class</th><th>Teacher</th><th>Room</th><th>Students</th></tr>\n";
    foreach ($classes as $c) {
        echo '<tr><td>' . $c['period'] . '</td><td><a href="class.php?id=' . $c['id'] . '">' . esc($c['name'])
            . '</a></td><td>' . esc($c['teacher']) . '</td><td>' . esc($c['room']) . '</td><td>'
            . $c['students'] . "</td></tr>\n";
    }
    echo "</table>\n";
}
page_footer();
