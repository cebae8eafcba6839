/*
 * test_concolic_path.c - the reader of a symbolic run's trailer
 * (src/concolic/path_read.c, path_check.c): a trailer as the runtime
 * writes it reads back whole; truncation, bad fields and malformed DAGs are
 * refused with the byte and what was expected; a dump without a trailer
 * says the program was not built in symbolic mode.  Version 1 (no switch
 * section) still reads; the switch section is checked entry by entry.
 */
#include "check.h"
#include "path_fixture.h"

/* x = field at stdin 0..2, y = byte 4: (x + 1 == 7) taken, (y <u 'a') not. */
static void sample(culprit_path *path)
{
    fixture_init(path);
    uint32_t in =
        fixture_source(path, CULPRIT_SYM_SOURCE_STDIN, 0, 5, CULPRIT_SYM_SOURCE_READ_PAST_END, "in");
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
    CHECK_STR(parse_message(&bytes, 4, 0, &err),
              "d.dump: truncated at byte 4: expected the magic \"CULPSYM1\"");
    CHECK_STR(parse_message(&bytes, 14, 100, &err),
              "d.dump: truncated at byte 114: expected the source count");
    /* Every count is checked against the bytes left before allocating. */
    CHECK_STR(parse_message(&bytes, 60, 0, &err), "d.dump: truncated at byte 60: expected a node");
    CHECK_STR(parse_message(&bytes, bytes.size - 1, 0, &err),
              "d.dump: truncated at byte 421: expected the switch count");
    fixture_write_version(&built, 1, &bytes);
    CHECK_STR(parse_message(&bytes, bytes.size - 1, 0, &err),
              "d.dump: truncated at byte 417: expected a statistic");
    fixture_write(&built, &bytes);
    fixture_bytes huge = bytes;
    huge.data[16] = 0xff, huge.data[17] = 0xff, huge.data[18] = 0xff, huge.data[19] = 0x7f;
    CHECK_CONTAINS(parse_message(&huge, huge.size, 0, &err), "truncated at byte 422: expected a node");
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
    bytes.data[8] = 4;
    CHECK_STR(parse_message(&bytes, bytes.size, 0, &err),
              "d.dump: at byte 8: expected symbolic trailer version 1 to 3");
    fixture_write(&built, &bytes);
    bytes.data[8] = 0;
    CHECK_STR(parse_message(&bytes, bytes.size, 0, &err),
              "d.dump: at byte 8: expected symbolic trailer version 1 to 3");
    fixture_write(&built, &bytes);
    bytes.data[24] = 7; /* source kind */
    CHECK_STR(parse_message(&bytes, bytes.size, 0, &err),
              "d.dump: at byte 24: expected a source kind 0 (stdin), 1 (file) or 2 (argv)");
    fixture_write(&built, &bytes);
    bytes.data[bytes.size++] = 0;
    CHECK_STR(parse_message(&bytes, bytes.size, 0, &err),
              "d.dump: at byte 422: expected the end of the symbolic trailer");
    fixture_write(&built, &bytes);
    bytes.data[50 + 5 * 24] = 99; /* node 6's op: node N starts at 50 + (N - 1) * 24 */
    CHECK_CONTAINS(parse_message(&bytes, bytes.size, 0, &err),
                   "at byte 170: expected a node op of sym_format.h");
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
    snprintf(message, sizeof message, "d.dump: at byte %zu: expected %s", 24 + 26 + (node - 1) * 24,
             expected);
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
    check_malformed(3, (culprit_path_node){CULPRIT_SYM_ADD, 64, 0, 1, 3, 0, 0},
                    "operands that are earlier nodes");
    check_malformed(3, (culprit_path_node){CULPRIT_SYM_ADD, 64, 0, 0, 2, 0, 0},
                    "operands that are earlier nodes");
    check_malformed(3, (culprit_path_node){CULPRIT_SYM_ADD, 32, 0, 1, 2, 0, 0},
                    "a node whose operands have its width");
    check_malformed(3, (culprit_path_node){CULPRIT_SYM_ADD, 65, 0, 1, 2, 0, 0}, "a node width from 1 to 64");
    check_malformed(3, (culprit_path_node){CULPRIT_SYM_ULT, 8, 0, 1, 2, 0, 0},
                    "a comparison of width 1 between operands of one width");
    check_malformed(3, (culprit_path_node){CULPRIT_SYM_TRUNC, 8, 0, 6, 0, 0, 0},
                    "operands that are earlier nodes");
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
    CHECK_CONTAINS(parse_message(&bytes, bytes.size, 0, &err),
                   "expected a constraint's expression that is a node");
    culprit_path_free(&built);
}

/* Trace mode (version 3): a TAG node and a SPEC constraint read back; a
 * TAG of another width, a SPEC whose window starts before its operation
 * or past the nodes, are garbage. */
