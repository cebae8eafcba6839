/*
 * web_solve.c - a value for one input field that makes one comparison of a
 * page go the other way while the page's earlier comparisons on the same
 * field keep their outcomes (culprit/web.h; docs/web.md "Input
 * constraints"): the path prefix of concolic testing, on one field, solved
 * with Z3's strings and integers.  Negating a comparison alone
 * (web_inputs.c) picks a value from the comparison's own constant, which an
 * earlier comparison may refuse (`$n > 10` checked, then `$n < 12`: 11 is
 * the only way in); here the earlier ones are kept.
 *
 * The field is a string s of printable ASCII, at most 64 bytes; where it is
 * compared with an integer (`int` derivation, or an order comparison with an
 * integer constant) it is also the decimal text of an integer n.  Each
 * comparison is read as PHP 8 reads it on those values: ==, !=, === with the
 * constant's text (or its integer), <, <=, >, >= on n or, with a constant
 * that is not an integer, byte by byte (str.<), is_numeric and ctype_digit
 * as regular languages, empty() as "" or "0", switch, match and in_array as
 * one of the cases.  Derivations: trim and lower are taken as the identity
 * (the value made is already trimmed; strtolower is not modelled, so a
 * comparison with an upper-case constant after lower may be unsat);
 * isset, preg_match and comparisons of unknown outcome are left out.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "concolic/z3_library.h"
#include "culprit/web.h"

enum { MAX_LENGTH = 64 };

typedef struct field_terms {
    Z3_context context;
    Z3_ast s, n;
    bool numeric; /* s is n's decimal text */
} field_terms;

static bool integer_constant(const char *text, long long *value)
{
    char *end;
    errno = 0;
    *value = strtoll(text, &end, 10);
    return *text && !*end && !errno && (text[0] != '0' || !text[1]) && (text[0] != '-' || text[1] != '0');
}

static Z3_ast integer(const field_terms *t, long long value)
{
    return Z3_mk_int64(t->context, value, Z3_mk_int_sort(t->context));
}

static Z3_ast text(const field_terms *t, const char *value)
{
    return Z3_mk_string(t->context, value);
}

/* s equals the constant: its integer when the field is numeric. */
static Z3_ast equals(const field_terms *t, const char *constant)
{
    long long value;
    if (t->numeric && integer_constant(constant, &value))
        return Z3_mk_eq(t->context, t->n, integer(t, value));
    return Z3_mk_eq(t->context, t->s, text(t, constant));
}

static Z3_ast one_of(const field_terms *t, const culprit_web_constraint *c)
{
    Z3_ast cases[32];
    unsigned count = 0;
    for (size_t i = 0; i < c->constant_count && count < 32; i++)
        cases[count++] = equals(t, c->constants[i]);
    return count ? Z3_mk_or(t->context, count, cases) : Z3_mk_false(t->context);
}

/* The comparison field OP constant, the field on the left. */
static Z3_ast order(const field_terms *t, const char *kind, const char *constant)
{
    Z3_context z = t->context;
    long long value;
    if (t->numeric && integer_constant(constant, &value)) {
        Z3_ast k = integer(t, value);
        return !strcmp(kind, "lt")   ? Z3_mk_lt(z, t->n, k)
               : !strcmp(kind, "le") ? Z3_mk_le(z, t->n, k)
               : !strcmp(kind, "gt") ? Z3_mk_gt(z, t->n, k)
                                     : Z3_mk_ge(z, t->n, k);
    }
    Z3_ast k = text(t, constant);
    return !strcmp(kind, "lt")   ? Z3_mk_str_lt(z, t->s, k)
           : !strcmp(kind, "le") ? Z3_mk_str_le(z, t->s, k)
           : !strcmp(kind, "gt") ? Z3_mk_str_lt(z, k, t->s)
                                 : Z3_mk_str_le(z, k, t->s);
}

static Z3_ast digits(const field_terms *t)
{
    Z3_context z = t->context;
    return Z3_mk_seq_in_re(z, t->s, Z3_mk_re_plus(z, Z3_mk_re_range(z, text(t, "0"), text(t, "9"))));
}

