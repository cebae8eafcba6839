<?php
/*
 * SysInfo: what this machine is, how long it has been up, and how full
 * its memory and disks are.  ?show=memory,disks picks sections; ?lang=de
 * the language.
 */
require_once 'config.php';
require_once 'inc/proc.php';
require_once 'inc/format.php';
require_once 'inc/lang.php';
require_once 'inc/sections.php';

$lang = choose_language();
load_language($lang);

$sections = $si_config['sections'];
if (isset($_GET['show']) && $_GET['show'] != '') {
    $wanted = array();
    foreach (explode(',', $_GET['show']) as $name) {
        if (in_array($name, $si_config['sections']) && !in_array($name, $wanted)) {
            $wanted[] = $name;
        }
    }
    if (count($wanted) > 0) {
        $sections = $wanted;
    }
}
$host = host_name();
?>
<!DOCTYPE html>
<html lang="<?php echo $lang; ?>">
<head>
<meta charset="utf-8">
<title><?php echo esc($si_config['title']); ?>: <?php echo esc($host); ?></title>
</head>
<body>
<h1><?php echo esc($host); ?></h1>
<form action="index.php" method="get">
<p><?php echo t('language'); ?>:
<select name="lang">
<?php foreach ($si_config['languages'] as $code => $name): ?>
<option value="<?php echo $code; ?>"<?php if ($code == $lang) { echo ' selected'; } ?>><?php echo esc($name); ?></option>
<?php endforeach; ?>
</select>
<input type="submit" value="<?php echo t('show'); ?>"></p>
</form>
<?php
foreach ($sections as $section) {
    echo '<div class="section" id="' . $section . "\">\n";
    call_user_func('section_' . $section);
    echo "</div>\n";
}
?>
<p class="footer"><?php echo esc($si_config['title']); ?> 2.5</p>
</body>
</html>
