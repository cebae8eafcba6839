/*
 * solve.c - solving c1 .. c(i-1) and not ci of a path constraint with Z3's
 * C API (seeds/001 Figure 2, line 14); for a switch whose case values are
 * known, "not ci" is one case (ci's expression == that value) or the
 * default (it equals none of them).
 *
 * Every node becomes a bit-vector term of its width: an input byte is an
 * 8-bit constant per (source, offset), a typed field a 64-bit constant per
 * field, and comparisons are 1-bit vectors (1 true, 0 false), so that a
 * branch's outcome, an if-then-else's condition and a negation are all
 * the same sort.  Only the prefix constraints that share variables with ci,
 * directly or through other constraints, go into the query (the
 * independence optimisation of EXE/SAGE): the others hold in the parent's
 * input and keep holding since their variables keep the parent's values.
 *
 * Each query gets a fresh Z3 context: queries are independent, and a
 * context per query frees everything Z3 built for it at once.  DAGs are
 * walked with explicit stacks in node order, never recursively, since a
 * checksum over a long input makes chains thousands of nodes deep.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "concolic/path_internal.h"
#include "concolic/z3_terms.h"
#include "culprit/concolic.h"

struct culprit_solver {
    unsigned timeout_ms;
    culprit_solver_stats stats;
};

culprit_status culprit_solver_create(unsigned timeout_ms, culprit_solver **solver, culprit_error *err)
{
    *solver = NULL;
    culprit_status loaded = culprit_z3_load(err);
    if (loaded != CULPRIT_OK)
        return loaded;
    *solver = calloc(1, sizeof **solver);
    if (!*solver)
        return culprit_fail_memory(err);
    (*solver)->timeout_ms = timeout_ms;
    return CULPRIT_OK;
}

void culprit_solver_free(culprit_solver *solver)
{
    free(solver);
}

culprit_solver_stats culprit_solver_statistics(const culprit_solver *solver)
{
    return solver->stats;
}

/* ---- which nodes and constraints a query needs ---- */

typedef struct query_plan {
    const culprit_path *path;
    uint32_t *stamp;  /* per node: the walk that last visited it */
    uint32_t *stack;  /* node numbers to visit */
    uint32_t *parent; /* union-find over nodes (only variables are joined) */
    bool *needed;     /* per node: translated */
    bool *kept;       /* per constraint (up to the flip) */
    uint32_t walk;
} query_plan;

static uint32_t find_root(uint32_t *parent, uint32_t node)
{
    while (parent[node] != node) {
        parent[node] = parent[parent[node]];
        node = parent[node];
    }
    return node;
}

/* Visits the nodes under root; calls visit on each variable.  Returns the
 * first variable's root after joining all of them (0: none). */
static uint32_t join_variables(query_plan *plan, uint32_t root)
{
    const culprit_path *path = plan->path;
    size_t depth = 0;
    uint32_t first = 0;
    plan->walk++;
    plan->stack[depth++] = root;
    plan->stamp[root] = plan->walk;
    while (depth > 0) {
        uint32_t number = plan->stack[--depth];
        const culprit_path_node *node = &path->nodes[number];
        if (culprit_path_is_variable(node)) {
            if (first == 0)
                first = number;
            else
                plan->parent[find_root(plan->parent, number)] = find_root(plan->parent, first);
            continue;
        }
        const uint32_t operand[3] = {node->a, node->b, node->c};
        for (size_t i = 0; i < culprit_path_operand_count(node->op); i++)
            if (plan->stamp[operand[i]] != plan->walk) {
                plan->stamp[operand[i]] = plan->walk;
                plan->stack[depth++] = operand[i];
            }
    }
    return first ? find_root(plan->parent, first) : 0;
}

/* Marks the nodes under root as needed. */
static void mark_needed(query_plan *plan, uint32_t root)
{
    size_t depth = 0;
    if (plan->needed[root])
        return;
    plan->needed[root] = true;
    plan->stack[depth++] = root;
    while (depth > 0) {
        const culprit_path_node *node = &plan->path->nodes[plan->stack[--depth]];
        const uint32_t operand[3] = {node->a, node->b, node->c};
        for (size_t i = 0; i < culprit_path_operand_count(node->op); i++)
            if (!plan->needed[operand[i]]) {
                plan->needed[operand[i]] = true;
                plan->stack[depth++] = operand[i];
            }
    }
}

