<?php
/* The board; ?col=N plays column N for the player to move. */
require_once 'inc/common.php';

$game = current_game();
if ($game === null) {
    no_game_page();
    exit;
}

$message = '';
if (isset($_GET['col'])) {
    if (!ctype_digit($_GET['col'])) {
        $message = 'There is no such column.';
    } else {
        $message = play_move($game, (int) $_GET['col']);
        if ($message == '' && $game['status'] == 'playing' && $game['turn'] == $game['computer']) {
            computer_move($game);
        }
    }
    $_SESSION['game'] = $game;
}

page_top('Game ' . $game['number']);
echo '<h2>' . player_label($game, 1) . ' against ' . player_label($game, 2) . "</h2>\n";
if ($message != '') {
    echo '<p class="error">' . e($message) . "</p>\n";
}
echo '<p class="status">' . status_line($game) . "</p>\n";
render_board($game);
if ($game['status'] == 'playing') {
    echo '<p class="actions">';
    if (count($game['moves']) > 0) {
        echo '<a href="undo.php">Take back</a> | ';
    }
    echo "<a href=\"resign.php\">Resign</a></p>\n";
} else {
    echo "<p class=\"actions\"><a href=\"index.php\">Play again</a> | <a href=\"scores.php\">Scores</a></p>\n";
}
$last = end($game['moves']);
if ($last !== false) {
    echo '<p class="last">Last move: ' . player_label($game, $last[2]) . ' ' . move_name($last[0], $last[1]) . "</p>\n";
}
page_bottom();
