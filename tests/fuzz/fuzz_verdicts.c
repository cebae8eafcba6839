/*
 * fuzz_verdicts.c - the verdicts file of `culprit import lcov|gcov-json
 * --verdicts FILE` (culprit_verdict_list_read,
 * src/interchange/verdict_list.c): "NAME VERDICT" lines.  The input is the
 * file.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    culprit_verdict_list list;
    culprit_verdict_list_init(&list);
    culprit_error err = {0};
    culprit_verdict_list_read(&list, fuzz_write("verdicts.txt", data, size), &err);
    culprit_verdict_list_free(&list);
    return 0;
}
