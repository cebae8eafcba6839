/*
 * bst.c - a binary search tree of distinct integer keys with parent
 * pointers and a size field, after the BST of SAT-TAR (seeds/003, Figure
 * 4a: add(k)), with a remove that handles nodes of 0, 1 and 2 children.
 * It reads one command per line on stdin, performs it and prints its
 * result, so that a test is a short program of tree operations.
 *
 *   add K   remove K   contains K   min   max   size   inorder   preorder
 *
 * The specifications are written with <culprit/contract.h> (docs/specs.md):
 * bst_ok() is the representation invariant (the paper's: search order,
 * which also rules out cycles and repeated keys, parent pointers and size),
 * checked at the end of every mutating operation, and add and remove state
 * their postconditions (size grew / dropped by one, the key is present /
 * absent).  A faulty version shows as a violated specification (the
 * program aborts with the spec's text) or as a wrong result line; preorder
 * prints the tree's shape, so a tree that is valid but shaped wrongly is
 * seen too.
 *
 * Exit status: 0, or 1 when some line was not a command.
 */
#include <culprit/contract.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

struct node {
    int key;
    struct node *left, *right, *parent;
};

struct bst {
    struct node *root;
    int size;
};

/* Nodes come from a fixed arena and are never reused: a faulty version that
 * leaves a removed node reachable then reads stale but valid memory, and
 * fails by its specification rather than by undefined behaviour. */
#define ARENA 4096
static struct node arena[ARENA];
static int arena_used;

static struct node *node_new(int key)
{
    if (arena_used == ARENA)
        return NULL;
    struct node *n = &arena[arena_used++];
    n->key = key;
    n->left = n->right = n->parent = NULL;
    return n;
}

/* Counts the subtree at n into *count and checks that its keys lie strictly
 * between lo and hi and that each child points back to its parent.  The
 * strict bounds shrink on the way down, so a cycle (which would return to a
 * node whose key must then be below itself) fails instead of recursing
 * forever. */
static int subtree_ok(const struct node *n, long lo, long hi, int *count)
{
    if (!n)
        return 1;
    if (n->key <= lo || n->key >= hi)
        return 0;
    if ((n->left && n->left->parent != n) || (n->right && n->right->parent != n))
        return 0;
    ++*count;
    return subtree_ok(n->left, lo, n->key, count) && subtree_ok(n->right, n->key, hi, count);
}

/* repOk: search order (hence acyclic, keys distinct), parent pointers, size */
static int bst_ok(const struct bst *t)
{
    int count = 0;
    if (t->root && t->root->parent)
        return 0;
    if (!subtree_ok(t->root, (long)INT_MIN - 1, (long)INT_MAX + 1, &count))
        return 0;
    return count == t->size;
}

static struct node *bst_find(const struct bst *t, int key)
{
    struct node *x = t->root;
    while (x && x->key != key)
        x = key < x->key ? x->left : x->right;
    return x;
}

static int bst_contains(const struct bst *t, int key)
{
    return bst_find(t, key) != NULL;
}

/* the paper's add(k): 1 when added, 0 when present, -1 when the arena is full */
static int bst_add(struct bst *t, int key)
{
    int old_size = t->size;
    struct node *y = NULL, *x = t->root;
    while (x) {
        y = x;
        if (key < x->key)
            x = x->left;
        else if (key > x->key)
            x = x->right;
        else
            return 0;
    }
    x = node_new(key);
    if (!x)
        return -1;
    if (!y)
        t->root = x;
    else if (key < y->key)
        y->left = x;
    else
        y->right = x;
    x->parent = y;
    t->size++;
    CULPRIT_INVARIANT(bst_ok, t);
    CULPRIT_ENSURES(t->size == old_size + 1);
    CULPRIT_ENSURES(bst_contains(t, key));
    return 1;
}

/* removes key: a node with two children takes its successor's key, and the
 * successor (which has no left child) is unlinked instead; a node with at
 * most one child is replaced by that child */
