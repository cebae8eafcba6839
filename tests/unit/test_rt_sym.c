/*
 * test_rt_sym.c - the runtime's symbolic half (src/rt/sym_*.c) seen from
 * the outside.  Like test_rt.c, this program plays culprit-cc by hand: each
 * scenario runs in a child (an exec of itself with "scenario NAME") whose
 * environment sets CULPRIT_SYM and friends before the first call, whose
 * stdin is an input file, and which registers a unit, fills the call area,
 * calls the builders and the model wrappers as instrumented code would,
 * checks what it can see (results, shadows) and exits; the parent then
 * decodes the dump's trailer (sym_trailer.h) and checks sources, nodes,
 * constraints and statistics.
 */
#include "check.h"
#include "rt/culprit_rt.h"
#include "rt/culprit_sym.h"
#include "rt/sym_wrappers.h"
#include "sym_trailer.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define HASH "cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc"
static const char map_text[] = "culprit-map\t1\nunit\t" HASH "\tfull\t8\t8\nend\n";
static uint64_t counters[8];
static struct culprit_rt_unit unit = {.version = 1,
                                      .mode = CULPRIT_RT_MODE_FULL,
                                      .counter_count = 8,
                                      .block_count = 8,
                                      .counters = counters,
                                      .map = map_text,
                                      .map_size = sizeof map_text - 1,
                                      .hash = HASH};

/* The caller's side of the call area: callee and argument shadows. */
static void call_area(const void *callee, culprit_sym_expr a0, culprit_sym_expr a1)
{
    memset(&__culprit_sym_call, 0, sizeof __culprit_sym_call);
    __culprit_sym_call.callee = callee;
    __culprit_sym_call.args[0] = a0;
    __culprit_sym_call.args[1] = a1;
}
#define CALL(function) call_area((const void *)(function), 0, 0)
#define RET (__culprit_sym_call.ret)

static culprit_sym_expr byte_shadow(const void *address)
{
    return __culprit_sym_load(address, 1);
}

/* ---- scenarios (children) ---- */

/* stdin "  12 -345\n". */
static int scenario_scanf(void)
{
    int a = 0, b = 0;
    CALL(__culprit_sym_w___isoc99_scanf);
    CHECK_INT(__culprit_sym_w___isoc99_scanf("%d %d", &a, &b), 2);
    CHECK_INT(a, 12);
    CHECK_INT(b, -345);
    culprit_sym_expr sa = __culprit_sym_load(&a, 4), sb = __culprit_sym_load(&b, 4);
    CHECK(sa != 0 && sb != 0 && sa != sb);
    CHECK_INT(__culprit_sym_load(&a, 4), sa); /* hash-consed: the same expression is one node */
    culprit_sym_expr positive = __culprit_sym_compare(CULPRIT_SYM_SGT, sa, 0, (uint32_t)a, 0, 32);
    __culprit_sym_branch(positive, 1, &unit, 2);
    __culprit_sym_branch(positive, 1, &unit, 2); /* the same constraint: recorded once */
    __culprit_sym_branch(__culprit_sym_compare(CULPRIT_SYM_SLT, sb, 0, (uint32_t)b, 0, 32), 1, &unit, 3);
    CALL(__culprit_sym_w_getchar);
    int c = __culprit_sym_w_getchar();
    CHECK_INT(c, '\n');
    CHECK(RET != 0);
    __culprit_sym_branch(__culprit_sym_compare(CULPRIT_SYM_EQ, RET, 0, (uint32_t)c, '\n', 32), 1, &unit, 4);
    CALL(__culprit_sym_w_getchar);
    CHECK_INT(__culprit_sym_w_getchar(), EOF);
    CHECK_INT(RET, 0);
    __culprit_sym_switch(sa, (uint32_t)a, 32, &unit, 5);
    /* a call nobody took, and what the instrumenter concretizes */
    call_area((const void *)scenario_scanf, sa, 0);
    __culprit_sym_call_returned();
    CHECK(__culprit_sym_call.callee == NULL);
    __culprit_sym_call_returned(); /* nothing pending: not counted */
    __culprit_sym_concretize(sa, CULPRIT_SYM_STAT_CONCRETIZED_FLOAT);
    __culprit_sym_concretize(0, CULPRIT_SYM_STAT_CONCRETIZED_FLOAT); /* concrete: not counted */
    return check_failed != 0;
}

