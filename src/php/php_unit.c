/*
 * php_unit.c - one compiled PHP file -> one unit: its program map
 * (docs/collector.md §2, written with culprit-cc's map builder,
 * src/cc/map_text.c) and the counters the opcode handler fills
 * (php_module.c).
 *
 * A file's unit holds every op array compiled from it: the top-level code,
 * its functions, the methods of its classes, and the closures and
 * conditional declarations nested in any of them (dynamic_func_defs), in a
 * fixed order so that the same file always gives the same map and hash.
 * The whole file is compiled at once, so the map lists every executable
 * line, run or not: EXAM's denominator.  Blocks come from php_blocks.c;
 * branches are the conditional jumps, each with a counter per outcome.  In
 * lines mode (CULPRIT_PHP_COVERAGE=lines) the map is a `lines` map, blocks
 * and lines only, and php_probes.c watches the blocks' first opcodes.
 */
#include "php/php_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc/map_text.h"
#include "core/grow.h"
#include "php/php_blocks.h"

/* The op arrays of the unit being built, in map order. */
typedef struct op_array_list {
    zend_op_array **items;
    size_t count, capacity;
} op_array_list;

static bool same_file(const zend_op_array *op_array, const zend_string *filename)
{
    return op_array->type == ZEND_USER_FUNCTION && op_array->filename &&
           zend_string_equals(op_array->filename, (zend_string *)filename);
}

static bool list_add(op_array_list *list, zend_op_array *op_array)
{
    for (size_t i = 0; i < list->count; i++)
        if (list->items[i] == op_array || list->items[i]->opcodes == op_array->opcodes)
            return true;
    if (!CULPRIT_GROW(list->items, list->capacity, list->count + 1, 16))
        return false;
    list->items[list->count++] = op_array;
    return true;
}

/* The functions and class methods the compilation added, the most recent
 * entries of the engine's tables. */
static bool collect_declared(op_array_list *list, const zend_string *filename, uint32_t functions_before,
                             uint32_t classes_before)
{
    bool ok = true;
    uint32_t index = 0;
    zend_function *function;
    ZEND_HASH_FOREACH_PTR(CG(function_table), function)
    {
        if (index++ >= functions_before && same_file(&function->op_array, filename))
            ok = ok && list_add(list, &function->op_array);
    }
    ZEND_HASH_FOREACH_END();
    index = 0;
    zend_class_entry *class_entry;
    ZEND_HASH_FOREACH_PTR(CG(class_table), class_entry)
    {
        if (index++ < classes_before || class_entry->type != ZEND_USER_CLASS)
            continue;
        ZEND_HASH_FOREACH_PTR(&class_entry->function_table, function)
        {
            /* abstract methods have no body to run */
            if (function->common.scope == class_entry && !(function->common.fn_flags & ZEND_ACC_ABSTRACT) &&
                same_file(&function->op_array, filename))
                ok = ok && list_add(list, &function->op_array);
        }
        ZEND_HASH_FOREACH_END();
    }
    ZEND_HASH_FOREACH_END();
    return ok;
}

/* Closures and conditional declarations, breadth first after their parents. */
static bool collect_nested(op_array_list *list)
{
    for (size_t i = 0; i < list->count; i++) {
        const zend_op_array *parent = list->items[i];
        for (uint32_t d = 0; d < parent->num_dynamic_func_defs; d++)
            if (!list_add(list, parent->dynamic_func_defs[d]))
                return false;
    }
    return true;
}

static void function_name(const zend_op_array *op_array, char *name, size_t size)
{
    if (!op_array->function_name)
        snprintf(name, size, "{main}");
    else if (op_array->scope && !(op_array->fn_flags & ZEND_ACC_CLOSURE))
        snprintf(name, size, "%s::%s", ZSTR_VAL(op_array->scope->name), ZSTR_VAL(op_array->function_name));
    else
        snprintf(name, size, "%s", ZSTR_VAL(op_array->function_name));
}

/* ---- opcodes -> shapes ------------------------------------------------- */

