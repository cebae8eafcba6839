/*
 * list.c - a singly linked list of distinct integer keys, after the
 * LinkedList of SAT-TAR (seeds/003, Listing 1): a header pointer to the
 * first node and a size field.  It reads one command per line on stdin,
 * performs it and prints its result, so that a test is a short program of
 * list operations and its expected output.
 *
 *   addfirst K   addlast K   insert I K   remove K   removeat I
 *   contains K   indexof K   get I        reverse    size   print
 *
 * The specifications are written with <culprit/contract.h> (docs/specs.md):
 * list_ok() is the representation invariant (the paper's repOk(): the list
 * is acyclic, its keys are distinct and size counts the nodes reachable
 * from header), checked at the end of every operation that mutates the
 * list, and each mutating operation states its postconditions (the paper's
 * deletePostcond1: the key is gone and size dropped by one).  A faulty
 * version shows as a violated specification (the program aborts with the
 * spec's text) or as a wrong result line.
 *
 * Exit status: 0, or 1 when some line was not a command.
 */
#include <culprit/contract.h>
#include <stdio.h>
#include <string.h>

struct node {
    int key;
    struct node *next;
};

struct list {
    struct node *header; /* the first node, NULL when empty */
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
    n->next = NULL;
    return n;
}

/* repOk: acyclic (Floyd's two pointers, so that a cycle cannot hang the
 * check), distinct keys, and size equal to the number of nodes. */
static int list_ok(const struct list *l)
{
    const struct node *slow = l->header, *fast = l->header;
    while (fast && fast->next) {
        slow = slow->next;
        fast = fast->next->next;
        if (slow == fast)
            return 0;
    }
    int count = 0;
    for (const struct node *p = l->header; p; p = p->next) {
        count++;
        for (const struct node *q = p->next; q; q = q->next)
            if (q->key == p->key)
                return 0;
    }
    return count == l->size;
}

/* Queries; they do not change the list, so they state no invariant. */
static int list_index_of(const struct list *l, int key)
{
    int i = 0;
    for (const struct node *p = l->header; p; p = p->next) {
        if (p->key == key)
            return i;
        i++;
    }
    return -1;
}

static int list_contains(const struct list *l, int key)
{
    return list_index_of(l, key) >= 0;
}

/* the node at index, or NULL when index is out of range */
static struct node *list_node_at(const struct list *l, int index)
{
    if (index < 0 || index >= l->size)
        return NULL;
    struct node *p = l->header;
    for (int i = 0; i < index; i++)
        p = p->next;
    return p;
}

static int list_last_key(const struct list *l)
{
    const struct node *p = l->header;
    while (p->next)
        p = p->next;
    return p->key;
}

/* Mutators.  Each returns 1 when the list changed, 0 when it did not (the
 * key was already there, or absent), -1 for a bad index or a full arena. */
static int list_add_first(struct list *l, int key)
{
    int old_size = l->size;
    if (list_contains(l, key))
        return 0;
    struct node *n = node_new(key);
    if (!n)
        return -1;
    n->next = l->header;
    l->header = n;
    l->size++;
    CULPRIT_INVARIANT(list_ok, l);
    CULPRIT_ENSURES(l->size == old_size + 1);
    CULPRIT_ENSURES(l->header->key == key);
    return 1;
}

static int list_add_last(struct list *l, int key)
{
    int old_size = l->size;
    struct node *last = NULL;
    for (struct node *p = l->header; p; p = p->next) {
        if (p->key == key)
            return 0;
        last = p;
    }
    struct node *n = node_new(key);
    if (!n)
        return -1;
    if (last)
        last->next = n;
    else
        l->header = n;
    l->size++;
    CULPRIT_INVARIANT(list_ok, l);
    CULPRIT_ENSURES(l->size == old_size + 1);
    CULPRIT_ENSURES(list_last_key(l) == key);
    return 1;
}

/* inserts key so that it ends up at index (0..size) */
static int list_insert(struct list *l, int index, int key)
{
    int old_size = l->size;
    if (index < 0 || index > l->size)
        return -1;
    if (list_contains(l, key))
        return 0;
    struct node *n = node_new(key);
    if (!n)
        return -1;
    if (index == 0) {
        n->next = l->header;
        l->header = n;
    } else {
        struct node *p = l->header; /* the node before index */
        for (int i = 1; i < index; i++)
            p = p->next;
        n->next = p->next;
        p->next = n;
    }
    l->size++;
    CULPRIT_INVARIANT(list_ok, l);
    CULPRIT_ENSURES(l->size == old_size + 1);
    CULPRIT_ENSURES(list_index_of(l, key) == index);
    return 1;
}

