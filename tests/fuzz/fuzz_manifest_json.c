/*
 * fuzz_manifest_json.c - the JSON manifest of `culprit run --tests FILE`
 * (culprit_manifest_parse, src/run/manifest_json.c and mjson.c): an array
 * of test objects.  The input is the manifest; one whose first non-blank
 * character is not '[' or '{' would be read as a plain manifest
 * (fuzz_manifest_plain.c) and is skipped.  Inputs of odd size are parsed
 * with command-line options, as `culprit run --timeout 2.5 --validator
 * ./check`.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t first = 0;
    while (first < size &&
           (data[first] == ' ' || data[first] == '\t' || data[first] == '\r' || data[first] == '\n'))
        first++;
    if (first == size || (data[first] != '[' && data[first] != '{'))
        return -1; /* not the JSON form: not kept in the corpus */
    fuzz_parse_manifest((const char *)data, size, "manifest.json", size % 2);
    return 0;
}