/* stdin "x=0x1f;abc 42\n". */
static int scenario_strings(void)
{
    char line[64], copy[64], reversed[3];
    CALL(__culprit_sym_w_fgets);
    CHECK(__culprit_sym_w_fgets(line, sizeof line, stdin) == line);
    CHECK_STR(line, "x=0x1f;abc 42\n");
    char *end = NULL;
    CALL(__culprit_sym_w_strtol);
    CHECK_INT(__culprit_sym_w_strtol(line + 2, &end, 16), 31);
    CHECK(end == line + 6);
    culprit_sym_expr hex = RET;
    CHECK(hex != 0);
    __culprit_sym_branch(__culprit_sym_compare(CULPRIT_SYM_EQ, hex, 0, 31, 31, 64), 1, &unit, 1);
    CALL(__culprit_sym_w_strcmp);
    int order = __culprit_sym_w_strcmp(line + 7, "abd 42\n");
    CHECK(order < 0);
    CHECK(RET != 0);
    __culprit_sym_branch(__culprit_sym_compare(CULPRIT_SYM_EQ, RET, 0, (uint32_t)order, 0, 32), 0, &unit, 2);
    CALL(__culprit_sym_w_strlen);
    CHECK_INT(__culprit_sym_w_strlen(line), 14);
    CHECK(RET != 0);
    CALL(__culprit_sym_w_memcpy);
    __culprit_sym_w_memcpy(copy, line, 15);
    CHECK(byte_shadow(copy + 7) != 0 && byte_shadow(copy + 7) == byte_shadow(line + 7));
    /* "24" from the bytes of "42" in the wrong order: not one field */
    reversed[0] = line[12];
    reversed[1] = line[11];
    reversed[2] = '\0';
    __culprit_sym_memcpy(reversed, line + 12, 1);
    __culprit_sym_memcpy(reversed + 1, line + 11, 1);
    __culprit_sym_store(reversed + 2, 1, 0);
    CALL(__culprit_sym_w_atoi);
    CHECK_INT(__culprit_sym_w_atoi(reversed), 24);
    CHECK_INT(RET, 0);
    CALL(__culprit_sym_w_atoi);
    CHECK_INT(__culprit_sym_w_atoi(line + 11), 42);
    __culprit_sym_branch(__culprit_sym_compare(CULPRIT_SYM_SGT, RET, 0, 42, 40, 32), 1, &unit, 3);
    int value = 0;
    CALL(__culprit_sym_w___isoc99_sscanf);
    CHECK_INT(__culprit_sym_w___isoc99_sscanf(line + 10, "%d", &value), 1);
    CHECK_INT(value, 42);
    __culprit_sym_branch(__culprit_sym_compare(CULPRIT_SYM_ULT, __culprit_sym_load(&value, 4), 0, 42, 50, 32),
                         1, &unit, 4);
    CALL(__culprit_sym_w_strtol);
    CHECK_INT(__culprit_sym_w_strtol("77", NULL, 10), 77);
    CHECK_INT(RET, 0);
    return check_failed != 0;
}

