/* spec_list.c - a sorted list with a precondition, a representation
 * invariant and a postcondition (<culprit/contract.h>), and one assert():
 * the subject of tests/e2e/test_specs.sh.  Inserting 7 stores 70, which
 * breaks the order when something larger is already there. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <culprit/contract.h>

typedef struct list { int size; int items[16]; } list;

static int list_ok(const list *l)
{
    if (l->size < 0 || l->size > 16)
        return 0;
    for (int i = 1; i < l->size; i++)
        if (l->items[i - 1] > l->items[i])
            return 0;
    return 1;
}

static void insert(list *l, int x)
{
    CULPRIT_REQUIRES(l->size < 16);
    int i = l->size;
    while (i > 0 && l->items[i - 1] > x) {
        l->items[i] = l->items[i - 1];
        i--;
    }
    l->items[i] = x;
    if (x == 7)
        l->items[i] = 70; /* seeded fault */
    l->size++;
    CULPRIT_INVARIANT(list_ok, l);
    CULPRIT_ENSURES(l->size > 0);
}

int main(int argc, char **argv)
{
    list l = {0};
    for (int i = 1; i < argc; i++)
        insert(&l, atoi(argv[i]));
    assert(l.size == argc - 1);
    for (int i = 0; i < l.size; i++)
        printf("%d\n", l.items[i]);
    return 0;
}
