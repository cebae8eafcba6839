/*
 * php_output.c - the output map of a PHP request (docs/php.md, "The output
 * map"): every byte the request writes to stdout through PHP's output
 * layer becomes part of an output record (docs/collector.md §5) naming the
 * statement that produced it, as the C runtime's wrappers do for printf
 * (src/rt/rt_output.c).
 *
 * Everything PHP prints (echo, print, inline HTML, printf, var_dump, error
 * messages...) goes through php_output_write(), which cannot be hooked, into
 * the output buffers' stack or, with no buffer, straight to the SAPI's
 * ub_write, which can.  So the extension watches both ends:
 *   - ub_write (the bytes reaching stdout): they come first from the
 *     buffered bytes (php_output_fifo.h: a flush, ob_end_flush, the end of
 *     the request, a buffer's chunk size overflowing), the rest were
 *     produced by the statement running now (the innermost user frame: for
 *     printf, the line calling it);
 *   - the buffers' fill level, at every opcode (php_output_settle, from the
 *     opcode handler): bytes added since the previous opcode were produced
 *     by that opcode (an ECHO, a call to printf), bytes gone that did not
 *     reach stdout were discarded (ob_clean, ob_end_clean, ob_get_clean).
 * A flush is thus attributed to the statements that produced the text,
 * never to the one that flushed it.  Text taken out of a buffer as a string
 * (ob_get_clean, ob_get_contents) and echoed later keeps its producers too:
 * the extension wraps those two functions and keeps, for the string they
 * return (held by a reference, so its address cannot be reused), the
 * buffered runs it holds; zend_write (echo, print) of that very string
 * uses them.  A string built from it (concatenated, trimmed) is new text,
 * produced by the statement that writes it.
 */
#include "php/php_internal.h"

#include <stdlib.h>

#include <SAPI.h>
#include <main/php_output.h>

#include "core/grow.h"
#include "php/php_output_fifo.h"

/* Strings from ob_get_clean/ob_get_contents remembered at once; beyond it
 * one is forgotten for each new one (its text is then attributed to the
 * statement that echoes it). */
enum { MAX_ORIGINS = 256 };

typedef struct origin {
    zend_string *text; /* a reference we hold */
    php_output_fifo runs;
} origin;

static struct {
    php_output_fifo buffered; /* the bytes in PHP's output buffers */
    php_output_fifo writing;  /* the runs of the remembered string zend_write is writing */
    bool writing_origin;
    uint64_t stdout_bytes;
    int in_headers; /* a SAPI writing HTTP headers: not the page's text */
    php_dump_output *records;
    size_t record_count, record_capacity;
    origin origins[MAX_ORIGINS];
    size_t origin_count;
} out;

static size_t (*previous_ub_write)(const char *str, size_t length);
static int (*previous_send_headers)(sapi_headers_struct *headers);
static zend_write_func_t previous_write;
static zif_handler previous_ob_get_clean, previous_ob_get_contents;

/* Appends the user frames of the PHP stack from frame on. */
static void add_frames(php_dump_source *source, zend_execute_data *frame)
{
    for (; frame && source->depth < CULPRIT_DUMP_MAX_OUTPUT_DEPTH; frame = frame->prev_execute_data) {
        if (!frame->func || !ZEND_USER_CODE(frame->func->type) || !frame->opline)
            continue;
        const php_function *function = frame->func->op_array.reserved[php_state.handle];
        uint32_t index = (uint32_t)(frame->opline - frame->func->op_array.opcodes);
        if (function && index < function->op_count)
            source->frames[source->depth++] =
                (php_dump_frame){.unit = function->unit->index, .block = function->op_block[index]};
    }
}

/* The opcode run last (the previous call of the opcode handler), with the
 * callers of its frame when that frame is still on the stack at current,
 * else current's (it returned). */
