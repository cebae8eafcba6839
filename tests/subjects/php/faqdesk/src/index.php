<?php
require_once 'inc/common.php';

$categories = load_categories();
$counts = count_by_category();

page_header('Home', 'index');
?>
<h2>Categories</h2>
<table class="list">
<tr><th>Category</th><th>Description</th><th>Documents</th></tr>
<?php foreach ($categories as $slug => $cat): ?>
<tr>
<td><a href="category.php?c=<?php echo urlencode($slug); ?>"><?php echo h($cat['name']); ?></a></td>
<td><?php echo h($cat['description']); ?></td>
<td class="num"><?php echo $counts[$slug]; ?></td>
</tr>
<?php endforeach; ?>
</table>
<h2>Recently added</h2>
<ul class="recent">
<?php
foreach (recent_documents(3) as $doc) {
    $cat = get_category($doc['category']);
    echo '<li><a href="view.php?id=' . $doc['id'] . '">' . h($doc['title']) . '</a> in '
        . h($cat['name']) . ', ' . format_date($doc['created']) . "</li>\n";
}
?>
</ul>
<form action="search.php" method="get">
<p><input type="text" name="q" size="30"> <input type="submit" value="Search"></p>
</form>
<?php
page_footer();