/* stdin "ABCDEFGH"; CULPRIT_SYM_SITE_CAP=3, CULPRIT_SYM_MAX_CONSTRAINTS=6. */
static int scenario_caps(void)
{
    unsigned char buffer[8];
    CALL(__culprit_sym_w_read);
    CHECK_INT(__culprit_sym_w_read(0, buffer, 8), 8);
    culprit_sym_expr conditions[5];
    for (int i = 0; i < 5; i++)
        conditions[i] = __culprit_sym_compare(CULPRIT_SYM_EQ, byte_shadow(buffer + i), 0, buffer[i], 'z', 8);
    for (int i = 0; i < 5; i++)
        __culprit_sym_branch(conditions[i], 0, &unit, 1);
    __culprit_sym_branch(conditions[0], 0, &unit, 1); /* a duplicate is neither recorded nor capped */
    for (int i = 0; i < 5; i++)
        __culprit_sym_branch(conditions[i], 0, &unit, 2);
    /* builders: all-concrete operands, hash-consing, folding to a constant */
    CHECK_INT(__culprit_sym_binary(CULPRIT_SYM_ADD, 0, 0, 1, 2, 32), 0);
    culprit_sym_expr wide = __culprit_sym_cast(CULPRIT_SYM_ZEXT, byte_shadow(buffer), 'A', 8, 32);
    culprit_sym_expr sum = __culprit_sym_binary(CULPRIT_SYM_ADD, wide, 0, 'A', 5, 32);
    CHECK(sum != 0 && sum == __culprit_sym_binary(CULPRIT_SYM_ADD, wide, 0, 'A', 5, 32));
    CHECK(sum != __culprit_sym_binary(CULPRIT_SYM_ADD, wide, 0, 'A', 6, 32));
    CHECK_INT(__culprit_sym_compare(CULPRIT_SYM_EQ, wide, 0, 'A', 300, 32), 0); /* a byte is never 300 */
    CHECK_INT(__culprit_sym_select(0, sum, 0, 1, 'F', 7, 32), sum);
    CHECK(__culprit_sym_select(conditions[0], sum, 0, 0, 'F', 7, 32) != 0);
    /* shadow memory: a stored expression loads back whole */
    uint32_t word = 0;
    __culprit_sym_store(&word, 4, sum);
    CHECK_INT(__culprit_sym_load(&word, 4), sum);
    CHECK(__culprit_sym_load(&word, 2) != 0 && __culprit_sym_load((char *)&word + 3, 1) != 0);
    __culprit_sym_store(&word, 4, 0);
    CHECK_INT(__culprit_sym_load(&word, 4), 0);
    culprit_sym_expr pair = __culprit_sym_load(buffer, 2); /* concat of two input bytes */
    CHECK(pair != 0 && pair == __culprit_sym_load(buffer, 2));
    static char untouched[1 << 16];
    CHECK_INT(__culprit_sym_load(untouched + 4096, 8), 0);
    return check_failed != 0;
}

/* stdin 64 bytes; CULPRIT_SYM_MAX_NODES=20. */
static int scenario_node_cap(void)
{
    unsigned char buffer[64];
    CALL(__culprit_sym_w_fread);
    CHECK_INT(__culprit_sym_w_fread(buffer, 1, 64, stdin), 64);
    culprit_sym_expr sum = byte_shadow(buffer);
    int refused = 0;
    for (int i = 1; i < 64 && !refused; i++) {
        culprit_sym_expr next = __culprit_sym_binary(CULPRIT_SYM_XOR, sum, byte_shadow(buffer + i), 0, 0, 8);
        refused = next == 0;
        sum = refused ? sum : next;
    }
    CHECK(refused);
    __culprit_sym_branch(__culprit_sym_compare(CULPRIT_SYM_EQ, byte_shadow(buffer), 0, buffer[0], 1, 8), 0,
                         &unit, 1);
    return check_failed != 0;
}

/* CULPRIT_SYM_STDIN=0, CULPRIT_SYM_FILES="DIR/one\nDIR/two"; argument: DIR. */
static int scenario_files(const char *dir)
{
    char one[256], two[256], other[256], line[32];
    snprintf(one, sizeof one, "%s/one", dir);
    snprintf(two, sizeof two, "%s/two", dir);
    snprintf(other, sizeof other, "%s/other", dir);
    CALL(__culprit_sym_w_fopen);
    FILE *stream = __culprit_sym_w_fopen(two, "r");
    CHECK(stream != NULL);
    CALL(__culprit_sym_w_fgets);
    CHECK(stream && __culprit_sym_w_fgets(line, sizeof line, stream) == line);
    CHECK(byte_shadow(line) != 0);
    __culprit_sym_branch(
        __culprit_sym_compare(CULPRIT_SYM_EQ, byte_shadow(line + 1), 0, (uint8_t)line[1], 'x', 8), 0, &unit,
        5);
    int c;
    do {
        CALL(__culprit_sym_w_getc);
        c = stream ? __culprit_sym_w_getc(stream) : EOF;
    } while (c != EOF);
    if (stream)
        __culprit_sym_w_fclose(stream);
    CALL(__culprit_sym_w_open);
    int fd = __culprit_sym_w_open(one, O_RDONLY);
    CHECK(fd >= 0);
    CALL(__culprit_sym_w_read);
    CHECK_INT(__culprit_sym_w_read(fd, line, 3), 3);
    __culprit_sym_branch(
        __culprit_sym_compare(CULPRIT_SYM_EQ, byte_shadow(line + 2), 0, (uint8_t)line[2], 'q', 8), 0, &unit,
        6);
    __culprit_sym_w_close(fd);
    /* a stream's descriptor reads the file too (bc: read(fileno(f))) */
    CALL(__culprit_sym_w_fopen);
    FILE *again = __culprit_sym_w_fopen(one, "r");
    CHECK(again != NULL);
    CALL(__culprit_sym_w_read);
    CHECK_INT(again ? __culprit_sym_w_read(fileno(again), line, 4) : -1, 4);
    __culprit_sym_branch(
        __culprit_sym_compare(CULPRIT_SYM_EQ, byte_shadow(line + 3), 0, (uint8_t)line[3], 'z', 8), 0, &unit,
        8);
    if (again)
        __culprit_sym_w_fclose(again);
    CALL(__culprit_sym_w_fopen);
    FILE *undeclared = __culprit_sym_w_fopen(other, "r");
    CHECK(undeclared != NULL);
    CALL(__culprit_sym_w_fgets);
    CHECK(undeclared && __culprit_sym_w_fgets(line, sizeof line, undeclared) == line);
    CHECK_INT(byte_shadow(line), 0);
    if (undeclared)
        fclose(undeclared);
    /* stdin is not a source here */
    CALL(__culprit_sym_w_getchar);
    __culprit_sym_w_getchar();
    CHECK_INT(RET, 0);
    return check_failed != 0;
}