/* What the comparison says when it holds; NULL for one left out. */
/* A strlen() of the field against an integer constant ("len"). */
static Z3_ast length_holds(const field_terms *t, const char *kind, const char *constant)
{
    Z3_context z = t->context;
    long long k;
    if (!constant || !integer_constant(constant, &k))
        return NULL;
    Z3_ast length = Z3_mk_seq_length(z, t->s), bound = integer(t, k);
    if (!strcmp(kind, "eq"))
        return Z3_mk_eq(z, length, bound);
    if (!strcmp(kind, "ne"))
        return Z3_mk_not(z, Z3_mk_eq(z, length, bound));
    if (!strcmp(kind, "lt"))
        return Z3_mk_lt(z, length, bound);
    if (!strcmp(kind, "le"))
        return Z3_mk_le(z, length, bound);
    if (!strcmp(kind, "gt"))
        return Z3_mk_gt(z, length, bound);
    if (!strcmp(kind, "ge"))
        return Z3_mk_ge(z, length, bound);
    return NULL;
}

static Z3_ast holds(const field_terms *t, const culprit_web_constraint *c)
{
    Z3_context z = t->context;
    const char *kind = c->kind, *constant = c->constant_count ? c->constants[0] : NULL;
    if (!strcmp(c->how, "len"))
        return length_holds(t, kind, constant);
    if ((!strcmp(kind, "eq") || !strcmp(kind, "ieq")) && constant)
        return equals(t, constant);
    if (!strcmp(kind, "ne") && constant)
        return Z3_mk_not(z, equals(t, constant));
    if ((!strcmp(kind, "lt") || !strcmp(kind, "le") || !strcmp(kind, "gt") || !strcmp(kind, "ge")) &&
        constant)
        return order(t, kind, constant);
    if (!strcmp(kind, "switch") || !strcmp(kind, "in"))
        return one_of(t, c);
    if (!strcmp(kind, "digits"))
        return digits(t);
    if (!strcmp(kind, "numeric")) {
        Z3_ast minus = Z3_mk_seq_in_re(
            z, t->s,
            Z3_mk_re_concat(z, 2,
                            (Z3_ast[]){Z3_mk_seq_to_re(z, text(t, "-")),
                                       Z3_mk_re_plus(z, Z3_mk_re_range(z, text(t, "0"), text(t, "9")))}));
        return Z3_mk_or(z, 2, (Z3_ast[]){digits(t), minus});
    }
    if (!strcmp(kind, "empty"))
        return Z3_mk_or(z, 2, (Z3_ast[]){Z3_mk_eq(z, t->s, text(t, "")), Z3_mk_eq(z, t->s, text(t, "0"))});
    return NULL;
}

static bool same_field(const culprit_web_constraint *a, const culprit_web_constraint *b)
{
    return strcmp(a->field, b->field) == 0 && strcmp(a->source, b->source) == 0;
}

/* Whether the field is compared as an integer anywhere in constraints[0..index]. */
static bool compared_as_integer(const culprit_web_constraints *constraints, size_t index)
{
    const culprit_web_constraint *target = &constraints->items[index];
    for (size_t i = 0; i <= index; i++) {
        const culprit_web_constraint *c = &constraints->items[i];
        long long ignored;
        bool ordered = !strcmp(c->kind, "lt") || !strcmp(c->kind, "le") || !strcmp(c->kind, "gt") ||
                       !strcmp(c->kind, "ge");
        if (same_field(c, target) && strcmp(c->how, "len") != 0 &&
            (!strcmp(c->how, "int") ||
             (ordered && c->constant_count && integer_constant(c->constants[0], &ignored))))
            return true;
    }
    return false;
}

/* s printable, short, and (numeric) the decimal text of n. */
static void bound_field(Z3_solver solver, const field_terms *t)
{
    Z3_context z = t->context;
    Z3_ast printable = Z3_mk_re_star(z, Z3_mk_re_range(z, text(t, " "), text(t, "~")));
    Z3_solver_assert(z, solver, Z3_mk_seq_in_re(z, t->s, printable));
    Z3_solver_assert(z, solver, Z3_mk_le(z, Z3_mk_seq_length(z, t->s), integer(t, MAX_LENGTH)));
    if (!t->numeric)
        return;
    Z3_ast zero = integer(t, 0), bound = integer(t, 1000000000);
    Z3_ast positive = Z3_mk_int_to_str(z, t->n);
    Z3_ast negative =
        Z3_mk_seq_concat(z, 2, (Z3_ast[]){text(t, "-"), Z3_mk_int_to_str(z, Z3_mk_unary_minus(z, t->n))});
    Z3_solver_assert(z, solver, Z3_mk_eq(z, t->s, Z3_mk_ite(z, Z3_mk_ge(z, t->n, zero), positive, negative)));
    Z3_solver_assert(z, solver, Z3_mk_lt(z, t->n, bound));
    Z3_solver_assert(z, solver, Z3_mk_gt(z, t->n, Z3_mk_unary_minus(z, bound)));
}

