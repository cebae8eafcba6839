#ifndef QUEUE_H
#define QUEUE_H

#define MAX_PROCS 1000

enum state { READY, BLOCKED, DONE };

struct proc {
    int id;
    int prio;       /* current priority, 1 (lowest) .. max */
    int base_prio;  /* priority given at creation */
    int burst;      /* total run time needed */
    int remaining;  /* run time still needed */
    int arrival;    /* clock at creation */
    int waited;     /* time spent ready but not running */
    int age;        /* waiting time since last promotion */
    int used;       /* time used of the current quantum */
    int finish;     /* clock at completion */
    enum state state;
    struct proc *next;
};

struct queue {
    struct proc *head;
    struct proc *tail;
    int len;
};

void queue_init(struct queue *q);
void queue_push(struct queue *q, struct proc *p);
struct proc *queue_pop(struct queue *q);
struct proc *queue_take(struct queue *q, int index);
struct proc *queue_nth(const struct queue *q, int index);
int queue_index(double ratio, int len);

#endif
