/*
 * php_inputs.c - the path constraint of a request on its inputs, for
 * culprit web's input constraints (docs/web.md, "Input constraints";
 * issue 24 item 2): culprit-php-cgi --inputs FILE sets
 * CULPRIT_PHP_INPUTS=FILE, and the opcode handler of php_module.c then
 * hands every opcode of the application's code to php_inputs_opcode,
 * which records the comparisons whose operand derives from a request
 * input ($_GET, $_POST, $_COOKIE):
 *
 *   - IS_EQUAL, IS_NOT_EQUAL, IS_IDENTICAL, IS_NOT_IDENTICAL, IS_SMALLER,
 *     IS_SMALLER_OR_EQUAL, CASE, CASE_STRICT: the other operand;
 *   - SWITCH_STRING, SWITCH_LONG, MATCH, IN_ARRAY: every case (key of
 *     the jump table);
 *   - ISSET_ISEMPTY_DIM_OBJ, FETCH_DIM_R and FETCH_DIM_IS on an input
 *     array itself (isset, empty, and the read of an absent field), and on
 *     $_FILES (source files: whether a file of that field was uploaded);
 *     ISSET_ISEMPTY_CV (empty($x), isset($x)) on a derived variable;
 *   - the calls of strcmp, strcasecmp, in_array, is_numeric,
 *     ctype_digit, array_key_exists and preg_match;
 *   - STRLEN (strlen(), compiled) of a derived string, when its result is
 *     compared with an integer: HOW "len", the integer the constant.
 *
 * An operand derives from an input by value: it is a string equal to the
 * input's value, to its trim() or to the strtolower() of that (the
 * inputs are read when the first opcode is seen), or an integer equal to
 * the intval() of a numeric input, compared with a literal.  culprit web sends distinctive values,
 * so a match is rarely a coincidence; what this does not see is listed in
 * docs/web.md.  The input arrays themselves are recognized by identity.
 *
 * A record is a line of words, each percent-encoded (a space, '%', a
 * control byte, '-' alone, as %XX; "-" is the empty word):
 *   KIND OUTCOME SOURCE FIELD HOW SITE [CONSTANT...]
 * e.g. `eq 0 post role id /app/admin.php:4 admin`: the comparison went
 * OUTCOME (1, 0, or - when not known), with the field on the left.  The
 * records are kept once each (up to MAX_RECORDS) and written when the
 * request ends, to a temporary name renamed at the end.
 */
#include "php/php_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_RECORDS = 512, MAX_INPUTS = 256, MAX_CASES = 32, MAX_WORD = 256 };

typedef struct php_input {
    const char *source; /* get, post, cookie */
    char *name;
    char *value, *trimmed, *lowered;
    bool numeric;
    zend_long number;
} php_input;

static char *records_path; /* CULPRIT_PHP_INPUTS, or NULL */
static php_input inputs[MAX_INPUTS];
static size_t input_count;
static bool inputs_read;
static char *records[MAX_RECORDS];
static size_t record_count;

bool php_inputs_recording(void)
{
    return records_path != NULL;
}

void php_inputs_startup(void)
{
    const char *path = getenv("CULPRIT_PHP_INPUTS");
    free(records_path);
    records_path = path && *path ? strdup(path) : NULL;
}

void php_inputs_shutdown(void)
{
    free(records_path);
    records_path = NULL;
}

/* ---- the inputs ---- */

static char *lower_copy(const char *text)
{
    char *copy = strdup(text);
    for (char *at = copy; at && *at; at++)
        *at = (char)zend_tolower_ascii(*at);
    return copy;
}

static char *trim_copy(const char *text)
{
    const char *blank = " \t\n\r\v";
    size_t start = 0, end = strlen(text);
    while (start < end && strchr(blank, text[start]))
        start++;
    while (end > start && strchr(blank, text[end - 1]))
        end--;
    return strndup(text + start, end - start);
}

