<?php
/* Included first by every page: configuration, libraries, the session. */
require_once dirname(__FILE__) . '/../config.php';
require_once dirname(__FILE__) . '/board.php';
require_once dirname(__FILE__) . '/game.php';
require_once dirname(__FILE__) . '/ai.php';
require_once dirname(__FILE__) . '/render.php';

if ($fp_config['session_dir'] != '') {
    session_save_path($fp_config['session_dir']);
}
session_name($fp_config['session_name']);
session_start();
if (!isset($_SESSION['scores'])) {
    $_SESSION['scores'] = array();
    $_SESSION['games'] = 0;
}
