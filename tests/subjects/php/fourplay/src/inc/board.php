<?php
/*
 * The board: ROWS arrays of COLS cells, row 0 at the top; a cell holds 0
 * (empty), 1 or 2 (the player whose piece it is).
 */

function new_board()
{
    $board = array();
    for ($r = 0; $r < ROWS; $r++) {
        $board[$r] = array_fill(0, COLS, 0);
    }
    return $board;
}

/* The row a piece dropped into $col lands on, or -1 when the column is full. */
function landing_row($board, $col)
{
    for ($r = ROWS - 1; $r >= 0; $r--) {
        if ($board[$r][$col] == 0) {
            return $r;
        }
    }
    return -1;
}

/* Drop $player's piece into $col; returns the row, or -1 (full, or no such column). */
function drop_piece(&$board, $col, $player)
{
    if ($col < 0 || $col >= COLS) {
        return -1;
    }
    $row = landing_row($board, $col);
    if ($row >= 0) {
        $board[$row][$col] = $player;
    }
    return $row;
}

/* Take the top piece out of $col (undo). */
function lift_piece(&$board, $col)
{
    for ($r = 0; $r < ROWS; $r++) {
        if ($board[$r][$col] != 0) {
            $board[$r][$col] = 0;
            return $r;
        }
    }
    return -1;
}

function column_full($board, $col)
{
    return $board[0][$col] != 0;
}

function board_full($board)
{
    for ($c = 0; $c < COLS; $c++) {
        if (!column_full($board, $c)) {
            return false;
        }
    }
    return true;
}

function legal_moves($board)
{
    $moves = array();
    for ($c = 0; $c < COLS; $c++) {
        if (!column_full($board, $c)) {
            $moves[] = $c;
        }
    }
    return $moves;
}

/*
 * The cells of a line of CONNECT pieces of one player, or an empty array.
 * Looks at every row, column and both diagonals.
 */
function winning_line($board)
{
    // rows
    for ($r = 0; $r < ROWS; $r++) {
        for ($c = 0; $c <= COLS - CONNECT; $c++) {
            $line = check_line($board, $r, $c, 0, 1);
            if ($line) {
                return $line;
            }
        }
    }
    // columns
    for ($r = 0; $r <= ROWS - CONNECT; $r++) {
        for ($c = 0; $c < COLS; $c++) {
            $line = check_line($board, $r, $c, 1, 0);
            if ($line) {
                return $line;
            }
        }
    }
    // diagonals down to the right, and down to the left
    for ($r = 0; $r <= ROWS - CONNECT; $r++) {
        for ($c = 0; $c <= COLS - CONNECT; $c++) {
            $line = check_line($board, $r, $c, 1, 1);
            if ($line) {
                return $line;
            }
        }
        for ($c = CONNECT - 1; $c < COLS; $c++) {
            $line = check_line($board, $r, $c, 1, -1);
            if ($line) {
                return $line;
            }
        }
    }
    return array();
}

/* CONNECT cells from ($r, $c) in direction ($dr, $dc), if one player holds them all. */
function check_line($board, $r, $c, $dr, $dc)
{
    $player = $board[$r][$c];
    if ($player == 0) {
        return array();
    }
    $cells = array(array($r, $c));
    for ($i = 1; $i < CONNECT; $i++) {
        if ($board[$r + $i * $dr][$c + $i * $dc] != $player) {
            return array();
        }
        $cells[] = array($r + $i * $dr, $c + $i * $dc);
    }
    return $cells;
}

function winner($board)
{
    $line = winning_line($board);
    if (count($line) == 0) {
        return 0;
    }
    return $board[$line[0][0]][$line[0][1]];
}

/* A move in the usual notation: column letter a-g, row number 1-6 from the bottom. */
function move_name($col, $row)
{
    return chr(ord('a') + $col) . (ROWS - $row);
}

function column_letter($col)
{
    return chr(ord('a') + $col);
}
