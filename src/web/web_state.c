/*
 * web_state.c - the state a request of culprit web runs in (culprit/web.h;
 * Apollo's saved state, seeds/000 §3): a directory holding the PHP
 * sessions (sessions/, the session.save_path of the request), the cookies
 * the responses set (cookies, NAME=VALUE a line) and a copy of each
 * database file of the application (db/N, N its index among the files
 * found).  A request runs in a copy of the state it was queued with:
 * the copy's database files are put into the application before the
 * request and taken back after it, and the response's Set-Cookie headers
 * are applied to its cookies.  The digest of a state is what state matching
 * compares; session ids, random per session, are left out of it.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/grow.h"
#include "core/read_file.h"
#include "core/sha256.h"
#include "culprit/web.h"

enum { MAX_STATE_FILE = 256 << 20, PATH_SIZE = 4096 };

/* ---- files ---- */

static culprit_status make_directory(const char *path, culprit_error *err)
{
    if (mkdir(path, 0755) != 0 && errno != EEXIST)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot make %s: %s", path, strerror(errno));
    return CULPRIT_OK;
}

static culprit_status copy_file(const char *from, const char *to, culprit_error *err)
{
    FILE *in = fopen(from, "rb");
    if (!in)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot read %s: %s", from, strerror(errno));
    FILE *out = fopen(to, "wb");
    if (!out) {
        fclose(in);
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot write %s: %s", to, strerror(errno));
    }
    char buffer[65536];
    size_t got;
    bool ok = true;
    while (ok && (got = fread(buffer, 1, sizeof buffer, in)) > 0)
        ok = fwrite(buffer, 1, got, out) == got;
    ok = ok && !ferror(in);
    fclose(in);
    if (fclose(out) != 0)
        ok = false;
    return ok ? CULPRIT_OK : culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot copy %s to %s", from, to);
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of the regular files in directory, sorted (owned by *names). */
static culprit_status list_files(const char *directory, char ***names, size_t *count, culprit_error *err)
{
    *names = NULL;
    *count = 0;
    DIR *dir = opendir(directory);
    if (!dir)
        return errno == ENOENT ? CULPRIT_OK
                               : culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot read %s: %s", directory,
                                              strerror(errno));
    size_t capacity = 0;
    culprit_status status = CULPRIT_OK;
    struct dirent *entry;
    while (status == CULPRIT_OK && (entry = readdir(dir))) {
        if (entry->d_name[0] == '.')
            continue;
        char *name = strdup(entry->d_name);
        if (!name || !CULPRIT_GROW(*names, capacity, *count + 1, 8)) {
            free(name);
            status = culprit_fail_memory(err);
        } else {
            (*names)[(*count)++] = name;
        }
    }
    closedir(dir);
    if (*count)
        qsort(*names, *count, sizeof **names, compare_strings);
    return status;
}

static void free_names(char **names, size_t count)
{
    for (size_t i = 0; i < count; i++)
        free(names[i]);
    free(names);
}

static culprit_status copy_directory(const char *from, const char *to, culprit_error *err)
{
    char **names;
    size_t count;
    culprit_status status = make_directory(to, err);
    if (status == CULPRIT_OK)
        status = list_files(from, &names, &count, err);
    if (status != CULPRIT_OK)
        return status;
    for (size_t i = 0; i < count && status == CULPRIT_OK; i++) {
        char source[PATH_SIZE * 2], target[PATH_SIZE * 2];
        snprintf(source, sizeof source, "%s/%s", from, names[i]);
        snprintf(target, sizeof target, "%s/%s", to, names[i]);
        status = copy_file(source, target, err);
    }
    free_names(names, count);
    return status;
}

/* ---- database files ---- */

static bool is_database(const char *name)
{
    static const char *const suffixes[] = {".sqlite", ".sqlite3", ".db"};
    size_t length = strlen(name);
    for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
        size_t suffix = strlen(suffixes[i]);
        if (length > suffix && strcasecmp(name + length - suffix, suffixes[i]) == 0)
            return true;
    }
    return false;
}

