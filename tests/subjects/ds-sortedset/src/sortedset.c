/*
 * sortedset.c - sets of integers kept as sorted arrays, a data structure of
 * the kind SAT-TAR localizes faults in (seeds/003): binary search, insertion
 * and removal by shifting, and union, intersection and difference by
 * merging.  It reads one command per line on stdin, performs it on set A
 * (or B) and prints its result, so that a test is a short program of set
 * operations.
 *
 *   add K   remove K   contains K   rank K   addb K
 *   union   intersect  diff         size     print
 *
 * union, intersect and diff store A op B in A.  The specifications are
 * written with <culprit/contract.h> (docs/specs.md): set_ok() is the
 * representation invariant (strictly ascending, hence no repeats, and the
 * size within the capacity), checked at the end of every mutating
 * operation, and each mutating operation states its postconditions.  A
 * faulty version shows as a violated specification (the program aborts
 * with the spec's text) or as a wrong result line.
 *
 * Exit status: 0, or 1 when some line was not a command.
 */
#include <culprit/contract.h>
#include <stdio.h>
#include <string.h>

#define CAPACITY 64

struct set {
    int a[CAPACITY];
    int size;
};

/* repOk: the size is within the capacity and the entries strictly ascend */
static int set_ok(const struct set *s)
{
    if (s->size < 0 || s->size > CAPACITY)
        return 0;
    for (int i = 1; i < s->size; i++)
        if (s->a[i - 1] >= s->a[i])
            return 0;
    return 1;
}

/* The index of the first entry not below k (size when there is none):
 * where k is, or where it would go. */
static int set_lower_bound(const struct set *s, int k)
{
    int lo = 0, hi = s->size - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (s->a[mid] < k)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return lo;
}

static int set_contains(const struct set *s, int k)
{
    int i = set_lower_bound(s, k);
    return i < s->size && s->a[i] == k;
}

/* the postconditions' reference: a plain scan, independent of the search */
static int set_has(const struct set *s, int k)
{
    for (int i = 0; i < s->size; i++)
        if (s->a[i] == k)
            return 1;
    return 0;
}

/* 1 when added, 0 when present, -1 when full */
static int set_add(struct set *s, int k)
{
    int old_size = s->size;
    int pos = set_lower_bound(s, k);
    if (pos < s->size && s->a[pos] == k)
        return 0;
    if (s->size == CAPACITY)
        return -1;
    for (int j = s->size; j > pos; j--)
        s->a[j] = s->a[j - 1];
    s->a[pos] = k;
    s->size++;
    CULPRIT_INVARIANT(set_ok, s);
    CULPRIT_ENSURES(s->size == old_size + 1);
    CULPRIT_ENSURES(set_has(s, k));
    return 1;
}

/* 1 when removed, 0 when absent */
static int set_remove(struct set *s, int k)
{
    int old_size = s->size;
    int pos = set_lower_bound(s, k);
    if (pos == s->size || s->a[pos] != k) {
        CULPRIT_ENSURES(!set_has(s, k));
        return 0;
    }
    for (int j = pos; j < s->size - 1; j++)
        s->a[j] = s->a[j + 1];
    s->size--;
    CULPRIT_INVARIANT(set_ok, s);
    CULPRIT_ENSURES(s->size == old_size - 1);
    CULPRIT_ENSURES(!set_has(s, k));
    return 1;
}

/* A = A op B by one merge of the two ascending arrays: keep says which
 * entries survive (only in A, in both, only in B).  0 when the result
 * would not fit. */
enum { ONLY_A = 1, BOTH = 2, ONLY_B = 4 };

static int set_merge(struct set *a, const struct set *b, int keep)
{
    struct set r = {.size = 0};
    int i = 0, j = 0;
    while (i < a->size || j < b->size) {
        int x, from;
        if (j == b->size || (i < a->size && a->a[i] < b->a[j])) {
            x = a->a[i++];
            from = ONLY_A;
        } else if (i == a->size || b->a[j] < a->a[i]) {
            x = b->a[j++];
            from = ONLY_B;
        } else {
            x = a->a[i];
            i++;
            j++;
            from = BOTH;
        }
        if (keep & from) {
            if (r.size == CAPACITY)
                return 0;
            r.a[r.size++] = x;
        }
    }
    *a = r;
    return 1;
}

static int set_union(struct set *a, const struct set *b)
{
    int old_size = a->size;
    int ok = set_merge(a, b, ONLY_A | BOTH | ONLY_B);
    CULPRIT_INVARIANT(set_ok, a);
    CULPRIT_ENSURES(!ok || (a->size >= old_size && a->size >= b->size));
    CULPRIT_ENSURES(!ok || b->size == 0 || set_has(a, b->a[b->size - 1]));
    return ok;
}

static void set_intersect(struct set *a, const struct set *b)
{
    int old_size = a->size;
    set_merge(a, b, BOTH);
    CULPRIT_INVARIANT(set_ok, a);
    CULPRIT_ENSURES(a->size <= old_size && a->size <= b->size);
}

static void set_diff(struct set *a, const struct set *b)
{
    int old_size = a->size;
    set_merge(a, b, ONLY_A);
    CULPRIT_INVARIANT(set_ok, a);
    CULPRIT_ENSURES(a->size <= old_size);
    CULPRIT_ENSURES(b->size == 0 || !set_has(a, b->a[0]));
}

static void set_print(const char *name, const struct set *s)
{
    printf("%s = {", name);
    for (int i = 0; i < s->size && i < CAPACITY; i++)
        printf(i ? " %d" : "%d", s->a[i]);
    printf("} size %d\n", s->size);
}

static const char *const verdict[] = {"full", "present", "ok"}; /* by result + 1 */

int main(void)
{
    static struct set a, b; /* empty */
    char line[256], cmd[16];
    int k, lineno = 0, errors = 0;

    while (fgets(line, sizeof line, stdin)) {
        lineno++;
        int n = sscanf(line, "%15s %d", cmd, &k);
        if (n < 1 || cmd[0] == '#')
            continue;
        if (!strcmp(cmd, "add") && n == 2) {
            printf("add %d: %s\n", k, verdict[set_add(&a, k) + 1]);
        } else if (!strcmp(cmd, "addb") && n == 2) {
            printf("addb %d: %s\n", k, verdict[set_add(&b, k) + 1]);
        } else if (!strcmp(cmd, "remove") && n == 2) {
            printf("remove %d: %s\n", k, set_remove(&a, k) ? "ok" : "absent");
        } else if (!strcmp(cmd, "contains") && n == 2) {
            printf("contains %d: %s\n", k, set_contains(&a, k) ? "yes" : "no");
        } else if (!strcmp(cmd, "rank") && n == 2) {
            printf("rank %d: %d\n", k, set_lower_bound(&a, k));
        } else if (!strcmp(cmd, "union") && n == 1) {
            printf("union: %s\n", set_union(&a, &b) ? "ok" : "full");
        } else if (!strcmp(cmd, "intersect") && n == 1) {
            set_intersect(&a, &b);
            printf("intersect: ok\n");
        } else if (!strcmp(cmd, "diff") && n == 1) {
            set_diff(&a, &b);
            printf("diff: ok\n");
        } else if (!strcmp(cmd, "size") && n == 1) {
            printf("size %d\n", a.size);
        } else if (!strcmp(cmd, "print") && n == 1) {
            set_print("A", &a);
            set_print("B", &b);
        } else {
            printf("line %d: bad command\n", lineno);
            errors++;
        }
    }
    return errors ? 1 : 0;
}
