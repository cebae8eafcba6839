#!/bin/bash
# PHP overhead (issue 21): the cost of collecting coverage in PHP, side by
# side in one run - plain PHP, Xdebug's code coverage and culprit's Zend
# extension - as ratios to plain PHP.
# usage: bench/php_overhead.sh BUILD_DIR        (bench/run.sh calls it)
#
# BUILD_DIR holds culprit.so, culprit-php and culprit-php-cgi (make php).
# The configurations:
#
#   plain          php (php-cgi), no extension
#   xdebug-lines   Debian's php8.2-xdebug, loaded for this run only
#                  (-d zend_extension=xdebug.so -d xdebug.mode=coverage) with
#                  an auto_prepend_file that starts coverage as PHPUnit does
#                  (XDEBUG_CC_UNUSED | XDEBUG_CC_DEAD_CODE) and, at shutdown,
#                  writes it to a file with serialize(), as a user would
#   xdebug-branch  the same with XDEBUG_CC_BRANCH_CHECK (branch and path
#                  coverage, PHPUnit's pathCoverage)
#   culprit-lines  culprit-php (culprit-php-cgi), CULPRIT_COLLECT_DIR set and
#                  CULPRIT_PHP_COVERAGE=lines: which lines ran (docs/php.md)
#   culprit-full   the same in full mode (the default): counts, branches,
#                  return classes, the output map
#   launcher       (requests only) culprit-php-cgi without CULPRIT_COLLECT_DIR:
#                  the launcher's own cost, the extension inert
#
# The workloads:
#
#   cpu       php bench/workloads/php_cpu.php SCALE: a tokenizer, parser and
#             stack VM for expressions, a merge sort with a closure, records
#             formatted and parsed back (one process)
#   requests  REQUESTS requests to bench/workloads/php_app/index.php (a
#             catalogue with search, sorting and pages, items, a basket from
#             a cookie, a checkout form posted), one php-cgi process each in
#             CGI mode, as culprit-php-cgi runs them; opcache is off in every
#             configuration (culprit-php-cgi turns it off; Debian's php-cgi
#             has it on, and one request per process gains nothing from it)
#
# Every (workload, configuration) runs CULPRIT_BENCH_RUNS times (default 5),
# round-robin: each round runs every configuration once, in an order that
# rotates each round, so that the load of other users of the machine spreads
# over all of them.  The table gives the median wall time and the median of
# the per-round ratios to plain (each configuration against the plain run of
# its own round), with their lowest and highest.  A run longer than
# CULPRIT_BENCH_PHP_TIMEOUT seconds (default 40) is stopped and its
# configuration not run again in that workload: "> LIMIT" in the table.  The
# first run of each configuration is checked: the same output as plain's
# (the requests' bodies), and the coverage files it should write.  Exits 0
# when targets are missed (a finding, not a failure), 1 when a run fails or
# its output differs.
#
# With CULPRIT_BENCH_INSTRUCTIONS=1 it also counts the instructions each
# configuration executes (callgrind, smaller inputs; see the end).
#
# Environment: CULPRIT_BENCH_RUNS, CULPRIT_BENCH_PHP_SCALE (default 100),
# CULPRIT_BENCH_PHP_REQUESTS (default 40), CULPRIT_BENCH_PHP_TIMEOUT,
# CULPRIT_BENCH_PHP_WORKLOADS (default "cpu requests"),
# CULPRIT_BENCH_INSTRUCTIONS=1.
set -u -o pipefail

build=${1:?usage: bench/php_overhead.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd) || exit 1
build=$(cd "$build" && pwd) || exit 1
runs=${CULPRIT_BENCH_RUNS:-5}
scale=${CULPRIT_BENCH_PHP_SCALE:-100}
requests=${CULPRIT_BENCH_PHP_REQUESTS:-40}
limit=${CULPRIT_BENCH_PHP_TIMEOUT:-40}
workloads=${CULPRIT_BENCH_PHP_WORKLOADS:-cpu requests}
cpu_script=$here/workloads/php_cpu.php
# The PHP binaries run; the instruction counts (below) run them under callgrind.
php=php php_cgi=php-cgi
app=$here/workloads/php_app/index.php

say() { printf '%s\n' "$*"; }
say "== PHP overhead (issue 21)"
for tool in php php-cgi timeout; do
    command -v "$tool" >/dev/null || { say "bench/php_overhead.sh: $tool is not installed; skipped"; exit 0; }
