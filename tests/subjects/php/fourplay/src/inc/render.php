<?php
/*
 * HTML: the page frame, the board, the status line, the move list.
 */

function e($text)
{
    return htmlspecialchars($text, ENT_QUOTES, 'UTF-8');
}

function page_top($title)
{
    global $fp_config;
    echo "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
    echo '<title>' . e($title) . ' - ' . e($fp_config['title']) . "</title>\n";
    echo "<link rel=\"stylesheet\" href=\"fourplay.css\">\n</head>\n<body>\n";
    echo '<h1>' . e($fp_config['title']) . "</h1>\n";
    echo "<p class=\"menu\"><a href=\"index.php\">New game</a> | <a href=\"play.php\">Current game</a> | "
        . "<a href=\"history.php\">Moves</a> | <a href=\"scores.php\">Scores</a> | <a href=\"rules.php\">Rules</a></p>\n";
}

function page_bottom()
{
    echo "<p class=\"footer\">Games played in this session: " . $_SESSION['games'] . "</p>\n";
    echo "</body>\n</html>\n";
}

function player_label($game, $player)
{
    global $fp_config;
    return '<span class="' . $fp_config['colours'][$player] . '">' . e($game['players'][$player]) . '</span>';
}

function status_line($game)
{
    switch ($game['status']) {
    case 'won':
        return player_label($game, $game['winner']) . ' wins after ' . count($game['moves']) . ' moves!';
    case 'resigned':
        return player_label($game, other_player($game['winner'])) . ' resigned; '
            . player_label($game, $game['winner']) . ' wins.';
    case 'drawn':
        return 'The board is full: a draw.';
    default:
        return 'Move ' . (count($game['moves']) + 1) . ': ' . player_label($game, $game['turn']) . ' to play.';
    }
}

/* The board as a table; the column heads link to the moves still possible. */
function render_board($game)
{
    global $fp_config;
    $board = $game['board'];
    $win = array();
    if ($game['status'] == 'won') {
        foreach (winning_line($board) as $cell) {
            $win[$cell[0] . ',' . $cell[1]] = true;
        }
    }
    $playing = $game['status'] == 'playing' && $game['turn'] != $game['computer'];
    echo "<table class=\"board\">\n<tr>";
    for ($c = 0; $c < COLS; $c++) {
        $letter = column_letter($c);
        if ($playing && !column_full($board, $c)) {
            echo '<th><a href="play.php?col=' . $c . '">' . $letter . '</a></th>';
        } else {
            echo '<th>' . $letter . '</th>';
        }
    }
    echo "</tr>\n";
    for ($r = 0; $r < ROWS; $r++) {
        echo '<tr>';
        for ($c = 0; $c < COLS; $c++) {
            $p = $board[$r][$c];
            $class = $p ? $fp_config['colours'][$p] : 'empty';
            if (isset($win[$r . ',' . $c])) {
                $class .= ' win';
            }
            echo '<td class="' . $class . '">' . ($p ? ($p == 1 ? 'X' : 'O') : '.') . '</td>';
        }
        echo '<th>' . (ROWS - $r) . "</th></tr>\n";
    }
    echo "</table>\n";
}

function render_moves($game)
{
    if (count($game['moves']) == 0) {
        echo "<p>No moves yet.</p>\n";
        return;
    }
    echo "<ol class=\"moves\">\n";
    foreach ($game['moves'] as $i => $move) {
        list($col, $row, $player) = $move;
        echo '<li>' . player_label($game, $player) . ' ' . move_name($col, $row) . "</li>\n";
    }
    echo "</ol>\n";
}

function no_game_page()
{
    page_top('No game');
    echo "<p class=\"error\">There is no game in progress. <a href=\"index.php\">Start one</a>.</p>\n";
    page_bottom();
}
