/*
 * web.h - culprit web's exploration of a PHP application (docs/web.md;
 * Apollo, seeds/000 §3 and Figure 3): the requests a page offers (its links
 * and forms, read with libtidy), the state a request runs in (sessions,
 * cookies, database files, kept in a directory per state) and the queue of
 * requests still to explore, which skips a transition explored already.
 *
 * The library does no running: `culprit web` (src/cli/web.c) runs each
 * request through the harness and php-cgi and hands the page and the
 * response's headers back here.
 */
#ifndef CULPRIT_WEB_H
#define CULPRIT_WEB_H

#include <stdbool.h>
#include <stddef.h>

#include "culprit/concolic.h"
#include "culprit/error.h"

/* ---- requests (web_request.c) ---- */

/* One input: a name and its value, plain text (not encoded). */
typedef struct culprit_web_field {
    char *name, *value;
} culprit_web_field;

typedef struct culprit_web_fields {
    culprit_web_field *items;
    size_t count, capacity;
} culprit_web_fields;

/* A request to a script of the application. */
typedef struct culprit_web_request {
    char *script;   /* relative to the application's directory, normalized: "admin/login.php" */
    bool is_post;   /* POST with post (and files) as its body, else GET */
    bool multipart; /* a POST sent as multipart/form-data (a form with a file input, or its enctype) */
    culprit_web_fields get, post;
    /* Cookies the request sends of its own (made by negating a comparison
     * on a cookie): they override the state's cookie of the same name for
     * this request only (culprit_web_request_cookies). */
    culprit_web_fields cookies;
    /* Files it uploads: the field's name and the file's name; the content
     * is CULPRIT_WEB_UPLOAD's.  Sent only in a multipart POST. */
    culprit_web_fields files;
} culprit_web_request;

/* Every uploaded file is this small text file: an upload is an input
 * ($_FILES['doc'] set or not), its content is not. */
#define CULPRIT_WEB_UPLOAD_NAME "culprit.txt"
#define CULPRIT_WEB_UPLOAD_TYPE "text/plain"
#define CULPRIT_WEB_UPLOAD_CONTENT "culprit upload\n"
/* The boundary of the multipart bodies culprit sends: fixed, so that a
 * request's body is the same bytes each time (replays, keys). */
#define CULPRIT_WEB_BOUNDARY "culprit-form-boundary-5f0c2a"
#define CULPRIT_WEB_MULTIPART_TYPE "multipart/form-data; boundary=" CULPRIT_WEB_BOUNDARY

CULPRIT_API culprit_status culprit_web_fields_add(culprit_web_fields *fields, const char *name,
                                                  size_t name_length, const char *value, size_t value_length,
                                                  culprit_error *err);
CULPRIT_API void culprit_web_fields_free(culprit_web_fields *fields);
/* Appends copies of from's fields to to. */
CULPRIT_API culprit_status culprit_web_fields_copy(const culprit_web_fields *from, culprit_web_fields *to,
                                                   culprit_error *err);
/* Decodes a query string (a=1&b=x+y%21) into fields. */
CULPRIT_API culprit_status culprit_web_fields_parse(const char *query, culprit_web_fields *fields,
                                                    culprit_error *err);
/* Form encoding (application/x-www-form-urlencoded) of fields, as a browser
 * sends them: *encoded is owned by the caller. */
CULPRIT_API culprit_status culprit_web_fields_encode(const culprit_web_fields *fields, char **encoded,
                                                     culprit_error *err);

CULPRIT_API void culprit_web_request_free(culprit_web_request *request);
/* Makes *to (zeroed by the caller) a copy of from. */
CULPRIT_API culprit_status culprit_web_request_copy(const culprit_web_request *from, culprit_web_request *to,
                                                    culprit_error *err);
/* The Cookie header the request sends in a state whose cookies are jar
 * (a Cookie header, "a=1; b=2", maybe ""): the request's own cookies first,
 * form-encoded, then the jar's but those of a name the request sends
 * (PHP keeps a name's first value; the jar's is left out all the same, so
 * that the header says what the page saw).  *header is owned. */
CULPRIT_API culprit_status culprit_web_request_cookies(const culprit_web_request *request, const char *jar,
                                                       char **header, culprit_error *err);
