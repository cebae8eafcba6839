# test_web_cookies.sh - culprit web's cookies and uploads (docs/web.md,
# "Cookies and uploads"; issue 24 items 1 and 2).  tests/e2e/php/webcookies
# is a small notebook with three faults: settings.php:9 (a warning) only
# with the cookie mode=expert, which no page sets (the front page sets
# mode=basic); upload.php:7 (a warning) only when a file is uploaded, which
# its form's file input does; note.php:8 (a DivisionByZeroError) only when
# a file "attachment" is uploaded, which no form offers.  The extension must
# record the comparisons on $_COOKIE and the isset() on $_FILES, the
# exploration must send the cookie of its own and the uploads (multipart),
# find the three failures, rank the faulty lines first, and its suite
# (STORE/web/tests.json, with the cookies sent and the multipart bodies)
# must replay to the same verdicts; --from starts from an upload.
# Skips only without PHP or php-cgi.
. "$(dirname "$0")/lib.sh"

need_php_cgi
cp -R "$TOP/tests/e2e/php/webcookies" app
APP=$(cd app && pwd -P)

# ---- the records of one request ----
CULPRIT_COLLECT_DIR=$WORK "$BUILD_DIR/culprit-php-cgi" --cookie 'mode=basic' --inputs records.txt \
    app/settings.php >page.html
expect_contains records.txt "eq 0 cookie mode id $APP/settings.php:8 expert"
CULPRIT_COLLECT_DIR=$WORK "$BUILD_DIR/culprit-php-cgi" --form 'text=hi' --inputs records.txt app/note.php >page.html
expect_contains records.txt "isset 0 files attachment id $APP/note.php:7"
# an upload: php-cgi fills $_FILES from culprit web's multipart body
B=culprit-form-boundary-5f0c2a
body=$(printf -- '--%s\r\nContent-Disposition: form-data; name="text"\r\n\r\nhi\r\n--%s\r\nContent-Disposition: form-data; name="attachment"; filename="culprit.txt"\r\nContent-Type: text/plain\r\n\r\nculprit upload\n\r\n--%s--\r\n.' $B $B $B)
CULPRIT_COLLECT_DIR=$WORK "$BUILD_DIR/culprit-php-cgi" --body "${body%.}" --content-type "multipart/form-data; boundary=$B" \
    --inputs records.txt app/note.php >page.html 2>page.err
expect_contains records.txt "isset 1 files attachment id $APP/note.php:7"
expect_contains page.err "DivisionByZeroError"

# ---- the exploration ----
run 1 "$CULPRIT" web app --entry index.php --budget 40
cp "$WORK/err" web.err
expect_contains web.err "fail GET settings.php cookie mode=expert (state 1, from inputs)"
expect_contains web.err "fail POST upload.php title=notes file doc (state 1)"
expect_contains web.err "fail POST note.php text=hello file attachment (state 1, from inputs)"
expect_contains web.err "pass POST upload.php title=notes (state 1, from inputs)"
run 0 "$CULPRIT" failures
expect_contains "$WORK/out" 'Undefined array key "debug" at settings.php:9'
expect_contains "$WORK/out" 'Undefined array key "culprit.txt" at upload.php:7'
expect_contains "$WORK/out" 'DivisionByZeroError: Division by zero in note.php:N at note.php:8'
# the faulty lines lead the ranking, run by no passing request (three
# faults, each a failing request or two: tied with their branches)
rank_into ranked --format csv
for line in settings.php:9 upload.php:7 note.php:8; do
    grep -q "^[1-9],[^,]*,[^,]*/$line,[^,]*,[1-9][0-9]*,0," "$WORK/ranked" && pass ||
        fail "expected $line within the first 9, run by no passing request: $(head -12 "$WORK/ranked")"
done
# the suite has the cookies the requests sent (the request's own over the
# state's mode=basic) and the uploads' bodies, and replays to the same verdicts
expect_contains "$CULPRIT_STORE/web/tests.json" '"cookies": "mode=expert", "state": "states/1"'
expect_contains "$CULPRIT_STORE/web/tests.json" \
    '"body": "--culprit-form-boundary-5f0c2a\r\nContent-Disposition: form-data; name=\"text\"\r\n\r\nhello\r\n--culprit-form-boundary-5f0c2a\r\nContent-Disposition: form-data; name=\"attachment\"; filename=\"culprit.txt\"\r\nContent-Type: text/plain\r\n\r\nculprit upload\n\r\n--culprit-form-boundary-5f0c2a--\r\n", "content_type": "multipart/form-data; boundary=culprit-form-boundary-5f0c2a"'
"$CULPRIT" tests | awk '{print $1, $NF}' | sort >explored.verdicts
PATH="$BUILD_DIR:$PATH" run 1 "$CULPRIT" --store replay run --jobs 1 --tests "$CULPRIT_STORE/web/tests.json"
"$CULPRIT" --store replay tests | awk '{print $1, $NF}' | sort >replayed.verdicts
expect_same replayed.verdicts explored.verdicts
[ "$(grep -c '^fail web-' replayed.verdicts)" -ge 3 ] && pass || fail "failing replays: $(cat replayed.verdicts)"

# ---- --from an upload, and from a cookie ----
upload=$(grep -o '"name": "web-[0-9]*", "request": {"script": "[^"]*/note.php", "body"' "$CULPRIT_STORE/web/tests.json" | head -1 | cut -d'"' -f4)
suite=$CULPRIT_STORE/web/tests.json # another store's exploration leaves it alone
run 1 "$CULPRIT" --store from web app --from "$upload" --tests "$suite" --budget 3
expect_contains "$WORK/err" "fail POST note.php text=hello file attachment (state"
cookie=$(grep -o '"name": "web-[0-9]*", "request": {"script": "[^"]*/settings.php", "cookies": "mode=expert"' "$suite" | head -1 | cut -d'"' -f4)
run 1 "$CULPRIT" --store from2 web app --from "$cookie" --tests "$suite" --budget 3
expect_contains "$WORK/err" "fail GET settings.php (state"

# ---- without input constraints: only the form's upload fails ----
run 1 "$CULPRIT" --store plain web app --entry index.php --budget 40 --no-inputs
expect_contains "$WORK/err" "(1 failing, 0 timed out, 1 distinct failures)"
finish
