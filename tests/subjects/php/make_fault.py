#!/usr/bin/env python3
"""make_fault.py SUBJECT - write SUBJECT/faults/vN.patch and vN.lines
from the list in SUBJECT/faults/faults.py:

    FAULTS = [("v1", "inc/markup.php", OLD, NEW, "what it is"), ...]

OLD (text that occurs exactly once in SUBJECT/src/FILE) becomes NEW.  The
patch is `diff -u` of src/FILE (paths a/src/FILE, b/src/FILE, for patch
-p1 in the subject directory); vN.lines names the first line of NEW in the
patched file, or for a deletion (NEW empty) the line after the gap (the
line before it when the line after is a closing brace, which is not an
executable line).  A
maintainer's tool: the faults are written once and kept in git.
"""
import os
import subprocess
import sys
import tempfile



def make(subject, ver, fname, old, new):
    path = os.path.join(subject, "src", fname)
    text = open(path).read()
    if text.count(old) != 1:
        sys.exit("make_fault.py: %r occurs %d times in %s" % (old, text.count(old), path))
    start = text.index(old)
    patched = text.replace(old, new)
    # the first line that differs, in the patched file
    line = text[:start].count("\n") + 1
    a_lines, b_lines = text.split("\n"), patched.split("\n")
    while line - 1 < len(a_lines) and a_lines[line - 1] == b_lines[line - 1]:
        line += 1
    # a statement left out before a closing brace: the brace is no executable
    # line, so the line before the gap stands for the gap
    if b_lines[line - 1].strip() in ("}", "} else {", "?>"):
        line -= 1
    with tempfile.TemporaryDirectory() as tmp:
        for side, body in (("a", text), ("b", patched)):
            os.makedirs(os.path.join(tmp, side, "src", os.path.dirname(fname)), exist_ok=True)
            with open(os.path.join(tmp, side, "src", fname), "w") as f:
                f.write(body)
        diff = subprocess.run(["diff", "-u", "a/src/" + fname, "b/src/" + fname], cwd=tmp,
                              capture_output=True, text=True).stdout
    # no timestamps, so that the patch is the same every time it is made
    out = []
    for l in diff.split("\n"):
        if l.startswith("--- ") or l.startswith("+++ "):
            l = l.split("\t")[0]
        out.append(l)
    faults = os.path.join(subject, "faults")
    os.makedirs(faults, exist_ok=True)
    with open(os.path.join(faults, ver + ".patch"), "w") as f:
        f.write("\n".join(out))
    with open(os.path.join(faults, ver + ".lines"), "w") as f:
        f.write("src/%s:%d\n" % (fname, line))
    print("%s: src/%s:%d" % (ver, fname, line))


if __name__ == "__main__":
    subject = sys.argv[1]
    spec = {}
    with open(os.path.join(subject, "faults", "faults.py")) as f:
        exec(f.read(), spec)
    for ver, fname, old, new, _what in spec["FAULTS"]:
        make(subject, ver, fname, old, new)
