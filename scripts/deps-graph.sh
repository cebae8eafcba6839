#!/bin/sh
# deps-graph.sh - the module -> module include graph of culprit, from the
# sources, and the check that it stays layered.  `make deps-graph` runs it;
# tests/e2e/test_deps_graph.sh runs it in `make check`.
#
# usage: sh scripts/deps-graph.sh [--dot] [--owners] [ROOT]
#   ROOT      the tree to read (default: this repository); it needs src/ and
#             may have include/culprit/
#   --dot     print the graph as Graphviz dot instead (arrows that are upward
#             or on a cycle in red); violations go to stderr, same exit status
#   --owners  first print which module owns each public header, and why:
#             header culprit/oracle.h -> run  (defines 2 of its 3 functions)
#
# What it reads.  Every directory src/M/ is a module M.  Every public header
# include/culprit/H.h belongs to one module: the one whose .c files define
# most of the culprit_* functions H declares (ties: the lower stage).  A
# header that declares no such function belongs to the lowest-stage module
# that includes it, unless HEADER_OWNERS below says otherwise.  An arrow
# M -> X is drawn for every  #include "X/Y.h"  in src/M/*.c or src/M/*.h
# (X a module, X != M), every  #include "culprit/H.h"  there (X = the owner
# of H), and every  #include "culprit/B.h"  in a public header A.h
# (owner(A) -> owner(B)).  tests/, bench/ and <system> headers are not read.
# Declarations and definitions are found the way this code base writes them:
# the function name on a line that starts at column 0 with its type (or with
# the name itself).
#
# How to read the output.  One line per arrow, lower stages first:
#     store -> core  (src/store/load.c: culprit/error.h; src/store/sql.c: ...)
# the parenthesis names the files whose includes draw the arrow (at most
# three files, then "+N more files").  Then either
#     deps-graph: ok (N modules, M arrows)             exit status 0
# or one line per violation, then a count, and exit status 1:
#     deps-graph: cycle: store -> collect -> store      modules that include
#                                                       each other, in order
#     deps-graph: upward: store -> run (src/store/x.c includes run/y.h)
#                                                       an arrow to a later
#                                                       stage (table below)
#     deps-graph: internal: src/collect/a.c includes store/store_internal.h
#                                                       another module's
#                                                       private header
#     deps-graph: unknown module: M (add it to ...)     src/M/ has no stage
#     deps-graph: unowned header: include/culprit/H.h   no owner derivable
# Exit status 2: bad usage or no src/ under ROOT.

