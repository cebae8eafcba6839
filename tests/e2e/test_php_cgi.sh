# test_php_cgi.sh - HTTP requests to PHP pages (docs/php.md, "HTTP
# requests"): a JSON manifest's "request" tests (src/run/manifest_request.c)
# run through culprit-php-cgi (src/php/culprit-php-cgi.sh) and php-cgi with
# the extension.  The page, tests/e2e/php/greet.php, reads $_GET, $_POST and
# $_COOKIE and has a seeded fault (line 12: a name not escaped); the oracles
# see the body without the CGI headers, the output map lines up with it, and
# the faulty line ranks first.  Then a fatal error, the launcher under
# `culprit test`, and bad requests.  Skips only without PHP or php-cgi.
. "$(dirname "$0")/lib.sh"

need_php_cgi
PATH="$BUILD_DIR:$PATH" # the manifest's requests run culprit-php-cgi
export PATH
mkdir site
cp "$TOP/tests/e2e/php/greet.php" site/

page() { # the page around a heading and an optional part
    printf '<html><head><title>greet</title></head><body>\n<h1>%s</h1>\n%s</body></html>\n' "$1" "$2"
}
# a JSON string of $1 and the newline $(...) took from it
json() { python3 -c 'import json, sys; print(json.dumps(sys.argv[1] + "\n"))' "$1"; }

