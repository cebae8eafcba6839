<?php
/*
 * FAQDesk markup, a small wiki syntax for document bodies:
 *
 *   a blank line separates paragraphs
 *   "- item" lines make a bulleted list, "1. item" lines a numbered one
 *   lines indented by two blanks are code, shown as written
 *   **bold**, `code` and [text](http://link) inside a line
 */

function markup_inline($text)
{
    $text = h($text);
    $text = preg_replace('/\*\*(.+?)\*\*/', '<strong>$1</strong>', $text);
    $text = preg_replace('/`(.+?)`/', '<code>$1</code>', $text);
    $text = preg_replace_callback('/\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/', 'markup_link', $text);
    return $text;
}

function markup_link($m)
{
    return '<a href="' . $m[2] . '">' . $m[1] . '</a>';
}

function markup_to_html($body)
{
    $html = '';
    $para = array();
    $list = '';      // 'ul' or 'ol' while inside a list
    $code = array();
    $lines = explode("\n", rtrim($body));
    $lines[] = '';   // a blank line at the end closes whatever is open
    foreach ($lines as $line) {
        if (substr($line, 0, 2) == '  ' && $list == '') {
            $html .= markup_flush_para($para);
            $code[] = substr($line, 2);
            continue;
        }
        if (count($code) > 0) {
            $html .= '<pre>' . h(implode("\n", $code)) . "</pre>\n";
            $code = array();
        }
        if (preg_match('/^- (.*)$/', $line, $m) || preg_match('/^\d+\. (.*)$/', $line, $n)) {
            $html .= markup_flush_para($para);
            $kind = isset($m[1]) ? 'ul' : 'ol';
            if ($list != $kind) {
                if ($list != '') {
                    $html .= "</$list>\n";
                }
                $html .= "<$kind>\n";
                $list = $kind;
            }
            $item = isset($m[1]) ? $m[1] : $n[1];
            $html .= '<li>' . markup_inline($item) . "</li>\n";
            $m = $n = null;
            continue;
        }
        if ($list != '') {
            $html .= "</$list>\n";
            $list = '';
        }
        if (trim($line) == '') {
            $html .= markup_flush_para($para);
        } else {
            $para[] = trim($line);
        }
    }
    return $html;
}

function markup_flush_para(&$para)
{
    if (count($para) == 0) {
        return '';
    }
    $html = '<p>' . markup_inline(implode(' ', $para)) . "</p>\n";
    $para = array();
    return $html;
}
