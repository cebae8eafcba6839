<?php
/*
 * FourPlay configuration.
 */

define('ROWS', 6);
define('COLS', 7);
define('CONNECT', 4);

$fp_config = array(
    'title'        => 'FourPlay',
    'colours'      => array(1 => 'red', 2 => 'yellow'),
    'max_name'     => 16,
    'computer'     => 'Computer',
    // Where sessions are kept; PHP's own setting when empty.
    'session_dir'  => getenv('FOURPLAY_SESSION_DIR') ? getenv('FOURPLAY_SESSION_DIR') : '',
    'session_name' => 'FOURPLAY',
);

error_reporting(E_ALL);