/* The multipart/form-data body (CULPRIT_WEB_MULTIPART_TYPE) of a POST:
 * its post fields, then a part per file (CULPRIT_WEB_UPLOAD_*), CRLF line
 * ends, as a browser sends them; '"', CR and LF in names are %22, %0D,
 * %0A.  *body is owned. */
CULPRIT_API culprit_status culprit_web_multipart_encode(const culprit_web_request *request, char **body,
                                                        culprit_error *err);
/* Reads a body culprit_web_multipart_encode wrote (boundary
 * CULPRIT_WEB_BOUNDARY) back into request's post fields and files: a part
 * with a filename is a file.  An input error for any other body. */
CULPRIT_API culprit_status culprit_web_multipart_parse(const char *body, culprit_web_request *request,
                                                       culprit_error *err);
/* The transition a request makes from a state, for state matching: method,
 * script, the sorted names of its GET and of its POST inputs (with their
 * values when with_values), of its own cookies (likewise) and of its
 * files, and the state's digest.  Requests with the same key are one
 * transition.  *key is owned by the caller. */
CULPRIT_API culprit_status culprit_web_request_key(const culprit_web_request *request,
                                                   const char *state_digest, bool with_values, char **key,
                                                   culprit_error *err);
/* "GET index.php?a=1" / "POST login.php user=ann", then the request's own
 * cookies and files: "GET a.php cookie mode=expert", "POST up.php t=1
 * file doc", for messages; owned. */
CULPRIT_API char *culprit_web_request_describe(const culprit_web_request *request);

/* ---- URLs and pages (web_html.c) ---- */

typedef enum culprit_web_target {
    CULPRIT_WEB_SCRIPT,   /* a PHP script of the application: *path and *query are set */
    CULPRIT_WEB_OFF_SITE, /* another host, or a path above the application's directory: never followed */
    CULPRIT_WEB_IGNORED,  /* not a request to a PHP script: mailto:, javascript:, #top, style.css */
} culprit_web_target;

/* Resolves url, found in the page of script (relative to the application's
 * directory), as a browser would against http://localhost/SCRIPT: a
 * relative path from script's directory, an absolute one from the
 * application's, http://localhost/... as the application itself; a
 * directory means its index.php.  The fragment is dropped.  For
 * CULPRIT_WEB_SCRIPT, *path (normalized, relative) and *query (without
 * '?', maybe empty) are owned by the caller; NULL when out of memory. */
CULPRIT_API culprit_web_target culprit_web_resolve(const char *script, const char *url, char **path,
                                                   char **query);

/* What a page offers: a GET request per link, a request per form (and per
 * named submit button of it) with every field's default (hidden fields,
 * text values, checked checkboxes and radio buttons, a select's selected
 * or first option, a textarea's text), and the links and forms that lead
 * off the site. */
typedef struct culprit_web_page {
    culprit_web_request *requests;
    size_t request_count, request_capacity;
    char **off_site; /* the URLs as written, each once */
    size_t off_site_count, off_site_capacity;
} culprit_web_page;

/* How a page's forms are filled. */
typedef struct culprit_web_page_options {
    /* A text field a user must fill (text, password, search, email, url,
     * tel, number, a textarea: no default) is sent with a made-up value
     * instead of empty: its name (number: 1, email: NAME@example.com), so
     * that two such fields differ. */
    bool fill_empty;
    /* Besides the defaults, a request per other choice of each select,
     * radio group and unchecked checkbox, one field changed at a time (the
     * others at their defaults, the form's first submit button). */
    bool each_option;
    /* May be NULL: values the user gives for text-like fields by name (a
     * login's user and password), used wherever a form has a field of
     * that name, over its default and over fill_empty. */
    const culprit_web_fields *given;
} culprit_web_page_options;

/* Reads html (the body of script's response) into page (zeroed by the
 * caller).  HTML libtidy cannot read at all gives an empty page. */
CULPRIT_API culprit_status culprit_web_page_read(const char *html, size_t length, const char *script,
                                                 const culprit_web_page_options *options,
                                                 culprit_web_page *page, culprit_error *err);
CULPRIT_API void culprit_web_page_free(culprit_web_page *page);

