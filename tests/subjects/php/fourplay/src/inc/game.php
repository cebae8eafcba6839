<?php
/*
 * The game in the session:
 *
 *   $_SESSION['game'] = array(
 *       'number'   => N,                      the session's Nth game
 *       'players'  => array(1 => NAME, 2 => NAME),
 *       'computer' => 0 or 2,                 player 2 may be the computer
 *       'board'    => the board (board.php),
 *       'turn'     => 1 or 2,                 whose move it is
 *       'moves'    => array(array(COL, ROW, PLAYER), ...),
 *       'status'   => 'playing', 'won', 'drawn' or 'resigned',
 *       'winner'   => 0, 1 or 2,
 *   );
 *   $_SESSION['scores'] = array(NAME => array('won' => N, 'lost' => N, 'drawn' => N))
 */

function current_game()
{
    return isset($_SESSION['game']) ? $_SESSION['game'] : null;
}

function start_game($name1, $name2, $computer, $first)
{
    $_SESSION['games']++;
    $game = array(
        'number' => $_SESSION['games'],
        'players' => array(1 => $name1, 2 => $name2),
        'computer' => $computer ? 2 : 0,
        'board' => new_board(),
        'turn' => $first,
        'moves' => array(),
        'status' => 'playing',
        'winner' => 0,
    );
    if ($game['computer'] == $game['turn']) {
        computer_move($game);
    }
    $_SESSION['game'] = $game;
    return $game;
}

function other_player($player)
{
    return 3 - $player;
}

/*
 * Play $col for the player whose turn it is.  Returns '' or a message
 * saying why the move was refused.
 */
function play_move(&$game, $col)
{
    if ($game['status'] != 'playing') {
        return 'The game is over.';
    }
    if ($col < 0 || $col >= COLS) {
        return 'There is no such column.';
    }
    $player = $game['turn'];
    $row = drop_piece($game['board'], $col, $player);
    if ($row < 0) {
        return 'Column ' . column_letter($col) . ' is full.';
    }
    $game['moves'][] = array($col, $row, $player);
    settle($game);
    return '';
}

/* After a move: a win, a draw, or the other player's turn. */
function settle(&$game)
{
    $winner = winner($game['board']);
    if ($winner != 0) {
        $game['status'] = 'won';
        $game['winner'] = $winner;
        record_result($game);
    } elseif (board_full($game['board'])) {
        $game['status'] = 'drawn';
        record_result($game);
    } else {
        $game['turn'] = other_player($game['turn']);
    }
}

function computer_move(&$game)
{
    $col = choose_move($game['board'], $game['turn']);
    $player = $game['turn'];
    $row = drop_piece($game['board'], $col, $player);
    $game['moves'][] = array($col, $row, $player);
    settle($game);
}

/* Take back the last move, and the computer's reply before it when there is one. */
function undo_move(&$game)
{
    if (count($game['moves']) == 0 || $game['status'] != 'playing') {
        return false;
    }
    $take = 1;
    if ($game['computer'] != 0 && count($game['moves']) >= 2) {
        $take = 2;
    }
    for ($i = 0; $i < $take; $i++) {
        $last = array_pop($game['moves']);
        lift_piece($game['board'], $last[0]);
        $game['turn'] = $last[2];
    }
    return true;
}

function resign(&$game)
{
    if ($game['status'] != 'playing') {
        return false;
    }
    $game['status'] = 'resigned';
    $game['winner'] = other_player($game['turn']);
    record_result($game);
    return true;
}

function record_result($game)
{
    foreach ($game['players'] as $name) {
        if (!isset($_SESSION['scores'][$name])) {
            $_SESSION['scores'][$name] = array('won' => 0, 'lost' => 0, 'drawn' => 0);
        }
    }
    if ($game['winner'] == 0) {
        foreach ($game['players'] as $name) {
            $_SESSION['scores'][$name]['drawn']++;
        }
        return;
    }
    $winner = $game['players'][$game['winner']];
    $loser = $game['players'][other_player($game['winner'])];
    $_SESSION['scores'][$winner]['won']++;
    $_SESSION['scores'][$loser]['lost']++;
}

/* The scoreboard, best first: most won, then fewest lost, then by name. */
function ranked_scores()
{
    $rows = array();
    foreach ($_SESSION['scores'] as $name => $s) {
        $played = $s['won'] + $s['lost'] + $s['drawn'];
        $points = 2 * $s['won'] + $s['drawn'];
        $rows[] = array('name' => $name, 'played' => $played, 'points' => $points) + $s;
    }
    usort($rows, function ($a, $b) {
        if ($a['points'] != $b['points']) {
            return $b['points'] - $a['points'];
        }
        if ($a['lost'] != $b['lost']) {
            return $a['lost'] - $b['lost'];
        }
        return strcmp($a['name'], $b['name']);
    });
    return $rows;
}
