/*
 * unit_globals.c - the globals culprit-cc adds to each unit
 * (docs/collector.md §1, §3): the counters array (uint64_t in full mode,
 * uint8_t flags in lines mode) and, in full mode, the runtime's
 * thread-local shadow stack; then, once every function is instrumented,
 * the map text in its `culprit_map` section, its hash, the implied-hit
 * table, the descriptor of §3 (with the active-mutant slot mutate.c
 * created, if any), and the constructor that registers it with
 * the runtime (and the destructor that unregisters it).  The layouts here are the runtime's structs
 * (src/rt/culprit_rt.h).
 */
#include <stdlib.h>

#include "cc/instrument_internal.h"
#include "cc/ir_query.h"
#include "rt/culprit_rt.h"

/* Constructor priority: low, so the runtime's atexit handler is registered
 * before the program's and therefore runs after them.  The destructor's
 * runs after the program's destructors, whose counts it keeps. */
enum { CONSTRUCTOR_PRIORITY = 101 };

/* ---- the counters and the shadow stack ------------------------------------------------------------ */

static LLVMValueRef external_thread_local(unit *u, const char *name, LLVMTypeRef type)
{
    LLVMValueRef global = LLVMGetNamedGlobal(u->module, name);
    if (!global)
        global = LLVMAddGlobal(u->module, type, name);
    LLVMSetThreadLocal(global, 1);
    LLVMSetThreadLocalMode(global, LLVMInitialExecTLSModel);
    return global;
}

static LLVMValueRef shadow_field(unit *u, LLVMTypeRef shadow_type, LLVMValueRef shadow, unsigned field)
{
    LLVMValueRef indices[2] = {LLVMConstInt(u->i32, 0, 0), LLVMConstInt(u->i32, field, 0)};
    return LLVMConstInBoundsGEP2(shadow_type, shadow, indices, 2);
}

void cc_create_counters(unit *u)
{
    u->counter_type = u->coverage == CC_COVERAGE_LINES ? u->i8 : u->i64;
    u->counters_type = LLVMArrayType(u->counter_type, u->flag_count);
    u->counters = LLVMAddGlobal(u->module, u->counters_type, "__culprit_counters");
    LLVMSetLinkage(u->counters, LLVMInternalLinkage);
    LLVMSetInitializer(u->counters, LLVMConstNull(u->counters_type));
    LLVMSetAlignment(u->counters, 8);
    if (u->coverage == CC_COVERAGE_FULL) {
        LLVMTypeRef frame_fields[2] = {u->byte_pointer, u->i32}; /* struct culprit_rt_frame */
        u->frame_type = LLVMStructTypeInContext(u->context, frame_fields, 2, 0);
        u->stack_type = LLVMArrayType(u->frame_type, CULPRIT_STACK_DEPTH);
        /* One thread-local struct culprit_rt_shadow: a function finds depth
         * and its frame from one thread-pointer offset. */
        LLVMTypeRef shadow_fields[3] = {u->i32, u->frame_type, u->stack_type};
        LLVMTypeRef shadow_type = LLVMStructTypeInContext(u->context, shadow_fields, 3, 0);
        LLVMValueRef shadow = external_thread_local(u, "__culprit_rt_shadow", shadow_type);
        u->depth = shadow_field(u, shadow_type, shadow, 0);
        u->leaf = shadow_field(u, shadow_type, shadow, 1);
        u->stack = shadow_field(u, shadow_type, shadow, 2);
    }
}

/* ---- the descriptor, its constructor, the map ----------------------------------------------------- */

static LLVMValueRef as_byte_pointer(unit *u, LLVMValueRef global)
{
    return LLVMConstBitCast(global, u->byte_pointer);
}

static LLVMValueRef constant_bytes(unit *u, const char *name, const char *bytes, size_t size, bool terminate)
{
    LLVMValueRef text = LLVMConstStringInContext(u->context, bytes, (unsigned)size, !terminate);
    LLVMValueRef global = LLVMAddGlobal(u->module, LLVMTypeOf(text), name);
    LLVMSetInitializer(global, text);
    LLVMSetGlobalConstant(global, 1);
    LLVMSetLinkage(global, LLVMInternalLinkage);
    LLVMSetAlignment(global, 1);
    return global;
}

