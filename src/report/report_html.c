/*
 * report_html.c - the HTML report (docs/report.md): DIRECTORY/index.html,
 * one self-contained file in the spirit of Tarantula's display.
 *
 * The JSON document (report_json.c) sits in a <script type="application/json">
 * element, written html_safe so that no "</script" or "<!--" in source text
 * or test output can end it early; the page's own script (report_page.c)
 * renders it.  A Content-Security-Policy allows that one script by its
 * SHA-256 and nothing from the network, so even a mistake in escaping could
 * not run injected code or fetch anything.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/sha256.h"
#include "report/report_internal.h"

static void base64(const unsigned char *data, size_t size, char *out)
{
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < size; i += 3) {
        unsigned long group = (unsigned long)data[i] << 16;
        if (i + 1 < size)
            group |= (unsigned long)data[i + 1] << 8;
        if (i + 2 < size)
            group |= data[i + 2];
        out[o++] = digits[(group >> 18) & 63];
        out[o++] = digits[(group >> 12) & 63];
        out[o++] = i + 1 < size ? digits[(group >> 6) & 63] : '=';
        out[o++] = i + 2 < size ? digits[group & 63] : '=';
    }
    out[o] = '\0';
}

static void write_head(FILE *out)
{
    unsigned char digest[CULPRIT_SHA256_DIGEST_SIZE];
    culprit_sha256 sha;
    culprit_sha256_init(&sha);
    culprit_sha256_update(&sha, report_page_script, strlen(report_page_script));
    culprit_sha256_final(&sha, digest);
    char hash[64];
    base64(digest, sizeof digest, hash);
    fprintf(out,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
            "script-src 'sha256-%s'; style-src 'unsafe-inline'; img-src data:\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            "<title>culprit report</title>\n<style>\n%s</style>\n</head>\n<body>\n",
            hash, report_page_style);
}

static culprit_status write_page(FILE *out, const culprit_report *report, culprit_error *err)
{
    write_head(out);
    fputs(report_page_body, out);
    fputs("<script type=\"application/json\" id=\"culprit-data\">\n", out);
    culprit_status status = culprit_report_write_json(out, report, true, err);
    fputs("</script>\n<script>", out);
    fputs(report_page_script, out);
    fputs("</script>\n</body>\n</html>\n", out);
    return status;
}

culprit_status culprit_report_write_html(const char *directory, const culprit_report *report,
                                         culprit_error *err)
{
    if (mkdir(directory, 0777) != 0 && errno != EEXIST)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "cannot create %s: %s", directory, strerror(errno));
    size_t size = strlen(directory) + sizeof "/index.html.tmp";
    char *path = malloc(size), *final = malloc(size);
    if (!path || !final) {
        free(path);
        free(final);
        return culprit_fail_memory(err);
    }
    snprintf(path, size, "%s/index.html.tmp", directory);
    snprintf(final, size, "%s/index.html", directory);
    culprit_status status = CULPRIT_OK;
    FILE *out = fopen(path, "w");
    if (!out)
        status = culprit_fail(err, CULPRIT_ERROR_INPUT, "cannot write %s: %s", path, strerror(errno));
    else
        status = write_page(out, report, err);
    if (out) {
        bool failed = ferror(out) != 0;
        if ((fclose(out) != 0 || failed) && !status)
            status = culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot write %s", path);
    }
    if (!status && rename(path, final) != 0)
        status = culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot rename %s: %s", path, strerror(errno));
    if (status && out)
        remove(path);
    free(path);
    free(final);
    return status;
}
