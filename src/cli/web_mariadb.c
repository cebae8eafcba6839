/*
 * web_mariadb.c - `culprit web --mariadb SCHEMA` (issue 24 item 1): an
 * application on MariaDB or MySQL explored with a disposable server that
 * culprit starts for the exploration and stops at its end - mariadbd on a
 * socket in culprit's temporary directory, no network, no grant tables
 * (any user and password connect), its data directory made by
 * mariadb-install-db and filled with SCHEMA (the application's SQL:
 * CREATE DATABASE, tables, rows).  The application reaches it as
 * "localhost": culprit-php-cgi --mysql-socket makes the socket the default
 * of PDO's and mysqli's connections without a host.
 *
 * The database is part of each state, as SQLite files are: after each
 * request its databases are dumped (mariadb-dump, without the date, so a
 * state's digest depends on its rows alone) into the state's directory as
 * db/mariadb.sql, which state matching then covers; before a request, the
 * server is given its state's dump unless it holds it already (the
 * databases the dump does not name are dropped first).  A reference run
 * (--reference) uses the same server, so the state is loaded again after
 * it.  The programs are Debian's mariadb-server-core and mariadb-client.
 * The server ends with the exploration: a replay of its requests
 * (tests.json) starts a server of its own for each request, loaded from
 * its state's dump (culprit-php-cgi --state).
 */
#define _GNU_SOURCE /* syscall(2): close_range */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/web.h"
#include "core/read_file.h"
#include "core/sha256.h"

enum { MAX_DUMP = 256 << 20 };

static const char DUMP_NAME[] = "db/mariadb.sql";

/* In a child before exec: the descriptors culprit holds (the store's
 * database among them) are not the tool's or the server's. */
static void close_inherited(void)
{
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 3u, ~0u, 0) == 0)
        return;
#endif
    for (int fd = 3; fd < 4096; fd++) /* without close_range: culprit opens a few */
        close(fd);
}

/* Runs argv, stdin from in_path and stdout to out_path (NULL: /dev/null),
 * stderr to the server directory's tools.log; its exit status, or -1. */
