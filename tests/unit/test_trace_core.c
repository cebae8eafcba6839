/*
 * test_trace_core.c - the trace formula and its minimal unsat core
 * (src/concolic/trace_core.c, issue 23 item 2) on hand-made traces whose
 * cores are known: the statements that force a violated check, without
 * the ones that merely ran beside them (sliced away) or that the
 * violation does not need (minimized away); a check whose value came
 * through branches (its window); and each input error.
 */
#include "check.h"
#include "path_fixture.h"

enum { UNIT = 0 };

/* A store of value at (block, line): a TAG node. */
static uint32_t store(culprit_path *path, uint32_t value, uint32_t block, uint32_t line)
{
    return fixture_node(path, CULPRIT_SYM_TAG, path->nodes[value].bits, value, UNIT, block, line);
}

/* A violated check: its window starts at constraint window and at the
 * next node; its operation at constraint 0 and node operation_node. */
static void spec_from(culprit_path *path, uint32_t condition, uint32_t window, uint32_t operation_node)
{
    path->constraints[path->constraint_count++] = (culprit_path_constraint){
        CULPRIT_SYM_SPEC, condition, window, (uint32_t)path->node_count + 1, operation_node};
}

static void spec(culprit_path *path, uint32_t condition, uint32_t window)
{
    spec_from(path, condition, window, 1);
}

static bool has_store(const culprit_core *core, uint32_t line)
{
    for (size_t i = 0; i < core->count; i++)
        if (core->statements[i].kind == CULPRIT_CORE_STORE && core->statements[i].line == line)
            return true;
    return false;
}

static bool has_branch(const culprit_core *core, uint32_t block)
{
    for (size_t i = 0; i < core->count; i++)
        if (core->statements[i].kind == CULPRIT_CORE_BRANCH && core->statements[i].block == block)
            return true;
    return false;
}

static culprit_input input_of(const char *text)
{
    culprit_input input = {0};
    culprit_error err;
    CHECK_INT(culprit_input_set(&input, CULPRIT_SYM_SOURCE_STDIN, 0, text, strlen(text), &err), CULPRIT_OK);
    return input;
}

/* The list's size, as the seeded fault leaves it:
 *   10: size = 0;  11: size = size + 1;  12: size = size + 2 (the fault);
 *   13: x = input;  branch 7: x < 5 (taken);  branch 8: size < 100 (taken)
 *   20: ensures size == 2   (3 == 2: violated)
 * The core is {10, 11, 12}: relax any and size can be 2.  Line 13 and
 * branch 7 share nothing with size (sliced away); branch 8 is in size's
 * slice but in no core (minimized away).  (Had branch 8 been size > 0,
 * {12, branch 8} would be a core too: size + 2 == 2 needs size == 0.) */
static void build_size_trace(culprit_path *path, bool concrete_condition, uint32_t operation_node)
{
    fixture_init(path);
    uint32_t in = fixture_source(path, CULPRIT_SYM_SOURCE_STDIN, 0, 1, 0, "");
    uint32_t x_input = fixture_node(path, CULPRIT_SYM_ZEXT, 32, fixture_byte(path, in, 0), 0, 0, 0);
    uint32_t size0 = store(path, fixture_const(path, 32, 0), 1, 10);
    uint32_t size1 =
        store(path, fixture_binary(path, CULPRIT_SYM_ADD, size0, fixture_const(path, 32, 1)), 1, 11);
    uint32_t size2 =
        store(path, fixture_binary(path, CULPRIT_SYM_ADD, size1, fixture_const(path, 32, 2)), 2, 12);
    uint32_t x = store(path, x_input, 2, 13);
    fixture_branch(path, fixture_binary(path, CULPRIT_SYM_ULT, x, fixture_const(path, 32, 5)), 7, 1);
    fixture_branch(path, fixture_binary(path, CULPRIT_SYM_ULT, size1, fixture_const(path, 32, 100)), 8, 1);
    uint32_t two = fixture_const(path, 32, 2);
    if (!concrete_condition) {
        spec_from(path, fixture_binary(path, CULPRIT_SYM_EQ, size2, two), (uint32_t)path->constraint_count,
                  operation_node);
        return;
    }
    /* repOk() returned 0 from a branch: the condition is concrete, its
     * window holds the branch (size2 != 2, taken) that decided it. */
    uint32_t window = (uint32_t)path->constraint_count;
    fixture_branch(path, fixture_binary(path, CULPRIT_SYM_NE, size2, two), 9, 1);
    spec_from(path, 0, window, operation_node);
}