/* Keeps the constraints up to flip that share variables with it. */
static void plan_query(query_plan *plan, size_t flip, culprit_solver_stats *stats)
{
    const culprit_path *path = plan->path;
    uint32_t *first_variable = calloc(flip + 1, sizeof *first_variable);
    for (uint32_t i = 0; i <= path->node_count; i++)
        plan->parent[i] = i;
    for (size_t j = 0; j <= flip && first_variable; j++)
        first_variable[j] = join_variables(plan, path->constraints[j].expression);
    uint32_t target =
        first_variable && first_variable[flip] ? find_root(plan->parent, first_variable[flip]) : 0;
    for (size_t j = 0; j <= flip; j++) {
        plan->kept[j] = target && first_variable[j] && find_root(plan->parent, first_variable[j]) == target;
        if (plan->kept[j])
            mark_needed(plan, path->constraints[j].expression);
        if (j < flip) {
            stats->constraints_kept += plan->kept[j];
            stats->constraints_dropped += !plan->kept[j];
        }
    }
    free(first_variable);
}

/* ---- translation ---- */

static Z3_ast bv(Z3_context context, uint64_t value, unsigned bits)
{
    return Z3_mk_unsigned_int64(context, value, Z3_mk_bv_sort(context, bits));
}

static Z3_ast as_bit(Z3_context context, Z3_ast condition)
{
    return Z3_mk_ite(context, condition, bv(context, 1, 1), bv(context, 0, 1));
}

static Z3_ast is_one(Z3_context context, Z3_ast bit)
{
    return Z3_mk_eq(context, bit, bv(context, 1, 1));
}

/* Named by what it is, so two nodes for one byte or field are one
 * constant. */
static Z3_ast variable(Z3_context context, const culprit_path_node *node)
{
    char name[64];
    snprintf(name, sizeof name, "%s%u_%llu", node->op == CULPRIT_SYM_BYTE ? "byte" : "field",
             (unsigned)node->a, (unsigned long long)node->value);
    return Z3_mk_const(context, Z3_mk_string_symbol(context, name), Z3_mk_bv_sort(context, node->bits));
}

typedef Z3_ast (*binary_maker)(Z3_context, Z3_ast, Z3_ast);

/* The tables are filled at each call: the makers are loaded (z3_library.h),
 * not constants. */
static binary_maker binary_of(uint8_t op)
{
    const binary_maker arithmetic[] = {Z3_mk_bvadd,  Z3_mk_bvsub,  Z3_mk_bvmul, Z3_mk_bvudiv, Z3_mk_bvsdiv,
                                       Z3_mk_bvurem, Z3_mk_bvsrem, Z3_mk_bvshl, Z3_mk_bvlshr, Z3_mk_bvashr,
                                       Z3_mk_bvand,  Z3_mk_bvor,   Z3_mk_bvxor};
    const binary_maker comparison[] = {Z3_mk_eq,    NULL,        Z3_mk_bvugt, Z3_mk_bvuge, Z3_mk_bvult,
                                       Z3_mk_bvule, Z3_mk_bvsgt, Z3_mk_bvsge, Z3_mk_bvslt, Z3_mk_bvsle};
    if (op >= CULPRIT_SYM_ADD && op <= CULPRIT_SYM_XOR)
        return arithmetic[op - CULPRIT_SYM_ADD];
    if (op >= CULPRIT_SYM_EQ && op <= CULPRIT_SYM_SLE)
        return comparison[op - CULPRIT_SYM_EQ];
    return NULL;
}