static int program_main(int argc, char **argv, char **envp)
{
    CHECK_INT(argc, 2);
    culprit_sym_expr second = byte_shadow(argv[1] + 1);
    CHECK(second != 0);
    CHECK_INT(byte_shadow(argv[0]), 0);
    __culprit_sym_branch(__culprit_sym_compare(CULPRIT_SYM_EQ, second, 0, (uint8_t)argv[1][1], 'i', 8), 1,
                         &unit, 7);
    return check_failed != 0;
}

/* CULPRIT_SYM_ARGV=1, CULPRIT_SYM_STDIN=0. */
static int scenario_argv(void)
{
    char program[] = "prog", argument[] = "hi!";
    char *argv[] = {program, argument, NULL};
    return __culprit_rt_start_main(2, argv, environ, program_main);
}

/* stdin "dqa": switches on the three characters read, with case tables
 * as culprit-cc emits them (count, then the values ascending), bad ones
 * and none. */
static int scenario_switches(void)
{
    static const uint64_t commands[] = {4, 'a', 'd', 'n', 'z'}, unsorted[] = {2, 'z', 'a'},
                          too_wide[] = {1, 1ull << 33}, one[] = {1, 'a'};
    culprit_sym_expr c[3];
    int value[3];
    for (int i = 0; i < 3; i++) {
        CALL(__culprit_sym_w_getchar);
        value[i] = __culprit_sym_w_getchar();
        c[i] = RET;
        CHECK(c[i] != 0);
    }
    __culprit_sym_switch_cases(c[0], (uint32_t)value[0], 32, &unit, 5, commands);
    __culprit_sym_switch_cases(c[1], (uint32_t)value[1], 32, &unit, 5, commands); /* the site again */
    __culprit_sym_switch_cases(c[0], (uint32_t)value[0], 32, &unit, 6, unsorted);
    __culprit_sym_switch_cases(c[0], (uint32_t)value[0], 32, &unit, 7, too_wide);
    __culprit_sym_switch(c[1], (uint32_t)value[1], 32, &unit, 1);
    __culprit_sym_switch_cases(c[2], (uint32_t)value[2], 32, &unit, 2, one);
    __culprit_sym_switch_cases(0, 3, 32, &unit, 3, one); /* concrete: no constraint, no cases */
    return check_failed != 0;
}

/* CULPRIT_SYM unset: nothing symbolic, and the dump has no trailer. */
static int scenario_off(void)
{
    char line[32];
    CALL(__culprit_sym_w_fgets);
    CHECK(__culprit_sym_w_fgets(line, sizeof line, stdin) == line);
    CHECK_INT(byte_shadow(line), 0);
    CHECK_INT(__culprit_sym_binary(CULPRIT_SYM_ADD, 1, 2, 3, 4, 32), 0);
    CHECK_INT(__culprit_sym_compare(CULPRIT_SYM_EQ, 1, 0, 3, 4, 32), 0);
    __culprit_sym_branch(1, 1, &unit, 1);
    return check_failed != 0;
}

