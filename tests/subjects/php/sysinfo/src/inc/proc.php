<?php
/*
 * Reading the machine: /proc, /etc and the output of df, below the
 * configured root.
 */

function root_path($path)
{
    global $si_config;
    $root = $si_config['root'];
    if ($root[0] != '/') {
        $root = dirname(__FILE__) . '/../' . $root;
    }
    return rtrim($root, '/') . $path;
}

/* The lines of a file, or null when it cannot be read. */
function read_lines($path)
{
    $file = root_path($path);
    if (!is_readable($file)) {
        return null;
    }
    return file($file, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES);
}

function read_first_line($path)
{
    $lines = read_lines($path);
    return $lines === null || count($lines) == 0 ? null : trim($lines[0]);
}

function host_name()
{
    $name = read_first_line('/etc/hostname');
    return $name === null ? 'localhost' : $name;
}

function kernel_version()
{
    $v = read_first_line('/proc/version');
    if ($v === null) {
        return null;
    }
    $parts = explode(' ', $v);
    return isset($parts[2]) ? $parts[2] : $v;
}

/* Seconds since boot, or null. */
function uptime_seconds()
{
    $line = read_first_line('/proc/uptime');
    if ($line === null) {
        return null;
    }
    $parts = explode(' ', $line);
    return (int) $parts[0];
}

/* The three load averages, or null. */
function load_average()
{
    $line = read_first_line('/proc/loadavg');
    if ($line === null) {
        return null;
    }
    $parts = explode(' ', $line);
    return array((float) $parts[0], (float) $parts[1], (float) $parts[2]);
}

/* Processors: array of array('model' => ..., 'mhz' => ..., 'cache' => ...). */
function cpu_list()
{
    $lines = read_lines('/proc/cpuinfo');
    if ($lines === null) {
        return array();
    }
    $cpus = array();
    $cpu = null;
    foreach ($lines as $line) {
        if (strpos($line, ':') === false) {
            continue;
        }
        list($key, $value) = explode(':', $line, 2);
        $key = trim($key);
        $value = trim($value);
        if ($key == 'processor') {
            if ($cpu !== null) {
                $cpus[] = $cpu;
            }
            $cpu = array('model' => 'unknown', 'mhz' => 0, 'cache' => '');
        } elseif ($cpu === null) {
            continue;
        } elseif ($key == 'model name') {
            $cpu['model'] = preg_replace('/\s+/', ' ', $value);
        } elseif ($key == 'cpu MHz') {
            $cpu['mhz'] = (float) $value;
        } elseif ($key == 'cache size') {
            $cpu['cache'] = $value;
        }
    }
    if ($cpu !== null) {
        $cpus[] = $cpu;
    }
    return $cpus;
}

/* /proc/meminfo in KiB: array('MemTotal' => ..., ...), or null. */
function mem_info()
{
    $lines = read_lines('/proc/meminfo');
    if ($lines === null) {
        return null;
    }
    $info = array();
    foreach ($lines as $line) {
        if (preg_match('/^(\w+):\s+(\d+)/', $line, $m)) {
            $info[$m[1]] = (int) $m[2];
        }
    }
    return $info;
}

/*
 * Memory figures in KiB: total, free, used by programs, buffers and cache,
 * and the swap space.
 */
function memory_usage()
{
    $info = mem_info();
    if ($info === null || !isset($info['MemTotal'])) {
        return null;
    }
    $get = function ($key) use ($info) {
        return isset($info[$key]) ? $info[$key] : 0;
    };
    $total = $info['MemTotal'];
    $free = $get('MemFree');
    $buffers = $get('Buffers');
    $cached = $get('Cached');
    return array(
        'total' => $total,
        'free' => $free,
        'buffers' => $buffers,
        'cached' => $cached,
        'used' => $total - $free - $buffers - $cached,
        'swap_total' => $get('SwapTotal'),
        'swap_used' => $get('SwapTotal') - $get('SwapFree'),
    );
}

/* Network interfaces: name => array(rx bytes, rx packets, rx errors, tx bytes, tx packets, tx errors). */
function network_devices()
{
    $lines = read_lines('/proc/net/dev');
    if ($lines === null) {
        return null;
    }
    $devices = array();
    foreach ($lines as $line) {
        if (strpos($line, ':') === false) {
            continue;   // the two header lines
        }
        list($name, $data) = explode(':', $line, 2);
        $f = preg_split('/\s+/', trim($data));
        $devices[trim($name)] = array(
            'rx_bytes' => (int) $f[0], 'rx_packets' => (int) $f[1], 'rx_errors' => (int) $f[2],
            'tx_bytes' => (int) $f[8], 'tx_packets' => (int) $f[9], 'tx_errors' => (int) $f[10],
        );
    }
    ksort($devices);
    return $devices;
}

/*
 * Mounted file systems with their sizes in KiB, from the output of
 * `df -kPT` (saved as /df.txt below a root other than /, run otherwise).
 */
function file_systems()
{
    global $si_config;
    if ($si_config['root'] == '/') {
        $out = array();
        exec('df -kPT 2>/dev/null', $out);
    } else {
        $out = read_lines('/df.txt');
    }
    if ($out === null || count($out) < 2) {
        return null;
    }
    $list = array();
    foreach (array_slice($out, 1) as $line) {
        $f = preg_split('/\s+/', trim($line), 7);
        if (count($f) < 7 || in_array($f[1], $si_config['hide_fs'])) {
            continue;
        }
        $list[] = array('device' => $f[0], 'type' => $f[1], 'size' => (int) $f[2], 'used' => (int) $f[3],
                        'free' => (int) $f[4], 'mount' => $f[6]);
    }
    usort($list, function ($a, $b) {
        return strcmp($a['mount'], $b['mount']);
    });
    return $list;
}
