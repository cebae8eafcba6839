/*
 * trace_core.c - the trace formula of a failing run and its minimal unsat
 * core (SAT-TAR, seeds/003 §3; TECHNIQUES.md §7; culprit/concolic.h).
 *
 * The run was recorded in trace mode (docs/symbolic.md §6): every store's
 * value is a TAG node, every branch on a value computed from input or
 * memory a constraint, every violated check a SPEC constraint.  Per
 * violated check the formula is
 *
 *   input bound to the run's values                              (hard)
 *   (window's branches as taken) -> the check's condition        (hard)
 *   s_site -> t_n = value(n)        for each TAG node n          (soft)
 *   s_site -> branch_i as taken     for each other branch        (soft)
 *
 * over the failing operation only: the statements since the last check
 * that held (SAT-TAR's formula is one method run on a given input
 * structure); what ran before is the operation's pre-state, its stores
 * their values, its branches dropped.  The check's own code (its window)
 * is never suspect: its stores are their values, its branches the
 * implication's premise.
 *
 * where t_n is a fresh variable standing for the stored value wherever it
 * is used, and s_site one selector per statement site (all its instances).
 * With every selector on, the formula replays the run, which violated the
 * check: unsatisfiable.  A minimal set of selectors that keeps it so (a
 * MUC) is a set of statements whose semantics together force the
 * violation; relaxing any one lets the check hold.
 *
 * Slicing: with the input bound, a statement matters only through the
 * variables t_n it shares with the check.  A union-find over TAG nodes
 * joins the tags that occur in one expression (through an operand or a
 * TAG's own value); only the statements in the check's class go in,
 * which is the cone of influence of the check in the trace's data and
 * control dependences (over-approximated: an expression no constraint
 * uses still joins its tags).
 *
 * The checks that follow a violated one directly (trace mode runs on
 * through them: the rest of the operation's postcondition) join its
 * formula, each "its window implies its condition" (group_of).
 *
 * Minimization is deletion-based (one solver check per selector of Z3's
 * first core: drop it when the rest stays unsat, shrinking to the new
 * core), deterministic, and bounded by a time limit; a core cut short is
 * still a core, said so (minimal = false).  When the formula has several
 * minimal cores, the one kept is cut to the statements all of them share
 * - those whose relaxation alone lets the checks hold (keep_necessary) -
 * unless they share none.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "concolic/path_internal.h"
#include "concolic/z3_terms.h"
#include "core/grow.h"
#include "culprit/concolic.h"

enum { DEFAULT_MAX_INSTANCES = 200000 };

/* ---- slicing ---- */

typedef struct slice {
    const culprit_path *path;
    /* union-find over TAG nodes and constraints (constraint j is element
     * node_count + 1 + j; parent[n] == n: a root) */
    uint32_t *parent;
    uint32_t *tag_of; /* per node: a TAG its value depends on (0: none) */
    bool *needed;     /* per node: translated into the formula */
} slice;

static uint32_t find(uint32_t *parent, uint32_t n)
{
    while (parent[n] != n) {
        parent[n] = parent[parent[n]];
        n = parent[n];
    }
    return n;
}

static uint32_t join(uint32_t *parent, uint32_t a, uint32_t b)
{
    if (!a || !b)
        return a ? find(parent, a) : b ? find(parent, b) : 0;
    a = find(parent, a), b = find(parent, b);
    if (a != b)
        parent[a > b ? a : b] = a < b ? a : b;
    return a < b ? a : b;
}

static uint32_t constraint_slot(const slice *s, size_t j)
{
    return (uint32_t)(s->path->node_count + 1 + j);
}

/* One pass in node order (operands first): each node's class; then each
 * constraint joins its expression's. */
