/*
 * php_returns.c - return classes of PHP calls (docs/php.md, "Return
 * classes"; TECHNIQUES.md §2): for every call whose result is used of a
 * function that may be the program's, how often the result fell in each of
 * PHP's classes (null, false, true, negative, zero, positive, empty string,
 * non-empty string, empty array, non-empty array, object), as `return`
 * records of the map (docs/collector.md §2) and counters of the dump.
 *
 * Sites are the DO_UCALL, DO_FCALL_BY_NAME and DO_FCALL opcodes with a used
 * result (DO_ICALL calls PHP's own functions only).  The result is read
 * when the next opcode of the caller runs, from the call's result slot:
 * only the calling frame runs that opcode, and the value is there (the
 * opcode after a call with a used result consumes it, so no jump lands
 * there).  DO_FCALL_BY_NAME and DO_FCALL may call PHP's own functions and
 * methods too (a namespaced strlen, PDO::query): at the call opcode the
 * callee is known, and an internal one marks the site to be skipped (one
 * mark for the process: no PHP code runs inside most internal calls, and
 * one that calls back into PHP code that itself calls an internal function
 * loses the mark, so that result is counted).
 */
#include "php/php_internal.h"

#include <stdlib.h>
#include <string.h>

#include "cc/map_text.h"

static const char *const class_names[PHP_RETURN_CLASSES] = {
    "null",         "false",  "true",        "negative", "zero",  "positive",
    "empty-string", "string", "empty-array", "array",    "object"};

/* The call the VM is about to make to an internal function. */
static struct {
    const zend_execute_data *frame;
    uint32_t index;
} internal_call = {NULL, UINT32_MAX};

static bool is_site(const zend_op *op)
{
    return (op->opcode == ZEND_DO_UCALL || op->opcode == ZEND_DO_FCALL_BY_NAME ||
            op->opcode == ZEND_DO_FCALL) &&
           op->result_type != IS_UNUSED;
}

static bool opens_call(zend_uchar opcode)
{
    switch (opcode) {
    case ZEND_INIT_FCALL:
    case ZEND_INIT_FCALL_BY_NAME:
    case ZEND_INIT_NS_FCALL_BY_NAME:
    case ZEND_INIT_METHOD_CALL:
    case ZEND_INIT_STATIC_METHOD_CALL:
    case ZEND_INIT_DYNAMIC_CALL:
    case ZEND_INIT_USER_CALL:
    case ZEND_NEW:
        return true;
    default:
        return false;
    }
}

static bool closes_call(zend_uchar opcode)
{
    return opcode == ZEND_DO_FCALL || opcode == ZEND_DO_ICALL || opcode == ZEND_DO_UCALL ||
           opcode == ZEND_DO_FCALL_BY_NAME;
}

/* The callee's name from the opcode that opened the call; "*" when the
 * code names it at run time ($f(), $obj->$m()). */
static char *callee_name(const zend_op *init)
{
    const zval *name = init && init->op2_type == IS_CONST ? RT_CONSTANT(init, init->op2) : NULL;
    if (!name || Z_TYPE_P(name) != IS_STRING)
        return strdup("*");
    const char *prefix = init->opcode == ZEND_INIT_METHOD_CALL ? "->" : "";
    const zval *class_name = init->opcode == ZEND_INIT_STATIC_METHOD_CALL && init->op1_type == IS_CONST
                                 ? RT_CONSTANT(init, init->op1)
                                 : NULL;
    if (init->opcode == ZEND_INIT_STATIC_METHOD_CALL)
        prefix = "::";
    size_t size =
        Z_STRLEN_P(name) + 3 + (class_name && Z_TYPE_P(class_name) == IS_STRING ? Z_STRLEN_P(class_name) : 0);
    char *text = malloc(size);
    if (text)
        snprintf(text, size, "%s%s%s",
                 class_name && Z_TYPE_P(class_name) == IS_STRING ? Z_STRVAL_P(class_name) : "", prefix,
                 Z_STRVAL_P(name));
    return text;
}