/* Translates node number, its operands already in terms (z3_terms.h). */
Z3_ast culprit_path_z3_term(Z3_context context, const culprit_path *path, uint32_t number, Z3_ast *terms)
{
    const culprit_path_node *node = &path->nodes[number];
    /* Only the operands the op takes are nodes (path_check.c); the other
     * fields may hold anything. */
    size_t operands = culprit_path_operand_count(node->op);
    Z3_ast a = operands > 0 ? terms[node->a] : NULL, b = operands > 1 ? terms[node->b] : NULL;
    unsigned from = operands > 0 ? path->nodes[node->a].bits : 0;
    switch (node->op) {
    case CULPRIT_SYM_CONST:
        return bv(context, node->bits < 64 ? node->value & ((1ull << node->bits) - 1) : node->value,
                  node->bits);
    case CULPRIT_SYM_BYTE:
    case CULPRIT_SYM_FIELD:
        return variable(context, node);
    case CULPRIT_SYM_NE:
        return as_bit(context, Z3_mk_not(context, Z3_mk_eq(context, a, b)));
    case CULPRIT_SYM_ZEXT:
        return node->bits == from ? a : Z3_mk_zero_ext(context, node->bits - from, a);
    case CULPRIT_SYM_SEXT:
        return node->bits == from ? a : Z3_mk_sign_ext(context, node->bits - from, a);
    case CULPRIT_SYM_TRUNC:
        return Z3_mk_extract(context, node->bits - 1, 0, a);
    case CULPRIT_SYM_EXTRACT:
        return Z3_mk_extract(context, (unsigned)node->value + node->bits - 1, (unsigned)node->value, a);
    case CULPRIT_SYM_CONCAT:
        return Z3_mk_concat(context, a, b);
    case CULPRIT_SYM_ITE:
        return Z3_mk_ite(context, is_one(context, a), b, terms[node->c]);
    case CULPRIT_SYM_NOT:
        return Z3_mk_bvnot(context, a);
    case CULPRIT_SYM_TAG: /* a statement of trace mode: its value, never relaxed here */
        return a;
    default: {
        /* The reader let through only the ops of sym_format.h. */
        binary_maker make = binary_of(node->op);
        if (!make)
            return NULL;
        return node->op >= CULPRIT_SYM_EQ ? as_bit(context, make(context, a, b)) : make(context, a, b);
    }
    }
}

/* The constraint as it held. */
static Z3_ast constraint_term(Z3_context context, const culprit_path *path, const culprit_path_constraint *c,
                              Z3_ast *terms)
{
    unsigned bits = path->nodes[c->expression].bits;
    return Z3_mk_eq(context, terms[c->expression], bv(context, c->value, bits));
}

/* What the flipped constraint must do instead: not hold, equal a case, or
 * miss every case of its site (culprit_solve checked the switch has them). */
static Z3_ast flipped_term(Z3_context context, const culprit_path *path, const culprit_flip *flip,
                           Z3_ast *terms)
{
    const culprit_path_constraint *c = &path->constraints[flip->constraint];
    Z3_ast expression = terms[c->expression];
    unsigned bits = path->nodes[c->expression].bits;
    if (flip->kind == CULPRIT_FLIP_NEGATE)
        return Z3_mk_not(context, constraint_term(context, path, c, terms));
    if (flip->kind == CULPRIT_FLIP_CASE)
        return Z3_mk_eq(context, expression, bv(context, flip->value, bits));
    const culprit_path_switch *entry = culprit_path_switch_of(path, c);
    Z3_ast *differs = malloc(entry->case_count * sizeof *differs);
    if (!differs)
        return NULL;
    for (size_t k = 0; k < entry->case_count; k++)
        differs[k] = Z3_mk_not(context, Z3_mk_eq(context, expression, bv(context, entry->cases[k], bits)));
    Z3_ast all = Z3_mk_and(context, (unsigned)entry->case_count, differs);
    free(differs);
    return all;
}

static void ignore_errors(Z3_context context, Z3_error_code code)
{
    (void)context;
    (void)code;
}

/* ---- the query ---- */

static culprit_status read_model(Z3_context context, Z3_model z3_model, const query_plan *plan, Z3_ast *terms,
                                 culprit_model *model, culprit_error *err)
{
    const culprit_path *path = plan->path;
    size_t count = 0;
    for (uint32_t i = 1; i <= path->node_count; i++)
        count += plan->needed[i] && culprit_path_is_variable(&path->nodes[i]);
    model->assignments = calloc(count ? count : 1, sizeof *model->assignments);
    if (!model->assignments)
        return culprit_fail_memory(err);
    for (uint32_t i = 1; i <= path->node_count; i++) {
        if (!plan->needed[i] || !culprit_path_is_variable(&path->nodes[i]))
            continue;
        Z3_ast value = NULL;
        uint64_t number = 0;
        if (!Z3_model_eval(context, z3_model, terms[i], true, &value) ||
            !Z3_get_numeral_uint64(context, value, &number))
            return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "Z3 gave no value for input variable %u",
                                (unsigned)i);
        model->assignments[model->count++] = (culprit_assignment){i, number};
    }
    return CULPRIT_OK;
}