static void classify(slice *s)
{
    const culprit_path *path = s->path;
    for (size_t j = 0; j < path->constraint_count; j++)
        s->parent[constraint_slot(s, j)] = constraint_slot(s, j);
    for (uint32_t n = 1; n <= path->node_count; n++) {
        const culprit_path_node *node = &path->nodes[n];
        s->parent[n] = n;
        size_t operands = culprit_path_operand_count(node->op);
        const uint32_t operand[3] = {node->a, node->b, node->c};
        uint32_t tag = node->op == CULPRIT_SYM_TAG ? n : 0;
        for (size_t i = 0; i < operands; i++)
            tag = join(s->parent, tag, s->tag_of[operand[i]]);
        s->tag_of[n] = tag;
    }
    for (size_t j = 0; j < path->constraint_count; j++) {
        uint32_t expression = path->constraints[j].expression;
        if (expression && s->tag_of[expression])
            join(s->parent, constraint_slot(s, j), s->tag_of[expression]);
    }
}

/* ---- control dependences join the slice ---- */

typedef struct site_member {
    uint32_t unit, block, member; /* a TAG node or a constraint's slot */
} site_member;

typedef struct site_list {
    site_member *sites;
    size_t count, capacity;
} site_list;

/* Adds member to its site (unit, block): the first member stands for the
 * site, later ones join it.  False when out of memory. */
static bool add_member(slice *s, site_list *list, uint32_t unit, uint32_t block, uint32_t member)
{
    for (size_t i = 0; i < list->count; i++)
        if (list->sites[i].unit == unit && list->sites[i].block == block) {
            join(s->parent, list->sites[i].member, member);
            return true;
        }
    if (!CULPRIT_GROW(list->sites, list->capacity, list->count + 1, 64))
        return false;
    list->sites[list->count++] = (site_member){unit, block, member};
    return true;
}

/* With control dependences: a branch is in the class of the stores it
 * decides (relaxing it frees them), so all instances of a site go
 * together and a deciding branch joins its stores' class. */
static bool join_controlled(slice *s, const culprit_core_options *options)
{
    if (!options || !options->controls)
        return true;
    const culprit_path *path = s->path;
    site_list stores = {0}, branches = {0};
    bool ok = true;
    for (uint32_t n = 1; ok && n <= path->node_count; n++)
        if (path->nodes[n].op == CULPRIT_SYM_TAG)
            ok = add_member(s, &stores, path->nodes[n].b, path->nodes[n].c, n);
    for (size_t j = 0; ok && j < path->constraint_count; j++)
        if (path->constraints[j].kind != CULPRIT_SYM_SPEC)
            ok = add_member(s, &branches, path->constraints[j].unit, path->constraints[j].block,
                            constraint_slot(s, j));
    for (size_t b = 0; ok && b < branches.count; b++)
        for (size_t t = 0; t < stores.count; t++)
            if (stores.sites[t].unit == branches.sites[b].unit &&
                options->controls(options->controls_context, stores.sites[t].unit, stores.sites[t].block,
                                  branches.sites[b].block))
                join(s->parent, branches.sites[b].member, stores.sites[t].member);
    free(stores.sites);
    free(branches.sites);
    return ok;
}

static uint32_t class_of(slice *s, uint32_t node)
{
    return node && s->tag_of[node] ? find(s->parent, s->tag_of[node]) : 0;
}

static uint32_t constraint_class(slice *s, size_t j)
{
    return find(s->parent, constraint_slot(s, j));
}

/* Marks what the formula translates: every node reachable from the kept
 * constraints and TAGs (descending: operands are older nodes). */
static void mark_needed(slice *s)
{
    const culprit_path *path = s->path;
    for (uint32_t n = (uint32_t)path->node_count; n >= 1; n--) {
        if (!s->needed[n])
            continue;
        const culprit_path_node *node = &path->nodes[n];
        size_t operands = culprit_path_operand_count(node->op);
        const uint32_t operand[3] = {node->a, node->b, node->c};
        for (size_t i = 0; i < operands; i++)
            s->needed[operand[i]] = true;
    }
}

