#!/usr/bin/env python3
"""Write the fmt test pool: tests/inputs/, tests/manifest.txt, tests/expected/.

Deterministic (fixed seed).  A set of hand-written tests covers each option,
option errors and layout corner cases (empty input, blank-line runs, crown
indentation, tabs, hyphen breaks, over-long words, widths of 1).  The rest are
random documents of 1-3 paragraphs drawn from a vocabulary with hyphenated and
very long words, random indentation, tabs and trailing blanks, formatted with
random widths, alignments and tab stops.  Expected outputs come from building
and running the correct version in src/.
"""
import os
import random

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
rng = random.Random(4242)

VOCAB = ("the a of to and in is it that was for on are with as be at by this "
         "from or have not but what all were when we there can an your which "
         "their said if do will each about how up out them then she many some "
         "so these would other into has more her two like him see time could "
         "no make than first been its who now people my made over did down only "
         "way find use may water long little very after words called just where "
         "most know get through back much before go good new write our used me "
         "man too any day same right look think also around another came come work").split()
HYPH = ["well-known", "state-of-the-art", "self-contained", "x-ray", "mother-in-law",
        "re-enter", "e-mail", "one-to-one", "long-term", "up-to-date", "-dash", "dash-",
        "a--b", "co-op", "12-34", "T-shirt"]
LONG = ["supercalifragilisticexpialidocious", "antidisestablishmentarianism",
        "https://example.org/a/very/long/path/name", "internationalization-localization"]
PUNCT = ["Hello,", "world.", "(parens)", "end!", "why?", "\"quoted\"", "semi;", "x:y", "42", "3.14"]


def word():
    r = rng.random()
    if r < 0.08:
        return rng.choice(HYPH)
    if r < 0.11:
        return rng.choice(LONG)
    if r < 0.2:
        return rng.choice(PUNCT)
    return rng.choice(VOCAB)


def paragraph():
    lines = []
    first = rng.choice([0, 0, 0, 2, 4, 8])
    rest = rng.choice([0, 0, first, 2, 3])
    for k in range(rng.randint(1, 4)):
        ind = first if k == 0 else rest
        if rng.random() < 0.1:
            pre = "\t" if ind == 0 else " " * ind + "\t"
        else:
            pre = " " * ind
        sep = lambda: rng.choice([" ", " ", " ", "  ", "\t"])
        body = ""
        for i in range(rng.randint(1, 9)):
            body += (sep() if i else "") + word()
        tail = rng.choice(["", "", "", "  ", " \t", "\r"])
        lines.append(pre + body + tail)
    return lines


def document():
    out = []
    for k in range(rng.randint(1, 3)):
        if k:
            out.extend([""] * rng.choice([1, 1, 1, 2]))
            if rng.random() < 0.1:
                out[-1] = "   "
        out.extend(paragraph())
    text = "\n".join(out)
    return text + ("\n" if rng.random() < 0.92 else "")


def options():
    parts = []
    if rng.random() < 0.9:
        parts.append("-w %d" % rng.choice([8, 10, 12, 15, 20, 20, 25, 30, 30, 35, 40, 50, 60, 72]))
    a = rng.random()
    if a < 0.25:
        parts.append("-j")
    elif a < 0.4:
        parts.append("-r")
    elif a < 0.55:
        parts.append("-c")
    elif a < 0.65:
        parts.append("-l")
    if rng.random() < 0.12:
        parts.append("-t %d" % rng.choice([1, 2, 4, 8]))
    rng.shuffle(parts)
    return " ".join(parts)


SAMPLE = ("The quick brown fox jumps over the lazy dog, and a well-known state-of-the-art\n"
          "fox-hunting technique\nis used here.\n")
