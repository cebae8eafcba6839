<?php
$strings = array(
    'vitals' => 'System vitals', 'hostname' => 'Host name', 'kernel' => 'Kernel',
    'uptime' => 'Uptime', 'load' => 'Load averages', 'cpus' => 'Processors',
    'cpu' => 'Hardware', 'model' => 'Model', 'speed' => 'Speed', 'cache' => 'Cache',
    'memory' => 'Memory', 'type' => 'Type', 'used' => 'Used', 'free' => 'Free', 'size' => 'Size',
    'usage' => 'Usage', 'physical' => 'Physical memory', 'programs' => 'Programs',
    'buffers' => 'Buffers and cache', 'swap' => 'Swap space', 'noswap' => 'no swap space',
    'disks' => 'Mounted file systems', 'mount' => 'Mount point', 'device' => 'Device',
    'totals' => 'Totals', 'network' => 'Network', 'interface' => 'Interface',
    'received' => 'Received', 'sent' => 'Sent', 'errors' => 'Errors / packets',
    'unavailable' => 'not available', 'day' => 'day', 'days' => 'days', 'hour' => 'hour',
    'hours' => 'hours', 'minute' => 'minute', 'minutes' => 'minutes', 'busy' => 'busy',
    'language' => 'Language', 'show' => 'Show',
);
