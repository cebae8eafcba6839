#!/usr/bin/env python3
"""Write the iniparse test pool: tests/inputs/, tests/manifest.txt, tests/expected/.

Deterministic (fixed seed).  Hand-written tests cover each syntax rule, each
error message, each option and the CSV corner cases (quotes, doubled quotes,
embedded separators and newlines, CRLF, blank lines, ranges, header names).
Random INI files mix sections (in mixed case, sometimes reopened), plain,
commented, quoted, single-quoted, continued and empty values, duplicates and,
in a minority of files, one syntax error; they are queried with existing and
missing keys, --sections, --keys, --dump and the --dup policies.  Random CSV
files mix plain and quoted fields and are queried with column lists.
Expected outputs come from building and running the correct version in src/.
"""
import os
import random
import shlex

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
rng = random.Random(1999)

SECTIONS = ["server", "Database", "paths", "user.prefs", "log", "EMPTY", "net"]
KEYS = ["host", "port", "name", "Path", "timeout", "debug", "mode", "url", "user", "list"]
PLAIN = ["localhost", "8080", "yes", "no", "/usr/local/bin", "a b c", "x=y", "v1.2",
         "http://example.org/#top", "C:\\dir\\file", "100%", "semi;colon", "", "tab\there"]


def value():
    r = rng.random()
    if r < 0.45:
        return rng.choice(PLAIN)
    if r < 0.55:
        return rng.choice(PLAIN) + rng.choice(["  ; note", " # note", "\t;c"])
    if r < 0.7:
        inner = rng.choice(["  spaced  ", "line1\\nline2", "tab\\tx", "say \\\"hi\\\"", "back\\\\slash",
                            "semi; colon # hash", "", "odd\\q"])
        return '"%s"' % inner + rng.choice(["", "", " ; trailing comment"])
    if r < 0.8:
        return "'%s'" % rng.choice(["raw \\n", " padded ", "a;b#c", "", "it is"])
    if r < 0.9:
        return "%s \\\n%s%s" % (rng.choice(["first", "one two"]), rng.choice(["", "  ", "\t"]), rng.choice(["second", "last part"]))
    return rng.choice(["  lead", "trail   ", "a = b", "key: val"])


BAD = ["[unterminated", "just some words", " = novalue", "k = \"open quote", "k = 'open",
       "[]", "[sec] junk", "k = \"closed\" junk", "k = 'closed' junk", ": colon"]


def ini_file():
    lines = []
    used = {}
    if rng.random() < 0.4:
        for _ in range(rng.randint(1, 2)):
            k = rng.choice(KEYS)
            lines.append("%s = %s" % (k, value()))
            used.setdefault("", set()).add(k.lower())
    for _ in range(rng.randint(1, 4)):
        sec = rng.choice(SECTIONS)
        if rng.random() < 0.3:
            sec = sec.upper() if rng.random() < 0.5 else sec.lower()
        lines.append(rng.choice(["[%s]", "[ %s ]", "[%s] ; c", "  [%s]"]) % sec)
        for _ in range(rng.randint(0, 4)):
            r = rng.random()
            if r < 0.1:
                lines.append(rng.choice(["; comment", "# comment", "   ; indented comment", ""]))
                continue
            k = rng.choice(KEYS)
            sep = rng.choice([" = ", "=", ": ", " =\t", ":"])
            lines.append(rng.choice(["", "", "  "]) + k + sep + value())
            used.setdefault(sec.lower(), set()).add(k.lower())
    if rng.random() < 0.15:
        lines.insert(rng.randint(0, len(lines)), rng.choice(BAD))
    nl = "\r\n" if rng.random() < 0.1 else "\n"
    return nl.join(lines) + (nl if rng.random() < 0.9 else ""), used


def ini_test():
    text, used = ini_file()
    args = []
    if rng.random() < 0.25:
        args.append("--dup=" + rng.choice(["last", "first", "error"]))
    for _ in range(rng.randint(1, 4)):
        r = rng.random()
        if r < 0.55 and used:
            sec = rng.choice(sorted(used))
            key = rng.choice(sorted(used[sec]))
            if rng.random() < 0.2:
                key = key.upper()
            args.append(("%s.%s" % (sec, key)) if sec else key)
        elif r < 0.65:
            args.append(rng.choice(["server.missing", "nosuch.host", "host", "net.port", "a.b.c"]))
        elif r < 0.75:
            args.append("--sections")
        elif r < 0.88:
            args.append("--keys")
            args.append(rng.choice(SECTIONS + ["nosuch"]))
        else:
            args.append("--dump")
    return " ".join(shlex.quote(a) for a in args), text


