/*
 * php_module.c - the culprit Zend extension (PHP 8.2): hooks into the
 * engine and writes one dump per request (docs/php.md).
 *
 * Inert unless CULPRIT_COLLECT_DIR names a directory when the module
 * starts, like the C runtime (docs/collector.md §4): it then installs
 * nothing at all, so PHP runs as without it.  When collecting it
 *   - wraps zend_compile_file: each file compiled becomes a unit whose map
 *     is written at once (php_unit.c);
 *   - installs a user opcode handler for every opcode, which counts the
 *     opcode through op_array->reserved[] and resolves the outcome of the
 *     conditional jump run just before in the same frame (by the opcode
 *     that runs next: a comparison may jump itself and skip the JMPZ after
 *     it, so the jump's own handler cannot be relied on);
 *   - wraps zend_error_cb to keep where a fatal error, an uncaught
 *     exception or (CULPRIT_PHP_FAIL_ON) a warning or notice failed the
 *     request (the PHP stack, or the error's file:line when the stack has
 *     already unwound), as the dump's crash stack, and to say so on stderr;
 *   - watches PHP's output layer (php_output.c) for the output map;
 *   - in lines mode (CULPRIT_PHP_COVERAGE=lines) counts only which blocks
 *     ran, through probes that remove themselves (php_probes.c): no
 *     branches, return classes or output map;
 *   - writes the dump when the request shuts down (RSHUTDOWN), with PHP's
 *     exit status and the output records; a request carrying
 *     X-Culprit-Test: NAME writes it into that test's directory
 *     (php_live.c); and, for culprit web, the response's headers
 *     (php_headers.c) and the comparisons on the request's inputs
 *     (php_inputs.c, handed every opcode from the same handler).
 */
#include "php/php_internal.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <SAPI.h>
#include <ext/standard/info.h>
#include <zend_extensions.h>

#include "php/php_version.h"

php_collector php_state;

static zend_op_array *(*previous_compile_file)(zend_file_handle *file_handle, int type);
static void (*previous_error_cb)(int type, zend_string *error_filename, const uint32_t error_lineno,
                                 zend_string *message);

/* The conditional jump whose outcome the next opcode of its frame tells. */
static struct {
    const php_branch *branch;
    const zend_execute_data *frame;
} pending;

/* Counts the outcome of the pending branch that landing on opcode index
 * means; an index that is none of its successors (the jump itself, not
 * fused with the comparison before it) is no outcome yet. */
static void resolve_pending(const php_function *function, uint32_t index)
{
    const php_branch *branch = pending.branch;
    if (branch->function != function)
        return;
    uint32_t outcome = branch->outcome_count;
    if (branch->targets) { /* a match: the arm it lands on */
        for (uint32_t o = 0; o < branch->outcome_count && outcome == branch->outcome_count; o++)
            outcome = branch->targets[o] == index ? o : outcome;
    } else if (index == branch->fallthrough || index == branch->target) {
        bool jumped = index == branch->target && index != branch->fallthrough;
        outcome = jumped == branch->true_jumps ? 0 : 1;
    }
    if (outcome < branch->outcome_count)
        function->unit->outcomes[branch->first_counter - function->unit->block_count + outcome]++;
}

static int count_opcode(zend_execute_data *execute_data)
{
    zend_op_array *op_array = &execute_data->func->op_array;
    const php_function *function = op_array->reserved[php_state.handle];
    if (!function)
        return ZEND_USER_OPCODE_DISPATCH;
    uint32_t index = (uint32_t)(execute_data->opline - op_array->opcodes);
    if (index >= function->op_count)
        return ZEND_USER_OPCODE_DISPATCH;
    if (pending.branch && pending.frame == execute_data)
        resolve_pending(function, index);
    if (index > 0 && function->op_return[index - 1] != PHP_NO_RETURN)
        php_returns_count(function, execute_data, index);
    if (function->op_return[index] != PHP_NO_RETURN)
        php_returns_call(function, execute_data, index);
    function->hits[index]++;
    if (php_inputs_recording())
        php_inputs_opcode(execute_data);
    if (php_state.output_map && php_output_watching())
        php_output_settle(execute_data);
    php_state.last_function = function;
    php_state.last_index = index;
    php_state.last_frame = execute_data;
    uint32_t branch = function->op_branch[index];
    pending.branch = branch == PHP_NO_BRANCH ? NULL : &function->unit->branches[branch];
    pending.frame = execute_data;
    return ZEND_USER_OPCODE_DISPATCH;
}

