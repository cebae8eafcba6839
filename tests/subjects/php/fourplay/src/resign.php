<?php
require_once 'inc/common.php';

$game = current_game();
if ($game === null) {
    no_game_page();
    exit;
}
page_top('Game ' . $game['number']);
if (isset($_POST['confirm'])) {
    if (resign($game)) {
        $_SESSION['game'] = $game;
    }
    echo '<p class="status">' . status_line($game) . "</p>\n";
    echo "<p><a href=\"index.php\">Play again</a></p>\n";
} elseif ($game['status'] != 'playing') {
    echo "<p class=\"error\">The game is over already.</p>\n";
} else {
    echo '<p>Does ' . player_label($game, $game['turn']) . " really give up?</p>\n";
    echo "<form action=\"resign.php\" method=\"post\"><p><input type=\"submit\" name=\"confirm\" value=\"Resign\"> <a href=\"play.php\">No, play on</a></p></form>\n";
}
page_bottom();
