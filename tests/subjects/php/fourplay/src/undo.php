<?php
require_once 'inc/common.php';

$game = current_game();
if ($game === null) {
    no_game_page();
    exit;
}
if (undo_move($game)) {
    $_SESSION['game'] = $game;
    $message = 'Move taken back.';
} else {
    $message = 'There is no move to take back.';
}
page_top('Game ' . $game['number']);
echo '<p class="notice">' . $message . "</p>\n";
echo '<p class="status">' . status_line($game) . "</p>\n";
render_board($game);
page_bottom();
