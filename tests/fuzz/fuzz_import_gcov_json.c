/*
 * fuzz_import_gcov_json.c - gcov's JSON intermediate format
 * (culprit_gcov_json_read, src/interchange/gcov_json.c, `culprit import
 * gcov-json`), gzip-compressed or not, several documents per file.  The
 * input is one to four files split at lines "--8<--", read as tests t1 ..
 * t4 (t1 failing); what is read is then tallied and exported (fuzz.h).
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_read_files(data, size, "t%zu.gcov.json", 4, culprit_gcov_json_read);
    return 0;
}