/* A violated check's frame (sym_format.h, CULPRIT_SYM_SPEC): its window
 * (its own evaluation: hard) and its operation (since the last check that
 * held: the soft statements); what precedes the operation is pre-state. */
typedef struct spec_frame {
    size_t index; /* the SPEC constraint */
    size_t window_constraint, operation_constraint;
    uint32_t window_node, operation_node;
    size_t last; /* the group's last SPEC (below) */
} spec_frame;

static spec_frame frame_of(const culprit_path *path, size_t index)
{
    const culprit_path_constraint *c = &path->constraints[index];
    return (spec_frame){index, c->unit, (size_t)(c->value >> 32), c->block, (uint32_t)(c->value & UINT32_MAX),
                        index};
}

/* The checks that follow a violation directly (trace mode runs on through
 * them, sym_path.c) share its operation: one group, the rest of the
 * operation's postcondition, asserted together - the paper's formula
 * negates the whole postcondition (repOk and the method's own), so a
 * statement whose relaxation mends the invariant but breaks the size
 * postcondition right after it explains nothing.  The frame of the
 * group's first check, its last SPEC in last. */
static spec_frame group_of(const culprit_path *path, size_t index)
{
    spec_frame frame = frame_of(path, index);
    for (size_t j = index + 1; j < path->constraint_count; j++)
        if (path->constraints[j].kind == CULPRIT_SYM_SPEC) {
            if (path->constraints[j].value != path->constraints[index].value)
                break;
            frame.last = j;
        }
    return frame;
}

/* A TAG the formula may relax: a store of the operation, not of the
 * pre-state nor of the check's own code. */
static bool is_statement(const spec_frame *frame, uint32_t node)
{
    return node >= frame->operation_node && node < frame->window_node;
}

/* ---- statement sites and their selectors ---- */

typedef struct site_key {
    culprit_core_statement statement;
    Z3_ast selector;
    Z3_ast gate; /* a store's: its selector and those of the branches that decide it (NULL: not yet) */
} site_key;

typedef struct site_table {
    site_key *keys;
    size_t count, capacity;
} site_table;

static bool same_site(const culprit_core_statement *a, const culprit_core_statement *b)
{
    return a->kind == b->kind && a->unit == b->unit && a->block == b->block && a->line == b->line;
}

/* The site's selector, made on first use (linear search: a core's sites are few
 * hundred at most, and a formula's a few thousand). */
static site_key *site_selector(Z3_context context, site_table *table, const culprit_core_statement *statement)
{
    for (size_t i = 0; i < table->count; i++)
        if (same_site(&table->keys[i].statement, statement)) {
            table->keys[i].statement.instances++;
            return &table->keys[i];
        }
    if (!CULPRIT_GROW(table->keys, table->capacity, table->count + 1, 64))
        return NULL;
    char name[32];
    snprintf(name, sizeof name, "s%zu", table->count);
    site_key *key = &table->keys[table->count++];
    key->statement = *statement;
    key->statement.instances = 1;
    key->selector = Z3_mk_const(context, Z3_mk_string_symbol(context, name), Z3_mk_bool_sort(context));
    key->gate = NULL;
    return key;
}

/* ---- the formula ---- */

typedef struct formula {
    Z3_context context;
    Z3_solver solver;
    Z3_ast *terms;
    site_table sites;
    size_t instances;
    const culprit_core_options *options; /* may be NULL */
} formula;

static void ignore_errors(Z3_context context, Z3_error_code code)
{
    (void)context;
    (void)code;
}

static Z3_ast bv(Z3_context context, uint64_t value, unsigned bits)
{
    return Z3_mk_unsigned_int64(context, value, Z3_mk_bv_sort(context, bits));
}

static Z3_ast holds_as_taken(formula *f, const culprit_path *path, const culprit_path_constraint *c)
{
    unsigned bits = path->nodes[c->expression].bits;
    return Z3_mk_eq(f->context, f->terms[c->expression], bv(f->context, c->value, bits));
}

