#!/usr/bin/env python3
"""Write the calc test pool: tests/inputs/, tests/manifest.txt, tests/expected/.

Deterministic (fixed seed).  A third of the tests are hand-written cases for
each feature and error path; the rest are random programs of 2-8 lines mixing
integer and float arithmetic, variables, functions, comments and errors.
Expected outputs come from building and running the correct version in src/.
"""
import os
import random

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
rng = random.Random(20261122)

HAND = [
    "1+2\n", "7-10\n", "6*7\n", "8/2\n", "7/2\n", "7%3\n", "-7%3\n", "2^10\n",
    "2^-1\n", "-2^2\n", "(-2)^2\n", "2^3^2\n", "1+2*3\n", "(1+2)*3\n", "10-4-3\n",
    "100/10/5\n", "2*3%4\n", "1.5+1.5\n", "0.1*3\n", "1e3\n", "1E-2*100\n", "2.5e+1\n",
    ".5+.25\n", "3.\n", "0x10\n", "0XfF+1\n", "0x\n", "0xg\n", "1/0\n", "1.0/0\n", "5%0\n",
    "5.5%0\n", "7.5%2\n", "-7.5%2\n", "0^-1\n", "0^0\n", "2.0^0.5\n", "4^0.5\n",
    "min(3,1,2)\n", "max(3,1,2)\n", "min(1.5, 1)\n", "max(-1, -1.5)\n", "min()\n",
    "max(7)\n", "abs(-4)\n", "abs(4)\n", "abs(-2.5)\n", "abs(1,2)\n", "abs()\n",
    "sqrt(16)\n", "sqrt(2)\n", "sqrt(-1)\n", "sqrt(0)\n", "sqrt(1,2)\n", "foo(1)\n",
    "x = 3\nx*x\n", "x = 3\nx = x + 1\nx\n", "y\n", "x=1\ny=x*2\nz=y*2\nx+y+z\n",
    "a_1 = 5\na_1\n", "_x = 2\n_x^3\n", "1+2\n_*10\n", "_\n", "3\n1/0\n_\n",
    "(1+2\n", "1+2)\n", "()\n", "(\n", ")\n", "1+\n", "*2\n", "1 2\n", "2 $ 3\n",
    "x =\n", "= 3\n", "x = = 3\n", "1,2\n", "min(1,2\n", "min(1 2)\n",
    "# only a comment\n", "1+1 # trailing comment\n", "\n\n\n", "   \t  \n",
    "1+2\r\n3*4\r\n", "--3\n", "-+-3\n", "+5\n", "- - 2.5\n", "2*-3\n", "2^-2^-1\n",
    "1/3\n", "2/3*3\n", "10/4\n", "-10/4\n", "9/3/3\n", "1e308*10\n", "-1e308*10\n",
    "0.1+0.2\n", "1e20\n", "123456789*1000\n", "1e-5\n", "100000000000.0\n",
    "x = 2\nx = x ^ x\nx = x ^ x\nx\n", "min(max(1,2), max(3,0))\n",
    "max(min(5,9), abs(-7), sqrt(49))\n", "min(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16)\n",
    "min(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17)\n",
    "averyveryverylongvariablenamethatistoolong = 1\n",
    "averyveryverylongvariablenamethatistoolong\n",
    "7 % 4 * 2\n", "-(3)\n", "-(-(3))\n", "2(3)\n", "x = 4\nx(2)\n", "1..2\n",
    "12345678901234567890123456789012345678901234567890123456789012345678901234\n",
    "3 ^ 0\n", "(-3) ^ 3\n", "(-2) ^ 0.5\n", "1 - -1\n", "x = -0.0\nx\n",
    "0/5\n", "0.0/5\n", "5/-1\n", "max(0x10, 15)\n", "sqrt(abs(-9))\n",
]


def num(depth_float=0.3):
    r = rng.random()
    if r < 0.08:
        return "0x%x" % rng.randint(0, 255)
    if r < depth_float:
        return rng.choice(["%d.%d" % (rng.randint(0, 20), rng.randint(0, 99)),
                           "%d.5" % rng.randint(0, 9), "%de%d" % (rng.randint(1, 9), rng.randint(-2, 2))])
    return str(rng.randint(0, 30))


def expr(depth, names):
    r = rng.random()
    if depth <= 0 or r < 0.25:
        if names and rng.random() < 0.35:
            return rng.choice(names)
        return num()
    if r < 0.35:
        return "(" + expr(depth - 1, names) + ")"
    if r < 0.42:
        return "-" + expr(depth - 1, names)
    if r < 0.52:
        f = rng.choice(["min", "max", "abs", "sqrt"])
        if f in ("min", "max"):
            n = rng.randint(1, 4)
            return "%s(%s)" % (f, ", ".join(expr(depth - 1, names) for _ in range(n)))
        return "%s(%s)" % (f, expr(depth - 1, names))
    if r < 0.58:
        return "%s ^ %d" % (num(0.1), rng.randint(-2, 4))
    op = rng.choice(["+", "-", "*", "/", "%", "+", "-", "*"])
    sp = rng.choice(["", " "])
    return expr(depth - 1, names) + sp + op + sp + expr(depth - 1, names)


def broken(names):
    e = expr(2, names)
    kind = rng.randint(0, 6)
    if kind == 0:
        return "(" + e
    if kind == 1:
        return e + ")"
    if kind == 2:
        return e + " / 0"
    if kind == 3:
        return e + " @ 1"
    if kind == 4:
        return "undefined_%d + %s" % (rng.randint(0, 9), e)
    if kind == 5:
        return e + " +"
    return "sqrt(-" + str(rng.randint(1, 9)) + ")"


def program():
    names = []
    out = []
    for _ in range(rng.randint(2, 8)):
        r = rng.random()
        if r < 0.3:
            v = rng.choice(["a", "b", "x", "rate", "n1", "_t"])
            out.append("%s = %s" % (v, expr(2, names)))
            if v not in names:
                names.append(v)
        elif r < 0.4:
            out.append(broken(names))
        elif r < 0.45:
            out.append(rng.choice(["", "# note", "  "]))
        else:
            e = expr(3, names)
            if rng.random() < 0.1:
                e += "  # comment"
            out.append(e)
    return "\n".join(out) + "\n"


def main():
    tests = []
    for text in HAND:
        tests.append(text)
    while len(tests) < 320:
        tests.append(program())
    write_expected(HERE, "calc", [("t%03d" % (k + 1), "", t) for k, t in enumerate(tests)])


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
