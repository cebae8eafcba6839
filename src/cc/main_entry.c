/*
 * main_entry.c - routes the program's main through the runtime, so that
 * culprit run can use the program as a fork server (src/rt/rt_fork_server.c,
 * docs/harness.md "Fork servers").
 *
 * In the unit that defines main, after instrumentation and after the map is
 * built (so the map still says "main"): the program's main is renamed to an
 * internal __culprit_program_main, and a new main calls
 * __culprit_rt_start_main(argc, argv, envp, __culprit_program_main).  A
 * weak byte in the section .culprit_fork_server tells culprit that the
 * binary can serve; culprit never starts a program as a server without it.
 *
 * Only the standard forms of main are wrapped: int main(void),
 * int main(int, char **) and int main(int, char **, char **).  Passing the
 * three arguments to a main that declares fewer is what the C runtime does
 * itself on every ABI culprit-cc targets.
 */
#include <stdbool.h>
#include <string.h>

#include "cc/main_entry.h"

#include "rt/fork_server_format.h"

static const char *const program_main_name = "__culprit_program_main";

static bool is_standard_main(LLVMTypeRef type)
{
    LLVMTypeRef result = LLVMGetReturnType(type);
    unsigned count = LLVMCountParamTypes(type);
    if (LLVMIsFunctionVarArg(type) || LLVMGetTypeKind(result) != LLVMIntegerTypeKind ||
        LLVMGetIntTypeWidth(result) != 32 || count > 3)
        return false;
    LLVMTypeRef parameters[3];
    LLVMGetParamTypes(type, parameters);
    for (unsigned i = 0; i < count; i++) {
        bool expected = i == 0 ? LLVMGetTypeKind(parameters[i]) == LLVMIntegerTypeKind &&
                                     LLVMGetIntTypeWidth(parameters[i]) == 32
                               : LLVMGetTypeKind(parameters[i]) == LLVMPointerTypeKind;
        if (!expected)
            return false;
    }
    return true;
}

static void add_marker(LLVMModuleRef module, LLVMTypeRef byte)
{
    LLVMValueRef marker = LLVMAddGlobal(module, byte, "__culprit_fork_server");
    LLVMSetInitializer(marker, LLVMConstInt(byte, 1, 0));
    LLVMSetGlobalConstant(marker, 1);
    LLVMSetLinkage(marker, LLVMWeakAnyLinkage);
    LLVMSetSection(marker, CULPRIT_FORK_SERVER_SECTION);
}

/* main(argc, argv, envp) { return __culprit_rt_start_main(argc, argv, envp, program_main); } */
static void add_entry(LLVMModuleRef module, LLVMValueRef program_main)
{
    LLVMContextRef context = LLVMGetModuleContext(module);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(context);
    LLVMTypeRef strings = LLVMPointerType(LLVMPointerType(LLVMInt8TypeInContext(context), 0), 0);
    LLVMTypeRef main_parameters[3] = {i32, strings, strings};
    LLVMTypeRef main_type = LLVMFunctionType(i32, main_parameters, 3, 0);
    LLVMTypeRef start_parameters[4] = {i32, strings, strings, LLVMPointerType(main_type, 0)};
    LLVMTypeRef start_type = LLVMFunctionType(i32, start_parameters, 4, 0);
    LLVMValueRef start = LLVMGetNamedFunction(module, "__culprit_rt_start_main");
    if (!start)
        start = LLVMAddFunction(module, "__culprit_rt_start_main", start_type);

    LLVMValueRef entry = LLVMAddFunction(module, "main", main_type);
    LLVMBuilderRef builder = LLVMCreateBuilderInContext(context);
    LLVMPositionBuilderAtEnd(builder, LLVMAppendBasicBlockInContext(context, entry, "entry"));
    LLVMValueRef arguments[4] = {LLVMGetParam(entry, 0), LLVMGetParam(entry, 1), LLVMGetParam(entry, 2),
                                 LLVMConstBitCast(program_main, LLVMPointerType(main_type, 0))};
    LLVMValueRef callee = start;
    if (LLVMGlobalGetValueType(start) != start_type)
        callee = LLVMConstBitCast(start, LLVMPointerType(start_type, 0));
    LLVMBuildRet(builder, LLVMBuildCall2(builder, start_type, callee, arguments, 4, ""));
    LLVMDisposeBuilder(builder);
}

void cc_route_main(LLVMModuleRef module)
{
    LLVMValueRef program_main = LLVMGetNamedFunction(module, "main");
    if (!program_main || LLVMIsDeclaration(program_main) ||
        !is_standard_main(LLVMGlobalGetValueType(program_main)))
        return;
    LLVMSetValueName2(program_main, program_main_name, strlen(program_main_name));
    LLVMSetLinkage(program_main, LLVMInternalLinkage);
    add_entry(module, program_main);
    add_marker(module, LLVMInt8TypeInContext(LLVMGetModuleContext(module)));
}
