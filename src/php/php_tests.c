/*
 * php_tests.c - many tests in one request: the PHP functions that culprit's
 * PHPUnit extension (src/php/phpunit/Extension.php) calls around each test,
 * so that every PHPUnit test becomes its own record (docs/php.md,
 * "PHPUnit").
 *
 *   culprit_test_begin(string $name): bool
 *       makes the test's directory DIR/phpunit.N, writes its name there and
 *       sets every counter of the request back to zero, with the crash
 *       state: what runs from now on is the test's;
 *   culprit_test_end(string $verdict, string $message = ""): bool
 *       writes the test's dump and its result (a culprit verdict: pass,
 *       fail, error or skip, and PHPUnit's message) into that directory.
 *
 * Both return false when the extension is not collecting (no
 * CULPRIT_COLLECT_DIR), so the PHPUnit side can say so.  A PHP error that
 * fails a run (a fatal error, or a warning under CULPRIT_PHP_FAIL_ON) and
 * happens inside a test is that test's: its crash stack goes into the
 * test's dump, and a test PHPUnit would call passed fails with the error's
 * message.  A test still open when the request ends (exit(), a fatal
 * error) is ended then, as failed.  culprit's side (src/cli/phpunit.c)
 * records each directory as a test.
 */
#include "php/php_internal.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

/* The test running now. */
static struct {
    bool open;
    uint32_t next; /* the number of the next test's directory */
    char dir[PATH_MAX];
} current;

static const char *const verdicts[] = {"pass", "fail", "error", "skip"};

static void report(const culprit_error *err)
{
    fprintf(stderr, "culprit: %s\n", err->message);
}

static void reset_counts(void)
{
    for (size_t u = 0; u < php_state.unit_count; u++)
        php_unit_reset_counts(php_state.units[u]);
    if (php_state.lines_only)
        php_probes_rearm(); /* the blocks that ran before are watched again */
    php_state.crashed = false;
    php_state.failed_quietly = false;
    php_state.failure[0] = '\0';
    php_state.stack_depth = 0;
}

static bool end_test(const char *verdict, const char *message, size_t message_length)
{
    current.open = false;
    /* PHP failed the test where PHPUnit saw nothing wrong (its error
     * handler does not see fatal errors) */
    if (php_state.crashed && strcmp(verdict, "pass") == 0) {
        verdict = "fail";
        message = php_state.failure;
        message_length = strlen(message);
    }
    php_write_dump(current.dir, false);
    size_t verdict_length = strlen(verdict);
    char *result = emalloc(verdict_length + 1 + message_length + 1);
    memcpy(result, verdict, verdict_length);
    result[verdict_length] = '\n';
    memcpy(result + verdict_length + 1, message, message_length);
    culprit_error err = {0};
    bool written = php_files_write_text(current.dir, "result", result, verdict_length + 1 + message_length,
                                        &err) == CULPRIT_OK;
    if (!written)
        report(&err);
    efree(result);
    return written;
}

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_culprit_test_begin, 0, 1, _IS_BOOL, 0)
ZEND_ARG_TYPE_INFO(0, name, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_culprit_test_end, 0, 1, _IS_BOOL, 0)
ZEND_ARG_TYPE_INFO(0, verdict, IS_STRING, 0)
ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, message, IS_STRING, 0, "\"\"")
ZEND_END_ARG_INFO()

static PHP_FUNCTION(culprit_test_begin)
{
    zend_string *name;
    ZEND_PARSE_PARAMETERS_START(1, 1)
    Z_PARAM_STR(name)
    ZEND_PARSE_PARAMETERS_END();
    if (!php_state.collecting)
        RETURN_FALSE;
    if (current.open) {
        static const char unended[] = "culprit_test_begin was called again before culprit_test_end";
        end_test("error", unended, sizeof unended - 1);
    }
    culprit_error err = {0};
    if (php_files_make_test_directory(php_state.dir, &current.next, current.dir, sizeof current.dir, &err) !=
            CULPRIT_OK ||
        php_files_write_text(current.dir, "name", ZSTR_VAL(name), ZSTR_LEN(name), &err) != CULPRIT_OK) {
        report(&err);
        RETURN_FALSE;
    }
    reset_counts();
    current.open = true;
    RETURN_TRUE;
}

static PHP_FUNCTION(culprit_test_end)
{
    zend_string *verdict, *message = NULL;
    ZEND_PARSE_PARAMETERS_START(1, 2)
    Z_PARAM_STR(verdict)
    Z_PARAM_OPTIONAL
    Z_PARAM_STR(message)
    ZEND_PARSE_PARAMETERS_END();
    bool known = false;
    for (size_t i = 0; i < sizeof verdicts / sizeof *verdicts; i++)
        known = known || zend_string_equals_cstr(verdict, verdicts[i], strlen(verdicts[i]));
    if (!known) {
        zend_argument_value_error(1, "must be \"pass\", \"fail\", \"error\" or \"skip\"");
        RETURN_THROWS();
    }
    if (!php_state.collecting || !current.open)
        RETURN_FALSE;
    RETURN_BOOL(
        end_test(ZSTR_VAL(verdict), message ? ZSTR_VAL(message) : "", message ? ZSTR_LEN(message) : 0));
}

const zend_function_entry php_test_functions[] = {
    ZEND_FE(culprit_test_begin, arginfo_culprit_test_begin)
        ZEND_FE(culprit_test_end, arginfo_culprit_test_end) ZEND_FE_END,
};

void php_tests_finish(void)
{
    if (!current.open)
        return;
    char message[sizeof php_state.failure];
    if (php_state.failure[0])
        snprintf(message, sizeof message, "%s", php_state.failure);
    else
        snprintf(message, sizeof message, "PHP exited during the test (exit status %d)", EG(exit_status));
    end_test("fail", message, strlen(message));
}

void php_tests_reset(void)
{
    current.open = false;
}
