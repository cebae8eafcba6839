/*
 * z3_terms.h - a path's nodes as Z3 bit-vector terms, shared by the two
 * users of Z3 in the concolic library: solving a flipped path (solve.c)
 * and the trace formula's unsat cores (trace_core.c).  Every node is a
 * term of its width; comparisons are 1-bit vectors (1 true, 0 false); an
 * input byte is an 8-bit constant per (source, offset), a typed field a
 * 64-bit one; a trace mode TAG is its value.
 */
#ifndef CULPRIT_CONCOLIC_Z3_TERMS_H
#define CULPRIT_CONCOLIC_Z3_TERMS_H


#include "concolic/z3_library.h"
#include "culprit/concolic.h"

/* Node number of path as a term, its operands already in terms[] (nodes
 * are numbered operands first, so filling terms in order works).  NULL for
 * an op the reader would not have let through. */
Z3_ast culprit_path_z3_term(Z3_context context, const culprit_path *path, uint32_t number, Z3_ast *terms);

#endif
