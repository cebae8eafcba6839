/* schedule: a priority scheduler simulator.  Reads commands from stdin,
 * runs processes from several priority queues with a time quantum and
 * aging, prints the order in which processes finish and statistics. */
#include "queue.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PRIO 6
#define LINE_MAX 256

struct sched {
    struct queue ready[MAX_PRIO + 1]; /* index 1..levels */
    struct queue blocked;
    struct proc procs[MAX_PROCS];
    int nprocs;
    int levels;
    int quantum;
    int aging;      /* promote after this much waiting; 0 disables */
    int verbose;
    int quiet;
    long clock;
    int nfinished;
    int lineno;
    int errors;
};

static void usage(void)
{
    printf("usage: schedule [-q QUANTUM] [-a AGING] [-l LEVELS] [-v] [-s]\n");
}

static void report(struct sched *s, const char *msg)
{
    printf("line %d: %s\n", s->lineno, msg);
    s->errors++;
}

/* the running process: head of the highest non-empty ready queue */
static struct proc *current(struct sched *s)
{
    int p;
    for (p = s->levels; p >= 1; p--)
        if (s->ready[p].len > 0)
            return s->ready[p].head;
    return NULL;
}

static struct queue *queue_of(struct sched *s, struct proc *p)
{
    return &s->ready[p->prio];
}

static void finish(struct sched *s, struct proc *p)
{
    queue_take(queue_of(s, p), 0);
    p->state = DONE;
    p->finish = (int)s->clock;
    s->nfinished++;
    if (!s->quiet)
        printf("finished %d (prio %d) at %ld\n", p->id, p->base_prio,
               s->clock);
}

/* moves the running process to the tail of its queue */
static void requeue(struct sched *s, struct proc *p)
{
    struct queue *q = queue_of(s, p);
    queue_take(q, 0);
    p->used = 0;
    queue_push(q, p);
    if (s->verbose)
        printf("  %ld: %d back to queue %d\n", s->clock, p->id, p->prio);
}

static void promote(struct sched *s, struct proc *p, int index)
{
    queue_take(&s->ready[p->prio], index);
    p->prio++;
    p->age = 0;
    p->used = 0;
    queue_push(&s->ready[p->prio], p);
    if (s->verbose)
        printf("  %ld: %d promoted to %d\n", s->clock, p->id, p->prio);
}

/* promotes waiting processes whose age reached the aging threshold */
static void age_processes(struct sched *s, struct proc *running)
{
    int level;
    if (s->aging == 0)
        return;
    for (level = s->levels - 1; level >= 1; level--) {
        int i = 0;
        while (i < s->ready[level].len) {
            struct proc *p = queue_nth(&s->ready[level], i);
            if (p != running && p->age >= s->aging)
                promote(s, p, i);
            else
                i++;
        }
    }
}

/* advances the clock by one unit */
static void tick(struct sched *s)
{
    struct proc *run = current(s);
    int level;
    s->clock++;
    for (level = 1; level <= s->levels; level++) {
        struct proc *p;
        for (p = s->ready[level].head; p; p = p->next) {
            if (p != run) {
                p->waited++;
                p->age++;
            }
        }
    }
    if (run) {
        run->remaining--;
        run->used++;
        if (run->remaining == 0)
            finish(s, run);
        else if (run->used >= s->quantum)
            requeue(s, run);
    }
    age_processes(s, current(s));
}

