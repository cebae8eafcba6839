<?php
/* The session's scoreboard; ?reset=1 clears it. */
require_once 'inc/common.php';

if (isset($_POST['reset'])) {
    $_SESSION['scores'] = array();
}
$rows = ranked_scores();
page_top('Scores');
echo "<h2>Scores</h2>\n";
if (count($rows) == 0) {
    echo "<p>No game has ended yet.</p>\n";
} else {
    echo "<table class=\"scores\">\n<tr><th>#</th><th>Player</th><th>Played</th><th>Won</th><th>Drawn</th><th>Lost</th><th>Points</th></tr>\n";
    $place = 0;
    $previous = null;
    foreach ($rows as $i => $row) {
        if ($previous === null || $row['points'] != $previous['points'] || $row['lost'] != $previous['lost']) {
            $place = $i + 1;
        }
        $previous = $row;
        echo '<tr><td>' . $place . '</td><td>' . e($row['name']) . '</td><td>' . $row['played'] . '</td><td>'
            . $row['won'] . '</td><td>' . $row['drawn'] . '</td><td>' . $row['lost'] . '</td><td>'
            . $row['points'] . "</td></tr>\n";
    }
    echo "</table>\n";
    echo "<form action=\"scores.php\" method=\"post\"><p><input type=\"submit\" name=\"reset\" value=\"Clear the scores\"></p></form>\n";
}
page_bottom();
