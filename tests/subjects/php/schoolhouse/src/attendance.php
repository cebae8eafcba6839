<?php
/* A class's register: ?class=N&day=YYYY-MM-DD shows a day, a POST records it; without a day, the totals. */
require_once 'inc/common.php';

$class = find_class(int_param('class'));
if ($class === null) {
    page_header('No such class');
    echo "<p class=\"error\">There is no such class.</p>\n";
    page_footer();
    exit;
}
if (!may_see_class($class)) {
    deny('this register');
}
$students = class_students($class['id']);
$statuses = array('present', 'late', 'absent', 'excused');
$day = isset($_GET['day']) ? $_GET['day'] : '';
if ($day != '' && !preg_match('/^\d{4}-\d{2}-\d{2}$/', $day)) {
    $day = '';
}
$saved = 0;
if ($day != '' && $_SERVER['REQUEST_METHOD'] == 'POST') {
    foreach ($students as $s) {
        $key = 's' . $s['id'];
        if (!isset($_POST[$key]) || !in_array($_POST[$key], $statuses)) {
            continue;
        }
        db_exec('INSERT OR REPLACE INTO attendance (class_id, student_id, day, status) VALUES (?, ?, ?, ?)',
                array($class['id'], $s['id'], $day, $_POST[$key]));
        $saved++;
    }
}

page_header('Attendance: ' . $class['name']);
if ($day == '') {
    $days = db_all('SELECT DISTINCT day FROM attendance WHERE class_id = ? ORDER BY day', array($class['id']));
    echo "<table>\n<tr><th>Student</th><th>Present</th><th>Late</th><th>Absent</th><th>Excused</th><th>Attendance</th></tr>\n";
    foreach ($students as $s) {
        $sum = attendance_summary($class['id'], $s['id']);
        $taken = $sum['present'] + $sum['late'] + $sum['absent'] + $sum['excused'];
        $rate = $taken > 0 ? 100 * ($sum['present'] + $sum['late']) / $taken : null;
        echo '<tr><td>' . esc($s['name']) . '</td><td>' . $sum['present'] . '</td><td>' . $sum['late'] . '</td><td>'
            . $sum['absent'] . '</td><td>' . $sum['excused'] . '</td><td>' . format_percent($rate) . "</td></tr>\n";
    }
    echo "</table>\n<p>Registers taken: ";
    foreach ($days as $d) {
        echo '<a href="attendance.php?class=' . $class['id'] . '&amp;day=' . $d['day'] . '">' . $d['day'] . '</a> ';
    }
    echo "</p>\n";
} else {
    if ($saved > 0) {
        echo '<p class="message">Register saved for ' . $saved . ' students.</p>' . "\n";
    }
    $marks = array();
    foreach (db_all('SELECT student_id, status FROM attendance WHERE class_id = ? AND day = ?', array($class['id'], $day)) as $row) {
        $marks[$row['student_id']] = $row['status'];
    }
    echo '<form action="attendance.php?class=' . $class['id'] . '&amp;day=' . $day . "\" method=\"post\">\n";
    echo '<h2>' . date('l j F Y', strtotime($day)) . "</h2>\n<table>\n";
    foreach ($students as $s) {
        echo '<tr><td>' . esc($s['name']) . '</td><td>';
        foreach ($statuses as $st) {
            $checked = isset($marks[$s['id']]) && $marks[$s['id']] == $st ? ' checked' : '';
            echo '<label><input type="radio" name="s' . $s['id'] . '" value="' . $st . '"' . $checked . '> ' . $st . '</label> ';
        }
        echo "</td></tr>\n";
    }
    echo "</table>\n<p><input type=\"submit\" value=\"Save\"></p>\n</form>\n";
}
page_footer();
