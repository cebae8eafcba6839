#!/usr/bin/env python3
"""Writes the htmlgen test pool: tests/inputs/, tests/manifest.txt and, by
running the correct version (built in a temporary directory), tests/expected/.

Usage: python3 tests/generate.py [--no-expected]
Deterministic: a fixed seed, so running it again gives the same files."""
import os, random, shutil, sys

NAME = 'htmlgen'
SEED = 5150
HERE = os.path.dirname(os.path.abspath(__file__))
SUBJ = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
import subject_pool  # noqa: E402  (tests/subjects/subject_pool.py)

rng = random.Random(SEED)

WORDS = ['alpha', 'beta', 'gamma', 'page', 'data', 'report', 'results',
         'the', 'of', 'and', 'notes', 'x', 'y', 'Summary', 'Intro',
         'Overview', 'API', 'v2.0', '42', '3.14', '-7', '1,000']
SPECIAL = ['&', '<', '>', '"', "'", 'a&b', '<tag>', 'x > y', '"quoted"',
           "it's", 'Q&A', '&amp;', '<!-- -->', 'AT&T']
MARKUP = ['*bold*', '_em_', '`code`', '*two words*', '`a < b`', '*',
          '_', '`', '**', 'snake_case_name', '*x & y*', '_"q"_']


def words(n, special=0.15, markup=0.1):
    out = []
    for _ in range(n):
        r = rng.random()
        if r < special:
            out.append(rng.choice(SPECIAL))
        elif r < special + markup:
            out.append(rng.choice(MARKUP))
        else:
            out.append(rng.choice(WORDS))
    return ' '.join(out)


def url():
    return rng.choice(['index.html', 'a/b.html', 'https://example.com/',
                       'search?q=1&n=2', 'page.html#top', '"odd".html',
                       "it's.html", 'x<y>.html', 'mailto:a@b.c'])


def section_title():
    r = rng.random()
    if r < 0.3:
        return rng.choice(['Intro', 'Results', 'Notes', 'Summary'])
    if r < 0.5:
        return rng.choice(['Q&A', 'Tom & Jerry', '"Quoted"', '<Tags>',
                           "What's new", '  Spaced   out  ', '!!!', '2024'])
    return words(rng.randint(1, 4), 0.1, 0.1)


def block_line():
    k = rng.choices(['p', 'item', 'oitem', 'link', 'table', 'code', 'quote',
                     'image', 'blank', 'end', 'comment', 'subsection',
                     'section'],
                    [14, 12, 5, 4, 6, 3, 2, 2, 6, 1, 2, 4, 5])[0]
    if k == 'p':
        return 'p: ' + words(rng.randint(1, 12))
    if k in ('item', 'oitem'):
        return [k + ': ' + words(rng.randint(1, 5))
                for _ in range(rng.randint(1, 4))]
    if k == 'link':
        return 'link: %s | %s' % (words(rng.randint(1, 3)), url())
    if k == 'table':
        width = rng.randint(1, 4)
        rows = []
        for r in range(rng.randint(1, 5)):
            n = width if rng.random() < 0.75 else rng.randint(1, width + 2)
            cells = [rng.choice([words(1), str(rng.randint(-50, 5000)),
                                 '%.2f' % rng.uniform(-10, 100), '', 'n/a'])
                     for _ in range(n)]
            row = ' | '.join(cells)
            rows.append('table: ' + (row if row.strip() else 'n/a'))
        return rows
    if k == 'code':
        return ['code: ' + rng.choice(['int x = 1;', '  if (a < b && c)',
                                       '    return "s";', '}', '',
                                       "char c = '&';", '\tx++;'])
                for _ in range(rng.randint(1, 4))]
    if k == 'quote':
        return 'quote: ' + words(rng.randint(1, 8))
    if k == 'image':
        return 'image: %s | %s' % (words(rng.randint(1, 3)),
                                   rng.choice(['cat.png', 'a b.jpg',
                                               'x"y".gif', 'img?s=1&t=2']))
    if k == 'blank':
        return ''
    if k == 'end':
        return 'end:'
    if k == 'comment':
        return '# ' + words(3)
    if k == 'subsection':
        return 'subsection: ' + section_title()
    return 'section: ' + section_title()


def document(nblocks):
    lines = []
    if rng.random() < 0.85:
        lines.append('title: ' + words(rng.randint(1, 5), 0.2, 0.0))
    if rng.random() < 0.3:
        lines.append('author: ' + rng.choice(['Ann Lee', 'B. "Bo" Ode',
                                               "O'Neil", 'R&D Team']))
    if rng.random() < 0.25:
        lines.append('date: ' + rng.choice(['2024-01-05', 'May 1 <draft>',
                                             'today']))
    if rng.random() < 0.2:
        lines.append('lang: ' + rng.choice(['fr', 'de', 'en-GB']))
    for _ in range(rng.randint(0, 4) if rng.random() < 0.6 else 0):
        lines.append('nav: %s | %s' % (words(rng.randint(1, 2), 0.1, 0),
                                       url()))
    if rng.random() < 0.7:
        lines.append('section: ' + section_title())
    for _ in range(nblocks):
        b = block_line()
        if isinstance(b, list):
            lines += b
        else:
            lines.append(b)
    return '\n'.join(lines) + '\n'


