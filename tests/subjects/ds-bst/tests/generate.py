#!/usr/bin/env python3
"""Write the ds-bst test pool: tests/inputs/, tests/manifest.txt, tests/expected/.

Deterministic (fixed seed).  Each test builds a small tree (0-9 adds of
keys from 0-29, now and then a key that is already there) and then
exercises one theme: removing keys (a leaf, a node with one child, a node
with two children, the root, an absent key), the queries, or a mix.  The
themes keep each case of remove in a minority of the tests, so that a
fault in one case fails some tests and not most of them.  Expected outputs
come from building and running the correct version in src/.
"""
import os
import random
import sys

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(HERE))
from subject_pool import write_stdin_pool  # noqa: E402

rng = random.Random(20261129)
TESTS = 120


class Tree:
    """the correct tree's shape, to choose which kind of node to remove"""

    def __init__(self):
        self.children = {}  # key -> [left, right]
        self.root = None

    def add(self, k):
        if k in self.children:
            return
        self.children[k] = [None, None]
        if self.root is None:
            self.root = k
            return
        x = self.root
        while True:
            side = 0 if k < x else 1
            if self.children[x][side] is None:
                self.children[x][side] = k
                return
            x = self.children[x][side]

    def remove(self, k):
        """rebuilds the tree without k in the correct version's shape: simpler
        to get right here than the unlinking, and the trees are small"""
        order = []

        def pre(x):
            if x is not None:
                order.append(x)
                pre(self.children[x][0])
                pre(self.children[x][1])
        z = k
        left, right = self.children[z]
        if left is not None and right is not None:
            s = right
            while self.children[s][0] is not None:
                s = self.children[s][0]
            # z takes s's key; rebuilding from the preorder with z renamed keeps the shape
            pre(self.root)
            order = [s if x == z else x for x in order if x != s]
        else:
            pre(self.root)
            order = [x for x in order if x != z]
        self.children, self.root = {}, None
        for x in order:
            self.add(x)

    def kind(self, k):
        left, right = self.children[k]
        n = (left is not None) + (right is not None)
        return ["leaf", "one", "two"][n]

    def keys(self):
        return list(self.children)


def build(ops):
    """adds 0-9 keys; returns the tree the correct version then holds"""
    keys = Tree()
    for _ in range(rng.choice([0, 1, 2, 3, 4, 5, 5, 6, 6, 7, 7, 8, 9])):
        present = keys.keys()
        if present and rng.random() < 0.02:  # a repeated key, now and then
            k = rng.choice(present)
        else:
            k = rng.choice([k for k in range(30) if k not in keys.children])
        ops.append("add %d" % k)
        keys.add(k)
    if rng.random() < 0.4:
        ops.append(rng.choice(["inorder", "preorder"]))
    return keys


def theme_remove(ops, keys):
    for _ in range(rng.randint(1, 2)):
        # mostly leaves and absent keys: each harder case stays rare
        want = rng.choice(["leaf", "leaf", "leaf", "leaf", "absent", "absent", "one", "two", "two"])
        cands = [k for k in keys.keys() if keys.kind(k) == want]
        if want == "absent" or not cands:
            k = rng.choice([k for k in range(32) if k not in keys.children])
        else:
            k = rng.choice(cands)
        ops.append("remove %d" % k)
        if k in keys.children:
            keys.remove(k)
    ops.append(rng.choice(["inorder", "inorder", "preorder", "size"]))


def theme_query(ops, keys):
    for _ in range(rng.randint(2, 5)):
        r = rng.random()
        if r < 0.6:
            present = keys.keys()
            ops.append("contains %d" % (rng.choice(present) if present and rng.random() < 0.5 else rng.randint(0, 31)))
        else:
            ops.append(rng.choice(["min", "max", "size"]))
    ops.append("inorder")


def theme_grow(ops, keys):
    for _ in range(rng.randint(2, 5)):
        k = rng.choice([k for k in range(30) if k not in keys.children])
        ops.append("add %d" % k)
        keys.add(k)
    ops.append(rng.choice(["inorder", "preorder"]))


def theme_mixed(ops, keys):
    for _ in range(rng.randint(2, 4)):
        rng.choice([theme_query, theme_query, theme_grow, theme_remove])(ops, keys)


THEMES = [(theme_remove, 3), (theme_query, 4), (theme_grow, 3), (theme_mixed, 1)]
HAND = [
    "inorder\npreorder\nmin\nmax\nsize\n", "remove 3\ninorder\n", "add 5\nremove 5\npreorder\n",
    "add 5\nadd 3\nremove 5\npreorder\n", "add 5\nadd 8\nremove 5\npreorder\n",
    "add 5\nadd 3\nadd 8\nremove 5\npreorder\n", "add 5\nadd 5\nsize\n",
    "add 10\nadd 5\nadd 15\nadd 12\nadd 13\nremove 10\npreorder\n",
    "add 1\nadd 2\nadd 3\nadd 4\nmax\nmin\n", "add 4\nadd 3\nadd 2\nadd 1\nmin\nmax\npreorder\n",
    "put 3\nadd x\n", "# comment\n\nadd 7\ncontains 7\ncontains 8\n",
]


def main():
    bodies = list(HAND)
    themes = [t for t, w in THEMES for _ in range(w)]
    while len(bodies) < TESTS:
        ops = []
        keys = build(ops)
        rng.choice(themes)(ops, keys)
        bodies.append("".join(op + "\n" for op in ops))
    write_stdin_pool(HERE, "ds-bst", bodies)


if __name__ == "__main__":
    main()
