/*
 * minivm.c - a CPU-bound workload written for culprit's overhead benchmark
 * (bench/overhead.sh).  Branchy, call-heavy code of the kind culprit-cc is
 * meant for, in three phases whose results are folded into one checksum:
 *
 *  1. a small assembler parses a textual program for a stack-based bytecode
 *     machine (labels, mnemonics, operands) and a dispatch loop runs it
 *     (a sieve, a Collatz search and a recursive Fibonacci with calls);
 *  2. a word generator (xorshift) feeds a chained hash table counting words;
 *  3. the distinct words are sorted with a hand-written merge sort on a
 *     string comparator, then a run-length string pass over the sorted list.
 *
 * usage: minivm [SCALE]   (default 10; the run time is about linear in it)
 * Prints one line "minivm <checksum>"; the checksum depends only on SCALE.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- phase 1: the bytecode machine ---------------------------------------------------------- */

enum op {
    OP_PUSH, OP_LOAD, OP_STORE, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD, OP_LT, OP_EQ,
    OP_JMP, OP_JZ, OP_JNZ, OP_CALL, OP_RET, OP_ALOAD, OP_ASTORE, OP_DUP, OP_DROP, OP_SWAP, OP_HALT,
    OP_COUNT
};

static const char *const mnemonics[OP_COUNT] = {
    "push", "load", "store", "add", "sub", "mul", "div", "mod", "lt", "eq",
    "jmp", "jz", "jnz", "call", "ret", "aload", "astore", "dup", "drop", "swap", "halt"};

typedef struct insn {
    int op;
    int64_t arg;
} insn;

typedef struct label {
    char name[24];
    int at;
} label;

typedef struct program {
    insn code[512];
    int length;
    label labels[64];
    int label_count;
    char pending[512][24]; /* label operand of a jump, resolved after parsing */
} program;

static int find_mnemonic(const char *word)
{
    for (int i = 0; i < OP_COUNT; i++)
        if (strcmp(word, mnemonics[i]) == 0)
            return i;
    return -1;
}

static int find_label(const program *p, const char *name)
{
    for (int i = 0; i < p->label_count; i++)
        if (strcmp(p->labels[i].name, name) == 0)
            return p->labels[i].at;
    return -1;
}