/* Terms for the needed nodes: variables bound to the run's input, the
 * operation's TAGs as fresh variables, other TAGs as their values. */
static culprit_status make_terms(formula *f, const slice *s, const spec_frame *frame,
                                 const culprit_input *input, culprit_error *err)
{
    const culprit_path *path = s->path;
    for (uint32_t n = 1; n <= path->node_count; n++) {
        if (!s->needed[n])
            continue;
        const culprit_path_node *node = &path->nodes[n];
        if (culprit_path_is_variable(node)) {
            uint64_t value;
            if (!culprit_input_variable_value(input, path, n, &value))
                return culprit_fail(err, CULPRIT_ERROR_INPUT,
                                    "the run's input does not hold the value of its input variable %u "
                                    "(source %u, offset %llu): was the trace recorded from this input?",
                                    n, node->a, (unsigned long long)node->value);
            f->terms[n] = bv(f->context, value, node->bits);
        } else if (node->op == CULPRIT_SYM_TAG && is_statement(frame, n)) {
            char name[32];
            snprintf(name, sizeof name, "t%u", n);
            f->terms[n] = Z3_mk_const(f->context, Z3_mk_string_symbol(f->context, name),
                                      Z3_mk_bv_sort(f->context, node->bits));
        } else if (!(f->terms[n] =
                         culprit_path_z3_term(f->context, path, n, f->terms))) { /* TAG: its value */
            return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "node %u: an op the solver does not know", n);
        }
    }
    return CULPRIT_OK;
}

/* The selectors a store's definition needs besides its own: those of the
 * branch sites already in the formula that decide whether it runs. */
static Z3_ast gated(formula *f, const culprit_core_statement *site, Z3_ast selector)
{
    if (site->kind != CULPRIT_CORE_STORE || !f->options || !f->options->controls)
        return selector;
    size_t count = 1;
    Z3_ast *all = malloc((f->sites.count + 1) * sizeof *all);
    if (!all)
        return selector;
    all[0] = selector;
    for (size_t i = 0; i < f->sites.count; i++) {
        const culprit_core_statement *branch = &f->sites.keys[i].statement;
        if (branch->kind == CULPRIT_CORE_BRANCH && branch->unit == site->unit &&
            f->options->controls(f->options->controls_context, site->unit, site->block, branch->block))
            all[count++] = f->sites.keys[i].selector;
    }
    Z3_ast conjunction = count == 1 ? selector : Z3_mk_and(f->context, (unsigned)count, all);
    free(all);
    return conjunction;
}

static bool add_soft(formula *f, const culprit_core_statement *site, Z3_ast term)
{
    site_key *key = site_selector(f->context, &f->sites, site);
    if (!key)
        return false;
    if (!key->gate) /* once per site: the branches are all in by the first store */
        key->gate = gated(f, site, key->selector);
    Z3_solver_assert(f->context, f->solver, Z3_mk_implies(f->context, key->gate, term));
    f->instances++;
    return true;
}

/* One check: its window's path implies its condition. */
static void add_check(formula *f, const culprit_path *path, const spec_frame *frame)
{
    const culprit_path_constraint *c = &path->constraints[frame->index];
    Z3_ast holds = c->expression ? Z3_mk_eq(f->context, f->terms[c->expression], bv(f->context, 1, 1))
                                 : Z3_mk_false(f->context);
    size_t count = frame->index - frame->window_constraint;
    Z3_ast *taken = malloc((count ? count : 1) * sizeof *taken);
    size_t n = 0;
    for (size_t j = frame->window_constraint; taken && j < frame->index; j++)
        if (path->constraints[j].kind != CULPRIT_SYM_SPEC)
            taken[n++] = holds_as_taken(f, path, &path->constraints[j]);
    Z3_ast window = n ? Z3_mk_and(f->context, (unsigned)n, taken) : Z3_mk_true(f->context);
    free(taken);
    Z3_solver_assert(f->context, f->solver, Z3_mk_implies(f->context, window, holds));
}

