<?php
/* A document alone, without navigation, for printing. */
require_once 'inc/common.php';

$id = param_int('id');
$doc = get_document($id);
if ($doc === null) {
    header('HTTP/1.0 404 Not Found');
    echo "<!DOCTYPE html>\n<html><head><title>Not found</title></head><body><p>No such document.</p></body></html>\n";
    exit;
}
$category = get_category($doc['category']);
?>
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title><?php echo h($doc['title']); ?></title>
</head>
<body class="print">
<h1><?php echo h($doc['title']); ?></h1>
<p><em><?php echo h($category['name']); ?> &middot; <?php echo h($doc['author']); ?> &middot; <?php echo format_date($doc['created']); ?></em></p>
<?php echo markup_to_html($doc['body']); ?>
<hr>
<p>From <?php echo h($faq_config['site_name']); ?>, document <?php echo $doc['id']; ?>.</p>
</body>
</html>
