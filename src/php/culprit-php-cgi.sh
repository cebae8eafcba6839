#!/bin/sh
# culprit-php-cgi - runs one HTTP request to a PHP page through php-cgi with
# culprit's extension loaded (docs/php.md, "HTTP requests"):
#
#   culprit-php-cgi [--method M] [--query QUERY] [--cookie COOKIES]
#                   [--form BODY | --body BODY [--content-type TYPE]]
#                   [--session-dir DIR | --state DIR] [--headers FILE]
#                   [--inputs FILE] [--root DIR] SCRIPT
#   culprit-php-cgi REQUEST --then REQUEST [--then REQUEST]...
#                   (a chain: REQUEST is [options] SCRIPT; see below)
#
# The options become php-cgi's CGI environment (REQUEST_METHOD,
# QUERY_STRING, HTTP_COOKIE, CONTENT_TYPE, CONTENT_LENGTH, SCRIPT_FILENAME,
# REDIRECT_STATUS=200...), the body its stdin.  Values are taken as they
# would travel in HTTP: QUERY and a --form BODY url-encoded
# (a=1&b=x+y), COOKIES as a Cookie header (a=1; b=2).  The method is GET, or
# POST with a body.  Only the response's body is written (the extension
# drops the CGI headers: CULPRIT_PHP_CGI_BODY=1), so oracles compare the
# page; a fatal error still exits 255.  It runs culprit-php (beside this
# script) with CULPRIT_PHP=php-cgi (CULPRIT_PHP_CGI names another), and
# without opcache, which Debian enables for php-cgi: the extension counts
# the op arrays PHP compiles, not opcache's optimized shared copies.
# Without CULPRIT_COLLECT_DIR the extension records nothing.  For culprit
# web (docs/web.md): --session-dir DIR keeps PHP's sessions in DIR
# (session.save_path), and --headers FILE has the extension write the
# response's status and headers (Set-Cookie, Location) to FILE, and
# --inputs FILE the comparisons the page made on its inputs (php_inputs.c;
# only while collecting).  --state
# DIR replays a request of culprit web in the state it ran in: DIR is a
# state culprit web saved (sessions/, db/N and databases, "N PATH" a line,
# PATH absolute or, in a suite of culprit web --export, relative to DIR);
# its sessions are copied into a fresh directory for this request and each
# db/N over the application's database file PATH.  --root DIR is the
# document root (default: the script's directory), so that a script in a
# subdirectory sees its own path in SCRIPT_NAME and PHP_SELF (/admin/users.php).
# --mysql-socket SOCKET makes SOCKET the default of PDO's and mysqli's MySQL
# connections without a host ("localhost"): culprit web --mariadb's server.
# A state of culprit web --mariadb keeps its databases as a dump,
# DIR/db/mariadb.sql: without --mysql-socket, --state starts a disposable
# MariaDB server for the request (mariadbd on a socket in a private
# directory, no network, no grant tables), loads the dump, runs the request
# with the socket as --mysql-socket's, then stops the server and removes
# the directory, on a failure or a signal too.  Its output goes to a log
# there, never to stdout; a server that does not start or refuses the dump
# is exit status 99 with the log's last line.  The server's data directory
# is copied from a template made once per user (server_data below).
usage() {
    echo "usage: culprit-php-cgi [--method M] [--query QUERY] [--cookie COOKIES]" \
        "[--form BODY | --body BODY [--content-type TYPE]] [--session-dir DIR | --state DIR] [--headers FILE] [--inputs FILE] [--root DIR] [--mysql-socket SOCKET] SCRIPT [--then [options] SCRIPT]..." >&2
    exit 99
}
# Whether $1 is an option that takes a value (every option does).
takes_value() {
    case $1 in
    --method | --query | --cookie | --form | --body | --content-type | --session-dir | --headers | --inputs | --state | --root | --mysql-socket)
        return 0 ;;
    esac
    return 1
}
# ---- a chain: REQUEST --then REQUEST ... (docs/php.md, "Request chains") ----
# One visitor's requests in order: one private session directory, and a
# cookie jar: a request's own --cookie and the cookies each response sets
# (Max-Age 0 deletes one) are sent with it and the requests after it, as a
# browser keeps them (culprit web --from starts from a chain the same way);
# redirects not followed.  Only the last page is
# written (and gets output records: CULPRIT_PHP_OUTPUT_MAP=0 for the
# others); the chain stops at the first request that fails, with its status.
quote() { # $1 as one sh word (the '.' keeps the trailing newlines $(...) would drop)
    quoted=$(printf '%s.' "$1" | sed "s/'/'\\\\''/g")
    printf "'%s' " "${quoted%.}"
}
chain_cookies() { # the jar's cookies as a Cookie header
    paste -sd';' "$work/jar" | sed 's/;/; /g'
}
jar_put() { # NAME=VALUE into the jar, replacing NAME's; with a second word, NAME's removed
    name=${1%%=*}
    while IFS= read -r kept; do
        [ "${kept%%=*}" = "$name" ] || printf '%s\n' "$kept"
    done <"$work/jar" >"$work/jar.new"
    mv "$work/jar.new" "$work/jar"
    [ $# -gt 1 ] || printf '%s\n' "$1" >>"$work/jar"
}
# parts TEXT FUNCTION: FUNCTION on each ';'-separated part of TEXT, its
# leading blanks off; true at the first part FUNCTION is true for
parts() {
    rest=$1
    while :; do
        part=${rest%%;*}
        part=${part#"${part%%[![:space:]]*}"}
        [ -z "$part" ] || ! "$2" "$part" || return 0
        [ "$rest" != "${rest#*;}" ] || return 1
        rest=${rest#*;}
    done
}
jar_keep() { # a part of a request's own Cookie header into the jar (and go on)
    jar_put "$1"
    return 1
}
keep_own() { # a request's own Cookie header (a=1; b=2) into the jar, as a browser keeps them
    parts "$1" jar_keep || :
}
keep_cookies() { # the response's Set-Cookie headers into the jar
    [ -f "$work/headers" ] || return 0
    while IFS= read -r line; do
        case $line in [Ss]et-[Cc]ookie:*) ;; *) continue ;; esac
        pair=${line#*:}
        pair=${pair# }
        pair=${pair%%;*}
        if expired "$line"; then jar_put "$pair" removed; else jar_put "$pair"; fi
    done <"$work/headers"
    rm -f "$work/headers"
}
expired() { # whether the Set-Cookie header $1 deletes its cookie: Max-Age 0 or below
    [ "${1#*;}" != "$1" ] && parts "${1#*;}" gone_now
}
gone_now() { # whether the cookie attribute $1 ends the cookie
    case $1 in [Mm]ax-[Aa]ge=0 | [Mm]ax-[Aa]ge=-*) return 0 ;; esac
    return 1
}
run_chain() {
    work=$(mktemp -d "${TMPDIR:-/tmp}/culprit-php-chain.XXXXXX") || exit 99
    trap 'rm -rf "$work"' EXIT
    trap 'exit 129' HUP
    trap 'exit 130' INT
    trap 'exit 143' TERM
    mkdir "$work/sessions" && : >"$work/jar" || exit 99
    while [ $# -gt 0 ]; do
        segment= own=
        while [ $# -gt 0 ] && [ "$1" != --then ]; do
            case $1 in
            --session-dir | --state | --headers)
                echo "culprit-php-cgi: $1 goes with one request, not a chain (--then)" >&2
                exit 99 ;;
            --cookie) [ $# -ge 2 ] || usage; own=$2; shift 2; continue ;;
            esac
            if takes_value "$1"; then
                [ $# -ge 2 ] || usage
                segment="$segment$(quote "$1")$(quote "$2")"
                shift 2
                continue
            fi
            segment="$segment$(quote "$1")"
            shift
        done
        last=1
        [ $# -eq 0 ] || { shift; last=; }
        [ -n "$segment" ] && [ -n "$last" ] || [ $# -gt 0 ] || usage # a --then with no request after it
        [ -n "$segment" ] || usage
        keep_own "$own"
        cookies=$(chain_cookies)
        if [ -n "$last" ]; then
            eval "set -- $segment"
            "$0" --session-dir "$work/sessions" ${cookies:+--cookie "$cookies"} "$@"
            return
        fi
        # (a subshell: its arguments are this request's, the chain's stay)
        (
            eval "set -- $segment"
            CULPRIT_PHP_OUTPUT_MAP=0 exec "$0" --session-dir "$work/sessions" --headers "$work/headers" \
                ${cookies:+--cookie "$cookies"} "$@" >/dev/null
        ) || exit
        keep_cookies
    done
}
# A chain when a --then stands where an option would (not an option's value)
chained() {
    while [ $# -gt 0 ]; do
        [ "$1" != --then ] || return 0
        if takes_value "$1"; then
            [ $# -ge 2 ] || return 1
            shift
        fi
        shift
    done
    return 1
}
if chained "$@"; then
    run_chain "$@"
    exit
fi

method= query= cookie= body= has_body= content_type= session_dir= headers= inputs= state= root= mysql_socket=
while [ $# -gt 0 ]; do
    ! takes_value "$1" || [ $# -ge 2 ] || { echo "culprit-php-cgi: $1 expects a value" >&2; usage; }
    case $1 in
    --method) method=$2 ;;
    --query) query=$2 ;;
    --cookie) cookie=$2 ;;
    --form) body=$2 has_body=1 content_type=application/x-www-form-urlencoded ;;
    --body) body=$2 has_body=1 ;;
    --content-type) content_type=$2 ;;
    --session-dir) session_dir=$2 ;;
    --headers) headers=$2 ;;
    --inputs) inputs=$2 ;;
    --state) state=$2 ;;
    --root) root=$2 ;;
    --mysql-socket) mysql_socket=$2 ;;
    --) shift; break ;;
    -*) echo "culprit-php-cgi: unknown option $1" >&2; usage ;;
    *) break ;;
    esac
    shift 2