static uint32_t op_index(const zend_op_array *op_array, const zend_op *op)
{
    return (uint32_t)(op - op_array->opcodes);
}

static void mark_target(php_op_shape *shapes, const zend_op_array *op_array, const zend_op *target)
{
    uint32_t index = op_index(op_array, target);
    if (index < op_array->last)
        shapes[index].flags |= PHP_OP_TARGET;
}

static void mark_jump_table(php_op_shape *shapes, const zend_op_array *op_array, const zend_op *op)
{
    zval *table = RT_CONSTANT(op, op->op2), *entry;
    if (Z_TYPE_P(table) == IS_ARRAY) {
        ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(table), entry)
        {
            if (Z_TYPE_P(entry) == IS_LONG)
                mark_target(shapes, op_array, ZEND_OFFSET_TO_OPLINE(op, Z_LVAL_P(entry)));
        }
        ZEND_HASH_FOREACH_END();
    }
    mark_target(shapes, op_array, ZEND_OFFSET_TO_OPLINE(op, op->extended_value));
}

/* Marks where op jumps to and returns its own flags. */
static uint32_t jump_flags(php_op_shape *shapes, const zend_op_array *op_array, const zend_op *op)
{
    switch (op->opcode) {
    case ZEND_JMP:
    case ZEND_FAST_CALL:
        mark_target(shapes, op_array, OP_JMP_ADDR(op, op->op1));
        return PHP_OP_ENDS_BLOCK;
    case ZEND_JMPZ:
    case ZEND_JMPNZ:
    case ZEND_JMPZ_EX:
    case ZEND_JMPNZ_EX:
        mark_target(shapes, op_array, OP_JMP_ADDR(op, op->op2));
        return PHP_OP_ENDS_BLOCK | PHP_OP_STICKY;
    case ZEND_JMP_SET:
    case ZEND_COALESCE:
    case ZEND_JMP_NULL:
    case ZEND_ASSERT_CHECK:
    case ZEND_FE_RESET_R:
    case ZEND_FE_RESET_RW:
        mark_target(shapes, op_array, OP_JMP_ADDR(op, op->op2));
        return PHP_OP_ENDS_BLOCK;
    case ZEND_CATCH:
        if (!(op->extended_value & ZEND_LAST_CATCH))
            mark_target(shapes, op_array, OP_JMP_ADDR(op, op->op2));
        return PHP_OP_ENDS_BLOCK;
    case ZEND_FE_FETCH_R:
    case ZEND_FE_FETCH_RW:
        mark_target(shapes, op_array, ZEND_OFFSET_TO_OPLINE(op, op->extended_value));
        return PHP_OP_ENDS_BLOCK;
    case ZEND_SWITCH_LONG:
    case ZEND_SWITCH_STRING:
    case ZEND_MATCH:
        mark_jump_table(shapes, op_array, op);
        return PHP_OP_ENDS_BLOCK;
    case ZEND_RETURN:
    case ZEND_RETURN_BY_REF:
    case ZEND_GENERATOR_RETURN:
    case ZEND_EXIT:
    case ZEND_THROW:
    case ZEND_MATCH_ERROR:
    case ZEND_VERIFY_NEVER_TYPE:
    case ZEND_FAST_RET:
        return PHP_OP_ENDS_BLOCK;
    case ZEND_NOP:
        return PHP_OP_NO_LINE;
    case ZEND_OP_DATA:
        return PHP_OP_NO_LINE | PHP_OP_STICKY;

    default:
        return 0;
    }
}

/* Every op array ends with the `return null` (or `return 1`) the compiler
 * adds, on the closing brace or the file's last line, preceded by a return
 * type check when the function declares one: statements nobody wrote. */
static void mark_implicit_return(php_op_shape *shapes, const zend_op_array *op_array)
{
    uint32_t last = op_array->last - 1;
    const zend_op *op = &op_array->opcodes[last];
    if ((op->opcode != ZEND_RETURN && op->opcode != ZEND_GENERATOR_RETURN) || op->op1_type != IS_CONST)
        return;
    shapes[last].flags |= PHP_OP_NO_LINE;
    if (last > 0 && op[-1].lineno == op->lineno &&
        (op[-1].opcode == ZEND_VERIFY_RETURN_TYPE || op[-1].opcode == ZEND_VERIFY_NEVER_TYPE))
        shapes[last - 1].flags |= PHP_OP_NO_LINE;
}

