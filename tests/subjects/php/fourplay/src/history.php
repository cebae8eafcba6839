<?php
/* The moves of the current game, and the board after move ?upto=N. */
require_once 'inc/common.php';

$game = current_game();
if ($game === null) {
    no_game_page();
    exit;
}
$total = count($game['moves']);
$upto = isset($_GET['upto']) && ctype_digit($_GET['upto']) ? (int) $_GET['upto'] : $total;
if ($upto > $total) {
    $upto = $total;
}

page_top('Moves of game ' . $game['number']);
echo '<h2>' . plural_moves($total) . "</h2>\n";
render_moves($game);
if ($total > 0) {
    // replay the first $upto moves on an empty board
    $replay = $game;
    $replay['board'] = new_board();
    $replay['moves'] = array_slice($game['moves'], 0, $upto);
    $replay['status'] = 'replay';
    foreach ($replay['moves'] as $move) {
        drop_piece($replay['board'], $move[0], $move[2]);
    }
    echo '<h3>After move ' . $upto . "</h3>\n";
    render_board($replay);
    echo '<p class="pager">';
    if ($upto > 0) {
        echo '<a href="history.php?upto=' . ($upto - 1) . '">&laquo; back</a> ';
    }
    if ($upto < $total) {
        echo '<a href="history.php?upto=' . ($upto + 1) . '">forward &raquo;</a>';
    }
    echo "</p>\n";
}
page_bottom();

function plural_moves($n)
{
    return $n == 1 ? '1 move' : $n . ' moves';
}