done
[ $# -eq 1 ] || usage
# A test that names no page is a broken test, not a failing program: 99,
# automake's hard error, which culprit records as an error.
if [ ! -f "$1" ]; then
    echo "culprit-php-cgi: no PHP script '$1'" >&2
    exit 99
fi
# Paths by parameter expansion, not dirname: a request is a few
# milliseconds of PHP, and every fork counts.
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
# An absolute path without "." or ".." components: php-cgi answers "No input
# file specified." to a SCRIPT_FILENAME like /app/tests/../src/index.php.
# (cd -P there and back: $(cd ... && pwd -P) would fork a subshell)
physical() { # the directory $1, resolved, in $resolved
    back=$PWD
    CDPATH= cd -P -- "$1" || exit 99
    resolved=$PWD
    cd -- "$back" || exit 99
}
case $1 in */*) physical "${1%/*}/" ;; *) physical . ;; esac
dir=${resolved%/}
script=$dir/${1##*/}
name=${script##*/}
if [ -n "$root" ]; then
    physical "$root"
    root=${resolved%/}
    case $script in
    "$root"/*) name=${script#"$root"/} ;;
    *) echo "culprit-php-cgi: $1 is not under --root $root" >&2; exit 99 ;;
    esac
else
    root=${script%/*}
fi
[ -n "$method" ] || if [ -n "$has_body" ]; then method=POST; else method=GET; fi
export CULPRIT_PHP_CGI_BODY=1 REDIRECT_STATUS=200 GATEWAY_INTERFACE=CGI/1.1 SERVER_PROTOCOL=HTTP/1.1 \
    SERVER_NAME=localhost SERVER_PORT=80 REMOTE_ADDR=127.0.0.1 REQUEST_METHOD="$method" \
    SCRIPT_FILENAME="$script" SCRIPT_NAME="/$name" DOCUMENT_ROOT="${root:-/}" \
    QUERY_STRING="$query" REQUEST_URI="/$name${query:+?$query}"
[ -z "$cookie" ] || export HTTP_COOKIE="$cookie"
[ -z "$content_type" ] || export CONTENT_TYPE="$content_type"
[ -z "$headers" ] || export CULPRIT_PHP_CGI_HEADERS="$headers"
[ -z "$inputs" ] || export CULPRIT_PHP_INPUTS="$inputs"
# ---- --state with db/mariadb.sql: a MariaDB server for this request ----
# culprit web --mariadb keeps a state's databases as a dump; the replay
# loads it into a disposable server of its own, in a private directory, so
# that two replays at once (culprit run --jobs 2) never share a server or a
# socket.  Its options make it cheap (docs/web.md, "MariaDB", has the
# cost): small InnoDB files and buffers, no binary log, no doublewrite and
# no log flushes (nothing outlives the request), no buffer pool dump, and
# InnoDB's own I/O threads rather than io_uring, which a sandbox may refuse.
server_options="--skip-log-bin --innodb-buffer-pool-size=8M --innodb-log-file-size=4M
--innodb-temp-data-file-path=ibtmp1:4M:autoextend --innodb-doublewrite=0
--innodb-flush-log-at-trx-commit=0 --innodb-buffer-pool-dump-at-shutdown=0
--innodb-buffer-pool-load-at-startup=0 --innodb-use-native-aio=0"
server_dir= server_pid= server_build= server_signal=TERM

# At the end, a failure or a signal: nothing of the request is left.
cleanup() {
    [ -z "$server_pid" ] || server_stop
    rm -rf "$session_dir" "$server_dir" "$server_build"
}

# server_fail WHAT [LOG]: says so on stderr with LOG's last error (the
# server's "[ERROR] ...", the client's "ERROR 1064 ..."), else its last
# line (install-db ends with advice and blank lines), and exits 99: a state
# that cannot be restored is a broken test, not a failing page.
server_fail() {
    server_signal=KILL # a broken server may not even handle SIGTERM: nothing of it is kept
    why=
    if [ -n "${2:-}" ]; then
        why=$(grep ERROR "$2" 2>/dev/null | tail -n 1)
        [ -n "$why" ] || why=$(grep . "$2" 2>/dev/null | tail -n 1)
    fi
    echo "culprit-php-cgi: --state $state: $1${why:+: $why}" >&2
    exit 99
}

# True once the server has ended: the shell reaps it only in `wait`, so an
# ended server is a zombie until then, which kill -0 cannot tell.
server_exited() {
    read -r _ _ server_status _ 2>/dev/null <"/proc/$server_pid/stat" || return 0
    [ "$server_status" = Z ]
}

# server_install DIR: DIR/data, with DIR as the server's tmpdir: with a
# shared one, two servers at once (culprit run --jobs 2) now and then lost
# a file of a temporary table ('#sql-temptable-PID-...'), and install-db
# failed on it.
server_install() {
    # shellcheck disable=SC2086 # the options are words
    mariadb-install-db --no-defaults --datadir="$1/data" --tmpdir="$1" --user=root --skip-test-db \
        --auth-root-authentication-method=normal $server_options \
        </dev/null >>"$server_dir/install.log" 2>&1 ||
        server_fail "mariadb-install-db failed (Debian: mariadb-server-core)" "$server_dir/install.log"
}

# $server_dir/data: a copy of a data directory mariadb-install-db made once
# (installing costs half a second and more, a copy some 50 ms), kept in
# ${TMPDIR:-/tmp}/culprit-mariadb-cache.UID - used only when that is a
# directory of this user's that nobody else can write, for another user's
# template would be his data in our tests; else installed here.  One
# template per server program and set of options (an upgrade makes a new
# one), never changed once there: installed into a build.XXXXXX directory,
# then published by a hard link named for the key to a file that names the
# directory - link(2) fails when the name exists, so of two tests
# installing at once only one publishes (the other keeps its own), where
# ln -s or mv onto a directory would go into it.
server_data() {
    uid=$(id -u) || uid=
    cache=${TMPDIR:-/tmp}/culprit-mariadb-cache.$uid
    mkdir -m 700 "$cache" 2>/dev/null # or there already
    if [ -z "$uid" ] || [ -z "$(find "$cache" -prune -type d -user "$uid" -perm 700 2>/dev/null)" ]; then
        server_install "$server_dir"
        return
    fi
    key=$({ ls -lL "$(command -v mariadbd)" 2>/dev/null; echo "$server_options"; } | cksum) || key=
    key=template.${key%% *}
    template=
    [ ! -f "$cache/$key" ] || read -r template <"$cache/$key" || template=
    if [ -z "$template" ] || [ ! -d "$cache/$template/data" ]; then
        server_build=$(mktemp -d "$cache/build.XXXXXX") || server_fail "cannot make a directory in $cache"
        server_install "$server_build"
        template=${server_build##*/}
        echo "$template" >"$server_build/name"
        if ln "$server_build/name" "$cache/$key" 2>/dev/null; then
            server_build=
        else
            mv "$server_build/data" "$server_dir/data" || server_fail "cannot move $server_build/data"
            return
        fi
    fi
    cp -R "$cache/$template/data" "$server_dir/data" || server_fail "cannot copy $cache/$template/data"
}