static int bst_remove(struct bst *t, int key)
{
    int old_size = t->size;
    struct node *z = bst_find(t, key);
    if (!z) {
        CULPRIT_INVARIANT(bst_ok, t);
        CULPRIT_ENSURES(t->size == old_size);
        return 0;
    }
    if (z->left && z->right) {
        struct node *s = z->right;
        while (s->left)
            s = s->left;
        z->key = s->key;
        z = s;
    }
    struct node *child = z->left ? z->left : z->right;
    if (child)
        child->parent = z->parent;
    if (!z->parent)
        t->root = child;
    else if (z == z->parent->left)
        z->parent->left = child;
    else
        z->parent->right = child;
    t->size--;
    CULPRIT_INVARIANT(bst_ok, t);
    CULPRIT_ENSURES(t->size == old_size - 1);
    CULPRIT_ENSURES(!bst_contains(t, key));
    return 1;
}

static const struct node *subtree_min(const struct node *n)
{
    while (n->left)
        n = n->left;
    return n;
}

static const struct node *subtree_max(const struct node *n)
{
    while (n->right)
        n = n->right;
    return n;
}

/* Printing stops after size + 1 nodes so that a broken tree cannot make it
 * run away; *budget counts down the nodes still allowed. */
static void print_inorder(const struct node *n, int *budget, int *first)
{
    if (!n || *budget <= 0)
        return;
    print_inorder(n->left, budget, first);
    if (*budget > 0) {
        --*budget;
        printf(*first ? "%d" : " %d", n->key);
        *first = 0;
    }
    print_inorder(n->right, budget, first);
}

/* the shape: KEY(LEFT,RIGHT) with - for an empty subtree */
static void print_preorder(const struct node *n, int *budget)
{
    if (!n) {
        printf("-");
        return;
    }
    if (--*budget < 0) {
        printf("...");
        return;
    }
    printf("%d", n->key);
    if (n->left || n->right) {
        printf("(");
        print_preorder(n->left, budget);
        printf(",");
        print_preorder(n->right, budget);
        printf(")");
    }
}

int main(void)
{
    static struct bst t; /* empty: root NULL, size 0 */
    char line[256], cmd[16];
    int a, lineno = 0, errors = 0;

    while (fgets(line, sizeof line, stdin)) {
        lineno++;
        int n = sscanf(line, "%15s %d", cmd, &a);
        if (n < 1 || cmd[0] == '#')
            continue;
        if (!strcmp(cmd, "add") && n == 2) {
            int r = bst_add(&t, a);
            printf("add %d: %s\n", a, r > 0 ? "ok" : r == 0 ? "present" : "full");
        } else if (!strcmp(cmd, "remove") && n == 2) {
            printf("remove %d: %s\n", a, bst_remove(&t, a) ? "ok" : "absent");
        } else if (!strcmp(cmd, "contains") && n == 2) {
            printf("contains %d: %s\n", a, bst_contains(&t, a) ? "yes" : "no");
        } else if ((!strcmp(cmd, "min") || !strcmp(cmd, "max")) && n == 1) {
            if (!t.root)
                printf("%s: empty\n", cmd);
            else
                printf("%s: %d\n", cmd, (cmd[1] == 'i' ? subtree_min(t.root) : subtree_max(t.root))->key);
        } else if (!strcmp(cmd, "size") && n == 1) {
            printf("size %d\n", t.size);
        } else if (!strcmp(cmd, "inorder") && n == 1) {
            int budget = t.size + 1, first = 1;
            printf("[");
            print_inorder(t.root, &budget, &first);
            printf("] size %d\n", t.size);
        } else if (!strcmp(cmd, "preorder") && n == 1) {
            int budget = t.size + 1;
            print_preorder(t.root, &budget);
            printf("\n");
        } else {
            printf("line %d: bad command\n", lineno);
            errors++;
        }
    }
    return errors ? 1 : 0;
}