/* Whether path lies in a directory of CULPRIT_PHP_EXCLUDE (or is one of
 * its files): PHPUnit's own code, a vendor directory. */
static bool excluded(const char *path)
{
    for (size_t i = 0; i < php_state.excluded_count; i++) {
        size_t length = strlen(php_state.excluded[i]);
        if (strncmp(path, php_state.excluded[i], length) == 0 &&
            (path[length] == '\0' || path[length] == '/' || (length > 0 && path[length - 1] == '/')))
            return true;
    }
    return false;
}

static bool file_excluded(const zend_string *filename)
{
    if (php_state.excluded_count == 0)
        return false;
    if (ZSTR_VAL(filename)[0] == '/')
        return excluded(ZSTR_VAL(filename));
    char *resolved = realpath(ZSTR_VAL(filename), NULL);
    bool result = resolved && excluded(resolved);
    free(resolved);
    return result;
}

/* A switch on five or more integer cases, or two or more strings, and a
 * match, compile to a jump table (SWITCH_LONG, SWITCH_STRING, MATCH) that
 * goes straight to the case and skips the comparisons the compiler also
 * emits for values of another type: the case taken would be no branch
 * outcome.  Compiled without jump tables, as Xdebug's branch coverage
 * does, every case is a comparison and a conditional jump on the case's
 * line, and its outcome `true` is that case taken; the cost is a linear
 * search where the table was a hash lookup. */
static zend_op_array *culprit_compile_file(zend_file_handle *file_handle, int type)
{
    uint32_t functions_before = zend_hash_num_elements(CG(function_table));
    uint32_t classes_before = zend_hash_num_elements(CG(class_table));
    uint32_t options = CG(compiler_options);
    CG(compiler_options) |= ZEND_COMPILE_NO_JUMPTABLES;
    zend_op_array *op_array = previous_compile_file(file_handle, type);
    CG(compiler_options) = options;
    if (op_array && op_array->filename && !file_excluded(op_array->filename))
        php_unit_add(op_array, functions_before, classes_before);
    return op_array;
}

/* CULPRIT_PHP_EXCLUDE: absolute paths separated by ':', whose files are
 * not units (docs/php.md). */
static void read_excluded(void)
{
    const char *list = getenv("CULPRIT_PHP_EXCLUDE");
    if (!list || !*list)
        return;
    size_t count = 1;
    for (const char *at = list; *at; at++)
        count += *at == ':';
    php_state.excluded = calloc(count, sizeof *php_state.excluded);
    for (const char *at = list; php_state.excluded && *at;) {
        size_t length = strcspn(at, ":");
        if (length > 0 && at[0] == '/' &&
            (php_state.excluded[php_state.excluded_count] = strndup(at, length)))
            php_state.excluded_count++;
        else if (length > 0)
            fprintf(stderr, "culprit: CULPRIT_PHP_EXCLUDE: '%.*s' is not an absolute path; ignored\n",
                    (int)length, at);
        at += length + (at[length] == ':');
    }
}

