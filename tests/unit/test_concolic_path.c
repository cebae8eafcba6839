/*
 * test_concolic_path.c - the reader of a symbolic run's trailer
 * (src/concolic/path_read.c, path_check.c): a trailer as the runtime
 * writes it reads back whole; truncation, bad fields and malformed DAGs are
 * refused with the byte and what was expected; a dump without a trailer
 * says the program was not built in symbolic mode.
 */
#include "check.h"
#include "path_fixture.h"

/* x = field at stdin 0..2, y = byte 4: (x + 1 == 7) taken, (y <u 'a') not. */
static void sample(culprit_path *path)
{
    fixture_init(path);
    uint32_t in = fixture_source(path, CULPRIT_SYM_SOURCE_STDIN, 0, 5, CULPRIT_SYM_SOURCE_READ_PAST_END, "in");
    uint32_t x = fixture_field(path, in, 0, 2, CULPRIT_SYM_FIELD_DECIMAL);
    uint32_t sum = fixture_binary(path, CULPRIT_SYM_ADD, x, fixture_const(path, 64, 1));
    uint32_t equal = fixture_binary(path, CULPRIT_SYM_EQ, sum, fixture_const(path, 64, 7));
    uint32_t y = fixture_byte(path, in, 4);
    uint32_t less = fixture_binary(path, CULPRIT_SYM_ULT, y, fixture_const(path, 8, 'a'));
    fixture_branch(path, equal, 3, 1);
    fixture_branch(path, less, 5, 0);
    path->statistics[CULPRIT_SYM_STAT_NODES] = 9;
    path->statistics[CULPRIT_SYM_STAT_UNDECLARED_INPUT] = 2;
}

static void test_round_trip(void)
{
    culprit_path built, read;
    fixture_bytes bytes;
    culprit_error err;
    sample(&built);
    fixture_write(&built, &bytes);
    CHECK_INT(culprit_path_parse(bytes.data, bytes.size, 0, "t", &read, &err), CULPRIT_OK);
    CHECK_INT(read.source_count, 1);
    CHECK_STR(read.sources[0].name, "in");
    CHECK_INT(read.sources[0].length, 5);
    CHECK_INT(read.sources[0].flags, CULPRIT_SYM_SOURCE_READ_PAST_END);
    CHECK_INT(read.node_count, built.node_count);
    CHECK_INT(read.nodes[1].op, CULPRIT_SYM_FIELD);
    CHECK_INT(read.nodes[1].b, 2);
    CHECK_INT(read.nodes[3].a, 1);
    CHECK_INT(read.nodes[3].b, 2);
    CHECK_INT(read.constraint_count, 2);
    CHECK_INT(read.constraints[1].block, 5);
    CHECK_INT(read.constraints[1].value, 0);
    CHECK_INT(read.statistics[CULPRIT_SYM_STAT_NODES], 9);
    CHECK_INT(read.statistics[CULPRIT_SYM_STAT_UNDECLARED_INPUT], 2);
    culprit_path_free(&read);
    culprit_path_free(&built);
}

static const char *parse_message(const fixture_bytes *bytes, size_t size, size_t base, culprit_error *err)
{
    culprit_path path;
    culprit_status status = culprit_path_parse(bytes->data, size, base, "d.dump", &path, err);
    CHECK_INT(status, CULPRIT_ERROR_INPUT);
    CHECK_INT(path.node_count, 0); /* freed */
    return err->message;
}

static void test_truncated(void)
{
    culprit_path built;
    fixture_bytes bytes;
    culprit_error err;
    sample(&built);
    fixture_write(&built, &bytes);
    CHECK_STR(parse_message(&bytes, 4, 0, &err), "d.dump: truncated at byte 4: expected the magic \"CULPSYM1\"");
    CHECK_STR(parse_message(&bytes, 14, 100, &err), "d.dump: truncated at byte 114: expected the source count");
    /* Every count is checked against the bytes left before allocating. */
    CHECK_STR(parse_message(&bytes, 60, 0, &err), "d.dump: truncated at byte 60: expected a node");
    CHECK_STR(parse_message(&bytes, bytes.size - 1, 0, &err),
              "d.dump: truncated at byte 417: expected a statistic");
    fixture_bytes huge = bytes;
    huge.data[16] = 0xff, huge.data[17] = 0xff, huge.data[18] = 0xff, huge.data[19] = 0x7f;
    CHECK_CONTAINS(parse_message(&huge, huge.size, 0, &err), "truncated at byte 418: expected a node");
    culprit_path_free(&built);
}

