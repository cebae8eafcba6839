/*
 * php_internal.h - what the extension's PHP-facing files share: the units
 * (one per compiled PHP file) and their counters, the collection state of
 * the process, and the functions that build units from op arrays
 * (php_unit.c), count, dump and hook into the engine (php_module.c), count
 * return classes (php_returns.c) and map the output (php_output.c).
 *
 * Includes PHP's headers, so only the extension's own files include it;
 * php_blocks.h, php_files.h and php_output_fifo.h stay free of them for the
 * unit tests.
 */
#ifndef CULPRIT_PHP_INTERNAL_H
#define CULPRIT_PHP_INTERNAL_H

#include <php.h>
#include <stdbool.h>
#include <stdint.h>

#include "php/php_files.h"

#define PHP_NO_BRANCH UINT32_MAX
#define PHP_NO_RETURN UINT32_MAX
/* The return classes of a call site (php_returns.c), one counter each. */
#define PHP_RETURN_CLASSES 11

struct php_unit;
struct cc_map;

/* Outcomes a match's branch can have at most: its arms, then its default
 * (php_match.c; a larger table keeps its first arms). */
#define PHP_MATCH_OUTCOMES 256

/* One decision: a conditional jump (outcomes true, false) or a match's
 * jump table (its arms, then its default), with a counter per outcome. */
typedef struct php_branch {
    const struct php_function *function;
    uint32_t fallthrough;   /* opcode index of the opcode after the deciding one */
    uint32_t target;        /* a conditional jump: the opcode index it lands on */
    bool true_jumps;        /* ... whether the condition being true is the jump */
    uint32_t outcome_count; /* 2, or a match's arms and default */
    uint32_t *targets;      /* a match: the opcode each outcome lands on; else NULL */
    uint32_t first_counter; /* the unit's counter of its first outcome (true), the others next */
} php_branch;

/* One op array (a function, a method, a closure, a file's top-level code),
 * found through op_array->reserved[] while it runs. */
typedef struct php_function {
    struct php_unit *unit;
    uint32_t op_count;
    uint64_t *hits;      /* per opcode: times the VM ran it (the unit's op_hits) */
    uint32_t *op_block;  /* per opcode: its block counter */
    uint32_t *op_branch; /* per opcode: the unit's branch it decides, or PHP_NO_BRANCH */
    uint32_t *op_return; /* per opcode: the unit's return site it calls, or PHP_NO_RETURN */
} php_function;

/* A call whose result is used, of a function that may be the program's. */
typedef struct php_return_site {
    const struct php_function *function;
    uint32_t op; /* the DO_*CALL's index */
    uint32_t line, column;
    uint32_t first_counter; /* PHP_RETURN_CLASSES of them */
    char *callee;
} php_return_site;

typedef struct php_unit {
    char hash[65];
    uint32_t index; /* in php_state.units, and so in the dump */
    char *path;
    uint32_t counter_count, block_count;
    uint32_t *leader_op;  /* per block: index of its first opcode in op_hits */
    uint32_t *block_line; /* per block: its first line, 0 when none */
    uint32_t *entry_next; /* per block: an opcode whose runs it counts too, or UINT32_MAX */
    uint32_t *op_line;    /* per opcode: its line in the map, 0 when none */
    uint64_t *op_hits;    /* every opcode of every function of the unit */
    uint32_t op_total;
    php_branch *branches;
    uint32_t branch_count;
    uint32_t outcome_count; /* all branches' */
    uint64_t *outcomes;     /* per branch, its outcomes' in order (true, false) */
    php_return_site *returns;
    uint32_t return_count;
    uint32_t *op_return;     /* every opcode's (the functions' op_return) */
    uint64_t *return_counts; /* PHP_RETURN_CLASSES per site */
    php_function *functions;
    uint32_t function_count;
    uint64_t *counts; /* counter_count, filled at the dump */
} php_unit;

/* The process's collection state (php_module.c). */
typedef struct php_collector {
    bool collecting;
    bool lines_only;   /* CULPRIT_PHP_COVERAGE=lines: block hits only (php_probes.c) */
    bool output_map;   /* output records (php_output.c): full mode, unless CULPRIT_PHP_OUTPUT_MAP=0 */
    bool probes_stay;  /* lines mode under opcache: its op arrays are shared, never edited */
    char *dir;         /* CULPRIT_COLLECT_DIR */
    int handle;        /* op_array->reserved[] slot */
    uint32_t sequence; /* dumps written by this process */
    php_unit **units;  /* this request's, in compile order */
    size_t unit_count, unit_capacity;
    int failing_types;   /* E_* that fail the run (CULPRIT_PHP_FAIL_ON) */
    bool crashed;        /* an error of failing_types, or an uncaught exception */
    bool failed_quietly; /* ... a warning or notice: PHP itself would exit 0 */
    char failure[512];   /* "PHP Fatal error: MESSAGE" of that error */
    char **excluded;     /* CULPRIT_PHP_EXCLUDE: files under these are not units */
    size_t excluded_count;
    uint32_t stack_depth;
    php_dump_frame stack[CULPRIT_STACK_DEPTH];
    /* The opcode the handler saw last: what produced the output the
     * buffers gained since (php_output.c).  last_frame is only compared,
     * never read: the frame may be gone. */
    const php_function *last_function;
    uint32_t last_index;
    const zend_execute_data *last_frame;
} php_collector;