/* The user frames of the PHP stack, innermost first. */
static void keep_stack(void)
{
    php_state.stack_depth = 0;
    for (zend_execute_data *frame = EG(current_execute_data);
         frame && php_state.stack_depth < CULPRIT_STACK_DEPTH; frame = frame->prev_execute_data) {
        if (!frame->func || !ZEND_USER_CODE(frame->func->type) || !frame->opline)
            continue;
        const php_function *function = frame->func->op_array.reserved[php_state.handle];
        uint32_t index = (uint32_t)(frame->opline - frame->func->op_array.opcodes);
        if (!function || index >= function->op_count)
            continue;
        for (size_t u = 0; u < php_state.unit_count; u++) {
            if (php_state.units[u] == function->unit) {
                php_state.stack[php_state.stack_depth++] =
                    (php_dump_frame){.unit = (uint32_t)u, .block = function->op_block[index]};
                break;
            }
        }
    }
}

/* The error types that fail a run (CULPRIT_PHP_FAIL_ON, docs/php.md):
 * fatal ones always. */
static int fatal_types(void)
{
    return E_ERROR | E_CORE_ERROR | E_COMPILE_ERROR | E_USER_ERROR | E_RECOVERABLE_ERROR | E_PARSE;
}

static const char *type_name(int type)
{
    switch (type) {
    case E_WARNING:
    case E_CORE_WARNING:
    case E_COMPILE_WARNING:
    case E_USER_WARNING:
        return "Warning";
    case E_NOTICE:
    case E_USER_NOTICE:
        return "Notice";
    case E_DEPRECATED:
    case E_USER_DEPRECATED:
        return "Deprecated";
    case E_PARSE:
        return "Parse error";
    default:
        return "Fatal error";
    }
}

/* Reads CULPRIT_PHP_FAIL_ON: error (the default), warning or notice, each
 * failing on what the one before does too.  An unknown value is said once
 * and the default kept. */
static int failing_types(void)
{
    const char *level = getenv("CULPRIT_PHP_FAIL_ON");
    int warnings = E_WARNING | E_CORE_WARNING | E_COMPILE_WARNING | E_USER_WARNING;
    int notices = E_NOTICE | E_USER_NOTICE | E_DEPRECATED | E_USER_DEPRECATED;
    if (!level || !*level || strcmp(level, "error") == 0)
        return fatal_types();
    if (strcmp(level, "warning") == 0)
        return fatal_types() | warnings;
    if (strcmp(level, "notice") == 0)
        return fatal_types() | warnings | notices;
    fprintf(stderr, "culprit: CULPRIT_PHP_FAIL_ON=%s: expected error, warning or notice; using error\n",
            level);
    return fatal_types();
}

/* The first error that fails the run keeps the PHP stack as the dump's
 * crash stack, and says what it was on stderr in a line of culprit's own
 * ("culprit: PHP Warning at FILE:LINE: MESSAGE"), which the oracle reads
 * (src/run/oracle_report.c) for the test's message and signature: PHP's
 * own messages depend on display_errors, log_errors and error_log. */
static void error_cb(int type, zend_string *error_filename, const uint32_t error_lineno, zend_string *message)
{
    int kind = type & E_ALL;
    bool silenced = !(kind & fatal_types()) && !(EG(error_reporting) & kind); /* @, error_reporting() */
    if ((kind & php_state.failing_types) && !silenced && !php_state.crashed) {
        php_state.crashed = true;
        php_state.failed_quietly = !(kind & fatal_types());
        keep_stack();
        /* An uncaught exception is reported after the stack has unwound:
         * its file and line are where it was thrown. */
        if (php_state.stack_depth == 0 && error_filename &&
            php_unit_find_line(ZSTR_VAL(error_filename), error_lineno, &php_state.stack[0]))
            php_state.stack_depth = 1;
        const char *text = message ? ZSTR_VAL(message) : "";
        const char *newline = strchr(text, '\n'); /* an uncaught exception's stack trace follows */
        int length = (int)(newline ? newline - text : (ptrdiff_t)strlen(text));
        fprintf(stderr, "culprit: PHP %s at %s:%u: %.*s\n", type_name(kind),
                error_filename ? ZSTR_VAL(error_filename) : "?", (unsigned)error_lineno, length, text);
        fflush(stderr);
        /* the message of the PHPUnit test it ends (php_tests.c) */
        snprintf(php_state.failure, sizeof php_state.failure, "PHP %s: %.*s", type_name(kind), length, text);
    }
    previous_error_cb(type, error_filename, error_lineno, message);
}