static void test_trace_mode(void)
{
    culprit_path built, read;
    fixture_bytes bytes;
    culprit_error err;
    fixture_init(&built);
    uint32_t in = fixture_source(&built, CULPRIT_SYM_SOURCE_STDIN, 0, 1, 0, "");
    uint32_t tag = fixture_node(&built, CULPRIT_SYM_TAG, 8, fixture_byte(&built, in, 0), 0, 7, 42);
    uint32_t condition = fixture_binary(&built, CULPRIT_SYM_EQ, tag, fixture_const(&built, 8, 1));
    fixture_branch(&built, condition, 3, 0);
    built.constraints[built.constraint_count++] =
        (culprit_path_constraint){CULPRIT_SYM_SPEC, condition, 1, 3, (uint64_t)0 << 32 | 2};
    fixture_write(&built, &bytes);
    CHECK_INT(culprit_path_parse(bytes.data, bytes.size, 0, "d.dump", &read, &err), CULPRIT_OK);
    CHECK_INT(read.nodes[tag].op, CULPRIT_SYM_TAG);
    CHECK_INT(read.nodes[tag].c, 7);
    CHECK_INT(read.nodes[tag].value, 42);
    CHECK_INT(read.constraints[1].kind, CULPRIT_SYM_SPEC);
    CHECK_INT(read.constraints[1].value, 2);
    culprit_path_free(&read);
    built.constraints[1].value = (uint64_t)0 << 32 | 4; /* the operation starts after the window */
    fixture_write(&built, &bytes);
    CHECK_CONTAINS(parse_message(&bytes, bytes.size, 0, &err),
                   "expected a spec's window that starts at a node, after its operation's start");
    built.constraints[1].value = (uint64_t)2 << 32 | 1; /* ... at a later constraint */
    fixture_write(&built, &bytes);
    CHECK_CONTAINS(parse_message(&bytes, bytes.size, 0, &err),
                   "expected a spec's window that starts at a constraint, after its operation's start");
    built.constraints[1].value = 1;
    built.nodes[tag].bits = 16;
    fixture_write(&built, &bytes);
    CHECK_CONTAINS(parse_message(&bytes, bytes.size, 0, &err),
                   "expected a store's value as wide as the value");
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
    CHECK_STR(err.message, "c/1.dump: at byte 1008: expected symbolic trailer version 1 to 3");
    culprit_path_free(&built);
}

/* A version-1 trailer (no switch section) still reads, and says no
 * switch's cases are known. */
static void test_version_1(void)
{
    culprit_path built, read;
    fixture_bytes bytes;
    culprit_error err;
    sample(&built);
    fixture_write_version(&built, 1, &bytes);
    CHECK_INT(bytes.size, 418);
    CHECK_INT(culprit_path_parse(bytes.data, bytes.size, 0, "t", &read, &err), CULPRIT_OK);
    CHECK_INT(read.constraint_count, 2);
    CHECK_INT(read.switch_count, 0);
    CHECK_INT(read.statistics[CULPRIT_SYM_STAT_UNDECLARED_INPUT], 2);
    CHECK(culprit_path_switch_of(&read, &read.constraints[0]) == NULL);
    culprit_path_free(&read);
    /* A version-1 trailer ends at its statistics. */
    fixture_write_version(&built, 1, &bytes);
    fixture_put(&bytes, 0, 4);
    CHECK_STR(parse_message(&bytes, bytes.size, 0, &err),
              "d.dump: at byte 418: expected the end of the symbolic trailer");
    culprit_path_free(&built);
}

/* c = byte 0 of stdin, switched on at block 7 (cases 'a' 'd' 'n' 'z'
 * then, at block 9, cases 1 2 of c's low two bits); the run took 'a', then
 * 3 (the default).  Sites come in the section out of order. */
static void switch_sample(culprit_path *path)
{
    fixture_init(path);
    uint32_t in = fixture_source(path, CULPRIT_SYM_SOURCE_STDIN, 0, 2, 0, "");
    uint32_t c = fixture_byte(path, in, 0);
    uint32_t low = fixture_binary(path, CULPRIT_SYM_AND, c, fixture_const(path, 8, 3));
    fixture_switch(path, c, 7, 'a');
    fixture_switch(path, low, 9, 3);
    fixture_cases(path, 9, (const uint64_t[]){1, 2}, 2);
    fixture_cases(path, 7, (const uint64_t[]){'a', 'd', 'n', 'z'}, 4);
}

