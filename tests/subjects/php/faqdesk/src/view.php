<?php
require_once 'inc/common.php';

$id = param_int('id');
$doc = get_document($id);
if ($doc === null) {
    page_header('Document not found');
    echo '<p class="error">There is no document number ' . $id . ".</p>\n";
    page_footer();
    exit;
}
$category = get_category($doc['category']);
$doc['views']++;

page_header($doc['title']);
breadcrumbs($category, $doc['title']);
?>
<div class="document">
<h2><?php echo h($doc['title']); ?></h2>
<p class="meta">Written by <?php echo h($doc['author']); ?> on <?php echo format_date($doc['created']); ?>,
read <?php echo plural($doc['views'], 'time', 'times'); ?>.</p>
<?php echo markup_to_html($doc['body']); ?>
</div>
<p class="tools"><a href="print.php?id=<?php echo $doc['id']; ?>">Printable version</a>
<?php if (is_admin()): ?>
| <a href="edit.php?id=<?php echo $doc['id']; ?>">Edit</a>
<?php endif; ?>
</p>
<?php
$related = related_documents($doc, $faq_config['related_count']);
if (count($related) > 0) {
    echo "<h3>Related questions</h3>\n<ul class=\"related\">\n";
    foreach ($related as $other) {
        echo '<li><a href="view.php?id=' . $other['id'] . '">' . h($other['title']) . "</a></li>\n";
    }
    echo "</ul>\n";
}
page_footer();