/* Lines mode (php_probes.c) hooks every opcode too, so that the engine
 * gives them the user-opcode handler, and then takes the hook off all but
 * the probes; it has no branches, return classes or output map. */
static void install_hooks(void)
{
    user_opcode_handler_t handler = php_state.lines_only ? php_probes_hit : count_opcode;
    for (int opcode = 0; opcode <= ZEND_VM_LAST_OPCODE; opcode++)
        if (opcode != ZEND_HANDLE_EXCEPTION && !zend_get_user_opcode_handler((zend_uchar)opcode))
            zend_set_user_opcode_handler((zend_uchar)opcode, handler);
    previous_compile_file = zend_compile_file;
    zend_compile_file = culprit_compile_file;
    previous_error_cb = zend_error_cb;
    zend_error_cb = error_cb;
    if (php_state.output_map)
        php_output_install();
}

/* CULPRIT_PHP_COVERAGE: full (the default) or lines (docs/php.md, "Lines
 * mode").  An unknown value is said and full used. */
static bool lines_only(void)
{
    const char *mode = getenv("CULPRIT_PHP_COVERAGE");
    if (!mode || !*mode || strcmp(mode, "full") == 0)
        return false;
    if (strcmp(mode, "lines") == 0)
        return true;
    fprintf(stderr, "culprit: CULPRIT_PHP_COVERAGE=%s: expected full or lines; using full\n", mode);
    return false;
}

/* CULPRIT_PHP_OUTPUT_MAP=0: this request's output is not the test's, and
 * gets no output records: culprit-php-cgi sets it for the requests of a
 * chain but the last, whose page alone is the test's output (docs/php.md,
 * "Request chains"). */
static bool output_elsewhere(void)
{
    const char *map = getenv("CULPRIT_PHP_OUTPUT_MAP");
    return map && strcmp(map, "0") == 0;
}

/* CULPRIT_PHP_CGI_BODY=1 (culprit-php-cgi): php-cgi writes no HTTP
 * headers, only the body, which is what the oracles compare (docs/php.md,
 * "HTTP requests").  Read when PHP starts, collecting or not, so a page's
 * output does not depend on collection. */
static bool body_only;

/* Whether opcache runs this request's scripts: it then hands the engine
 * optimized op arrays from shared memory, whose lines the maps do not
 * describe (tests/e2e/test_php_cgi.sh saw lines swapped).  Debian enables
 * it for php-cgi and php-fpm, not for the CLI. */
static bool opcache_active(void)
{
    if (!zend_get_extension("Zend OPcache"))
        return false;
    bool cli = strcmp(sapi_module.name, "cli") == 0 || strcmp(sapi_module.name, "phpdbg") == 0;
    const char *setting = cli ? "opcache.enable_cli" : "opcache.enable";
    return zend_ini_long((char *)setting, strlen(setting), 0) != 0;
}

/* Turns opcache off until the end of the request, as ini_set() would:
 * opcache takes "opcache.enable=0" at run time (not "1"), and then
 * compiles nothing from its shared memory, so the scripts this request
 * compiles are the engine's own op arrays.  Other requests of the same
 * server (php-fpm, php -S) have it back.  Whether it worked: a PHP
 * whose opcache refused it keeps counting with probes that stay. */
static bool opcache_step_aside(void)
{
    zend_string *name = zend_string_init("opcache.enable", strlen("opcache.enable"), 0);
    zend_string *off = zend_string_init("0", 1, 0);
    bool done = zend_alter_ini_entry(name, off, ZEND_INI_USER, ZEND_INI_STAGE_RUNTIME) == SUCCESS;
    zend_string_release(off);
    zend_string_release(name);
    return done;
}

