/*
 * fuzz_import_lcov.c - lcov tracefiles (culprit_lcov_read,
 * src/interchange/lcov.c, `culprit import lcov`).  The input is one to four
 * tracefiles split at lines "--8<--", read as tests t1 .. t4 (t1 failing);
 * what is read is then tallied and exported (fuzz.h).
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_read_files(data, size, "t%zu.info", 4, culprit_lcov_read);
    return 0;
}