/* the paper's delete(k): unlinks the node holding key */
static int list_remove(struct list *l, int key)
{
    int old_size = l->size;
    struct node *prev = NULL, *cur = l->header;
    while (cur) {
        if (cur->key == key) {
            if (prev)
                prev->next = cur->next;
            else
                l->header = cur->next;
            l->size--;
            CULPRIT_INVARIANT(list_ok, l);
            CULPRIT_ENSURES(l->size == old_size - 1);
            CULPRIT_ENSURES(!list_contains(l, key));
            return 1;
        }
        prev = cur;
        cur = cur->next;
    }
    CULPRIT_INVARIANT(list_ok, l);
    CULPRIT_ENSURES(l->size == old_size);
    return 0;
}

/* unlinks the node at index and stores its key in *key */
static int list_remove_at(struct list *l, int index, int *key)
{
    int old_size = l->size;
    if (index < 0 || index >= l->size)
        return -1;
    struct node *prev = NULL, *cur = l->header;
    for (int i = 0; i < index; i++) {
        prev = cur;
        cur = cur->next;
    }
    if (prev)
        prev->next = cur->next;
    else
        l->header = cur->next;
    l->size--;
    *key = cur->key;
    CULPRIT_INVARIANT(list_ok, l);
    CULPRIT_ENSURES(l->size == old_size - 1);
    CULPRIT_ENSURES(!list_contains(l, *key));
    return 1;
}

/* reverses the links in place; the old last node becomes the header */
static void list_reverse(struct list *l)
{
    int old_size = l->size;
    int old_last = l->header ? list_last_key(l) : 0;
    struct node *prev = NULL, *cur = l->header;
    while (cur) {
        struct node *next = cur->next;
        cur->next = prev;
        prev = cur;
        cur = next;
    }
    l->header = prev;
    CULPRIT_INVARIANT(list_ok, l);
    CULPRIT_ENSURES(l->size == old_size);
    CULPRIT_ENSURES(!l->header || l->header->key == old_last);
}

/* prints the keys; stops after size + 1 nodes so that a broken list
 * cannot make the printing run away */
static void list_print(const struct list *l)
{
    int n = 0;
    printf("[");
    for (const struct node *p = l->header; p && n <= l->size; p = p->next)
        printf(n++ ? " %d" : "%d", p->key);
    printf("] size %d\n", l->size);
}

static const char *const verdict[] = {"full", "no", "ok"}; /* by result + 1 */

int main(void)
{
    static struct list l; /* empty: header NULL, size 0 */
    char line[256], cmd[16];
    int a, b, lineno = 0, errors = 0;

    while (fgets(line, sizeof line, stdin)) {
        lineno++;
        int n = sscanf(line, "%15s %d %d", cmd, &a, &b);
        if (n < 1 || cmd[0] == '#')
            continue;
        if (!strcmp(cmd, "addfirst") && n == 2) {
            printf("addfirst %d: %s\n", a, verdict[list_add_first(&l, a) + 1]);
        } else if (!strcmp(cmd, "addlast") && n == 2) {
            printf("addlast %d: %s\n", a, verdict[list_add_last(&l, a) + 1]);
        } else if (!strcmp(cmd, "insert") && n == 3) {
            int r = list_insert(&l, a, b);
            printf("insert %d at %d: %s\n", b, a, r < 0 ? "bad index" : verdict[r + 1]);
        } else if (!strcmp(cmd, "remove") && n == 2) {
            printf("remove %d: %s\n", a, list_remove(&l, a) ? "ok" : "absent");
        } else if (!strcmp(cmd, "removeat") && n == 2) {
            int key;
            if (list_remove_at(&l, a, &key) < 0)
                printf("removeat %d: bad index\n", a);
            else
                printf("removeat %d: %d\n", a, key);
        } else if (!strcmp(cmd, "contains") && n == 2) {
            printf("contains %d: %s\n", a, list_contains(&l, a) ? "yes" : "no");
        } else if (!strcmp(cmd, "indexof") && n == 2) {
            printf("indexof %d: %d\n", a, list_index_of(&l, a));
        } else if (!strcmp(cmd, "get") && n == 2) {
            struct node *p = list_node_at(&l, a);
            if (p)
                printf("get %d: %d\n", a, p->key);
            else
                printf("get %d: bad index\n", a);
        } else if (!strcmp(cmd, "reverse") && n == 1) {
            list_reverse(&l);
            printf("reverse\n");
        } else if (!strcmp(cmd, "size") && n == 1) {
            printf("size %d\n", l.size);
        } else if (!strcmp(cmd, "print") && n == 1) {
            list_print(&l);
        } else {
            printf("line %d: bad command\n", lineno);
            errors++;
        }
    }
    return errors ? 1 : 0;
}