static void add_input(const char *source, zend_string *name, zval *value)
{
    if (input_count >= MAX_INPUTS || Z_TYPE_P(value) != IS_STRING || !name)
        return; /* nested arrays (a[]=1) are not tracked */
    php_input *input = &inputs[input_count];
    input->source = source;
    input->name = strndup(ZSTR_VAL(name), ZSTR_LEN(name));
    input->value = strndup(Z_STRVAL_P(value), Z_STRLEN_P(value));
    input->trimmed = input->value ? trim_copy(input->value) : NULL;
    input->lowered = input->trimmed ? lower_copy(input->trimmed) : NULL;
    double real;
    input->numeric =
        is_numeric_string(Z_STRVAL_P(value), Z_STRLEN_P(value), &input->number, &real, true) == IS_LONG;
    if (input->name && input->value && input->trimmed && input->lowered)
        input_count++;
    else
        free(input->name), free(input->value), free(input->trimmed), free(input->lowered);
}

static void read_array(const char *source, int track)
{
    zval *array = &PG(http_globals)[track];
    if (Z_TYPE_P(array) != IS_ARRAY)
        return;
    zend_string *key;
    zval *value;
    ZEND_HASH_FOREACH_STR_KEY_VAL(Z_ARRVAL_P(array), key, value)
    {
        add_input(source, key, value);
    }
    ZEND_HASH_FOREACH_END();
}

static void read_inputs(void)
{
    inputs_read = true;
    read_array("get", TRACK_VARS_GET);
    read_array("post", TRACK_VARS_POST);
    read_array("cookie", TRACK_VARS_COOKIE);
}

/* The length of a derived string, strlen() compiled (ZEND_STRLEN): its
 * result, a temporary of the frame, is the input's length until the next
 * comparison reads it ("len"; a temporary is read once).  Data flow for
 * this one pattern: a length is an integer no input's value names. */
static struct {
    const zend_execute_data *frame;
    uint32_t var;
    const php_input *input;
} pending_length;

/* The input value derives from, and how ("id", "trim", "lower", "int"):
 * an integer only when integers is set (compared with a literal of the
 * code: a field "1" is not every loop counter's 1). */
static const php_input *derived(zval *value, const char **how, bool integers)
{
    if (!value)
        return NULL;
    ZVAL_DEREF(value);
    for (size_t i = 0; i < input_count; i++) {
        const php_input *input = &inputs[i];
        if (Z_TYPE_P(value) == IS_STRING && Z_STRLEN_P(value) > 0) {
            const char *text = Z_STRVAL_P(value);
            if (strlen(input->value) == Z_STRLEN_P(value) && strcmp(input->value, text) == 0)
                return *how = "id", input;
            if (strlen(input->trimmed) == Z_STRLEN_P(value) && strcmp(input->trimmed, text) == 0)
                return *how = "trim", input;
            if (strlen(input->lowered) == Z_STRLEN_P(value) && strcmp(input->lowered, text) == 0)
                return *how = "lower", input;
        } else if (integers && Z_TYPE_P(value) == IS_LONG && input->numeric &&
                   input->number == Z_LVAL_P(value)) {
            return *how = "int", input;
        }
    }
    return NULL;
}

/* The input array (and its source) that value is, by identity. */
static const char *input_array(zval *value)
{
    static const struct {
        const char *global, *source;
    } arrays[] = {{"_GET", "get"},
                  {"_POST", "post"},
                  {"_COOKIE", "cookie"},
                  {"_REQUEST", "request"},
                  {"_FILES", "files"}}; /* which uploads there are: isset, empty, a read */
    if (!value)
        return NULL;
    ZVAL_DEREF(value);
    if (Z_TYPE_P(value) != IS_ARRAY)
        return NULL;
    for (size_t i = 0; i < sizeof arrays / sizeof *arrays; i++) {
        zval *global =
            zend_hash_str_find_deref(&EG(symbol_table), arrays[i].global, strlen(arrays[i].global));
        if (global && Z_TYPE_P(global) == IS_ARRAY && Z_ARR_P(global) == Z_ARR_P(value))
            return arrays[i].source;
    }
    return NULL;
}

