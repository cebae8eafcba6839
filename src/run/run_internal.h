/*
 * run_internal.h - what the files of src/run/ share and nobody else needs.
 */
#ifndef CULPRIT_RUN_INTERNAL_H
#define CULPRIT_RUN_INTERNAL_H

#include <stdbool.h>

#include "culprit/harness.h"

/* In a freshly forked child: enters the sandbox's namespaces.  Returns 0 or
 * an errno value; async-signal-safe calls only. */
int culprit_sandbox_enter(const culprit_sandbox *sandbox);

/* In a freshly forked child: sets up and execs spawn, never returns.  On
 * failure the errno value goes to status_pipe (close-on-exec: an exec that
 * works closes it with nothing written) and the child exits 127. */
void culprit_spawn_child(const culprit_spawn *spawn, int stdout_pipe, int stderr_pipe, int status_pipe)
    __attribute__((noreturn));

#endif
