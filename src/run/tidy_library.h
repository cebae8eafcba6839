/*
 * tidy_library.h - libtidy, loaded when a test is first judged as HTML or
 * culprit web first reads a page (core/library.h says why: every other
 * `culprit test` paid for mapping it).  A file that calls tidy includes
 * this header instead of <tidy/tidy.h> and calls culprit_tidy_load()
 * before its first tidy call; the tidy names below then call through the
 * table.  A tidy function missing from the list is a link error (culprit
 * does not link libtidy).
 */
#ifndef CULPRIT_RUN_TIDY_LIBRARY_H
#define CULPRIT_RUN_TIDY_LIBRARY_H

#include <tidy/tidy.h>
#include <tidy/tidybuffio.h>

#include "culprit/error.h"

/* Every tidy function culprit calls. */
#define CULPRIT_TIDY_FUNCTIONS(X)                                                                            \
    X(tidyAttrGetById)                                                                                       \
    X(tidyAttrValue)                                                                                         \
    X(tidyBufAttach)                                                                                         \
    X(tidyBufDetach)                                                                                         \
    X(tidyBufFree)                                                                                           \
    X(tidyBufInit)                                                                                           \
    X(tidyCreate)                                                                                            \
    X(tidyGetAppData)                                                                                        \
    X(tidyGetChild)                                                                                          \
    X(tidyGetMessageColumn)                                                                                  \
    X(tidyGetMessageDefault)                                                                                 \
    X(tidyGetMessageDoc)                                                                                     \
    X(tidyGetMessageKey)                                                                                     \
    X(tidyGetMessageLevel)                                                                                   \
    X(tidyGetMessageLine)                                                                                    \
    X(tidyGetNext)                                                                                           \
    X(tidyGetRoot)                                                                                           \
    X(tidyNodeGetId)                                                                                         \
    X(tidyNodeGetValue)                                                                                      \
    X(tidyNodeIsText)                                                                                        \
    X(tidyOptSetBool)                                                                                        \
    X(tidyOptSetInt)                                                                                         \
    X(tidyParseBuffer)                                                                                       \
    X(tidyRelease)                                                                                           \
    X(tidySetAppData)                                                                                        \
    X(tidySetErrorBuffer)                                                                                    \
    X(tidySetInCharEncoding)                                                                                 \
    X(tidySetMessageCallback)

typedef struct culprit_tidy_functions {
#define CULPRIT_TIDY_POINTER(name) __typeof__(name) *name;
    CULPRIT_TIDY_FUNCTIONS(CULPRIT_TIDY_POINTER)
#undef CULPRIT_TIDY_POINTER
} culprit_tidy_functions;

/* Loads libtidy once per process (thread-safe).  CULPRIT_ERROR_INTERNAL,
 * saying what to install, when it cannot be loaded or lacks a function;
 * every later call returns the first call's answer. */
culprit_status culprit_tidy_load(culprit_error *err);

/* The table culprit_tidy_load() filled; only after it has succeeded. */
const culprit_tidy_functions *culprit_tidy(void);

/* From here on, a tidy call is a call through the table (except in the
 * loader, which needs the functions' own names). */
#ifndef CULPRIT_TIDY_LOADER
#define tidyAttrGetById (culprit_tidy()->tidyAttrGetById)
#define tidyAttrValue (culprit_tidy()->tidyAttrValue)
#define tidyBufAttach (culprit_tidy()->tidyBufAttach)
#define tidyBufDetach (culprit_tidy()->tidyBufDetach)
#define tidyBufFree (culprit_tidy()->tidyBufFree)
#define tidyBufInit (culprit_tidy()->tidyBufInit)
#define tidyCreate (culprit_tidy()->tidyCreate)
#define tidyGetAppData (culprit_tidy()->tidyGetAppData)
#define tidyGetChild (culprit_tidy()->tidyGetChild)
#define tidyGetMessageColumn (culprit_tidy()->tidyGetMessageColumn)
#define tidyGetMessageDefault (culprit_tidy()->tidyGetMessageDefault)
#define tidyGetMessageDoc (culprit_tidy()->tidyGetMessageDoc)
#define tidyGetMessageKey (culprit_tidy()->tidyGetMessageKey)
#define tidyGetMessageLevel (culprit_tidy()->tidyGetMessageLevel)
#define tidyGetMessageLine (culprit_tidy()->tidyGetMessageLine)
#define tidyGetNext (culprit_tidy()->tidyGetNext)
#define tidyGetRoot (culprit_tidy()->tidyGetRoot)
#define tidyNodeGetId (culprit_tidy()->tidyNodeGetId)
#define tidyNodeGetValue (culprit_tidy()->tidyNodeGetValue)
#define tidyNodeIsText (culprit_tidy()->tidyNodeIsText)
#define tidyOptSetBool (culprit_tidy()->tidyOptSetBool)
#define tidyOptSetInt (culprit_tidy()->tidyOptSetInt)
#define tidyParseBuffer (culprit_tidy()->tidyParseBuffer)
#define tidyRelease (culprit_tidy()->tidyRelease)
#define tidySetAppData (culprit_tidy()->tidySetAppData)
#define tidySetErrorBuffer (culprit_tidy()->tidySetErrorBuffer)
#define tidySetInCharEncoding (culprit_tidy()->tidySetInCharEncoding)
#define tidySetMessageCallback (culprit_tidy()->tidySetMessageCallback)
#endif /* CULPRIT_TIDY_LOADER */

#endif
