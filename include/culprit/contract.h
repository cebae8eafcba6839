/*
 * culprit/contract.h - specifications in C for the programs culprit
 * localizes faults in (SAT-TAR, issue 23; docs/specs.md).
 *
 *   CULPRIT_REQUIRES(cond)           a precondition, at a function's start
 *   CULPRIT_ENSURES(cond)            a postcondition, before it returns
 *   CULPRIT_INVARIANT(rep_ok, obj)   a representation invariant: the
 *                                    function rep_ok (the paper's repOk())
 *                                    must hold of obj at this point
 *
 * Each is a statement.  Built by a plain compiler, a check is an ordinary
 * one, like assert(): when it fails it prints what failed where and
 * aborts, and NDEBUG removes it.  Built by culprit-cc (which defines
 * __CULPRIT_CC__ and finds this header without -I), the check is a call
 * into culprit's runtime that culprit-cc recognizes: the program map lists
 * every check as a spec site, the runtime reports a violation in a form the
 * oracles read (the failure's signature names the violated spec), and in
 * symbolic mode the condition's symbolic value is what SAT-TAR asks the
 * solver to make true.  NDEBUG does not remove checks under culprit-cc:
 * they are the oracle.
 *
 * The condition is evaluated once, in either build; it should have no side
 * effects, as with assert().
 */
#ifndef CULPRIT_CONTRACT_H
#define CULPRIT_CONTRACT_H

/* The kinds, as the map and the runtime number them. */
#define CULPRIT_SPEC_REQUIRES 1
#define CULPRIT_SPEC_ENSURES 2
#define CULPRIT_SPEC_INVARIANT 3

#ifdef __CULPRIT_CC__

/* In libculprit-rt (src/rt/rt_spec.c).  culprit-cc reads the constant
 * arguments of every call to it as the spec site's record. */
void __culprit_rt_spec(int kind, const char *text, const char *file, unsigned line, const char *function,
                       int holds);
/* Marks where the condition's evaluation starts: the branches it takes
 * from here to the check are the check's own (trace mode's window). */
void __culprit_sym_spec_begin(void);

/* !! rather than ?: keeps the condition a value (a comparison) instead of
 * two branches joined, so symbolic mode passes its expression on. */
#define CULPRIT_SPEC_CHECK_(kind, text, cond)                                                                \
    (__culprit_sym_spec_begin(), __culprit_rt_spec((kind), (text), __FILE__, __LINE__, __func__, !!(cond)))

#define CULPRIT_REQUIRES(cond) CULPRIT_SPEC_CHECK_(CULPRIT_SPEC_REQUIRES, #cond, cond)
#define CULPRIT_ENSURES(cond) CULPRIT_SPEC_CHECK_(CULPRIT_SPEC_ENSURES, #cond, cond)
#define CULPRIT_INVARIANT(rep_ok, obj)                                                                       \
    CULPRIT_SPEC_CHECK_(CULPRIT_SPEC_INVARIANT, #rep_ok "(" #obj ")", rep_ok(obj))

#elif defined(NDEBUG)

#define CULPRIT_REQUIRES(cond) ((void)0)
#define CULPRIT_ENSURES(cond) ((void)0)
#define CULPRIT_INVARIANT(rep_ok, obj) ((void)0)

#else

#include <stdio.h>
#include <stdlib.h>

/* The same words as culprit's runtime, so a report reads alike in both
 * builds: "FILE:LINE: FUNCTION: postcondition `COND' violated". */
static inline void culprit_spec_failed_(const char *kind, const char *text, const char *file, unsigned line,
                                        const char *function)
{
    fprintf(stderr, "%s:%u: %s: %s `%s' violated\n", file, line, function, kind, text);
    fflush(stderr);
    abort();
}

#define CULPRIT_SPEC_CHECK_(kind, text, cond)                                                                \
    ((cond) ? (void)0 : culprit_spec_failed_((kind), (text), __FILE__, __LINE__, __func__))

#define CULPRIT_REQUIRES(cond) CULPRIT_SPEC_CHECK_("precondition", #cond, cond)
#define CULPRIT_ENSURES(cond) CULPRIT_SPEC_CHECK_("postcondition", #cond, cond)
#define CULPRIT_INVARIANT(rep_ok, obj) CULPRIT_SPEC_CHECK_("invariant", #rep_ok "(" #obj ")", rep_ok(obj))

#endif

#endif