/* ---- records ---- */

static void append_word(char *line, size_t size, const char *word, size_t length)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t at = strlen(line);
    if (at > 0 && at + 1 < size)
        line[at++] = ' ';
    if (length == 0 && at + 1 < size)
        line[at++] = '-'; /* an empty word */
    for (size_t i = 0; i < length && i < MAX_WORD && at + 4 < size; i++) {
        unsigned char c = (unsigned char)word[i];
        bool alone = length == 1; /* "-" alone is the empty word */
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            (c && strchr("._~/:,", c)) || (c == '-' && !alone))
            line[at++] = (char)c;
        else
            line[at++] = '%', line[at++] = hex[c >> 4], line[at++] = hex[c & 15];
    }
    line[at] = '\0';
}

/* The constant's text (a scalar), as PHP's string conversion gives it. */
static void append_value(char *line, size_t size, zval *value)
{
    ZVAL_DEREF(value);
    if (Z_TYPE_P(value) == IS_STRING) {
        append_word(line, size, Z_STRVAL_P(value), Z_STRLEN_P(value));
        return;
    }
    char text[64] = "";
    if (Z_TYPE_P(value) == IS_LONG)
        snprintf(text, sizeof text, ZEND_LONG_FMT, Z_LVAL_P(value));
    else if (Z_TYPE_P(value) == IS_DOUBLE)
        snprintf(text, sizeof text, "%.17g", Z_DVAL_P(value));
    else if (Z_TYPE_P(value) == IS_TRUE)
        snprintf(text, sizeof text, "1");
    append_word(line, size, text, strlen(text));
}

static bool is_scalar(zval *value)
{
    if (!value)
        return false;
    ZVAL_DEREF(value);
    return Z_TYPE_P(value) >= IS_NULL && Z_TYPE_P(value) <= IS_STRING;
}

/* The start of a record in line: kind, outcome (1, 0, -1 unknown: "-"
 * as it is, not the empty word), the input, where; the constants are
 * appended after. */
static void begin_record(char *line, size_t size, const char *kind, int outcome, const char *source,
                         const char *name, const char *how, const zend_execute_data *execute_data)
{
    line[0] = '\0';
    append_word(line, size, kind, strlen(kind));
    size_t at = strlen(line);
    snprintf(line + at, size - at, " %s", outcome < 0 ? "-" : outcome ? "1" : "0");
    append_word(line, size, source, strlen(source));
    append_word(line, size, name, strlen(name));
    append_word(line, size, how, strlen(how));
    char site[PATH_MAX + 32];
    const zend_op_array *op_array = &execute_data->func->op_array;
    snprintf(site, sizeof site, "%s:%u", op_array->filename ? ZSTR_VAL(op_array->filename) : "?",
             execute_data->opline->lineno);
    append_word(line, size, site, strlen(site));
}

static void keep_record(const char *line)
{
    for (size_t i = 0; i < record_count; i++)
        if (strcmp(records[i], line) == 0)
            return;
    if (record_count < MAX_RECORDS && (records[record_count] = strdup(line)))
        record_count++;
}

/* A comparison of two scalars, one of which may derive from an input:
 * kind is that of `left OP right`, mirrored when the input is right. */
static void compare(const char *kind, const char *mirrored, zval *left, zval *right, unsigned literal,
                    int outcome, const zend_execute_data *execute_data)
{
    if (!is_scalar(left) || !is_scalar(right))
        return;
    for (int side = 0; side < 2; side++) {
        const char *how;
        const php_input *input = derived(side ? right : left, &how, literal & (side ? 1u : 2u));
        if (!input)
            continue;
        char line[2048];
        begin_record(line, sizeof line, side ? mirrored : kind, outcome, input->source, input->name, how,
                     execute_data);
        append_value(line, sizeof line, side ? left : right);
        keep_record(line);
    }
}

