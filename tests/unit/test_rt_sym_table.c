/*
 * test_rt_sym_table.c - table loads through a symbolic index
 * (__culprit_sym_load_table, src/rt/sym_table.c) and the toupper/tolower
 * models, driven by hand as culprit-cc's code would: a child (an exec of
 * this program with "scenario NAME") reads input bytes through the read
 * model, looks them up in glibc's ctype tables and in tables of its own,
 * and records each lookup's expression as a switch constraint (block =
 * which lookup); the parent decodes the trailer (sym_trailer.h) and
 * checks that every expression is exact: evaluated for each of the 256
 * values of its input byte, it gives the table's entry (EOF's entry, -1,
 * included), and that what is not modelled is concretized and counted.
 */
#include "check.h"
#include "rt/culprit_rt.h"
#include "rt/culprit_sym.h"
#include "rt/sym_wrappers.h"
#include "sym_trailer.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define HASH "dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd"
static const char map_text[] = "culprit-map\t1\nunit\t" HASH "\tfull\t16\t16\nend\n";
static uint64_t counters[16];
static struct culprit_rt_unit unit = {.version = 1,
                                      .mode = CULPRIT_RT_MODE_FULL,
                                      .counter_count = 16,
                                      .block_count = 16,
                                      .counters = counters,
                                      .map = map_text,
                                      .map_size = sizeof map_text - 1,
                                      .hash = HASH};

/* The tables of the program under test, as the parent knows them too. */
static const signed char hexval[256] = {
    ['0'] = 0,  ['1'] = 1,  ['2'] = 2,  ['3'] = 3,  ['4'] = 4,  ['5'] = 5,  ['6'] = 6,  ['7'] = 7,
    ['8'] = 8,  ['9'] = 9,  ['A'] = 10, ['B'] = 11, ['C'] = 12, ['D'] = 13, ['E'] = 14, ['F'] = 15,
    ['a'] = 10, ['b'] = 11, ['c'] = 12, ['d'] = 13, ['e'] = 14, ['f'] = 15};
static const uint16_t digit_words[10] = {700, 701, 702, 9, 9, 9, 42, 43, 44, 1};
struct keyword {
    char name[6];
    int16_t token;
};
static const struct keyword keywords[5] = {{"and", 3}, {"break", -7}, {"case", 3}, {"do", 12}, {"else", 300}};
static uint8_t written[8]; /* filled at run time, twice */

/* What each block's lookup is (parent and child agree on the numbers). */
enum lookup {
    CLASS_OF_INT = 1,  /* (*__ctype_b_loc())[c], c = getc's int */
    CLASS_OF_CHAR,     /* the same with a signed char */
    TOUPPER,           /* the toupper model */
    TOLOWER_OF_CHAR,   /* the tolower model on a signed char */
    HEX,               /* hexval[(unsigned char)c] */
    DIGIT_WORD,        /* digit_words[c - '0'] */
    CLASS_OF_PREVIOUS, /* (*__ctype_b_loc())[c - 1]: reaches EOF's entry */
    KEYWORD_TOKEN,     /* keywords[c - 'a'].token */
    WRITTEN_FIRST,     /* written[c & 7] after written[i] = 2i */
    WRITTEN_SECOND,    /* written[c & 7] after written[i] = i % 3 */
    SYMBOLIC_ENTRY     /* a table holding an input byte: concretized */
};

/* ---- the child ---- */

static culprit_sym_expr byte_of(const unsigned char *buffer, int i)
{
    return __culprit_sym_load(buffer + i, 1);
}

static culprit_sym_expr widen(uint32_t op, culprit_sym_expr e, uint64_t value, uint32_t from, uint32_t to)
{
    return __culprit_sym_cast(op, e, value, from, to);
}

