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
usage() {
    echo "usage: culprit-php-cgi [--method M] [--query QUERY] [--cookie COOKIES]" \
        "[--form BODY | --body BODY [--content-type TYPE]] [--session-dir DIR | --state DIR] [--headers FILE] [--inputs FILE] [--root DIR] [--mysql-socket SOCKET] SCRIPT [--then [options] SCRIPT]..." >&2
    exit 99
}
# ---- a chain: REQUEST --then REQUEST ... (docs/php.md, "Request chains") ----
# One visitor's requests in order: one private session directory, the
# cookies each response sets sent with the requests after it (after the
# request's own --cookie, which PHP, keeping a name's first value, prefers;
# Max-Age=0 deletes one), redirects not followed.  Only the last page is
# written (and gets output records: CULPRIT_PHP_OUTPUT_MAP=0 for the
# others); the chain stops at the first request that fails, with its status.
quote() { # $1 as one sh word
    printf "'%s' " "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}
chain_cookies() { # the jar's cookies as a Cookie header
    paste -sd';' "$work/jar" | sed 's/;/; /g'
}
keep_cookies() { # the response's Set-Cookie headers into the jar
    [ -f "$work/headers" ] || return 0
    while IFS= read -r line; do
        case $line in [Ss]et-[Cc]ookie:*) ;; *) continue ;; esac
        pair=${line#*:}
        pair=${pair# }
        pair=${pair%%;*}
        name=${pair%%=*}
        while IFS= read -r kept; do
            [ "${kept%%=*}" = "$name" ] || printf '%s\n' "$kept"
        done <"$work/jar" >"$work/jar.new"
        mv "$work/jar.new" "$work/jar"
        case $line in *[Mm]ax-[Aa]ge=0*) ;; *) printf '%s\n' "$pair" >>"$work/jar" ;; esac
    done <"$work/headers"
    rm -f "$work/headers"
}
run_chain() {
    work=$(mktemp -d "${TMPDIR:-/tmp}/culprit-php-chain.XXXXXX") || exit 99
    trap 'rm -rf "$work"' EXIT
    trap 'exit 130' INT TERM
    mkdir "$work/sessions" && : >"$work/jar" || exit 99
    while [ $# -gt 0 ]; do
        segment= own=
        while [ $# -gt 0 ] && [ "$1" != --then ]; do
            case $1 in
            --session-dir | --state | --headers)
                echo "culprit-php-cgi: $1 goes with one request, not a chain (--then)" >&2
                exit 99 ;;
            --cookie) [ $# -ge 2 ] || usage; own=$2; shift 2; continue ;;
            --method | --query | --form | --body | --content-type | --inputs | --root | --mysql-socket)
                [ $# -ge 2 ] || usage
                segment="$segment$(quote "$1")$(quote "$2")"
                shift 2
                continue ;;
            esac
            segment="$segment$(quote "$1")"
            shift
        done
        last=1
        [ $# -eq 0 ] || { shift; last=; }
        [ -n "$segment" ] || usage
        cookies=$(chain_cookies)
        cookies=$own${own:+${cookies:+; }}$cookies
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
for arg in "$@"; do
    [ "$arg" != --then ] || { run_chain "$@"; exit; }
done

method= query= cookie= body= has_body= content_type= session_dir= headers= inputs= state= root= mysql_socket=
while [ $# -gt 0 ]; do
    case $1 in
    --method | --query | --cookie | --form | --body | --content-type | --session-dir | --headers | --inputs | --state | --root | --mysql-socket)
        [ $# -ge 2 ] || { echo "culprit-php-cgi: $1 expects a value" >&2; usage; } ;;
    esac
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
dir=$(cd "$(dirname "$1")" && pwd -P) || exit 99
script=$dir/${1##*/}
name=${script##*/}
if [ -n "$root" ]; then
    root=$(cd "$root" && pwd -P) || exit 99
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
    SCRIPT_FILENAME="$script" SCRIPT_NAME="/$name" DOCUMENT_ROOT="$root" \
    QUERY_STRING="$query" REQUEST_URI="/$name${query:+?$query}"
[ -z "$cookie" ] || export HTTP_COOKIE="$cookie"
[ -z "$content_type" ] || export CONTENT_TYPE="$content_type"
[ -z "$headers" ] || export CULPRIT_PHP_CGI_HEADERS="$headers"
[ -z "$inputs" ] || export CULPRIT_PHP_INPUTS="$inputs"
if [ -n "$state" ]; then
    [ -d "$state/sessions" ] || { echo "culprit-php-cgi: --state $state: not a state of culprit web" >&2; exit 99; }
    session_dir=$(mktemp -d "${TMPDIR:-/tmp}/culprit-php-cgi.XXXXXX") || exit 99
    trap 'rm -rf "$session_dir"' EXIT
    for file in "$state"/sessions/*; do
        [ ! -f "$file" ] || cp "$file" "$session_dir/" || exit 99
    done
    if [ -f "$state/databases" ]; then
        while read -r number path; do
            case $path in /*) ;; *) path=$state/$path ;; esac # culprit web --export: relative to the state
            [ ! -f "$state/db/$number" ] || cp "$state/db/$number" "$path" || exit 99
        done <"$state/databases"
    fi
fi
set -- -d opcache.enable=0
[ -z "$session_dir" ] || set -- "$@" -d "session.save_path=$session_dir"
# culprit web --mariadb: "localhost" (no host) is this socket, for PDO and mysqli
[ -z "$mysql_socket" ] || set -- "$@" -d "pdo_mysql.default_socket=$mysql_socket" -d "mysqli.default_socket=$mysql_socket"
export CULPRIT_PHP="${CULPRIT_PHP_CGI:-php-cgi}" CULPRIT_PHP_SCAN_DIR="@PHP_CGI_SCAN_DIR@"
if [ -n "$has_body" ]; then
    CONTENT_LENGTH=$(printf '%s' "$body" | wc -c | tr -d ' ')
    export CONTENT_LENGTH
    printf '%s' "$body" | "$here/culprit-php" "$@"
elif [ -n "$state" ]; then
    "$here/culprit-php" "$@" </dev/null # not exec: the sessions' copy is removed at the end
else
    exec "$here/culprit-php" "$@" </dev/null
fi