/* ---- input constraints (web_inputs.c) ---- */

/* One comparison a request's page made on an input field (recorded by the
 * extension, src/php/php_inputs.c; culprit-php-cgi --inputs FILE): a
 * line `KIND OUTCOME SOURCE FIELD HOW SITE [CONSTANT...]` of
 * percent-encoded words, "-" the empty word. */
typedef struct culprit_web_constraint {
    char *kind;       /* eq ieq ne lt le gt ge (the field on the left), switch, in, numeric, digits,
                         isset, empty, match */
    int outcome;      /* 1 true, 0 false, -1 not known */
    char *source;     /* get, post, cookie, request, files */
    char *field;      /* the input's name */
    char *how;        /* the derivation: id, trim, lower, int, len (strlen) */
    char *site;       /* FILE:LINE of the comparison */
    char **constants; /* the other operand; a switch's cases; in_array's values */
    size_t constant_count;
} culprit_web_constraint;

typedef struct culprit_web_constraints {
    culprit_web_constraint *items;
    size_t count, capacity;
} culprit_web_constraints;

/* Reads the records in text (length bytes; name for errors, which give
 * the line) into constraints (zeroed by the caller, appended to). */
CULPRIT_API culprit_status culprit_web_constraints_parse(const char *text, size_t length, const char *name,
                                                         culprit_web_constraints *constraints,
                                                         culprit_error *err);
CULPRIT_API void culprit_web_constraints_free(culprit_web_constraints *constraints);
/* The requests that make constraint go the other way: copies of request
 * with its field changed (==, strcmp: the constant, or another value when
 * equal; !=: the reverse; < <= > >=: the integers around the constant;
 * switch, match, in_array: each case; is_numeric, ctype_digit: "x" or
 * "1"; isset: the field absent, or present with its name as value; empty:
 * the reverse), a value the request sent already left out.  A GET
 * request's POST field makes the copy a POST.  A cookie is changed in the
 * request's own cookies (made absent only when it is one of them: the
 * state's cannot be taken away).  A file (source files; isset, empty)
 * is uploaded or left out, which makes the copy a multipart POST.
 * *requests (*count of them) is owned by the caller. */
CULPRIT_API culprit_status culprit_web_constraint_negate(const culprit_web_request *request,
                                                         const culprit_web_constraint *constraint,
                                                         const char *solved, culprit_web_request **requests,
                                                         size_t *count, culprit_error *err);
/* (solved, may be NULL: a value culprit_web_solve_negation found, tried
 * first.)  A value of the index-th comparison's field that makes it go
 * the other way while the comparisons before it on the same field keep
 * their recorded outcomes, solved with Z3 over strings and integers
 * (web_solve.c, which says what is modelled); *value (owned) is NULL when
 * no earlier comparison constrains the field (the comparison's own
 * negation does as well), the path is unsatisfiable, or Z3 gives up
 * within timeout_ms. */
CULPRIT_API culprit_status culprit_web_solve_negation(const culprit_web_constraints *constraints,
                                                      size_t index, unsigned timeout_ms, char **value,
                                                      culprit_error *err);

/* ---- states (web_state.c) ---- */

/* A state is a directory: sessions/ (PHP's session.save_path), cookies
 * (NAME=VALUE a line) and db/N, the copy of the N-th database file of the
 * application.  The database files are named relative to app_directory. */
typedef struct culprit_web_databases {
    const char *app_directory;
    char **files; /* relative to app_directory */
    size_t count;
} culprit_web_databases;

/* The application's *.sqlite, *.sqlite3 and *.db files under app_directory
 * (not in hidden directories), sorted; added to databases->files. */
CULPRIT_API culprit_status culprit_web_find_databases(culprit_web_databases *databases, culprit_error *err);
/* Adds file (relative to app_directory) to databases->files unless it is
 * listed already. */
CULPRIT_API culprit_status culprit_web_databases_add(culprit_web_databases *databases, const char *file,
                                                     culprit_error *err);
CULPRIT_API void culprit_web_databases_free(culprit_web_databases *databases);

/* Makes directory, the first state: no session, no cookie, the database
 * files as they are in the application. */