/* table[index] as instrumented code asks for it; the result recorded at block. */
static void lookup(const void *table, int64_t first, uint64_t count, uint64_t stride, uint32_t bytes,
                   culprit_sym_expr index, int64_t index_value, enum lookup block)
{
    const unsigned char *address = (const unsigned char *)table + index_value * (int64_t)stride;
    culprit_sym_expr value = __culprit_sym_load_table(address, table, first, count, stride, bytes, index,
                                                      (uint64_t)index_value, 64);
    uint64_t concrete = 0;
    memcpy(&concrete, address, bytes);
    CHECK_RECORD(value != 0, "lookup %d made no expression", block);
    __culprit_sym_switch(value, concrete, 8 * bytes, &unit, block);
}

/* stdin "7a3". */
static int scenario_tables(void)
{
    unsigned char in[3];
    __culprit_sym_call.callee = (const void *)__culprit_sym_w_read;
    CHECK_INT(__culprit_sym_w_read(0, in, 3), 3);
    const uint16_t *classes = *__ctype_b_loc();
    int c = in[0];
    culprit_sym_expr c32 = widen(CULPRIT_SYM_ZEXT, byte_of(in, 0), c, 8, 32);
    culprit_sym_expr c64 = widen(CULPRIT_SYM_SEXT, c32, (uint32_t)c, 32, 64);
    lookup(classes, -128, 384, 2, 2, c64, c, CLASS_OF_INT);
    signed char sc = (signed char)in[0];
    lookup(classes, -128, 384, 2, 2, widen(CULPRIT_SYM_SEXT, byte_of(in, 0), in[0], 8, 64), sc,
           CLASS_OF_CHAR);

    __culprit_sym_call.callee = (const void *)__culprit_sym_w_toupper;
    __culprit_sym_call.args[0] = c32;
    int upper = __culprit_sym_w_toupper(c);
    CHECK_INT(upper, '7');
    CHECK(__culprit_sym_call.ret != 0);
    __culprit_sym_switch(__culprit_sym_call.ret, (uint32_t)upper, 32, &unit, TOUPPER);
    __culprit_sym_call.callee = (const void *)__culprit_sym_w_tolower;
    __culprit_sym_call.args[0] = widen(CULPRIT_SYM_SEXT, byte_of(in, 0), in[0], 8, 32);
    int lower = __culprit_sym_w_tolower(sc);
    __culprit_sym_switch(__culprit_sym_call.ret, (uint32_t)lower, 32, &unit, TOLOWER_OF_CHAR);

    lookup(hexval, 0, 256, 1, 1, widen(CULPRIT_SYM_ZEXT, byte_of(in, 0), c, 8, 64), c, HEX);
    culprit_sym_expr digit = __culprit_sym_binary(CULPRIT_SYM_SUB, c32, 0, (uint32_t)c, '0', 32);
    lookup(digit_words, 0, 10, 2, 2, widen(CULPRIT_SYM_SEXT, digit, (uint32_t)(c - '0'), 32, 64), c - '0',
           DIGIT_WORD);
    culprit_sym_expr previous = __culprit_sym_binary(CULPRIT_SYM_ADD, c32, 0, (uint32_t)c, 0xffffffffu, 32);
    lookup(classes, -128, 384, 2, 2, widen(CULPRIT_SYM_SEXT, previous, (uint32_t)(c - 1), 32, 64), c - 1,
           CLASS_OF_PREVIOUS);

    int k = in[1] - 'a';
    culprit_sym_expr k32 = __culprit_sym_binary(
        CULPRIT_SYM_SUB, widen(CULPRIT_SYM_ZEXT, byte_of(in, 1), in[1], 8, 32), 0, in[1], 'a', 32);
    lookup(&keywords[0].token, 0, 5, sizeof keywords[0], 2, widen(CULPRIT_SYM_SEXT, k32, (uint32_t)k, 32, 64),
           k, KEYWORD_TOKEN);

    int w = in[2] & 7;
    culprit_sym_expr w64 =
        widen(CULPRIT_SYM_ZEXT, __culprit_sym_binary(CULPRIT_SYM_AND, byte_of(in, 2), 0, in[2], 7, 8),
              (uint32_t)w, 8, 64);
    for (int i = 0; i < 8; i++)
        written[i] = (uint8_t)(2 * i);
    lookup(written, 0, 8, 1, 1, w64, w, WRITTEN_FIRST);
    for (int i = 0; i < 8; i++)
        written[i] = (uint8_t)(i % 3);
    lookup(written, 0, 8, 1, 1, w64, w, WRITTEN_SECOND);

    /* Not modelled: an entry that is an input byte itself (the load is the entry's shadow) */
    written[3] = in[0];
    __culprit_sym_store(&written[3], 1, byte_of(in, 0));
    CHECK_INT(__culprit_sym_load_table(&written[w], written, 0, 8, 1, 1, w64, (uint64_t)w, 64),
              byte_of(in, 0));
    /* ... a concrete index out of the table's bounds ... */
    CHECK_INT(__culprit_sym_load_table(&written[7], written, 0, 4, 1, 1, w64, 7, 64), 0);
    /* ... and a table of more runs than the cap (every entry differs from the next) */
    static uint8_t noisy[256];
    for (int i = 0; i < 256; i++)
        noisy[i] = (uint8_t)((i * 37) % 11 * 3);
    CHECK_INT(__culprit_sym_load_table(&noisy[c], noisy, 0, 256, 1, 1,
                                       widen(CULPRIT_SYM_ZEXT, byte_of(in, 0), c, 8, 64), (uint64_t)c, 64),
              0);
    /* A concrete index is a plain load (not counted). */
    CHECK_INT(__culprit_sym_load_table(&written[3], written, 0, 8, 1, 1, 0, 3, 64), byte_of(in, 0));
    CHECK_INT(__culprit_sym_load_table(&written[2], written, 0, 8, 1, 1, 0, 2, 64), 0);
    return check_failed != 0;
}

