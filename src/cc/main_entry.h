/*
 * main_entry.h - routing main through the runtime (main_entry.c), for the
 * instrumenter's driver (instrument.c).
 */
#ifndef CULPRIT_CC_MAIN_ENTRY_H
#define CULPRIT_CC_MAIN_ENTRY_H

#include <llvm-c/Core.h>

/* When module defines a standard main: renames it and adds a main that
 * calls __culprit_rt_start_main with it, plus the fork-server marker.
 * Call after the map is built. */
void cc_route_main(LLVMModuleRef module);

#endif