static culprit_status add_database(culprit_web_databases *databases, size_t *capacity, const char *relative,
                                   culprit_error *err)
{
    char *copy = strdup(relative);
    if (!copy || !CULPRIT_GROW(databases->files, *capacity, databases->count + 1, 4)) {
        free(copy);
        return culprit_fail_memory(err);
    }
    databases->files[databases->count++] = copy;
    return CULPRIT_OK;
}

culprit_status culprit_web_databases_add(culprit_web_databases *databases, const char *file,
                                         culprit_error *err)
{
    for (size_t i = 0; i < databases->count; i++)
        if (strcmp(databases->files[i], file) == 0)
            return CULPRIT_OK;
    size_t capacity = databases->count; /* the list grows by one: no spare room is assumed */
    return add_database(databases, &capacity, file, err);
}

/* The database files under relative (a directory of the application,
 * "" for its top), depth first. */
static culprit_status find_under(culprit_web_databases *databases, size_t *capacity, const char *relative,
                                 int depth, culprit_error *err)
{
    char directory[PATH_SIZE];
    snprintf(directory, sizeof directory, "%s/%s", databases->app_directory, relative);
    char **names;
    size_t count;
    culprit_status status = list_files(directory, &names, &count, err);
    for (size_t i = 0; i < count && status == CULPRIT_OK; i++) {
        char child[PATH_SIZE], path[PATH_SIZE * 2];
        snprintf(child, sizeof child, "%s%s%s", relative, *relative ? "/" : "", names[i]);
        snprintf(path, sizeof path, "%s/%s", databases->app_directory, child);
        struct stat info;
        if (lstat(path, &info) != 0)
            continue;
        if (S_ISDIR(info.st_mode) && depth < 16)
            status = find_under(databases, capacity, child, depth + 1, err);
        else if (S_ISREG(info.st_mode) && is_database(names[i]))
            status = add_database(databases, capacity, child, err);
    }
    free_names(names, count);
    return status;
}

culprit_status culprit_web_find_databases(culprit_web_databases *databases, culprit_error *err)
{
    size_t capacity = databases->count;
    return find_under(databases, &capacity, "", 0, err);
}

void culprit_web_databases_free(culprit_web_databases *databases)
{
    free_names(databases->files, databases->count);
    databases->files = NULL;
    databases->count = 0;
}

/* ---- states ---- */

static void state_path(const char *directory, const char *part, char *out, size_t size)
{
    snprintf(out, size, "%s/%s", directory, part);
}

static culprit_status write_text(const char *path, const char *text, culprit_error *err)
{
    FILE *file = fopen(path, "w");
    bool ok = file && fputs(text, file) >= 0;
    if (file && fclose(file) != 0)
        ok = false;
    return ok ? CULPRIT_OK : culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot write %s", path);
}

/* Copies each database file between the application and the state. */
static culprit_status move_databases(const char *directory, const culprit_web_databases *databases,
                                     bool into_application, culprit_error *err)
{
    culprit_status status = CULPRIT_OK;
    for (size_t i = 0; i < databases->count && status == CULPRIT_OK; i++) {
        char copy[PATH_SIZE], original[PATH_SIZE * 2];
        snprintf(copy, sizeof copy, "%s/db/%zu", directory, i);
        snprintf(original, sizeof original, "%s/%s", databases->app_directory, databases->files[i]);
        if (access(into_application ? copy : original, F_OK) != 0)
            continue; /* the application removed it, or has not made it yet */
        status = into_application ? copy_file(copy, original, err) : copy_file(original, copy, err);
    }
    return status;
}

culprit_status culprit_web_state_initial(const char *directory, const culprit_web_databases *databases,
                                         culprit_error *err)
{
    char path[PATH_SIZE];
    culprit_status status = make_directory(directory, err);
    state_path(directory, "sessions", path, sizeof path);
    if (status == CULPRIT_OK)
        status = make_directory(path, err);
    state_path(directory, "db", path, sizeof path);
    if (status == CULPRIT_OK)
        status = make_directory(path, err);
    state_path(directory, "cookies", path, sizeof path);
    if (status == CULPRIT_OK)
        status = write_text(path, "", err);
    if (status == CULPRIT_OK)
        status = move_databases(directory, databases, false, err);
    return status;
}

