/*
 * fuzz_map.c - the program-map reader (culprit_map_parse, src/program/map.c):
 * the text culprit-cc writes per translation unit (docs/collector.md §2).
 * The input is a map file, one or more units, read with each unit's hash
 * made right (fuzz_parse_map).  A map that parses is then assembled into a
 * program and its graph, as the store does with the maps it keeps: what
 * the reader accepts, the later stages must be able to use.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    culprit_unit_set set;
    culprit_unit_set_init(&set);
    culprit_error err = {0};
    if (fuzz_parse_map(data, size, &set, &err) == CULPRIT_OK) {
        culprit_spectra spectra;
        culprit_spectra_init(&spectra);
        culprit_program_layout layout = {0};
        if (culprit_program_build(&set, &spectra, &layout, &err) == CULPRIT_OK) {
            culprit_program_graph graph;
            culprit_program_graph_init(&graph);
            culprit_program_graph_build(&set, &spectra, &graph, &err);
            culprit_program_graph_free(&graph);
            culprit_program_layout_free(&layout);
        }
        culprit_spectra_free(&spectra);
    }
    culprit_unit_set_free(&set);
    return 0;
}
