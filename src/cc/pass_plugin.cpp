// pass_plugin.cpp - the entry point of culprit-pass.so (issue 22 item 1;
// plugin.c says what the plugin is for).
//
// C++ only because LLVM's pass-plugin interface (llvmGetPassPluginInfo, the
// PassBuilder callbacks, a pass's run method) has no C form in LLVM 14.
// The pass hands clang's module to culprit_pass_instrument, the C
// instrumenter's entry, at the start of the optimisation pipeline - the
// point where, without the plugin, culprit-cc had clang write unoptimised
// bitcode (-disable-llvm-passes) - at every -O level, for full and
// (Thin)LTO pre-link pipelines alike.
#include <llvm-c/Types.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/PassPlugin.h>

extern "C" void culprit_pass_instrument(void *module, int optimizing);
extern "C" void culprit_pass_lower(void *module);

namespace
{

struct CulpritPass : llvm::PassInfoMixin<CulpritPass> {
    bool optimizing;
    explicit CulpritPass(bool optimizing) : optimizing(optimizing)
    {
    }
    llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &)
    {
        culprit_pass_instrument(llvm::wrap(&module), optimizing ? 1 : 0);
        return llvm::PreservedAnalyses::none();
    }
    // Run at -O0 too, where clang marks functions optnone and the pass
    // manager skips passes that are not required.
    static bool isRequired()
    {
        return true;
    }
};

// Last in an optimising pipeline: the deferred increments become loads
// and stores (plugin.c, cc_lower_counters).
struct CulpritLowerPass : llvm::PassInfoMixin<CulpritLowerPass> {
    llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &)
    {
        culprit_pass_lower(llvm::wrap(&module));
        return llvm::PreservedAnalyses::none();
    }
    static bool isRequired()
    {
        return true;
    }
};

} // namespace

extern "C" __attribute__((visibility("default"))) llvm::PassPluginLibraryInfo llvmGetPassPluginInfo()
{
    return {LLVM_PLUGIN_API_VERSION, "culprit", "1", [](llvm::PassBuilder &builder) {
                builder.registerPipelineStartEPCallback(
                    [](llvm::ModulePassManager &passes, llvm::OptimizationLevel level) {
                        passes.addPass(CulpritPass(level != llvm::OptimizationLevel::O0));
                    });
                builder.registerOptimizerLastEPCallback(
                    [](llvm::ModulePassManager &passes, llvm::OptimizationLevel) {
                        passes.addPass(CulpritLowerPass());
                    });
            }};
}
