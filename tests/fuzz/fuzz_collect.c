/*
 * fuzz_collect.c - one test's collection directory (culprit_collect_directory,
 * src/collect/collect.c): the dumps a test's processes wrote, summed over
 * the maps of their units, then turned into a test of the program as
 * `culprit test` does before saving it.  A test can write anything into
 * that directory, so the dumps are the hostile part.  The input is a map
 * (as in fuzz_map.c, hash made right) and one to four dumps, split at
 * lines "--8<--"; the map stands for the maps culprit already holds.
 */
#include "fuzz.h"

#include "culprit/collect.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    enum { MAX_DUMPS = 4 };
    static char *directory;
    if (!directory)
        FUZZ_REQUIRE(directory = strdup(fuzz_directory_path("collect")));
    fuzz_part parts[1 + MAX_DUMPS];
    size_t count = fuzz_split(data, size, parts, 1 + MAX_DUMPS);
    for (size_t d = 1; d <= MAX_DUMPS; d++) {
        char name[64];
        snprintf(name, sizeof name, "collect/%zu.0.dump", 100 + d);
        if (d < count)
            fuzz_write(name, parts[d].data, parts[d].size);
        else
            unlink(fuzz_path(name));
    }
    culprit_unit_set maps;
    culprit_unit_set_init(&maps);
    culprit_error err = {0};
    culprit_collected collected;
    culprit_collected_init(&collected);
    if (fuzz_parse_map(parts[0].data, parts[0].size, &maps, &err) == CULPRIT_OK &&
        culprit_collect_directory(directory, 101, &maps, &collected, &err) == CULPRIT_OK) {
        culprit_spectra spectra;
        culprit_spectra_init(&spectra);
        culprit_program_layout layout = {0};
        if (culprit_program_build(&maps, &spectra, &layout, &err) == CULPRIT_OK) {
            size_t test;
            culprit_program_add_test(&layout, &spectra, "t1", CULPRIT_VERDICT_FAIL, collected.unit_count,
                                     collected.units, &test, &err);
            culprit_program_layout_free(&layout);
        }
        culprit_spectra_free(&spectra);
    }
    culprit_collected_free(&collected);
    culprit_unit_set_free(&maps);
    return 0;
}
