<?php
/*
 * Translations: lang/CODE.php defines $strings; t() looks a word up.
 * The language comes from ?lang=, else the cookie, else the browser's
 * Accept-Language, else the configuration.
 */

function choose_language()
{
    global $si_config;
    $candidates = array();
    if (isset($_GET['lang'])) {
        $candidates[] = $_GET['lang'];
    }
    if (isset($_COOKIE['sysinfo_lang'])) {
        $candidates[] = $_COOKIE['sysinfo_lang'];
    }
    if (isset($_SERVER['HTTP_ACCEPT_LANGUAGE'])) {
        foreach (explode(',', $_SERVER['HTTP_ACCEPT_LANGUAGE']) as $part) {
            $candidates[] = substr(trim($part), 0, 2);
        }
    }
    foreach ($candidates as $code) {
        if (isset($si_config['languages'][$code])) {
            return $code;
        }
    }
    return $si_config['language'];
}

function load_language($code)
{
    global $si_strings;
    $strings = array();
    include dirname(__FILE__) . '/../lang/' . $code . '.php';
    $si_strings = $strings;
}

function t($key)
{
    global $si_strings;
    return $si_strings[$key];
}
