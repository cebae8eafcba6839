<html>
<head><title>Welcome</title></head>
<body>
<h1>Welcome</h1>
<form action="login.php" method="post">
<p>User <input type="text" name="user"></p>
<p>Password <input type="password" name="pw"></p>
<p><input type="submit" value="Log in"></p>
</form>
</body>
</html>
