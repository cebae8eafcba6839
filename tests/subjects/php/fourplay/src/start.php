<?php
/* The new-game form's target: check the names, start, and go to the board. */
require_once 'inc/common.php';

$errors = array();
$mode = isset($_POST['mode']) ? $_POST['mode'] : 'two';
$computer = $mode == 'computer';
$name1 = isset($_POST['name1']) ? trim($_POST['name1']) : '';
$name2 = $computer ? $fp_config['computer'] : (isset($_POST['name2']) ? trim($_POST['name2']) : '');
$first = isset($_POST['first']) && $_POST['first'] == '2' ? 2 : 1;

foreach (array(1 => $name1, 2 => $name2) as $n => $name) {
    $colour = $fp_config['colours'][$n];
    if ($name == '') {
        $errors[] = 'The ' . $colour . ' player needs a name.';
    } elseif (strlen($name) > $fp_config['max_name']) {
        $errors[] = 'The ' . $colour . ' player\'s name is longer than ' . $fp_config['max_name'] . ' letters.';
    }
}
if (count($errors) == 0 && strcasecmp($name1, $name2) == 0) {
    $errors[] = 'The players need different names.';
}
if (count($errors) == 0 && $computer && strcasecmp($name1, $fp_config['computer']) == 0) {
    $errors[] = 'That name is taken by the computer.';
}

if (count($errors) > 0) {
    page_top('New game');
    echo "<ul class=\"errors\">\n";
    foreach ($errors as $error) {
        echo '<li>' . e($error) . "</li>\n";
    }
    echo "</ul>\n<p><a href=\"index.php\">Back to the form</a></p>\n";
    page_bottom();
    exit;
}

$game = start_game($name1, $name2, $computer, $first);
header('Location: play.php');
echo '<p>Game ' . $game['number'] . " started. <a href=\"play.php\">Go to the board</a>.</p>\n";
