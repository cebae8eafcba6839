#!/usr/bin/env python3
"""Writes the tokenizer test pool: tests/inputs/, tests/manifest.txt and, by
running the correct version (built in a temporary directory), tests/expected/.

Usage: python3 tests/generate.py [--no-expected]
Deterministic: a fixed seed, so running it again gives the same files."""
import os, random, shutil, sys

NAME = 'tokenizer'
SEED = 20240607
HERE = os.path.dirname(os.path.abspath(__file__))
SUBJ = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
import subject_pool  # noqa: E402  (tests/subjects/subject_pool.py)

rng = random.Random(SEED)

KEYWORDS = ['break', 'case', 'char', 'const', 'continue', 'default', 'do',
            'else', 'float', 'for', 'if', 'int', 'return', 'sizeof', 'static',
            'struct', 'switch', 'typedef', 'void', 'while']
NEAR_KEYWORDS = ['iff', 'Int', 'whilex', 'do_', 'return1', 'fo', 'els', '_if',
                 'structs', 'vo1d']
OPERATORS = ['<<=', '>>=', '...', '->', '++', '--', '<<', '>>', '<=', '>=',
             '==', '!=', '&&', '||', '+=', '-=', '*=', '/=', '%=', '&=', '|=',
             '^=', '+', '-', '*', '/', '%', '<', '>', '=', '!', '&', '|', '^',
             '~', '?', ':', '.', ',']
PUNCT = list(';()[]{}')
ESCAPES = ['\\n', '\\t', '\\r', '\\0', '\\\\', "\\'", '\\"', '\\x41', '\\x7e',
           '\\xA', '\\x0']
BAD = ['09', '0789', '1e', '2.5e+', '0x', '0XG', '12abc', '3.0f', '@', '#',
       '$', '`', "''", "'ab'", '"\\q"', "'\\z'", '"\\x"', '"open', "'x",
       '\\']


def ident():
    r = rng.random()
    if r < 0.15:
        return rng.choice(NEAR_KEYWORDS)
    if r < 0.5:
        return rng.choice(['x', 'y', 'i', 'n', 'count', 'buf', 'p', 'len_'])
    first = rng.choice('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_')
    rest = ''.join(rng.choice('abcdefghijklmnopqrstuvwxyz_0123456789')
                   for _ in range(rng.randint(0, 9)))
    return first + rest


def number():
    r = rng.random()
    if r < 0.35:
        return str(rng.randint(0, 99999))
    if r < 0.5:
        return rng.choice(['0x', '0X']) + '%x' % rng.randint(0, 0xfffff)
    if r < 0.6:
        return '0' + '%o' % rng.randint(0, 4095)
    if r < 0.7:
        return '%d.%d' % (rng.randint(0, 999), rng.randint(0, 999))
    if r < 0.8:
        return '.%d' % rng.randint(0, 999)
    if r < 0.9:
        return '%de%s%d' % (rng.randint(1, 99), rng.choice(['', '+', '-']),
                            rng.randint(0, 30))
    return '%d.%dE%d' % (rng.randint(0, 9), rng.randint(0, 99),
                         rng.randint(0, 9))


def char_lit():
    if rng.random() < 0.4:
        return "'" + rng.choice(ESCAPES) + "'"
    return "'" + rng.choice('abcXYZ019 +-*/"?') + "'"


def string_lit():
    parts = []
    for _ in range(rng.randint(0, 6)):
        if rng.random() < 0.3:
            parts.append(rng.choice(ESCAPES))
        else:
            parts.append(rng.choice(['hello', ' ', 'a', 'x y', '%d', "'",
                                     'A-Z', '/*', '//', '{}']))
    return '"' + ''.join(parts) + '"'


def comment():
    if rng.random() < 0.5:
        return '// ' + rng.choice(['note', 'x = 1;', '"quoted"', '/* no */',
                                   'end']) + '\n'
    body = rng.choice(['', ' c ', '*', ' multi\n line ', ' a * b / c ',
                       '\n\n', ' "str" ', '/'])
    return '/*' + body + '*/'


def space():
    return rng.choice([' ', ' ', ' ', '  ', '\t', '\n', '\n', ' \t ',
                       '\n\t', '\n    ', '\r\n'])


def token(err_rate):
    r = rng.random()
    if r < err_rate:
        return rng.choice(BAD)
    r = rng.random()
    if r < 0.15:
        return rng.choice(KEYWORDS)
    if r < 0.35:
        return ident()
    if r < 0.48:
        return number()
    if r < 0.53:
        return char_lit()
    if r < 0.60:
        return string_lit()
    if r < 0.80:
        return rng.choice(OPERATORS)
    if r < 0.93:
        return rng.choice(PUNCT)
    return comment()


