<?php
/*
 * The page frame: header with the navigation bar, footer.
 */

function page_header($title, $active = '')
{
    global $faq_config;
    $nav = array(
        'index' => array('index.php', 'Home'),
        'search' => array('search.php', 'Search'),
        'stats' => array('stats.php', 'Statistics'),
    );
    if (is_admin()) {
        $nav['edit'] = array('edit.php', 'New document');
    } else {
        $nav['login'] = array('login.php', 'Log in');
    }
    ?>
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title><?php echo h($title); ?> - <?php echo h($faq_config['site_name']); ?></title>
<link rel="stylesheet" href="style.css">
</head>
<body>
<div id="header">
<h1><a href="index.php"><?php echo h($faq_config['site_name']); ?></a></h1>
<p class="tagline"><?php echo h($faq_config['site_tagline']); ?></p>
</div>
<ul id="nav">
<?php
    foreach ($nav as $key => $item) {
        if ($key == $active) {
            echo '<li class="active"><a href="' . $item[0] . '">' . $item[1] . "</a></li>\n";
        } else {
            echo '<li><a href="' . $item[0] . '">' . $item[1] . "</a></li>\n";
        }
    }
    ?>
</ul>
<div id="content">
<?php
}

function page_footer()
{
    global $faq_config;
    $docs = load_documents();
    ?>
</div>
<div id="footer">
<p><?php echo h($faq_config['site_name']); ?> holds <?php echo plural(count($docs), 'document', 'documents'); ?>.</p>
</div>
</body>
</html>
<?php
}

/* The breadcrumb trail: Home > Category > Title */
function breadcrumbs($category = null, $title = null)
{
    echo '<p class="crumbs"><a href="index.php">Home</a>';
    if ($category !== null) {
        echo ' &gt; <a href="category.php?c=' . urlencode($category['slug']) . '">' . h($category['name']) . '</a>';
    }
    if ($title !== null) {
        echo ' &gt; ' . h($title);
    }
    echo "</p>\n";
}

function document_row($doc, $query = '')
{
    global $faq_config;
    $title = $query != '' ? highlight($doc['title'], $query) : h($doc['title']);
    echo '<tr><td><a href="view.php?id=' . $doc['id'] . '">' . $title . '</a></td>';
    echo '<td>' . h(excerpt($doc['body'], $faq_config['excerpt_len'])) . '</td>';
    echo '<td>' . format_date($doc['created']) . '</td>';
    echo '<td class="num">' . $doc['views'] . "</td></tr>\n";
}