static Z3_solver make_solver(Z3_context context, unsigned timeout_ms)
{
    Z3_solver solver = Z3_mk_solver(context);
    Z3_solver_inc_ref(context, solver);
    Z3_params params = Z3_mk_params(context);
    Z3_params_inc_ref(context, params);
    if (timeout_ms)
        Z3_params_set_uint(context, params, Z3_mk_string_symbol(context, "timeout"), timeout_ms);
    /* Unsat cores name the parent's values that must go (check_keeping);
     * unminimized, a core may name them all. */
    Z3_params_set_bool(context, params, Z3_mk_string_symbol(context, "core.minimize"), true);
    Z3_solver_set_params(context, solver, params);
    Z3_params_dec_ref(context, params);
    return solver;
}

/* A typed field's text is usually read into an int: a 64-bit value whose
 * low 32 bits are what the program compared (2147483648 for "negative")
 * parses, overflows and renders as text nobody would write.  Assumed too,
 * and dropped like the parent's values when a core names it. */
static Z3_ast fits_int(Z3_context context, Z3_solver z3_solver, const culprit_path_node *node, Z3_ast term,
                       uint32_t number)
{
    char name[32];
    snprintf(name, sizeof name, "int%u", (unsigned)number);
    Z3_ast literal = Z3_mk_const(context, Z3_mk_string_symbol(context, name), Z3_mk_bool_sort(context));
    Z3_ast fits;
    if (node->c == CULPRIT_SYM_FIELD_DECIMAL)
        fits = Z3_mk_and(context, 2,
                         (Z3_ast[]){Z3_mk_bvsge(context, term, bv(context, (uint64_t)INT32_MIN, 64)),
                                    Z3_mk_bvsle(context, term, bv(context, INT32_MAX, 64))});
    else
        fits = Z3_mk_bvule(context, term, bv(context, UINT32_MAX, 64));
    Z3_solver_assert(context, z3_solver, Z3_mk_implies(context, literal, fits));
    return literal;
}

/* The parent's values as assumptions "variable = its value", each behind
 * a fresh Boolean (p => v = value) so that an unsat core names them. */
typedef struct keep_plan {
    Z3_ast *literals; /* assumed ones first: [0, active), then the dropped ones: [active, count) */
    size_t active, count;
} keep_plan;

/* Rounds of dropping what unsat cores name, then single literals tried back. */
enum { KEEP_ROUNDS = 8, KEEP_REPAIRS = 32 };

static bool make_keep(Z3_context context, Z3_solver z3_solver, const query_plan *plan, Z3_ast *terms,
                      const culprit_input *keep, keep_plan *out)
{
    const culprit_path *path = plan->path;
    out->literals = calloc(2 * (path->node_count + 1), sizeof *out->literals);
    out->active = 0;
    if (!out->literals)
        return false;
    for (uint32_t i = 1; i <= path->node_count; i++) {
        uint64_t value;
        if (!plan->needed[i] || !culprit_path_is_variable(&path->nodes[i]) ||
            !culprit_input_variable_value(keep, path, i, &value))
            continue;
        char name[32];
        snprintf(name, sizeof name, "keep%u", (unsigned)i);
        Z3_ast literal = Z3_mk_const(context, Z3_mk_string_symbol(context, name), Z3_mk_bool_sort(context));
        Z3_ast same = Z3_mk_eq(context, terms[i], bv(context, value, path->nodes[i].bits));
        Z3_solver_assert(context, z3_solver, Z3_mk_implies(context, literal, same));
        out->literals[out->active++] = literal;
    }
    for (uint32_t i = 1; i <= path->node_count; i++)
        if (plan->needed[i] && path->nodes[i].op == CULPRIT_SYM_FIELD)
            out->literals[out->active++] = fits_int(context, z3_solver, &path->nodes[i], terms[i], i);
    out->count = out->active;
    return true;
}

/* Drops from the assumed literals those in the unsat core. */
static void drop_core(Z3_context context, Z3_solver z3_solver, keep_plan *keep)
{
    Z3_ast_vector core = Z3_solver_get_unsat_core(context, z3_solver);
    Z3_ast_vector_inc_ref(context, core);
    unsigned size = Z3_ast_vector_size(context, core);
    /* Partition [0, active): kept ones first, the core's after them. */
    size_t kept = 0;
    for (size_t i = 0; i < keep->active; i++) {
        bool in_core = size == 0; /* an empty core cannot shrink the set: drop them all */
        for (unsigned k = 0; k < size && !in_core; k++)
            in_core = Z3_is_eq_ast(context, Z3_ast_vector_get(context, core, k), keep->literals[i]);
        if (!in_core) {
            Z3_ast literal = keep->literals[kept];
            keep->literals[kept++] = keep->literals[i];
            keep->literals[i] = literal;
        }
    }
    keep->active = kept;
    Z3_ast_vector_dec_ref(context, core);
}

