<?php
/* Add a document, or edit one (?id=N).  Administrators only. */
require_once 'inc/common.php';
require_admin();

$categories = load_categories();
$id = param_int('id');
$doc = $id > 0 ? get_document($id) : null;
if ($id > 0 && $doc === null) {
    page_header('Document not found');
    echo '<p class="error">There is no document number ' . $id . ".</p>\n";
    page_footer();
    exit;
}
if ($doc === null) {
    $doc = array('id' => 0, 'title' => '', 'body' => '', 'category' => 'general',
                 'author' => $faq_config['admin_user'], 'created' => '', 'views' => 0);
}

$errors = array();
if ($_SERVER['REQUEST_METHOD'] == 'POST') {
    $doc['title'] = post_str('title');
    $doc['body'] = str_replace("\r\n", "\n", post_str('body')) . "\n";
    $doc['category'] = post_str('category');
    $doc['author'] = post_str('author');
    $errors = validate_document($doc, $categories);
    if (count($errors) == 0) {
        if ($doc['id'] == 0) {
            $doc['id'] = next_document_id();
            $doc['created'] = post_str('created') != '' ? post_str('created') : date('Y-m-d');
        }
        store_document($doc);
        page_header('Saved');
        echo '<p class="message">Document ' . $doc['id'] . ' saved: <a href="view.php?id=' . $doc['id'] . '">'
            . h($doc['title']) . "</a>.</p>\n";
        echo "<h3>Preview</h3>\n<div class=\"document\">\n" . markup_to_html($doc['body']) . "</div>\n";
        page_footer();
        exit;
    }
}

function validate_document($doc, $categories)
{
    global $faq_config;
    $errors = array();
    if ($doc['title'] == '') {
        $errors[] = 'The question must not be empty.';
    } elseif (strlen($doc['title']) > $faq_config['max_title']) {
        $errors[] = 'The question is longer than ' . $faq_config['max_title'] . ' characters.';
    }
    if (trim($doc['body']) == '') {
        $errors[] = 'The answer must not be empty.';
    } elseif (strlen($doc['body']) > $faq_config['max_body']) {
        $errors[] = 'The answer is longer than ' . $faq_config['max_body'] . ' characters.';
    }
    if (!isset($categories[$doc['category']])) {
        $errors[] = 'Choose a category.';
    }
    if ($doc['author'] == '') {
        $errors[] = 'Say who wrote it.';
    }
    return $errors;
}

page_header($doc['id'] ? 'Edit document ' . $doc['id'] : 'New document', $doc['id'] ? '' : 'edit');
if (count($errors) > 0) {
    echo "<div class=\"errors\"><p>The document was not saved:</p>\n<ul>\n";
    foreach ($errors as $e) {
        echo '<li>' . h($e) . "</li>\n";
    }
    echo "</ul></div>\n";
}
?>
<form action="edit.php<?php echo $doc['id'] ? '?id=' . $doc['id'] : ''; ?>" method="post">
<table class="form">
<tr><td><label for="title">Question</label></td>
<td><input type="text" id="title" name="title" size="60" value="<?php echo h($doc['title']); ?>"></td></tr>
<tr><td><label for="category">Category</label></td>
<td><select id="category" name="category">
<?php
foreach ($categories as $slug => $cat) {
    echo '<option value="' . h($slug) . '"' . ($slug == $doc['category'] ? ' selected' : '') . '>'
        . h($cat['name']) . "</option>\n";
}
?>
</select></td></tr>
<tr><td><label for="author">Author</label></td>
<td><input type="text" id="author" name="author" value="<?php echo h($doc['author']); ?>"></td></tr>
<tr><td><label for="body">Answer</label></td>
<td><textarea id="body" name="body" rows="12" cols="60"><?php echo h(rtrim($doc['body'])); ?></textarea></td></tr>
</table>
<p><input type="submit" value="Save"></p>
</form>
<?php
page_footer();