/* Appends element to an appending-linkage array such as llvm.used or llvm.global_ctors. */
static culprit_status append_to_array(unit *u, const char *name, LLVMTypeRef element_type,
                                      LLVMValueRef element, culprit_error *err)
{
    LLVMValueRef old = LLVMGetNamedGlobal(u->module, name);
    unsigned old_count = 0;
    LLVMValueRef initializer = NULL;
    if (old) {
        element_type = LLVMGetElementType(LLVMGlobalGetValueType(old));
        initializer = LLVMGetInitializer(old);
        old_count = initializer ? (unsigned)LLVMGetNumOperands(initializer) : 0;
    }
    LLVMValueRef *elements = calloc((size_t)old_count + 1, sizeof *elements);
    if (!elements)
        return culprit_fail_memory(err);
    for (unsigned i = 0; i < old_count; i++)
        elements[i] = LLVMGetOperand(initializer, i);
    elements[old_count] = element;
    if (old)
        LLVMDeleteGlobal(old);
    LLVMValueRef array = LLVMConstArray(element_type, elements, old_count + 1);
    free(elements);
    LLVMValueRef global = LLVMAddGlobal(u->module, LLVMTypeOf(array), name);
    LLVMSetLinkage(global, LLVMAppendingLinkage);
    LLVMSetInitializer(global, array);
    if (cc_ir_name_has_prefix(global, "llvm.used") || cc_ir_name_has_prefix(global, "llvm.compiler.used"))
        LLVMSetSection(global, "llvm.metadata");
    return CULPRIT_OK;
}

/* The implied-hit pairs as a constant uint32_t[2 * count] (null when none). */
static LLVMValueRef create_implied_table(unit *u)
{
    size_t count = u->implied.count;
    if (count == 0)
        return LLVMConstNull(u->byte_pointer);
    LLVMValueRef *values = malloc(2 * count * sizeof *values);
    if (!values)
        return NULL;
    for (size_t k = 0; k < count; k++) {
        values[2 * k] = LLVMConstInt(u->i32, u->implied.pairs[k].node, 0);
        values[2 * k + 1] = LLVMConstInt(u->i32, u->implied.pairs[k].source, 0);
    }
    LLVMValueRef array = LLVMConstArray(u->i32, values, (unsigned)(2 * count));
    free(values);
    LLVMValueRef table = LLVMAddGlobal(u->module, LLVMTypeOf(array), "__culprit_implied");
    LLVMSetInitializer(table, array);
    LLVMSetGlobalConstant(table, 1);
    LLVMSetLinkage(table, LLVMInternalLinkage);
    LLVMSetAlignment(table, 4);
    return as_byte_pointer(u, table);
}

/* The descriptor of §3: { i32 version, i32 mode, i32 counter_count, i32 block_count,
 * i8* counters, i8* map, i64 map_size, i8* hash, i8* implied, i32 implied_count,
 * i32 flag_count, i32* mutant, i32 mutant_count } - natural alignment matches the
 * C struct. */
static LLVMValueRef create_descriptor(unit *u, LLVMValueRef map, size_t map_size, LLVMValueRef hash)
{
    LLVMValueRef implied = create_implied_table(u);
    if (!implied)
        return NULL;
    LLVMTypeRef slot_pointer = LLVMPointerType(u->i32, 0);
    LLVMTypeRef fields[13] = {
        u->i32,          u->i32,          u->i32, u->i32, u->byte_pointer, u->byte_pointer, u->i64,
        u->byte_pointer, u->byte_pointer, u->i32, u->i32, slot_pointer,    u->i32};
    LLVMTypeRef type = LLVMStructTypeInContext(u->context, fields, 13, 0);
    /* No slot, no mutants: the runtime leaves such a unit alone. */
    LLVMValueRef slot = u->mutant_slot ? u->mutant_slot : LLVMConstNull(slot_pointer);
    uint32_t mutant_count = u->mutant_slot ? u->map.mutant_count : 0;
    LLVMValueRef values[13] = {LLVMConstInt(u->i32, CULPRIT_RT_UNIT_VERSION, 0),
                               LLVMConstInt(u->i32, (unsigned)u->coverage, 0),
                               LLVMConstInt(u->i32, u->counter_count, 0),
                               LLVMConstInt(u->i32, u->block_count, 0),
                               as_byte_pointer(u, u->counters),
                               as_byte_pointer(u, map),
                               cc_const_i64(u, map_size),
                               as_byte_pointer(u, hash),
                               implied,
                               LLVMConstInt(u->i32, (unsigned)u->implied.count, 0),
                               LLVMConstInt(u->i32, u->flag_count, 0),
                               slot,
                               LLVMConstInt(u->i32, mutant_count, 0)};
    LLVMValueRef descriptor = LLVMAddGlobal(u->module, type, "__culprit_unit");
    LLVMSetInitializer(descriptor, LLVMConstStructInContext(u->context, values, 13, 0));
    LLVMSetLinkage(descriptor, LLVMInternalLinkage);
    LLVMSetAlignment(descriptor, 8);
    return descriptor;
}

