/*
 * web_multipart.c - the multipart/form-data bodies of culprit web's
 * uploads (culprit/web.h; docs/web.md, "Uploads"): a form with a file
 * input is sent as a browser sends it, a part per field and a part per
 * file, so that php-cgi fills $_FILES.  The file is always the same small
 * text file (CULPRIT_WEB_UPLOAD_*) and the boundary fixed: the inputs are
 * which files are uploaded, not what they hold, and a request's body is
 * the same bytes in every run and replay.  The body is read back for
 * `culprit web --from`, whose test holds it as the manifest's "body".
 */
#include <stdlib.h>
#include <string.h>

#include "core/text.h"
#include "culprit/web.h"

#define CRLF "\r\n"
#define DASH_BOUNDARY "--" CULPRIT_WEB_BOUNDARY

/* A name inside a quoted header parameter: what would end the quotes or
 * the line percent-encoded, as browsers do. */
static void append_quoted(culprit_text *t, const char *name)
{
    culprit_text_append(t, "\"", 1);
    for (const char *c = name; *c; c++) {
        const char *escape = *c == '"' ? "%22" : *c == '\r' ? "%0D" : *c == '\n' ? "%0A" : NULL;
        culprit_text_append(t, escape ? escape : c, escape ? 3 : 1);
    }
    culprit_text_append(t, "\"", 1);
}

static void append_part_head(culprit_text *t, const char *name, const char *file)
{
    culprit_text_append(t, DASH_BOUNDARY CRLF, strlen(DASH_BOUNDARY CRLF));
    culprit_text_append(t, "Content-Disposition: form-data; name=", 37);
    append_quoted(t, name);
    if (file) {
        culprit_text_append(t, "; filename=", 11);
        append_quoted(t, file);
        culprit_text_append(t, CRLF "Content-Type: " CULPRIT_WEB_UPLOAD_TYPE,
                            strlen(CRLF "Content-Type: " CULPRIT_WEB_UPLOAD_TYPE));
    }
    culprit_text_append(t, CRLF CRLF, 4);
}

culprit_status culprit_web_multipart_encode(const culprit_web_request *request, char **body,
                                            culprit_error *err)
{
    culprit_text t = {0};
    for (size_t i = 0; i < request->post.count; i++) {
        const culprit_web_field *field = &request->post.items[i];
        append_part_head(&t, field->name, NULL);
        culprit_text_append(&t, field->value, strlen(field->value));
        culprit_text_append(&t, CRLF, 2);
    }
    for (size_t i = 0; i < request->files.count; i++) {
        const culprit_web_field *file = &request->files.items[i];
        append_part_head(&t, file->name, file->value);
        culprit_text_append(&t, CULPRIT_WEB_UPLOAD_CONTENT CRLF, strlen(CULPRIT_WEB_UPLOAD_CONTENT CRLF));
    }
    culprit_text_append(&t, DASH_BOUNDARY "--" CRLF, strlen(DASH_BOUNDARY "--" CRLF));
    return culprit_text_finish(&t, body, err);
}

/* ---- reading back ---- */

/* The quoted parameter key="..." of a Content-Disposition line (end: its
 * end), decoded; NULL when absent (*memory false) or out of memory. */
static char *parameter(const char *line, const char *end, const char *key, bool *memory)
{
    size_t key_length = strlen(key);
    for (const char *at = line; at + key_length + 2 <= end; at++) {
        bool starts = at == line || at[-1] == ' ' || at[-1] == ';';
        if (!starts || strncmp(at, key, key_length) != 0 || at[key_length] != '=' ||
            at[key_length + 1] != '"')
            continue;
        const char *value = at + key_length + 2, *close = memchr(value, '"', (size_t)(end - value));
        if (!close)
            return NULL;
        culprit_text t = {0};
        for (const char *c = value; c < close; c++) {
            char decoded = strncmp(c, "%22", 3) == 0   ? '"'
                           : strncmp(c, "%0D", 3) == 0 ? '\r'
                           : strncmp(c, "%0A", 3) == 0 ? '\n'
                                                       : 0;
            culprit_text_append(&t, decoded ? &decoded : c, 1);
            c += decoded ? 2 : 0;
        }
        culprit_text_append(&t, "", 0);
        *memory = t.failed;
        return t.data;
    }
    return NULL;
}

/* One part: head (its headers) up to content, content_length bytes. */
static culprit_status take_part(const char *head, const char *content, size_t content_length,
                                culprit_web_request *request, culprit_error *err)
{
    const char *disposition = strstr(head, "Content-Disposition:");
    bool memory = false;
    if (!disposition || disposition > content)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "a multipart part without its Content-Disposition");
    const char *line_end = strstr(disposition, CRLF);
    char *name = parameter(disposition, line_end, "name", &memory);
    char *file = name ? parameter(disposition, line_end, "filename", &memory) : NULL;
    culprit_status status = CULPRIT_OK;
    if (memory)
        status = culprit_fail_memory(err);
    else if (!name)
        status = culprit_fail(err, CULPRIT_ERROR_INPUT, "a multipart part without a name");
    else if (file)
        status = culprit_web_fields_add(&request->files, name, strlen(name), file, strlen(file), err);
    else
        status = culprit_web_fields_add(&request->post, name, strlen(name), content, content_length, err);
    free(name);
    free(file);
    return status;
}

culprit_status culprit_web_multipart_parse(const char *body, culprit_web_request *request, culprit_error *err)
{
    static const char delimiter[] = CRLF DASH_BOUNDARY;
    if (strncmp(body, DASH_BOUNDARY, strlen(DASH_BOUNDARY)) != 0)
        return culprit_fail(err, CULPRIT_ERROR_INPUT,
                            "a multipart body that does not start with culprit's boundary (" DASH_BOUNDARY
                            ")");
    const char *at = body + strlen(DASH_BOUNDARY);
    culprit_status status = CULPRIT_OK;
    while (status == CULPRIT_OK && strncmp(at, "--", 2) != 0) {
        const char *head = at + 2, *blank = strstr(head, CRLF CRLF);
        const char *content = blank ? blank + 4 : NULL;
        const char *next = content ? strstr(content, delimiter) : NULL;
        if (strncmp(at, CRLF, 2) != 0 || !next)
            return culprit_fail(err, CULPRIT_ERROR_INPUT, "a multipart body cut short");
        status = take_part(head, content, (size_t)(next - content), request, err);
        at = next + strlen(delimiter);
    }
    if (status == CULPRIT_OK) {
        request->is_post = true;
        request->multipart = true;
    }
    return status;
}