done
for file in culprit.so culprit-php culprit-php-cgi; do
    [ -e "$build/$file" ] || { say "bench/php_overhead.sh: $build/$file is not built (make php); skipped"; exit 0; }
done
xdebug=$(php -d zend_extension=xdebug.so -r 'echo phpversion("xdebug");' 2>/dev/null)
if [ -z "$xdebug" ]; then
    say "bench/php_overhead.sh: Xdebug is not installed (apt-get install php8.2-xdebug); its columns are left out"
fi
if php -r 'exit(extension_loaded("xdebug") ? 0 : 1);' 2>/dev/null; then
    say "bench/php_overhead.sh: note: Xdebug is enabled in PHP's configuration (phpdismod xdebug): every column pays for it"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/culprit-php-overhead.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM

# Xdebug's coverage as a user collects it: started before the script, and
# written out when PHP shuts down (one file per request).
cat >"$work/xdebug_prepend.php" <<'END'
<?php
xdebug_start_code_coverage(XDEBUG_CC_UNUSED | XDEBUG_CC_DEAD_CODE
    | (getenv('BENCH_XDEBUG_BRANCH') === '1' ? XDEBUG_CC_BRANCH_CHECK : 0));
register_shutdown_function(function (): void {
    $coverage = xdebug_get_code_coverage();
    xdebug_stop_code_coverage();
    file_put_contents(getenv('BENCH_XDEBUG_OUT') . '/' . getmypid() . '.cov', serialize($coverage));
});
END

configurations() { # WORKLOAD: the configurations it runs
    list="plain"
    [ -n "$xdebug" ] && list="$list xdebug-lines xdebug-branch"
    [ "$1" = requests ] && list="$list launcher"
    say "$list culprit-lines culprit-full"
}

# The request of number N: pages, searches, sorts, a basket, checkouts posted.
request_of() {
    case $(($1 % 6)) in
    0) say "GET page=list&sort=price&p=$(($1 % 5 + 1))" ;;
    1) say "GET page=item&id=$(($1 * 37 % 400 + 1))" ;;
    2) say "GET page=list&q=red&category=tools&sort=rating" ;;
    3) say "GET page=basket" ;;
    4) say "POST page=checkout name=Ann+Lee&email=ann%40example.org&zip=1234$(($1 % 10))" ;;
    *) say "POST page=checkout name=&email=nobody&zip=x" ;;
    esac
}