/* stdin "7a3"; CULPRIT_SYM_TABLE_CAP=3. */
static int scenario_cap(void)
{
    unsigned char in[1];
    __culprit_sym_call.callee = (const void *)__culprit_sym_w_read;
    CHECK_INT(__culprit_sym_w_read(0, in, 1), 1);
    culprit_sym_expr c64 = widen(CULPRIT_SYM_ZEXT, byte_of(in, 0), in[0], 8, 64);
    /* hexval over a byte is 7 runs: past the cap */
    CHECK_INT(__culprit_sym_load_table(&hexval[in[0]], hexval, 0, 256, 1, 1, c64, in[0], 64), 0);
    /* tolower over a byte is 3: within it */
    __culprit_sym_call.callee = (const void *)__culprit_sym_w_tolower;
    __culprit_sym_call.args[0] = widen(CULPRIT_SYM_ZEXT, byte_of(in, 0), in[0], 8, 32);
    CHECK_INT(__culprit_sym_w_tolower(in[0]), '7');
    CHECK(__culprit_sym_call.ret != 0);
    return check_failed != 0;
}

/* CULPRIT_SYM unset: the models are libc's functions. */
static int scenario_off(void)
{
    __culprit_sym_call.callee = (const void *)__culprit_sym_w_toupper;
    __culprit_sym_call.args[0] = 5;
    CHECK_INT(__culprit_sym_w_toupper('q'), 'Q');
    CHECK_INT(__culprit_sym_w_tolower('Q'), 'q');
    CHECK_INT(__culprit_sym_w_toupper(EOF), EOF);
    CHECK_INT(__culprit_sym_w_toupper(1000), 1000);
    CHECK_INT(__culprit_sym_call.ret, 0);
    CHECK_INT(__culprit_sym_load_table(&hexval['b'], hexval, 0, 256, 1, 1, 5, 'b', 64), 0);
    return check_failed != 0;
}

static int run_scenario(const char *name)
{
    __culprit_rt_register(&unit);
    if (strcmp(name, "tables") == 0)
        return scenario_tables();
    if (strcmp(name, "cap") == 0)
        return scenario_cap();
    if (strcmp(name, "off") == 0)
        return scenario_off();
    return 99;
}

/* ---- the parent ---- */

static char base[64];

/* Runs scenario name with stdin "7a3" and the settings (NAME=VALUE, NULL
 * ended); its exit status, and its dump's trailer in *t. */