static void describe_ops(const zend_op_array *op_array, php_op_shape *shapes)
{
    for (uint32_t i = 0; i < op_array->last; i++)
        shapes[i] = (php_op_shape){.line = op_array->opcodes[i].lineno};
    for (uint32_t i = 0; i < op_array->last; i++)
        shapes[i].flags |= jump_flags(shapes, op_array, &op_array->opcodes[i]);
    for (int t = 0; t < op_array->last_try_catch; t++) {
        const zend_try_catch_element *element = &op_array->try_catch_array[t];
        uint32_t points[] = {element->catch_op, element->finally_op, element->finally_end};
        for (size_t p = 0; p < sizeof points / sizeof *points; p++)
            if (points[p] && points[p] < op_array->last)
                shapes[points[p]].flags |= PHP_OP_TARGET;
    }
    if (op_array->last > 0)
        mark_implicit_return(shapes, op_array);
}

/* ---- branches ----------------------------------------------------------- */

/* Whether op is a two-way conditional jump culprit records, where it lands,
 * and whether its condition being true is the jump. */
static bool conditional_jump(const zend_op *op, const zend_op **target, bool *true_jumps)
{
    switch (op->opcode) {
    case ZEND_JMPZ:
    case ZEND_JMPZ_EX:
        *target = OP_JMP_ADDR(op, op->op2);
        *true_jumps = false; /* jumps when the condition is false */
        return true;
    case ZEND_JMPNZ:
    case ZEND_JMPNZ_EX:
    case ZEND_JMP_SET:  /* a ?: b jumps when a is true */
    case ZEND_COALESCE: /* a ?? b jumps when a is set and not null */
    case ZEND_JMP_NULL: /* a?->b jumps when a is null */
        *target = OP_JMP_ADDR(op, op->op2);
        *true_jumps = true;
        return true;
    case ZEND_FE_FETCH_R:
    case ZEND_FE_FETCH_RW: /* true: another element; the jump leaves the loop */
        *target = ZEND_OFFSET_TO_OPLINE(op, op->extended_value);
        *true_jumps = false;
        return true;
    default:
        return false;
    }
}

/* A comparison just before JMPZ/JMPNZ may jump itself and skip it (the
 * VM's smart branches), so the outcome is also looked for after it. */
static bool may_fuse(const zend_op_array *op_array, uint32_t jump, const php_op_shape *shapes)
{
    const zend_op *op = &op_array->opcodes[jump], *before = op - 1;
    return jump > 0 && (op->opcode == ZEND_JMPZ || op->opcode == ZEND_JMPNZ) &&
           !(shapes[jump].flags & PHP_OP_TARGET) && !(shapes[jump - 1].flags & PHP_OP_ENDS_BLOCK) &&
           (before->result_type & IS_TMP_VAR) && op->op1_type == IS_TMP_VAR &&
           op->op1.var == before->result.var;
}

/* How many outcomes the branch op decides has: 0 when it is none. */
static uint32_t branch_outcomes(const zend_op_array *op_array, const zend_op *op)
{
    const zend_op *target;
    bool true_jumps;
    if (op->opcode == ZEND_MATCH)
        return php_match_targets(op_array, op, NULL);
    return conditional_jump(op, &target, &true_jumps) ? 2 : 0;
}

/* ---- the unit ----------------------------------------------------------- */

typedef struct unit_build {
    php_unit *unit;
    op_array_list arrays;
    php_op_shape **shapes; /* per function */
    cc_map map;
    uint32_t file;
    culprit_error err;
} unit_build;

