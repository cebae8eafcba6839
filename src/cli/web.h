/*
 * web.h - what `culprit web`'s files share: the command's options
 * (web.c parses them and drives the exploration) and the state of one
 * exploration (web_run.c runs one request through the harness and
 * php-cgi, records it as a test and queues what its page offers;
 * web_suite.c keeps the requests for replays; web_reference.c runs each
 * request in the reference version first, for its expected page).
 */
#ifndef CULPRIT_CLI_WEB_H
#define CULPRIT_CLI_WEB_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "cli/harness.h"
#include "culprit/concolic.h"
#include "culprit/manifest.h"
#include "culprit/oracle.h"
#include "culprit/web.h"

typedef struct web_options {
    const char *app_directory; /* APPDIR as given */
    char **entries;            /* --entry, split at commas (owned) */
    size_t entry_count;
    const char **databases; /* --db FILE (relative to APPDIR) */
    size_t database_count;
    size_t budget_requests;        /* --budget N */
    double budget_seconds;         /* --budget Ns */
    const char *fail_on;           /* --fail-on: CULPRIT_PHP_FAIL_ON of the requests */
    bool html;                     /* --html: malformed HTML fails a request too */
    bool match_values;             /* --match values: the inputs' values are part of a transition */
    bool inputs;                   /* --inputs (the default): negate the input constraints */
    const char *reference;         /* --reference REFDIR: its pages are the expected ones (NULL: none) */
    culprit_web_page_options page; /* --fill, --each-option, --field */
    culprit_web_fields given;      /* --field NAME=VALUE (owned; page.given points here) */
    culprit_gen_strategy strategy; /* --strategy: which pending request runs next (web_strategy.c) */
    const char *from;              /* --from TEST: the failing request to start from */
    const char *from_tests;        /* --tests FILE: the manifest TEST is in (default STORE/web/tests.json) */
    const char *export;            /* --export DIR: the explored suite, its paths relative to DIR */
    const char *mariadb;           /* --mariadb SCHEMA: a disposable MariaDB server, loaded with SCHEMA */
    const char *store;
    harness_options harness;
} web_options;

/* A state explored: its directory (in the exploration's temporary
 * directory) and its digest. */
typedef struct web_state {
    char directory[PATH_MAX + 32];
    char digest[65];
} web_state;

/* A request of --from's test, and the cookies it sends of its own. */
typedef struct web_seed_request {
    culprit_web_request request;
    char *cookies;    /* --cookie, encoded, or NULL */
    const char *body; /* --body (borrowed from the manifest), or NULL */
    bool multipart;   /* --content-type is culprit web's multipart one */
} web_seed_request;

/* --from TEST (web_from.c): the failing request to start from, read
 * from its manifest before STORE/web is replaced.  A chain's requests
 * before its last run first, in order, each in the state the one before
 * left: the last is the failing one. */
typedef struct web_seed {
    culprit_manifest manifest;
    const culprit_test_spec *spec; /* TEST, in manifest */
    culprit_web_request request;   /* the failing request (a chain's last) */
    char *cookies;                 /* its cookies (--cookie, encoded), or NULL */
    web_seed_request *before;      /* a chain's requests before it, in order */
    size_t before_count;
    char *state;               /* its "state" (--state DIR), or NULL */
    char saved[PATH_MAX + 32]; /* the state copied into the exploration's directory, "" when none */
} web_seed;

/* --mariadb (web_mariadb.c): the disposable server. */
typedef struct web_mariadb {
    char directory[PATH_MAX + 16]; /* its data, socket, pid and logs */
    char socket[PATH_MAX + 32];
    pid_t pid;       /* mariadbd; 0 once stopped */
    char loaded[65]; /* the digest of the dump the server holds ("" not known) */
} web_mariadb;

