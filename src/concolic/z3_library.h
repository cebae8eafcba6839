/*
 * z3_library.h - Z3, loaded when a command first needs it.  Only culprit
 * gen, culprit web and the unsat cores solve anything, but a libz3 linked
 * into every process cost every `culprit test` about 1.5 ms of its ~8 ms
 * of CPU: 23 MB mapped, libstdc++'s start-up, and page tables copied at
 * each of the harness's forks (docs/symbolic.md, "Loading Z3").  So
 * culprit does not link libz3: culprit_z3_load() opens it with dlopen(3)
 * (core/library.h) and looks up the functions below, and after it has
 * succeeded the Z3 names of this header call through that table.  A file
 * that calls Z3 includes this header instead of <z3.h> and calls
 * culprit_z3_load() before its first Z3 call; a Z3 function missing from
 * the list is a link error (culprit does not link libz3), and a name
 * listed but absent from the defines below is a call through the linker
 * instead, so the two lists are checked against each other by the build.
 */
#ifndef CULPRIT_CONCOLIC_Z3_LIBRARY_H
#define CULPRIT_CONCOLIC_Z3_LIBRARY_H

#include <z3.h>

#include "culprit/error.h"

/* Every Z3 function culprit calls. */
#define CULPRIT_Z3_FUNCTIONS(X)                                                                              \
    X(Z3_ast_vector_dec_ref)                                                                                 \
    X(Z3_ast_vector_get)                                                                                     \
    X(Z3_ast_vector_inc_ref)                                                                                 \
    X(Z3_ast_vector_size)                                                                                    \
    X(Z3_del_config)                                                                                         \
    X(Z3_del_context)                                                                                        \
    X(Z3_get_error_code)                                                                                     \
    X(Z3_get_error_msg)                                                                                      \
    X(Z3_get_numeral_uint64)                                                                                 \
    X(Z3_get_string)                                                                                         \
    X(Z3_is_eq_ast)                                                                                          \
    X(Z3_is_string)                                                                                          \
    X(Z3_mk_and)                                                                                             \
    X(Z3_mk_bool_sort)                                                                                       \
    X(Z3_mk_bv_sort)                                                                                         \
    X(Z3_mk_bvadd)                                                                                           \
    X(Z3_mk_bvand)                                                                                           \
    X(Z3_mk_bvashr)                                                                                          \
    X(Z3_mk_bvlshr)                                                                                          \
    X(Z3_mk_bvmul)                                                                                           \
    X(Z3_mk_bvnot)                                                                                           \
    X(Z3_mk_bvor)                                                                                            \
    X(Z3_mk_bvsdiv)                                                                                          \
    X(Z3_mk_bvsge)                                                                                           \
    X(Z3_mk_bvsgt)                                                                                           \
    X(Z3_mk_bvshl)                                                                                           \
    X(Z3_mk_bvsle)                                                                                           \
    X(Z3_mk_bvslt)                                                                                           \
    X(Z3_mk_bvsrem)                                                                                          \
    X(Z3_mk_bvsub)                                                                                           \
    X(Z3_mk_bvudiv)                                                                                          \
    X(Z3_mk_bvuge)                                                                                           \
    X(Z3_mk_bvugt)                                                                                           \
    X(Z3_mk_bvule)                                                                                           \
    X(Z3_mk_bvult)                                                                                           \
    X(Z3_mk_bvurem)                                                                                          \
    X(Z3_mk_bvxor)                                                                                           \
    X(Z3_mk_concat)                                                                                          \
    X(Z3_mk_config)                                                                                          \
    X(Z3_mk_const)                                                                                           \
    X(Z3_mk_context)                                                                                         \
    X(Z3_mk_eq)                                                                                              \
    X(Z3_mk_extract)                                                                                         \
    X(Z3_mk_false)                                                                                           \
    X(Z3_mk_ge)                                                                                              \
    X(Z3_mk_gt)                                                                                              \
    X(Z3_mk_implies)                                                                                         \
    X(Z3_mk_int64)                                                                                           \
    X(Z3_mk_int_sort)                                                                                        \
    X(Z3_mk_int_to_str)                                                                                      \
    X(Z3_mk_ite)                                                                                             \
    X(Z3_mk_le)                                                                                              \
    X(Z3_mk_lt)                                                                                              \
    X(Z3_mk_not)                                                                                             \
    X(Z3_mk_or)                                                                                              \
    X(Z3_mk_params)                                                                                          \
    X(Z3_mk_re_concat)                                                                                       \
    X(Z3_mk_re_plus)                                                                                         \
    X(Z3_mk_re_range)                                                                                        \
    X(Z3_mk_re_star)                                                                                         \
    X(Z3_mk_seq_concat)                                                                                      \
    X(Z3_mk_seq_in_re)                                                                                       \
    X(Z3_mk_seq_length)                                                                                      \
    X(Z3_mk_seq_to_re)                                                                                       \
    X(Z3_mk_sign_ext)                                                                                        \
    X(Z3_mk_solver)                                                                                          \
    X(Z3_mk_str_le)                                                                                          \
    X(Z3_mk_str_lt)                                                                                          \
    X(Z3_mk_string)                                                                                          \
    X(Z3_mk_string_sort)                                                                                     \
    X(Z3_mk_string_symbol)                                                                                   \
    X(Z3_mk_true)                                                                                            \
    X(Z3_mk_unary_minus)                                                                                     \
    X(Z3_mk_unsigned_int64)                                                                                  \
    X(Z3_mk_zero_ext)                                                                                        \
    X(Z3_model_dec_ref)                                                                                      \
    X(Z3_model_eval)                                                                                         \
    X(Z3_model_inc_ref)                                                                                      \
    X(Z3_params_dec_ref)                                                                                     \
    X(Z3_params_inc_ref)                                                                                     \
    X(Z3_params_set_bool)                                                                                    \
    X(Z3_params_set_uint)                                                                                    \
    X(Z3_set_error_handler)                                                                                  \
    X(Z3_solver_assert)                                                                                      \
    X(Z3_solver_check)                                                                                       \
    X(Z3_solver_check_assumptions)                                                                           \
    X(Z3_solver_dec_ref)                                                                                     \
    X(Z3_solver_get_model)                                                                                   \
    X(Z3_solver_get_unsat_core)                                                                              \
    X(Z3_solver_inc_ref)                                                                                     \
    X(Z3_solver_set_params)

