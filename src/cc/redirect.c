/*
 * redirect.c - points calls at the runtime's wrappers (docs/collector.md
 * §1): calls of libc's functions that end the process or replace it
 * (_exit, quick_exit, exec*) and pthread_create, in both modes, and in full mode its
 * output functions (printf, write ...), each to __culprit_rt_<name>.  The
 * driver calls it last, after the map is built, so that the map names
 * the functions the user called.
 */
#include <stdio.h>
#include <string.h>

#include "cc/instrument_internal.h"
#include "cc/ir_query.h"

static const char *const output_functions[] = {"printf",  "fprintf", "vprintf", "vfprintf", "puts", "fputs",
                                               "putchar", "fputc",   "putc",    "fwrite",   "write"};
static const char *const ending_functions[] = {"_exit",  "_Exit", "quick_exit", "execv", "execvp",
                                               "execve", "execl", "execlp",     "execle"};
/* Redirected in both modes too: each new thread gets a signal stack for crash dumps (src/rt/rt_threads.c). */
static const char *const thread_functions[] = {"pthread_create"};

static bool is_one_of(const char *name, const char *const *names, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    return false;
}

#define IS_ONE_OF(name, names) is_one_of(name, names, sizeof names / sizeof *names)

static bool is_redirected(unit *u, const char *name)
{
    if (IS_ONE_OF(name, ending_functions) || IS_ONE_OF(name, thread_functions))
        return true;
    return u->coverage == CC_COVERAGE_FULL && IS_ONE_OF(name, output_functions);
}

/* Points one call at __culprit_rt_<name>, declared with the libc function's own type. */
static void redirect_call(unit *u, LLVMValueRef call, LLVMValueRef libc_function)
{
    char wrapper_name[64];
    snprintf(wrapper_name, sizeof wrapper_name, "__culprit_rt_%s", cc_ir_name(libc_function));
    LLVMTypeRef type = LLVMGlobalGetValueType(libc_function);
    LLVMValueRef wrapper = LLVMGetNamedFunction(u->module, wrapper_name);
    if (!wrapper)
        wrapper = LLVMAddFunction(u->module, wrapper_name, type);
    unsigned callee_operand = (unsigned)LLVMGetNumOperands(call) - 1;
    LLVMValueRef old_callee = LLVMGetOperand(call, callee_operand);
    LLVMValueRef new_callee = wrapper;
    if (LLVMTypeOf(wrapper) != LLVMTypeOf(old_callee))
        new_callee = LLVMConstBitCast(wrapper, LLVMTypeOf(old_callee));
    LLVMSetOperand(call, callee_operand, new_callee);
}

/* Only calls to libc's functions move: a program's own `write` (defined here) keeps its calls. */
void cc_redirect_calls(unit *u)
{
    for (LLVMValueRef fn = LLVMGetFirstFunction(u->module); fn; fn = LLVMGetNextFunction(fn)) {
        if (!cc_instruments_function(fn))
            continue;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
            for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
                if (!cc_ir_is_call(in))
                    continue;
                LLVMValueRef callee = cc_ir_called_value(in);
                if (!LLVMIsAFunction(callee))
                    continue;
                bool external =
                    LLVMIsDeclaration(callee) || LLVMGetLinkage(callee) == LLVMAvailableExternallyLinkage;
                if (external && is_redirected(u, cc_ir_name(callee)))
                    redirect_call(u, in, callee);
            }
        }
    }
}
