/*
 * redirect.c - points calls at the runtime's wrappers (docs/collector.md
 * §1): calls of libc's functions that end the process or replace it
 * (_exit, quick_exit, exec*) and pthread_create, in both modes, and in full mode its
 * output functions (printf, write ...), each to __culprit_rt_<name>; in
 * symbolic mode, the libc functions the runtime models (src/rt/sym_models.h)
 * to __culprit_sym_w_<name> (except in the uninstrumented twins of
 * symbolic_twin.c, which run only when CULPRIT_SYM is off).  The driver calls it last, after the map is
 * built, so that the map names the functions the user called; symbolic.c
 * asks cc_redirect_target earlier, since a call's call-area entry must name
 * the function that will really be called.
 */
#include <stdio.h>
#include <string.h>

#include "cc/instrument_internal.h"
#include "cc/ir_query.h"
#include "rt/sym_models.h"

static const char *const output_functions[] = {"printf",  "fprintf", "vprintf", "vfprintf", "puts", "fputs",
                                               "putchar", "fputc",   "putc",    "fwrite",   "write"};
static const char *const ending_functions[] = {"_exit",  "_Exit", "quick_exit", "execv", "execvp",
                                               "execve", "execl", "execlp",     "execle"};
/* Redirected in both modes too: each new thread gets a signal stack for crash dumps (src/rt/rt_threads.c). */
static const char *const thread_functions[] = {"pthread_create"};

#define CULPRIT_SYM_MODEL_NAME(name) #name,
static const char *const model_functions[] = {CULPRIT_SYM_MODELS(CULPRIT_SYM_MODEL_NAME)};
#undef CULPRIT_SYM_MODEL_NAME

static bool is_one_of(const char *name, const char *const *names, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    return false;
}

#define IS_ONE_OF(name, names) is_one_of(name, names, sizeof names / sizeof *names)

/* The prefix of the wrapper a call to name goes to, or NULL when it stays. */
static const char *wrapper_prefix(unit *u, const char *name, bool models)
{
    if (IS_ONE_OF(name, ending_functions) || IS_ONE_OF(name, thread_functions))
        return "__culprit_rt_";
    if (models && IS_ONE_OF(name, model_functions))
        return "__culprit_sym_w_";
    if (u->coverage == CC_COVERAGE_FULL && IS_ONE_OF(name, output_functions))
        return "__culprit_rt_";
    return NULL;
}

/* Only calls to libc's functions move: a program's own `write` (defined here) keeps its calls. */
static LLVMValueRef redirect_target(unit *u, LLVMValueRef callee, bool models)
{
    if (!LLVMIsAFunction(callee))
        return NULL;
    bool external = LLVMIsDeclaration(callee) || LLVMGetLinkage(callee) == LLVMAvailableExternallyLinkage;
    const char *prefix = external ? wrapper_prefix(u, cc_ir_name(callee), models) : NULL;
    if (!prefix)
        return NULL;
    char wrapper_name[64];
    snprintf(wrapper_name, sizeof wrapper_name, "%s%s", prefix, cc_ir_name(callee));
    LLVMValueRef wrapper = LLVMGetNamedFunction(u->module, wrapper_name);
    if (!wrapper)
        wrapper = LLVMAddFunction(u->module, wrapper_name, LLVMGlobalGetValueType(callee));
    return wrapper;
}

LLVMValueRef cc_redirect_target(unit *u, LLVMValueRef callee)
{
    return redirect_target(u, callee, u->symbolic);
}

/* The call site's memory attributes were clang's for the libc function
 * (toupper and strlen are readonly): a wrapper also writes the call area,
 * and with them left on, -O2 would read the result's shadow from before
 * the call. */
static void drop_memory_attributes(LLVMValueRef call)
{
    static const char *const kinds[] = {"readnone",
                                        "readonly",
                                        "writeonly",
                                        "argmemonly",
                                        "inaccessiblememonly",
                                        "inaccessiblemem_or_argmemonly"};
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
        unsigned kind = LLVMGetEnumAttributeKindForName(kinds[i], strlen(kinds[i]));
        if (kind)
            LLVMRemoveCallSiteEnumAttribute(call, LLVMAttributeFunctionIndex, kind);
    }
}

/* Points one call at the wrapper, declared with the libc function's own type. */
static void redirect_call(LLVMValueRef call, LLVMValueRef wrapper)
{
    drop_memory_attributes(call);
    unsigned callee_operand = (unsigned)LLVMGetNumOperands(call) - 1;
    LLVMValueRef old_callee = LLVMGetOperand(call, callee_operand);
    LLVMValueRef new_callee = wrapper;
    if (LLVMTypeOf(wrapper) != LLVMTypeOf(old_callee))
        new_callee = LLVMConstBitCast(wrapper, LLVMTypeOf(old_callee));
    LLVMSetOperand(call, callee_operand, new_callee);
}

void cc_redirect_calls(unit *u)
{
    for (LLVMValueRef fn = LLVMGetFirstFunction(u->module); fn; fn = LLVMGetNextFunction(fn)) {
        /* Symbolic mode's twins run when CULPRIT_SYM is off: libc itself, not the models. */
        bool twin = cc_sym_is_twin(fn);
        if (!cc_instruments_function(fn) && !twin)
            continue;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
            for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
                if (!cc_ir_is_call(in))
                    continue;
                LLVMValueRef wrapper = redirect_target(u, cc_ir_called_value(in), u->symbolic && !twin);
                if (wrapper)
                    redirect_call(in, wrapper);
            }
        }
    }
}