static int run(const char *name, const char *const *settings, struct trailer *t, int *present)
{
    int decoded = 0;
    int status = trailer_run_scenario("test_rt_sym_table", name, base, "7a3", settings, t, present, &decoded);
    CHECK_RECORD(decoded || !*present, "%s: the trailer does not decode", name);
    return status;
}

static uint64_t mask_of(uint32_t bits)
{
    return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

static int64_t as_signed(uint64_t value, uint32_t bits)
{
    return bits >= 64
               ? (int64_t)value
               : (int64_t)((value ^ (1ull << (bits - 1))) & mask_of(bits)) - (int64_t)(1ull << (bits - 1));
}

/* Node n's value when every input byte is b (each lookup reads one byte). */
static uint64_t eval(const struct trailer *t, uint32_t n, uint8_t b)
{
    const struct trailer_node *e = &t->nodes[n];
    uint32_t wa = e->a >= 1 && e->a <= t->node_count ? t->nodes[e->a].bits : 0;
    uint64_t a = e->op >= 10 ? eval(t, e->a, b) : 0;
    uint64_t bv = e->op >= 10 && e->op < 50 ? eval(t, e->b, b) : 0;
    uint64_t m = mask_of(e->bits);
    switch (e->op) {
    case CULPRIT_SYM_CONST:
        return e->value & m;
    case CULPRIT_SYM_BYTE:
        return b;
    case CULPRIT_SYM_ADD:
        return (a + bv) & m;
    case CULPRIT_SYM_SUB:
        return (a - bv) & m;
    case CULPRIT_SYM_AND:
        return a & bv;
    case CULPRIT_SYM_OR:
        return a | bv;
    case CULPRIT_SYM_XOR:
        return a ^ bv;
    case CULPRIT_SYM_EQ:
        return a == bv;
    case CULPRIT_SYM_NE:
        return a != bv;
    case CULPRIT_SYM_ULT:
        return a < bv;
    case CULPRIT_SYM_SLT:
        return as_signed(a, wa) < as_signed(bv, wa);
    case CULPRIT_SYM_ZEXT:
        return a;
    case CULPRIT_SYM_SEXT:
        return (uint64_t)as_signed(a, wa) & m;
    case CULPRIT_SYM_TRUNC:
        return a & m;
    case CULPRIT_SYM_EXTRACT:
        return (a >> e->value) & m;
    case CULPRIT_SYM_CONCAT:
        return (a << t->nodes[e->b].bits | eval(t, e->b, b)) & m;
    case CULPRIT_SYM_ITE:
        return a ? eval(t, e->b, b) : eval(t, e->c, b);
    default:
        CHECK_RECORD(0, "node %u: op %u is not evaluated here", n, e->op);
        return 0;
    }
}

/* The nodes the expression reaches. */
static uint32_t size_of(const struct trailer *t, uint32_t n)
{
    static uint8_t seen[TRAILER_MAX_NODES + 1];
    memset(seen, 0, sizeof seen);
    seen[n] = 1;
    uint32_t count = 0;
    for (uint32_t i = n; i >= 1; i--) {
        if (!seen[i])
            continue;
        count++;
        const struct trailer_node *e = &t->nodes[i];
        if (e->op >= 10) {
            seen[e->a] = 1;
            if (e->op < 50 || e->op == CULPRIT_SYM_CONCAT || e->op == CULPRIT_SYM_ITE)
                seen[e->b] = 1;
            if (e->op == CULPRIT_SYM_ITE)
                seen[e->c] = 1;
        }
    }
    return count;
}

static const struct trailer_constraint *constraint_at(const struct trailer *t, enum lookup block)
{
    for (uint32_t i = 0; i < t->constraint_count; i++)
        if (t->constraints[i].block == (uint32_t)block)
            return &t->constraints[i];
    CHECK_RECORD(0, "no constraint for lookup %d", block);
    return NULL;
}

/* The entry lookup block reads when the input byte is b; 0 when b is
 * outside the table (its expression is not checked there). */
static int expected(enum lookup block, int b, uint64_t *value)
{
    const uint16_t *classes = *__ctype_b_loc();
    switch (block) {
    case CLASS_OF_INT:
        *value = classes[b];
        return 1;
    case CLASS_OF_CHAR:
        *value = classes[(signed char)b];
        return 1;
    case TOUPPER:
        *value = (uint32_t)toupper(b);
        return 1;
    case TOLOWER_OF_CHAR:
        *value = (uint32_t)tolower((signed char)b);
        return 1;
    case HEX:
        *value = (uint8_t)hexval[b];
        return 1;
    case DIGIT_WORD:
        if (b < '0' || b > '9')
            return 0;
        *value = digit_words[b - '0'];
        return 1;
    case CLASS_OF_PREVIOUS:
        *value = classes[b - 1]; /* b = 0: EOF's entry */
        return 1;
    case KEYWORD_TOKEN:
        if (b < 'a' || b >= 'a' + 5)
            return 0;
        *value = (uint16_t)keywords[b - 'a'].token;
        return 1;
    case WRITTEN_FIRST:
        *value = (uint8_t)(2 * (b & 7));
        return 1;
    case WRITTEN_SECOND:
        *value = (uint8_t)((b & 7) % 3);
        return 1;
    default:
        return 0;
    }
}

static void test_tables(void)
{
    const char *settings[] = {"CULPRIT_SYM=1", NULL};
    struct trailer t;
    int present;
    CHECK_INT(run("tables", settings, &t, &present), 0);
    CHECK(present);
    for (enum lookup block = CLASS_OF_INT; block <= WRITTEN_SECOND; block++) {
        const struct trailer_constraint *k = constraint_at(&t, block);
        if (!k)
            continue;
        CHECK_INT(k->kind, CULPRIT_SYM_SWITCH);
        int wrong = 0;
        for (int b = 0; b < 256; b++) {
            uint64_t value;
            if (expected(block, b, &value) && eval(&t, k->expression, (uint8_t)b) != value)
                wrong++;
        }
        CHECK_RECORD(wrong == 0, "lookup %d: %d byte values give another entry", block, wrong);
    }
    /* Compact: glibc's classification of a byte is 16 runs. */
    const struct trailer_constraint *classes = constraint_at(&t, CLASS_OF_INT);
    if (classes)
        CHECK_RECORD(size_of(&t, classes->expression) <= 80, "isdigit's table is %u nodes",
                     size_of(&t, classes->expression));
    const struct trailer_constraint *upper = constraint_at(&t, TOUPPER);
    if (upper)
        CHECK_RECORD(size_of(&t, upper->expression) <= 16, "toupper's table is %u nodes",
                     size_of(&t, upper->expression));
    CHECK_INT(t.stats[CULPRIT_SYM_STAT_CONCRETIZED_ADDRESS], 3); /* symbolic entry, out of bounds, runs */
    CHECK_INT(t.stats[CULPRIT_SYM_STAT_CONCRETIZED_OTHER], 0);
}

static void test_cap(void)
{
    const char *settings[] = {"CULPRIT_SYM=1", "CULPRIT_SYM_TABLE_CAP=3", NULL};
    struct trailer t;
    int present;
    CHECK_INT(run("cap", settings, &t, &present), 0);
    CHECK(present);
    CHECK_INT(t.stats[CULPRIT_SYM_STAT_CONCRETIZED_ADDRESS], 1);
}

static void test_off(void)
{
    const char *settings[] = {NULL};
    struct trailer t;
    int present = 1;
    CHECK_INT(run("off", settings, &t, &present), 0);
    CHECK(!present);
}

int main(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[1], "scenario") == 0)
        return run_scenario(argv[2]);
    strcpy(base, "/tmp/culprit-test-rt-sym-table-XXXXXX");
    if (!mkdtemp(base)) {
        perror("mkdtemp");
        return 1;
    }
    test_tables();
    test_cap();
    test_off();
    char command[128];
    snprintf(command, sizeof command, "rm -rf '%s'", base);
    if (system(command) != 0)
        fprintf(stderr, "could not remove %s\n", base);
    return check_report("test_rt_sym_table");
}