ERRORS = [
    'title: a\nbogus: x\n',
    'title: a\nno colon here\n',
    'title: a\ntitle: b\n',
    'author: a\nauthor: b\n',
    'title:\n',
    'p:   \n',
    'section:\n',
    'nav: Home\n',
    'nav: | x.html\n',
    'nav: Home |\n',
    'link: text only\n',
    'image: | a.png\n',
    'p: ok\nitem: ok\nfoo: 1\nbar: 2\n',
    'P: capital key\n',
    ':\n',
    'p: ' + 'x' * 600 + '\n',
    'p: ' + 'y' * 1100 + '\np: fine\n',
    'lang: ' + 'z' * 40 + '\n',
    ''.join('nav: n%d | u%d.html\n' % (i, i) for i in range(33)),
    ''.join('p: %d\n' % i for i in range(2001)),
]

FIXED_OK = [
    ('', ''),
    ('', 'title: Only a title\n'),
    ('', '# just a comment\n\n'),
    ('-t', 'title: T\np: no sections here\n'),
    ('-t', 'title: T\nsection: A\nsection: B\nsection: C\n'),
    ('-t -n', 'section: A\nsubsection: A1\nsubsection: A2\nsection: B\nsubsection: B1\n'),
    ('-t -n', 'subsection: Orphan\np: x\nsection: Real\n'),
    ('-t', 'section: Same\nsection: Same\nsection: same!\nsubsection: Same\n'),
    ('-n', 'section: A\nsubsection: A1\np: in sub\nsection: B\np: in B\n'),
    ('', 'item: a\nitem: b\n\nitem: c\nend:\nitem: d\noitem: e\noitem: f\n'),
    ('', 'table: a | b\n'),
    ('', 'table: a | b\ntable: 1 | 2 | 3 | 4\ntable: x\n\ntable: new | table\n'),
    ('', 'table: ' + ' | '.join('c%d' % i for i in range(14)) + '\ntable: 1\n'),
    ('', 'table: n\ntable: -\ntable: -5\ntable: 1.5.6\ntable: 1,2\ntable: 9x\ntable: .\n'),
    ('', 'code: a\ncode:\ncode:    indented\ncode:b\n\ncode: second block\n'),
    ('', 'p: *a* *b* _c_ `d` *unclosed\np: ** and __ and `` stay\np: *x_y_z*\n'),
    ('', 'p: 5 < 6 && 7 > 3, "yes" it\'s\n'),
    ('', 'link: A & B | http://x.com/?a=1&b=<2>\nimage: "q" | it\'s.png\n'),
    ('', 'nav: Home | /\nnav: <Docs> | docs.html?x="1"\n'),
    ('', 'title: T\ndate: 2024\n'),
    ('', 'author: Me\n'),
    ('', 'lang: de\nlang: fr\ntitle: Deutsch\n'),
    ('', 'section:    Lots   of   space   \np:   trimmed   \n'),
    ('', 'section: ###\nsection: ---\n'),
    ('', 'quote: *deep* thoughts & <things>\n'),
    ('', 'title: Win\r\np: crlf line\r\nitem: a\r\n'),
    ('-c', 'title: C\nsection: S\nitem: a\ntable: x | y\ntable: 1 | 2\ncode: x\n'),
    ('-F', 'title: no footer\np: x\n'),
    ('-T dark', 'title: dark\n'),
    ('-T plain', 'title: plain\n'),
    ('-T light -t -n -F -c', 'section: A\nsubsection: B\np: x\n'),
]

BAD_OPTIONS = ['-x', '-T', '-T blue', '-T Dark', '-tn', '--help']

OPTION_SETS = ['', '', '', '-t', '-n', '-t -n', '-F', '-c', '-T dark',
               '-T plain', '-t -c', '-n -T dark', '-t -n -F', '-c -T plain -t']


def make_tests():
    tests = list(FIXED_OK)
    for e in ERRORS:
        tests.append((rng.choice(['', '-t']), e))
    for o in BAD_OPTIONS:
        tests.append((o, 'title: x\n'))
    for _ in range(190):
        tests.append((rng.choice(OPTION_SETS), document(rng.randint(1, 5))))
    for _ in range(30):
        tests.append((rng.choice(OPTION_SETS), document(rng.randint(6, 30))))
    # random documents with one broken line
    for _ in range(15):
        doc = document(rng.randint(1, 8)).split('\n')
        pos = rng.randint(0, len(doc) - 1)
        doc.insert(pos, rng.choice(['oops', 'Item: x', 'nav: x', 'p:',
                                    'link: nothing']))
        tests.append((rng.choice(OPTION_SETS), '\n'.join(doc)))
    return tests


def write_pool(tests):
    inputs = os.path.join(HERE, 'inputs')
    shutil.rmtree(inputs, ignore_errors=True)
    os.makedirs(inputs)
    lines = []
    for i, (args, text) in enumerate(tests, 1):
        t = 't%03d' % i
        with open(os.path.join(inputs, t + '.in'), 'w', newline='') as f:
            f.write(text)
        cmd = './%s%s < tests/inputs/%s.in' % (NAME, ' ' + args if args else '', t)
        lines.append('%s: %s\n' % (t, cmd))
    with open(os.path.join(HERE, 'manifest.txt'), 'w') as f:
        f.writelines(lines)
    return lines


def write_expected(lines):
    """runs the correct version on every test and records its output"""
    subject_pool.record_expected(SUBJ, NAME, lines)


if __name__ == '__main__':
    pool = write_pool(make_tests())
    if '--no-expected' not in sys.argv:
        write_expected(pool)
    print('%d tests' % len(pool))