static void test_core_of_a_wrong_update(void)
{
    culprit_path path;
    build_size_trace(&path, false, 1);
    culprit_input input = input_of("\x03");
    culprit_core core;
    culprit_error err;
    CHECK_INT(culprit_trace_core(&path, &input, NULL, &core, &err), CULPRIT_OK);
    CHECK_INT(core.count, 3);
    CHECK(has_store(&core, 10) && has_store(&core, 11) && has_store(&core, 12));
    CHECK(!has_store(&core, 13) && !has_branch(&core, 7) && !has_branch(&core, 8));
    CHECK(core.minimal);
    CHECK_INT(core.specs, 1);
    CHECK_INT(core.trace_instances, 6);    /* 4 stores, 2 branches */
    CHECK_INT(core.formula_statements, 4); /* sliced: 10, 11, 12 and branch 8 */
    culprit_core_free(&core);
    culprit_input_free(&input);
    culprit_path_free(&path);
}

static void test_core_through_the_window(void)
{
    culprit_path path;
    build_size_trace(&path, true, 1);
    culprit_input input = input_of("\x03");
    culprit_core core;
    culprit_error err;
    CHECK_INT(culprit_trace_core(&path, &input, NULL, &core, &err), CULPRIT_OK);
    CHECK_INT(core.count, 3);
    CHECK(has_store(&core, 10) && has_store(&core, 11) && has_store(&core, 12));
    CHECK(!has_branch(&core, 9)); /* the window is the check itself, never a suspect */
    culprit_core_free(&core);
    culprit_input_free(&input);
    culprit_path_free(&path);
}

/* The operation starts after the store of line 10 (a check held there):
 * size = 0 is pre-state, given, and the core is the operation's {11, 12}. */
static void test_pre_state_is_given(void)
{
    culprit_path path;
    build_size_trace(&path, false, 5); /* node 5: line 11's constant 1, after line 10's TAG (node 4) */
    CHECK_INT(path.nodes[4].op, CULPRIT_SYM_TAG);
    CHECK_INT(path.nodes[4].value, 10);
    culprit_input input = input_of("\x03");
    culprit_core core;
    culprit_error err;
    CHECK_INT(culprit_trace_core(&path, &input, NULL, &core, &err), CULPRIT_OK);
    CHECK_INT(core.count, 2);
    CHECK(!has_store(&core, 10) && has_store(&core, 11) && has_store(&core, 12));
    culprit_core_free(&core);
    culprit_input_free(&input);
    culprit_path_free(&path);
}

/* A branch is a statement too: count = input; while (count < 4) ... the
 * loop's exit branch (block 5: i < n not taken) forces i == n == 3 where
 * the check wants i == 4; relaxing the branch or the store of n frees it. */
