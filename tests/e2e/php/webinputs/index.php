<?php
/* culprit web's input constraints (tests/e2e/test_web_inputs.sh): the
 * front page of a small admin area.  Its form sends a role the page
 * compares with a constant, and links to the reports page. */
?>
<!DOCTYPE html>
<html><head><title>Admin</title></head><body>
<form action="panel.php" method="post">
<input type="text" name="role">
<input type="submit" value="Enter">
</form>
<p><a href="report.php?kind=daily">Daily report</a></p>
</body></html>
