/*
 * fuzz_manifest_plain.c - the plain manifest of `culprit run --tests FILE`
 * (culprit_manifest_parse, src/run/manifest.c): "--OPTION VALUE" header
 * lines, then "NAME: COMMAND" lines.  The input is the manifest, read after
 * a line "#", which keeps it in the plain form whatever it starts with
 * (fuzz_manifest_json.c has the other).  Inputs of odd size are parsed with
 * command-line options, as `culprit run --timeout 2.5 --validator ./check`.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 2);
    FUZZ_REQUIRE(text);
    memcpy(text, "#\n", 2);
    memcpy(text + 2, data, size);
    fuzz_parse_manifest(text, size + 2, "manifest.txt", size % 2);
    free(text);
    return 0;
}