culprit_status culprit_web_state_copy(const char *from, const char *directory, culprit_error *err)
{
    char source[PATH_SIZE], target[PATH_SIZE];
    culprit_status status = make_directory(directory, err);
    static const char *const parts[] = {"sessions", "db"};
    for (size_t i = 0; i < 2 && status == CULPRIT_OK; i++) {
        state_path(from, parts[i], source, sizeof source);
        state_path(directory, parts[i], target, sizeof target);
        status = copy_directory(source, target, err);
    }
    state_path(from, "cookies", source, sizeof source);
    state_path(directory, "cookies", target, sizeof target);
    if (status == CULPRIT_OK)
        status = copy_file(source, target, err);
    return status;
}

culprit_status culprit_web_state_install(const char *directory, const culprit_web_databases *databases,
                                         culprit_error *err)
{
    return move_databases(directory, databases, true, err);
}

culprit_status culprit_web_state_take(const char *directory, const culprit_web_databases *databases,
                                      culprit_error *err)
{
    return move_databases(directory, databases, false, err);
}

culprit_status culprit_web_state_save(const char *directory, const culprit_web_databases *databases,
                                      const char *target, culprit_error *err)
{
    char path[PATH_SIZE];
    culprit_status status = culprit_web_state_copy(directory, target, err);
    state_path(target, "databases", path, sizeof path);
    FILE *file = status == CULPRIT_OK ? fopen(path, "w") : NULL;
    bool ok = file != NULL;
    for (size_t i = 0; ok && i < databases->count; i++)
        ok = fprintf(file, "%zu %s/%s\n", i, databases->app_directory, databases->files[i]) > 0;
    if (file && fclose(file) != 0)
        ok = false;
    if (status == CULPRIT_OK && !ok)
        status = culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot write %s", path);
    return status;
}

/* ---- cookies ---- */

static culprit_status read_cookies(const char *directory, culprit_web_fields *cookies, culprit_error *err)
{
    char path[PATH_SIZE], *text = NULL;
    size_t size = 0;
    state_path(directory, "cookies", path, sizeof path);
    culprit_status status =
        culprit_read_whole_file(path, MAX_STATE_FILE, "a state's cookies", &text, &size, err);
    for (char *line = text, *end; status == CULPRIT_OK && line && *line; line = end + (*end != '\0')) {
        end = line + strcspn(line, "\n");
        char *equals = memchr(line, '=', (size_t)(end - line));
        if (equals)
            status = culprit_web_fields_add(cookies, line, (size_t)(equals - line), equals + 1,
                                            (size_t)(end - equals - 1), err);
    }
    free(text);
    return status;
}

static culprit_status write_cookies(const char *directory, const culprit_web_fields *cookies,
                                    culprit_error *err)
{
    char path[PATH_SIZE];
    state_path(directory, "cookies", path, sizeof path);
    FILE *file = fopen(path, "w");
    bool ok = file != NULL;
    for (size_t i = 0; ok && i < cookies->count; i++)
        ok = fprintf(file, "%s=%s\n", cookies->items[i].name, cookies->items[i].value) > 0;
    if (file && fclose(file) != 0)
        ok = false;
    return ok ? CULPRIT_OK : culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot write %s", path);
}

culprit_status culprit_web_state_set_cookies(const char *directory, const char *header, culprit_error *err)
{
    culprit_web_fields cookies = {0};
    culprit_status status = CULPRIT_OK;
    for (const char *at = header; status == CULPRIT_OK && *at;) {
        while (*at == ';' || *at == ' ')
            at++;
        size_t length = strcspn(at, ";");
        const char *equals = memchr(at, '=', length);
        if (equals)
            status = culprit_web_fields_add(&cookies, at, (size_t)(equals - at), equals + 1,
                                            length - (size_t)(equals - at) - 1, err);
        at += length;
    }
    if (status == CULPRIT_OK)
        status = write_cookies(directory, &cookies, err);
    culprit_web_fields_free(&cookies);
    return status;
}

