/*
 * heap.c - a binary min-heap of integers in a fixed array, a data
 * structure of the kind SAT-TAR localizes faults in (seeds/003), with
 * insert, extract-min, decrease-key and removal at an index.  It reads one
 * command per line on stdin, performs it and prints its result, so that a
 * test is a short program of heap operations.
 *
 *   insert V   extract   peek   decrease I V   delete I   size   print
 *
 * Indices are positions in the array (print shows it), as a caller holding
 * a handle to an entry would use them.  The specifications are written with
 * <culprit/contract.h> (docs/specs.md): heap_ok() is the representation
 * invariant (every entry is at least its parent, and the size lies within
 * the capacity), checked at the end of every mutating operation, and each
 * mutating operation states its postconditions.  A faulty version shows as
 * a violated specification (the program aborts with the spec's text) or as
 * a wrong result line.
 *
 * Exit status: 0, or 1 when some line was not a command.
 */
#include <culprit/contract.h>
#include <stdio.h>
#include <string.h>

#define CAPACITY 64

struct heap {
    int a[CAPACITY];
    int size;
};

/* repOk: the size is within the capacity and no entry is below its parent */
static int heap_ok(const struct heap *h)
{
    if (h->size < 0 || h->size > CAPACITY)
        return 0;
    for (int i = 1; i < h->size; i++)
        if (h->a[(i - 1) / 2] > h->a[i])
            return 0;
    return 1;
}

/* how many entries equal v: the postconditions count them to say that an
 * operation added or removed exactly one */
static int heap_count(const struct heap *h, int v)
{
    int n = 0;
    for (int i = 0; i < h->size; i++)
        n += h->a[i] == v;
    return n;
}

static void swap(int *x, int *y)
{
    int t = *x;
    *x = *y;
    *y = t;
}

/* moves the entry at i up while it is below its parent */
static void sift_up(struct heap *h, int i)
{
    while (i > 0) {
        int parent = (i - 1) / 2;
        if (h->a[parent] <= h->a[i])
            break;
        swap(&h->a[parent], &h->a[i]);
        i = parent;
    }
}

/* moves the entry at i down while a child is below it, swapping with the
 * smaller child */
static void sift_down(struct heap *h, int i)
{
    int child = 2 * i + 1;
    while (child < h->size) {
        if (child + 1 < h->size && h->a[child + 1] < h->a[child])
            child++;
        if (h->a[i] <= h->a[child])
            break;
        swap(&h->a[i], &h->a[child]);
        i = child;
        child = 2 * i + 1;
    }
}

/* 1 when inserted, 0 when the heap is full */
static int heap_insert(struct heap *h, int v)
{
    int old_size = h->size, old_count = heap_count(h, v);
    if (h->size == CAPACITY)
        return 0;
    h->a[h->size] = v;
    h->size++;
    sift_up(h, h->size - 1);
    CULPRIT_INVARIANT(heap_ok, h);
    CULPRIT_ENSURES(h->size == old_size + 1);
    CULPRIT_ENSURES(heap_count(h, v) == old_count + 1);
    CULPRIT_ENSURES(h->a[0] <= v);
    return 1;
}

/* removes the least entry into *v; 0 when the heap is empty */
static int heap_extract(struct heap *h, int *v)
{
    int old_size = h->size;
    if (h->size == 0)
        return 0;
    int min = h->a[0], old_count = heap_count(h, min);
    h->size--;
    h->a[0] = h->a[h->size];
    sift_down(h, 0);
    *v = min;
    CULPRIT_INVARIANT(heap_ok, h);
    CULPRIT_ENSURES(h->size == old_size - 1);
    CULPRIT_ENSURES(heap_count(h, min) == old_count - 1);
    CULPRIT_ENSURES(h->size == 0 || h->a[0] >= min);
    return 1;
}

/* lowers the entry at i to v: 1 when done, 0 when v is above it, -1 for a
 * bad index */
static int heap_decrease(struct heap *h, int i, int v)
{
    if (i < 0 || i >= h->size)
        return -1;
    if (v > h->a[i])
        return 0;
    int old_size = h->size, old = h->a[i], old_count = heap_count(h, v);
    h->a[i] = v;
    sift_up(h, i);
    CULPRIT_INVARIANT(heap_ok, h);
    CULPRIT_ENSURES(h->size == old_size);
    CULPRIT_ENSURES(heap_count(h, v) == old_count + (old != v));
    CULPRIT_ENSURES(h->a[0] <= v);
    return 1;
}

/* removes the entry at i into *v: the last entry takes its place and moves
 * up or down, whichever its new neighbours ask for; -1 for a bad index */
static int heap_delete(struct heap *h, int i, int *v)
{
    if (i < 0 || i >= h->size)
        return -1;
    int old_size = h->size, removed = h->a[i], old_count = heap_count(h, removed);
    h->size--;
    if (i < h->size) {
        h->a[i] = h->a[h->size];
        sift_up(h, i);
        sift_down(h, i);
    }
    *v = removed;
    CULPRIT_INVARIANT(heap_ok, h);
    CULPRIT_ENSURES(h->size == old_size - 1);
    CULPRIT_ENSURES(heap_count(h, removed) == old_count - 1);
    return 1;
}

static void heap_print(const struct heap *h)
{
    printf("[");
    for (int i = 0; i < h->size && i < CAPACITY; i++)
        printf(i ? " %d" : "%d", h->a[i]);
    printf("] size %d\n", h->size);
}

int main(void)
{
    static struct heap h; /* empty */
    char line[256], cmd[16];
    int a, b, v, lineno = 0, errors = 0;

    while (fgets(line, sizeof line, stdin)) {
        lineno++;
        int n = sscanf(line, "%15s %d %d", cmd, &a, &b);
        if (n < 1 || cmd[0] == '#')
            continue;
        if (!strcmp(cmd, "insert") && n == 2) {
            printf("insert %d: %s\n", a, heap_insert(&h, a) ? "ok" : "full");
        } else if (!strcmp(cmd, "extract") && n == 1) {
            if (heap_extract(&h, &v))
                printf("extract: %d\n", v);
            else
                printf("extract: empty\n");
        } else if (!strcmp(cmd, "peek") && n == 1) {
            if (h.size)
                printf("peek: %d\n", h.a[0]);
            else
                printf("peek: empty\n");
        } else if (!strcmp(cmd, "decrease") && n == 3) {
            int r = heap_decrease(&h, a, b);
            printf("decrease %d to %d: %s\n", a, b, r > 0 ? "ok" : r == 0 ? "not lower" : "bad index");
        } else if (!strcmp(cmd, "delete") && n == 2) {
            if (heap_delete(&h, a, &v) < 0)
                printf("delete %d: bad index\n", a);
            else
                printf("delete %d: %d\n", a, v);
        } else if (!strcmp(cmd, "size") && n == 1) {
            printf("size %d\n", h.size);
        } else if (!strcmp(cmd, "print") && n == 1) {
            heap_print(&h);
        } else {
            printf("line %d: bad command\n", lineno);
            errors++;
        }
    }
    return errors ? 1 : 0;
}
