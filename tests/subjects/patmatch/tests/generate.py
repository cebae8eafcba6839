#!/usr/bin/env python3
"""Write the patmatch test pool: tests/inputs/, tests/manifest.txt, tests/expected/.

Deterministic (fixed seed).  About a third of the tests are hand-written
(pattern, replacement, options) triples aimed at one feature or error path
each; the rest combine random patterns built from the pattern grammar
(literals, ., classes, ranges, negation, closures, anchors, escapes) with
random replacements and random options, applied to random text lines.
Expected outputs come from building and running the correct version in src/.
"""
import os
import random
import shlex

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
rng = random.Random(7031)

WORDS = ["foo", "bar", "baz", "hello", "world", "a", "b", "abc", "aaa", "Abc", "ABC",
         "x1", "42", "3.14", "a-b", "[x]", "tab\there", "end.", "q?", "a*b", "$5",
         "^up", "back\\slash", "&amp", "mississippi", "banana", "", "  ", "Zz", "0x1F"]


def text_lines(n=None):
    lines = []
    for _ in range(n if n is not None else rng.randint(1, 6)):
        lines.append(" ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 6))))
    return "\n".join(lines) + ("\n" if rng.random() < 0.9 else "")


HAND = [
    # (args, input)
    ("a x", "banana\n"), ("-1 a x", "banana\n"), ("an AN", "banana\nan\n"),
    ("'a*' x", "baaac\nabc\n"), ("'x*' -", "abc\n"), ("'a+' x", "baaac\nbc\n"),
    ("'a?' x", "baaac\n"), ("'b?a' X", "ba a bba\n"), ("'.' '<&>'", "ab\n\n"),
    ("'..' X", "abcde\n"), ("'[abc]' '#'", "abcdef\n"), ("'[^abc]' '#'", "abcdef\n"),
    ("'[a-c]+' '(&)'", "xxabcabcyy cab\n"), ("'[0-9]' N", "a1b22c333\n"),
    ("'[^0-9]*' ''", "a1b22c333\n"), ("'[]]' R", "a]b]\n"), ("'[]-]' '#'", "a]b-c\n"),
    ("'[a-]' '#'", "a-b\n"), ("'[-a]' '#'", "a-b\n"), ("'[\\]]' '#'", "a]b\n"),
    ("'[\\t]' T", "a\tb\n"), ("'\\t' '<TAB>'", "x\ty\tz\n"), ("'[c-a]' x", "abc\n"),
    ("'[abc' x", "abc\n"), ("'[' x", "abc\n"), ("'[^' x", "abc\n"), ("'a\\' x", "abc\n"),
    ("'\\' x", "abc\n"), ("'^a' X", "aaa\nbaa\n"), ("'a$' X", "aaa\naab\n"),
    ("'^a*$' X", "aaa\naab\n\n"), ("'^' '> '", "one\ntwo\n"), ("'$' ';'", "one\ntwo\n"),
    ("'^$' EMPTY", "a\n\nb\n"), ("'a^b' X", "a^b\n"), ("'a$b' X", "a$b\n"),
    ("'\\$' D", "cost $5\n"), ("'5\\$' D", "5$ 5$\n"), ("'\\.' '\\&'", "a.b.c\n"),
    ("'\\*' star", "a*b**\n"), ("'*a' X", "*a a\n"), ("'a**' X", "a** a*\n"),
    ("'+' P", "1+2\n"), ("'?' Q", "why?\n"), ("'^*' X", "*abc\n"), ("'a\\+' X", "a+ aa\n"),
    ("o '[&&]'", "foo\n"), ("o '\\&'", "foo\n"), ("o '\\\\'", "foo\n"), ("o '\\n'", "foo\n"),
    ("o '\\t'", "foo\n"), ("o '\\q'", "foo\n"), ("o 'x\\'", "foo\n"), ("o ''", "foo boo\n"),
    ("-i hello HI", "Hello HELLO hello hElLo\n"), ("-i '[a-c]' '#'", "ABCDabcd\n"),
    ("-i '[^a-c]' '#'", "ABCDabcd\n"), ("-i 'x.Y' Z", "XaY xay\n"), ("-n a X", "abc\ndef\nbad\n"),
    ("-n zzz X", "abc\ndef\n"), ("-c a X", "banana\nbread\n"), ("-c zzz X", "abc\n"),
    ("-c -1 a X", "banana\nbread\n"), ("-1n a X", "banana\nno\n"), ("-nc a X", "banana\nno\nbar\n"),
    ("-1ic A X", "aAaA\n"), ("-- -a X", "b-a-c\n"), ("-x a b", "a\n"), ("a", "a\n"),
    ("", "a\n"), ("a b c", "a\n"), ("-1", "a\n"), ("- a", "a - b\n"), ("a X", ""),
    ("a X", "no newline a"), ("a X", "a\n\n\na\n"), ("'.*' '[&]'", "hello world\n\n"),
    ("'a.*b' X", "a1b2b3 aXb\n"), ("'a.?b' X", "ab a1b a12b\n"), ("'.+$' X", "abc\n"),
    ("'^.' X", "abc\n"), ("'[[]' O", "[x]\n"), ("'[a\\-z]' '#'", "a-mz\n"),
    ("'[z-z]' '#'", "zoo\n"), ("'[ -~]+' P", "visible text\n"),
    ("'[^ ]+' '<&>'", "the quick  brown fox\n"), ("'  *' ' '", "a   b    c d\n"),
    ("'[0-9]+\\.[0-9]+' F", "pi 3.14 e 2.71 x 1.\n"), ("'b*$' X", "abbb\nabba\n"),
    ("'ss?i' Z", "mississippi\n"), ("'issi' Z", "mississippi\n"), ("'s+' S", "mississippi\n"),
    ("-1 's+' S", "mississippi\n"), ("'^ *' ''", "   indented\n\tno\n"),
    ("'[aeiou]' ''", "the quick brown fox jumps over the lazy dog\n"),
    ("'[a-zA-Z]+' W", "Hello, World! 123\n"), ("'x?y?z?' '-'", "xyz abc\n"),
]


ATOMS = ["a", "b", "o", "s", "x", ".", "[abc]", "[a-z]", "[^a-z]", "[0-9]", "[^ ]", "\\.",
         "\\*", "\\t", "[A-Z]", "[ao]", "\\$", "\\[", "-", " ", "1", "[-x]"]


def derived_pattern(text):
    """A pattern built from a piece of the input, so that it usually matches."""
    flat = text.replace("\n", " ")
    if len(flat.strip()) < 2:
        return None
    start = rng.randrange(0, len(flat) - 1)
    piece = flat[start:start + rng.randint(1, 4)]
    parts = []
    for ch in piece:
        r = rng.random()
        if r < 0.15:
            parts.append(".")
        elif r < 0.3 and ch.isalpha():
            parts.append("[" + ch.lower() + "-z]" if rng.random() < 0.5 else "[^" + ch + "]")
        elif ch in ".*+?[\\$^\t":
            parts.append("\\" + ("t" if ch == "\t" else ch))
        else:
            parts.append(ch)
        r = rng.random()
        if r < 0.12:
            parts.append("*")
        elif r < 0.2:
            parts.append("+")
        elif r < 0.25:
            parts.append("?")
    if rng.random() < 0.08:
        parts.insert(0, "^")
    if rng.random() < 0.08:
        parts.append("$")
    return "".join(parts)


def rand_pattern():
    parts = []
    if rng.random() < 0.15:
        parts.append("^")
    for _ in range(rng.randint(1, 2)):
        parts.append(rng.choice(ATOMS))
        r = rng.random()
        if r < 0.2:
            parts.append("*")
        elif r < 0.3:
            parts.append("+")
        elif r < 0.38:
            parts.append("?")
    if rng.random() < 0.15:
        parts.append("$")
    return "".join(parts)


def rand_repl():
    return rng.choice(["X", "", "&", "[&]", "&&", "\\&", "-", "<\\t>", "\\\\", "_&_", "ZZ", "\\n"])


def rand_opts():
    opts = ""
    for o in "1inc":
        if rng.random() < 0.15:
            opts += o
    return ("-" + opts + " ") if opts else ""


def main():
    tests = list(HAND)
    while len(tests) < 330:
        text = text_lines()
        pat = derived_pattern(text) if rng.random() < 0.6 else None
        if pat is None:
            pat = rand_pattern()
        args = rand_opts() + shlex.quote(pat) + " " + shlex.quote(rand_repl())
        tests.append((args, text))
    write_expected(HERE, "patmatch", [("t%03d" % (k + 1), a, t) for k, (a, t) in enumerate(tests)])


# ---- shared tail: write the inputs and manifest, then record expected outputs ----
def write_expected(here, name, tests):
    import os, shutil, sys
    sys.path.insert(0, os.path.dirname(here))
    import subject_pool  # tests/subjects/subject_pool.py
    tdir = os.path.join(here, "tests")
    inputs = os.path.join(tdir, "inputs")
    if os.path.isdir(inputs):
        shutil.rmtree(inputs)
    os.makedirs(inputs)
    lines = []
    for tid, args, text in tests:
        path = os.path.join(inputs, tid + ".in")
        with open(path, "w", newline="") as f:
            f.write(text)
        lines.append("%s: ./%s%s < tests/inputs/%s.in" % (tid, name, (" " + args) if args else "", tid))
    with open(os.path.join(tdir, "manifest.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    subject_pool.record_expected(here, name, lines)
    print("%s: wrote %d tests" % (name, len(tests)))


if __name__ == "__main__":
    main()
