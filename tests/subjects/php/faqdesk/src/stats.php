<?php
/* Reading statistics per category and the most read documents. */
require_once 'inc/common.php';

$categories = load_categories();
$docs = load_documents();
$total_views = 0;
$views = array();
$counts = count_by_category();
foreach ($categories as $slug => $cat) {
    $views[$slug] = 0;
}
foreach ($docs as $doc) {
    $total_views += $doc['views'];
    if (isset($views[$doc['category']])) {
        $views[$doc['category']] += $doc['views'];
    }
}

page_header('Statistics', 'stats');
?>
<h2>Reading statistics</h2>
<table class="list">
<tr><th>Category</th><th>Documents</th><th>Read</th><th>Share</th><th>Per document</th></tr>
<?php
foreach ($categories as $slug => $cat) {
    $share = $total_views > 0 ? round(100 * $views[$slug] / $total_views, 1) : 0;
    $avg = $counts[$slug] > 0 ? round($views[$slug] / $counts[$slug]) : 0;
    echo '<tr><td>' . h($cat['name']) . '</td><td class="num">' . $counts[$slug] . '</td><td class="num">'
        . $views[$slug] . '</td><td class="num">' . number_format($share, 1) . '%</td><td class="num">'
        . $avg . "</td></tr>\n";
}
?>
<tr class="total"><td>All</td><td class="num"><?php echo count($docs); ?></td><td class="num"><?php echo $total_views; ?></td><td class="num">100.0%</td><td class="num"><?php echo count($docs) > 0 ? round($total_views / count($docs)) : 0; ?></td></tr>
</table>
<h2>Most read</h2>
<ol class="top">
<?php
$top = array_slice(sort_documents($docs, 'views'), 0, 5);
foreach ($top as $doc) {
    echo '<li><a href="view.php?id=' . $doc['id'] . '">' . h($doc['title']) . '</a> (' . $doc['views'] . ")</li>\n";
}
?>
</ol>
<?php
page_footer();
