/* list.c - a singly linked list with a header and a size field, for
 * tests/e2e/test_sat.sh (issue 23): reads "a N" (add N at the front) and
 * "r N" (remove the first N) from stdin and prints the list.  list_ok is
 * its representation invariant, checked after each operation.  remove's
 * size update is wrong (the fault): it runs in every removal, passing or
 * failing, so spectra cannot tell it from its neighbours. */
#include <culprit/contract.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct node {
    int value;
    struct node *next;
} node;

typedef struct list {
    node *head;
    int size;
} list;

static int list_ok(const list *l)
{
    int count = 0;
    for (const node *n = l->head; n; n = n->next)
        if (++count > l->size)
            return 0;
    return count == l->size;
}

static void add(list *l, int value)
{
    node *n = malloc(sizeof *n);
    n->value = value;
    n->next = l->head;
    l->head = n;
    l->size = l->size + 1;
    CULPRIT_INVARIANT(list_ok, l);
}

static void remove_value(list *l, int value)
{
    node *prev = NULL;
    for (node *n = l->head; n; prev = n, n = n->next)
        if (n->value == value) {
            if (prev)
                prev->next = n->next;
            else
                l->head = n->next;
            l->size = l->size - (n->value > 5 ? 2 : 1); /* the fault */
            free(n);
            break;
        }
    CULPRIT_INVARIANT(list_ok, l);
}

int main(void)
{
    list l = {NULL, 0};
    char op;
    int value;
    while (scanf(" %c %d", &op, &value) == 2) {
        if (op == 'a')
            add(&l, value);
        else if (op == 'r')
            remove_value(&l, value);
    }
    for (node *n = l.head; n; n = n->next)
        printf("%d\n", n->value);
    return 0;
}