/* Calls nest in opcode order: a stack of the opcodes that opened them. */
static culprit_status find_in_function(php_unit *unit, php_function *function, const zend_op_array *op_array,
                                       uint32_t *capacity, culprit_error *err)
{
    const zend_op *open[64];
    uint32_t depth = 0, line = 0, column = 0;
    for (uint32_t i = 0; i < op_array->last; i++) {
        const zend_op *op = &op_array->opcodes[i];
        if (opens_call(op->opcode)) {
            if (depth < sizeof open / sizeof *open)
                open[depth] = op;
            depth++;
            continue;
        }
        if (!closes_call(op->opcode))
            continue;
        const zend_op *init = depth > 0 && depth <= sizeof open / sizeof *open ? open[depth - 1] : NULL;
        depth -= depth > 0;
        if (!is_site(op))
            continue;
        if (unit->return_count == *capacity) {
            uint32_t grown = *capacity ? 2 * *capacity : 16;
            php_return_site *sites = realloc(unit->returns, grown * sizeof *sites);
            if (!sites)
                return culprit_fail_memory(err);
            unit->returns = sites;
            *capacity = grown;
        }
        /* columns number the sites of a line from 1, as branches do */
        column = op->lineno == line ? column + 1 : 1;
        line = op->lineno;
        php_return_site *site = &unit->returns[unit->return_count];
        *site =
            (php_return_site){.function = function,
                              .op = i,
                              .line = op->lineno,
                              .column = column,
                              .first_counter = unit->counter_count + PHP_RETURN_CLASSES * unit->return_count,
                              .callee = callee_name(init)};
        if (!site->callee)
            return culprit_fail_memory(err);
        function->op_return[i] = unit->return_count++;
    }
    return CULPRIT_OK;
}

culprit_status php_returns_find(php_unit *unit, zend_op_array *const *arrays, culprit_error *err)
{
    unit->op_return = malloc((unit->op_total + 1) * sizeof *unit->op_return);
    if (!unit->op_return)
        return culprit_fail_memory(err);
    memset(unit->op_return, 0xff, (unit->op_total + 1) * sizeof *unit->op_return); /* PHP_NO_RETURN */
    uint32_t base = 0, capacity = 0;
    for (uint32_t f = 0; f < unit->function_count; f++) {
        unit->functions[f].op_return = unit->op_return + base;
        base += unit->functions[f].op_count;
    }
    for (uint32_t f = 0; f < unit->function_count; f++) {
        culprit_status status = find_in_function(unit, &unit->functions[f], arrays[f], &capacity, err);
        if (status != CULPRIT_OK)
            return status;
    }
    unit->return_counts =
        calloc((size_t)PHP_RETURN_CLASSES * unit->return_count + 1, sizeof *unit->return_counts);
    if (!unit->return_counts)
        return culprit_fail_memory(err);
    unit->counter_count += PHP_RETURN_CLASSES * unit->return_count;
    return CULPRIT_OK;
}

culprit_status php_returns_add_records(const php_unit *unit, cc_map *map, uint32_t file, culprit_error *err)
{
    culprit_status status = CULPRIT_OK;
    for (uint32_t k = 0; k < unit->return_count && status == CULPRIT_OK; k++) {
        const php_return_site *site = &unit->returns[k];
        cc_map_location at = {.file = file, .line = site->line, .column = site->column};
        for (uint32_t c = 0; c < PHP_RETURN_CLASSES && status == CULPRIT_OK; c++)
            status = cc_map_add_return(map, site->first_counter + c, site->function->op_block[site->op], at,
                                       class_names[c], site->callee, err);
    }
    return status;
}

void php_returns_call(const php_function *function, const zend_execute_data *execute_data, uint32_t index)
{
    const zend_execute_data *call = execute_data->call;
    if (call && call->func && !ZEND_USER_CODE(call->func->type)) {
        internal_call.frame = execute_data;
        internal_call.index = index;
    }
}

static int classify(const zval *value)
{
    ZVAL_DEREF(value);
    switch (Z_TYPE_P(value)) {
    case IS_UNDEF:
    case IS_NULL:
        return 0;
    case IS_FALSE:
        return 1;
    case IS_TRUE:
        return 2;
    case IS_LONG:
        return Z_LVAL_P(value) < 0 ? 3 : Z_LVAL_P(value) == 0 ? 4 : 5;
    case IS_DOUBLE:
        return Z_DVAL_P(value) < 0 ? 3 : Z_DVAL_P(value) == 0 ? 4 : Z_DVAL_P(value) > 0 ? 5 : -1; /* NaN */
    case IS_STRING:
        return Z_STRLEN_P(value) == 0 ? 6 : 7;
    case IS_ARRAY:
        return zend_hash_num_elements(Z_ARRVAL_P(value)) == 0 ? 8 : 9;
    case IS_OBJECT:
        return 10;
    default:
        return -1; /* a resource */
    }
}

void php_returns_count(const php_function *function, zend_execute_data *execute_data, uint32_t index)
{
    uint32_t call = index - 1;
    if (internal_call.frame == execute_data && internal_call.index == call) {
        internal_call.frame = NULL;
        return;
    }
    const zend_op *op = &execute_data->func->op_array.opcodes[call];
    int class = classify(EX_VAR(op->result.var));
    if (class >= 0)
        function->unit
            ->return_counts[(size_t)PHP_RETURN_CLASSES * function->op_return[call] + (size_t) class]++;
}

void php_returns_free(php_unit *unit)
{
    for (uint32_t k = 0; k < unit->return_count; k++)
        free(unit->returns[k].callee);
    free(unit->returns);
    free(unit->op_return);
    free(unit->return_counts);
}
