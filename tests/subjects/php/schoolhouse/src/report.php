<?php
/* A student's report card: every class with its mark and attendance, and the GPA per term. */
require_once 'inc/common.php';

$student = find_user(int_param('id'));
if ($student === null || $student['role'] != 'student') {
    page_header('No such student');
    echo "<p class=\"error\">There is no such student.</p>\n";
    page_footer();
    exit;
}
if (!may_see_student($student['id'])) {
    deny('this report card');
}

page_header('Report card: ' . $student['name']);
$classes = student_classes($student['id']);
if (count($classes) == 0) {
    echo "<p>Not enrolled in any class.</p>\n";
    page_footer();
    exit;
}
$by_term = array();
foreach ($classes as $c) {
    $by_term[$c['term']][] = $c;
}
foreach ($by_term as $term => $list) {
    echo '<h2>' . esc($term) . "</h2>\n";
    echo "<table class=\"report\">\n<tr><th>Class</th><th>Teacher</th><th>Percent</th><th>Grade</th><th>Absent</th><th>Late</th></tr>\n";
    $letters = array();
    foreach ($list as $c) {
        $percent = class_percent(class_assignments($c['id']), class_scores($c['id']), $student['id']);
        $letter = letter_grade($percent);
        $letters[] = $letter;
        $att = attendance_summary($c['id'], $student['id']);
        echo '<tr><td>' . esc($c['name']) . '</td><td>' . esc($c['teacher']) . '</td><td>' . format_percent($percent)
            . '</td><td>' . $letter . '</td><td>' . $att['absent'] . '</td><td>' . $att['late'] . "</td></tr>\n";
    }
    echo "</table>\n";
    $g = gpa($letters);
    echo '<p>Grade point average: ' . ($g === null ? 'not yet graded' : number_format($g, 2)) . "</p>\n";
}
page_footer();
