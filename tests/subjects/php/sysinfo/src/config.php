<?php
/*
 * SysInfo configuration.
 */

$si_config = array(
    'title'       => 'SysInfo',
    // The file system to read /proc and /etc from.  A relative path is
    // taken from this directory (a copy of another machine's files, for
    // showing it or for testing).  SYSINFO_ROOT overrides it.
    'root'        => getenv('SYSINFO_ROOT') ? getenv('SYSINFO_ROOT') : '/',
    'languages'   => array('en' => 'English', 'de' => 'Deutsch', 'fr' => 'Français'),
    'language'    => 'en',
    'sections'    => array('vitals', 'cpu', 'memory', 'disks', 'network'),
    'hide_fs'     => array('proc', 'sysfs', 'tmpfs', 'devtmpfs', 'devpts', 'cgroup', 'cgroup2', 'securityfs', 'debugfs'),
    'warn_at'     => 75,    // a bar turns orange at this percentage
    'critical_at' => 90,    // and red at this one
);

error_reporting(E_ALL);