# ---- the stage table: edit here -------------------------------------------
# module stage [comment].  A module may include modules of its own or a
# lower stage, never a higher one; within a stage, arrows are allowed unless
# they form a cycle.  Modules listed here but absent from src/ are fine
# (planned ones).
STAGES='
rt          0   the runtime linked into instrumented programs: libc only
core        1
program     2   the program-map model (planned)
store       3
collect     4   collectors: they write through the store
interchange 4
run         4
cc          4   includes rt/*.h, the runtime formats
php         4   the Zend extension: includes cc/map_text.h, the map builder
judgement   5   (planned)
techniques  6
report      7
concolic    7   culprit gen: path constraints, Z3, the concolic loop (docs/symbolic.md)
web         7   culprit web: pages, states, the queue; its strategies are those of gen (web_strategy.c uses PCS of concolic)
cli         8
'

# ---- public headers the derivation cannot place ---------------------------
# header module, one a line, e.g. "error.h core".  An entry here wins over
# the derivation; it is meant for a header that declares only types and that
# no module (or the wrong one) includes from the lowest stage.  Headers listed
# but absent are ignored.
HEADER_OWNERS='
contract.h rt
'
# ---------------------------------------------------------------------------

set -u
format=text
owners=no
root=
for arg in "$@"; do
    case $arg in
    --dot) format='dot' ;;
    --owners) owners=yes ;;
    -h | --help)
        sed -n '2,/^$/s/^# \{0,1\}//p' "$0"
        exit 0 ;;
    -*) echo "deps-graph: unknown option '$arg' (see --help)" >&2; exit 2 ;;
    *) [ -n "$root" ] && { echo "deps-graph: one ROOT only" >&2; exit 2; }
       root=$arg ;;
    esac
done
[ -n "$root" ] || root=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -d "$root/src" ]; then
    echo "deps-graph: no src/ directory under $root" >&2
    exit 2
fi
cd "$root" || exit 2

# The files to read, in a stable order (the glob sorts); a pattern that
# matches nothing is dropped rather than passed on literally.
modules=
files=
for dir in src/*/; do
    [ -d "$dir" ] || continue
    module=${dir#src/}
    modules="$modules ${module%/}"
    for file in "$dir"*.h "$dir"*.c; do [ -f "$file" ] && files="$files $file"; done
done
headers=
for file in include/culprit/*.h; do [ -f "$file" ] && headers="$headers $file"; done
files="$files$headers"
[ -n "$files" ] || files=/dev/null # awk would read stdin

# One awk program: the first pass (one rule per input line) collects
# includes, declarations and definitions; END derives owners and arrows and
# checks them.  Only POSIX awk (mawk is the Debian default).
# shellcheck disable=SC2086
awk -v stages="$STAGES" -v header_owners="$HEADER_OWNERS" -v modules="$modules" -v headers="$headers" \
    -v format="$format" -v show_owners="$owners" '
function module_of(path,    parts) { split(path, parts, "/"); return parts[2] }
function stage_of(m) { return (m in stage) ? stage[m] + 0 : 1000 }
# a before b: lower stage first, then by name
function before(a, b) { return stage_of(a) < stage_of(b) || (stage_of(a) == stage_of(b) && a < b) }
# sorts list[1..n] of module names (insertion sort: a dozen modules)
function sort_modules(list, n,    i, j, v) {
    for (i = 2; i <= n; i++) {
        v = list[i]
        for (j = i - 1; j >= 1 && before(v, list[j]); j--) list[j + 1] = list[j]
        list[j + 1] = v
    }
}
function add_cause(from, to, file, header,    key) {
    if (from == "" || to == "" || from == to) return
    key = from SUBSEP to
    if (!(key in arrow)) { arrow[key] = 1; arrow_count++; cause_files[key] = 0 }
    if (!((key, file) in cause_index)) {
        cause_index[key, file] = ++cause_files[key]
        cause_file[key, cause_files[key]] = file
        cause_headers[key, file] = header
    } else
        cause_headers[key, file] = cause_headers[key, file] ", " header
}
# the files that draw an arrow: "FILE: HEADER, HEADER; FILE: ..." (at most
# three files); verb replaces the ":" ("includes" in violations)
function causes(from, to, verb,    key, i, text, n) {
    key = from SUBSEP to
    n = cause_files[key]
    for (i = 1; i <= n && i <= 3; i++)
        text = text (i > 1 ? "; " : "") cause_file[key, i] verb " " cause_headers[key, cause_file[key, i]]
    if (n > 3) text = text "; +" (n - 3) " more file" (n > 4 ? "s" : "")
    return text
}
function violation(text) { violations++; violation_text[violations] = "deps-graph: " text }
# shortest path from a to b over the arrows, as "a -> ... -> b" ("" if none)
function path(a, b,    queue, head, tail, seen, previous, m, i, result) {
    head = 1; tail = 1; queue[1] = a; seen[a] = 1
    while (head <= tail) {
        m = queue[head++]
        if (m == b) break
        for (i = 1; i <= module_count; i++)
            if (((m, sorted[i]) in arrow) && !(sorted[i] in seen)) {
                seen[sorted[i]] = 1; previous[sorted[i]] = m; queue[++tail] = sorted[i]
            }
    }
    if (!(b in seen)) return ""
    result = b
    for (m = b; m != a; m = previous[m]) result = previous[m] " -> " result
    return result
}

BEGIN {
    n = split(stages, lines, "\n")
    for (i = 1; i <= n; i++)
        if (split(lines[i], f, " ") >= 2) stage[f[1]] = f[2]
    n = split(header_owners, lines, "\n")
    for (i = 1; i <= n; i++)
        if (split(lines[i], f, " ") >= 2) header_override[f[1]] = f[2]
    header_count = split(headers, header_list, " ")   # sorted by the glob
    for (i = 1; i <= header_count; i++) { sub(/.*\//, "", header_list[i]); public_header[header_list[i]] = 1 }
    module_count = split(modules, sorted, " ")
    for (i = 1; i <= module_count; i++) is_module[sorted[i]] = 1
    sort_modules(sorted, module_count)
}

FNR == 1 { in_comment = 0; public = (FILENAME ~ /^include\/culprit\//); header_name = FILENAME; sub(/.*\//, "", header_name) }
# Skip block comments that start a line (what this code base writes); the
# patterns below are anchored at the line start, so that is enough.
in_comment { if (index($0, "*/")) in_comment = 0; next }
/^[ \t]*\/\*/ && !index($0, "*/") { in_comment = 1; next }

/^[ \t]*#[ \t]*include[ \t]*"/ {
    target = $0
    sub(/^[ \t]*#[ \t]*include[ \t]*"/, "", target)
    sub(/".*/, "", target)
    include_count++
    include_file[include_count] = FILENAME
    include_target[include_count] = target
    next
}

# A function declared by a public header, or defined by a module: a line at
# column 0 of type words and stars, then culprit_NAME( (or culprit_NAME( at
# column 0, its type on the line before).  Definitions do not end with ";".
# Typedefs are neither, nor are the static inline functions of a header.
/^([A-Za-z_][A-Za-z0-9_ \t*]*[ \t*])?culprit_[A-Za-z0-9_]*[ \t]*\(/ && !/^(typedef|return)[ \t]/ {
    line = $0
    match(line, /^([A-Za-z_][A-Za-z0-9_ \t*]*[ \t*])?culprit_[A-Za-z0-9_]*/)
    name = substr(line, 1, RLENGTH)
    sub(/.*[^A-Za-z0-9_]/, "", name)     # the last word: the function
    if (name !~ /^culprit_/) next
    if (public) {
        if (line ~ /^static[ \t]/) next   # an inline function: no module defines it
        if (!((header_name, name) in declared)) {
            declared[header_name, name] = 1
            declaration_count[header_name]++
            declaration[header_name, declaration_count[header_name]] = name
        }
    } else if (FILENAME ~ /\.c$/ && line !~ /;[ \t]*$/ && line !~ /^extern[ \t]/) {
        if (!((name, module_of(FILENAME)) in defined_in)) {
            defined_in[name, module_of(FILENAME)] = 1
            definer_count[name]++
            definer[name, definer_count[name]] = module_of(FILENAME)
        }
    }
}

END {
    # Public headers: their owners.
    for (k = 1; k <= header_count; k++) {
        h = header_list[k]
        if (h in header_override) {
            owner[h] = header_override[h]
            owner_reason[h] = "HEADER_OWNERS"
            if (!(owner[h] in is_module))
                violation("HEADER_OWNERS: " h " " owner[h] " names no module under src/")
            continue
        }
        split("", votes)
        total = declaration_count[h] + 0
        for (i = 1; i <= total; i++) {
            name = declaration[h, i]
            for (j = 1; j <= definer_count[name] + 0; j++) votes[definer[name, j]]++
        }
        best = ""
        for (m in votes)
            if (best == "" || votes[m] > votes[best] || (votes[m] == votes[best] && before(m, best))) best = m
        if (best != "") {
            owner[h] = best
            owner_reason[h] = "defines " votes[best] " of its " total " functions"
        }
    }
    # Headers declaring no defined function: the lowest-stage module that
    # includes them.
    for (i = 1; i <= include_count; i++) {
        file = include_file[i]; target = include_target[i]
        if (file !~ /^src\// || target !~ /^culprit\//) continue
        h = substr(target, 9)
        if (!(h in public_header) || (h in owner_reason)) continue
        m = module_of(file)
        if (!(h in fallback) || before(m, fallback[h])) fallback[h] = m
    }
    for (k = 1; k <= header_count; k++) {
        h = header_list[k]
        if (h in owner_reason) continue
        if (h in fallback) { owner[h] = fallback[h]; owner_reason[h] = "no functions; its lowest-stage includer" }
        else violation("unowned header: include/culprit/" h " (declares no function defined under src/ and no module includes it; add it to HEADER_OWNERS in scripts/deps-graph.sh)")
    }

    # Modules without a stage.
    for (i = 1; i <= module_count; i++)
        if (!(sorted[i] in stage))
            violation("unknown module: " sorted[i] " (add it to the stage table at the top of scripts/deps-graph.sh)")

    # Arrows, and private-header reach.
    for (i = 1; i <= include_count; i++) {
        file = include_file[i]; target = include_target[i]
        if (file ~ /^src\//) from = module_of(file)
        else { h = file; sub(/.*\//, "", h); from = (h in owner) ? owner[h] : "" }
        if (target ~ /^culprit\//) {
            h = substr(target, 9)
            to = (h in owner) ? owner[h] : ""
        } else {
            split(target, parts, "/")
            to = (parts[1] in is_module && target ~ /\//) ? parts[1] : ""
        }
        if (to == "" || to == from) continue
        add_cause(from, to, file, target)
        if (target ~ /_internal\.h$/)
            violation("internal: " file " includes " target " (private to " to ")")
    }

    # Upward arrows, then cycles.  Every arrow that lies on a cycle is
    # reported in one: the arrow and its shortest way back, written from the
    # lowest-stage module on it so that each cycle is printed once.
    for (i = 1; i <= module_count; i++)
        for (j = 1; j <= module_count; j++) {
            a = sorted[i]; b = sorted[j]
            if (!((a, b) in arrow)) continue
            if ((a in stage) && (b in stage) && stage_of(b) > stage_of(a))
                violation("upward: " a " -> " b " (" causes(a, b, " includes") ")")
        }
    for (i = 1; i <= module_count; i++)
        for (j = 1; j <= module_count; j++) {
            a = sorted[i]; b = sorted[j]
            if (!((a, b) in arrow)) continue
            back = path(b, a)
            if (back == "") continue
            n = split(a " -> " back, cycle, " -> ")   # a, b, ..., a
            start = 1
            for (k = 2; k < n; k++) if (before(cycle[k], cycle[start])) start = k
            text = cycle[start]
            for (k = 1; k < n; k++) text = text " -> " cycle[(start - 1 + k) % (n - 1) + 1]
            if (!(text in cycle_seen)) { cycle_seen[text] = 1; violation("cycle: " text) }
        }

    # Output.
    if (format == "dot") {
        print "digraph culprit_modules {"
        print "    rankdir=BT;"
        print "    node [shape=box];"
        for (i = 1; i <= module_count; i++) {
            m = sorted[i]
            print "    \"" m "\" [label=\"" m "\\n(stage " ((m in stage) ? stage[m] : "?") ")\"];"
        }
        for (i = 1; i <= module_count; i++) {   # one rank per stage (sorted: stages are runs)
            m = sorted[i]
            if (!(m in stage)) continue
            group = (i > 1 && (sorted[i - 1] in stage) && stage[sorted[i - 1]] == stage[m]) ? group " \"" m "\";" : "\"" m "\";"
            if (i == module_count || !(sorted[i + 1] in stage) || stage[sorted[i + 1]] != stage[m])
                print "    { rank=same; " group " }"
        }
        for (i = 1; i <= module_count; i++)
            for (j = 1; j <= module_count; j++) {
                a = sorted[i]; b = sorted[j]
                if (!((a, b) in arrow)) continue
                bad = (stage_of(b) > stage_of(a)) || path(b, a) != ""
                print "    \"" a "\" -> \"" b "\"" (bad ? " [color=red]" : "") ";"
            }
        print "}"
        for (i = 1; i <= violations; i++) print violation_text[i] > "/dev/stderr"
    } else {
        if (show_owners == "yes")
            for (k = 1; k <= header_count; k++)
                if (header_list[k] in owner)
                    print "header culprit/" header_list[k] " -> " owner[header_list[k]] "  (" owner_reason[header_list[k]] ")"
        for (i = 1; i <= module_count; i++)
            for (j = 1; j <= module_count; j++) {
                a = sorted[i]; b = sorted[j]
                if ((a, b) in arrow) print a " -> " b "  (" causes(a, b, ":") ")"
            }
        for (i = 1; i <= violations; i++) print violation_text[i]
    }
    if (violations) {
        if (format != "dot") print "deps-graph: " violations " violation" (violations > 1 ? "s" : "")
        exit 1
    }
    if (format != "dot") print "deps-graph: ok (" module_count " module" (module_count == 1 ? "" : "s") ", " \
        arrow_count + 0 " arrow" (arrow_count == 1 ? "" : "s") ")"
}
' $files
