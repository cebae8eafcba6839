/*
 * test_records.c - every test of a program with a message and signature:
 * the store loads the judged ones as the oracle worded them, and tests
 * without a judgement (imported, or recorded before schema version 3) are
 * worded here from their verdict, exit status and crash, in the oracle's
 * own words (culprit_oracle_describe_unjudged), so that `culprit tests`
 * and `culprit failures` work on every store.
 */
#include <stdlib.h>
#include <string.h>

#include "culprit/judgement.h"
#include "culprit/oracle.h"

static culprit_status describe_unjudged(culprit_test_record *record, culprit_error *err)
{
    char message[sizeof((culprit_judgement *)0)->message];
    char signature[sizeof((culprit_judgement *)0)->signature];
    culprit_oracle_describe_unjudged(record->verdict, record->has_run ? record->exit_status : -1,
                                     record->signal, record->crash_site, message, sizeof message, signature,
                                     sizeof signature);
    record->message = strdup(message);
    record->signature = strdup(signature);
    return record->message && record->signature ? CULPRIT_OK : culprit_fail_memory(err);
}

culprit_status culprit_test_records_load(culprit_store *store, int64_t program_id,
                                         culprit_test_records *records, culprit_error *err)
{
    culprit_status status = culprit_store_load_test_records(store, program_id, records, err);
    for (size_t t = 0; status == CULPRIT_OK && t < records->count; t++)
        if (!records->tests[t].judged)
            status = describe_unjudged(&records->tests[t], err);
    if (status != CULPRIT_OK)
        culprit_test_records_free(records);
    return status;
}
