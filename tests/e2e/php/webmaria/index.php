<?php
// A shop on MariaDB (tests/e2e/test_web_mariadb.sh): the form adds an item.
?>
<!DOCTYPE html>
<html><head><title>shop</title></head><body>
<p><a href="list.php">the items</a></p>
<form action="add.php" method="post">
<p>name <input type="text" name="name" value="pen"> price <input type="text" name="price" value="3"></p>
<p><input type="submit" value="Add"></p>
</form>
</body></html>