culprit_status culprit_web_state_cookies(const char *directory, char **header, culprit_error *err)
{
    culprit_web_fields cookies = {0};
    culprit_status status = read_cookies(directory, &cookies, err);
    size_t length = 1;
    for (size_t i = 0; i < cookies.count; i++)
        length += strlen(cookies.items[i].name) + strlen(cookies.items[i].value) + 3;
    char *text = status == CULPRIT_OK ? malloc(length) : NULL;
    if (status == CULPRIT_OK && !text)
        status = culprit_fail_memory(err);
    if (text) {
        text[0] = '\0';
        for (size_t i = 0; i < cookies.count; i++)
            sprintf(text + strlen(text), "%s%s=%s", i ? "; " : "", cookies.items[i].name,
                    cookies.items[i].value);
        *header = text;
    }
    culprit_web_fields_free(&cookies);
    return status;
}

/* Whether a Set-Cookie's attributes (after its first ';') delete it. */
static bool expires_now(const char *attributes)
{
    for (const char *at = attributes; at && *at; at = strchr(at + 1, ';')) {
        while (*at == ';' || *at == ' ')
            at++;
        if (strncasecmp(at, "max-age=", 8) == 0 && atol(at + 8) <= 0)
            return true;
    }
    return false;
}

/* Sets or removes the cookie of a Set-Cookie header's value. */
static culprit_status set_cookie(culprit_web_fields *cookies, const char *value, culprit_error *err)
{
    size_t pair = strcspn(value, ";");
    const char *equals = memchr(value, '=', pair);
    if (!equals || equals == value)
        return CULPRIT_OK;
    size_t name_length = (size_t)(equals - value), value_length = pair - name_length - 1;
    for (size_t i = 0; i < cookies->count; i++) {
        culprit_web_field *cookie = &cookies->items[i];
        if (strlen(cookie->name) != name_length || strncmp(cookie->name, value, name_length) != 0)
            continue;
        free(cookie->name);
        free(cookie->value);
        *cookie = cookies->items[--cookies->count];
        break;
    }
    bool removed = expires_now(value + pair) || (value_length == 7 && strncmp(equals + 1, "deleted", 7) == 0);
    return removed ? CULPRIT_OK
                   : culprit_web_fields_add(cookies, value, name_length, equals + 1, value_length, err);
}

/* The value of header line if it is name's ("Location: x" -> "x"). */
static const char *header_value(const char *line, const char *name)
{
    size_t length = strlen(name);
    if (strncasecmp(line, name, length) != 0 || line[length] != ':')
        return NULL;
    line += length + 1;
    while (*line == ' ' || *line == '\t')
        line++;
    return line;
}

culprit_status culprit_web_state_apply_headers(const char *directory, const char *headers_path,
                                               char **location, culprit_error *err)
{
    *location = NULL;
    char *text = NULL;
    size_t size = 0;
    if (access(headers_path, F_OK) != 0)
        return CULPRIT_OK; /* the request died before its end */
    culprit_web_fields cookies = {0};
    culprit_status status =
        culprit_read_whole_file(headers_path, MAX_STATE_FILE, "a response's headers", &text, &size, err);
    if (status == CULPRIT_OK)
        status = read_cookies(directory, &cookies, err);
    for (char *line = text, *end; status == CULPRIT_OK && line && *line; line = end + (*end != '\0')) {
        end = line + strcspn(line, "\r\n");
        char saved = *end;
        *end = '\0';
        const char *value;
        if ((value = header_value(line, "Set-Cookie")))
            status = set_cookie(&cookies, value, err);
        else if ((value = header_value(line, "Location")) && !*location && !(*location = strdup(value)))
            status = culprit_fail_memory(err);
        *end = saved;
    }
    if (status == CULPRIT_OK)
        status = write_cookies(directory, &cookies, err);
    culprit_web_fields_free(&cookies);
    free(text);
    if (status != CULPRIT_OK) {
        free(*location);
        *location = NULL;
    }
    return status;
}

/* ---- the digest ---- */

static culprit_status hash_file(culprit_sha256 *hash, const char *path, culprit_error *err)
{
    char *bytes = NULL;
    size_t size = 0;
    culprit_status status =
        culprit_read_whole_file(path, MAX_STATE_FILE, "a state's file", &bytes, &size, err);
    if (status == CULPRIT_OK) {
        uint64_t length = size;
        culprit_sha256_update(hash, &length, sizeof length);
        culprit_sha256_update(hash, bytes, size);
    }
    free(bytes);
    return status;
}