static culprit_status allocate_unit(unit_build *build, const char *path)
{
    php_unit *unit = calloc(1, sizeof *unit);
    build->unit = unit;
    if (!unit)
        return culprit_fail_memory(&build->err);
    unit->function_count = (uint32_t)build->arrays.count;
    for (size_t f = 0; f < build->arrays.count; f++)
        unit->op_total += build->arrays.items[f]->last;
    size_t ops = unit->op_total + 1;
    unit->path = strdup(path);
    unit->functions = calloc(unit->function_count, sizeof *unit->functions);
    unit->op_hits = calloc(ops, sizeof *unit->op_hits);
    unit->leader_op = calloc(ops, sizeof *unit->leader_op);
    unit->block_line = calloc(ops, sizeof *unit->block_line);
    unit->op_line = calloc(ops, sizeof *unit->op_line);
    unit->entry_next = malloc(ops * sizeof *unit->entry_next);
    build->shapes = calloc(unit->function_count, sizeof *build->shapes);
    uint32_t *op_block = calloc(ops, sizeof *op_block), *op_branch = calloc(ops, sizeof *op_branch);
    if (!unit->path || !unit->functions || !unit->op_hits || !unit->leader_op || !unit->block_line ||
        !unit->op_line || !unit->entry_next || !build->shapes || !op_block || !op_branch) {
        free(op_block);
        free(op_branch);
        return culprit_fail_memory(&build->err);
    }
    uint32_t base = 0;
    for (uint32_t f = 0; f < unit->function_count; f++) {
        php_function *function = &unit->functions[f];
        function->unit = unit;
        function->op_count = build->arrays.items[f]->last;
        function->hits = unit->op_hits + base;
        function->op_block = op_block + base;
        function->op_branch = op_branch + base;
        base += function->op_count;
    }
    memset(op_branch, 0xff, ops * sizeof *op_branch); /* PHP_NO_BRANCH */
    memset(unit->entry_next, 0xff, ops * sizeof *unit->entry_next);
    return CULPRIT_OK;
}

/* The VM skips the RECVs of the arguments passed to a function without type
 * declarations and starts at the opcode after them: the block of the
 * function's header line, which holds its RECVs alone, was entered whenever
 * that opcode ran. */
static void mark_parameters(php_unit *unit, const zend_op_array *op_array, uint32_t base,
                            uint32_t first_block, uint32_t block_count)
{
    uint32_t after = 0;
    while (after < op_array->last && (op_array->opcodes[after].opcode == ZEND_RECV ||
                                      op_array->opcodes[after].opcode == ZEND_RECV_INIT ||
                                      op_array->opcodes[after].opcode == ZEND_RECV_VARIADIC))
        after++;
    if (after > 0 && after < op_array->last && block_count > 1 &&
        unit->leader_op[first_block + 1] == base + after)
        unit->entry_next[first_block] = base + after;
}

/* Cuts every function into blocks and counts the branches. */
static culprit_status partition_functions(unit_build *build)
{
    php_unit *unit = build->unit;
    uint32_t *leaders = malloc((unit->op_total + 1) * sizeof *leaders);
    if (!leaders)
        return culprit_fail_memory(&build->err);
    uint32_t base = 0;
    for (uint32_t f = 0; f < unit->function_count; f++) {
        const zend_op_array *op_array = build->arrays.items[f];
        php_function *function = &unit->functions[f];
        php_op_shape *shapes = malloc((op_array->last + 1) * sizeof *shapes);
        build->shapes[f] = shapes;
        if (!shapes) {
            free(leaders);
            return culprit_fail_memory(&build->err);
        }
        describe_ops(op_array, shapes);
        uint32_t first = unit->block_count;
        uint32_t count = php_blocks_partition(shapes, op_array->last, first, function->op_block, leaders);
        for (uint32_t b = 0; b < count; b++)
            unit->leader_op[first + b] = base + leaders[b];
        for (uint32_t i = 0; i < op_array->last; i++)
            unit->op_line[base + i] = php_op_has_line(&shapes[i]) ? shapes[i].line : 0;
        mark_parameters(unit, op_array, base, first, count);
        unit->block_count += count;
        for (uint32_t i = 0; i < op_array->last && !php_state.lines_only; i++) {
            uint32_t outcomes = branch_outcomes(op_array, &op_array->opcodes[i]);
            unit->branch_count += outcomes > 0;
            unit->outcome_count += outcomes;
        }
        base += op_array->last;
    }
    free(leaders);
    return CULPRIT_OK;
}