static int is_space(int c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* Reads one whitespace-delimited word of at most size-1 characters; returns the text after it. */
static const char *next_word(const char *text, char *word, size_t size)
{
    while (is_space((unsigned char)*text))
        text++;
    size_t n = 0;
    while (*text && *text != '\n' && !is_space((unsigned char)*text)) {
        if (n + 1 < size)
            word[n++] = *text;
        text++;
    }
    word[n] = '\0';
    return text;
}

static int assemble(program *p, const char *source)
{
    memset(p, 0, sizeof *p);
    const char *line = source;
    while (*line) {
        char word[24], operand[24];
        const char *rest = next_word(line, word, sizeof word);
        if (word[0] == '#' || word[0] == '\0') {
            /* comment or blank line */
        } else {
            if (word[strlen(word) - 1] == ':') { /* a label, maybe followed by an instruction */
                word[strlen(word) - 1] = '\0';
                snprintf(p->labels[p->label_count].name, sizeof p->labels[0].name, "%s", word);
                p->labels[p->label_count++].at = p->length;
                rest = next_word(rest, word, sizeof word);
                if (word[0] == '\0' || word[0] == '#')
                    goto end_of_line;
            }
            int op = find_mnemonic(word);
            if (op < 0) {
                fprintf(stderr, "minivm: unknown mnemonic %s\n", word);
                return -1;
            }
            rest = next_word(rest, operand, sizeof operand);
            insn *in = &p->code[p->length];
            in->op = op;
            if (operand[0] == '-' || (operand[0] >= '0' && operand[0] <= '9'))
                in->arg = strtoll(operand, NULL, 10);
            else if (operand[0] != '\0')
                memcpy(p->pending[p->length], operand, sizeof operand);
            p->length++;
        }
    end_of_line:
        while (*rest && *rest != '\n')
            rest++;
        line = *rest ? rest + 1 : rest;
    }
    for (int i = 0; i < p->length; i++) {
        if (p->pending[i][0] == '\0')
            continue;
        int at = find_label(p, p->pending[i]);
        if (at < 0) {
            fprintf(stderr, "minivm: unknown label %s\n", p->pending[i]);
            return -1;
        }
        p->code[i].arg = at;
    }
    return 0;
}

typedef struct machine {
    int64_t stack[256];
    int sp;
    int frames[256];
    int fp;
    int64_t vars[32];
    int64_t *array;
    int64_t array_size;
    uint64_t steps;
} machine;

static int64_t pop(machine *m)
{
    return m->stack[--m->sp];
}

static void push(machine *m, int64_t value)
{
    m->stack[m->sp++] = value;
}

static int64_t arith(int op, int64_t a, int64_t b)
{
    switch (op) {
    case OP_ADD:
        return a + b;
    case OP_SUB:
        return a - b;
    case OP_MUL:
        return a * b;
    case OP_DIV:
        return b == 0 ? 0 : a / b;
    case OP_MOD:
        return b == 0 ? 0 : a % b;
    case OP_LT:
        return a < b;
    default:
        return a == b;
    }
}

static int64_t run(machine *m, const program *p)
{
    int pc = 0;
    for (;;) {
        const insn *in = &p->code[pc++];
        m->steps++;
        switch (in->op) {
        case OP_PUSH:
            push(m, in->arg);
            break;
        case OP_LOAD:
            push(m, m->vars[in->arg]);
            break;
        case OP_STORE:
            m->vars[in->arg] = pop(m);
            break;
        case OP_ADD:
        case OP_SUB:
        case OP_MUL:
        case OP_DIV:
        case OP_MOD:
        case OP_LT:
        case OP_EQ: {
            int64_t b = pop(m), a = pop(m);
            push(m, arith(in->op, a, b));
            break;
        }
        case OP_JMP:
            pc = (int)in->arg;
            break;
        case OP_JZ:
            if (pop(m) == 0)
                pc = (int)in->arg;
            break;
        case OP_JNZ:
            if (pop(m) != 0)
                pc = (int)in->arg;
            break;
        case OP_CALL:
            m->frames[m->fp++] = pc;
            pc = (int)in->arg;
            break;
        case OP_RET:
            pc = m->frames[--m->fp];
            break;
        case OP_ALOAD: {
            int64_t i = pop(m);
            push(m, i >= 0 && i < m->array_size ? m->array[i] : 0);
            break;
        }
        case OP_ASTORE: {
            int64_t i = pop(m), v = pop(m);
            if (i >= 0 && i < m->array_size)
                m->array[i] = v;
            break;
        }
        case OP_DUP: {
            int64_t v = pop(m);
            push(m, v);
            push(m, v);
            break;
        }
        case OP_DROP:
            pop(m);
            break;
        case OP_SWAP: {
            int64_t b = pop(m), a = pop(m);
            push(m, b);
            push(m, a);
            break;
        }
        case OP_HALT:
            return m->sp > 0 ? pop(m) : 0;
        default:
            fprintf(stderr, "minivm: bad opcode %d\n", in->op);
            exit(2);
        }
    }
}

/* vars: 0 n, 1 i, 2 j, 3 primes, 4 x, 5 chain length, 6 longest chain, 7 fib argument, 8 fib */
static const char script[] =
    "# sieve of Eratosthenes up to vars[0]\n"
    "        push 2\n        store 1\n"
    "outer:  load 1\n        load 1\n        mul\n        load 0\n        lt\n        jz count\n"
    "        load 1\n        aload\n        jnz next\n"
    "        load 1\n        load 1\n        mul\n        store 2\n"
    "inner:  load 2\n        load 0\n        lt\n        jz next\n"
    "        push 1\n        load 2\n        astore\n"
    "        load 2\n        load 1\n        add\n        store 2\n        jmp inner\n"
    "next:   load 1\n        push 1\n        add\n        store 1\n        jmp outer\n"
    "count:  push 0\n        store 3\n        push 2\n        store 1\n"
    "cloop:  load 1\n        load 0\n        lt\n        jz collatz\n"
    "        load 1\n        aload\n        jnz cskip\n"
    "        load 3\n        push 1\n        add\n        store 3\n"
    "cskip:  load 1\n        push 1\n        add\n        store 1\n        jmp cloop\n"
    "# longest Collatz chain below vars[0] / 2\n"
    "collatz: push 1\n        store 1\n        push 0\n        store 6\n"
    "cnext:  load 1\n        load 0\n        push 2\n        div\n        lt\n        jz fib\n"
    "        load 1\n        store 4\n        push 0\n        store 5\n"
    "cstep:  load 4\n        push 1\n        eq\n        jnz cdone\n"
    "        load 4\n        push 2\n        mod\n        jz ceven\n"
    "        load 4\n        push 3\n        mul\n        push 1\n        add\n        store 4\n        jmp ccount\n"
    "ceven:  load 4\n        push 2\n        div\n        store 4\n"
    "ccount: load 5\n        push 1\n        add\n        store 5\n        jmp cstep\n"
    "cdone:  load 6\n        load 5\n        lt\n        jz cinc\n        load 5\n        store 6\n"
    "cinc:   load 1\n        push 1\n        add\n        store 1\n        jmp cnext\n"
    "# recursive Fibonacci of vars[7], on the data stack\n"
    "fib:    load 7\n        call rfib\n        store 8\n"
    "        load 3\n        push 1000003\n        mul\n        load 6\n        push 1009\n        mul\n"
    "        add\n        load 8\n        add\n        halt\n"
    "rfib:   dup\n        push 2\n        lt\n        jnz rbase\n"
    "        dup\n        push 1\n        sub\n        call rfib\n"
    "        swap\n        push 2\n        sub\n        call rfib\n        add\n"
    "        ret\n"
    "rbase:  ret\n";

static uint64_t phase_vm(int scale)
{
    program *p = malloc(sizeof *p);
    machine *m = calloc(1, sizeof *m);
    if (!p || !m || assemble(p, script) != 0)
        exit(2);
    m->array_size = 20000 * (int64_t)scale;
    m->array = calloc((size_t)m->array_size, sizeof *m->array);
    if (!m->array)
        exit(2);
    m->vars[0] = m->array_size;
    m->vars[7] = 20 + (scale > 15 ? 3 : scale / 5);
    int64_t result = run(m, p);
    uint64_t sum = (uint64_t)result * 31 + m->steps;
    free(m->array);
    free(m);
    free(p);
    return sum;
}

/* ---- phase 2: words into a hash table ------------------------------------------------------- */

typedef struct entry {
    struct entry *next;
    uint32_t hash;
    uint32_t count;
    char word[];
} entry;

typedef struct table {
    entry **buckets;
    size_t mask;
    size_t size;
} table;

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint64_t xorshift(void)
{
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return rng_state = x;
}

static const char *const syllables[] = {"ka", "lo", "mi", "ne", "ru", "sta", "tor", "vel", "qu", "ix",
                                        "ae", "bo", "cri", "dun", "eph", "fa"};

/* A pseudo-word of 1-3 syllables, skewed towards common ones: a vocabulary of
 * a few thousand words, so that the table stays in cache and the phase is
 * CPU-bound rather than memory-bound. */
static size_t make_word(char *out)
{
    uint64_t r = xorshift();
    int syllable_count = 1 + (int)(r % 3);
    size_t n = 0;
    for (int i = 0; i < syllable_count; i++) {
        r >>= 5;
        const char *s = syllables[(r & 15) < 12 ? (r & 7) : (r & 15)];
        while (*s)
            out[n++] = *s++;
    }
    if (syllable_count == 1 && (r >> 20) % 7 == 0)
        out[n++] = (char)('a' + (r >> 24) % 26);
    out[n] = '\0';
    return n;
}

static uint32_t hash_string(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 16777619u;
    }
    return h;
}