/* An internal function that calls runtime_name(&descriptor), listed in
 * array (llvm.global_ctors or llvm.global_dtors). */
static culprit_status create_registration(unit *u, LLVMValueRef descriptor, const char *runtime_name,
                                          const char *name, const char *array, culprit_error *err)
{
    LLVMTypeRef void_type = LLVMVoidTypeInContext(u->context);
    LLVMTypeRef register_params[1] = {LLVMTypeOf(descriptor)};
    LLVMTypeRef register_type = LLVMFunctionType(void_type, register_params, 1, 0);
    LLVMValueRef register_function = LLVMGetNamedFunction(u->module, runtime_name);
    if (!register_function)
        register_function = LLVMAddFunction(u->module, runtime_name, register_type);
    LLVMTypeRef constructor_type = LLVMFunctionType(void_type, NULL, 0, 0);
    LLVMValueRef constructor = LLVMAddFunction(u->module, name, constructor_type);
    LLVMSetLinkage(constructor, LLVMInternalLinkage);
    LLVMPositionBuilderAtEnd(u->builder, LLVMAppendBasicBlockInContext(u->context, constructor, "entry"));
    LLVMValueRef callee = register_function;
    if (LLVMGlobalGetValueType(register_function) != register_type)
        callee = LLVMConstBitCast(register_function, LLVMPointerType(register_type, 0));
    LLVMValueRef arguments[1] = {descriptor};
    LLVMBuildCall2(u->builder, register_type, callee, arguments, 1, "");
    LLVMBuildRetVoid(u->builder);

    LLVMTypeRef entry_fields[3] = {u->i32, LLVMPointerType(constructor_type, 0), u->byte_pointer};
    LLVMTypeRef entry_type = LLVMStructTypeInContext(u->context, entry_fields, 3, 0);
    LLVMValueRef entry_values[3] = {LLVMConstInt(u->i32, CONSTRUCTOR_PRIORITY, 0), constructor,
                                    LLVMConstNull(u->byte_pointer)};
    return append_to_array(u, array, entry_type, LLVMConstStructInContext(u->context, entry_values, 3, 0),
                           err);
}

/* The constructor registers the descriptor; the destructor unregisters
 * it, which matters when dlclose unloads the unit (src/rt/rt_units.c). */
static culprit_status create_constructor(unit *u, LLVMValueRef descriptor, culprit_error *err)
{
    culprit_status status = create_registration(u, descriptor, "__culprit_rt_register",
                                                "__culprit_unit_register", "llvm.global_ctors", err);
    if (status == CULPRIT_OK)
        status = create_registration(u, descriptor, "__culprit_rt_unregister", "__culprit_unit_unregister",
                                     "llvm.global_dtors", err);
    return status;
}

culprit_status cc_embed_map(unit *u, culprit_error *err)
{
    cc_map_result result;
    culprit_status status = cc_map_digest_sources(&u->map, err);
    if (status == CULPRIT_OK)
        status = cc_map_finish(&u->map, u->counter_count, u->block_count, &result, err);
    if (status != CULPRIT_OK)
        return status;
    LLVMValueRef map = constant_bytes(u, "__culprit_map", result.text, result.size, false);
    LLVMSetSection(map, "culprit_map");
    LLVMValueRef hash = constant_bytes(u, "__culprit_hash", result.hash, 64, true);
    LLVMValueRef descriptor = create_descriptor(u, map, result.size, hash);
    free(result.text);
    if (!descriptor)
        return culprit_fail_memory(err);
    if (u->symbolic)
        cc_symbolic_bind_unit(u, descriptor);
    status = create_constructor(u, descriptor, err);
    if (status == CULPRIT_OK)
        status = append_to_array(u, "llvm.used", u->byte_pointer, as_byte_pointer(u, map), err);
    if (status == CULPRIT_OK)
        status = append_to_array(u, "llvm.used", u->byte_pointer, as_byte_pointer(u, descriptor), err);
    return status;
}
