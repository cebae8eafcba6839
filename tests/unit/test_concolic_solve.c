/*
 * test_concolic_solve.c - solving c1 .. c(i-1) and not ci with Z3
 * (src/concolic/solve.c) on hand-built path constraints: the negation, the
 * prefix, the independence optimisation, the ops' semantics, unsat and the
 * per-query timeout.
 */
#include "check.h"
#include "path_fixture.h"

static culprit_solver *solver_with(unsigned timeout_ms)
{
    culprit_solver *solver = NULL;
    culprit_error err;
    CHECK_INT(culprit_solver_create(timeout_ms, &solver, &err), CULPRIT_OK);
    return solver;
}

static bool value_of(const culprit_model *model, uint32_t node, uint64_t *value)
{
    for (size_t i = 0; i < model->count; i++)
        if (model->assignments[i].node == node) {
            *value = model->assignments[i].value;
            return true;
        }
    return false;
}

static culprit_solve_result solve(culprit_solver *solver, const culprit_path *path, size_t flip,
                                  culprit_model *model)
{
    culprit_solve_result result = CULPRIT_SOLVE_UNKNOWN;
    culprit_error err;
    CHECK_INT(culprit_solve_flip(solver, path, flip, NULL, &result, model, &err), CULPRIT_OK);
    return result;
}

/* x > 5 (taken), x < 10 (taken), y == 'q' (not taken): flipping the
 * second keeps the first (same variable) and drops the third's. */
static void test_prefix_and_negation(void)
{
    culprit_path path;
    fixture_init(&path);
    uint32_t in = fixture_source(&path, CULPRIT_SYM_SOURCE_STDIN, 0, 8, 0, "");
    uint32_t x = fixture_field(&path, in, 0, 2, CULPRIT_SYM_FIELD_DECIMAL);
    uint32_t y = fixture_byte(&path, in, 6);
    fixture_branch(&path, fixture_binary(&path, CULPRIT_SYM_SGT, x, fixture_const(&path, 64, 5)), 1, 1);
    fixture_branch(&path, fixture_binary(&path, CULPRIT_SYM_SLT, x, fixture_const(&path, 64, 10)), 2, 1);
    fixture_branch(&path, fixture_binary(&path, CULPRIT_SYM_EQ, y, fixture_const(&path, 8, 'q')), 3, 0);
    culprit_solver *solver = solver_with(0);
    culprit_model model = {0};
    uint64_t value = 0;
    CHECK_INT(solve(solver, &path, 1, &model), CULPRIT_SOLVE_SAT);
    CHECK(value_of(&model, x, &value) && (int64_t)value >= 10);
    CHECK(!value_of(&model, y, &value));
    culprit_model_free(&model);
    CHECK_INT(solve(solver, &path, 2, &model), CULPRIT_SOLVE_SAT);
    CHECK(value_of(&model, y, &value) && value == 'q');
    CHECK(!value_of(&model, x, &value)); /* independent: x keeps its value */
    culprit_model_free(&model);
    CHECK_INT(solve(solver, &path, 0, &model), CULPRIT_SOLVE_SAT);
    CHECK(value_of(&model, x, &value) && (int64_t)value <= 5);
    culprit_model_free(&model);
    culprit_solver_stats stats = culprit_solver_statistics(solver);
    CHECK_INT(stats.queries, 3);
    CHECK_INT(stats.sat, 3);
    CHECK_INT(stats.constraints_kept, 1);    /* flip 2nd: the 1st */
    CHECK_INT(stats.constraints_dropped, 2); /* flip 3rd: the 1st and 2nd */
    culprit_solver_free(solver);
    culprit_path_free(&path);
}

/* Independence is transitive: y is tied to x through x + y == 10. */
static void test_transitive_independence(void)
{
    culprit_path path;
    fixture_init(&path);
    uint32_t in = fixture_source(&path, CULPRIT_SYM_SOURCE_STDIN, 0, 8, 0, "");
    uint32_t x = fixture_byte(&path, in, 0), y = fixture_byte(&path, in, 1), z = fixture_byte(&path, in, 2);
    fixture_branch(&path, fixture_binary(&path, CULPRIT_SYM_ULT, x, fixture_const(&path, 8, 3)), 1, 1);
    fixture_branch(&path,
                   fixture_binary(&path, CULPRIT_SYM_EQ, fixture_binary(&path, CULPRIT_SYM_ADD, x, y),
                                  fixture_const(&path, 8, 10)),
                   2, 1);
    fixture_branch(&path, fixture_binary(&path, CULPRIT_SYM_EQ, z, fixture_const(&path, 8, 0)), 3, 1);
    fixture_branch(&path, fixture_binary(&path, CULPRIT_SYM_UGT, y, fixture_const(&path, 8, 8)), 4, 1);
    culprit_solver *solver = solver_with(0);
    culprit_model model = {0};
    uint64_t vx = 0, vy = 0, vz = 0;
    /* not (y > 8), x + y == 10, x < 3: x in 0..2 gives y in 8..10, so y == 8, x == 2 */
    CHECK_INT(solve(solver, &path, 3, &model), CULPRIT_SOLVE_SAT);
    CHECK(value_of(&model, x, &vx) && value_of(&model, y, &vy));
    CHECK_INT(vx, 2);
    CHECK_INT(vy, 8);
    CHECK(!value_of(&model, z, &vz));
    culprit_model_free(&model);
    CHECK_INT(culprit_solver_statistics(solver).constraints_dropped, 1);
    culprit_solver_free(solver);
    culprit_path_free(&path);
}