/* Asserts the earlier comparisons on the field as they went and the
 * index-th the other way; *earlier counts the earlier ones kept. */
static bool assert_path(Z3_solver solver, const field_terms *t, const culprit_web_constraints *constraints,
                        size_t index, size_t *earlier)
{
    const culprit_web_constraint *target = &constraints->items[index];
    *earlier = 0;
    for (size_t i = 0; i < index; i++) {
        const culprit_web_constraint *c = &constraints->items[i];
        Z3_ast condition = same_field(c, target) && c->outcome >= 0 ? holds(t, c) : NULL;
        if (!condition)
            continue;
        Z3_solver_assert(t->context, solver, c->outcome ? condition : Z3_mk_not(t->context, condition));
        (*earlier)++;
    }
    Z3_ast condition = target->outcome >= 0 ? holds(t, target) : NULL;
    if (condition)
        Z3_solver_assert(t->context, solver, target->outcome ? Z3_mk_not(t->context, condition) : condition);
    return condition != NULL;
}

static Z3_solver make_solver(Z3_context z, unsigned timeout_ms)
{
    Z3_solver solver = Z3_mk_solver(z);
    Z3_solver_inc_ref(z, solver);
    Z3_params params = Z3_mk_params(z);
    Z3_params_inc_ref(z, params);
    if (timeout_ms)
        Z3_params_set_uint(z, params, Z3_mk_string_symbol(z, "timeout"), timeout_ms);
    Z3_solver_set_params(z, solver, params);
    Z3_params_dec_ref(z, params);
    return solver;
}

/* The model's value of s, copied; NULL when it is not a plain string. */
static char *model_value(Z3_context z, Z3_solver solver, Z3_ast s)
{
    Z3_model model = Z3_solver_get_model(z, solver);
    Z3_model_inc_ref(z, model);
    Z3_ast value = NULL;
    char *copy = NULL;
    if (Z3_model_eval(z, model, s, true, &value) && Z3_is_string(z, value)) {
        const char *bytes = Z3_get_string(z, value);
        /* printable ASCII was asserted; an escape (\u{..}) means otherwise */
        if (bytes && !strchr(bytes, '\\'))
            copy = strdup(bytes);
    }
    Z3_model_dec_ref(z, model);
    return copy;
}

/* Whether a comparison before index, of known outcome, is on the same
 * field: else there is no path prefix to keep, and no Z3 context to make
 * (a page records up to 512 comparisons). */
static bool has_prefix(const culprit_web_constraints *constraints, size_t index)
{
    for (size_t i = 0; i < index; i++)
        if (constraints->items[i].outcome >= 0 &&
            same_field(&constraints->items[i], &constraints->items[index]))
            return true;
    return false;
}

culprit_status culprit_web_solve_negation(const culprit_web_constraints *constraints, size_t index,
                                          unsigned timeout_ms, char **value, culprit_error *err)
{
    *value = NULL;
    if (index >= constraints->count)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "no comparison %zu to negate", index);
    if (!has_prefix(constraints, index) || constraints->items[index].outcome < 0)
        return CULPRIT_OK;
    culprit_status loaded = culprit_z3_load(err);
    if (loaded != CULPRIT_OK)
        return loaded;
    Z3_config config = Z3_mk_config();
    Z3_context z = Z3_mk_context(config);
    Z3_del_config(config);
    field_terms t = {.context = z,
                     .s = Z3_mk_const(z, Z3_mk_string_symbol(z, "s"), Z3_mk_string_sort(z)),
                     .n = Z3_mk_const(z, Z3_mk_string_symbol(z, "n"), Z3_mk_int_sort(z)),
                     .numeric = compared_as_integer(constraints, index)};
    Z3_solver solver = make_solver(z, timeout_ms);
    bound_field(solver, &t);
    size_t earlier = 0;
    /* alone, the comparison's own negation (web_inputs.c) does as well */
    if (assert_path(solver, &t, constraints, index, &earlier) && earlier > 0 &&
        Z3_solver_check(z, solver) == Z3_L_TRUE)
        *value = model_value(z, solver, t.s);
    Z3_solver_dec_ref(z, solver);
    Z3_del_context(z);
    return CULPRIT_OK;
}
