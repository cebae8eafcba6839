# test_web_login.sh - a fault culprit web finds only through a login and a
# form submission (issue 24's acceptance: it needs the session and the
# database state).  tests/e2e/php/webnotes is a notebook: the front page's
# login form puts the user in the PHP session; the notes page (only with
# a session) posts a note into notes.sqlite and redirects to itself; its
# seeded fault (notes.php:25, an undefined array key: a warning) shows
# only when the user in the session has a note in the database.  The
# exploration must chain the login (session), the note (database) and the
# redirect, fail there and nowhere else, rank notes.php:25 first (tied
# with the loop that lists the notes), leave
# notes.sqlite as it was, and replay the failing request from its saved
# state (which, as docs/web.md says, leaves that state's database in the
# application).  Skips only without PHP or php-cgi.
. "$(dirname "$0")/lib.sh"

need_php_cgi
cp -R "$TOP/tests/e2e/php/webnotes" app
cp app/notes.sqlite notes.before

run 1 "$CULPRIT" web app --entry index.php --budget 30
cp "$WORK/err" web.err
# the chain: login (a new session), the posted note, the redirected page
expect_contains web.err "pass POST login.php token=n0tes&user=ann"
expect_contains web.err "pass POST notes.php note=remember+the+milk"
grep -q ' fail GET notes.php (state [1-9]' web.err && pass ||
    fail "expected GET notes.php to fail in a state with a session and a note: $(cat web.err)"
# before the note, the same page passed (a session, no note)
first_notes=$(grep -m1 ' GET notes.php (state' web.err)
case $first_notes in *" pass GET notes.php (state "*) pass ;; *) fail "the first notes page: $first_notes" ;; esac
run 0 "$CULPRIT" failures
expect_contains "$WORK/out" 'PHP Warning: Undefined array key N at notes.php:25'
rank_into ranked --format csv
# first, tied only with the loop that lists the notes (lines 27-28: they too
# run only when the user has a note)
grep -q '^[1-3],[^,]*,[^,]*/notes.php:25,' "$WORK/ranked" && pass ||
    fail "expected notes.php:25 within the first 3, got $(sed -n 2,5p "$WORK/ranked")"
expect_same app/notes.sqlite notes.before
# the failing request replays from its saved state (the session, the note)
failing=$(sed -n 's/^culprit web: .* \(web-[0-9]*\) fail GET notes.php .*/\1/p' web.err | head -1)
python3 - "$failing" "$CULPRIT_STORE/web/tests.json" >one.json <<'END'
import json, sys
print(json.dumps([t for t in json.load(open(sys.argv[2])) if t["name"] == sys.argv[1]]))
END
states=$(cd "$CULPRIT_STORE/web/states" && pwd)
sed -i "s|\"states/|\"$states/|" one.json
PATH="$BUILD_DIR:$PATH" run 1 "$CULPRIT" --store replay run --jobs 1 --tests one.json
expect_contains "$WORK/out" "1 failed"

# ---- --from a chain: the user's test logs in, posts a note, looks ----
# (a "requests" test, docs/harness.md): the requests before the last run
# first, each in the state the one before left, then the failing one, judged
# by the test's own oracle
cat >chain.json <<'END'
[{"name": "noted", "requests": [
   {"script": "APP/login.php", "post": {"token": "n0tes", "user": "ann"}},
   {"script": "APP/notes.php", "post": {"note": "milk"}},
   {"script": "APP/notes.php"}],
  "env": {"CULPRIT_PHP_FAIL_ON": "warning"}}]
END
cp notes.before app/notes.sqlite # (the replay above left its state's database)
cp -R app chainapp
sed 's|APP/|chainapp/|' chain.json >chainrun.json
PATH="$BUILD_DIR:$PATH" run 1 "$CULPRIT" --store chainrun run --tests chainrun.json
expect_contains "$WORK/out" "1 failed"
sed -i 's|APP/|app/|' chain.json
run 1 "$CULPRIT" --store fromchain web app --from noted --tests chain.json --budget 6
cp "$WORK/err" from.err
expect_contains from.err "web-0001 pass POST login.php token=n0tes&user=ann (state 0, a request of the failing test)"
expect_contains from.err "web-0002 pass POST notes.php note=milk (state 1, a request of the failing test)"
expect_contains from.err "web-0003 fail GET notes.php (state 2, the failing test to start from)"
expect_same app/notes.sqlite notes.before

# ---- --export: the explored suite kept beside the application ----
# every path relative to the export, so both move together and replay
cp notes.before app/notes.sqlite
run 1 "$CULPRIT" --store exported web app --entry index.php --budget 30 --export suite
grep -q "$PWD" suite/tests.json suite/states/*/databases && fail "absolute paths in the export: $(grep "$PWD" suite/tests.json | head -2)" || pass
expect_contains suite/tests.json '"script": "../app/notes.php"'
expect_contains suite/states/1/databases '0 ../../../app/notes.sqlite'
"$CULPRIT" --store exported tests | awk '{print $1, $NF}' | sort >exported.verdicts
mkdir moved && mv app suite moved/
PATH="$BUILD_DIR:$PATH" run 1 "$CULPRIT" --store movedstore run --jobs 1 --tests moved/suite/tests.json
"$CULPRIT" --store movedstore tests | awk '{print $1, $NF}' | sort >moved.verdicts
expect_same moved.verdicts exported.verdicts
grep -q '^fail web-' moved.verdicts && pass || fail "no failing request replayed: $(cat moved.verdicts)"
run 2 "$CULPRIT" --store exported web moved/app --entry index.php --budget 3 --export moved/app/notes.php/x
expect_contains "$WORK/err" "--export moved/app/notes.php/x: cannot make the directory"
[ -f exported/web/tests.json ] && pass || fail "a bad --export removed the last exploration's STORE/web"

finish
