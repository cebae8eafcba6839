<?php
/* Every page starts by including this file. */
require_once dirname(__FILE__) . '/../config.php';
require_once dirname(__FILE__) . '/functions.php';
require_once dirname(__FILE__) . '/db.php';
require_once dirname(__FILE__) . '/auth.php';
require_once dirname(__FILE__) . '/layout.php';
require_once dirname(__FILE__) . '/markup.php';