/* The subject against the keys of a jump table or a constant array. */
static void against_keys(const char *kind, zval *subject, zval *table, const zend_execute_data *execute_data)
{
    const char *how;
    const php_input *input = is_scalar(subject) ? derived(subject, &how, true) : NULL;
    if (!input || !table || Z_TYPE_P(table) != IS_ARRAY)
        return;
    ZVAL_DEREF(subject);
    zval key;
    ZVAL_NULL(&key);
    bool found = false;
    char line[4096];
    begin_record(line, sizeof line, kind, 0, input->source, input->name, how, execute_data);
    size_t cases = 0;
    zend_string *string_key;
    zend_ulong number_key;
    ZEND_HASH_FOREACH_KEY(Z_ARRVAL_P(table), number_key, string_key)
    {
        if (string_key)
            ZVAL_STR(&key, string_key);
        else
            ZVAL_LONG(&key, (zend_long)number_key);
        found = found || zend_compare(subject, &key) == 0;
        if (cases++ < MAX_CASES)
            append_value(line, sizeof line, &key);
    }
    ZEND_HASH_FOREACH_END();
    line[strlen(kind) + 1] = found ? '1' : '0';
    keep_record(line);
}

/* The values of an array (in_array's haystack). */
static void against_values(zval *subject, zval *array, const zend_execute_data *execute_data)
{
    const char *how;
    const php_input *input = is_scalar(subject) ? derived(subject, &how, true) : NULL;
    if (!input || !array)
        return;
    ZVAL_DEREF(array);
    if (Z_TYPE_P(array) != IS_ARRAY)
        return;
    char line[4096];
    begin_record(line, sizeof line, "in", 0, input->source, input->name, how, execute_data);
    size_t cases = 0;
    bool found = false;
    zval *value;
    ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(array), value)
    {
        if (!is_scalar(value))
            continue;
        found = found || zend_compare(subject, value) == 0;
        if (cases++ < MAX_CASES)
            append_value(line, sizeof line, value);
    }
    ZEND_HASH_FOREACH_END();
    line[strlen("in") + 1] = found ? '1' : '0';
    keep_record(line);
}

/* isset/empty/the read of key in an input array. */
static void field_test(const char *kind, zval *container, zval *key, int outcome,
                       const zend_execute_data *execute_data)
{
    const char *source = input_array(container);
    if (!source || !key)
        return;
    ZVAL_DEREF(key);
    if (Z_TYPE_P(key) != IS_STRING)
        return;
    char line[2048];
    begin_record(line, sizeof line, kind, outcome, source, Z_STRVAL_P(key), "id", execute_data);
    keep_record(line);
}

static void record_records_free(void)
{
    for (size_t i = 0; i < record_count; i++)
        free(records[i]);
    record_count = 0;
    for (size_t i = 0; i < input_count; i++) {
        free(inputs[i].name);
        free(inputs[i].value);
        free(inputs[i].trimmed);
        free(inputs[i].lowered);
    }
    input_count = 0;
    inputs_read = false;
}

/* ---- the opcodes ---- */

static zval *operand(zend_execute_data *execute_data, const zend_op *opline, zend_uchar type, znode_op node)
{
    zval *value = NULL;
    if (type == IS_CONST)
        value = RT_CONSTANT(opline, node);
    else if (type & (IS_CV | IS_TMP_VAR | IS_VAR))
        value = EX_VAR(node.var);
    if (value && Z_TYPE_P(value) == IS_INDIRECT)
        value = Z_INDIRECT_P(value);
    if (value && Z_TYPE_P(value) == IS_UNDEF)
        return NULL;
    return value;
}

static bool key_present(zval *container, zval *key, bool check_empty)
{
    ZVAL_DEREF(container);
    ZVAL_DEREF(key);
    if (Z_TYPE_P(container) != IS_ARRAY || Z_TYPE_P(key) != IS_STRING)
        return false;
    zval *value = zend_symtable_find(Z_ARRVAL_P(container), Z_STR_P(key));
    if (!value || Z_TYPE_P(value) == IS_NULL)
        return false;
    return !check_empty || zend_is_true(value);
}