/* One exploration in progress. */
typedef struct web_explorer {
    const web_options *options;
    char app[PATH_MAX];      /* APPDIR, absolute and resolved */
    char launcher[PATH_MAX]; /* culprit-php-cgi */
    culprit_store *store;
    culprit_sandbox *sandbox;
    culprit_pool *pool;
    harness_paths paths; /* the test's directory, reused request after request */
    culprit_unit_set maps;
    char temporary[PATH_MAX]; /* the states live here */
    web_state *states;
    size_t state_count, state_capacity;
    culprit_web_databases databases;
    culprit_web_queue queue;
    culprit_web_guide guide;             /* the strategy's view of the runs so far */
    web_seed seed;                       /* --from */
    const char *step_note;               /* what the progress line says of the request running, or NULL */
    web_mariadb *mariadb;                /* --mariadb, owned; NULL without */
    char suite_directory[PATH_MAX + 16]; /* STORE/web: the states and tests.json, for replays */
    FILE *suite;                         /* tests.json, written as the requests run */
    size_t suite_entries;
    char export_directory[PATH_MAX]; /* --export DIR, resolved */
    FILE *export_suite;              /* DIR/tests.json, its paths relative to DIR */
    char **off_site;                 /* URLs already said not to be followed */
    size_t off_site_count, off_site_capacity;
    /* progress */
    size_t requests, failing, timeouts, signature_count, signature_capacity;
    size_t from_inputs, inputs_queued; /* requests run, and queued, from input constraints */
    bool said_database;                /* the note that the database cannot be reached, said once */
    char top[PATH_MAX + 32];           /* the progress line's top line and lines run, as last ranked */
    char top_scomb[PATH_MAX + 32];     /* ... and S_comb's top line */
    double lines_run, ranked_at, rank_cost;
    char **goals; /* "SITE\tFIELD\t=VALUE" tried at a comparison (web_run.c), sorted */
    size_t goal_count, goal_capacity;
    char **signatures;               /* distinct failure signatures */
    struct web_reference *reference; /* --reference (web_reference.c); NULL without it */
    double started;
    int interrupted_by;
} web_explorer;

/* Runs the next step of the queue: the request in a copy of its state,
 * recorded as test web-NNNN, its page's links and forms and its redirect
 * queued in the state it left, whose number goes to *after (NULL: not
 * wanted) (web_run.c).  seed_oracle: NULL, or the oracle of the failing
 * test --from names, which judges it instead of the exploration's. */
culprit_status web_run_step(web_explorer *explorer, culprit_web_step *step, const culprit_oracle *seed_oracle,
                            size_t *after, culprit_error *err);

/* culprit-php-cgi's command for a request in a state (web_run.c): what
 * manifest_request.c makes of a "request" - its GET and POST fields
 * encoded (a multipart body with its files), its own cookies and the
 * state's - and the state's sessions directory;
 * web_launch_begin makes the words up to --session-dir, the caller adds
 * its own options, web_launch_end adds --root and the script. */
enum { WEB_MAX_WORDS = 24 };
typedef struct web_launch {
    char *words[WEB_MAX_WORDS];
    size_t count;
    char *query, *form, *cookies; /* owned: encoded ("" when none; form NULL for a multipart POST) */
    char *body;                   /* owned: a multipart POST's body (CULPRIT_WEB_MULTIPART_TYPE), or NULL */
    char sessions[PATH_MAX + 64];
} web_launch;
culprit_status web_launch_begin(const web_explorer *explorer, const culprit_web_request *request,
                                const char *state, web_launch *launch, culprit_error *err);
void web_launch_end(web_launch *launch, const char *root, const char *script);
void web_launch_free(web_launch *launch);

/* The environment of a request (web_run.c): CULPRIT_PHP_FAIL_ON of
 * --fail-on and --from's test's "env", which is how the application runs
 * (its database, its configuration) - for every request, and for the
 * reference's run of it; the exploration's --fail-on wins, but for the
 * failing test itself (failing_test), judged as its own. */
enum { WEB_MAX_ENV = 64 };
typedef struct web_env {
    char fail_on[64];
    char *settings[WEB_MAX_ENV + 1]; /* borrowed from the test, and fail_on */
    size_t count;
} web_env;
void web_request_env(const web_explorer *explorer, bool failing_test, web_env *env);

/* web_mariadb.c: the server started (mariadb-install-db, mariadbd on a
 * socket of the temporary directory, SCHEMA loaded); a state's databases
 * dumped into its db/mariadb.sql after a request (take), and given to the
 * server before one unless it holds them (install); forget: the server
 * was changed by something else (a reference run); stop: SIGTERM, then
 * SIGKILL after 30 s.  All do nothing without --mariadb. */
culprit_status web_mariadb_start(web_explorer *explorer, culprit_error *err);
culprit_status web_mariadb_take(web_explorer *explorer, const char *state, culprit_error *err);
culprit_status web_mariadb_install(web_explorer *explorer, const char *state, culprit_error *err);
void web_mariadb_forget(web_explorer *explorer);
void web_mariadb_stop(web_explorer *explorer);