# server_start DUMP: the server on a socket in its private directory, DUMP
# loaded; the request then reaches it as --mysql-socket would have it.
server_start() {
    command -v mariadbd >/dev/null 2>&1 || PATH=$PATH:/usr/sbin # Debian's place for it
    base=${TMPDIR:-/tmp}
    [ ${#base} -le 64 ] || base=/tmp # a socket's path is at most 107 bytes
    server_dir=$(mktemp -d "$base/culprit-mariadb.XXXXXX") || server_fail "cannot make a directory in $base"
    server_data
    # shellcheck disable=SC2086 # the options are words
    mariadbd --no-defaults --skip-networking --skip-grant-tables --user=root --socket="$server_dir/sock" \
        --datadir="$server_dir/data" --tmpdir="$server_dir" --pid-file="$server_dir/mariadbd.pid" \
        --log-error="$server_dir/mariadbd.log" $server_options \
        </dev/null >>"$server_dir/mariadbd.log" 2>&1 &
    server_pid=$!
    tries=0
    until [ -S "$server_dir/sock" ]; do
        if server_exited; then
            wait "$server_pid"
            server_pid=
            server_fail "mariadbd stopped at its start" "$server_dir/mariadbd.log"
        fi
        [ $tries -lt 3000 ] || server_fail "mariadbd did not open its socket within 30 s" "$server_dir/mariadbd.log"
        sleep 0.01
        tries=$((tries + 1))
    done
    if ! mariadb --no-defaults --socket="$server_dir/sock" <"$1" >/dev/null 2>"$server_dir/load.log"; then
        # the server's own error says more than the client's "Can't connect"
        # (under a process limit: "Can't create interrupt-thread (error 11)")
        if server_exited || grep -q '\[ERROR\]' "$server_dir/mariadbd.log"; then
            server_fail "mariadbd failed" "$server_dir/mariadbd.log"
        fi
        server_fail "the server refused its db/mariadb.sql" "$server_dir/load.log"
    fi
    mysql_socket=$server_dir/sock
}

# SIGTERM (SIGKILL after a failure or a signal), and SIGKILL if it has not
# ended within 30 s.  It removes its pid file last thing when it shuts down.
server_stop() {
    kill -"$server_signal" "$server_pid" 2>/dev/null
    tries=0
    while [ -f "$server_dir/mariadbd.pid" ] && ! server_exited; do
        if [ $tries -ge 3000 ]; then
            kill -KILL "$server_pid" 2>/dev/null
            break
        fi
        sleep 0.01
        tries=$((tries + 1))
    done
    wait "$server_pid" 2>/dev/null
    server_pid=
}

if [ -n "$state" ]; then
    [ -d "$state/sessions" ] || { echo "culprit-php-cgi: --state $state: not a state of culprit web" >&2; exit 99; }
    session_dir=$(mktemp -d "${TMPDIR:-/tmp}/culprit-php-cgi.XXXXXX") || exit 99
    # interrupted (a timeout's SIGTERM, SIGKILL 2 s later): the server is
    # killed, not shut down, so that the directory goes before the SIGKILL
    trap cleanup EXIT
    trap 'server_signal=KILL; exit 129' HUP
    trap 'server_signal=KILL; exit 130' INT
    trap 'server_signal=KILL; exit 143' TERM
    for file in "$state"/sessions/*; do
        [ ! -f "$file" ] || cp "$file" "$session_dir/" || exit 99
    done
    if [ -f "$state/databases" ]; then
        while read -r number path; do
            case $path in /*) ;; *) path=$state/$path ;; esac # culprit web --export: relative to the state
            [ ! -f "$state/db/$number" ] || cp "$state/db/$number" "$path" || exit 99
        done <"$state/databases"
    fi
    # culprit web --mariadb: the state's databases are a dump, given to a
    # server of this request's own
    [ -n "$mysql_socket" ] || [ ! -f "$state/db/mariadb.sql" ] || server_start "$state/db/mariadb.sql"
fi
set -- -d opcache.enable=0
[ -z "$session_dir" ] || set -- "$@" -d "session.save_path=$session_dir"
# culprit web --mariadb: "localhost" (no host) is this socket, for PDO and mysqli
[ -z "$mysql_socket" ] || set -- "$@" -d "pdo_mysql.default_socket=$mysql_socket" -d "mysqli.default_socket=$mysql_socket"
export CULPRIT_PHP="${CULPRIT_PHP_CGI:-php-cgi}" CULPRIT_PHP_SCAN_DIR="@PHP_CGI_SCAN_DIR@"
if [ -n "$has_body" ]; then
    CONTENT_LENGTH=$(printf '%s' "$body" | wc -c)
    CONTENT_LENGTH=${CONTENT_LENGTH#"${CONTENT_LENGTH%%[! ]*}"}
    export CONTENT_LENGTH
    printf '%s' "$body" | "$here/culprit-php" "$@"
elif [ -n "$state" ]; then
    "$here/culprit-php" "$@" </dev/null # not exec: the sessions' copy is removed, the server stopped at the end
else
    exec "$here/culprit-php" "$@" </dev/null
fi