extern php_collector php_state;

/* Builds the unit of a file just compiled: op_array is its top-level code,
 * and the functions and classes the compilation added to the engine's
 * tables after the first functions_before and classes_before entries are
 * its own.  Writes its map to the collection directory and adds it to
 * php_state.units.  Failures are reported as PHP warnings, once. */
void php_unit_add(zend_op_array *op_array, uint32_t functions_before, uint32_t classes_before);

/* The block counter of (file, line) in a unit of this request, for a crash
 * site known only by its position; false when none is there. */
bool php_unit_find_line(const char *path, uint32_t line, php_dump_frame *frame);

/* Sets the unit's counters back to zero: a PHPUnit test starts
 * (php_tests.c). */
void php_unit_reset_counts(php_unit *unit);

/* Fills each unit's counts from its opcode hits and branch outcomes. */
void php_unit_fill_counts(php_unit *unit);

void php_unit_free(php_unit *unit);

/* A match (ZEND_MATCH, php_match.c): targets gets the opcode index of
 * each outcome (at most PHP_MATCH_OUTCOMES; NULL: only counts them), the
 * default's last; returns their number.  outcome_name: the name of the
 * outcome landing on target ("case 1", "case 's'|'m'", "default"). */
uint32_t php_match_targets(const zend_op_array *op_array, const zend_op *op, uint32_t *targets);
void php_match_outcome_name(const zend_op_array *op_array, const zend_op *op, uint32_t target,
                            bool is_default, char *out, size_t size);

/* Return classes (php_returns.c).  find: lists the unit's call sites whose
 * result is used and gives each PHP_RETURN_CLASSES counters after the
 * others; add_records: their `return` records; call: at a site's call
 * opcode; count: at the opcode after it, which the result has reached. */
culprit_status php_returns_find(php_unit *unit, zend_op_array *const *arrays, culprit_error *err);
culprit_status php_returns_add_records(const php_unit *unit, struct cc_map *map, uint32_t file,
                                       culprit_error *err);
void php_returns_call(const php_function *function, const zend_execute_data *execute_data, uint32_t index);
void php_returns_count(const php_function *function, zend_execute_data *execute_data, uint32_t index);
void php_returns_free(php_unit *unit);

/* The output map (php_output.c).  install/uninstall: at module start and
 * shutdown.  settle: at every opcode while anything is or was buffered,
 * before the handler records the opcode as the last one; current is its
 * frame.  records: this request's, for the dump.  release: drops the
 * strings it holds (while the request's memory is alive); reset: after the
 * request. */
void php_output_install(void);
void php_output_uninstall(void);
void php_output_settle(zend_execute_data *current);
bool php_output_watching(void);
size_t php_output_records(const php_dump_output **records);
void php_output_release(void);
void php_output_reset(void);

/* Lines mode (CULPRIT_PHP_COVERAGE=lines, php_probes.c): hit is the user
 * opcode handler; arm leaves a probe on the opcodes that start a unit's
 * blocks (and the entry points of its functions) and gives every other
 * opcode back the engine's own handler (arrays: the unit's op arrays, in
 * its functions' order); rearm puts back the probes that fired, in every
 * op array still alive (a PHPUnit test starts). */
int php_probes_hit(zend_execute_data *execute_data);
void php_probes_arm(php_unit *unit, zend_op_array *const *arrays);
void php_probes_rearm(void);

/* Live servers (php_live.c; docs/php.md, "Live servers").  begin: when
 * a request starts, reads the test it belongs to (X-Culprit-Test); its
 * directory: where its dump goes (DIR/live.HASH, made), NULL when it names
 * no test or the directory cannot be made (said); end: forgets it. */
void php_live_begin(void);
const char *php_live_directory(char *path, size_t size);
void php_live_end(void);

/* php_headers.c: the response's status and headers into
 * CULPRIT_PHP_CGI_HEADERS when a request ends (culprit web). */
void php_headers_startup(void);
void php_headers_shutdown(void);
void php_headers_write(void);

/* php_inputs.c: the request's input constraints into CULPRIT_PHP_INPUTS
 * (culprit web, docs/web.md).  startup/shutdown: with the module;
 * recording: whether the variable is set; opcode: at every opcode of a
 * unit, from the opcode handler; write: when the request ends (also
 * forgets the request's inputs and records). */
void php_inputs_startup(void);
void php_inputs_shutdown(void);
bool php_inputs_recording(void);
void php_inputs_opcode(zend_execute_data *execute_data);
void php_inputs_write(void);

/* Writes a dump of this request's counters into dir (php_module.c):
 * whole_request at its end (with the output records and PHP's exit
 * status), else at the end of a PHPUnit test. */
void php_write_dump(const char *dir, bool whole_request);

/* One record per PHPUnit test in one request (php_tests.c; docs/php.md,
 * "PHPUnit").  The PHP functions culprit_test_begin and culprit_test_end;
 * finish: at the request's end, ends a test left open; reset: after it. */
extern const zend_function_entry php_test_functions[];
void php_tests_finish(void);
void php_tests_reset(void);

#endif