/* The branch op (at index i) decides, with its outcomes' counters from
 * first_counter; false when no memory is left for a match's targets. */
static bool describe_branch(const zend_op_array *op_array, uint32_t i, php_branch *branch)
{
    const zend_op *op = &op_array->opcodes[i], *target;
    branch->fallthrough = i + 1;
    if (op->opcode == ZEND_MATCH) {
        branch->outcome_count = php_match_targets(op_array, op, NULL);
        branch->targets = malloc(branch->outcome_count * sizeof *branch->targets);
        return branch->targets && php_match_targets(op_array, op, branch->targets);
    }
    conditional_jump(op, &target, &branch->true_jumps);
    branch->target = op_index(op_array, target);
    branch->outcome_count = 2;
    return true;
}

/* Lists the branches; outcome counters come after the blocks, branch after
 * branch, each's in order (true then false). */
static culprit_status find_branches(unit_build *build)
{
    php_unit *unit = build->unit;
    unit->branches = calloc(unit->branch_count + 1, sizeof *unit->branches);
    unit->outcomes = calloc(unit->outcome_count + 1, sizeof *unit->outcomes);
    if (!unit->branches || !unit->outcomes)
        return culprit_fail_memory(&build->err);
    uint32_t k = 0, next_counter = unit->block_count;
    for (uint32_t f = 0; f < unit->function_count && unit->branch_count > 0; f++) {
        const zend_op_array *op_array = build->arrays.items[f];
        php_function *function = &unit->functions[f];
        for (uint32_t i = 0; i < op_array->last; i++) {
            if (branch_outcomes(op_array, &op_array->opcodes[i]) == 0)
                continue;
            php_branch *branch = &unit->branches[k];
            *branch = (php_branch){.function = function, .first_counter = next_counter};
            if (!describe_branch(op_array, i, branch))
                return culprit_fail_memory(&build->err);
            next_counter += branch->outcome_count;
            function->op_branch[i] = k;
            if (may_fuse(op_array, i, build->shapes[f]))
                function->op_branch[i - 1] = k;
            k++;
        }
    }
    unit->counter_count = unit->block_count + unit->outcome_count;
    return CULPRIT_OK;
}

/* ---- the map ------------------------------------------------------------- */

static uint32_t branch_line(const unit_build *build, uint32_t k)
{
    const php_branch *branch = &build->unit->branches[k];
    uint32_t f = (uint32_t)(branch->function - build->unit->functions);
    return build->arrays.items[f]->opcodes[branch->fallthrough - 1].lineno;
}

static const unit_build *sorting_build; /* qsort has no context argument in C11 */

static int compare_branch_lines(const void *left, const void *right)
{
    uint32_t a = *(const uint32_t *)left, b = *(const uint32_t *)right;
    uint32_t line_a = branch_line(sorting_build, a), line_b = branch_line(sorting_build, b);
    if (line_a != line_b)
        return line_a < line_b ? -1 : 1;
    return a < b ? -1 : a > b;
}

/* PHP has no columns: a branch's column numbers the conditions of its line
 * from 1, in opcode order, so that two on one line keep distinct names. */
static culprit_status branch_columns(const unit_build *build, uint32_t *columns)
{
    uint32_t count = build->unit->branch_count;
    uint32_t *order = malloc((count + 1) * sizeof *order);
    if (!order)
        return culprit_fail_memory((culprit_error *)&build->err);
    for (uint32_t k = 0; k < count; k++)
        order[k] = k;
    sorting_build = build;
    qsort(order, count, sizeof *order, compare_branch_lines);
    for (uint32_t i = 0; i < count; i++) {
        bool same = i > 0 && branch_line(build, order[i]) == branch_line(build, order[i - 1]);
        columns[order[i]] = same ? columns[order[i - 1]] + 1 : 1;
    }
    free(order);
    return CULPRIT_OK;
}

