<?php
/*
 * The computer's move: win when it can, else stop the opponent winning,
 * else avoid a column that lets the opponent win on top of it, preferring
 * the middle.
 */

function choose_move($board, $player)
{
    $opponent = 3 - $player;
    $moves = legal_moves($board);
    // 1. a winning move
    foreach ($moves as $col) {
        if (wins_with($board, $col, $player)) {
            return $col;
        }
    }
    // 2. block the opponent's winning move
    foreach ($moves as $col) {
        if (wins_with($board, $col, $opponent)) {
            return $col;
        }
    }
    // 3. a safe column, the middle first
    $preferred = array(3, 2, 4, 1, 5, 0, 6);
    foreach ($preferred as $col) {
        if (in_array($col, $moves) && !gives_away($board, $col, $player)) {
            return $col;
        }
    }
    foreach ($preferred as $col) {
        if (in_array($col, $moves)) {
            return $col;
        }
    }
    return -1;
}

function wins_with($board, $col, $player)
{
    if (drop_piece($board, $col, $player) < 0) {
        return false;
    }
    return winner($board) == $player;
}

/* Would playing $col let the opponent win by playing on top of it? */
function gives_away($board, $col, $player)
{
    $row = drop_piece($board, $col, $player);
    if ($row <= 0) {
        return false;
    }
    return wins_with($board, $col, 3 - $player);
}