static int run_tool(const web_mariadb *server, char *const argv[], const char *in_path, const char *out_path)
{
    char log[PATH_MAX + 32];
    snprintf(log, sizeof log, "%s/tools.log", server->directory);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int in = open(in_path ? in_path : "/dev/null", O_RDONLY);
        int out = open(out_path ? out_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int err = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (in < 0 || out < 0 || err < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
            _exit(127);
        close_inherited();
        execvp(argv[0], argv);
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The last line written to the server directory's file name (which goes
 * with the exploration's temporary directory: a message must carry it). */
static void last_message(const web_mariadb *server, const char *name, char *out, size_t size)
{
    char log[PATH_MAX + 32], *text = NULL;
    size_t length = 0;
    culprit_error ignored;
    snprintf(log, sizeof log, "%s/%s", server->directory, name);
    snprintf(out, size, "no message");
    if (culprit_read_whole_file(log, 1 << 20, "a log", &text, &length, &ignored) != CULPRIT_OK)
        return;
    while (length > 0 && (text[length - 1] == '\n' || text[length - 1] == '\r'))
        text[--length] = '\0';
    char *line = length ? strrchr(text, '\n') : NULL;
    if (length)
        snprintf(out, size, "%s", line ? line + 1 : text);
    free(text);
}

static culprit_status tool_failed(const web_mariadb *server, const char *what, culprit_error *err)
{
    char message[512];
    last_message(server, "tools.log", message, sizeof message);
    return culprit_fail(err, CULPRIT_ERROR_INPUT, "--mariadb: %s failed: %s", what, message);
}

static void server_path(const web_mariadb *server, const char *name, char *out, size_t size)
{
    snprintf(out, size, "%s/%s", server->directory, name);
}

/* mariadb-install-db into DIR/data: the system tables of an empty server. */
static culprit_status install(const web_mariadb *server, culprit_error *err)
{
    char data[PATH_MAX + 32], option[PATH_MAX + 48];
    server_path(server, "data", data, sizeof data);
    snprintf(option, sizeof option, "--datadir=%s", data);
    char *argv[] = {"mariadb-install-db",
                    "--no-defaults",
                    option,
                    "--user=root",
                    "--skip-test-db",
                    "--auth-root-authentication-method=normal",
                    NULL};
    if (run_tool(server, argv, NULL, NULL) != 0)
        return tool_failed(server, "mariadb-install-db (is mariadb-server-core installed?)", err);
    return CULPRIT_OK;
}

/* mariadbd on the socket, in the background; waits until it answers. */
static culprit_status start_server(web_mariadb *server, culprit_error *err)
{
    char data[PATH_MAX + 48], socket_option[PATH_MAX + 48], pid[PATH_MAX + 48], log[PATH_MAX + 48];
    snprintf(data, sizeof data, "--datadir=%s/data", server->directory);
    snprintf(socket_option, sizeof socket_option, "--socket=%s", server->socket);
    snprintf(pid, sizeof pid, "--pid-file=%s/mariadbd.pid", server->directory);
    snprintf(log, sizeof log, "--log-error=%s/mariadbd.log", server->directory);
    char *argv[] = {"mariadbd",          "--no-defaults",       data,          socket_option, pid, log,
                    "--skip-networking", "--skip-grant-tables", "--user=root", NULL};
    server->pid = fork();
    if (server->pid < 0)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "--mariadb: cannot fork: %s", strerror(errno));
    if (server->pid == 0) {
        setsid(); /* a signal to culprit's group stops culprit, which stops the server */
        int null = open("/dev/null", O_RDWR);
        if (null >= 0)
            dup2(null, 0), dup2(null, 1), dup2(null, 2);
        close_inherited();
        execvp(argv[0], argv);
        _exit(127);
    }
    for (int tries = 0; tries < 300; tries++) { /* 30 s */
        struct stat info;
        int status;
        if (stat(server->socket, &info) == 0 && S_ISSOCK(info.st_mode))
            return CULPRIT_OK;
        if (waitpid(server->pid, &status, WNOHANG) == server->pid) {
            server->pid = 0;
            char message[512];
            last_message(server, "mariadbd.log", message, sizeof message);
            return culprit_fail(
                err, CULPRIT_ERROR_INPUT,
                "--mariadb: mariadbd stopped at its start (is mariadb-server-core installed?): %s", message);
        }
        nanosleep(&(struct timespec){0, 100000000}, NULL);
    }
    return culprit_fail(err, CULPRIT_ERROR_INPUT, "--mariadb: mariadbd did not open %s within 30 s",
                        server->socket);
}

/* mariadb reading sql_path (or running the statement). */
static int client(const web_mariadb *server, const char *sql_path, const char *statement,
                  const char *out_path)
{
    char socket_option[PATH_MAX + 48];
    snprintf(socket_option, sizeof socket_option, "--socket=%s", server->socket);
    char *argv[] = {"mariadb", "--no-defaults",         socket_option,     "-N",
                    "-B",      statement ? "-e" : NULL, (char *)statement, NULL};
    return run_tool(server, argv, sql_path, out_path);
}

/* The databases the application made: every one but the server's own. */
static culprit_status user_databases(const web_mariadb *server, char ***names, size_t *count,
                                     culprit_error *err)
{
    char listing[PATH_MAX + 32];
    server_path(server, "databases.txt", listing, sizeof listing);
    *names = NULL;
    *count = 0;
    if (client(server, NULL, "SHOW DATABASES", listing) != 0)
        return tool_failed(server, "listing the databases", err);
    char *text = NULL;
    size_t size = 0;
    culprit_status status =
        culprit_read_whole_file(listing, 1 << 20, "the list of databases", &text, &size, err);
    static const char *const system[] = {"information_schema", "mysql", "performance_schema", "sys"};
    for (char *line = text, *end; status == CULPRIT_OK && line && *line; line = end ? end + 1 : NULL) {
        end = strchr(line, '\n');
        if (end)
            *end = '\0';
        bool own = !*line;
        for (size_t i = 0; i < sizeof system / sizeof *system; i++)
            own |= strcmp(line, system[i]) == 0;
        if (own)
            continue;
        char **grown = realloc(*names, (*count + 1) * sizeof **names);
        if (grown)
            *names = grown;
        if (!grown || !(grown[*count] = strdup(line)))
            status = culprit_fail_memory(err);
        else
            (*count)++;
    }
    free(text);
    return status;
}

static void free_names(char **names, size_t count)
{
    for (size_t i = 0; i < count; i++)
        free(names[i]);
    free(names);
}

static void digest_of(const char *path, char hex[65])
{
    char *text = NULL;
    size_t size = 0;
    culprit_error ignored;
    hex[0] = '\0';
    if (culprit_read_whole_file(path, MAX_DUMP, "a dump", &text, &size, &ignored) != CULPRIT_OK)
        return;
    culprit_sha256 hash;
    unsigned char digest[CULPRIT_SHA256_DIGEST_SIZE];
    culprit_sha256_init(&hash);
    culprit_sha256_update(&hash, text, size);
    culprit_sha256_final(&hash, digest);
    culprit_sha256_hex(digest, hex);
    free(text);
}

culprit_status web_mariadb_take(web_explorer *explorer, const char *state, culprit_error *err)
{
    web_mariadb *server = explorer->mariadb;
    if (!server)
        return CULPRIT_OK;
    char **names = NULL, dump[PATH_MAX + 32], socket_option[PATH_MAX + 48];
    size_t count = 0;
    culprit_status status = user_databases(server, &names, &count, err);
    snprintf(dump, sizeof dump, "%s/%s", state, DUMP_NAME);
    snprintf(socket_option, sizeof socket_option, "--socket=%s", server->socket);
    char **argv = status == CULPRIT_OK ? calloc(count + 8, sizeof *argv) : NULL;
    if (status == CULPRIT_OK && !argv)
        status = culprit_fail_memory(err);
    if (status == CULPRIT_OK) {
        size_t n = 0;
        argv[n++] = "mariadb-dump", argv[n++] = "--no-defaults", argv[n++] = socket_option;
        argv[n++] = "--skip-dump-date", argv[n++] = "--add-drop-database", argv[n++] = "--databases";
        for (size_t i = 0; i < count; i++)
            argv[n++] = names[i];
        if (count == 0) /* nothing to dump: an empty dump */
            status = run_tool(server, (char *[]){"true", NULL}, NULL, dump) == 0
                         ? CULPRIT_OK
                         : tool_failed(server, "true", err);
        else if (run_tool(server, argv, NULL, dump) != 0)
            status = tool_failed(server, "mariadb-dump (is mariadb-client installed?)", err);
    }
    if (status == CULPRIT_OK)
        digest_of(dump, server->loaded); /* the server holds what it just gave */
    free(argv);
    free_names(names, count);
    return status;
}

culprit_status web_mariadb_install(web_explorer *explorer, const char *state, culprit_error *err)
{
    web_mariadb *server = explorer->mariadb;
    if (!server)
        return CULPRIT_OK;
    char dump[PATH_MAX + 32], wanted[65];
    snprintf(dump, sizeof dump, "%s/%s", state, DUMP_NAME);
    digest_of(dump, wanted);
    if (wanted[0] && strcmp(wanted, server->loaded) == 0)
        return CULPRIT_OK;
    char **names = NULL;
    size_t count = 0;
    culprit_status status = user_databases(server, &names, &count, err);
    for (size_t i = 0; status == CULPRIT_OK && i < count; i++) {
        char statement[512];
        snprintf(statement, sizeof statement, "DROP DATABASE `%s`", names[i]);
        if (client(server, NULL, statement, NULL) != 0)
            status = tool_failed(server, "dropping a database", err);
    }
    free_names(names, count);
    if (status == CULPRIT_OK && client(server, dump, NULL, NULL) != 0)
        status = tool_failed(server, "loading a state's dump", err);
    if (status == CULPRIT_OK)
        memcpy(server->loaded, wanted, sizeof wanted);
    return status;
}

void web_mariadb_forget(web_explorer *explorer)
{
    if (explorer->mariadb)
        explorer->mariadb->loaded[0] = '\0';
}

culprit_status web_mariadb_start(web_explorer *explorer, culprit_error *err)
{
    const char *schema = explorer->options->mariadb;
    if (!schema)
        return CULPRIT_OK;
    if (access(schema, R_OK) != 0)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "--mariadb %s: cannot read it: %s", schema,
                            strerror(errno));
    web_mariadb *server = calloc(1, sizeof *server);
    if (!server)
        return culprit_fail_memory(err);
    explorer->mariadb = server;
    snprintf(server->directory, sizeof server->directory, "%s/mariadb", explorer->temporary);
    snprintf(server->socket, sizeof server->socket, "%s/mysqld.sock", server->directory);
    if (mkdir(server->directory, 0700) != 0)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot make %s: %s", server->directory,
                            strerror(errno));
    culprit_status status = install(server, err);
    if (status == CULPRIT_OK)
        status = start_server(server, err);
    char message[512];
    if (status == CULPRIT_OK && client(server, schema, NULL, NULL) != 0) {
        last_message(server, "tools.log", message, sizeof message);
        status = culprit_fail(err, CULPRIT_ERROR_INPUT, "--mariadb %s: the server refused it: %s", schema,
                              message);
    }
    return status;
}

void web_mariadb_stop(web_explorer *explorer)
{
    web_mariadb *server = explorer->mariadb;
    if (!server)
        return;
    if (server->pid > 0) {
        kill(server->pid, SIGTERM);
        int status;
        for (int tries = 0; tries < 300 && waitpid(server->pid, &status, WNOHANG) == 0; tries++)
            nanosleep(&(struct timespec){0, 100000000}, NULL);
        if (kill(server->pid, 0) == 0) {
            kill(server->pid, SIGKILL);
            waitpid(server->pid, &status, 0);
        }
    }
    free(server);
    explorer->mariadb = NULL;
}
