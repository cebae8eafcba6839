#!/usr/bin/env python3
"""Write the ds-list test pool: tests/inputs/, tests/manifest.txt, tests/expected/.

Deterministic (fixed seed).  Each test builds a small list (0-7 keys from
0-19, by addfirst and addlast, now and then a key that is already there)
and then exercises one theme: removing by key, removing by index,
inserting at an index, the queries, reversing, or a mix of everything.
The themes keep each operation's harder cases (the head, the last
position, a one-node list, a bad index) in a minority of the tests, so
that a fault in one operation fails some tests and not most of them.
Expected outputs come from building and running the correct version in src/.
"""
import os
import random
import sys

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(HERE))
from subject_pool import write_stdin_pool  # noqa: E402

rng = random.Random(20261128)
TESTS = 120


def build(ops):
    """adds 0-7 keys; returns the list the correct version then holds"""
    lst = []
    for _ in range(rng.choice([0, 1, 1, 2, 3, 3, 4, 4, 5, 5, 6, 7])):
        k = rng.choice(lst) if lst and rng.random() < 0.1 else rng.randint(0, 19)
        if rng.random() < 0.5:
            ops.append("addfirst %d" % k)
            if k not in lst:
                lst.insert(0, k)
        else:
            ops.append("addlast %d" % k)
            if k not in lst:
                lst.append(k)
    if rng.random() < 0.5:
        ops.append("print")
    return lst


def pick_key(lst):
    """a key of the list (any position) or one that is absent"""
    if lst and rng.random() < 0.7:
        return rng.choice(lst)
    return rng.randint(0, 22)


def theme_remove(ops, lst):
    for _ in range(rng.randint(1, 2)):
        k = pick_key(lst)
        ops.append("remove %d" % k)
        if k in lst:
            lst.remove(k)
    ops.append("print")


def theme_removeat(ops, lst):
    for _ in range(rng.randint(1, 2)):
        i = rng.randint(-1, len(lst) + 1) if rng.random() < 0.3 else rng.randint(0, max(0, len(lst) - 1))
        ops.append("removeat %d" % i)
        if 0 <= i < len(lst):
            del lst[i]
    ops.append("print")


def theme_insert(ops, lst):
    for _ in range(rng.randint(1, 3)):
        i = rng.randint(0, len(lst) + 1) if rng.random() < 0.3 else rng.randint(0, max(0, len(lst) - 1))
        k = rng.randint(0, 24)
        ops.append("insert %d %d" % (i, k))
        if 0 <= i <= len(lst) and k not in lst:
            lst.insert(i, k)
    ops.append("print")


def theme_query(ops, lst):
    for _ in range(rng.randint(2, 5)):
        r = rng.random()
        if r < 0.35:
            ops.append("contains %d" % pick_key(lst))
        elif r < 0.6:
            ops.append("indexof %d" % pick_key(lst))
        elif r < 0.9:
            ops.append("get %d" % rng.randint(0, max(0, len(lst) - 1)))
        else:
            ops.append("get %d" % rng.randint(-1, len(lst) + 1))
    ops.append("size")


def theme_reverse(ops, lst):
    ops.append("reverse")
    lst.reverse()
    ops.append("print")
    if rng.random() < 0.4:
        ops.append("addlast %d" % rng.randint(0, 19))
        ops.append("print")


def theme_mixed(ops, lst):
    for _ in range(rng.randint(2, 6)):
        rng.choice([theme_query, theme_query, theme_remove, theme_insert, theme_removeat,
                    theme_reverse])(ops, lst)


THEMES = [(theme_remove, 3), (theme_removeat, 2), (theme_insert, 2), (theme_query, 3),
          (theme_reverse, 2), (theme_mixed, 1)]
HAND = [
    "print\n", "reverse\nprint\n", "remove 3\nprint\n", "removeat 0\n", "get 0\n",
    "insert 0 5\ninsert 1 6\ninsert 1 7\nprint\n", "addfirst 1\naddfirst 1\nsize\n",
    "addlast 4\nremove 4\nremove 4\nprint\n", "addlast 1\naddlast 2\naddlast 3\nreverse\nprint\n",
    "insert 1 5\nprint\n", "addlast 2\nremoveat 1\nremoveat -1\nprint\n",
    "add 3\nprint\nfrob\n", "# a comment\n\naddlast 9\nprint\n",
]


def main():
    bodies = list(HAND)
    themes = [t for t, w in THEMES for _ in range(w)]
    while len(bodies) < TESTS:
        ops = []
        lst = build(ops)
        rng.choice(themes)(ops, lst)
        bodies.append("".join(op + "\n" for op in ops))
    write_stdin_pool(HERE, "ds-list", bodies)


if __name__ == "__main__":
    main()
