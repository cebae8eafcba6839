<?php
require_once dirname(__FILE__) . '/../config.php';
require_once dirname(__FILE__) . '/db.php';
require_once dirname(__FILE__) . '/grades.php';
require_once dirname(__FILE__) . '/auth.php';
require_once dirname(__FILE__) . '/html.php';