static int parse_int(const char *tok, int lo, int hi, int *out)
{
    char *end;
    long v;
    if (!tok)
        return -1;
    v = strtol(tok, &end, 10);
    if (*end != '\0' || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

static int parse_ratio(const char *tok, double *out)
{
    char *end;
    double v;
    if (!tok)
        return -1;
    v = strtod(tok, &end);
    if (*end != '\0' || v < 0.0 || v > 1.0)
        return -1;
    *out = v;
    return 0;
}

static void cmd_new(struct sched *s, char *a1, char *a2)
{
    int prio, burst;
    struct proc *p;
    if (parse_int(a1, 1, s->levels, &prio) != 0) {
        report(s, "NEW: bad priority");
        return;
    }
    if (parse_int(a2, 1, 10000, &burst) != 0) {
        report(s, "NEW: bad burst time");
        return;
    }
    if (s->nprocs == MAX_PROCS) {
        report(s, "NEW: too many processes");
        return;
    }
    p = &s->procs[s->nprocs++];
    memset(p, 0, sizeof *p);
    p->id = s->nprocs;
    p->prio = prio;
    p->base_prio = prio;
    p->burst = burst;
    p->remaining = burst;
    p->arrival = (int)s->clock;
    p->state = READY;
    queue_push(&s->ready[prio], p);
    if (s->verbose)
        printf("  %ld: new %d prio %d burst %d\n", s->clock, p->id, prio,
               burst);
}

static void cmd_upgrade(struct sched *s, char *a1, char *a2)
{
    int prio;
    double ratio;
    if (parse_int(a1, 1, s->levels, &prio) != 0) {
        report(s, "UPGRADE: bad priority");
        return;
    }
    if (parse_ratio(a2, &ratio) != 0) {
        report(s, "UPGRADE: bad ratio");
        return;
    }
    if (prio == s->levels || s->ready[prio].len == 0)
        return;
    promote(s, queue_nth(&s->ready[prio], queue_index(ratio, s->ready[prio].len)),
            queue_index(ratio, s->ready[prio].len));
}

static void cmd_block(struct sched *s)
{
    struct proc *p = current(s);
    if (!p)
        return;
    queue_take(queue_of(s, p), 0);
    p->state = BLOCKED;
    p->used = 0;
    queue_push(&s->blocked, p);
    if (s->verbose)
        printf("  %ld: %d blocked\n", s->clock, p->id);
}

static void cmd_unblock(struct sched *s, char *a1)
{
    double ratio;
    struct proc *p;
    if (parse_ratio(a1, &ratio) != 0) {
        report(s, "UNBLOCK: bad ratio");
        return;
    }
    if (s->blocked.len == 0)
        return;
    p = queue_take(&s->blocked, queue_index(ratio, s->blocked.len));
    p->state = READY;
    p->age = 0;
    queue_push(queue_of(s, p), p);
    if (s->verbose)
        printf("  %ld: %d unblocked\n", s->clock, p->id);
}

static void cmd_flush(struct sched *s)
{
    struct proc *p;
    while ((p = current(s)) != NULL) {
        s->clock += p->remaining;
        p->remaining = 0;
        finish(s, p);
    }
}

static void cmd_status(struct sched *s)
{
    int level;
    struct proc *p;
    printf("time %ld:", s->clock);
    for (level = s->levels; level >= 1; level--) {
        printf(" [%d:", level);
        for (p = s->ready[level].head; p; p = p->next)
            printf(" %d", p->id);
        printf("]");
    }
    printf(" blocked:");
    for (p = s->blocked.head; p; p = p->next)
        printf(" %d", p->id);
    printf("\n");
}

static void execute(struct sched *s, char *line)
{
    char *cmd, *a1, *a2, *extra;
    int n;
    char *hash = strchr(line, '#');
    if (hash)
        *hash = '\0';
    cmd = strtok(line, " \t\r\n");
    if (!cmd)
        return;
    a1 = strtok(NULL, " \t\r\n");
    a2 = strtok(NULL, " \t\r\n");
    extra = strtok(NULL, " \t\r\n");
    if (extra) {
        report(s, "too many arguments");
        return;
    }
    if (strcmp(cmd, "NEW") == 0) {
        cmd_new(s, a1, a2);
    } else if (strcmp(cmd, "UPGRADE") == 0) {
        cmd_upgrade(s, a1, a2);
    } else if (strcmp(cmd, "BLOCK") == 0) {
        cmd_block(s);
    } else if (strcmp(cmd, "UNBLOCK") == 0) {
        cmd_unblock(s, a1);
    } else if (strcmp(cmd, "QUANTUM_EXPIRE") == 0) {
        struct proc *p = current(s);
        if (p)
            requeue(s, p);
    } else if (strcmp(cmd, "FINISH") == 0) {
        struct proc *p = current(s);
        if (p)
            finish(s, p);
    } else if (strcmp(cmd, "TICK") == 0) {
        if (a1 == NULL)
            n = 1;
        else if (parse_int(a1, 1, 100000, &n) != 0) {
            report(s, "TICK: bad count");
            return;
        }
        while (n-- > 0)
            tick(s);
    } else if (strcmp(cmd, "FLUSH") == 0) {
        cmd_flush(s);
    } else if (strcmp(cmd, "STATUS") == 0) {
        cmd_status(s);
    } else {
        report(s, "unknown command");
    }
}

static void statistics(const struct sched *s)
{
    long turnaround = 0, waiting = 0;
    int maxwait = 0, i, left = 0;
    for (i = 0; i < s->nprocs; i++) {
        const struct proc *p = &s->procs[i];
        if (p->state != DONE) {
            left++;
            continue;
        }
        turnaround += p->finish - p->arrival;
        waiting += p->waited;
        if (p->waited > maxwait)
            maxwait = p->waited;
    }
    printf("processes: %d finished, %d unfinished\n", s->nfinished, left);
    if (s->nfinished > 0) {
        printf("average turnaround: %.2f\n",
               (double)turnaround / s->nfinished);
        printf("average waiting: %.2f\n", (double)waiting / s->nfinished);
        printf("longest wait: %d\n", maxwait);
    }
    printf("clock: %ld\n", s->clock);
}

static int parse_args(struct sched *s, int argc, char **argv)
{
    int i;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-v") == 0) {
            s->verbose = 1;
        } else if (strcmp(a, "-s") == 0) {
            s->quiet = 1;
        } else if (strcmp(a, "-q") == 0 || strcmp(a, "-a") == 0 ||
                   strcmp(a, "-l") == 0) {
            int v;
            if (i + 1 >= argc) {
                printf("schedule: %s needs a value\n", a);
                return -1;
            }
            if (a[1] == 'q' && parse_int(argv[i + 1], 1, 1000, &v) == 0)
                s->quantum = v;
            else if (a[1] == 'a' && parse_int(argv[i + 1], 0, 1000, &v) == 0)
                s->aging = v;
            else if (a[1] == 'l' && parse_int(argv[i + 1], 2, MAX_PRIO, &v) == 0)
                s->levels = v;
            else {
                printf("schedule: bad value for %s: %s\n", a, argv[i + 1]);
                return -1;
            }
            i++;
        } else {
            printf("schedule: unknown option %s\n", a);
            return -1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    static struct sched s;
    char line[LINE_MAX];
    int i;

    s.levels = 3;
    s.quantum = 4;
    s.aging = 0;
    if (parse_args(&s, argc, argv) != 0) {
        usage();
        return 2;
    }
    for (i = 0; i <= MAX_PRIO; i++)
        queue_init(&s.ready[i]);
    queue_init(&s.blocked);
    while (fgets(line, sizeof line, stdin)) {
        s.lineno++;
        execute(&s, line);
    }
    statistics(&s);
    return s.errors > 0 ? 1 : 0;
}
