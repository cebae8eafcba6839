#!/bin/sh
# check.sh - check this subject's correct and faulty versions against its test
# pool (the rules are in ../README.md; the work is done by ../check-subject.sh).
exec sh "$(dirname "$0")/../check-subject.sh" "$(dirname "$0")"
