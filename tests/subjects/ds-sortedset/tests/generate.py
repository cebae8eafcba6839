#!/usr/bin/env python3
"""Write the ds-sortedset test pool: tests/inputs/, tests/manifest.txt, tests/expected/.

Deterministic (fixed seed).  Each test builds set A (0-8 adds of keys from
0-29, 5% of them a repeat) and usually set B (0-6 keys from 0-59, so that
A and B overlap in some tests and not in others), then exercises one theme:
more adds, removes, the queries, union, intersect, diff, or a mix.
Expected outputs come from building and running the correct version in src/.
"""
import os
import random
import sys

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(HERE))
from subject_pool import write_stdin_pool  # noqa: E402

rng = random.Random(20261201)
TESTS = 120


def build(ops):
    """fills A and B; returns A's keys"""
    a = set()
    for _ in range(rng.choice([0, 1, 2, 3, 4, 5, 5, 6, 6, 7, 8])):
        k = rng.choice(sorted(a)) if a and rng.random() < 0.05 else fresh(a)
        ops.append("add %d" % k)
        a.add(k)
    for _ in range(rng.choice([0, 0, 1, 2, 3, 4, 5, 6])):
        ops.append("addb %d" % rng.randint(0, 59))
    if rng.random() < 0.4:
        ops.append("print")
    return a


def key(a):
    """a key of A or, as often, one that is not"""
    return rng.choice(sorted(a)) if a and rng.random() < 0.5 else rng.randint(0, 31)


def fresh(a):
    """a key from 0-29 that A does not hold"""
    return rng.choice([k for k in range(30) if k not in a])


def theme_add(ops, a):
    for _ in range(rng.randint(1, 4)):
        k = rng.choice(sorted(a)) if a and rng.random() < 0.05 else fresh(a)
        ops.append("add %d" % k)
        a.add(k)
    ops.append("print")


def theme_remove(ops, a):
    for _ in range(rng.randint(1, 2)):
        k = key(a)
        ops.append("remove %d" % k)
        a.discard(k)
    ops.append("print")


def theme_query(ops, a):
    for _ in range(rng.randint(2, 5)):
        ops.append("%s %d" % (rng.choice(["contains", "contains", "rank"]), key(a)))
    ops.append("size")


def theme_setop(ops, a):
    op = rng.choice(["union", "intersect", "diff"])
    ops.append(op)
    ops.append("print")
    a.clear()  # A is no longer tracked here: later keys of a mix are random


def theme_mixed(ops, a):
    for _ in range(rng.randint(2, 4)):
        rng.choice([theme_add, theme_remove, theme_query, theme_setop])(ops, a)


THEMES = [(theme_add, 2), (theme_remove, 2), (theme_query, 3), (theme_setop, 2), (theme_mixed, 1)]
HAND = [
    "print\nsize\ncontains 1\nrank 5\nremove 1\nunion\nintersect\ndiff\nprint\n",
    "add 3\nadd 1\nadd 2\nadd 2\nprint\n", "add 5\nadd 9\nremove 9\nremove 9\ncontains 9\nprint\n",
    "add 4\nadd 8\nadd 8\nprint\n",
    "add 1\nadd 4\nadd 7\nrank 0\nrank 4\nrank 5\nrank 8\n",
    "add 1\nadd 2\nadd 3\naddb 2\naddb 3\naddb 4\nunion\nprint\n",
    "add 1\nadd 2\nadd 3\naddb 2\naddb 3\naddb 4\nintersect\nprint\n",
    "add 1\nadd 2\nadd 3\naddb 2\naddb 3\naddb 4\ndiff\nprint\n",
    "put 3\nadd\n", "# comment\n\nadd -4\ncontains -4\n",
]


def main():
    bodies = list(HAND)
    themes = [t for t, w in THEMES for _ in range(w)]
    while len(bodies) < TESTS:
        ops = []
        rng.choice(themes)(ops, build(ops))
        bodies.append("".join(op + "\n" for op in ops))
    write_stdin_pool(HERE, "ds-sortedset", bodies)


if __name__ == "__main__":
    main()
