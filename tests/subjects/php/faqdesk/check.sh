#!/bin/sh
# Check faqdesk's test pool and faulty versions (../check-php-subject.sh).
exec sh "$(dirname "$0")/../check-php-subject.sh" "$(dirname "$0")" "$@"