/* Cores are not always minimal (one named all four values of a strlen
 * chain, only under ASan's memory layout): the dropped values are tried
 * back one at a time, each kept when the query stays sat with it.  Ends
 * with a sat check of the final set, whose model the caller reads. */
static Z3_lbool repair(Z3_context context, Z3_solver z3_solver, keep_plan *keep)
{
    bool last_sat = true;
    for (size_t tries = 0; keep->active < keep->count && tries < KEEP_REPAIRS; tries++) {
        /* try the first dropped one: swap it into the assumed prefix */
        size_t next = keep->active;
        Z3_lbool answer =
            Z3_solver_check_assumptions(context, z3_solver, (unsigned)(next + 1), keep->literals);
        last_sat = answer == Z3_L_TRUE;
        if (last_sat) {
            keep->active++;
        } else { /* move it past the end of what is tried */
            Z3_ast literal = keep->literals[next];
            keep->literals[next] = keep->literals[keep->count - 1];
            keep->literals[keep->count - 1] = literal;
            keep->count--;
        }
    }
    if (last_sat)
        return Z3_L_TRUE;
    return Z3_solver_check_assumptions(context, z3_solver, (unsigned)keep->active, keep->literals);
}

/* Checks the query, first assuming the parent's values and dropping those
 * the unsat cores name, so that a model changes as few variables as a few
 * rounds find: a solver left alone sets every "don't care" byte of a
 * constraint chain (strlen's, say) to whatever it likes, and the new input
 * strays from the failing one for no reason. */
static Z3_lbool check_keeping(Z3_context context, Z3_solver z3_solver, keep_plan *keep)
{
    Z3_lbool answer = Z3_L_FALSE;
    for (int round = 0; round < KEEP_ROUNDS && keep->active > 0 && answer == Z3_L_FALSE; round++) {
        answer = Z3_solver_check_assumptions(context, z3_solver, (unsigned)keep->active, keep->literals);
        if (answer == Z3_L_FALSE)
            drop_core(context, z3_solver, keep);
    }
    if (answer != Z3_L_TRUE)
        answer = (keep->active = 0, Z3_solver_check(context, z3_solver));
    if (answer != Z3_L_TRUE)
        return answer;
    return repair(context, z3_solver, keep);
}

static culprit_status run_query(culprit_solver *solver, const query_plan *plan, const culprit_flip *flip,
                                const culprit_input *keep, culprit_solve_result *result, culprit_model *model,
                                culprit_error *err)
{
    const culprit_path *path = plan->path;
    Z3_config config = Z3_mk_config();
    Z3_context context = Z3_mk_context(config);
    Z3_del_config(config);
    Z3_set_error_handler(context, ignore_errors);
    Z3_ast *terms = calloc(path->node_count + 1, sizeof *terms);
    culprit_status status = terms ? CULPRIT_OK : culprit_fail_memory(err);
    for (uint32_t i = 1; status == CULPRIT_OK && i <= path->node_count; i++)
        if (plan->needed[i])
            terms[i] = culprit_path_z3_term(context, path, i, terms);
    Z3_solver z3_solver = make_solver(context, solver->timeout_ms);
    for (size_t j = 0; status == CULPRIT_OK && j < flip->constraint; j++)
        if (plan->kept[j])
            Z3_solver_assert(context, z3_solver,
                             constraint_term(context, path, &path->constraints[j], terms));
    Z3_ast flipped = status == CULPRIT_OK ? flipped_term(context, path, flip, terms) : NULL;
    if (status == CULPRIT_OK && !flipped)
        status = culprit_fail_memory(err);
    if (status == CULPRIT_OK)
        Z3_solver_assert(context, z3_solver, flipped);
    keep_plan keeping = {0};
    if (status == CULPRIT_OK && keep && !make_keep(context, z3_solver, plan, terms, keep, &keeping))
        status = culprit_fail_memory(err);
    if (status == CULPRIT_OK && Z3_get_error_code(context) != Z3_OK)
        status = culprit_fail(err, CULPRIT_ERROR_INTERNAL, "Z3: %s",
                              Z3_get_error_msg(context, Z3_get_error_code(context)));
    if (status == CULPRIT_OK) {
        Z3_lbool answer = check_keeping(context, z3_solver, &keeping);
        *result = answer == Z3_L_TRUE    ? CULPRIT_SOLVE_SAT
                  : answer == Z3_L_FALSE ? CULPRIT_SOLVE_UNSAT
                                         : CULPRIT_SOLVE_UNKNOWN;
        if (*result == CULPRIT_SOLVE_SAT) {
            Z3_model z3_model = Z3_solver_get_model(context, z3_solver);
            Z3_model_inc_ref(context, z3_model);
            status = read_model(context, z3_model, plan, terms, model, err);
            Z3_model_dec_ref(context, z3_model);
        }
    }
    free(keeping.literals);
    Z3_solver_dec_ref(context, z3_solver);
    free(terms);
    Z3_del_context(context);
    return status;
}