/* The group's checks: each one's window's path implies its condition. */
static void add_spec(formula *f, const culprit_path *path, const spec_frame *group)
{
    for (size_t j = group->index; j <= group->last; j++)
        if (path->constraints[j].kind == CULPRIT_SYM_SPEC) {
            spec_frame frame = frame_of(path, j);
            add_check(f, path, &frame);
        }
}

/* The operation's branches, outside the window, in the check's class. */
static bool is_soft_branch(slice *s, const spec_frame *frame, size_t j, uint32_t class)
{
    const culprit_path_constraint *c = &s->path->constraints[j];
    return j >= frame->operation_constraint && j < frame->window_constraint && c->kind != CULPRIT_SYM_SPEC &&
           constraint_class(s, j) == class;
}

/* Everything in the check's class: the operation's branches, then its
 * TAG definitions (gated by the branches that decide them, when the
 * options say which). */
static culprit_status add_statements(formula *f, slice *s, const spec_frame *frame, uint32_t class,
                                     culprit_error *err)
{
    const culprit_path *path = s->path;
    for (size_t j = 0; j < frame->window_constraint; j++) {
        if (!is_soft_branch(s, frame, j, class))
            continue;
        const culprit_path_constraint *c = &path->constraints[j];
        culprit_core_statement site = {CULPRIT_CORE_BRANCH, c->unit, c->block, 0, 0};
        if (!add_soft(f, &site, holds_as_taken(f, path, c)))
            return culprit_fail_memory(err);
    }
    for (uint32_t n = 1; n <= path->node_count; n++) {
        const culprit_path_node *node = &path->nodes[n];
        if (node->op != CULPRIT_SYM_TAG || !is_statement(frame, n) || class_of(s, n) != class)
            continue;
        culprit_core_statement site = {CULPRIT_CORE_STORE, node->b, node->c, (uint32_t)node->value, 0};
        if (!add_soft(f, &site, Z3_mk_eq(f->context, f->terms[n], f->terms[node->a])))
            return culprit_fail_memory(err);
    }
    return CULPRIT_OK;
}

/* The check's class, and which nodes the formula needs; 0 when no
 * statement of the operation reaches the check. */
static uint32_t spec_class(slice *s, const spec_frame *frame, size_t *instances)
{
    const culprit_path *path = s->path;
    uint32_t class = 0;
    memset(s->needed, 0, (path->node_count + 1) * sizeof *s->needed);
    *instances = 0;
    /* the group's checks: their conditions and windows (all of them lie
     * between the first window and the last check) */
    for (size_t j = frame->window_constraint; j <= frame->last; j++) {
        const culprit_path_constraint *c = &path->constraints[j];
        if (c->kind == CULPRIT_SYM_SPEC && j < frame->index)
            continue; /* a nested check's, inside the first window: its own */
        class = c->kind == CULPRIT_SYM_SPEC ? join(s->parent, class, class_of(s, c->expression))
                                            : join(s->parent, class, constraint_class(s, j));
        s->needed[c->expression] = true;
    }
    for (size_t j = 0; class && j < frame->window_constraint; j++)
        if (is_soft_branch(s, frame, j, class))
            s->needed[path->constraints[j].expression] = true, ++*instances;
    for (uint32_t n = 1; class && n <= path->node_count; n++)
        if (path->nodes[n].op == CULPRIT_SYM_TAG && is_statement(frame, n) && class_of(s, n) == class)
            s->needed[n] = true, ++*instances;
    s->needed[0] = false;
    mark_needed(s);
    return class;
}

/* ---- minimization ---- */

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

typedef struct minimizer {
    formula *f;
    double deadline; /* 0: none */
    bool cut_short;
} minimizer;

