<?php
/* A class's gradebook: students against assignments, with percentages and letters. */
require_once 'inc/common.php';

$class = find_class(int_param('id'));
if ($class === null) {
    page_header('No such class');
    echo "<p class=\"error\">There is no such class.</p>\n";
    page_footer();
    exit;
}
if (!may_see_class($class)) {
    deny('this gradebook');
}
$students = class_students($class['id']);
$assignments = class_assignments($class['id']);
$scores = class_scores($class['id']);

page_header($class['name']);
echo '<p>' . esc($class['term']) . ', period ' . $class['period'] . ', room ' . esc($class['room'])
    . ', taught by ' . esc($class['teacher']) . "</p>\n";
if (count($students) == 0) {
    echo "<p>Nobody is enrolled.</p>\n";
    page_footer();
    exit;
}
echo "<table class=\"gradebook\">\n<tr><th>Student</th>";
foreach ($assignments as $a) {
    echo '<th>' . esc($a['title']) . '<br>(' . $a['points'] . ')</th>';
}
echo "<th>Percent</th><th>Grade</th></tr>\n";
$total = 0;
$counted = 0;
$failing = array();
foreach ($students as $s) {
    echo '<tr><td><a href="report.php?id=' . $s['id'] . '">' . esc($s['name']) . '</a></td>';
    foreach ($assignments as $a) {
        $score = isset($scores[$a['id']][$s['id']]) ? $scores[$a['id']][$s['id']] : null;
        echo '<td>' . ($score === null ? '&ndash;' : $score + 0) . '</td>';
    }
    $percent = class_percent($assignments, $scores, $s['id']);
    echo '<td>' . format_percent($percent) . '</td><td>' . letter_grade($percent) . "</td></tr>\n";
    if ($percent !== null) {
        $total += $percent;
        $counted++;
        if ($percent < $sh_config['pass_mark']) {
            $failing[] = $s['name'];
        }
    }
}
echo "</table>\n";
if ($counted > 0) {
    echo '<p>Class average: ' . format_percent($total / $counted) . "</p>\n";
}
if (count($failing) > 0) {
    echo '<p class="warning">Below ' . $sh_config['pass_mark'] . '%: ' . esc(implode(', ', $failing)) . "</p>\n";
}
echo '<p><a href="grade.php?class=' . $class['id'] . '">Enter marks</a> | <a href="attendance.php?class='
    . $class['id'] . "\">Attendance</a></p>\n";
page_footer();