static void test_switch_round_trip(void)
{
    culprit_path built, read;
    fixture_bytes bytes;
    culprit_error err;
    switch_sample(&built);
    fixture_write(&built, &bytes);
    CHECK_INT(culprit_path_parse(bytes.data, bytes.size, 0, "t", &read, &err), CULPRIT_OK);
    CHECK_INT(read.switch_count, 2);
    CHECK_INT(read.switches[0].block, 7); /* sorted by site */
    const culprit_path_switch *first = culprit_path_switch_of(&read, &read.constraints[0]);
    CHECK(first != NULL);
    CHECK_INT(first ? first->case_count : 0, 4);
    CHECK_INT(first ? first->cases[3] : 0, 'z');
    const culprit_path_switch *second = culprit_path_switch_of(&read, &read.constraints[1]);
    CHECK_INT(second ? second->cases[1] : 0, 2);
    /* A case is its value; a value outside the cases is the default. */
    CHECK_INT(culprit_constraint_outcome(&read, &read.constraints[0]), 'a');
    CHECK(culprit_constraint_outcome(&read, &read.constraints[1]) == CULPRIT_OUTCOME_DEFAULT);
    culprit_path_free(&read);
    culprit_path_free(&built);
}

/* The sample's trailer with one change to its switch section; the
 * message the reader gives. */
static void check_bad_switch(void (*change)(culprit_path *), const char *expected)
{
    culprit_path built;
    fixture_bytes bytes;
    culprit_error err;
    switch_sample(&built);
    change(&built);
    fixture_write(&built, &bytes);
    CHECK_STR(parse_message(&bytes, bytes.size, 0, &err), expected);
    culprit_path_free(&built);
}

static void unsorted_cases(culprit_path *path)
{
    path->switches[1].cases[2] = 'b'; /* 'a' 'd' 'b' 'z' */
}
static void repeated_case(culprit_path *path)
{
    path->switches[0].cases[1] = 1;
}
static void no_cases(culprit_path *path)
{
    path->switches[0].case_count = 0;
}
static void unnamed_site(culprit_path *path)
{
    path->switches[1].block = 8;
}
static void site_twice(culprit_path *path)
{
    path->switches[1].block = 9;
}
static void too_wide(culprit_path *path)
{
    path->switches[0].cases[1] = 256; /* block 9's expression has 8 bits */
}
static void a_branch_site(culprit_path *path)
{
    path->constraints[0].kind = CULPRIT_SYM_BRANCH;
    path->constraints[0].expression = fixture_binary(path, CULPRIT_SYM_EQ, 1, 1);
    path->constraints[0].value = 1;
}

static void test_bad_switches(void)
{
    /* The sample: header 24, source 24, nodes 3 x 24, constraints 2 x 24,
     * statistics 128, switch count 4: the section's first entry (block 9)
     * at 300, its case count at 308, its values at 312; the second entry
     * (block 7) at 328, its values at 340; the end at 372.  a_branch_site
     * adds a node (24 bytes). */
    check_bad_switch(unsorted_cases,
                     "d.dump: at byte 356: expected a switch's case values in ascending order, each once");
    check_bad_switch(repeated_case,
                     "d.dump: at byte 320: expected a switch's case values in ascending order, each once");
    check_bad_switch(no_cases, "d.dump: at byte 308: expected a switch's case count from 1 to 1024");
    check_bad_switch(unnamed_site,
                     "d.dump: at byte 328: expected a switch site that a switch constraint names");
    check_bad_switch(site_twice, "d.dump: at byte 328: expected a switch site not listed before");
    check_bad_switch(too_wide,
                     "d.dump: at byte 300: expected a switch's case values within its expression's width");
    check_bad_switch(a_branch_site,
                     "d.dump: at byte 352: expected a switch site that a switch constraint names");
    /* Counts are checked against the bytes left. */
    culprit_path built;
    fixture_bytes bytes;
    culprit_error err;
    switch_sample(&built);
    fixture_write(&built, &bytes);
    bytes.data[308] = 1, bytes.data[309] = 4; /* 1025 */
    CHECK_STR(parse_message(&bytes, bytes.size, 0, &err),
              "d.dump: at byte 308: expected a switch's case count from 1 to 1024");
    fixture_write(&built, &bytes);
    bytes.data[308] = 200;
    CHECK_STR(parse_message(&bytes, bytes.size, 0, &err),
              "d.dump: truncated at byte 372: expected a switch's case values");
    fixture_write(&built, &bytes);
    bytes.data[296] = 0xff, bytes.data[297] = 0xff;
    CHECK_STR(parse_message(&bytes, bytes.size, 0, &err),
              "d.dump: truncated at byte 372: expected a switch site");
    culprit_path_free(&built);
}

int main(void)
{
    test_version_1();
    test_switch_round_trip();
    test_bad_switches();
    test_round_trip();
    test_truncated();
    test_bad_fields();
    test_malformed_dag();
    test_unused_operands_ignored();
    test_bad_constraint();
    test_trace_mode();
    test_from_dump();
    return check_report("test_concolic_path");
}