static Z3_lbool check(minimizer *m, size_t count, Z3_ast *assumed)
{
    if (m->deadline) {
        double left = m->deadline - now_ms();
        if (left < 1)
            return Z3_L_UNDEF;
        Z3_params params = Z3_mk_params(m->f->context);
        Z3_params_inc_ref(m->f->context, params);
        Z3_params_set_uint(m->f->context, params, Z3_mk_string_symbol(m->f->context, "timeout"),
                           (unsigned)left);
        Z3_solver_set_params(m->f->context, m->f->solver, params);
        Z3_params_dec_ref(m->f->context, params);
    }
    return Z3_solver_check_assumptions(m->f->context, m->f->solver, (unsigned)count, assumed);
}

/* Keeps in core[0..*count) only the selectors of the solver's last core. */
static void shrink_to_core(minimizer *m, Z3_ast *core, size_t *count)
{
    Z3_context context = m->f->context;
    Z3_ast_vector named = Z3_solver_get_unsat_core(context, m->f->solver);
    Z3_ast_vector_inc_ref(context, named);
    unsigned size = Z3_ast_vector_size(context, named);
    size_t kept = 0;
    for (size_t i = 0; i < *count; i++) {
        bool in = false;
        for (unsigned k = 0; k < size && !in; k++)
            in = Z3_is_eq_ast(context, Z3_ast_vector_get(context, named, k), core[i]);
        if (in)
            core[kept++] = core[i];
    }
    Z3_ast_vector_dec_ref(context, named);
    *count = kept;
}

/* Deletion: try each selector out; gone for good when the rest is unsat. */
static void minimize(minimizer *m, Z3_ast *core, size_t *count)
{
    Z3_ast *trial = malloc((*count ? *count : 1) * sizeof *trial);
    for (size_t i = 0; trial && i < *count;) {
        size_t n = 0;
        for (size_t k = 0; k < *count; k++)
            if (k != i)
                trial[n++] = core[k];
        Z3_lbool answer = check(m, n, trial);
        if (answer == Z3_L_UNDEF) {
            m->cut_short = true;
            break;
        }
        if (answer == Z3_L_FALSE) {
            memcpy(core, trial, n * sizeof *core);
            *count = n;
            shrink_to_core(m, core, count); /* what precedes i stays: a subset is unsat */
            if (i > *count)
                i = *count;
        } else {
            i++;
        }
    }
    if (!trial)
        m->cut_short = true;
    free(trial);
}

/* ---- one check's core, merged into the result ---- */

static culprit_status merge(culprit_core *core, const site_table *sites, Z3_context context, Z3_ast *chosen,
                            size_t chosen_count, culprit_error *err)
{
    for (size_t i = 0; i < sites->count; i++) {
        bool in = false;
        for (size_t k = 0; k < chosen_count && !in; k++)
            in = Z3_is_eq_ast(context, chosen[k], sites->keys[i].selector);
        if (!in)
            continue;
        size_t at = 0;
        while (at < core->count && !same_site(&core->statements[at], &sites->keys[i].statement))
            at++;
        if (at == core->count) {
            culprit_core_statement *grown = realloc(core->statements, (core->count + 1) * sizeof *grown);
            if (!grown)
                return culprit_fail_memory(err);
            core->statements = grown;
            core->statements[core->count] = sites->keys[i].statement;
            core->statements[core->count++].instances = 0;
        }
        core->statements[at].instances += sites->keys[i].statement.instances;
    }
    return CULPRIT_OK;
}

/* Whether relaxing selector alone (every other statement as it ran) lets
 * the checks hold (Z3_L_TRUE): a correction of one statement (BugAssist's
 * MCS of size one).  Z3_L_UNDEF: the time limit. */
static Z3_lbool corrects_alone(formula *f, minimizer *m, Z3_ast selector, Z3_ast *others)
{
    size_t n = 0;
    for (size_t i = 0; i < f->sites.count; i++)
        if (!Z3_is_eq_ast(f->context, f->sites.keys[i].selector, selector))
            others[n++] = f->sites.keys[i].selector;
    return check(m, n, others);
}

