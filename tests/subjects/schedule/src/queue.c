#include "queue.h"

#include <stddef.h>

void queue_init(struct queue *q)
{
    q->head = NULL;
    q->tail = NULL;
    q->len = 0;
}

void queue_push(struct queue *q, struct proc *p)
{
    p->next = NULL;
    if (q->tail)
        q->tail->next = p;
    else
        q->head = p;
    q->tail = p;
    q->len++;
}

struct proc *queue_pop(struct queue *q)
{
    return queue_take(q, 0);
}

/* unlinks and returns the element at index, or NULL if out of range */
struct proc *queue_take(struct queue *q, int index)
{
    struct proc *prev = NULL, *p = q->head;
    int i;
    if (index < 0 || index >= q->len)
        return NULL;
    for (i = 0; i < index; i++) {
        prev = p;
        p = p->next;
    }
    if (prev)
        prev->next = p->next;
    else
        q->head = p->next;
    if (q->tail == p)
        q->tail = prev;
    q->len--;
    p->next = NULL;
    return p;
}

struct proc *queue_nth(const struct queue *q, int index)
{
    struct proc *p = q->head;
    while (p && index-- > 0)
        p = p->next;
    return p;
}

/* the index selected by a ratio in [0,1] in a queue of len elements */
int queue_index(double ratio, int len)
{
    int i = (int)(ratio * len);
    if (i >= len)
        i = len - 1;
    if (i < 0)
        i = 0;
    return i;
}