static void test_unsat(void)
{
    culprit_path path;
    fixture_init(&path);
    uint32_t in = fixture_source(&path, CULPRIT_SYM_SOURCE_STDIN, 0, 2, 0, "");
    uint32_t x = fixture_field(&path, in, 0, 1, CULPRIT_SYM_FIELD_DECIMAL);
    fixture_branch(&path, fixture_binary(&path, CULPRIT_SYM_EQ, x, fixture_const(&path, 64, 3)), 1, 1);
    fixture_branch(&path, fixture_binary(&path, CULPRIT_SYM_SGT, x, fixture_const(&path, 64, 2)), 2, 1);
    culprit_solver *solver = solver_with(0);
    culprit_model model = {0};
    CHECK_INT(solve(solver, &path, 1, &model), CULPRIT_SOLVE_UNSAT);
    CHECK_INT(model.count, 0);
    CHECK_INT(culprit_solver_statistics(solver).unsat, 1);
    culprit_error err;
    culprit_solve_result result;
    CHECK_INT(culprit_solve_flip(solver, &path, 2, NULL, &result, &model, &err), CULPRIT_ERROR_INTERNAL);
    CHECK_STR(err.message, "no constraint 3 to negate (the path has 2)");
    culprit_solver_free(solver);
    culprit_path_free(&path);
}

/* concat, extract, sign extension, if-then-else, not and a switch. */
static void test_ops(void)
{
    culprit_path path;
    fixture_init(&path);
    uint32_t in = fixture_source(&path, CULPRIT_SYM_SOURCE_FILE, 0, 4, 0, "f");
    uint32_t b0 = fixture_byte(&path, in, 0), b1 = fixture_byte(&path, in, 1),
             b2 = fixture_byte(&path, in, 2);
    uint32_t word = fixture_node(&path, CULPRIT_SYM_CONCAT, 16, b0, b1, 0, 0);
    fixture_branch(&path, fixture_binary(&path, CULPRIT_SYM_NE, word, fixture_const(&path, 16, 0x4142)), 1,
                   1);
    uint32_t high = fixture_node(&path, CULPRIT_SYM_EXTRACT, 4, b2, 0, 0, 4);
    uint32_t wide = fixture_node(&path, CULPRIT_SYM_SEXT, 32, b2, 0, 0, 0);
    uint32_t negative = fixture_binary(&path, CULPRIT_SYM_SLT, wide, fixture_const(&path, 32, 0));
    uint32_t chosen = fixture_node(&path, CULPRIT_SYM_ITE, 4, negative, high, fixture_const(&path, 4, 0), 0);
    uint32_t is_seven = fixture_binary(&path, CULPRIT_SYM_EQ, chosen, fixture_const(&path, 4, 7));
    fixture_branch(&path, fixture_node(&path, CULPRIT_SYM_NOT, 1, is_seven, 0, 0, 0), 2, 1);
    uint32_t b3 = fixture_byte(&path, in, 3);
    path.constraints[path.constraint_count++] = (culprit_path_constraint){CULPRIT_SYM_SWITCH, b3, 0, 3, 'a'};
    culprit_solver *solver = solver_with(0);
    culprit_model model = {0};
    uint64_t v0 = 0, v1 = 0, v2 = 0, v3 = 0;
    CHECK_INT(solve(solver, &path, 0, &model), CULPRIT_SOLVE_SAT);
    CHECK(value_of(&model, b0, &v0) && value_of(&model, b1, &v1));
    CHECK_INT(v0, 'A');
    CHECK_INT(v1, 'B');
    culprit_model_free(&model);
    /* not not (ite(b2 < 0, b2[7:4], 0) == 7): b2's high nibble 7 and b2 negative: impossible */
    CHECK_INT(solve(solver, &path, 1, &model), CULPRIT_SOLVE_UNSAT);
    path.nodes[path.nodes[is_seven].b].value = 0xf; /* wanted: high nibble 0xf, and b2 negative */
    CHECK_INT(solve(solver, &path, 1, &model), CULPRIT_SOLVE_SAT);
    CHECK(value_of(&model, b2, &v2) && (v2 >> 4) == 0xf);
    culprit_model_free(&model);
    CHECK_INT(solve(solver, &path, 2, &model), CULPRIT_SOLVE_SAT);
    CHECK_INT(model.count, 1);
    CHECK(value_of(&model, b3, &v3) && v3 != 'a');
    culprit_model_free(&model);
    culprit_solver_free(solver);
    culprit_path_free(&path);
}

