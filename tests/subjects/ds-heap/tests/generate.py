#!/usr/bin/env python3
"""Write the ds-heap test pool: tests/inputs/, tests/manifest.txt, tests/expected/.

Deterministic (fixed seed).  Each test builds a small heap (0-10 inserts of
values from 0-49) and then exercises one theme: extracting the minimum,
decreasing a key, deleting at an index, the queries, or a mix.  Indices
are mostly valid, now and then one past the end or negative.  Expected
outputs come from building and running the correct version in src/.
"""
import os
import random
import sys

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(HERE))
from subject_pool import write_stdin_pool  # noqa: E402

rng = random.Random(20261130)
TESTS = 120


def index(n):
    """an index of a heap of n entries: mostly valid, now and then not"""
    if n == 0 or rng.random() < 0.12:
        return rng.choice([-1, n, n + 2])
    return rng.randint(0, n - 1)


def build(ops):
    """inserts 0-10 values; returns how many entries the heap then holds"""
    n = rng.choice([0, 1, 2, 3, 4, 5, 6, 6, 7, 7, 8, 9, 10])
    for _ in range(n):
        ops.append("insert %d" % rng.randint(0, 49))
    if rng.random() < 0.5:
        ops.append("print")
    return n


def theme_extract(ops, n):
    for _ in range(rng.randint(1, 3)):
        ops.append("extract")
        n = max(0, n - 1)
    ops.append("print")
    return n


def theme_decrease(ops, n):
    for _ in range(rng.randint(1, 2)):
        ops.append("decrease %d %d" % (index(n), rng.randint(-5, 40)))
    ops.append("print")
    return n


def theme_delete(ops, n):
    for _ in range(rng.randint(1, 2)):
        i = index(n)
        ops.append("delete %d" % i)
        if 0 <= i < n:
            n -= 1
    ops.append("print")
    return n


def theme_query(ops, n):
    for _ in range(rng.randint(1, 3)):
        ops.append(rng.choice(["peek", "size", "print"]))
    return n


def theme_mixed(ops, n):
    for _ in range(rng.randint(2, 4)):
        if rng.random() < 0.3:
            ops.append("insert %d" % rng.randint(0, 49))
            n += 1
        n = rng.choice([theme_query, theme_extract, theme_decrease, theme_delete])(ops, n)
    return n


THEMES = [(theme_extract, 3), (theme_decrease, 2), (theme_delete, 2), (theme_query, 3), (theme_mixed, 1)]
HAND = [
    "extract\npeek\nprint\n", "insert 5\nextract\nextract\nsize\n", "insert 3\ninsert 3\ninsert 3\nextract\nprint\n",
    "insert 9\ninsert 7\ninsert 8\ndecrease 2 1\nprint\n", "insert 1\ndecrease 0 4\ndecrease 5 0\nprint\n",
    "insert 2\ninsert 5\ndecrease 1 5\ndecrease 2 1\nprint\n",
    "insert 4\ninsert 6\ndelete 1\ndelete 1\ndelete 0\nprint\n",
    "insert 1\ninsert 10\ninsert 2\ninsert 11\ninsert 12\ninsert 3\ninsert 4\ndelete 4\nprint\n",
    "push 3\ninsert\n", "# comment\n\ninsert -4\npeek\n",
]


def main():
    bodies = list(HAND)
    themes = [t for t, w in THEMES for _ in range(w)]
    while len(bodies) < TESTS:
        ops = []
        rng.choice(themes)(ops, build(ops))
        bodies.append("".join(op + "\n" for op in ops))
    write_stdin_pool(HERE, "ds-heap", bodies)


if __name__ == "__main__":
    main()