typedef struct culprit_z3_functions {
#define CULPRIT_Z3_POINTER(name) __typeof__(name) *name;
    CULPRIT_Z3_FUNCTIONS(CULPRIT_Z3_POINTER)
#undef CULPRIT_Z3_POINTER
} culprit_z3_functions;

/* Loads libz3 once per process (thread-safe).  CULPRIT_ERROR_INTERNAL,
 * saying what to install, when it cannot be loaded or lacks a function;
 * every later call returns the first call's answer. */
culprit_status culprit_z3_load(culprit_error *err);

/* The table culprit_z3_load() filled; only after it has succeeded. */
const culprit_z3_functions *culprit_z3(void);

/* From here on, a Z3 call is a call through the table (except in the
 * loader, which needs the functions' own names). */
#ifndef CULPRIT_Z3_LOADER
#define Z3_ast_vector_dec_ref (culprit_z3()->Z3_ast_vector_dec_ref)
#define Z3_ast_vector_get (culprit_z3()->Z3_ast_vector_get)
#define Z3_ast_vector_inc_ref (culprit_z3()->Z3_ast_vector_inc_ref)
#define Z3_ast_vector_size (culprit_z3()->Z3_ast_vector_size)
#define Z3_del_config (culprit_z3()->Z3_del_config)
#define Z3_del_context (culprit_z3()->Z3_del_context)
#define Z3_get_error_code (culprit_z3()->Z3_get_error_code)
#define Z3_get_error_msg (culprit_z3()->Z3_get_error_msg)
#define Z3_get_numeral_uint64 (culprit_z3()->Z3_get_numeral_uint64)
#define Z3_get_string (culprit_z3()->Z3_get_string)
#define Z3_is_eq_ast (culprit_z3()->Z3_is_eq_ast)
#define Z3_is_string (culprit_z3()->Z3_is_string)
#define Z3_mk_and (culprit_z3()->Z3_mk_and)
#define Z3_mk_bool_sort (culprit_z3()->Z3_mk_bool_sort)
#define Z3_mk_bv_sort (culprit_z3()->Z3_mk_bv_sort)
#define Z3_mk_bvadd (culprit_z3()->Z3_mk_bvadd)
#define Z3_mk_bvand (culprit_z3()->Z3_mk_bvand)
#define Z3_mk_bvashr (culprit_z3()->Z3_mk_bvashr)
#define Z3_mk_bvlshr (culprit_z3()->Z3_mk_bvlshr)
#define Z3_mk_bvmul (culprit_z3()->Z3_mk_bvmul)
#define Z3_mk_bvnot (culprit_z3()->Z3_mk_bvnot)
#define Z3_mk_bvor (culprit_z3()->Z3_mk_bvor)
#define Z3_mk_bvsdiv (culprit_z3()->Z3_mk_bvsdiv)
#define Z3_mk_bvsge (culprit_z3()->Z3_mk_bvsge)
#define Z3_mk_bvsgt (culprit_z3()->Z3_mk_bvsgt)
#define Z3_mk_bvshl (culprit_z3()->Z3_mk_bvshl)
#define Z3_mk_bvsle (culprit_z3()->Z3_mk_bvsle)
#define Z3_mk_bvslt (culprit_z3()->Z3_mk_bvslt)
#define Z3_mk_bvsrem (culprit_z3()->Z3_mk_bvsrem)
#define Z3_mk_bvsub (culprit_z3()->Z3_mk_bvsub)
#define Z3_mk_bvudiv (culprit_z3()->Z3_mk_bvudiv)
#define Z3_mk_bvuge (culprit_z3()->Z3_mk_bvuge)
#define Z3_mk_bvugt (culprit_z3()->Z3_mk_bvugt)
#define Z3_mk_bvule (culprit_z3()->Z3_mk_bvule)
#define Z3_mk_bvult (culprit_z3()->Z3_mk_bvult)
#define Z3_mk_bvurem (culprit_z3()->Z3_mk_bvurem)
#define Z3_mk_bvxor (culprit_z3()->Z3_mk_bvxor)
#define Z3_mk_concat (culprit_z3()->Z3_mk_concat)
#define Z3_mk_config (culprit_z3()->Z3_mk_config)
#define Z3_mk_const (culprit_z3()->Z3_mk_const)
#define Z3_mk_context (culprit_z3()->Z3_mk_context)
#define Z3_mk_eq (culprit_z3()->Z3_mk_eq)
#define Z3_mk_extract (culprit_z3()->Z3_mk_extract)
#define Z3_mk_false (culprit_z3()->Z3_mk_false)
#define Z3_mk_ge (culprit_z3()->Z3_mk_ge)
#define Z3_mk_gt (culprit_z3()->Z3_mk_gt)
#define Z3_mk_implies (culprit_z3()->Z3_mk_implies)
#define Z3_mk_int64 (culprit_z3()->Z3_mk_int64)
#define Z3_mk_int_sort (culprit_z3()->Z3_mk_int_sort)
#define Z3_mk_int_to_str (culprit_z3()->Z3_mk_int_to_str)
#define Z3_mk_ite (culprit_z3()->Z3_mk_ite)
#define Z3_mk_le (culprit_z3()->Z3_mk_le)
#define Z3_mk_lt (culprit_z3()->Z3_mk_lt)
#define Z3_mk_not (culprit_z3()->Z3_mk_not)
#define Z3_mk_or (culprit_z3()->Z3_mk_or)
#define Z3_mk_params (culprit_z3()->Z3_mk_params)
#define Z3_mk_re_concat (culprit_z3()->Z3_mk_re_concat)
#define Z3_mk_re_plus (culprit_z3()->Z3_mk_re_plus)
#define Z3_mk_re_range (culprit_z3()->Z3_mk_re_range)
#define Z3_mk_re_star (culprit_z3()->Z3_mk_re_star)
#define Z3_mk_seq_concat (culprit_z3()->Z3_mk_seq_concat)
#define Z3_mk_seq_in_re (culprit_z3()->Z3_mk_seq_in_re)
#define Z3_mk_seq_length (culprit_z3()->Z3_mk_seq_length)
#define Z3_mk_seq_to_re (culprit_z3()->Z3_mk_seq_to_re)
#define Z3_mk_sign_ext (culprit_z3()->Z3_mk_sign_ext)
#define Z3_mk_solver (culprit_z3()->Z3_mk_solver)
#define Z3_mk_str_le (culprit_z3()->Z3_mk_str_le)
#define Z3_mk_str_lt (culprit_z3()->Z3_mk_str_lt)
#define Z3_mk_string (culprit_z3()->Z3_mk_string)
#define Z3_mk_string_sort (culprit_z3()->Z3_mk_string_sort)
#define Z3_mk_string_symbol (culprit_z3()->Z3_mk_string_symbol)
#define Z3_mk_true (culprit_z3()->Z3_mk_true)
#define Z3_mk_unary_minus (culprit_z3()->Z3_mk_unary_minus)
#define Z3_mk_unsigned_int64 (culprit_z3()->Z3_mk_unsigned_int64)
#define Z3_mk_zero_ext (culprit_z3()->Z3_mk_zero_ext)
#define Z3_model_dec_ref (culprit_z3()->Z3_model_dec_ref)
#define Z3_model_eval (culprit_z3()->Z3_model_eval)
#define Z3_model_inc_ref (culprit_z3()->Z3_model_inc_ref)
#define Z3_params_dec_ref (culprit_z3()->Z3_params_dec_ref)
#define Z3_params_inc_ref (culprit_z3()->Z3_params_inc_ref)
#define Z3_params_set_bool (culprit_z3()->Z3_params_set_bool)
#define Z3_params_set_uint (culprit_z3()->Z3_params_set_uint)
#define Z3_set_error_handler (culprit_z3()->Z3_set_error_handler)
#define Z3_solver_assert (culprit_z3()->Z3_solver_assert)
#define Z3_solver_check (culprit_z3()->Z3_solver_check)
#define Z3_solver_check_assumptions (culprit_z3()->Z3_solver_check_assumptions)
#define Z3_solver_dec_ref (culprit_z3()->Z3_solver_dec_ref)
#define Z3_solver_get_model (culprit_z3()->Z3_solver_get_model)
#define Z3_solver_get_unsat_core (culprit_z3()->Z3_solver_get_unsat_core)
#define Z3_solver_inc_ref (culprit_z3()->Z3_solver_inc_ref)
#define Z3_solver_set_params (culprit_z3()->Z3_solver_set_params)
#endif /* CULPRIT_Z3_LOADER */

#endif
