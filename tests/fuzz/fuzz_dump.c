/*
 * fuzz_dump.c - the dump reader (culprit_dump_parse, src/collect/dump.c):
 * the binary file an instrumented process writes at exit
 * (docs/collector.md §5, culprit/dump_format.h).  The input is the dump.
 */
#include "fuzz.h"

#include "culprit/collect.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    culprit_dump dump;
    culprit_error err = {0};
    if (culprit_dump_parse(data, size, "fuzz.dump", &dump, &err) == CULPRIT_OK)
        culprit_dump_free(&dump);
    return 0;
}