static int run_scenario(const char *name, const char *argument)
{
    __culprit_rt_register(&unit);
    if (strcmp(name, "scanf") == 0)
        return scenario_scanf();
    if (strcmp(name, "strings") == 0)
        return scenario_strings();
    if (strcmp(name, "caps") == 0)
        return scenario_caps();
    if (strcmp(name, "node_cap") == 0)
        return scenario_node_cap();
    if (strcmp(name, "files") == 0)
        return scenario_files(argument);
    if (strcmp(name, "argv") == 0)
        return scenario_argv();
    if (strcmp(name, "off") == 0)
        return scenario_off();
    if (strcmp(name, "switches") == 0)
        return scenario_switches();
    return 99;
}

/* ---- the parent ---- */

static char base[64];

static void write_text(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", base, name);
    FILE *file = fopen(path, "w");
    if (file) {
        fputs(text, file);
        fclose(file);
    }
}

/* Runs scenario name with stdin from base/input and the given environment
 * (NAME=VALUE entries, NULL-terminated); returns the exit status and loads
 * its one dump into *t (present: it had a trailer). */
static int run(const char *name, const char *input, const char *const *settings, struct trailer *t,
               int *present)
{
    int decoded = 0;
    int status = trailer_run_scenario("test_rt_sym", name, base, input, settings, t, present, &decoded);
    CHECK_RECORD(decoded || !*present, "%s: the trailer does not decode", name);
    return status;
}

static const struct trailer_node *node(const struct trailer *t, uint32_t number)
{
    static const struct trailer_node none = {0};
    return number >= 1 && number <= t->node_count ? &t->nodes[number] : &none;
}

/* The field a comparison's left operand reads: through an extract, if any. */
static const struct trailer_node *field_under(const struct trailer *t, uint32_t comparison)
{
    const struct trailer_node *left = node(t, node(t, comparison)->a);
    return left->op == CULPRIT_SYM_EXTRACT ? node(t, left->a) : left;
}

static void check_field(const struct trailer_node *field, uint64_t offset, uint32_t length, uint32_t kind)
{
    CHECK_INT(field->op, CULPRIT_SYM_FIELD);
    CHECK_INT(field->a, 0);
    CHECK_INT(field->value, offset);
    CHECK_INT(field->b, length);
    CHECK_INT(field->c, kind);
}

static void test_scanf(void)
{
    const char *settings[] = {"CULPRIT_SYM=1", NULL};
    struct trailer t;
    int present;
    CHECK_INT(run("scanf", "  12 -345\n", settings, &t, &present), 0);
    CHECK(present);
    CHECK_INT(t.source_count, 1);
    CHECK_INT(t.sources[0].kind, CULPRIT_SYM_SOURCE_STDIN);
    CHECK_INT(t.sources[0].length, 10);
    CHECK_INT(t.sources[0].flags, CULPRIT_SYM_SOURCE_READ_PAST_END);
    CHECK_INT(t.constraint_count, 4);
    CHECK_INT(t.constraints[0].kind, CULPRIT_SYM_BRANCH);
    CHECK_INT(t.constraints[0].unit, 0);
    CHECK_INT(t.constraints[0].block, 2);
    CHECK_INT(t.constraints[0].value, 1);
    CHECK_INT(node(&t, t.constraints[0].expression)->op, CULPRIT_SYM_SGT);
    check_field(field_under(&t, t.constraints[0].expression), 2, 2, CULPRIT_SYM_FIELD_DECIMAL);
    check_field(field_under(&t, t.constraints[1].expression), 5, 4, CULPRIT_SYM_FIELD_DECIMAL);
    const struct trailer_node *newline = node(&t, t.constraints[2].expression);
    CHECK_INT(newline->op, CULPRIT_SYM_EQ);
    CHECK_INT(node(&t, newline->a)->op, CULPRIT_SYM_BYTE); /* zext(byte) == 10 became byte == 10 */
    CHECK_INT(node(&t, newline->a)->value, 9);
    CHECK_INT(node(&t, newline->b)->op, CULPRIT_SYM_CONST);
    CHECK_INT(node(&t, newline->b)->value, '\n');
    CHECK_INT(t.constraints[3].kind, CULPRIT_SYM_SWITCH);
    CHECK_INT(t.constraints[3].value, 12);
    CHECK_INT(t.constraints[3].block, 5);
    CHECK_INT(t.switch_count, 0); /* __culprit_sym_switch: no case values */
    check_field(node(&t, node(&t, t.constraints[3].expression)->a), 2, 2, CULPRIT_SYM_FIELD_DECIMAL);
    CHECK_INT(node(&t, t.constraints[3].expression)->op, CULPRIT_SYM_EXTRACT);
    CHECK_INT(t.stats[CULPRIT_SYM_STAT_CONSTRAINTS], 4);
    CHECK_INT(t.stats[CULPRIT_SYM_STAT_CONCRETIZED_CALL], 1);
    CHECK_INT(t.stats[CULPRIT_SYM_STAT_CONCRETIZED_FLOAT], 1);
}

