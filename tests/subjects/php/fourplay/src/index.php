<?php
require_once 'inc/common.php';

$game = current_game();
page_top('New game');
if ($game !== null && $game['status'] == 'playing') {
    echo '<p class="notice">Game ' . $game['number'] . ' between ' . player_label($game, 1) . ' and '
        . player_label($game, 2) . ' is still going on: <a href="play.php">back to it</a>.</p>' . "\n";
}
?>
<form action="start.php" method="post">
<table class="form">
<tr><td><label for="name1">Red (X)</label></td><td><input type="text" id="name1" name="name1" maxlength="<?php echo $fp_config['max_name']; ?>"></td></tr>
<tr><td><label for="name2">Yellow (O)</label></td><td><input type="text" id="name2" name="name2" maxlength="<?php echo $fp_config['max_name']; ?>"></td></tr>
<tr><td>Opponent</td><td>
<label><input type="radio" name="mode" value="two" checked> two players</label>
<label><input type="radio" name="mode" value="computer"> the computer plays yellow</label>
</td></tr>
<tr><td>First move</td><td>
<select name="first"><option value="1">red</option><option value="2">yellow</option></select>
</td></tr>
</table>
<p><input type="submit" value="Start"></p>
</form>
<?php
page_bottom();
