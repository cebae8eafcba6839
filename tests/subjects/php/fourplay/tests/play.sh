#!/bin/sh
# play.sh REQUEST... - one visitor's session: the requests in order, each
# through culprit-php-cgi, sharing a session cookie and a session directory
# of their own (FOURPLAY_SESSION_DIR, made here and removed at the end), so
# that tests can run side by side.  The pages' bodies follow each other on
# stdout; nothing else is written there (bytes not written by PHP would
# shift the output map).
#
# A REQUEST is PAGE[?QUERY] for a GET, or PAGE[?QUERY]|FORM for a POST
# (QUERY and FORM url-encoded): start.php|name1=Ann&name2=Bob play.php?col=3
set -eu
here=$(cd "$(dirname "$0")" && pwd)
FOURPLAY_SESSION_DIR=$(mktemp -d "${TMPDIR:-/tmp}/fourplay.XXXXXX")
export FOURPLAY_SESSION_DIR
trap 'rm -rf "$FOURPLAY_SESSION_DIR"' EXIT
status=0
for request in "$@"; do
	form=
	case $request in
	*'|'*) form=${request#*|}; request=${request%%|*}; post=1 ;;
	*) post= ;;
	esac
	page=${request%%\?*}
	query=
	case $request in *'?'*) query=${request#*\?} ;; esac
	if [ -n "$post" ]; then
		culprit-php-cgi --cookie FOURPLAY=test --query "$query" --form "$form" "$here/../src/$page" || status=$?
	else
		culprit-php-cgi --cookie FOURPLAY=test --query "$query" "$here/../src/$page" || status=$?
	fi
done
exit "$status"