static culprit_status add_function_blocks(unit_build *build, uint32_t f)
{
    const zend_op_array *op_array = build->arrays.items[f];
    const php_function *function = &build->unit->functions[f];
    const php_op_shape *shapes = build->shapes[f];
    char name[512];
    function_name(op_array, name, sizeof name);
    uint32_t index;
    uint32_t header = op_array->function_name ? op_array->line_start : 0;
    culprit_status status = cc_map_add_function(&build->map, name, build->file, header, &index, &build->err);
    for (uint32_t i = 0; i < op_array->last && status == CULPRIT_OK; i++) {
        uint32_t block = function->op_block[i];
        bool first = i == 0 || function->op_block[i - 1] != block;
        if (first) {
            uint32_t low = 0, high = 0;
            for (uint32_t j = i; j < op_array->last && function->op_block[j] == block; j++) {
                if (!php_op_has_line(&shapes[j]))
                    continue;
                low = low && low < shapes[j].line ? low : shapes[j].line;
                high = high > shapes[j].line ? high : shapes[j].line;
            }
            build->unit->block_line[block] = low;
            cc_map_block record = {.counter = block,
                                   .function = index,
                                   .file = build->file,
                                   .first_line = low,
                                   .last_line = high};
            status = cc_map_add_block(&build->map, &record, &build->err);
        }
        if (status == CULPRIT_OK && php_op_has_line(&shapes[i]))
            status = cc_map_add_line(&build->map, build->file, shapes[i].line, block, &build->err);
    }
    /* A function's header line is where it is entered, as gcov counts it. */
    if (status == CULPRIT_OK && header && op_array->last > 0)
        status = cc_map_add_line(&build->map, build->file, header, function->op_block[0], &build->err);
    return status;
}

/* A conditional jump's two outcomes: true and false, each an edge. */
static culprit_status add_jump_outcomes(unit_build *build, const php_branch *branch, cc_map_location at,
                                        uint32_t condition)
{
    uint32_t from = branch->function->op_block[branch->fallthrough - 1];
    uint32_t jump_to = branch->function->op_block[branch->target];
    uint32_t fall_to = branch->fallthrough < branch->function->op_count
                           ? branch->function->op_block[branch->fallthrough]
                           : jump_to;
    uint32_t to[2] = {branch->true_jumps ? jump_to : fall_to, branch->true_jumps ? fall_to : jump_to};
    const char *names[2] = {"true", "false"};
    culprit_status status = CULPRIT_OK;
    for (uint32_t o = 0; o < 2 && status == CULPRIT_OK; o++) {
        status = cc_map_add_edge(&build->map, branch->first_counter + o, from, to[o], &build->err);
        if (status == CULPRIT_OK)
            status = cc_map_add_branch(&build->map, branch->first_counter + o, at, names[o], condition,
                                       &build->err);
    }
    return status;
}

/* A match's outcomes: its arms, then its default (php_match.c). */
static culprit_status add_match_outcomes(unit_build *build, const php_branch *branch, cc_map_location at,
                                         uint32_t condition)
{
    const zend_op_array *op_array = build->arrays.items[branch->function - build->unit->functions];
    const zend_op *op = &op_array->opcodes[branch->fallthrough - 1];
    uint32_t from = branch->function->op_block[branch->fallthrough - 1];
    culprit_status status = CULPRIT_OK;
    for (uint32_t o = 0; o < branch->outcome_count && status == CULPRIT_OK; o++) {
        char name[128];
        php_match_outcome_name(op_array, op, branch->targets[o], o + 1 == branch->outcome_count, name,
                               sizeof name);
        uint32_t to = branch->function->op_block[branch->targets[o]];
        status = cc_map_add_edge(&build->map, branch->first_counter + o, from, to, &build->err);
        if (status == CULPRIT_OK)
            status =
                cc_map_add_branch(&build->map, branch->first_counter + o, at, name, condition, &build->err);
    }
    return status;
}

