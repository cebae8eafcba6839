/*
 * emit_frames.c - full mode's shadow stack (docs/collector.md §1): the
 * thread's depth, and each running function's frame, a slot of the stack
 * (or the single leaf frame of a function that calls nothing) holding its
 * unit and the block it is in, which the runtime reads when a crash or an
 * output needs the block-level call stack.  Every store is volatile: the
 * runtime reads them from signal handlers, outside the IR's view.
 *
 * A function entry increments depth and sets up the frame, a block that
 * stores its number (cc_block_stores_frame) stores it, a call that returns
 * twice restores depth, and a return restores the caller's.  The globals
 * they address are unit_globals.c's (cc_create_counters).
 */
#include "cc/instrument_internal.h"
#include "cc/ir_query.h"

/* ---- frames and depth ----------------------------------------------------------------------------- */

/* The shadow-stack frame's block = block: a 32-bit constant, which costs a
 * single store (the counter's address, a pointer, took an lea and a
 * register besides, which big functions spilled).  Frame stores are
 * volatile: nothing in the IR reads them, so the optimiser would sink them
 * out of loops that neither call nor touch memory it cannot tell apart
 * (a division by zero in such a loop was blamed on the caller), or drop a
 * leaf's as overwritten by its return. */
void cc_emit_stack_store(unit *u, uint32_t block)
{
    LLVMSetVolatile(LLVMBuildStore(u->builder, LLVMConstInt(u->i32, block, 0), u->slot_block), 1);
}

/* The frame's counters = the unit's counters (null: an empty frame). */
static void emit_frame_unit(unit *u, LLVMValueRef value)
{
    LLVMValueRef field = LLVMBuildStructGEP2(u->builder, u->frame_type, u->stack_slot, 0, "");
    LLVMSetVolatile(LLVMBuildStore(u->builder, value, field), 1);
}

/* depth = value, as a volatile store: the runtime reads depth from signal
 * handlers, outside the IR's view, so to the optimiser a function's
 * depth + 1 at entry, overwritten at its return with no read in between,
 * would be a dead store.  It did drop it in leaf functions (the Lua
 * interpreter's luaH_getshortstr) and in inlined callees, and a crash there
 * was blamed on the caller. */
static void emit_depth_store(unit *u, LLVMValueRef value)
{
    LLVMSetVolatile(LLVMBuildStore(u->builder, value, u->depth), 1);
}

/* leaf.counters = null, volatile for the same reason as emit_depth_store. */
static void emit_leaf_clear(unit *u)
{
    LLVMValueRef field = LLVMBuildStructGEP2(u->builder, u->frame_type, u->leaf, 0, "");
    LLVMSetVolatile(LLVMBuildStore(u->builder, LLVMConstNull(u->byte_pointer), field), 1);
}

/* At function entry: depth += 1, and the function's frame &stack[depth & 63]
 * computed once; a function that calls nothing uses `leaf` as its frame and
 * leaves depth alone (no callee can need a frame above its own).  Every
 * block of the function reuses the frame (the entry block dominates them
 * all), so a block pays one store and no thread-local load.  The frame's
 * unit is stored here, its block by cc_emit_stack_store: a leaf's block
 * first, so that a signal never sees its unit with a stale block. */
void cc_emit_function_entry(unit *u, uint32_t block)
{
    if (u->leaf_function) {
        u->stack_slot = u->leaf;
    } else {
        LLVMValueRef caller_depth = LLVMBuildLoad2(u->builder, u->i32, u->depth, "");
        LLVMValueRef depth = LLVMBuildAdd(u->builder, caller_depth, LLVMConstInt(u->i32, 1, 0), "");
        emit_depth_store(u, depth);
        u->caller_depth = caller_depth;
        u->function_depth = depth;
        LLVMValueRef slot_index = LLVMBuildZExt(
            u->builder, LLVMBuildAnd(u->builder, depth, LLVMConstInt(u->i32, CULPRIT_STACK_DEPTH - 1, 0), ""),
            u->i64, "");
        LLVMValueRef indices[2] = {cc_const_i64(u, 0), slot_index};
        u->stack_slot = LLVMBuildInBoundsGEP2(u->builder, u->stack_type, u->stack, indices, 2, "");
    }
    u->slot_block = LLVMBuildStructGEP2(u->builder, u->frame_type, u->stack_slot, 1, "");
    cc_emit_stack_store(u, block);
    emit_frame_unit(u, LLVMConstBitCast(u->counters, u->byte_pointer));
}

/* ---- returns -------------------------------------------------------------------------------------- */

/* The musttail call a ret returns the result of (`musttail call; [bitcast;]
 * ret`), or NULL.  Nothing may come between such a call and its ret.  In
 * clang's IR before any pass, a call marked tail is a musttail one (the
 * optimiser's tail markers come later), and the LLVM-C API of LLVM 14 tells
 * only "tail". */
static LLVMValueRef musttail_call_before(LLVMValueRef ret)
{
    LLVMValueRef previous = LLVMGetPreviousInstruction(ret);
    if (previous && LLVMGetInstructionOpcode(previous) == LLVMBitCast)
        previous = LLVMGetPreviousInstruction(previous);
    return previous && cc_ir_is_call(previous) && LLVMIsTailCall(previous) ? previous : NULL;
}

/* Does this call return twice (setjmp, sigsetjmp, vfork...)? */
static bool returns_twice(LLVMValueRef call)
{
    return cc_ir_call_has_attribute(call, "returns_twice");
}

/* After a call that returns twice, depth = the function's own depth: when
 * it returns the second time (a longjmp), the callees the longjmp left never
 * decremented depth, and the function's blocks, which keep the slot they
 * computed at entry, would no longer be frame 0. */
void cc_instrument_returns_twice(unit *u, LLVMBasicBlockRef block)
{
    if (u->coverage == CC_COVERAGE_LINES)
        return;
    for (LLVMValueRef in = LLVMGetFirstInstruction(block); in; in = LLVMGetNextInstruction(in)) {
        if (!cc_ir_is_call(in) || !returns_twice(in))
            continue;
        LLVMValueRef next = LLVMGetNextInstruction(in);
        LLVMPositionBuilderBefore(u->builder, next);
        emit_depth_store(u, u->function_depth);
        /* A siglongjmp out of a signal handler may have left a leaf function. */
        emit_leaf_clear(u);
        in = LLVMGetPreviousInstruction(next);
    }
}

void cc_instrument_returns_from_function(unit *u, LLVMBasicBlockRef block)
{
    LLVMValueRef terminator = LLVMGetBasicBlockTerminator(block);
    if (u->coverage == CC_COVERAGE_LINES || LLVMGetInstructionOpcode(terminator) != LLVMRet)
        return;
    /* Before a musttail call rather than between it and its ret: the
     * callee takes the function's place, so it runs at the caller's depth. */
    LLVMValueRef musttail = musttail_call_before(terminator);
    LLVMPositionBuilderBefore(u->builder, musttail ? musttail : terminator);
    if (u->leaf_function) {
        emit_leaf_clear(u);
        return;
    }
    /* The caller's depth as read at the entry: when the function returns,
     * its callees have restored depth to the function's own (a longjmp into
     * it is followed by the store of cc_instrument_returns_twice). */
    emit_depth_store(u, u->caller_depth);
}