static php_dump_source last_source(zend_execute_data *current)
{
    php_dump_source source = {0};
    const php_function *function = php_state.last_function;
    if (!function)
        return source;
    source.frames[source.depth++] =
        (php_dump_frame){.unit = function->unit->index, .block = function->op_block[php_state.last_index]};
    zend_execute_data *callers = current;
    for (zend_execute_data *frame = current; frame; frame = frame->prev_execute_data)
        if (frame == php_state.last_frame) {
            callers = frame->prev_execute_data;
            break;
        }
    add_frames(&source, callers);
    return source;
}

/* The statement running now: the innermost user frame's opcode, else (the
 * request is ending, no PHP code runs) the last opcode run. */
static php_dump_source current_source(void)
{
    php_dump_source source = {0};
    add_frames(&source, EG(current_execute_data));
    return source.depth > 0 ? source : last_source(NULL);
}

static void add_record(uint64_t length, const php_dump_source *source)
{
    if (CULPRIT_GROW(out.records, out.record_capacity, out.record_count + 1, 64))
        out.records[out.record_count++] = (php_dump_output){.stream = CULPRIT_DUMP_STREAM_STDOUT,
                                                            .offset = out.stdout_bytes,
                                                            .length = length,
                                                            .source = *source};
    out.stdout_bytes += length;
}

/* The bytes in every level of PHP's output buffers. */
static uint64_t buffered_bytes(void)
{
    int levels = zend_stack_count(&OG(handlers));
    php_output_handler **handlers = zend_stack_base(&OG(handlers));
    uint64_t bytes = 0;
    for (int i = 0; i < levels; i++)
        bytes += handlers[i]->buffer.used;
    return bytes;
}

bool php_output_watching(void)
{
    return OG(active) != NULL || out.buffered.bytes != 0;
}

void php_output_settle(zend_execute_data *current)
{
    uint64_t real = buffered_bytes();
    if (real > out.buffered.bytes) {
        php_dump_source source = last_source(current);
        php_fifo_push(&out.buffered, real - out.buffered.bytes, &source);
    } else if (real < out.buffered.bytes) {
        php_fifo_drop_back(&out.buffered, out.buffered.bytes - real);
    }
}

static size_t culprit_ub_write(const char *str, size_t length)
{
    size_t written = previous_ub_write(str, length);
    if (out.in_headers) {
        out.stdout_bytes += written;
        return written;
    }
    uint64_t left = written;
    php_dump_source source;
    for (uint64_t taken; left > 0 && (taken = php_fifo_take(&out.buffered, left, &source)) > 0; left -= taken)
        add_record(taken, &source);
    for (uint64_t taken;
         left > 0 && out.writing_origin && (taken = php_fifo_take(&out.writing, left, &source)) > 0;
         left -= taken)
        add_record(taken, &source);
    if (left > 0) {
        source = current_source();
        add_record(left, &source);
    }
    return written;
}

static int culprit_send_headers(sapi_headers_struct *headers)
{
    out.in_headers++;
    int result = previous_send_headers(headers);
    out.in_headers--;
    return result;
}

static const origin *find_origin(const char *str, size_t length)
{
    for (size_t i = 0; i < out.origin_count; i++)
        if (ZSTR_VAL(out.origins[i].text) == str && ZSTR_LEN(out.origins[i].text) == length)
            return &out.origins[i];
    return NULL;
}

/* echo, print, inline HTML: the writes of a remembered string use its
 * runs, whether they reach stdout now or a buffer. */
static size_t culprit_write(const char *str, size_t length)
{
    const origin *found = out.origin_count ? find_origin(str, length) : NULL;
    if (!found)
        return previous_write(str, length);
    out.writing_origin = php_fifo_copy_back(&found->runs, found->runs.bytes, &out.writing);
    size_t result = previous_write(str, length);
    uint64_t real = buffered_bytes();
    php_dump_source source;
    for (uint64_t taken; real > out.buffered.bytes &&
                         (taken = php_fifo_take(&out.writing, real - out.buffered.bytes, &source)) > 0;)
        php_fifo_push(&out.buffered, taken, &source);
    php_fifo_clear(&out.writing);
    out.writing_origin = false;
    return result;
}

