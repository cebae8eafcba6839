<?php
/*
 * Numbers for people: sizes, durations, percentages, bars.
 */

function esc($text)
{
    return htmlspecialchars((string) $text, ENT_QUOTES, 'UTF-8');
}

/* A size given in KiB, in the largest unit that keeps it at 1 or more. */
function format_kib($kib)
{
    $units = array('KiB', 'MiB', 'GiB', 'TiB');
    $value = (float) $kib;
    $i = 0;
    while ($value >= 1024 && $i < count($units) - 1) {
        $value /= 1024;
        $i++;
    }
    return number_format($value, $i == 0 ? 0 : 2) . ' ' . $units[$i];
}

function format_bytes($bytes)
{
    if ($bytes < 1024) {
        return $bytes . ' B';
    }
    return format_kib($bytes / 1024);
}

/* 3 days 4 hours 5 minutes, in the page's language. */
function format_duration($seconds)
{
    $days = (int) floor($seconds / 86400);
    $hours = (int) floor(($seconds % 86400) / 3600);
    $minutes = (int) floor(($seconds % 3600) / 60);
    $parts = array();
    if ($days > 0) {
        $parts[] = $days . ' ' . t($days == 1 ? 'day' : 'days');
    }
    if ($hours > 0 || $days > 0) {
        $parts[] = $hours . ' ' . t($hours == 1 ? 'hour' : 'hours');
    }
    $parts[] = $minutes . ' ' . t($minutes == 1 ? 'minute' : 'minutes');
    return implode(' ', $parts);
}

function percent($part, $whole)
{
    if ($whole <= 0) {
        return 0;
    }
    return (int) round(100 * $part / $whole);
}

/* A bar of $pct percent, coloured by the thresholds. */
function bar($pct)
{
    global $si_config;
    $class = 'ok';
    if ($pct >= $si_config['critical_at']) {
        $class = 'critical';
    } elseif ($pct >= $si_config['warn_at']) {
        $class = 'warn';
    }
    return '<div class="bar"><div class="' . $class . '" style="width: ' . $pct . '%"></div></div> ' . $pct . '%';
}
