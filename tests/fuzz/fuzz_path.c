/*
 * fuzz_path.c - the symbolic trailer reader (culprit_path_parse,
 * src/concolic/path_read.c + path_check.c; culprit/sym_format.h).  The
 * input is the trailer.  A trailer the reader accepts is walked further the
 * way culprit gen does: its conditions keyed, compared with themselves,
 * and every constraint negated through the solver (1 ms per query), a
 * switch whose cases the trailer holds also to its default and a case
 * (which the reader's checks must make always askable), so a DAG the
 * checks let through that the solver's translation cannot take is a
 * finding.
 */
#include "fuzz.h"

#include "culprit/concolic.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    culprit_path path;
    culprit_error err = {0};
    if (culprit_path_parse(data, size, 0, "fuzz.dump", &path, &err) != CULPRIT_OK)
        return 0;
    culprit_condition *conditions = NULL;
    if (culprit_path_conditions(&path, NULL, &conditions, &err) == CULPRIT_OK) {
        double same = culprit_pcs_subset(conditions, path.constraint_count, conditions, path.constraint_count);
        FUZZ_REQUIRE(path.constraint_count == 0 || same == 1.0 || same == 0.0 || (same > 0.0 && same < 1.0));
        free(conditions);
    }
    culprit_solver *solver = NULL;
    if (path.constraint_count <= 8 && culprit_solver_create(1, &solver, &err) == CULPRIT_OK) {
        for (size_t i = 0; i < path.constraint_count; i++) {
            culprit_solve_result result;
            culprit_model model = {0};
            if (culprit_solve_flip(solver, &path, i, NULL, &result, &model, &err) == CULPRIT_OK)
                culprit_model_free(&model);
            /* a switch with known cases: its default and its last case */
            const culprit_path_switch *entry = culprit_path_switch_of(&path, &path.constraints[i]);
            if (!entry)
                continue;
            culprit_flip flips[2] = {{i, CULPRIT_FLIP_DEFAULT, 0},
                                     {i, CULPRIT_FLIP_CASE, entry->cases[entry->case_count - 1]}};
            for (size_t k = 0; k < 2; k++) {
                FUZZ_REQUIRE(culprit_solve(solver, &path, &flips[k], NULL, &result, &model, &err) ==
                             CULPRIT_OK);
                culprit_model_free(&model);
            }
        }
        culprit_solver_free(solver);
    }
    culprit_path_free(&path);
    return 0;
}