/* Of the minimal core in core[0..*count), the statements every minimal
 * core holds, when there are any: those whose relaxation alone lets the
 * checks hold (a statement in every core is one no explanation of the
 * violation can do without; relaxing it alone must then mend the run, and
 * one that does is in every core).  A formula with one core keeps it
 * whole; one with several - the checks after a violation make them:
 * ds-list's `size = 0` mends the invariant with either the size or the
 * old size the postcondition reads, but only the size mends both - keeps
 * the statements they share.  None shared (two faults that each must be
 * mended): the minimal core found stays. */
static void keep_necessary(formula *f, minimizer *m, Z3_ast *core, size_t *count)
{
    Z3_ast *others = malloc((f->sites.count ? f->sites.count : 1) * sizeof *others);
    bool *needed = calloc(*count ? *count : 1, sizeof *needed);
    size_t kept = 0;
    bool unknown = m->cut_short; /* out of time: the minimal core found stays */
    for (size_t i = 0; others && needed && i < *count && !unknown; i++) {
        Z3_lbool answer = corrects_alone(f, m, core[i], others);
        unknown = answer == Z3_L_UNDEF;
        kept += needed[i] = answer == Z3_L_TRUE;
    }
    if (kept > 0 && kept < *count && !unknown) {
        size_t k = 0;
        for (size_t i = 0; i < *count; i++)
            if (needed[i])
                core[k++] = core[i];
        *count = k;
    }
    free(others);
    free(needed);
}

static culprit_status solve_core(formula *f, minimizer *m, culprit_core *core, culprit_error *err)
{
    size_t count = f->sites.count;
    Z3_ast *chosen = malloc((count ? count : 1) * sizeof *chosen);
    if (!chosen)
        return culprit_fail_memory(err);
    for (size_t i = 0; i < count; i++)
        chosen[i] = f->sites.keys[i].selector;
    Z3_lbool answer = check(m, count, chosen);
    culprit_status status = CULPRIT_OK;
    if (answer == Z3_L_TRUE)
        status = culprit_fail(err, CULPRIT_ERROR_INPUT,
                              "the trace formula is satisfiable: the recorded statements do not force the "
                              "violation (the trace is incomplete where values were concretized or "
                              "constraints dropped; see the run's statistics)");
    else if (answer == Z3_L_UNDEF)
        status = culprit_fail(err, CULPRIT_ERROR_INPUT,
                              "the solver found no core within the time limit (%zu statements, %zu "
                              "instances): raise it or record a shorter failing run",
                              f->sites.count, f->instances);
    if (status == CULPRIT_OK) {
        shrink_to_core(m, chosen, &count);
        minimize(m, chosen, &count);
        keep_necessary(f, m, chosen, &count);
        status = merge(core, &f->sites, f->context, chosen, count, err);
    }
    free(chosen);
    return status;
}

static culprit_status core_of_spec(slice *s, const culprit_input *input, const culprit_core_options *options,
                                   const spec_frame *frame, minimizer *m, culprit_core *core,
                                   culprit_error *err)
{
    size_t instances;
    uint32_t class = spec_class(s, frame, &instances);
    size_t cap = options && options->max_instances ? options->max_instances : DEFAULT_MAX_INSTANCES;
    if (instances > cap)
        return culprit_fail(err, CULPRIT_ERROR_INPUT,
                            "the sliced trace has %zu statement instances, over the cap of %zu: record a "
                            "shorter failing run or raise the cap",
                            instances, cap);
    Z3_config config = Z3_mk_config();
    formula f = {.context = Z3_mk_context(config), .options = options};
    Z3_del_config(config);
    Z3_set_error_handler(f.context, ignore_errors);
    f.solver = Z3_mk_solver(f.context);
    Z3_solver_inc_ref(f.context, f.solver);
    f.terms = calloc(s->path->node_count + 1, sizeof *f.terms);
    culprit_status status = f.terms ? make_terms(&f, s, frame, input, err) : culprit_fail_memory(err);
    if (status == CULPRIT_OK && class)
        status = add_statements(&f, s, frame, class, err);
    if (status == CULPRIT_OK) {
        add_spec(&f, s->path, frame);
        m->f = &f;
        status = solve_core(&f, m, core, err);
        core->formula_statements += f.sites.count;
        core->formula_instances += f.instances;
    }
    free(f.sites.keys);
    free(f.terms);
    Z3_solver_dec_ref(f.context, f.solver);
    Z3_del_context(f.context);
    return status;
}