def csv_field():
    r = rng.random()
    if r < 0.6:
        return rng.choice(["1", "42", "abc", "x y", "", "3.5", "pipe|bar", "back\\slash", "end"])
    inner = rng.choice(["a,b", "line1\nline2", "say \"\"hi\"\"", "", "plain", "crlf\r\ninside", "  pad  "])
    return '"%s"' % inner


def csv_test():
    ncol = rng.randint(1, 5)
    delim = "," if rng.random() < 0.85 else rng.choice([";", "\t", "|"])
    header = rng.random() < 0.4
    names = ["id", "name", "city", "score", "note"][:ncol]
    rows = []
    if header:
        rows.append(delim.join(names))
    for _ in range(rng.randint(1, 6)):
        n = ncol if rng.random() < 0.85 else rng.randint(1, ncol + 1)
        rows.append(delim.join(csv_field() for _ in range(n)).replace(",", delim) if delim != "," else
                    delim.join(csv_field() for _ in range(n)))
        if rng.random() < 0.05:
            rows.append("")
    nl = "\r\n" if rng.random() < 0.15 else "\n"
    text = nl.join(rows) + (nl if rng.random() < 0.9 else "")
    if rng.random() < 0.05:
        text += '"unterminated'
    args = ["--csv"]
    if delim != ",":
        args += ["-d", delim]
    if header:
        args.append("--header")
    if rng.random() < 0.12:
        args.append("--count")
    r = rng.random()
    if r < 0.3:
        pass
    elif r < 0.6:
        args.append(",".join(str(rng.randint(1, ncol + 1)) for _ in range(rng.randint(1, 3))))
    elif r < 0.75:
        a = rng.randint(1, ncol)
        args.append("%d-%d" % (a, rng.randint(a, ncol + 1)))
    elif header:
        args.append(",".join(rng.choice(names) for _ in range(rng.randint(1, 3))))
    else:
        args.append(str(rng.randint(1, ncol)))
    return " ".join(shlex.quote(a) for a in args), text


