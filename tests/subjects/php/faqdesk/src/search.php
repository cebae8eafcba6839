<?php
require_once 'inc/common.php';

$query = param_str('q');
$in = param_str('in', 'all');
$results = array();
$error = '';
if ($query != '') {
    if (strlen($query) < 3) {
        $error = 'Please enter at least three characters.';
    } else {
        $results = search_documents($query);
        if ($in != 'all') {
            $kept = array();
            foreach ($results as $doc) {
                if ($doc['category'] == $in) {
                    $kept[] = $doc;
                }
            }
            $results = $kept;
        }
    }
}

page_header($query != '' ? 'Search: ' . $query : 'Search', 'search');
?>
<h2>Search the documents</h2>
<form action="search.php" method="get">
<p><input type="text" name="q" size="30" value="<?php echo h($query); ?>">
<select name="in">
<option value="all">all categories</option>
<?php
foreach (load_categories() as $slug => $cat) {
    $selected = $slug == $in ? ' selected' : '';
    echo '<option value="' . h($slug) . '"' . $selected . '>' . h($cat['name']) . "</option>\n";
}
?>
</select>
<input type="submit" value="Search"></p>
</form>
<?php
if ($error != '') {
    echo '<p class="error">' . $error . "</p>\n";
} elseif ($query != '') {
    if (count($results) == 0) {
        echo '<p>No document matches <em>' . h($query) . "</em>.</p>\n";
    } else {
        echo '<p>' . plural(count($results), 'document matches', 'documents match') . ' <em>' . h($query) . "</em>:</p>\n";
        echo "<table class=\"list\">\n<tr><th>Question</th><th>Answer</th><th>Added</th><th>Read</th></tr>\n";
        foreach ($results as $doc) {
            document_row($doc, $query);
        }
        echo "</table>\n";
    }
}
page_footer();