static void dimension(zend_execute_data *execute_data, const zend_op *opline, zval *op1, zval *op2)
{
    if (!op1 || !op2 || !input_array(op1))
        return;
    if (opline->opcode == ZEND_ISSET_ISEMPTY_DIM_OBJ) {
        bool isset = !(opline->extended_value & ZEND_ISEMPTY);
        field_test(isset ? "isset" : "empty", op1, op2, key_present(op1, op2, !isset) == isset, execute_data);
    } else if (!key_present(op1, op2, false)) {
        field_test("isset", op1, op2, 0, execute_data); /* read while absent */
    }
}

static int outcome_of(bool value)
{
    return value ? 1 : 0;
}

static zval *argument(zend_execute_data *frame, uint32_t n)
{
    if (ZEND_CALL_NUM_ARGS(frame) < n)
        return NULL;
    zval *value = ZEND_CALL_ARG(frame, n);
    ZVAL_DEREF(value);
    return value;
}

/* is_numeric and ctype_digit on a derived string. */
static void string_test(zend_string *name, zval *subject, const zend_execute_data *execute_data)
{
    const char *kind = zend_string_equals_literal_ci(name, "is_numeric")    ? "numeric"
                       : zend_string_equals_literal_ci(name, "ctype_digit") ? "digits"
                                                                            : NULL;
    const char *how;
    const php_input *input =
        kind && subject && Z_TYPE_P(subject) == IS_STRING ? derived(subject, &how, false) : NULL;
    if (!input)
        return;
    const char *text = Z_STRVAL_P(subject);
    size_t length = Z_STRLEN_P(subject);
    bool outcome = kind[0] == 'n' ? is_numeric_string(text, length, NULL, NULL, false) != 0
                                  : length > 0 && strspn(text, "0123456789") == length;
    char line[2048];
    begin_record(line, sizeof line, kind, outcome_of(outcome), input->source, input->name, how, execute_data);
    keep_record(line);
}

static void call(zend_execute_data *execute_data)
{
    zend_execute_data *frame = EX(call);
    if (!frame || !frame->func || !frame->func->common.function_name)
        return;
    zend_string *name = frame->func->common.function_name;
    zval *first = argument(frame, 1), *second = argument(frame, 2);
    bool strings = first && second && Z_TYPE_P(first) == IS_STRING && Z_TYPE_P(second) == IS_STRING;
    if (strings && zend_string_equals_literal_ci(name, "strcmp"))
        compare("eq", "eq", first, second, 0, outcome_of(zend_string_equals(Z_STR_P(first), Z_STR_P(second))),
                execute_data);
    else if (strings && zend_string_equals_literal_ci(name, "strcasecmp"))
        compare("ieq", "ieq", first, second, 0,
                outcome_of(zend_binary_strcasecmp(Z_STRVAL_P(first), Z_STRLEN_P(first), Z_STRVAL_P(second),
                                                  Z_STRLEN_P(second)) == 0),
                execute_data);
    else if (second && zend_string_equals_literal_ci(name, "in_array"))
        against_values(first, second, execute_data);
    else if (second && zend_string_equals_literal_ci(name, "array_key_exists"))
        field_test("isset", second, first, outcome_of(key_present(second, first, false)), execute_data);
    else if (strings && zend_string_equals_literal_ci(name, "preg_match"))
        compare("match", "match", second, first, 0, -1, execute_data);
    else
        string_test(name, first, execute_data);
}

/* empty($x), isset($x) on a variable derived from an input. */
static void variable_test(const zend_op *opline, zval *value, const zend_execute_data *execute_data)
{
    const char *how;
    const php_input *input = value && is_scalar(value) ? derived(value, &how, false) : NULL;
    if (!input)
        return;
    bool isset = !(opline->extended_value & ZEND_ISEMPTY);
    char line[2048];
    begin_record(line, sizeof line, isset ? "isset" : "empty", isset ? 1 : outcome_of(!zend_is_true(value)),
                 input->source, input->name, how, execute_data);
    keep_record(line);
}

/* Whether operand (op1 when first) of opline is the pending strlen()'s
 * result: its input, else NULL. */