SAMPLE = """; sample configuration
name = demo
[Server]
host = example.org   ; inline comment
port: 8080
path = "/a b\\tc\\"q\\""
lit = 'raw \\n ; text'
long = first \\
    second \\
    third
url = http://x#frag
empty =
[database]
user = admin
port = 5432
[server]
port = 9090
"""
HAND = [
    ("name", SAMPLE), ("server.port", SAMPLE), ("SERVER.HOST", SAMPLE), ("server.path", SAMPLE),
    ("server.lit", SAMPLE), ("server.long", SAMPLE), ("server.url", SAMPLE), ("server.empty", SAMPLE),
    ("database.port", SAMPLE), ("--dup=first server.port", SAMPLE), ("--dup=error server.port", SAMPLE),
    ("--dup=last server.port", SAMPLE), ("--dup=bogus server.port", SAMPLE), ("--sections", SAMPLE),
    ("--keys server", SAMPLE), ("--keys SERVER", SAMPLE), ("--keys nosuch", SAMPLE), ("--keys", SAMPLE),
    ("--dump", SAMPLE), ("--bogus", SAMPLE), ("nosuch.key", SAMPLE), ("server.nokey", SAMPLE),
    ("server.host database.user name missing", SAMPLE), ("", SAMPLE), ("--dump", ""), ("--sections", ""),
    ("a", "a=1\n"), ("a", "a = 1"), ("a", "  a  =  1  \n"), ("a", "a:1\n"), ("a", "a = b = c\n"),
    ("a", "a = x: y\n"), ("a", "a=;comment\n"), ("a", "a=x;notcomment\n"), ("a", "a=x ;comment\n"),
    ("a", "a=x\t#comment\n"), ("a", "a=x#y\n"), ("a", "a = \"q ; x\" ; c\n"), ("a", "a = \"\"\n"),
    ("a", "a = ''\n"), ("a", "a = 'x' y\n"), ("a", "a = \"x\" y\n"), ("a", "a = \"x\n"), ("a", "a = 'x\n"),
    ("a", "a = \"a\\\\b\\tc\\nd\\qe\"\n"), ("a", "a = \"ends with backslash\\\"\n"), ("a", "a = one \\\ntwo\n"),
    ("a", "a = one\\\n  two\\\n\tthree\n"), ("a", "a = trailing \\"), ("a", "a = x \\\n"),
    ("a b", "a = one \\\nb = two\n"), ("a", "a = 1\r\nb = 2\r\n"), ("s.a", "[s]\r\na = 1\r\n"),
    ("s.a", "[ s ]\na=1\n"), ("s.a", "[S]\nA=1\n"), ("s.a", "[s] ; comment\na=1\n"), ("s.a", "[s] # c\na=1\n"),
    ("s.a", "[s] x\na=1\n"), ("s.a", "[s\na=1\n"), ("s.a", "[]\na=1\n"), ("s.a", "[  ]\na=1\n"),
    ("s.a", "[s]\n  a = 1\n"), ("s.a", "[s]\n\n\n; c\n# d\na=1\n"), ("a", "words without separator\n"),
    ("a", "= value\n"), ("a", "  : value\n"), ("x.y.z", "[x.y]\nz = dotted\n"), ("x.y", "[x]\ny=1\n[x.y]\n"),
    ("--dup=error a", "a=1\na=2\na=3\n"), ("--dup=first a", "a=1\na=2\na=3\n"), ("a", "a=1\na=2\na=3\n"),
    ("--dup=error --dup=first a", "a=1\na=2\n"), ("--dump", "a=1\n[s]\nb=2\n"), ("--dump", "[s]\nb=2\n[t]\n"),
    ("--dump", "[s]\nb = \"  x  \"\nc = 'semi;'\nd = \"tab\\tq\\\"\"\ne = \"back\\\\\"\nf = \"nl\\n\"\n"),
    ("--dump", "a = '\"x'\nb = \"'y\"\nc = \"z \"\n"), ("--keys s --keys t", "[s]\na=1\nb=2\n[t]\nc=3\n[s]\nd=4\na=5\n"),
    ("--sections --dump", "[a]\n[b]\n[A]\nk=v\n"), ("-x", "a=1\n"),
    ("--csv", "a,b,c\n1,2,3\n"), ("--csv", "a,b,c\r\n1,2,3\r\n"), ("--csv", "a,b\n\n\n1,2\n"),
    ("--csv", "\"a,b\",c\n"), ("--csv", "\"multi\nline\",x\n"), ("--csv", "\"q\"\"q\",\"\"\"\"\n"),
    ("--csv", "\"\",\"\"\n"), ("--csv", ",,\n"), ("--csv", "a,\n"), ("--csv", "\"open\n"),
    ("--csv", "\"closed\"junk,x\n"), ("--csv", "a\"b,c\n"), ("--csv", "pipe|x,back\\y\n"), ("--csv", ""),
    ("--csv --count", "a\nb\nc\n"), ("--csv --count", "a\n"), ("--csv --count", ""), ("--csv 2", "a,b,c\n1,2,3\n"),
    ("--csv 3,1", "a,b,c\n1,2,3\n"), ("--csv 2-3", "a,b,c,d\n"), ("--csv 1-1", "a,b\n"), ("--csv 3-2", "a,b,c\n"),
    ("--csv 0", "a,b\n"), ("--csv 2-", "a,b\n"), ("--csv 5", "a,b\n"), ("--csv 1,,2", "a,b\n"),
    ("--csv --header b", "a,b\n1,2\n"), ("--csv --header b,a,1", "a,b\n1,2\n"), ("--csv --header zz", "a,b\n1,2\n"),
    ("--csv --header", "a,b\n1,2\n3,4\n"), ("--csv --header --count", "a,b\n1,2\n3,4\n"),
    ("--csv --header", ""), ("--csv --header", "\"open\n"), ("--csv x", "a,b\n"), ("--csv -d ';'", "a;b,c\n"),
    ("--csv -d ';' 2", "a;\"b;c\";d\n"), ("--csv -d '\t'", "a\tb\n"), ("--csv -d ab", "a\n"), ("--csv -d '\"'", "a\n"),
    ("--csv -d", "a\n"), ("--csv --bogus", "a\n"), ("--csv 1 2", "a,b\n"), ("--csv 1-2,4", "a,b,c,d\n"),
    ("--csv", "a,b\r\nc\r\n\r\nd,e,f\r\n"), ("--csv", "\"a\r\nb\",c\r\n"), ("--csv", "last,line"),
    ("--csv 1-3", "x\n\"y\",\"z\"\n"),
]


def main():
    tests = list(HAND)
    while len(tests) < 340:
        tests.append(ini_test() if rng.random() < 0.6 else csv_test())
    write_expected(HERE, "iniparse", [("t%03d" % (k + 1), a, t) for k, (a, t) in enumerate(tests)])


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