static PHP_RINIT_FUNCTION(culprit)
{
    static bool warned;
    if (body_only)
        SG(request_info).no_headers = 1;
    if (php_state.collecting)
        php_live_begin(); /* X-Culprit-Test: NAME */
    bool opcache = php_state.collecting && opcache_active() && !opcache_step_aside();
    php_state.probes_stay = opcache; /* opcache's op arrays are shared: not edited */
    if (opcache && !warned) {
        warned = true;
        fprintf(stderr, "culprit: warning: opcache is enabled and cannot be turned off for this request; "
                        "culprit's counts need the op arrays PHP compiles: run PHP with -d "
                        "opcache.enable=0\n");
    }
    return SUCCESS;
}

static PHP_MINIT_FUNCTION(culprit)
{
    const char *body = getenv("CULPRIT_PHP_CGI_BODY");
    body_only = body && strcmp(body, "1") == 0;
    php_headers_startup();
    php_inputs_startup();
    const char *dir = getenv("CULPRIT_COLLECT_DIR");
    if (!dir || !*dir)
        return SUCCESS;
    php_state.handle = zend_get_resource_handle("culprit");
    php_state.dir = strdup(dir);
    if (php_state.handle < 0 || !php_state.dir) {
        fprintf(stderr, "culprit: cannot collect: no free op array slot for the extension\n");
        return SUCCESS;
    }
    php_state.collecting = true;
    php_state.failing_types = failing_types();
    php_state.lines_only = lines_only();
    php_state.output_map = !php_state.lines_only && !output_elsewhere();
    read_excluded();
    install_hooks();
    return SUCCESS;
}

static PHP_MSHUTDOWN_FUNCTION(culprit)
{
    php_headers_shutdown();
    php_inputs_shutdown();
    if (php_state.output_map)
        php_output_uninstall();
    free(php_state.dir);
    php_state.dir = NULL;
    for (size_t i = 0; i < php_state.excluded_count; i++)
        free(php_state.excluded[i]);
    free(php_state.excluded);
    php_state.excluded = NULL;
    php_state.excluded_count = 0;
    return SUCCESS;
}

/* The output records of this request, their frames cut to the units the
 * dump holds (the units left out, out of memory, come last); NULL when
 * there are none or no memory. */
static php_dump_output *output_records(size_t unit_count, size_t *count)
{
    const php_dump_output *records;
    size_t record_count = php_output_records(&records);
    php_dump_output *outputs = calloc(record_count + 1, sizeof *outputs);
    for (size_t i = 0; outputs && i < record_count; i++) {
        outputs[i] = records[i];
        uint32_t depth = 0;
        while (depth < outputs[i].source.depth && outputs[i].source.frames[depth].unit < unit_count)
            depth++;
        outputs[i].source.depth = depth;
    }
    *count = outputs ? record_count : 0;
    return outputs;
}

void php_write_dump(const char *dir, bool whole_request)
{
    /* A warning or notice that fails the run (CULPRIT_PHP_FAIL_ON) ends it
     * as a fatal error does, with PHP's status 255: the harness sees a
     * failure, the dump its site. */
    if (whole_request && php_state.failed_quietly && EG(exit_status) == 0)
        EG(exit_status) = 255;
    php_dump_unit *units = calloc(php_state.unit_count + 1, sizeof *units);
    if (!units)
        return;
    size_t count = 0;
    for (size_t u = 0; u < php_state.unit_count; u++) {
        php_unit *unit = php_state.units[u];
        php_unit_fill_counts(unit);
        if (!unit->counts) /* out of memory: the unit's frames would name nothing */
            break;
        units[count++] =
            (php_dump_unit){.hash = unit->hash, .counter_count = unit->counter_count, .counts = unit->counts};
    }
    /* A test's dump (docs/php.md, "PHPUnit") ends with the test, not the
     * process: its status says whether a PHP error failed it. */
    int32_t status = whole_request ? EG(exit_status) : php_state.crashed ? 255 : 0;
    php_dump dump = {.pid = (int32_t)getpid(),
                     .parent_pid = (int32_t)getppid(),
                     .sequence = php_state.sequence++,
                     .end = CULPRIT_DUMP_END_EXIT,
                     .status = status,
                     .crashed = php_state.crashed,
                     .unit_count = count,
                     .units = units};
    /* A test's output went into PHPUnit's own buffer and is not mapped. */
    php_dump_output *outputs = whole_request ? output_records(count, &dump.output_count) : NULL;
    dump.outputs = outputs;
    for (uint32_t i = 0; i < php_state.stack_depth; i++)
        if (php_state.stack[i].unit < count)
            dump.stack[dump.stack_depth++] = php_state.stack[i];
    culprit_error err = {0};
    if (php_files_write_dump(dir, &dump, &err) != CULPRIT_OK)
        fprintf(stderr, "culprit: cannot write the dump: %s\n", err.message);
    free(outputs);
    free(units);
}