/* web_from.c: reads --from TEST's request out of its manifest (the
 * script must be a file of explorer->app) and copies its state into the
 * exploration's temporary directory. */
culprit_status web_seed_load(web_explorer *explorer, const char *store_directory, culprit_error *err);
/* The state a request of the seed runs in: base (NULL: the seed's saved
 * state, else the initial one; else that state's number), with cookies
 * (NULL: none) set, as state number *state.  The seed's first request
 * runs in (NULL, its cookies); a chain's later ones in the state the
 * request before left, with their own cookies. */
culprit_status web_seed_state(web_explorer *explorer, const size_t *base, const char *cookies, size_t *state,
                              culprit_error *err);
void web_seed_free(web_seed *seed);

/* Adds a state directory already made (taking it over) unless a state of
 * the same digest exists: then it is removed and that state is used.
 * *number: the state's index in explorer->states. */
culprit_status web_add_state(web_explorer *explorer, const char *directory, size_t *number,
                             culprit_error *err);

/* web_suite.c: STORE/web, the explored requests as a manifest that
 * replays them, with the states they ran in. */
typedef struct web_suite_request {
    const char *script;          /* absolute */
    const char *query, *cookies; /* encoded; "" when none */
    const char *form;            /* a POST's body, encoded; NULL for a GET or a multipart POST */
    const char *body;            /* a multipart POST's body (CULPRIT_WEB_MULTIPART_TYPE), or NULL */
    size_t state;                /* the state it ran in */
    bool expected;               /* --reference gave it an expected page (web_suite_expected_path) */
    culprit_comparison compare;  /* how its page is compared with that one */
} web_suite_request;

culprit_status web_suite_open(web_explorer *explorer, const char *store_directory, culprit_error *err);
/* Saves state number as STORE/web/states/NUMBER. */
culprit_status web_suite_save_state(const web_explorer *explorer, size_t number, culprit_error *err);
void web_suite_add(web_explorer *explorer, const char *name, const web_suite_request *request);
void web_suite_close(web_explorer *explorer);
/* STORE/web/expected/NAME.html (its directory made): the expected page of
 * test name, which its manifest entry names when request->expected. */
culprit_status web_suite_expected_path(const web_explorer *explorer, const char *name, char *path,
                                       size_t size, culprit_error *err);
/* Saves the state at directory, REFDIR's database files as they were, as
 * STORE/web/reference: what to put back after a SIGKILL. */
culprit_status web_suite_save_reference(const web_explorer *explorer, const char *directory,
                                        const culprit_web_databases *databases, culprit_error *err);

/* web_reference.c: --reference REFDIR, another version of the application
 * whose page for each request is its expected page (docs/web.md,
 * "Reference oracle").  Each does nothing without --reference. */
typedef struct web_reference web_reference;
/* Checks REFDIR (after APPDIR: an input error when it is not a directory,
 * or is APPDIR) and lists its database files. */
culprit_status web_reference_open(web_explorer *explorer, culprit_error *err);
/* Saves REFDIR's database files as they are (once the temporary directory
 * and STORE/web exist). */
culprit_status web_reference_start(web_explorer *explorer, culprit_error *err);
/* Runs request in REFDIR in a copy of the state at directory state, and
 * keeps its page as test name's expected page: expected is its path, ""
 * when there is none (said on stderr once per script), *compare how the
 * application's page is compared with it (numbers, for a script whose
 * reference pages change their numbers from run to run).  REFDIR's
 * database files are put back after. */
culprit_status web_reference_run(web_explorer *explorer, const culprit_web_request *request,
                                 const char *state, const char *name, char *expected, size_t size,
                                 culprit_comparison *compare, culprit_error *err);
/* Whether the application's page (actual's stdout) agrees with the
 * expected one ("" : it does) under compare. */
culprit_status web_reference_agrees(web_explorer *explorer, const char *expected, const harness_paths *actual,
                                    culprit_comparison compare, bool *agrees, culprit_error *err);
/* For a page that does not: runs the request in REFDIR again, in the
 * state at directory state (the one it ran in), to tell a wrong page from
 * one whose reference changes from run to run: then *compare becomes
 * numbers, or expected "" (no expected page) when the reference's page
 * changes beyond its numbers. */
culprit_status web_reference_recheck(web_explorer *explorer, const culprit_web_request *request,
                                     const char *state, char *expected, culprit_comparison *compare,
                                     culprit_error *err);
/* Puts REFDIR's database files back as they were, sums up, frees. */
void web_reference_close(web_explorer *explorer);

#endif
