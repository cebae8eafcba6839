/*
 * php_probes.c - lines mode (CULPRIT_PHP_COVERAGE=lines, docs/php.md "Lines
 * mode"): which blocks ran, at almost no cost once they have.
 *
 * Full mode (php_module.c) runs its handler before every opcode: the
 * engine gives each opcode of a hooked kind its user-opcode handler when it
 * compiles it (pass_two sets opline->handler from zend_user_opcodes[]).
 * Lines mode needs to know only whether each block ran, so when a unit is
 * built (php_unit.c) every opcode but the probes gets the engine's own
 * handler back, computed as pass_two would without the hook
 * (zend_vm_set_opcode_handler with the kind's user handler removed for
 * the moment).  The probes are the first opcode of each block, and the
 * places the VM enters a function at: its RECVs and the opcode after them
 * (the VM skips the RECVs of arguments passed to a function without type
 * declarations).  A probe that fires marks its opcode as run and gives
 * itself the engine's handler too, so a loop runs at the plain VM's speed
 * from its second turn.  Its block's count is then 1, as a lines-mode C
 * unit's flag is (docs/collector.md §1).  When a PHPUnit test begins
 * (php_tests.c) the probes of every op array still alive are put back.
 *
 * The extension turns opcache off for a request it collects; were opcache
 * to refuse, the op arrays would be its shared copies, which are not ours
 * to edit: the probes then stay (every opcode is counted, and only whether
 * it ran is kept).
 */
#include "php/php_internal.h"

#include <zend_closures.h>
#include <zend_vm.h>

/* Gives op the handler the engine would give it without culprit's hook,
 * unless another extension handles its kind. */
static void restore_handler(zend_op *op)
{
    if (zend_get_user_opcode_handler(op->opcode) != php_probes_hit)
        return;
    zend_set_user_opcode_handler(op->opcode, NULL);
    zend_vm_set_opcode_handler(op);
    zend_set_user_opcode_handler(op->opcode, php_probes_hit);
}

static bool receives(const zend_op *op)
{
    return op->opcode == ZEND_RECV || op->opcode == ZEND_RECV_INIT || op->opcode == ZEND_RECV_VARIADIC;
}

/* Whether opcode i of an op array (its php_function) is a probe: a
 * block's first opcode, or one the VM may enter the function at. */
static bool is_probe(const zend_op *opcodes, const php_function *function, uint32_t i)
{
    const zend_op *op = &opcodes[i];
    if (i == 0 || function->op_block[i] != function->op_block[i - 1] || receives(op))
        return true;
    return receives(op - 1);
}

int php_probes_hit(zend_execute_data *execute_data)
{
    zend_op *opline = (zend_op *)execute_data->opline;
    const php_function *function = execute_data->func->op_array.reserved[php_state.handle];
    uint32_t index = function ? (uint32_t)(opline - execute_data->func->op_array.opcodes) : 0;
    if (function && index < function->op_count)
        function->hits[index] = 1;
    /* Code that is no unit's (eval, CULPRIT_PHP_EXCLUDE) is not watched
     * again either. */
    if (!php_state.probes_stay)
        restore_handler(opline);
    return ZEND_USER_OPCODE_DISPATCH;
}

void php_probes_arm(php_unit *unit, zend_op_array *const *arrays)
{
    if (php_state.probes_stay)
        return;
    for (uint32_t f = 0; f < unit->function_count; f++)
        for (uint32_t i = 0; i < arrays[f]->last; i++)
            if (!is_probe(arrays[f]->opcodes, &unit->functions[f], i))
                restore_handler(&arrays[f]->opcodes[i]);
}

/* Puts back the probes of one op array, if it is a unit's, and of the
 * closures and conditional functions declared in it. */
static void rearm_op_array(const zend_op_array *op_array)
{
    if (!ZEND_USER_CODE(op_array->type))
        return;
    const php_function *function = op_array->reserved[php_state.handle];
    for (uint32_t i = 0; function && i < op_array->last && i < function->op_count; i++)
        if (is_probe(op_array->opcodes, function, i) &&
            zend_get_user_opcode_handler(op_array->opcodes[i].opcode) == php_probes_hit)
            zend_vm_set_opcode_handler(&op_array->opcodes[i]);
    for (uint32_t d = 0; d < op_array->num_dynamic_func_defs; d++)
        rearm_op_array(op_array->dynamic_func_defs[d]);
}

/* A unit's op arrays cannot be reached through the unit: a file's
 * top-level code is freed when it has run, with the closures declared in
 * it that no object holds.  So the op arrays still alive are looked for:
 * the functions and methods in the engine's tables, the Closure objects,
 * and the frames running now (the top-level code of a script that runs
 * its own tests). */
void php_probes_rearm(void)
{
    if (php_state.probes_stay)
        return;
    zend_function *function;
    ZEND_HASH_FOREACH_PTR(EG(function_table), function)
    {
        rearm_op_array(&function->op_array);
    }
    ZEND_HASH_FOREACH_END();
    zend_class_entry *class_entry;
    ZEND_HASH_FOREACH_PTR(EG(class_table), class_entry)
    {
        if (class_entry->type != ZEND_USER_CLASS)
            continue;
        ZEND_HASH_FOREACH_PTR(&class_entry->function_table, function)
        {
            rearm_op_array(&function->op_array);
        }
        ZEND_HASH_FOREACH_END();
    }
    ZEND_HASH_FOREACH_END();
    for (uint32_t i = 1; i < EG(objects_store).top; i++) {
        zend_object *object = EG(objects_store).object_buckets[i];
        if (IS_OBJ_VALID(object) && object->ce == zend_ce_closure)
            rearm_op_array(&zend_get_closure_method_def(object)->op_array);
    }
    for (zend_execute_data *frame = EG(current_execute_data); frame; frame = frame->prev_execute_data)
        if (frame->func)
            rearm_op_array(&frame->func->op_array);
}