static PHP_RSHUTDOWN_FUNCTION(culprit)
{
    php_headers_write(); /* culprit-php-cgi --headers FILE */
    php_inputs_write();  /* culprit-php-cgi --inputs FILE */
    if (php_state.collecting) {
        php_tests_finish(); /* a test PHP left unfinished (an exit, a fatal error) */
        char live[PATH_MAX];
        const char *test = php_live_directory(live, sizeof live); /* a live server's test */
        php_write_dump(test ? test : php_state.dir, true);
        php_live_end();
        php_output_release();
    }
    return SUCCESS;
}

/* After the executor has gone: no PHP code can reach the units any more. */
static ZEND_MODULE_POST_ZEND_DEACTIVATE_D(culprit)
{
    for (size_t u = 0; u < php_state.unit_count; u++)
        php_unit_free(php_state.units[u]);
    free(php_state.units);
    php_state.units = NULL;
    php_state.unit_count = php_state.unit_capacity = 0;
    php_state.crashed = false;
    php_state.failed_quietly = false;
    php_state.failure[0] = '\0';
    php_state.stack_depth = 0;
    php_tests_reset();
    php_state.last_function = NULL;
    php_state.last_frame = NULL;
    php_output_reset();
    pending.branch = NULL;
    pending.frame = NULL;
    return SUCCESS;
}

static PHP_MINFO_FUNCTION(culprit)
{
    php_info_print_table_start();
    php_info_print_table_row(2, "culprit collection", php_state.collecting ? php_state.dir : "off");
    php_info_print_table_end();
}

zend_module_entry culprit_module_entry = {
    STANDARD_MODULE_HEADER,
    "culprit",
    php_test_functions, /* culprit_test_begin, culprit_test_end */
    PHP_MINIT(culprit),
    PHP_MSHUTDOWN(culprit),
    PHP_RINIT(culprit),
    PHP_RSHUTDOWN(culprit),
    PHP_MINFO(culprit),
    "0.1.0",
    NO_MODULE_GLOBALS,
    ZEND_MODULE_POST_ZEND_DEACTIVATE_N(culprit),
    STANDARD_MODULE_PROPERTIES_EX,
};

/* PHP's entry point.  PHP calls it before it compares the module API with
 * its own, so a PHP of another version hears first, in a sentence, which
 * PHP this build needs (php_version.c); PHP then refuses the module.  The
 * engine's version is read through the symbol every PHP 7 and 8 exports,
 * looked up rather than linked, so that any PHP can call this. */
ZEND_DLEXPORT zend_module_entry *get_module(void);
ZEND_DLEXPORT zend_module_entry *get_module(void)
{
    char *(*running)(void) = (char *(*)(void))dlsym(RTLD_DEFAULT, "get_zend_version");
    char message[512];
    if (!php_version_compatible(ZEND_VERSION, PHP_VERSION, running ? running() : NULL, message,
                                sizeof message))
        fprintf(stderr, "%s\n", message);
    return &culprit_module_entry;
}