/* The sessions' contents, sorted, without their ids. */
static culprit_status hash_sessions(culprit_sha256 *hash, const char *directory, culprit_error *err)
{
    char sessions[PATH_SIZE], path[PATH_SIZE * 2];
    state_path(directory, "sessions", sessions, sizeof sessions);
    char **names, **contents = NULL;
    size_t count, loaded = 0;
    culprit_status status = list_files(sessions, &names, &count, err);
    if (status == CULPRIT_OK && count && !(contents = calloc(count, sizeof *contents)))
        status = culprit_fail_memory(err);
    for (; status == CULPRIT_OK && loaded < count; loaded++) {
        size_t size;
        snprintf(path, sizeof path, "%s/%s", sessions, names[loaded]);
        status = culprit_read_whole_file(path, MAX_STATE_FILE, "a session", &contents[loaded], &size, err);
    }
    if (status == CULPRIT_OK && count)
        qsort(contents, count, sizeof *contents, compare_strings);
    for (size_t i = 0; status == CULPRIT_OK && i < count; i++)
        culprit_sha256_update(hash, contents[i], strlen(contents[i]) + 1);
    free_names(contents, contents ? count : 0);
    free_names(names, count);
    return status;
}

/* The cookies, a session's id replaced by a mark. */
static culprit_status hash_cookies(culprit_sha256 *hash, const char *directory, culprit_error *err)
{
    culprit_web_fields cookies = {0};
    culprit_status status = read_cookies(directory, &cookies, err);
    char **lines = status == CULPRIT_OK && cookies.count ? calloc(cookies.count, sizeof *lines) : NULL;
    if (status == CULPRIT_OK && cookies.count && !lines)
        status = culprit_fail_memory(err);
    for (size_t i = 0; status == CULPRIT_OK && i < cookies.count; i++) {
        const culprit_web_field *cookie = &cookies.items[i];
        char session[PATH_SIZE];
        snprintf(session, sizeof session, "%s/sessions/sess_%s", directory, cookie->value);
        bool is_session = !strchr(cookie->value, '/') && access(session, F_OK) == 0;
        size_t length = strlen(cookie->name) + strlen(cookie->value) + 12;
        if (!(lines[i] = malloc(length)))
            status = culprit_fail_memory(err);
        else
            snprintf(lines[i], length, "%s=%s", cookie->name, is_session ? "(session)" : cookie->value);
    }
    if (status == CULPRIT_OK && cookies.count)
        qsort(lines, cookies.count, sizeof *lines, compare_strings);
    for (size_t i = 0; status == CULPRIT_OK && i < cookies.count; i++)
        culprit_sha256_update(hash, lines[i], strlen(lines[i]) + 1);
    free_names(lines, lines ? cookies.count : 0);
    culprit_web_fields_free(&cookies);
    return status;
}

culprit_status culprit_web_state_digest(const char *directory, char hex[65], culprit_error *err)
{
    culprit_sha256 hash;
    culprit_sha256_init(&hash);
    culprit_sha256_update(&hash, "sessions", 9);
    culprit_status status = hash_sessions(&hash, directory, err);
    culprit_sha256_update(&hash, "cookies", 8);
    if (status == CULPRIT_OK)
        status = hash_cookies(&hash, directory, err);
    char db[PATH_SIZE], path[PATH_SIZE * 2];
    state_path(directory, "db", db, sizeof db);
    char **names = NULL;
    size_t count = 0;
    if (status == CULPRIT_OK)
        status = list_files(db, &names, &count, err);
    for (size_t i = 0; status == CULPRIT_OK && i < count; i++) {
        snprintf(path, sizeof path, "%s/%s", db, names[i]);
        culprit_sha256_update(&hash, names[i], strlen(names[i]) + 1);
        status = hash_file(&hash, path, err);
    }
    free_names(names, count);
    unsigned char digest[CULPRIT_SHA256_DIGEST_SIZE];
    culprit_sha256_final(&hash, digest);
    culprit_sha256_hex(digest, hex);
    return status;
}