static void test_core_with_a_branch(void)
{
    culprit_path path;
    fixture_init(&path);
    uint32_t in = fixture_source(&path, CULPRIT_SYM_SOURCE_STDIN, 0, 1, 0, "");
    uint32_t n =
        store(&path, fixture_node(&path, CULPRIT_SYM_ZEXT, 32, fixture_byte(&path, in, 0), 0, 0, 0), 1, 30);
    uint32_t i =
        store(&path, fixture_const(&path, 32, 3), 2, 31); /* i after the loop, a free variable here */
    fixture_branch(&path, fixture_binary(&path, CULPRIT_SYM_ULT, i, n), 5, 0); /* exit: !(i < n) */
    fixture_branch(&path, fixture_binary(&path, CULPRIT_SYM_UGE, i, n), 6, 1); /* i >= n: implied */
    spec(&path, fixture_binary(&path, CULPRIT_SYM_EQ, i, fixture_const(&path, 32, 4)),
         (uint32_t)path.constraint_count);
    culprit_input input = input_of("\x03");
    culprit_core core;
    culprit_error err;
    CHECK_INT(culprit_trace_core(&path, &input, NULL, &core, &err), CULPRIT_OK);
    /* i's store alone forces i == 3: the minimal core is {31}. */
    CHECK_INT(core.count, 1);
    CHECK(has_store(&core, 31));
    culprit_core_free(&core);
    culprit_input_free(&input);
    culprit_path_free(&path);
}

/* A branch that decides a store (control dependence, given by the
 * options): `if (flag == 1) size = 7;` with flag from input (1) and the
 * check size == 0.  Without the dependence the core is the store alone
 * (the branch changes no value); with it, relaxing the branch frees the
 * store, so the core is the branch and the store together. */
static bool block_6_depends_on_5(void *context, uint32_t unit, uint32_t store_block, uint32_t branch_block)
{
    (void)context;
    return unit == UNIT && store_block == 6 && branch_block == 5;
}

static void test_branch_decides_a_store(void)
{
    culprit_path path;
    fixture_init(&path);
    uint32_t in = fixture_source(&path, CULPRIT_SYM_SOURCE_STDIN, 0, 1, 0, "");
    uint32_t flag = store(&path, fixture_byte(&path, in, 0), 4, 40);
    fixture_branch(&path, fixture_binary(&path, CULPRIT_SYM_EQ, flag, fixture_const(&path, 8, 1)), 5, 1);
    uint32_t size = store(&path, fixture_const(&path, 8, 7), 6, 41);
    spec(&path, fixture_binary(&path, CULPRIT_SYM_EQ, size, fixture_const(&path, 8, 0)),
         (uint32_t)path.constraint_count);
    culprit_input input = input_of("\x01");
    culprit_core core;
    culprit_error err;
    CHECK_INT(culprit_trace_core(&path, &input, NULL, &core, &err), CULPRIT_OK);
    CHECK_INT(core.count, 1);
    CHECK(has_store(&core, 41));
    culprit_core_free(&core);
    culprit_core_options options = {.controls = block_6_depends_on_5};
    CHECK_INT(culprit_trace_core(&path, &input, &options, &core, &err), CULPRIT_OK);
    CHECK_INT(core.count, 2);
    CHECK(has_store(&core, 41) && has_branch(&core, 5));
    culprit_core_free(&core);
    culprit_input_free(&input);
    culprit_path_free(&path);
}

/* The checks that follow a violation directly (trace mode runs on
 * through them) are asserted with it: the operation's whole postcondition.
 *   80: size = 0;  81: link = 1
 *   invariant (violated): its walk, branch 9: link != 0 (taken); size == 1
 *   postcondition right after: size == post (its operation the same)
 * The invariant alone is mended by either store - the size, or the link
 * (the walk then goes elsewhere and says nothing) - so its core is {80,
 * 81}.  With "size == 1" after it (violated too: ds-list's size = 0), only
 * the size mends both: {80}.  With "size == 0" after it, which held (the
 * size was right: ds-list's wrong header), only the link does: {81}.  As
 * a check of a later operation (another operation mark), the
 * postcondition is a core of its own, merged: {80, 81}. */
