<?php
require_once 'inc/common.php';
page_top('Rules');
?>
<h2>How to play</h2>
<p>Two players take turns dropping pieces into a grid of <?php echo COLS; ?> columns
and <?php echo ROWS; ?> rows. A piece falls to the lowest free cell of its column.</p>
<ul>
<li>The first player to get <?php echo CONNECT; ?> pieces in a row &mdash; across, up and down,
or diagonally &mdash; wins.</li>
<li>When the grid is full and nobody has <?php echo CONNECT; ?> in a row, the game is a draw.</li>
<li>A win counts 2 points on the scoreboard, a draw 1.</li>
</ul>
<p>Moves are named by column (<?php echo column_letter(0); ?> to <?php echo column_letter(COLS - 1); ?>)
and row (1 at the bottom to <?php echo ROWS; ?> at the top).</p>
<?php
page_bottom();
