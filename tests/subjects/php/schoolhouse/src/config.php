<?php
/*
 * Schoolhouse configuration.
 */

$sh_config = array(
    'school'    => 'Riverside Middle School',
    // The database; created from sql/schema.sql and sql/seed.sql when empty.
    // SCHOOLHOUSE_DSN=sqlite::memory: gives every request a fresh copy.
    'dsn'       => getenv('SCHOOLHOUSE_DSN') ? getenv('SCHOOLHOUSE_DSN') : 'sqlite:' . dirname(__FILE__) . '/data/school.db',
    'news'      => 3,           // announcements on the front page
    'pass_mark' => 60,          // percent
);

error_reporting(E_ALL);
date_default_timezone_set('UTC');