static void test_bad_fields(void)
{
    culprit_path built;
    fixture_bytes bytes;
    culprit_error err;
    sample(&built);
    fixture_write(&built, &bytes);
    bytes.data[0] = 'X';
    CHECK_STR(parse_message(&bytes, bytes.size, 0, &err),
              "d.dump: at byte 0: expected the magic \"CULPSYM1\" (this is not a symbolic trailer)");
    fixture_write(&built, &bytes);
    bytes.data[8] = 2;
    CHECK_STR(parse_message(&bytes, bytes.size, 0, &err), "d.dump: at byte 8: expected symbolic trailer version 1");
    fixture_write(&built, &bytes);
    bytes.data[24] = 7; /* source kind */
    CHECK_STR(parse_message(&bytes, bytes.size, 0, &err),
              "d.dump: at byte 24: expected a source kind 0 (stdin), 1 (file) or 2 (argv)");
    fixture_write(&built, &bytes);
    bytes.data[bytes.size++] = 0;
    CHECK_STR(parse_message(&bytes, bytes.size, 0, &err),
              "d.dump: at byte 418: expected the end of the symbolic trailer");
    fixture_write(&built, &bytes);
    bytes.data[50 + 5 * 24] = 99; /* node 6's op: node N starts at 50 + (N - 1) * 24 */
    CHECK_CONTAINS(parse_message(&bytes, bytes.size, 0, &err), "at byte 170: expected a node op of sym_format.h");
    culprit_path_free(&built);
}

/* A DAG the reader must refuse, built by changing one node of the sample. */
static void check_malformed(size_t node, culprit_path_node changed, const char *expected)
{
    culprit_path built;
    fixture_bytes bytes;
    culprit_error err;
    sample(&built);
    built.nodes[node] = changed;
    fixture_write(&built, &bytes);
    char message[200];
    snprintf(message, sizeof message, "d.dump: at byte %zu: expected %s", 24 + 26 + (node - 1) * 24, expected);
    CHECK_STR(parse_message(&bytes, bytes.size, 0, &err), message);
    culprit_path_free(&built);
}

/* The fields an op does not take may hold anything (the fuzzer's first
 * find: an ADD whose unused third operand was a huge node number). */
static void test_unused_operands_ignored(void)
{
    culprit_path built, parsed;
    fixture_bytes bytes;
    culprit_error err;
    sample(&built);
    built.nodes[3].c = 0x7fffffff; /* node 3 is x + 1: c unused */
    fixture_write(&built, &bytes);
    CHECK_INT(culprit_path_parse(bytes.data, bytes.size, 0, "d.dump", &parsed, &err), CULPRIT_OK);
    CHECK_INT(parsed.nodes[3].op, CULPRIT_SYM_ADD);
    culprit_path_free(&parsed);
    culprit_path_free(&built);
}