static void count_result(culprit_solver_stats *stats, culprit_solve_result result)
{
    stats->queries++;
    stats->sat += result == CULPRIT_SOLVE_SAT;
    stats->unsat += result == CULPRIT_SOLVE_UNSAT;
    stats->unknown += result == CULPRIT_SOLVE_UNKNOWN;
}

/* Whether flip names a constraint of path that can be changed its way. */
static culprit_status check_flip(const culprit_path *path, const culprit_flip *flip, culprit_error *err)
{
    if (flip->constraint >= path->constraint_count)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "no constraint %zu to negate (the path has %zu)",
                            flip->constraint + 1, path->constraint_count);
    const culprit_path_constraint *c = &path->constraints[flip->constraint];
    unsigned bits = path->nodes[c->expression].bits;
    if (flip->kind != CULPRIT_FLIP_NEGATE && c->kind != CULPRIT_SYM_SWITCH)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "constraint %zu is a branch: it has no cases",
                            flip->constraint + 1);
    if (flip->kind == CULPRIT_FLIP_CASE && bits < 64 && flip->value >> bits)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL,
                            "case value %llu does not fit constraint %zu's %u bits",
                            (unsigned long long)flip->value, flip->constraint + 1, bits);
    if (flip->kind == CULPRIT_FLIP_DEFAULT && !culprit_path_switch_of(path, c))
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "constraint %zu's switch has no known cases",
                            flip->constraint + 1);
    return CULPRIT_OK;
}

culprit_status culprit_solve_flip(culprit_solver *solver, const culprit_path *path, size_t flip,
                                  const culprit_input *keep, culprit_solve_result *result,
                                  culprit_model *model, culprit_error *err)
{
    culprit_flip negate = {.constraint = flip, .kind = CULPRIT_FLIP_NEGATE};
    return culprit_solve(solver, path, &negate, keep, result, model, err);
}

culprit_status culprit_solve(culprit_solver *solver, const culprit_path *path, const culprit_flip *what,
                             const culprit_input *keep, culprit_solve_result *result, culprit_model *model,
                             culprit_error *err)
{
    *model = (culprit_model){0};
    *result = CULPRIT_SOLVE_UNSAT;
    culprit_status checked = check_flip(path, what, err);
    if (checked != CULPRIT_OK)
        return checked;
    size_t flip = what->constraint;
    size_t nodes = path->node_count + 1;
    query_plan plan = {.path = path,
                       .stamp = calloc(nodes, sizeof *plan.stamp),
                       .stack = calloc(nodes, sizeof *plan.stack),
                       .parent = calloc(nodes, sizeof *plan.parent),
                       .needed = calloc(nodes, sizeof *plan.needed),
                       .kept = calloc(flip + 1, sizeof *plan.kept)};
    culprit_status status = CULPRIT_OK;
    if (!plan.stamp || !plan.stack || !plan.parent || !plan.needed || !plan.kept)
        status = culprit_fail_memory(err);
    if (status == CULPRIT_OK)
        plan_query(&plan, flip, &solver->stats);
    /* A constraint on no variable cannot be negated by changing the input. */
    if (status == CULPRIT_OK && plan.kept[flip])
        status = run_query(solver, &plan, what, keep, result, model, err);
    if (status == CULPRIT_OK)
        count_result(&solver->stats, *result);
    else
        culprit_model_free(model);
    free(plan.stamp);
    free(plan.stack);
    free(plan.parent);
    free(plan.needed);
    free(plan.kept);
    return status;
}