# php_cgi CONFIGURATION METHOD QUERY BODY: one request through php-cgi in
# CGI mode.  php-cgi writes its CGI headers, culprit-php-cgi only the body;
# the check of the output takes the headers out, after the run.
php_cgi() {
    local config=$1 method=$2 query=$3 body=$4
    if [ "$config" = launcher ] || [ "${config#culprit-}" != "$config" ]; then
        if [ "$method" = POST ]; then
            timeout "$limit" "$build/culprit-php-cgi" --cookie 'basket=3:1,17:2,250:1' --query "$query" \
                --form "$body" "$app"
        else
            timeout "$limit" "$build/culprit-php-cgi" --cookie 'basket=3:1,17:2,250:1' --query "$query" "$app"
        fi
        return
    fi
    local -a extra=()
    case $config in
    xdebug-*) extra=(-d zend_extension=xdebug.so -d xdebug.mode=coverage -d "auto_prepend_file=$work/xdebug_prepend.php") ;;
    esac
    local type="" length=""
    [ "$method" = POST ] && type=application/x-www-form-urlencoded length=${#body}
    printf '%s' "$body" | REDIRECT_STATUS=200 GATEWAY_INTERFACE=CGI/1.1 SERVER_PROTOCOL=HTTP/1.1 \
        SERVER_NAME=localhost SERVER_PORT=80 REMOTE_ADDR=127.0.0.1 REQUEST_METHOD=$method \
        SCRIPT_FILENAME=$app SCRIPT_NAME=/index.php DOCUMENT_ROOT=${app%/*} QUERY_STRING=$query \
        REQUEST_URI="/index.php?$query" HTTP_COOKIE='basket=3:1,17:2,250:1' CONTENT_TYPE=$type \
        CONTENT_LENGTH=$length timeout "$limit" "$php_cgi" -d opcache.enable=0 "${extra[@]}"
}

# The bodies of requests' output, without php-cgi's CGI headers.
bodies() {
    grep -v -e '^X-Powered-By: ' -e '^Content-type: ' -e $'^\r$' "$1"
}

# run_workload WORKLOAD CONFIGURATION OUT: the timed commands.
run_workload() {
    local w=$1 config=$2 out=$3
    export BENCH_XDEBUG_OUT=$work/coverage BENCH_XDEBUG_BRANCH=0
    [ "$config" = xdebug-branch ] && BENCH_XDEBUG_BRANCH=1
    export CULPRIT_PHP=$php CULPRIT_PHP_CGI=$php_cgi # the launchers' PHP
    case $config in
    culprit-lines) export CULPRIT_COLLECT_DIR=$work/coverage CULPRIT_PHP_COVERAGE=lines ;;
    culprit-full) export CULPRIT_COLLECT_DIR=$work/coverage CULPRIT_PHP_COVERAGE=full ;;
    *) unset CULPRIT_COLLECT_DIR CULPRIT_PHP_COVERAGE ;;
    esac
    if [ "$w" = cpu ]; then
        case $config in
        plain) timeout "$limit" "$php" "$cpu_script" "$scale" >"$out" ;;
        xdebug-*) timeout "$limit" "$php" -d zend_extension=xdebug.so -d xdebug.mode=coverage \
            -d "auto_prepend_file=$work/xdebug_prepend.php" "$cpu_script" "$scale" >"$out" ;;
        *) timeout "$limit" "$build/culprit-php" "$cpu_script" "$scale" >"$out" ;;
        esac
        return
    fi
    : >"$out"
    local n=0 status=0
    while [ $n -lt "$requests" ]; do
        set -- $(request_of $n)
        php_cgi "$config" "$1" "$2" "${3:-}" >>"$out" || { status=$?; break; }
        n=$((n + 1))
    done
    return $status
}

# timed_run WORKLOAD CONFIGURATION ROUND: appends "workload config round
# real user sys" to $work/times, or "... stopped" when the run hit the limit.
timed_run() {
    local w=$1 config=$2 round=$3 out=$work/out.$1.$2 status
    rm -rf "$work/coverage" && mkdir -p "$work/coverage"
    TIMEFORMAT='%3R %3U %3S'
    { time run_workload "$w" "$config" "$out" 2>"$work/stderr"; } 2>"$work/time"
    status=$?
    unset CULPRIT_COLLECT_DIR CULPRIT_PHP_COVERAGE
    if [ $status -eq 124 ]; then
        say "$w $config $round stopped" >>"$work/times"
        : >"$work/stopped.$w.$config"
        return 0
    fi
    if [ $status -ne 0 ]; then
        say "bench/php_overhead.sh: $w ($config) failed with status $status:" >&2
        head -c 2000 "$work/stderr" >&2
        return 1
    fi
    say "$w $config $round $(tail -n 1 "$work/time")" >>"$work/times"
    [ -f "$work/checked.$w.$config" ] && return 0
    : >"$work/checked.$w.$config"
    if [ "$w" = requests ]; then sum=$(bodies "$out" | cksum); else sum=$(cksum <"$out"); fi
    if [ "$config" = plain ]; then
        say "$sum" >"$work/expected.$w"
    elif [ "$sum" != "$(cat "$work/expected.$w")" ]; then
        say "bench/php_overhead.sh: $w ($config) printed something else than plain php" >&2
        return 1
    fi
    local files expected=1
    [ "$w" = requests ] && expected=$requests
    case $config in
    xdebug-*) files=$(find "$work/coverage" -name '*.cov' -size +100c | wc -l) ;;
    culprit-*) files=$(find "$work/coverage" -name '*.dump' | wc -l) ;;
    *) return 0 ;;
    esac
    if [ "$files" -ne "$expected" ]; then
        say "bench/php_overhead.sh: $w ($config) wrote $files coverage files, expected $expected" >&2
        return 1
    fi
    say "  $w $config: $files coverage files, $(du -sk "$work/coverage" | cut -f1) kB" >>"$work/coverage-files"
}

say "php:      $(php -r 'echo PHP_VERSION;') ($(php-cgi -v | head -n 1 | cut -d' ' -f1-3)), Xdebug ${xdebug:-not installed}"
say "cpu:      php bench/workloads/php_cpu.php $scale"
say "requests: $requests requests to bench/workloads/php_app/index.php, one php-cgi each"
say "runs:     $runs rounds, each configuration once per round in rotating order; a run stopped after $limit s"
say "load:     $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min) at the start"
say
: >"$work/times"
: >"$work/coverage-files"
round=0
while [ $round -lt "$runs" ]; do
    round=$((round + 1))
    for w in $workloads; do
        # shellcheck disable=SC2046 # a word list
        set -- $(configurations "$w")
        count=$#
        i=0
        while [ $i -lt "$count" ]; do
            k=$(((i + round - 1) % count + 1)) # round 1 runs plain first: the reference output
            config=${!k}
            i=$((i + 1))
            [ -f "$work/stopped.$w.$config" ] && continue
            timed_run "$w" "$config" "$round" || exit 1
        done
    done
    say "  round $round of $runs done (load $(cut -d' ' -f1 /proc/loadavg))"
done
say "load:     $(cut -d' ' -f1-3 /proc/loadavg) at the end"
say

awk -v workloads="$workloads" -v limit="$limit" '
function sorted(list, a,    n, i, j, t) {
    n = split(list, a, " ")
    for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] + 0 > t + 0; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return n
}
function median(list,    a, n) {
    n = sorted(list, a)
    if (n == 0) return ""
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function spread(list,    a, n) {
    n = sorted(list, a)
    return n ? sprintf("%.2f-%.2f", a[1], a[n]) : ""
}
$4 == "stopped" { stopped[$1, $2] = 1; ran[$1, $2] = 1; next }
{
    wall[$1, $2] = wall[$1, $2] " " $4; t[$1, $2, $3] = $4; rounds[$1, $3] = 1; ran[$1, $2] = 1
    cpu[$1, $2] = cpu[$1, $2] " " ($5 + $6); u[$1, $2, $3] = $5 + $6
}
END {
    nw = split(workloads, w, " ")
    nc = split("plain xdebug-lines xdebug-branch launcher culprit-lines culprit-full", all, " ")
    print "wall time: median (s); ratio to plain: median of the per-round ratios, and their lowest-highest;"
    print "CPU time (user + sys of every process): median (s), and the median of the per-round ratios"
    for (i = 1; i <= nw; i++) {
        printf "  %-9s %-14s %10s %8s %12s %9s %9s\n", w[i], "configuration", "wall (s)", "ratio", "spread",
            "CPU (s)", "ratio"
        for (c = 1; c <= nc; c++) {
            config = all[c]
            if (!((w[i], config) in ran)) continue
            if (stopped[w[i], config] && wall[w[i], config] == "") {
                printf "  %-9s %-14s %10s %8s %12s\n", "", config, "> " limit, "-", "stopped"
                printf "php_overhead,%s,%s,stopped,,\n", w[i], config > "/dev/stderr"
                continue
            }
            ratios = ""; cratios = ""
            for (key in rounds) {
                split(key, part, SUBSEP)
                if (part[1] != w[i]) continue
                r = part[2]
                if (((w[i], config, r) in t) && t[w[i], "plain", r] > 0)
                    ratios = ratios " " t[w[i], config, r] / t[w[i], "plain", r]
                if (((w[i], config, r) in u) && u[w[i], "plain", r] > 0)
                    cratios = cratios " " u[w[i], config, r] / u[w[i], "plain", r]
                if (((w[i], config, r) in t) && ((w[i], "xdebug-lines", r) in t) && config == "culprit-full")
                    versus[w[i]] = versus[w[i]] " " t[w[i], config, r] / t[w[i], "xdebug-lines", r]
                if (((w[i], config, r) in t) && ((w[i], "launcher", r) in t) && config == "culprit-lines")
                    beyond[w[i]] = beyond[w[i]] " " t[w[i], config, r] / t[w[i], "launcher", r]
            }
            m = median(wall[w[i], config]); q = median(ratios); cm = median(cpu[w[i], config]); cq = median(cratios)
            printf "  %-9s %-14s %10.3f %7.2fx %12s %9.3f %8.2fx\n", "", config, m, q,
                config == "plain" ? "" : spread(ratios), cm, cq
            printf "php_overhead,%s,%s,%.4f,%.4f,%s,%.4f,%.4f\n", w[i], config, m, q, spread(ratios), cm, cq > "/dev/stderr"
            ratio[w[i], config] = q
        }
    }
    print ""
    print "== targets (issue 21)"
    for (i = 1; i <= nw; i++) {
        lines = ratio[w[i], "culprit-lines"]
        printf "  %-9s %s culprit-lines <= 1.3x plain: %.2fx\n", w[i], lines != "" && lines <= 1.3 ? "PASS" : "MISS", lines
        if (stopped[w[i], "xdebug-lines"] && !stopped[w[i], "culprit-full"])
            printf "  %-9s PASS culprit-full no slower than xdebug-lines: xdebug-lines stopped after %s s\n", w[i], limit
        else if (versus[w[i]] != "") {
            v = median(versus[w[i]])
            printf "  %-9s %s culprit-full no slower than xdebug-lines: %.2fx its time (per-round %s)\n", w[i],
                v <= 1 ? "PASS" : "MISS", v, spread(versus[w[i]])
        } else
            printf "  %-9s ---- culprit-full against xdebug-lines: Xdebug not measured\n", w[i]
        if (beyond[w[i]] != "")
            printf "  %-9s (culprit-lines against the launcher alone, the extension'"'"'s own share: %.2fx, per-round %s)\n",
                w[i], median(beyond[w[i]]), spread(beyond[w[i]])
    }
}' "$work/times" 2>"$work/csv"
say
say "machine-readable: php_overhead,workload,configuration,wall_median_s,wall_ratio,wall_ratio_spread,cpu_median_s,cpu_ratio"
cat "$work/csv"
say
say "coverage written by the first run of each collecting configuration:"
cat "$work/coverage-files"

# With CULPRIT_BENCH_INSTRUCTIONS=1 (and valgrind): the instructions each
# configuration executes, every PHP process under callgrind, on smaller
# inputs (php_cpu.php 1; one request of each of the 6 kinds), a measure
# without the run-to-run noise of wall time on a shared machine.  The
# launchers' shells are not counted: culprit-php and culprit-php-cgi run
# the wrapped PHP through CULPRIT_PHP and CULPRIT_PHP_CGI.
if [ "${CULPRIT_BENCH_INSTRUCTIONS:-0}" = 1 ]; then
    say
    if ! command -v valgrind >/dev/null; then
        say "-- instructions: valgrind is not installed (apt-get install valgrind): skipped"
        exit 0
    fi
    say "-- instructions (callgrind: php_cpu.php 1; 6 requests, one of each kind; millions, and ratio to plain)"
    for binary in php php-cgi; do
        printf '#!/bin/sh\nexec valgrind --tool=callgrind --callgrind-out-file=/dev/null --log-file=%s/callgrind.%%p %s "$@"\n' \
            "$work" "$(command -v $binary)" >"$work/vg-$binary"
        chmod +x "$work/vg-$binary"
    done
    php=$work/vg-php php_cgi=$work/vg-php-cgi scale=1 requests=6 limit=$((limit * 5))
    for w in $workloads; do
        for config in $(configurations "$w"); do
            [ "$config" = launcher ] && continue
            rm -rf "$work/coverage" "$work"/callgrind.* && mkdir -p "$work/coverage"
            if run_workload "$w" "$config" "$work/out" 2>"$work/stderr"; then
                count=$(cat "$work"/callgrind.* | sed -n 's/.*Collected : \([0-9]*\).*/\1/p' | awk '{ s += $1 } END { printf "%.0f\n", s }')
            else
                count=stopped
            fi
            unset CULPRIT_COLLECT_DIR CULPRIT_PHP_COVERAGE
            say "$w $config $count"
        done
    done >"$work/instructions"
    awk '$2 == "plain" { base[$1] = $3 }
    { line[NR] = $0 }
    END {
        for (i = 1; i <= NR; i++) {
            split(line[i], f, " ")
            if (f[3] == "stopped") printf "  %-9s %-14s %12s\n", f[1], f[2], "stopped"
            else printf "  %-9s %-14s %10.1fM %7.2fx\n", f[1], f[2], f[3] / 1e6, base[f[1]] ? f[3] / base[f[1]] : 0
        }
        print "machine-readable: instructions,workload,configuration,count"
        for (i = 1; i <= NR; i++) { split(line[i], f, " "); printf "instructions,%s,%s,%s\n", f[1], f[2], f[3] }
    }' "$work/instructions"
fi
exit 0