static const php_input *length_operand(const zend_execute_data *execute_data, const zend_op *opline,
                                       bool first)
{
    zend_uchar type = first ? opline->op1_type : opline->op2_type;
    uint32_t var = first ? opline->op1.var : opline->op2.var;
    if (!pending_length.input || pending_length.frame != execute_data || type != IS_TMP_VAR ||
        var != pending_length.var)
        return NULL;
    return pending_length.input;
}

/* strlen($field): its result is the field's length (pending_length). */
static void string_length(zend_execute_data *execute_data, const zend_op *opline, zval *op1)
{
    const char *how;
    const php_input *input = op1 && is_scalar(op1) ? derived(op1, &how, false) : NULL;
    pending_length.input = input && opline->result_type == IS_TMP_VAR ? input : NULL;
    pending_length.frame = execute_data;
    pending_length.var = opline->result.var;
}

/* A comparison of a strlen() of an input with a literal integer: a record
 * whose HOW is "len" and whose constant is the literal. */
static bool compare_length(const char *kind, const char *mirrored, const zend_execute_data *execute_data,
                           const zend_op *opline, zval *op1, zval *op2, int outcome)
{
    for (int side = 0; side < 2; side++) {
        const php_input *input = length_operand(execute_data, opline, side == 0);
        zval *other = side ? op1 : op2;
        if (!input || Z_TYPE_P(other) != IS_LONG)
            continue;
        char line[2048];
        begin_record(line, sizeof line, side ? mirrored : kind, outcome, input->source, input->name, "len",
                     execute_data);
        append_value(line, sizeof line, other);
        keep_record(line);
        pending_length.input = NULL;
        return true;
    }
    return false;
}

/* The comparison opline makes, as a record's kind with the input on the
 * left (mirrored: on the right), and how it went; false for another
 * opcode. */
static bool comparison_kind(const zend_op *opline, zval *op1, zval *op2, const char **kind,
                            const char **mirrored, int *outcome)
{
    switch (opline->opcode) {
    case ZEND_IS_EQUAL:
    case ZEND_CASE:
        *kind = *mirrored = "eq", *outcome = outcome_of(zend_compare(op1, op2) == 0);
        return true;
    case ZEND_IS_NOT_EQUAL:
        *kind = *mirrored = "ne", *outcome = outcome_of(zend_compare(op1, op2) != 0);
        return true;
    case ZEND_IS_IDENTICAL:
    case ZEND_CASE_STRICT:
        *kind = *mirrored = "eq", *outcome = outcome_of(zend_is_identical(op1, op2));
        return true;
    case ZEND_IS_NOT_IDENTICAL:
        *kind = *mirrored = "ne", *outcome = outcome_of(!zend_is_identical(op1, op2));
        return true;
    case ZEND_IS_SMALLER:
        *kind = "lt", *mirrored = "gt", *outcome = outcome_of(zend_compare(op1, op2) < 0);
        return true;
    case ZEND_IS_SMALLER_OR_EQUAL:
        *kind = "le", *mirrored = "ge", *outcome = outcome_of(zend_compare(op1, op2) <= 0);
        return true;
    default:
        return false;
    }
}

static void comparison(zend_execute_data *execute_data, const zend_op *opline, zval *op1, zval *op2)
{
    if (!op1 || !op2)
        return;
    ZVAL_DEREF(op1);
    ZVAL_DEREF(op2);
    const char *kind, *mirrored;
    int outcome;
    if (!is_scalar(op1) || !is_scalar(op2) || !comparison_kind(opline, op1, op2, &kind, &mirrored, &outcome))
        return;
    if (pending_length.input && compare_length(kind, mirrored, execute_data, opline, op1, op2, outcome))
        return;
    unsigned literal = (opline->op1_type == IS_CONST ? 1u : 0u) | (opline->op2_type == IS_CONST ? 2u : 0u);
    compare(kind, mirrored, op1, op2, literal, outcome, execute_data);
}

/* Whether the extension looks at opcode at all: its operands are read
 * only then. */
