<?php
// constants.php - seeds/000 Figure 1(b): the names the scripts share.
$userTag = 'user';
$pwTag = 'pw';
$typeTag = 'type';

$accounts = array('alice' => 'wonder', 'admin' => 'secret');
$topics = array('news' => array('Spring fair on Saturday', 'Library closed Monday'),
                'sports' => array('Chess club wins'));

function check_password($user, $pw)
{
    global $accounts;
    return isset($accounts[$user]) && $accounts[$user] === $pw;
}

function entries_for($topic)
{
    global $topics;
    return isset($topics[$topic]) ? $topics[$topic] : array();
}

// Each test keeps its sessions in a directory of its own.
session_save_path(getenv('FIGURE1_SESSIONS') ?: sys_get_temp_dir());