static culprit_status add_branch_records(unit_build *build, const uint32_t *columns)
{
    const php_unit *unit = build->unit;
    culprit_status status = CULPRIT_OK;
    uint32_t condition = 0;
    for (uint32_t k = 0; k < unit->branch_count && status == CULPRIT_OK; k++) {
        const php_branch *branch = &unit->branches[k];
        uint32_t line = branch_line(build, k);
        /* the branches of one line and function are one decision (a && b) */
        if (k > 0 &&
            (line != branch_line(build, k - 1) || branch->function != unit->branches[k - 1].function))
            condition++;
        cc_map_location at = {.file = build->file, .line = line, .column = columns[k]};
        status = branch->targets ? add_match_outcomes(build, branch, at, condition)
                                 : add_jump_outcomes(build, branch, at, condition);
    }
    return status;
}

static culprit_status write_map(unit_build *build)
{
    culprit_status status = cc_map_add_file(&build->map, build->unit->path, &build->file, &build->err);
    for (uint32_t f = 0; f < build->unit->function_count && status == CULPRIT_OK; f++)
        status = add_function_blocks(build, f);
    uint32_t *columns = calloc(build->unit->branch_count + 1, sizeof *columns);
    if (status == CULPRIT_OK && !columns)
        status = culprit_fail_memory(&build->err);
    if (status == CULPRIT_OK)
        status = branch_columns(build, columns);
    if (status == CULPRIT_OK)
        status = add_branch_records(build, columns);
    free(columns);
    if (status == CULPRIT_OK)
        status = php_returns_add_records(build->unit, &build->map, build->file, &build->err);
    if (status == CULPRIT_OK)
        status = cc_map_digest_sources(&build->map, &build->err);
    cc_map_result result = {0};
    if (status == CULPRIT_OK)
        status = cc_map_finish(&build->map, build->unit->counter_count, build->unit->block_count, &result,
                               &build->err);
    if (status == CULPRIT_OK) {
        memcpy(build->unit->hash, result.hash, sizeof build->unit->hash);
        status = php_files_write_map(php_state.dir, result.hash, result.text, result.size, &build->err);
    }
    free(result.text);
    return status;
}

/* ---- registration ------------------------------------------------------- */

static void report_once(const culprit_error *err)
{
    static bool reported;
    if (!reported)
        fprintf(stderr, "culprit: cannot record this PHP file's coverage: %s\n", err->message);
    reported = true;
}

static culprit_status register_unit(unit_build *build)
{
    if (!CULPRIT_GROW(php_state.units, php_state.unit_capacity, php_state.unit_count + 1, 16))
        return culprit_fail_memory(&build->err);
    build->unit->index = (uint32_t)php_state.unit_count;
    php_state.units[php_state.unit_count++] = build->unit;
    for (uint32_t f = 0; f < build->unit->function_count; f++)
        build->arrays.items[f]->reserved[php_state.handle] = &build->unit->functions[f];
    return CULPRIT_OK;
}

static char *absolute_path(const zend_string *filename)
{
    if (ZSTR_VAL(filename)[0] == '/')
        return strdup(ZSTR_VAL(filename));
    char *resolved = realpath(ZSTR_VAL(filename), NULL);
    return resolved ? resolved : strdup(ZSTR_VAL(filename));
}