static void test_malformed_dag(void)
{
    /* node 3 is x + 1: operands 1 and 2 */
    check_malformed(3, (culprit_path_node){CULPRIT_SYM_ADD, 64, 0, 1, 3, 0, 0}, "operands that are earlier nodes");
    check_malformed(3, (culprit_path_node){CULPRIT_SYM_ADD, 64, 0, 0, 2, 0, 0}, "operands that are earlier nodes");
    check_malformed(3, (culprit_path_node){CULPRIT_SYM_ADD, 32, 0, 1, 2, 0, 0},
                    "a node whose operands have its width");
    check_malformed(3, (culprit_path_node){CULPRIT_SYM_ADD, 65, 0, 1, 2, 0, 0}, "a node width from 1 to 64");
    check_malformed(3, (culprit_path_node){CULPRIT_SYM_ULT, 8, 0, 1, 2, 0, 0},
                    "a comparison of width 1 between operands of one width");
    check_malformed(3, (culprit_path_node){CULPRIT_SYM_TRUNC, 8, 0, 6, 0, 0, 0}, "operands that are earlier nodes");
    check_malformed(3, (culprit_path_node){CULPRIT_SYM_ZEXT, 8, 0, 1, 0, 0, 0},
                    "an extension no narrower than its operand");
    check_malformed(3, (culprit_path_node){CULPRIT_SYM_EXTRACT, 8, 0, 1, 0, 0, 60},
                    "an extraction within its operand's bits");
    check_malformed(3, (culprit_path_node){CULPRIT_SYM_CONCAT, 64, 0, 1, 2, 0, 0},
                    "a concatenation as wide as its operands together");
    check_malformed(3, (culprit_path_node){CULPRIT_SYM_ITE, 64, 0, 1, 2, 2, 0},
                    "an if-then-else on a width-1 condition between values of its width");
    check_malformed(1, (culprit_path_node){CULPRIT_SYM_FIELD, 64, 0, 3, 2, 0, 0},
                    "a variable whose source is one of the trailer's sources");
    check_malformed(1, (culprit_path_node){CULPRIT_SYM_FIELD, 64, 0, 0, 0, 0, 0},
                    "a field's text length from 1 to 4096");
    check_malformed(1, (culprit_path_node){CULPRIT_SYM_FIELD, 64, 0, 0, 2, 9, 0},
                    "a field kind 0 to 3 (decimal, unsigned, hex, octal)");
    check_malformed(1, (culprit_path_node){CULPRIT_SYM_BYTE, 16, 0, 0, 0, 0, 0}, "an input byte of width 8");
}

static void test_bad_constraint(void)
{
    culprit_path built;
    fixture_bytes bytes;
    culprit_error err;
    sample(&built);
    built.constraints[0].expression = 3; /* x + 1: 64 bits, not a condition */
    fixture_write(&built, &bytes);
    size_t first = 24 + 26 + built.node_count * 24;
    char message[200];
    snprintf(message, sizeof message,
             "d.dump: at byte %zu: expected a branch on a width-1 expression with outcome 0 or 1", first);
    CHECK_STR(parse_message(&bytes, bytes.size, 0, &err), message);
    built.constraints[0].expression = 99;
    fixture_write(&built, &bytes);
    CHECK_CONTAINS(parse_message(&bytes, bytes.size, 0, &err), "expected a constraint's expression that is a node");
    culprit_path_free(&built);
}

static void test_from_dump(void)
{
    culprit_dump dump = {0};
    culprit_path path;
    culprit_error err;
    CHECK_INT(culprit_path_from_dump(&dump, "c/1.dump", &path, &err), CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, "c/1.dump: no path constraint: the program was not built with culprit-cc "
                           "--coverage=symbolic, or ran without CULPRIT_SYM=1");
    culprit_path built;
    fixture_bytes bytes;
    sample(&built);
    fixture_write(&built, &bytes);
    culprit_dump_unit units[1] = {{.hash = "ab"}};
    dump = (culprit_dump){.sym_trailer = bytes.data, .sym_size = bytes.size, .sym_offset = 1000};
    CHECK_INT(culprit_path_from_dump(&dump, "c/1.dump", &path, &err), CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, "c/1.dump: constraint 1 names unit 0, but the dump has 0 units");
    dump.units = units;
    dump.unit_count = 1;
    CHECK_INT(culprit_path_from_dump(&dump, "c/1.dump", &path, &err), CULPRIT_OK);
    CHECK_INT(path.constraint_count, 2);
    culprit_path_free(&path);
    /* Positions in messages are the dump's. */
    bytes.data[8] = 9;
    CHECK_INT(culprit_path_from_dump(&dump, "c/1.dump", &path, &err), CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, "c/1.dump: at byte 1008: expected symbolic trailer version 1");
    culprit_path_free(&built);
}

int main(void)
{
    test_round_trip();
    test_truncated();
    test_bad_fields();
    test_malformed_dag();
    test_unused_operands_ignored();
    test_bad_constraint();
    test_from_dump();
    return check_report("test_concolic_path");
}
