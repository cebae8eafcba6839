<?php
// A page in a subdirectory that links to itself through PHP_SELF: with the
// application's directory as the document root it is /help/faq.php.
$self = htmlspecialchars($_SERVER['PHP_SELF']);
echo "<!DOCTYPE html>\n<html><head><title>faq</title></head><body><p><a href=\"$self?q=1\">again</a></p></body></html>\n";