cat >tests.json <<EOF
[
  {"name": "guest", "request": {"script": "site/greet.php"}, "expect_stdout": $(json "$(page 'Hello, guest' '')")},
  {"name": "named", "request": {"script": "site/greet.php", "get": {"name": "Ann Lee"}},
   "expect_stdout": $(json "$(page 'Hello, Ann Lee' '')")},
  {"name": "french", "request": {"script": "site/greet.php", "get": {"name": "Luc"}, "cookies": {"lang": "fr"}},
   "expect_stdout": $(json "$(page 'Bonjour, Luc' '')")},
  {"name": "german", "request": {"script": "site/greet.php", "get": "name=Karl", "cookies": "lang=de"},
   "expect_stdout": $(json "$(page 'Hallo, Karl' '')")},
  {"name": "german-markup", "request": {"script": "site/greet.php", "get": {"name": "<Ann & Bob>"},
   "cookies": {"lang": "de"}}, "expect_stdout": $(json "$(page 'Hallo, &lt;Ann &amp; Bob&gt;' '')")},
  {"name": "order", "request": {"script": "site/greet.php", "post": {"items": "tea,milk"}},
   "expect_stdout": $(json "$(page 'Hello, guest' '<ul>
<li>tea</li>
<li>milk</li>
</ul>
')")},
  {"name": "order-empty", "request": {"script": "site/greet.php", "method": "POST", "post": {"items": ""}},
   "expect_stdout": $(json "$(page 'Hello, guest' '<p>nothing ordered</p>
')")},
  {"name": "order-body", "request": {"script": "site/greet.php", "body": "items=a%26b",
   "content_type": "application/x-www-form-urlencoded"},
   "expect_stdout": $(json "$(page 'Hello, guest' '<ul>
<li>a&amp;b</li>
</ul>
')")}
]
EOF
# run_suite MANIFEST PASSING FAILING: runs the manifest; PASSING tests
# pass and the test FAILING fails
run_suite() {
    run 1 "$CULPRIT" run --tests "$1"
    run 0 "$CULPRIT" tests
    [ "$(grep -c '^pass' "$WORK/out")" -eq "$2" ] && pass || fail "expected $2 passing tests: $(cat "$WORK/out")"
    grep '^fail' "$WORK/out" | grep -q "$3" && pass || fail "$3 should fail: $(cat "$WORK/out")"
}
# first_alone NAME LINE: LINE ranks first, alone (Ochiai over lines)
first_alone() {
    rank_into "$1" --kind line --formula ochiai --format csv
    case $(sed -n 2p "$WORK/$1") in
    1,*"$2",*) pass ;;
    *) fail "expected $2 alone first, got $(sed -n 2,3p "$WORK/$1")" ;;
    esac
    case $(sed -n 3p "$WORK/$1") in 1,*) fail "$2 is tied: $(sed -n 3p "$WORK/$1")" ;; *) pass ;; esac
}
run_suite tests.json 7 german-markup

# Line 12 runs in the two German requests, one failing: first, alone.
first_alone lines greet.php:12

# The body only, and the output map lines up with it: line 1 is the inline
# HTML of line 29, line 2 the <?= ... ?> of line 30.
run 0 "$CULPRIT" output german-markup
expect_block "$WORK/out" "    1 | <html><head><title>greet</title></head><body>
        <- "
expect_contains "$WORK/out" "    2 ! <h1>Hallo, <Ann & Bob></h1>"
grep -A3 '    2 ! ' "$WORK/out" | grep -q 'greet.php:30 ({main})' && pass ||
    fail "line 2 should map to greet.php:30: $(cat "$WORK/out")"
grep -A2 '    1 | ' "$WORK/out" | grep -q 'greet.php:29 ({main})' && pass ||
    fail "line 1 should map to greet.php:29: $(cat "$WORK/out")"
grep -q 'Content-type' "$WORK/out" && fail "the CGI headers reached the output: $(cat "$WORK/out")" || pass

# The same page without collection: the same body, no headers.
CULPRIT_COLLECT_DIR= run 0 culprit-php-cgi --query 'name=Zoe' site/greet.php
expect_file_equals "$WORK/out" "$(page 'Hello, Zoe' '')"

# opcache (on for Debian's php-cgi) would hand the extension optimized op
# arrays from shared memory, whose lines the maps do not describe (a request
# once saw the counts of two lines swapped): collecting, the extension
# turns it off for the request, as ini_set('opcache.enable', 0) would.  A
# page that asks opcache whether it runs says yes without collection and
# no with it, and the extension says nothing; a page whose constants
# opcache's optimizer would fold records what it records through
# culprit-php-cgi (opcache off from the start), count by count.
printf '<?php\n$status = opcache_get_status(false);\necho $status && $status["opcache_enabled"] ? "on\\n" : "off\\n";\n' \
    >site/opcache.php
printf '<?php\nfunction total($n)\n{\n    $unit = 3;\n    if (false) {\n        echo "never";\n    }\n    return $n * $unit;\n}\n$sum = 0;\nfor ($i = 0; $i < 3; $i++) {\n    $sum += total($i);\n}\necho "$sum\\n";\n' \
    >site/folded.php
cgi_opcache() { # PAGE COMMAND...: the page through php-cgi with opcache on
    page=$1
    shift
    REQUEST_METHOD=GET SCRIPT_FILENAME="$WORK/site/$page" REDIRECT_STATUS=200 CULPRIT_PHP_CGI_BODY=1 \
        "$@" php-cgi -d opcache.enable=1 -d "extension=$BUILD_DIR/culprit.so"
}
CULPRIT_COLLECT_DIR= run 0 cgi_opcache opcache.php env
expect_file_equals "$WORK/out" "on"
rm -rf "$CULPRIT_STORE"
run 0 cgi_opcache opcache.php "$CULPRIT" test --name opcache-status --
expect_file_equals "$WORK/out" "off"
grep -q 'opcache' "$WORK/err" && fail "the extension spoke of opcache: $(cat "$WORK/err")" || pass
run 0 cgi_opcache folded.php "$CULPRIT" test --name opcache-on --
run 0 "$CULPRIT" test --name opcache-off -- culprit-php-cgi site/folded.php
run 0 "$CULPRIT" export json --output spectra.json
python3 - spectra.json <<'PY' && pass || fail "opcache changed the counts"
import json, sys
tests = {t["name"]: t for t in json.load(open(sys.argv[1]))["tests"]}
on, off = tests["opcache-on"]["counts"], tests["opcache-off"]["counts"]
if on != off or not on:
    sys.exit("on %s\noff %s" % (on, off))
PY

# ---- request chains: one visitor's requests, the last page the output ----
# "requests" (culprit-php-cgi REQUEST --then REQUEST): a shared session and
# the cookies pages set.  login.php keeps the name in the session and sets a
# theme cookie; its seeded fault (line 5) shouts a name that begins with z.
# home.php, in another request, shows both: only the chain can fail.  The
# first page is malformed HTML on purpose: the HTML oracle judges the last.
rm -rf "$CULPRIT_STORE"
mkdir chain
cat >chain/login.php <<'END'
<?php
session_start();
$name = $_POST['user'] ?? 'guest';
if ($name[0] === 'z') {
    $name = strtoupper($name);
}
$_SESSION['user'] = $name;
setcookie('theme', $_POST['theme'] ?? 'light');
echo "<p>welcome <b>$name\n";
END
cat >chain/home.php <<'END'
<?php
session_start();
$user = $_SESSION['user'] ?? 'nobody';
$theme = $_COOKIE['theme'] ?? 'none';
?>
<!DOCTYPE html>
<html><head><title>home</title></head><body>
<p>Hello <?= htmlspecialchars($user) ?>, theme <?= htmlspecialchars($theme) ?>, lang <?= $_COOKIE['lang'] ?? '-' ?></p>
</body></html>
END
home() { # the home page for NAME THEME LANG, as a JSON string
    json "$(printf '<!DOCTYPE html>\n<html><head><title>home</title></head><body>\n<p>Hello %s, theme %s, lang %s</p>\n</body></html>' "$1" "$2" "$3")"
}
cat >chains.json <<END
[
  {"name": "ann", "requests": [{"script": "chain/login.php", "post": {"user": "ann", "theme": "dark"}},
                               {"script": "chain/home.php", "cookies": {"lang": "fr"}}],
   "expect_stdout": $(home ann dark fr), "oracle": "html"},
  {"name": "bob", "requests": [{"script": "chain/login.php", "post": {"user": "bob"}}, {"script": "chain/home.php"}],
   "expect_stdout": $(home bob light -)},
  {"name": "nobody", "requests": [{"script": "chain/home.php"}], "expect_stdout": $(home nobody none -)},
  {"name": "zoe", "requests": [{"script": "chain/login.php", "post": {"user": "zoe"}}, {"script": "chain/home.php"}],
   "expect_stdout": $(home zoe light -)}
]
END
run_suite chains.json 3 zoe
# the fault, run by the failing chain only, first and alone
first_alone chained login.php:5
# the output is the last page, mapped to home.php (the first page has no
# output records: it is not the output)
run 0 "$CULPRIT" output zoe
expect_contains "$WORK/out" "<p>Hello ZOE, theme light, lang -</p>"
grep -A3 'Hello ZOE' "$WORK/out" | grep -q 'home.php:8 ({main})' && pass ||
    fail "the differing line should map to home.php:8: $(cat "$WORK/out")"
grep -q 'login.php' "$WORK/out" && fail "the first page reached the output map: $(cat "$WORK/out")" || pass
# the launcher: a chain stops at its first failing request, with its status;
# its temporary directory is gone
printf '<?php\nundefined_call();\n' >chain/broken.php
mkdir chaintmp
CULPRIT_COLLECT_DIR= TMPDIR=$WORK/chaintmp run 255 culprit-php-cgi chain/broken.php --then chain/home.php
expect_contains "$WORK/err" "Call to undefined function undefined_call()"
[ -s "$WORK/out" ] && fail "the chain went on after a failing request: $(cat "$WORK/out")" || pass
TMPDIR=$WORK/chaintmp run 99 culprit-php-cgi --state chain chain/login.php --then chain/home.php
expect_contains "$WORK/err" "culprit-php-cgi: --state goes with one request, not a chain (--then)"
[ -z "$(ls chaintmp)" ] && pass || fail "the chain left $(ls chaintmp)"
# a --then with nothing after it is a broken test; a value "--then" is no chain;
# a chained body keeps its trailing newlines; a cookie whose value says
# max-age=0 is kept (only the Max-Age attribute deletes)
run 99 culprit-php-cgi chain/home.php --then
printf '<?php echo strlen(file_get_contents("php://input")), " ", $_POST["v"] ?? "-", "\\n";\n' >chain/length.php
run 0 culprit-php-cgi --cookie --then chain/length.php
expect_file_equals "$WORK/out" "0 -"
run 0 culprit-php-cgi chain/home.php --then --body "$(printf 'v=1\n\nX')
" --content-type text/plain chain/length.php
expect_file_equals "$WORK/out" "7 -"
printf '<?php setcookie("pref", "max-age=0x"); setcookie("gone", "1", ["expires" => 1]);\n' >chain/pref.php
printf '<?php echo $_COOKIE["pref"] ?? "none", " ", $_COOKIE["gone"] ?? "none", "\\n";\n' >chain/showpref.php
run 0 culprit-php-cgi chain/pref.php --then chain/showpref.php
expect_file_equals "$WORK/out" "max-age=0x none"

# ---- a fatal error in a page fails its request, with PHP's message ----
rm -rf "$CULPRIT_STORE"
printf '<?php\necho "<p>start</p>\\n";\nmissing_function();\n' >site/fatal.php
run 255 "$CULPRIT" test --name fatal -- culprit-php-cgi site/fatal.php
run 0 "$CULPRIT" tests
expect_contains "$WORK/out" "PHP Fatal error: Uncaught Error: Call to undefined function missing_function()"
expect_contains "$WORK/out" "fatal.php:3"

# ---- bad requests ----
# A missing page: the launcher's hard error (99, an error, not a failure) ...
run 99 "$CULPRIT" test --name nopage -- culprit-php-cgi site/nope.php
expect_contains "$WORK/err" "culprit-php-cgi: no PHP script 'site/nope.php'"
run 0 "$CULPRIT" tests
grep '^error' "$WORK/out" | grep -q nopage && pass || fail "nopage should be an error: $(cat "$WORK/out")"
run 99 culprit-php-cgi --query
expect_contains "$WORK/err" "culprit-php-cgi: --query expects a value"
# ... and in a manifest, an input error at its string before any test runs.
printf '[\n  {"name": "a", "request": {"script": "site/nope.php"}}\n]\n' >missing.json
run 2 "$CULPRIT" run --tests missing.json
expect_contains "$WORK/err" "missing.json:2:39: no PHP script 'site/nope.php'"
printf '[{"name": "a", "request": {"get": {"x": "1"}}}]\n' >noscript.json
run 2 "$CULPRIT" run --tests noscript.json
expect_contains "$WORK/err" "noscript.json:1:27: expected a \"script\" in \"request\""
printf '[{"name": "a", "request": {"script": "site/greet.php", "post": {}, "body": "x"}}]\n' >both.json
run 2 "$CULPRIT" run --tests both.json
expect_contains "$WORK/err" "expected \"request.post\" or \"request.body\", not both"
printf '[{"name": "a", "argv": ["true"], "request": {"script": "site/greet.php"}}]\n' >cmd.json
run 2 "$CULPRIT" run --tests cmd.json
expect_contains "$WORK/err" "cmd.json:1:34: expected \"request\" or \"argv\", not both"
printf '[{"name": "a", "request": {"script": "site/greet.php", "header": {}}}]\n' >key.json
run 2 "$CULPRIT" run --tests key.json
expect_contains "$WORK/err" "unknown key \"header\" in \"request\""
printf '[{"name": "a", "request": {"script": "site/greet.php", "get": {"x": 1}}}]\n' >value.json
run 2 "$CULPRIT" run --tests value.json
expect_contains "$WORK/err" "expected \"request.x\" to be a string"

finish