CULPRIT_API culprit_status culprit_web_state_initial(const char *directory,
                                                     const culprit_web_databases *databases,
                                                     culprit_error *err);
/* Makes directory a copy of the state in from. */
CULPRIT_API culprit_status culprit_web_state_copy(const char *from, const char *directory,
                                                  culprit_error *err);
/* Puts the state's database files in the application (before a request),
 * or takes the application's back into the state (after it). */
CULPRIT_API culprit_status culprit_web_state_install(const char *directory,
                                                     const culprit_web_databases *databases,
                                                     culprit_error *err);
CULPRIT_API culprit_status culprit_web_state_take(const char *directory,
                                                  const culprit_web_databases *databases, culprit_error *err);
/* Saves the state at directory as target, for replays: a copy, and the file
 * databases ("N PATH" a line: db/N is the database file PATH, absolute),
 * which culprit-php-cgi --state reads. */
CULPRIT_API culprit_status culprit_web_state_save(const char *directory,
                                                  const culprit_web_databases *databases, const char *target,
                                                  culprit_error *err);
/* The Cookie header of the state ("a=1; b=2"; "" when none); owned. */
CULPRIT_API culprit_status culprit_web_state_cookies(const char *directory, char **header,
                                                     culprit_error *err);
/* Replaces the state's cookies with those of a Cookie header ("a=1; b=2"). */
CULPRIT_API culprit_status culprit_web_state_set_cookies(const char *directory, const char *header,
                                                         culprit_error *err);
/* Applies the response's headers (headers_path: `Status: N` and a header a
 * line, as culprit-php-cgi --headers writes them; absent: none) to the
 * state: each Set-Cookie sets or, expired, removes its cookie.  *location
 * is the Location header's value (owned), or NULL. */
CULPRIT_API culprit_status culprit_web_state_apply_headers(const char *directory, const char *headers_path,
                                                           char **location, culprit_error *err);
/* The state's digest, for state matching: its sessions' contents (not the
 * session ids), its cookies (but the values naming a session) and its
 * database files.  hex: 64 digits and a NUL. */
CULPRIT_API culprit_status culprit_web_state_digest(const char *directory, char hex[65], culprit_error *err);

/* ---- the queue (web_queue.c) ---- */

/* A request to explore, in a state (the caller's number for it). */
typedef struct culprit_web_step {
    culprit_web_request request;
    size_t state;
    size_t from_test; /* the test whose page offered it (0: an entry script) */
    bool generated;   /* made from an input constraint: its inputs' values are part of its transition */
    /* Its predicted path, for the strategies (web_strategy.c): for a step
     * made from the i-th comparison of a request, that request's first i
     * conditions and the i-th as the new value would make it
     * (culprit_web_predict); empty for a link, form or redirect, whose
     * page's comparisons are not known before it runs.  Owned. */
    culprit_condition *conditions;
    size_t condition_count;
    double score;     /* its best similarity to a failing request so far */
    double tie_score; /* the other similarity (is for pcs, pcs for is), which breaks ties */
    size_t scored;    /* the failing requests the scores cover */
} culprit_web_step;

typedef struct culprit_web_queue {
    culprit_web_step *steps; /* first..count-1 are pending */
    size_t first, count, capacity;
    char **explored; /* transition keys, sorted */
    size_t explored_count, explored_capacity;
    bool match_values; /* set before the first push: the inputs' values are part of a transition */
} culprit_web_queue;

/* Queues step (taking its request) unless its transition (the request's
 * key in a state of digest state_digest, with its values when the queue
 * matches values or the step is generated) was queued before: then the
 * request is freed and *queued is false. */
CULPRIT_API culprit_status culprit_web_queue_push(culprit_web_queue *queue, culprit_web_step *step,
                                                  const char *state_digest, bool *queued, culprit_error *err);
/* Takes the oldest pending step (breadth first); false when none is left. */
CULPRIT_API bool culprit_web_queue_pop(culprit_web_queue *queue, culprit_web_step *step);
/* The number of pending steps, the index-th of them (0: the oldest), and
 * taking it out of the queue (the others keep their order). */