static void forget_origin(size_t i)
{
    zend_string_release(out.origins[i].text);
    php_fifo_free(&out.origins[i].runs);
    out.origins[i] = out.origins[--out.origin_count];
}

/* ob_get_clean and ob_get_contents return the top buffer's text: the last
 * bytes of the FIFO. */
static void remember_top(INTERNAL_FUNCTION_PARAMETERS, zif_handler previous)
{
    php_output_settle(execute_data->prev_execute_data);
    uint64_t top = OG(active) ? OG(active)->buffer.used : 0;
    php_output_fifo runs = {0};
    bool kept = top > 0 && php_fifo_copy_back(&out.buffered, top, &runs);
    previous(INTERNAL_FUNCTION_PARAM_PASSTHRU);
    if (kept && Z_TYPE_P(return_value) == IS_STRING && Z_STRLEN_P(return_value) == top &&
        !ZSTR_IS_INTERNED(Z_STR_P(return_value))) {
        if (out.origin_count == MAX_ORIGINS)
            forget_origin(0);
        out.origins[out.origin_count++] =
            (origin){.text = zend_string_copy(Z_STR_P(return_value)), .runs = runs};
        return;
    }
    php_fifo_free(&runs);
}

static ZEND_NAMED_FUNCTION(culprit_ob_get_clean)
{
    remember_top(INTERNAL_FUNCTION_PARAM_PASSTHRU, previous_ob_get_clean);
}

static ZEND_NAMED_FUNCTION(culprit_ob_get_contents)
{
    remember_top(INTERNAL_FUNCTION_PARAM_PASSTHRU, previous_ob_get_contents);
}

static void wrap_function(const char *name, zif_handler wrapper, zif_handler *previous)
{
    zend_function *function = zend_hash_str_find_ptr(CG(function_table), name, strlen(name));
    if (function && function->type == ZEND_INTERNAL_FUNCTION) {
        *previous = function->internal_function.handler;
        function->internal_function.handler = wrapper;
    }
}

static void unwrap_function(const char *name, zif_handler previous)
{
    zend_function *function = zend_hash_str_find_ptr(CG(function_table), name, strlen(name));
    if (previous && function && function->type == ZEND_INTERNAL_FUNCTION)
        function->internal_function.handler = previous;
}

void php_output_install(void)
{
    previous_ub_write = sapi_module.ub_write;
    sapi_module.ub_write = culprit_ub_write;
    previous_send_headers = sapi_module.send_headers;
    if (previous_send_headers)
        sapi_module.send_headers = culprit_send_headers;
    previous_write = zend_write;
    zend_write = culprit_write;
    wrap_function("ob_get_clean", culprit_ob_get_clean, &previous_ob_get_clean);
    wrap_function("ob_get_contents", culprit_ob_get_contents, &previous_ob_get_contents);
}

void php_output_uninstall(void)
{
    if (!previous_ub_write)
        return;
    sapi_module.ub_write = previous_ub_write;
    if (previous_send_headers)
        sapi_module.send_headers = previous_send_headers;
    zend_write = previous_write;
    unwrap_function("ob_get_clean", previous_ob_get_clean);
    unwrap_function("ob_get_contents", previous_ob_get_contents);
}

size_t php_output_records(const php_dump_output **records)
{
    *records = out.records;
    return out.record_count;
}

void php_output_release(void)
{
    while (out.origin_count > 0)
        forget_origin(out.origin_count - 1);
}

void php_output_reset(void)
{
    php_fifo_free(&out.buffered);
    php_fifo_free(&out.writing);
    free(out.records);
    out.records = NULL;
    out.record_count = out.record_capacity = 0;
    out.stdout_bytes = 0;
    out.writing_origin = false;
}
