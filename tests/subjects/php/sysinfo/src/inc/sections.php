<?php
/*
 * The sections of the page, one function each: section_vitals() ...
 */

function section_vitals()
{
    $uptime = uptime_seconds();
    $load = load_average();
    $cpus = count(cpu_list());
    $kernel = kernel_version();
    echo '<h2>' . t('vitals') . "</h2>\n<table class=\"info\">\n";
    echo '<tr><th>' . t('hostname') . '</th><td>' . esc(host_name()) . "</td></tr>\n";
    echo '<tr><th>' . t('kernel') . '</th><td>' . ($kernel === null ? t('unavailable') : esc($kernel)) . "</td></tr>\n";
    echo '<tr><th>' . t('uptime') . '</th><td>' . ($uptime === null ? t('unavailable') : format_duration($uptime)) . "</td></tr>\n";
    echo '<tr><th>' . t('load') . '</th><td>';
    if ($load === null) {
        echo t('unavailable');
    } else {
        $shown = array();
        foreach ($load as $value) {
            $text = number_format($value, 2);
            if ($cpus > 0 && $value > $cpus) {
                $text = '<span class="busy" title="' . t('busy') . '">' . $text . '</span>';
            }
            $shown[] = $text;
        }
        echo implode(' ', $shown);
    }
    echo "</td></tr>\n";
    echo '<tr><th>' . t('cpus') . '</th><td>' . $cpus . "</td></tr>\n</table>\n";
}

function section_cpu()
{
    $cpus = cpu_list();
    echo '<h2>' . t('cpu') . "</h2>\n";
    if (count($cpus) == 0) {
        echo '<p>' . t('unavailable') . "</p>\n";
        return;
    }
    // identical processors are shown once, with a count
    $groups = array();
    foreach ($cpus as $cpu) {
        $key = $cpu['model'] . '|' . $cpu['cache'];
        if (!isset($groups[$key])) {
            $groups[$key] = array('cpu' => $cpu, 'count' => 0, 'mhz' => 0);
        }
        $groups[$key]['count']++;
        $groups[$key]['mhz'] = max($groups[$key]['mhz'], $cpu['mhz']);
    }
    echo '<table class="info">' . "\n<tr><th>" . t('model') . '</th><th>' . t('speed') . '</th><th>' . t('cache') . "</th></tr>\n";
    foreach ($groups as $g) {
        $mhz = $g['mhz'];
        $speed = $mhz >= 1000 ? number_format($mhz / 1000, 2) . ' GHz' : number_format($mhz) . ' MHz';
        echo '<tr><td>' . ($g['count'] > 1 ? $g['count'] . ' &times; ' : '') . esc($g['cpu']['model']) . '</td><td>'
            . $speed . '</td><td>' . ($g['cpu']['cache'] == '' ? '-' : esc($g['cpu']['cache'])) . "</td></tr>\n";
    }
    echo "</table>\n";
}

function section_memory()
{
    $mem = memory_usage();
    echo '<h2>' . t('memory') . "</h2>\n";
    if ($mem === null) {
        echo '<p>' . t('unavailable') . "</p>\n";
        return;
    }
    echo '<table class="info">' . "\n<tr><th>" . t('type') . '</th><th>' . t('usage') . '</th><th>' . t('free')
        . '</th><th>' . t('used') . '</th><th>' . t('size') . "</th></tr>\n";
    $rows = array(
        array(t('physical'), $mem['total'] - $mem['free'], $mem['free'], $mem['total']),
        array('&ndash; ' . t('programs'), $mem['used'], null, $mem['total']),
        array('&ndash; ' . t('buffers'), $mem['buffers'] + $mem['cached'], null, $mem['total']),
    );
    foreach ($rows as $row) {
        list($label, $used, $free, $total) = $row;
        echo '<tr><td>' . $label . '</td><td>' . bar(percent($used, $total)) . '</td><td>'
            . ($free === null ? '' : format_kib($free)) . '</td><td>' . format_kib($used) . '</td><td>'
            . ($free === null ? '' : format_kib($total)) . "</td></tr>\n";
    }
    if ($mem['swap_total'] > 0) {
        echo '<tr><td>' . t('swap') . '</td><td>' . bar(percent($mem['swap_used'], $mem['swap_total'])) . '</td><td>'
            . format_kib($mem['swap_total'] - $mem['swap_used']) . '</td><td>' . format_kib($mem['swap_used'])
            . '</td><td>' . format_kib($mem['swap_total']) . "</td></tr>\n";
    } else {
        echo '<tr><td>' . t('swap') . '</td><td colspan="4">' . t('noswap') . "</td></tr>\n";
    }
    echo "</table>\n";
}

function section_disks()
{
    $list = file_systems();
    echo '<h2>' . t('disks') . "</h2>\n";
    if ($list === null) {
        echo '<p>' . t('unavailable') . "</p>\n";
        return;
    }
    echo '<table class="info">' . "\n<tr><th>" . t('mount') . '</th><th>' . t('type') . '</th><th>' . t('device')
        . '</th><th>' . t('usage') . '</th><th>' . t('free') . '</th><th>' . t('used') . '</th><th>' . t('size') . "</th></tr>\n";
    $size = $used = $free = 0;
    foreach ($list as $fs) {
        echo '<tr><td>' . esc($fs['mount']) . '</td><td>' . esc($fs['type']) . '</td><td>' . esc($fs['device']) . '</td><td>'
            . bar(percent($fs['used'], $fs['used'] + $fs['free'])) . '</td><td>' . format_kib($fs['free']) . '</td><td>'
            . format_kib($fs['used']) . '</td><td>' . format_kib($fs['size']) . "</td></tr>\n";
        $size += $fs['size'];
        $used += $fs['used'];
        $free += $fs['free'];
    }
    echo '<tr class="total"><td colspan="3">' . t('totals') . '</td><td>' . bar(percent($used, $used + $free)) . '</td><td>'
        . format_kib($free) . '</td><td>' . format_kib($used) . '</td><td>' . format_kib($size) . "</td></tr>\n</table>\n";
}

function section_network()
{
    $devices = network_devices();
    echo '<h2>' . t('network') . "</h2>\n";
    if ($devices === null) {
        echo '<p>' . t('unavailable') . "</p>\n";
        return;
    }
    echo '<table class="info">' . "\n<tr><th>" . t('interface') . '</th><th>' . t('received') . '</th><th>' . t('sent')
        . '</th><th>' . t('errors') . "</th></tr>\n";
    foreach ($devices as $name => $d) {
        if ($name == 'lo' && $d['rx_bytes'] == 0) {
            continue;
        }
        $packets = $d['rx_packets'] + $d['tx_packets'];
        $errors = $d['rx_errors'] + $d['tx_errors'];
        echo '<tr><td>' . esc($name) . '</td><td>' . format_bytes($d['rx_bytes']) . '</td><td>' . format_bytes($d['tx_bytes'])
            . '</td><td>' . $errors . ' / ' . $packets . "</td></tr>\n";
    }
    echo "</table>\n";
}
