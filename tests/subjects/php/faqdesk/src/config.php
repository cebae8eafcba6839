<?php
/*
 * FAQDesk configuration.  Edit to taste; every page includes this first.
 */

$faq_config = array(
    'site_name'     => 'FAQDesk',
    'site_tagline'  => 'Answers to the questions people ask',
    'data_dir'      => dirname(__FILE__) . '/data',
    'per_page'      => 4,
    'excerpt_len'   => 60,
    'date_format'   => 'd M Y',
    'admin_user'    => 'admin',
    // md5 of the administrator's password ("letmein")
    'admin_hash'    => '0d107d09f5bbe40cade3de5c71e9e9b7',
    'max_title'     => 80,
    'max_body'      => 4000,
    'related_count' => 3,
    // Saving writes the data file back; off unless FAQDESK_PERSIST=1.
    'persist'       => getenv('FAQDESK_PERSIST') === '1',
);

error_reporting(E_ALL);
date_default_timezone_set('UTC');
