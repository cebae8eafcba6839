<?php
/*
 * The document store: two flat files in the data directory.
 *
 *   categories.dat   one category a line: slug|name|description
 *   faq.dat          documents, each a block:
 *                      == ID
 *                      category: SLUG
 *                      title: TEXT
 *                      author: NAME
 *                      created: YYYY-MM-DD
 *                      views: N
 *                      ---
 *                      body text (FAQDesk markup, inc/markup.php)
 */

$faq_categories = null;
$faq_documents = null;

function load_categories()
{
    global $faq_config, $faq_categories;
    if ($faq_categories !== null) {
        return $faq_categories;
    }
    $faq_categories = array();
    $lines = file($faq_config['data_dir'] . '/categories.dat', FILE_IGNORE_NEW_LINES);
    foreach ($lines as $line) {
        if ($line === '' || $line[0] == '#') {
            continue;
        }
        $parts = explode('|', $line, 3);
        $faq_categories[$parts[0]] = array(
            'slug' => $parts[0],
            'name' => $parts[1],
            'description' => isset($parts[2]) ? $parts[2] : '',
        );
    }
    return $faq_categories;
}

function load_documents()
{
    global $faq_config, $faq_documents;
    if ($faq_documents !== null) {
        return $faq_documents;
    }
    $faq_documents = array();
    $doc = null;
    $in_body = false;
    $lines = file($faq_config['data_dir'] . '/faq.dat', FILE_IGNORE_NEW_LINES);
    foreach ($lines as $line) {
        if (substr($line, 0, 3) == '== ') {
            if ($doc !== null) {
                $faq_documents[$doc['id']] = finish_document($doc);
            }
            $doc = array('id' => (int) substr($line, 3), 'body' => '', 'views' => 0,
                         'author' => 'anonymous', 'category' => 'general');
            $in_body = false;
        } elseif ($doc === null) {
            continue;
        } elseif ($in_body) {
            $doc['body'] .= $line . "\n";
        } elseif ($line == '---') {
            $in_body = true;
        } elseif (preg_match('/^(\w+):\s*(.*)$/', $line, $m)) {
            $doc[$m[1]] = $m[2];
        }
    }
    if ($doc !== null) {
        $faq_documents[$doc['id']] = finish_document($doc);
    }
    return $faq_documents;
}

function finish_document($doc)
{
    $doc['body'] = rtrim($doc['body']) . "\n";
    $doc['views'] = (int) $doc['views'];
    return $doc;
}

function get_document($id)
{
    $docs = load_documents();
    return isset($docs[$id]) ? $docs[$id] : null;
}

function get_category($slug)
{
    $cats = load_categories();
    return isset($cats[$slug]) ? $cats[$slug] : null;
}

function documents_in_category($slug)
{
    $list = array();
    foreach (load_documents() as $doc) {
        if ($doc['category'] == $slug) {
            $list[] = $doc;
        }
    }
    return $list;
}

function count_by_category()
{
    $counts = array();
    foreach (load_categories() as $slug => $cat) {
        $counts[$slug] = 0;
    }
    foreach (load_documents() as $doc) {
        if (isset($counts[$doc['category']])) {
            $counts[$doc['category']]++;
        }
    }
    return $counts;
}

/* Sort documents by 'title' (A-Z), 'date' (newest first) or 'views' (most first). */
function sort_documents($docs, $order)
{
    if ($order == 'date') {
        usort($docs, function ($a, $b) {
            $c = strcmp($b['created'], $a['created']);
            return $c != 0 ? $c : $a['id'] - $b['id'];
        });
    } elseif ($order == 'views') {
        usort($docs, function ($a, $b) {
            return $b['views'] - $a['views'];
        });
    } else {
        usort($docs, function ($a, $b) {
            return strcasecmp($a['title'], $b['title']);
        });
    }
    return $docs;
}

function recent_documents($n)
{
    return array_slice(sort_documents(load_documents(), 'date'), 0, $n);
}

/* Documents of the same category, most viewed first, without $doc itself. */
function related_documents($doc, $n)
{
    $related = array();
    foreach (sort_documents(documents_in_category($doc['category']), 'views') as $other) {
        if ($other['id'] != $doc['id']) {
            $related[] = $other;
        }
        if (count($related) == $n) {
            break;
        }
    }
    return $related;
}

/* Every document whose title or body holds all the words of $query. */
function search_documents($query)
{
    $words = preg_split('/\s+/', strtolower(trim($query)));
    $hits = array();
    foreach (load_documents() as $doc) {
        $text = strtolower($doc['title'] . ' ' . $doc['body']);
        $score = 0;
        foreach ($words as $word) {
            $n = substr_count($text, $word);
            if ($n == 0) {
                $score = 0;
                break;
            }
            $score += $n + (stripos($doc['title'], $word) !== false ? 5 : 0);
        }
        if ($score > 0) {
            $doc['score'] = $score;
            $hits[] = $doc;
        }
    }
    usort($hits, function ($a, $b) {
        return $b['score'] != $a['score'] ? $b['score'] - $a['score'] : $a['id'] - $b['id'];
    });
    return $hits;
}

function next_document_id()
{
    $max = 0;
    foreach (load_documents() as $id => $doc) {
        $max = max($max, $id);
    }
    return $max + 1;
}

/* Put $doc into the store (replacing one of the same id) and save when configured. */
function store_document($doc)
{
    global $faq_config, $faq_documents;
    load_documents();
    $faq_documents[$doc['id']] = $doc;
    if (!$faq_config['persist']) {
        return true;
    }
    $out = '';
    foreach ($faq_documents as $d) {
        $out .= '== ' . $d['id'] . "\n";
        foreach (array('category', 'title', 'author', 'created', 'views') as $key) {
            $out .= $key . ': ' . $d[$key] . "\n";
        }
        $out .= "---\n" . $d['body'];
    }
    return file_put_contents($faq_config['data_dir'] . '/faq.dat', $out) !== false;
}