HAND = [
    ("", ""), ("", "\n"), ("", "\n\n\n"), ("", "one\n"), ("", "no newline at end"),
    ("", SAMPLE), ("-w 20", SAMPLE), ("-w 20 -j", SAMPLE), ("-w 20 -r", SAMPLE),
    ("-w 20 -c", SAMPLE), ("-w 20 -l", SAMPLE), ("-j -w 20", SAMPLE), ("-w 20 -j -l", SAMPLE),
    ("-w 1", "a b c\n"), ("-w 1", "ab cd\n"), ("-w 1 -j", "a b c\n"), ("-w 1 -r", "a bb\n"),
    ("-w 1 -c", "a bb\n"), ("-w 3", "a-b c-d\n"), ("-w 5", "ab-cd-ef\n"), ("-w 6", "ab-cd-ef gh\n"),
    ("-w 10", "well-known-word-breaks\n"), ("-w 10", "-leading dash\n"), ("-w 10", "trailing- dash\n"),
    ("-w 10", "aa bb--cc dd\n"), ("-w 10", "12-345-6789 x\n"),
    ("-w 10", "supercalifragilisticexpialidocious\n"), ("-w 10 -j", "a supercalifragilisticexpialidocious b c\n"),
    ("-w 10 -r", "a supercalifragilisticexpialidocious b\n"), ("-w 10 -c", "a supercalifragilisticexpialidocious b\n"),
    ("-w 20", "    indented first line of a paragraph that wraps around\n"),
    ("-w 20", "    crown first line that wraps\n  second line here that also wraps\n  third\n"),
    ("-w 20", "hanging\n      indent lines with more words to wrap\n"),
    ("-w 20 -j", "    crown first line that wraps\n  second line here that also wraps\n"),
    ("-w 20 -r", "    crown first line that wraps\n  second line here\n"),
    ("-w 20 -c", "    crown first line that wraps\n  second line here\n"),
    ("-w 10", "                  deep indent beyond the width\n"),
    ("-w 10 -j", "                  deep indent beyond the width\n"),
    ("-w 20", "\tTab indented paragraph with words\n"), ("-w 20 -t 4", "\tTab indented paragraph with words\n"),
    ("-t 3", "a\tb\tc\n\tx\n"), ("-t 1", "a\tb\t\tc\n"), ("-w 30", "col1\tcol2\tcol3\n"),
    ("", "trailing spaces   \nand tabs\t\t\nand cr\r\n"), ("", "para one\n\npara two\n"),
    ("", "para one\n\n\n\npara two\n"), ("", "para one\n   \t \npara two\n"), ("", "\n\npara\n\n"),
    ("-w 15 -j", "justify this text please it is long enough\n\nand this\n"),
    ("-w 15 -j", "one two three four five six seven eight nine ten\n"),
    ("-w 16 -j", "a b c d e f g h i j k l m n o p q r s t\n"),
    ("-w 12 -j", "aaaa bbbbbbbbbbbbbbb cc\n"), ("-w 9 -j", "aaa bb c dddd eee f\n"),
    ("-w 0", "x\n"), ("-w -5", "x\n"), ("-w abc", "x\n"), ("-w 12x", "x\n"), ("-w", "x\n"),
    ("-w 1000", SAMPLE), ("-w 1001", "x\n"), ("-t 0", "x\n"), ("-t", "x\n"), ("-t 9 -w 30", "\ta\tb\n"),
    ("-x", "x\n"), ("--width", "x\n"), ("-w 20 extra", "x\n"), ("-", "x\n"), ("-jr", "x\n"),
    ("-w 20", "word " * 30 + "\n"), ("-w 72 -j", "word " * 40 + "\n"), ("-w 40 -c", "centered title\n\nbody text follows here\n"),
    ("-w 40 -r", "right\naligned\ntext lines\n"), ("-w 13", "exactly13char\n"), ("-w 13", "exactly13char x\n"),
    ("-w 13", "abcdef abcdef\n"), ("-w 12", "abcdef abcdef\n"), ("-w 14 -j", "abcdef abcdef x\n"),
    ("-w 7", "abc-def ghi\n"), ("-w 8", "abc defg-hij\n"), ("-w 9", "abc defg-hij\n"), ("-w 10", "abc defg-hij\n"),
]


def main():
    tests = list(HAND)
    while len(tests) < 320:
        tests.append((options(), document()))
    write_expected(HERE, "fmt", [("t%03d" % (k + 1), a, t) for k, (a, t) in enumerate(tests)])


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