static bool watched(zend_uchar opcode)
{
    switch (opcode) {
    case ZEND_IS_EQUAL:
    case ZEND_IS_NOT_EQUAL:
    case ZEND_IS_IDENTICAL:
    case ZEND_IS_NOT_IDENTICAL:
    case ZEND_IS_SMALLER:
    case ZEND_IS_SMALLER_OR_EQUAL:
    case ZEND_CASE:
    case ZEND_CASE_STRICT:
    case ZEND_SWITCH_STRING:
    case ZEND_SWITCH_LONG:
    case ZEND_MATCH:
    case ZEND_IN_ARRAY:
    case ZEND_ISSET_ISEMPTY_DIM_OBJ:
    case ZEND_FETCH_DIM_R:
    case ZEND_FETCH_DIM_IS:
    case ZEND_ISSET_ISEMPTY_CV:
    case ZEND_DO_ICALL:
    case ZEND_DO_FCALL:
    case ZEND_DO_FCALL_BY_NAME:
    case ZEND_STRLEN:
        return true;
    default:
        return false;
    }
}

static void look_at(zend_execute_data *execute_data)
{
    const zend_op *opline = execute_data->opline;
    zend_uchar opcode = opline->opcode;
    if (!watched(opcode))
        return;
    if (!inputs_read)
        read_inputs();
    bool dimension_opcode =
        opcode == ZEND_ISSET_ISEMPTY_DIM_OBJ || opcode == ZEND_FETCH_DIM_R || opcode == ZEND_FETCH_DIM_IS;
    if (input_count == 0 && !dimension_opcode)
        return; /* only an absent field can be tested */
    zval *op1 = operand(execute_data, opline, opline->op1_type, opline->op1);
    zval *op2 = operand(execute_data, opline, opline->op2_type, opline->op2);
    switch (opcode) {
    case ZEND_SWITCH_STRING:
    case ZEND_SWITCH_LONG:
    case ZEND_MATCH:
        against_keys("switch", op1, op2, execute_data);
        break;
    case ZEND_IN_ARRAY:
        against_keys("in", op1, op2, execute_data);
        break;
    case ZEND_ISSET_ISEMPTY_DIM_OBJ:
    case ZEND_FETCH_DIM_R:
    case ZEND_FETCH_DIM_IS:
        dimension(execute_data, opline, op1, op2);
        break;
    case ZEND_ISSET_ISEMPTY_CV:
        variable_test(opline, op1, execute_data);
        break;
    case ZEND_DO_ICALL:
    case ZEND_DO_FCALL:
    case ZEND_DO_FCALL_BY_NAME:
        call(execute_data);
        break;
    case ZEND_STRLEN:
        string_length(execute_data, opline, op1);
        break;
    default:
        comparison(execute_data, opline, op1, op2);
        break;
    }
}

/* A strlen()'s result counts only when the very next opcode of its frame
 * compares it (strlen($x) > 8): any other opcode ends it, so a length
 * assigned, echoed or passed on is never taken for a later comparison's
 * operand (a frame's address is reused by the next call). */
void php_inputs_opcode(zend_execute_data *execute_data)
{
    look_at(execute_data);
    if (execute_data->opline->opcode != ZEND_STRLEN)
        pending_length.input = NULL;
}

void php_inputs_write(void)
{
    pending_length.input = NULL;
    if (!records_path) {
        record_records_free();
        return;
    }
    size_t length = strlen(records_path);
    char *temporary = malloc(length + 8);
    FILE *file = NULL;
    if (temporary) {
        memcpy(temporary, records_path, length);
        memcpy(temporary + length, ".part", 6);
        file = fopen(temporary, "w");
    }
    bool ok = file != NULL;
    for (size_t i = 0; file && i < record_count; i++)
        fprintf(file, "%s\n", records[i]);
    if (file)
        ok = fclose(file) == 0;
    if (!ok || rename(temporary, records_path) != 0)
        fprintf(stderr, "culprit: cannot write the request's input constraints to %s\n", records_path);
    free(temporary);
    record_records_free();
}