static void table_grow(table *t)
{
    size_t new_mask = t->mask * 2 + 1;
    entry **buckets = calloc(new_mask + 1, sizeof *buckets);
    if (!buckets)
        exit(2);
    for (size_t b = 0; b <= t->mask; b++) {
        entry *e = t->buckets[b];
        while (e) {
            entry *next = e->next;
            e->next = buckets[e->hash & new_mask];
            buckets[e->hash & new_mask] = e;
            e = next;
        }
    }
    free(t->buckets);
    t->buckets = buckets;
    t->mask = new_mask;
}

static void table_add(table *t, const char *word, size_t n)
{
    uint32_t h = hash_string(word, n);
    for (entry *e = t->buckets[h & t->mask]; e; e = e->next)
        if (e->hash == h && strcmp(e->word, word) == 0) {
            e->count++;
            return;
        }
    entry *e = malloc(sizeof *e + n + 1);
    if (!e)
        exit(2);
    memcpy(e->word, word, n + 1);
    e->hash = h;
    e->count = 1;
    e->next = t->buckets[h & t->mask];
    t->buckets[h & t->mask] = e;
    if (++t->size > t->mask)
        table_grow(t);
}

/* ---- phase 3: merge sort of the distinct words ----------------------------------------------- */

static int compare_entries(const entry *a, const entry *b)
{
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return strcmp(a->word, b->word);
}