static void test_strings(void)
{
    const char *settings[] = {"CULPRIT_SYM=1", NULL};
    struct trailer t;
    int present;
    CHECK_INT(run("strings", "x=0x1f;abc 42\n", settings, &t, &present), 0);
    CHECK(present);
    CHECK_INT(t.constraint_count, 4);
    check_field(field_under(&t, t.constraints[0].expression), 2, 4, CULPRIT_SYM_FIELD_HEX);
    const struct trailer_node *order = node(&t, node(&t, t.constraints[1].expression)->a);
    CHECK_INT(order->op, CULPRIT_SYM_ITE);
    CHECK_INT(t.constraints[1].value, 0);
    check_field(field_under(&t, t.constraints[2].expression), 11, 2, CULPRIT_SYM_FIELD_DECIMAL);
    check_field(field_under(&t, t.constraints[3].expression), 11, 2, CULPRIT_SYM_FIELD_DECIMAL);
    CHECK(t.stats[CULPRIT_SYM_STAT_CONCRETIZED_OTHER] >= 1); /* atoi of bytes out of order */
    CHECK_INT(t.sources[0].flags, 0);
}

static void test_caps(void)
{
    const char *settings[] = {"CULPRIT_SYM=1", "CULPRIT_SYM_SITE_CAP=3", "CULPRIT_SYM_MAX_CONSTRAINTS=6",
                              NULL};
    struct trailer t;
    int present;
    CHECK_INT(run("caps", "ABCDEFGH", settings, &t, &present), 0);
    CHECK(present);
    CHECK_INT(t.constraint_count, 6);
    CHECK_INT(t.stats[CULPRIT_SYM_STAT_CONSTRAINTS], 6);
    CHECK_INT(t.stats[CULPRIT_SYM_STAT_SITE_CAP], 2);
    CHECK_INT(t.stats[CULPRIT_SYM_STAT_CONSTRAINT_CAP], 2);
    /* the same conditions at two sites: the second site's constraints reuse the nodes */
    for (int i = 0; i < 3; i++)
        CHECK_INT(t.constraints[3 + i].expression, t.constraints[i].expression);
    /* what was written: three comparisons, their three bytes and one constant */
    CHECK_INT(t.node_count, 7);
    CHECK_INT(t.sources[0].length, 8);
}

static void test_node_cap(void)
{
    const char *settings[] = {"CULPRIT_SYM=1", "CULPRIT_SYM_MAX_NODES=20", NULL};
    struct trailer t;
    int present;
    CHECK_INT(run("node_cap", "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!?", settings,
                  &t, &present),
              0);
    CHECK(present);
    CHECK_INT(t.stats[CULPRIT_SYM_STAT_NODES], 20);
    CHECK(t.stats[CULPRIT_SYM_STAT_NODE_CAP] > 0);
}