void php_unit_add(zend_op_array *op_array, uint32_t functions_before, uint32_t classes_before)
{
    unit_build build = {0};
    cc_map_init(&build.map, php_state.lines_only ? CC_COVERAGE_LINES : CC_COVERAGE_FULL);
    char *path = absolute_path(op_array->filename);
    culprit_status status = path ? CULPRIT_OK : culprit_fail_memory(&build.err);
    if (status == CULPRIT_OK && !list_add(&build.arrays, op_array))
        status = culprit_fail_memory(&build.err);
    if (status == CULPRIT_OK &&
        !(collect_declared(&build.arrays, op_array->filename, functions_before, classes_before) &&
          collect_nested(&build.arrays)))
        status = culprit_fail_memory(&build.err);
    if (status == CULPRIT_OK)
        status = allocate_unit(&build, path);
    if (status == CULPRIT_OK)
        status = partition_functions(&build);
    if (status == CULPRIT_OK)
        status = find_branches(&build);
    if (status == CULPRIT_OK && !php_state.lines_only) /* lines mode: blocks only */
        status = php_returns_find(build.unit, build.arrays.items, &build.err);
    if (status == CULPRIT_OK)
        status = write_map(&build);
    if (status == CULPRIT_OK)
        status = register_unit(&build);
    if (status == CULPRIT_OK && php_state.lines_only)
        php_probes_arm(build.unit, build.arrays.items);
    if (status != CULPRIT_OK) {
        report_once(&build.err);
        php_unit_free(build.unit);
    }
    for (uint32_t f = 0; build.shapes && f < build.arrays.count; f++)
        free(build.shapes[f]);
    free(build.shapes);
    free(build.arrays.items);
    free(path);
    cc_map_free(&build.map);
}

bool php_unit_find_line(const char *path, uint32_t line, php_dump_frame *frame)
{
    for (size_t u = 0; u < php_state.unit_count; u++) {
        const php_unit *unit = php_state.units[u];
        if (strcmp(unit->path, path) != 0)
            continue;
        const uint32_t *op_block = unit->functions[0].op_block; /* the unit's, function after function */
        for (uint32_t op = 0; op < unit->op_total; op++) {
            if (unit->op_line[op] == line) {
                *frame = (php_dump_frame){.unit = (uint32_t)u, .block = op_block[op]};
                return true;
            }
        }
    }
    return false;
}

void php_unit_fill_counts(php_unit *unit)
{
    if (!unit->counts)
        unit->counts = calloc(unit->counter_count + 1, sizeof *unit->counts);
    if (!unit->counts)
        return;
    /* A block's opcodes are contiguous; the most any of them ran is how
     * often it was entered: the VM skips some opcodes (a JMPZ fused with
     * its comparison), never all of a block's, but for the RECVs of a
     * function's header (mark_parameters). */
    for (uint32_t b = 0; b < unit->block_count; b++) {
        uint32_t end = b + 1 < unit->block_count ? unit->leader_op[b + 1] : unit->op_total;
        uint64_t most = 0;
        for (uint32_t op = unit->leader_op[b]; op < end; op++)
            most = unit->op_hits[op] > most ? unit->op_hits[op] : most;
        if (unit->entry_next[b] != UINT32_MAX && unit->op_hits[unit->entry_next[b]] > most)
            most = unit->op_hits[unit->entry_next[b]];
        unit->counts[b] = most;
    }
    for (uint32_t c = 0; c < unit->outcome_count; c++)
        unit->counts[unit->block_count + c] = unit->outcomes[c];
    uint32_t returns_at = unit->block_count + unit->outcome_count;
    for (uint32_t c = 0; c < PHP_RETURN_CLASSES * unit->return_count; c++)
        unit->counts[returns_at + c] = unit->return_counts[c];
}

void php_unit_reset_counts(php_unit *unit)
{
    memset(unit->op_hits, 0, unit->op_total * sizeof *unit->op_hits);
    memset(unit->outcomes, 0, (size_t)unit->outcome_count * sizeof *unit->outcomes);
    if (unit->return_counts)
        memset(unit->return_counts, 0,
               (size_t)PHP_RETURN_CLASSES * unit->return_count * sizeof *unit->return_counts);
}

void php_unit_free(php_unit *unit)
{
    if (!unit)
        return;
    if (unit->functions) {
        free(unit->functions[0].op_block);
        free(unit->functions[0].op_branch);
    }
    free(unit->functions);
    free(unit->path);
    free(unit->leader_op);
    free(unit->block_line);
    free(unit->op_line);
    free(unit->entry_next);
    free(unit->op_hits);
    for (uint32_t k = 0; unit->branches && k < unit->branch_count; k++)
        free(unit->branches[k].targets);
    free(unit->branches);
    free(unit->outcomes);
    free(unit->counts);
    php_returns_free(unit);
    free(unit);
}