def program(ntok, err_rate):
    out = []
    for _ in range(ntok):
        t = token(err_rate)
        out.append(t)
        # separate tokens so that they do not merge, mostly
        out.append(space() if rng.random() < 0.7 else ' ')
    return ''.join(out)


def glued_operators():
    """operators written without spaces, to exercise longest match"""
    return ''.join(rng.choice(OPERATORS + ['a', 'b', '1']) for _ in range(
        rng.randint(3, 12))) + '\n'


FIXED = [
    ('', ''),
    ('', '\n\n\n'),
    ('', 'int main(void) { return 0; }\n'),
    ('', 'a<<=b>>=c...d->e\n'),
    ('', 'x+++y---z\n'),
    ('', 'a&&b||c&d|e^f~g!h\n'),
    ('', '"unterminated\nnext line\n'),
    ('', "'a\n'b'\n"),
    ('', '/* never closed\nint x;\n'),
    ('-c', '/* never closed\nint x;'),
    ('', '/* a */ /* b */ // c\nx'),
    ('-c', '/* a */ /* b */ // c\nx'),
    ('-c', '//'),
    ('-c', '/**/'),
    ('-c', '/***/ /* ** */ a'),
    ('', '0 00 007 08 0x0 0xFF 0Xabc 1234567\n'),
    ('', '1.0 .5 5. 1e3 1E-3 2.5e+10 1e\n'),
    ('', '5.x\n'),
    ('', "'\\n' '\\t' '\\0' '\\\\' '\\'' '\\\"' '\\x41' '\\x' 'a'\n"),
    ('', '"\\x414" "\\xZ" "\\"" "" "a\\tb"\n'),
    ('', '\tx\n\t\ty\n  \tz\n'),
    ('-t 4', '\tx\n\t\ty\n  \tz\n'),
    ('-t 1', '\tx\n\t\ty\n  \tz\n'),
    ('-t 16', 'a\tb\tc\n'),
    ('-t 3', 'ab\tc\t\td\n'),
    ('-n', 'int x = 1;\n'),
    ('-s', 'int x = 1;\n'),
    ('-s', ''),
    ('-s -c', '// a\n/* b */ int;\n'),
    ('-i', 'a b a c b a\n'),
    ('-i', ''),
    ('-i -s', 'x y x\nz x\n'),
    ('-e', 'a @ b # c\n'),
    ('-e -s', 'a @ b # c\n'),
    ('-e', 'a b c\n'),
    ('', '@#$`\\\n'),
    ('', 'if else while for do return int char float void\n'),
    ('', 'struct break continue switch case default sizeof typedef const static\n'),
    ('', 'iff Int _ __x x1 _9 a_b_c\n'),
    ('', 'a\r\nb\r\n'),
    ('', '"tab\there"\n'),
    ('', '/*\n\n*/x\n'),
    ('', '/ / /= // x\n'),
    ('', 'a.b a->b a...b ..\n'),
    ('', '0x1g 12e 99L\n'),
    ('-c -n', 'x /* c1 */ y // c2\n'),
    ('-i', 'int count; count = count + 1; return count;\n'),
    ('-x', 'a\n'),
    ('-t', 'a\n'),
    ('-t 0', 'a\n'),
    ('-t 17', 'a\n'),
    ('-t abc', 'a\n'),
    ('-t 4x', 'a\n'),
    ('-n -n -c', 'a /**/ b\n'),
]


def long_ident_input():
    return 'a' * 300 + ' b\n'


def many_idents_input():
    return ' '.join('id%d' % i for i in range(530)) + '\n'


OPTION_SETS = ['', '', '', '', '-c', '-n', '-s', '-i', '-t 4', '-e', '-c -n',
               '-s -c', '-i -c', '-t 2 -c', '-n -i', '-e -c', '-s -i']


def make_tests():
    tests = []
    for args, text in FIXED:
        tests.append((args, text))
    tests.append(('', long_ident_input()))
    tests.append(('-i -s', many_idents_input()))
    for _ in range(25):
        tests.append((rng.choice(['', '-n', '-s']), glued_operators()))
    for _ in range(90):
        tests.append((rng.choice(OPTION_SETS),
                      program(rng.randint(3, 40), 0.0)))
    for _ in range(80):
        tests.append((rng.choice(OPTION_SETS),
                      program(rng.randint(3, 30), 0.08)))
    for _ in range(40):
        tests.append((rng.choice(OPTION_SETS),
                      program(rng.randint(40, 120), 0.02)))
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
