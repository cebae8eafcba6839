/*
 * library.h - a shared library opened when a command first needs it
 * (dlopen), for the libraries only some commands call: Z3 (culprit gen,
 * culprit web, the unsat cores) and libtidy (the HTML oracle, culprit
 * web).  Linked, each was mapped and started by every process, `culprit
 * test` among them, and copied into the page tables of each fork
 * (docs/symbolic.md, "Loading Z3").  Each such library has a header that
 * lists the functions culprit calls (an X-macro), a table of pointers to
 * them, and defines that turn its functions' names into calls through the
 * table: concolic/z3_library.h, run/tidy_library.h.
 */
#ifndef CULPRIT_CORE_LIBRARY_H
#define CULPRIT_CORE_LIBRARY_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "culprit/error.h"

/* One function to look up, and where its address goes. */
typedef struct culprit_library_symbol {
    const char *name;
    void *slot;  /* a function pointer of the function's type */
    size_t size; /* sizeof that pointer */
} culprit_library_symbol;

/* Opens file (kept open for the life of the process) and fills every
 * symbol's slot.  false, with why (size bytes) saying what failed - the
 * loader's message, or "FILE has no function NAME" - when it cannot. */
bool culprit_library_open(const char *file, const culprit_library_symbol *symbols, size_t count, char *why,
                          size_t size);

/* A library opened once per process, by the first culprit_library_load:
 * a static object per library, its table of pointers filled then and only
 * read afterwards - what the dynamic linker would have filled at start-up.
 * variable (e.g. "CULPRIT_Z3_LIBRARY") names another file than soname;
 * needed_by and package make the message ("cannot load Z3, which ...
 * need: ...; on Debian, install the package libz3-4"). */
typedef struct culprit_lazy_library {
    pthread_mutex_t lock;
    bool tried;
    char failure[CULPRIT_ERROR_MESSAGE_SIZE]; /* "": loaded */
    const char *variable, *soname, *needed_by, *package;
    const culprit_library_symbol *symbols;
    size_t count;
} culprit_lazy_library;

/* Loads library the first time (thread-safe); every later call returns the
 * first call's answer: CULPRIT_ERROR_INTERNAL, saying what to install, when
 * it could not be loaded or lacks a function. */
culprit_status culprit_library_load(culprit_lazy_library *library, culprit_error *err);

#endif