static void merge_sort(entry **items, entry **scratch, size_t n)
{
    if (n < 2)
        return;
    if (n <= 8) { /* insertion sort for short runs */
        for (size_t i = 1; i < n; i++) {
            entry *item = items[i];
            size_t j = i;
            while (j > 0 && compare_entries(items[j - 1], item) > 0) {
                items[j] = items[j - 1];
                j--;
            }
            items[j] = item;
        }
        return;
    }
    size_t half = n / 2;
    merge_sort(items, scratch, half);
    merge_sort(items + half, scratch, n - half);
    size_t i = 0, j = half, k = 0;
    while (i < half && j < n)
        scratch[k++] = compare_entries(items[i], items[j]) <= 0 ? items[i++] : items[j++];
    while (i < half)
        scratch[k++] = items[i++];
    while (j < n)
        scratch[k++] = items[j++];
    memcpy(items, scratch, n * sizeof *items);
}

/* Length of the common prefix of consecutive words, summed: a string pass over the sorted list. */
static uint64_t prefix_sum(entry **items, size_t n)
{
    uint64_t sum = 0;
    for (size_t i = 1; i < n; i++) {
        const char *a = items[i - 1]->word, *b = items[i]->word;
        while (*a && *a == *b) {
            a++;
            b++;
            sum++;
        }
    }
    return sum;
}

static uint64_t phase_words(int scale)
{
    table t = {calloc(1024, sizeof(entry *)), 1023, 0};
    if (!t.buckets)
        exit(2);
    char word[64];
    long words = 250000L * scale;
    for (long i = 0; i < words; i++) {
        size_t n = make_word(word);
        table_add(&t, word, n);
    }
    entry **items = malloc(t.size * sizeof *items), **scratch = malloc(t.size * sizeof *items);
    if (!items || !scratch)
        exit(2);
    size_t k = 0;
    for (size_t b = 0; b <= t.mask; b++)
        for (entry *e = t.buckets[b]; e; e = e->next)
            items[k++] = e;
    uint64_t sum = 0;
    for (int round = 0; round < 16 * scale; round++) { /* re-sort from a shuffled order */
        for (size_t i = k; i > 1; i--) {
            size_t j = xorshift() % i;
            entry *swap = items[i - 1];
            items[i - 1] = items[j];
            items[j] = swap;
        }
        merge_sort(items, scratch, k);
        sum = sum * 131 + prefix_sum(items, k) + items[0]->count;
    }
    for (size_t i = 0; i < k; i++)
        free(items[i]);
    free(items);
    free(scratch);
    free(t.buckets);
    return sum ^ k;
}

int main(int argc, char **argv)
{
    int scale = argc > 1 ? atoi(argv[1]) : 10;
    if (scale < 1 || scale > 1000) {
        fprintf(stderr, "usage: minivm [SCALE 1..1000]\n");
        return 2;
    }
    uint64_t checksum = phase_vm(scale);
    checksum = checksum * 1000003u ^ phase_words(scale);
    printf("minivm %llu\n", (unsigned long long)checksum);
    return 0;
}
