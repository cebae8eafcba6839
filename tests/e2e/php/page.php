<?php
// A page printed from several functions, through output buffering and
// inline HTML: tests/e2e/test_php_output.sh maps each line to its statement.
function header_line($title)
{
    echo "<h1>$title</h1>\n";
}

function item($name)
{
    printf("<li>%s</li>\n", $name);
}

function render_list(array $names)
{
    ob_start();
    foreach ($names as $name) {
        item($name);
    }
    return ob_get_clean();
}

ob_start();
header_line("Menu");
$list = render_list(["tea", "cake"]);
?>
<ul>
<?php
echo $list;
print "</ul>\n";
ob_end_flush();
ob_start();
echo "dropped\n";
ob_end_clean();
echo "<p>end</p>\n";
