<?php
require_once 'inc/common.php';

$slug = param_str('c');
$category = get_category($slug);
if ($category === null) {
    page_header('No such category');
    echo '<p class="error">There is no category called &quot;' . h($slug) . "&quot;.</p>\n";
    page_footer();
    exit;
}

$order = param_str('sort', 'title');
if (!in_array($order, array('title', 'date', 'views'))) {
    $order = 'title';
}
$docs = sort_documents(documents_in_category($slug), $order);
$per_page = $faq_config['per_page'];
$pages = (int) ceil(count($docs) / $per_page);
$page = param_int('page', 1);
if ($page < 1) {
    $page = 1;
} elseif ($pages > 0 && $page > $pages) {
    $page = $pages;
}
$shown = array_slice($docs, ($page - 1) * $per_page, $per_page);

page_header($category['name']);
breadcrumbs($category);
?>
<h2><?php echo h($category['name']); ?></h2>
<p class="description"><?php echo h($category['description']); ?></p>
<?php if (count($docs) == 0): ?>
<p>No documents in this category yet.</p>
<?php else: ?>
<p class="sort">Sort by:
<?php
    foreach (array('title' => 'title', 'date' => 'newest', 'views' => 'most read') as $key => $label) {
        if ($key == $order) {
            echo "<strong>$label</strong>\n";
        } else {
            echo '<a href="category.php?c=' . urlencode($slug) . '&amp;sort=' . $key . '">' . $label . "</a>\n";
        }
    }
?>
</p>
<table class="list">
<tr><th>Question</th><th>Answer</th><th>Added</th><th>Read</th></tr>
<?php
    foreach ($shown as $doc) {
        document_row($doc);
    }
?>
</table>
<p class="count">Documents <?php echo ($page - 1) * $per_page + 1; ?>-<?php echo ($page - 1) * $per_page + count($shown); ?> of <?php echo count($docs); ?></p>
<?php
    echo pager('category.php?c=' . urlencode($slug) . '&amp;sort=' . $order, $page, $pages);
endif;
page_footer();