static void size_and_link(culprit_path *path, uint32_t post, uint32_t post_operation)
{
    fixture_init(path);
    fixture_source(path, CULPRIT_SYM_SOURCE_STDIN, 0, 1, 0, "");
    uint32_t size = store(path, fixture_const(path, 32, 0), 1, 80);
    uint32_t link = store(path, fixture_const(path, 32, 1), 1, 81);
    uint32_t window = (uint32_t)path->constraint_count;
    fixture_branch(path, fixture_binary(path, CULPRIT_SYM_NE, link, fixture_const(path, 32, 0)), 9, 1);
    spec(path, fixture_binary(path, CULPRIT_SYM_EQ, size, fixture_const(path, 32, 1)), window);
    spec_from(path, fixture_binary(path, CULPRIT_SYM_EQ, size, fixture_const(path, 32, post)),
              (uint32_t)path->constraint_count, post_operation);
}

static void check_group(uint32_t post, uint32_t post_operation, bool size_in, bool link_in)
{
    culprit_path path;
    size_and_link(&path, post, post_operation);
    culprit_input input = input_of("\x03");
    culprit_core core;
    culprit_error err;
    CHECK_INT(culprit_trace_core(&path, &input, NULL, &core, &err), CULPRIT_OK);
    CHECK_RECORD(has_store(&core, 80) == size_in && has_store(&core, 81) == link_in,
                 "post %u, operation %u: %zu statements", post, post_operation, core.count);
    CHECK_INT(core.specs, post_operation == 1 ? 1 : 2);
    culprit_core_free(&core);
    culprit_input_free(&input);
    culprit_path_free(&path);
}

static void test_checks_after_a_violation(void)
{
    check_group(1, 1, true, false);
    check_group(0, 1, false, true);
    check_group(1, 3, true, true); /* node 3: line 81's constant, after line 80's store */
}

/* Several minimal cores: the statements they share.
 *   80: size = 0;  81: link = 1;  82: old = 2
 *   invariant (violated): its walk link != 0 (taken); size == 1
 *   postcondition right after (violated): size == old - 1
 * {size, link} is a minimal core (the invariant alone), and so is {size,
 * old} (the postcondition alone); deletion finds one of them.  Only the
 * size is in both - relaxing it alone mends both checks - and it alone is
 * the core. */
static void test_statements_every_core_holds(void)
{
    culprit_path path;
    fixture_init(&path);
    fixture_source(&path, CULPRIT_SYM_SOURCE_STDIN, 0, 1, 0, "");
    uint32_t size = store(&path, fixture_const(&path, 32, 0), 1, 80);
    uint32_t link = store(&path, fixture_const(&path, 32, 1), 1, 81);
    uint32_t old = store(&path, fixture_const(&path, 32, 2), 1, 82);
    uint32_t window = (uint32_t)path.constraint_count;
    fixture_branch(&path, fixture_binary(&path, CULPRIT_SYM_NE, link, fixture_const(&path, 32, 0)), 9, 1);
    spec(&path, fixture_binary(&path, CULPRIT_SYM_EQ, size, fixture_const(&path, 32, 1)), window);
    uint32_t expected = fixture_binary(&path, CULPRIT_SYM_SUB, old, fixture_const(&path, 32, 1));
    spec(&path, fixture_binary(&path, CULPRIT_SYM_EQ, size, expected), (uint32_t)path.constraint_count);
    culprit_input input = input_of("\x03");
    culprit_core core;
    culprit_error err;
    CHECK_INT(culprit_trace_core(&path, &input, NULL, &core, &err), CULPRIT_OK);
    CHECK_INT(core.count, 1);
    CHECK(has_store(&core, 80));
    culprit_core_free(&core);
    culprit_input_free(&input);
    culprit_path_free(&path);
}

/* The time limit: a chain of 20,000 stores takes longer than 1 ms to
 * build, so the first check already finds no time left: no core, said
 * so (not a wrong core). */