static size_t count_trace_instances(const culprit_path *path)
{
    size_t count = 0;
    for (size_t n = 1; n <= path->node_count; n++)
        count += path->nodes[n].op == CULPRIT_SYM_TAG;
    for (size_t j = 0; j < path->constraint_count; j++)
        count += path->constraints[j].kind != CULPRIT_SYM_SPEC;
    return count;
}

culprit_status culprit_trace_core(const culprit_path *path, const culprit_input *input,
                                  const culprit_core_options *options, culprit_core *core, culprit_error *err)
{
    memset(core, 0, sizeof *core);
    core->minimal = true;
    bool violated = false;
    for (size_t j = 0; j < path->constraint_count; j++)
        violated |= path->constraints[j].kind == CULPRIT_SYM_SPEC;
    if (!violated)
        return culprit_fail(err, CULPRIT_ERROR_INPUT,
                            "the run violated no specification it recorded: a core needs a failing run of "
                            "a program with checks (assert, culprit/contract.h) recorded in trace mode");
    culprit_status loaded = culprit_z3_load(err);
    if (loaded != CULPRIT_OK)
        return loaded;
    core->trace_instances = count_trace_instances(path);
    slice s = {.path = path,
               .parent = calloc(path->node_count + path->constraint_count + 1, sizeof *s.parent),
               .tag_of = calloc(path->node_count + 1, sizeof *s.tag_of),
               .needed = calloc(path->node_count + 1, sizeof *s.needed)};
    culprit_status status = s.parent && s.tag_of && s.needed ? CULPRIT_OK : culprit_fail_memory(err);
    if (status == CULPRIT_OK)
        classify(&s);
    if (status == CULPRIT_OK && !join_controlled(&s, options))
        status = culprit_fail_memory(err);
    minimizer m = {.deadline = options && options->timeout_ms ? now_ms() + options->timeout_ms : 0};
    for (size_t j = 0; status == CULPRIT_OK && j < path->constraint_count; j++)
        if (path->constraints[j].kind == CULPRIT_SYM_SPEC) {
            spec_frame group = group_of(path, j);
            status = core_of_spec(&s, input, options, &group, &m, core, err);
            core->specs++;
            j = group.last;
        }
    core->minimal = !m.cut_short;
    free(s.parent);
    free(s.tag_of);
    free(s.needed);
    if (status != CULPRIT_OK)
        culprit_core_free(core);
    return status;
}

void culprit_core_free(culprit_core *core)
{
    free(core->statements);
    core->statements = NULL;
    core->count = 0;
}

culprit_status culprit_path_add_violation(culprit_path *path, size_t window_start, culprit_error *err)
{
    if (window_start > path->constraint_count)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "a violation's window past the path's constraints");
    culprit_path_constraint *grown =
        realloc(path->constraints, (path->constraint_count + 1) * sizeof *path->constraints);
    if (!grown)
        return culprit_fail_memory(err);
    path->constraints = grown;
    path->constraints[path->constraint_count++] =
        (culprit_path_constraint){.kind = CULPRIT_SYM_SPEC,
                                  .expression = 0,
                                  .unit = (uint32_t)window_start,
                                  .block = (uint32_t)path->node_count + 1, /* no node is the check's own */
                                  .value = 1}; /* the operation: constraint 0, node 1 */
    return CULPRIT_OK;
}