static void test_files(void)
{
    char files[300];
    snprintf(files, sizeof files, "CULPRIT_SYM_FILES=%s/one\n%s/two", base, base);
    write_text("one", "pqrs");
    write_text("two", "hello\nworld\n");
    write_text("other", "not declared\n");
    const char *settings[] = {"CULPRIT_SYM=1", "CULPRIT_SYM_STDIN=0", files, NULL};
    struct trailer t;
    int present;
    CHECK_INT(run("files", "stdin\n", settings, &t, &present), 0);
    CHECK(present);
    CHECK_INT(t.source_count, 2);
    char one[256];
    snprintf(one, sizeof one, "%s/one", base);
    CHECK_INT(t.sources[0].kind, CULPRIT_SYM_SOURCE_FILE);
    CHECK_INT(t.sources[0].index, 0);
    CHECK_STR(t.sources[0].name, one);
    CHECK_INT(t.sources[0].length, 4);
    CHECK_INT(t.sources[0].flags, 0);
    CHECK_INT(t.sources[1].index, 1);
    CHECK_INT(t.sources[1].length, 12);
    CHECK_INT(t.sources[1].flags, CULPRIT_SYM_SOURCE_READ_PAST_END);
    CHECK_INT(t.constraint_count, 3);
    const struct trailer_node *first = node(&t, node(&t, t.constraints[0].expression)->a);
    CHECK_INT(first->op, CULPRIT_SYM_BYTE);
    CHECK_INT(first->a, 1);
    CHECK_INT(first->value, 1);
    const struct trailer_node *second = node(&t, node(&t, t.constraints[1].expression)->a);
    CHECK_INT(second->a, 0);
    CHECK_INT(second->value, 2);
    const struct trailer_node *third = node(&t, node(&t, t.constraints[2].expression)->a);
    CHECK_INT(third->op, CULPRIT_SYM_BYTE);
    CHECK_INT(third->a, 0);
    CHECK_INT(third->value, 3);
    CHECK_INT(t.stats[CULPRIT_SYM_STAT_UNDECLARED_INPUT], 1);
}

static void test_argv(void)
{
    const char *settings[] = {"CULPRIT_SYM=1", "CULPRIT_SYM_STDIN=0", "CULPRIT_SYM_ARGV=1", NULL};
    struct trailer t;
    int present;
    CHECK_INT(run("argv", "", settings, &t, &present), 0);
    CHECK(present);
    CHECK_INT(t.source_count, 1);
    CHECK_INT(t.sources[0].kind, CULPRIT_SYM_SOURCE_ARGV);
    CHECK_INT(t.sources[0].index, 1);
    CHECK_INT(t.sources[0].length, 3);
    CHECK_INT(t.constraint_count, 1);
    CHECK_INT(t.constraints[0].block, 7);
    const struct trailer_node *byte = node(&t, node(&t, t.constraints[0].expression)->a);
    CHECK_INT(byte->op, CULPRIT_SYM_BYTE);
    CHECK_INT(byte->value, 1);
}

/* Each switch site's valid case table once, in the order its first
 * constraint came; bad tables and the old entry point record no cases. */
static void test_switches(void)
{
    const char *settings[] = {"CULPRIT_SYM=1", NULL};
    struct trailer t;
    int present;
    CHECK_INT(run("switches", "dqa", settings, &t, &present), 0);
    CHECK(present);
    CHECK_INT(t.constraint_count, 6);
    for (uint32_t i = 0; i < t.constraint_count; i++)
        CHECK_INT(t.constraints[i].kind, CULPRIT_SYM_SWITCH);
    CHECK_INT(t.constraints[1].value, 'q');
    CHECK_INT(t.switch_count, 2);
    CHECK_INT(t.switches[0].unit, 0);
    CHECK_INT(t.switches[0].block, 5);
    CHECK_INT(t.switches[0].case_count, 4);
    CHECK_INT(t.switches[0].cases[0], 'a');
    CHECK_INT(t.switches[0].cases[1], 'd');
    CHECK_INT(t.switches[0].cases[2], 'n');
    CHECK_INT(t.switches[0].cases[3], 'z');
    CHECK_INT(t.switches[1].block, 2);
    CHECK_INT(t.switches[1].case_count, 1);
    CHECK_INT(t.switches[1].cases[0], 'a');
}

static void test_off(void)
{
    const char *settings[] = {NULL};
    struct trailer t;
    int present = 1;
    CHECK_INT(run("off", "some input\n", settings, &t, &present), 0);
    CHECK(!present); /* the dump ends with its output records, as before */
}

int main(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[1], "scenario") == 0)
        return run_scenario(argv[2], argc >= 4 ? argv[3] : "");
    strcpy(base, "/tmp/culprit-test-rt-sym-XXXXXX");
    if (!mkdtemp(base)) {
        perror("mkdtemp");
        return 1;
    }
    test_scanf();
    test_strings();
    test_caps();
    test_node_cap();
    test_files();
    test_argv();
    test_switches();
    test_off();
    char command[128];
    snprintf(command, sizeof command, "rm -rf '%s'", base);
    if (system(command) != 0)
        fprintf(stderr, "could not remove %s\n", base);
    return check_report("test_rt_sym");
}