/* x * y == N for two 31-bit primes: factoring a 62-bit number is far
 * beyond 1 ms, so the query times out and is counted. */
static void test_timeout(void)
{
    culprit_path path;
    fixture_init(&path);
    uint32_t in = fixture_source(&path, CULPRIT_SYM_SOURCE_STDIN, 0, 40, 0, "");
    uint32_t x = fixture_field(&path, in, 0, 10, CULPRIT_SYM_FIELD_UNSIGNED);
    uint32_t y = fixture_field(&path, in, 20, 10, CULPRIT_SYM_FIELD_UNSIGNED);
    uint32_t limit = fixture_const(&path, 64, 1ull << 31), one = fixture_const(&path, 64, 1);
    fixture_branch(&path, fixture_binary(&path, CULPRIT_SYM_ULT, x, limit), 1, 1);
    fixture_branch(&path, fixture_binary(&path, CULPRIT_SYM_ULT, y, limit), 2, 1);
    fixture_branch(&path, fixture_binary(&path, CULPRIT_SYM_UGT, x, one), 3, 1);
    fixture_branch(&path, fixture_binary(&path, CULPRIT_SYM_UGT, y, one), 4, 1);
    uint32_t product = fixture_binary(&path, CULPRIT_SYM_MUL, x, y);
    fixture_branch(&path,
                   fixture_binary(&path, CULPRIT_SYM_NE, product,
                                  fixture_const(&path, 64, 2147483647ull * 2147483629ull)),
                   5, 1);
    culprit_solver *solver = solver_with(1);
    culprit_model model = {0};
    CHECK_INT(solve(solver, &path, 4, &model), CULPRIT_SOLVE_UNKNOWN);
    CHECK_INT(culprit_solver_statistics(solver).unknown, 1);
    culprit_solver_free(solver);
    culprit_path_free(&path);
}

/* strlen's chain over b0..b3 (len = b0 ? b1 ? b2 ? b3 ? 4 : 3 : 2 : 1 : 0,
 * as the runtime's model writes it), len > 0 taken, then b0 == 'x' taken,
 * flipped: the chain ties every byte to the flip, and any b1..b3 would
 * do; with the parent's input to keep, the model changes b0 alone. */
static void test_keeps_parent_values(void)
{
    culprit_path path;
    fixture_init(&path);
    uint32_t in = fixture_source(&path, CULPRIT_SYM_SOURCE_STDIN, 0, 4, 0, "");
    uint32_t b[4];
    for (uint32_t i = 0; i < 4; i++)
        b[i] = fixture_byte(&path, in, i);
    uint32_t length = fixture_const(&path, 64, 4);
    for (uint32_t i = 4; i-- > 0;) {
        uint32_t ends = fixture_binary(&path, CULPRIT_SYM_EQ, b[i], fixture_const(&path, 8, 0));
        length = fixture_node(&path, CULPRIT_SYM_ITE, 64, ends, fixture_const(&path, 64, i), length, 0);
    }
    fixture_branch(&path, fixture_binary(&path, CULPRIT_SYM_UGT, length, fixture_const(&path, 64, 0)), 1, 1);
    fixture_branch(&path, fixture_binary(&path, CULPRIT_SYM_EQ, b[0], fixture_const(&path, 8, 'x')), 2, 1);
    culprit_input parent = {0};
    culprit_error err;
    CHECK_INT(culprit_input_set(&parent, CULPRIT_SYM_SOURCE_STDIN, 0, "xabc", 4, &err), CULPRIT_OK);
    culprit_solver *solver = solver_with(0);
    culprit_model model = {0};
    culprit_solve_result result = CULPRIT_SOLVE_UNKNOWN;
    CHECK_INT(culprit_solve_flip(solver, &path, 1, &parent, &result, &model, &err), CULPRIT_OK);
    CHECK_INT(result, CULPRIT_SOLVE_SAT);
    uint64_t value = 0;
    CHECK(value_of(&model, b[0], &value) && value != 'x' && value != 0);
    for (uint32_t i = 1; i < 4; i++)
        CHECK(value_of(&model, b[i], &value) && value == (uint64_t)"xabc"[i]);
    culprit_model_free(&model);
    /* Flipping len > 0: b0 must become 0, the rest stay. */
    CHECK_INT(culprit_solve_flip(solver, &path, 0, &parent, &result, &model, &err), CULPRIT_OK);
    CHECK_INT(result, CULPRIT_SOLVE_SAT);
    CHECK(value_of(&model, b[0], &value) && value == 0);
    for (uint32_t i = 1; i < 4; i++)
        CHECK(value_of(&model, b[i], &value) && value == (uint64_t)"xabc"[i]);
    culprit_model_free(&model);
    culprit_solver_free(solver);
    culprit_input_free(&parent);
    culprit_path_free(&path);
}

int main(void)
{
    test_prefix_and_negation();
    test_transitive_independence();
    test_unsat();
    test_ops();
    test_timeout();
    test_keeps_parent_values();
    return check_report("test_concolic_solve");
}