static void test_timeout(void)
{
    culprit_path path = {0};
    enum { STORES = 20000 };
    path.sources = calloc(1, sizeof *path.sources);
    path.nodes = calloc(2 * STORES + 8, sizeof *path.nodes);
    path.constraints = calloc(2, sizeof *path.constraints);
    uint32_t in = fixture_source(&path, CULPRIT_SYM_SOURCE_STDIN, 0, 1, 0, "");
    uint32_t value = fixture_node(&path, CULPRIT_SYM_ZEXT, 32, fixture_byte(&path, in, 0), 0, 0, 0);
    uint32_t one = fixture_const(&path, 32, 1);
    for (uint32_t i = 0; i < STORES / 2; i++)
        value = store(&path, fixture_binary(&path, CULPRIT_SYM_ADD, value, one), 1, 100 + i);
    spec(&path, fixture_binary(&path, CULPRIT_SYM_EQ, value, fixture_const(&path, 32, 0)), 0);
    culprit_input input = input_of("\x03");
    culprit_core core;
    culprit_error err;
    culprit_core_options options = {.timeout_ms = 1};
    CHECK_INT(culprit_trace_core(&path, &input, &options, &core, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "the solver found no core within the time limit");
    culprit_input_free(&input);
    culprit_path_free(&path);
}

static void test_errors(void)
{
    culprit_path path;
    culprit_input input = input_of("\x03");
    culprit_core core;
    culprit_error err;
    /* no violated check */
    fixture_init(&path);
    uint32_t in = fixture_source(&path, CULPRIT_SYM_SOURCE_STDIN, 0, 1, 0, "");
    fixture_branch(
        &path, fixture_binary(&path, CULPRIT_SYM_EQ, fixture_byte(&path, in, 0), fixture_const(&path, 8, 3)),
        1, 1);
    CHECK_INT(culprit_trace_core(&path, &input, NULL, &core, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "violated no specification");
    culprit_path_free(&path);
    /* a check that holds on the recorded statements: satisfiable */
    fixture_init(&path);
    in = fixture_source(&path, CULPRIT_SYM_SOURCE_STDIN, 0, 1, 0, "");
    uint32_t v = store(&path, fixture_const(&path, 8, 3), 1, 50);
    spec(&path, fixture_binary(&path, CULPRIT_SYM_EQ, v, fixture_const(&path, 8, 3)), 0);
    CHECK_INT(culprit_trace_core(&path, &input, NULL, &core, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "satisfiable");
    culprit_path_free(&path);
    /* over the cap */
    build_size_trace(&path, false, 1);
    culprit_core_options options = {.max_instances = 2};
    CHECK_INT(culprit_trace_core(&path, &input, &options, &core, &err), CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, "the sliced trace has 4 statement instances, over the cap of 2: record a shorter "
                           "failing run or raise the cap");
    /* the input that does not hold the run's variables */
    culprit_input empty = {0};
    CHECK_INT(culprit_trace_core(&path, &empty, NULL, &core, &err), CULPRIT_OK); /* x is sliced away */
    culprit_core_free(&core);
    culprit_path_free(&path);
    fixture_init(&path);
    in = fixture_source(&path, CULPRIT_SYM_SOURCE_STDIN, 0, 1, 0, "");
    uint32_t w =
        store(&path, fixture_node(&path, CULPRIT_SYM_ZEXT, 32, fixture_byte(&path, in, 0), 0, 0, 0), 1, 60);
    spec(&path, fixture_binary(&path, CULPRIT_SYM_EQ, w, fixture_const(&path, 32, 9)), 0);
    CHECK_INT(culprit_trace_core(&path, &empty, NULL, &core, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "does not hold the value of its input variable");
    CHECK_INT(culprit_trace_core(&path, &input, NULL, &core, &err), CULPRIT_OK);
    CHECK_INT(core.count, 1);
    CHECK(has_store(&core, 60));
    culprit_core_free(&core);
    culprit_path_free(&path);
    culprit_input_free(&input);
}

int main(void)
{
    test_core_of_a_wrong_update();
    test_core_through_the_window();
    test_core_with_a_branch();
    test_checks_after_a_violation();
    test_statements_every_core_holds();
    test_pre_state_is_given();
    test_branch_decides_a_store();
    test_errors();
    test_timeout();
    return check_report("trace_core");
}