CULPRIT_API size_t culprit_web_queue_pending(const culprit_web_queue *queue);
CULPRIT_API culprit_web_step *culprit_web_queue_at(culprit_web_queue *queue, size_t index);
CULPRIT_API void culprit_web_queue_take(culprit_web_queue *queue, size_t index, culprit_web_step *step);
CULPRIT_API void culprit_web_queue_free(culprit_web_queue *queue);
/* Frees a step's request and conditions. */
CULPRIT_API void culprit_web_step_free(culprit_web_step *step);

/* ---- strategies (web_strategy.c; seeds/001 §3-4, TECHNIQUES.md §6) ----
 * Which pending step runs next.  The strategies are culprit gen's
 * (culprit_gen_strategy): base (Apollo's: the oldest, breadth first),
 * coverage (the oldest of the steps that would run something no request
 * has: a comparison's other outcome, a script not requested yet; the
 * oldest when none would), pcs and pcs-seq (the step whose predicted path
 * is most like a failing request's: path-constraint similarity, subset and
 * subsequence forms, the maximum over the failing requests) and is (the
 * request most like a failing one's: input similarity).  Ties go to the
 * other similarity (input similarity for pcs, pcs subset for is: a step
 * made from a request's first comparison shares no condition with it, nor
 * does a link, but its inputs can be alike), then to the oldest; until a
 * request fails, pcs and is take the oldest. */

/* A comparison's condition (culprit_condition of concolic.h): its site is
 * a hash of the comparison's site, kind and field; its outcome the
 * recorded 0 or 1 (CULPRIT_OUTCOME_OTHER when not known), or for a switch,
 * in_array or preg_match, a hash of the field's value as request sent it. */
CULPRIT_API culprit_condition culprit_web_condition(const culprit_web_request *request,
                                                    const culprit_web_constraint *constraint);
/* The condition constraint would be with changed's value of its field in
 * place of original's: evaluated here as PHP would (==, <, isset ... with
 * the field's derivation: trim, lower, int); CULPRIT_OUTCOME_OTHER when
 * that evaluation does not give the recorded outcome for original's own
 * value (the comparison is not one this evaluation can predict). */
CULPRIT_API culprit_condition culprit_web_predict(const culprit_web_request *original,
                                                  const culprit_web_request *changed,
                                                  const culprit_web_constraint *constraint);
/* The value request gives constraint's field (NULL: absent), looked up
 * where its source says (GET, POST; a $_REQUEST field in POST then GET;
 * a cookie in the request's own cookies - the state's are not known here;
 * a file: its file name). */
CULPRIT_API const char *culprit_web_field_value(const culprit_web_request *request,
                                                const culprit_web_constraint *constraint);
/* Input similarity of two requests in [0, 1]: the items (the script, each
 * GET field's name=value, each POST field's, own cookie's and file's)
 * both have, over the larger item count. */
CULPRIT_API double culprit_web_request_similarity(const culprit_web_request *a, const culprit_web_request *b);

/* A failing request, as the strategies keep it (copies). */
typedef struct culprit_web_failing {
    culprit_web_request request;
    culprit_condition *conditions;
    size_t condition_count;
} culprit_web_failing;

typedef struct culprit_web_guide {
    culprit_gen_strategy strategy; /* base, coverage, pcs, pcs-seq or is */
    culprit_web_failing *failing;
    size_t failing_count, failing_capacity;
    uint64_t *covered; /* sorted: hashes of the conditions run and of the scripts requested */
    size_t covered_count, covered_capacity;
} culprit_web_guide;

/* Whether culprit web has strategy (the others are culprit gen's alone). */
CULPRIT_API bool culprit_web_strategy_supported(culprit_gen_strategy strategy);
/* What a request that ran tells the strategies: its conditions (copied)
 * and whether it failed. */
CULPRIT_API culprit_status culprit_web_guide_add_run(culprit_web_guide *guide,
                                                     const culprit_web_request *request,
                                                     const culprit_condition *conditions, size_t count,
                                                     bool failing, culprit_error *err);
/* Takes the step the strategy runs next; false when none is pending. */
CULPRIT_API bool culprit_web_guide_pop(culprit_web_guide *guide, culprit_web_queue *queue,
                                       culprit_web_step *step);
CULPRIT_API void culprit_web_guide_free(culprit_web_guide *guide);

#endif
