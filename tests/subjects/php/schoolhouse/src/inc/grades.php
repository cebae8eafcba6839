<?php
/*
 * Marks: percentages, letter grades, grade points.
 */

/* The student's percentage over the graded assignments of a class, or null when none is graded. */
function class_percent($assignments, $scores, $student_id)
{
    $earned = 0;
    $possible = 0;
    foreach ($assignments as $a) {
        if (!isset($scores[$a['id']][$student_id])) {
            continue;   // not handed in or not marked yet: left out
        }
        $earned += $scores[$a['id']][$student_id];
        $possible += $a['points'];
    }
    if ($possible == 0) {
        return null;
    }
    return 100 * $earned / $possible;
}

function letter_grade($percent)
{
    if ($percent === null) {
        return '-';
    }
    if ($percent >= 90) {
        return 'A';
    } elseif ($percent >= 80) {
        return 'B';
    } elseif ($percent >= 70) {
        return 'C';
    } elseif ($percent >= 60) {
        return 'D';
    }
    return 'F';
}

function grade_points($letter)
{
    $points = array('A' => 4.0, 'B' => 3.0, 'C' => 2.0, 'D' => 1.0, 'F' => 0.0);
    return isset($points[$letter]) ? $points[$letter] : null;
}

/* Grade point average of the letters that carry points; null when none does. */
function gpa($letters)
{
    $sum = 0;
    $n = 0;
    foreach ($letters as $letter) {
        $p = grade_points($letter);
        if ($p === null) {
            continue;
        }
        $sum += $p;
        $n++;
    }
    return $n > 0 ? $sum / $n : null;
}

function format_percent($percent)
{
    return $percent === null ? '-' : number_format($percent, 1) . '%';
}

/* Attendance counts of a student in a class: present, late, absent, excused. */
function attendance_summary($class_id, $student_id)
{
    $summary = array('present' => 0, 'late' => 0, 'absent' => 0, 'excused' => 0);
    $rows = db_all('SELECT status, COUNT(*) AS n FROM attendance WHERE class_id = ? AND student_id = ? GROUP BY status',
                   array($class_id, $student_id));
    foreach ($rows as $row) {
        $summary[$row['status']] = (int) $row['n'];
    }
    return $summary;
}
