/*
 * fuzz_spectra_json.c - the JSON spectra (culprit_json_read,
 * src/interchange/spectra_json.c, `culprit import json`) with the program's
 * structure (units' maps, crash stacks).  The input is the file; what is
 * read is then tallied and exported (fuzz.h), written again with its
 * structure, and the structure's maps built into the program's graph, as
 * ranking a stored import does.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    culprit_spectra spectra;
    culprit_spectra_init(&spectra);
    culprit_program_structure structure;
    culprit_program_structure_init(&structure);
    culprit_error err = {0};
    if (culprit_json_read(fuzz_write("spectra.json", data, size), &spectra, &structure, &err) == CULPRIT_OK) {
        fuzz_use_spectra(&spectra);
        culprit_json_write(&spectra, &structure, fuzz_null(), &err);
        culprit_program_graph graph;
        culprit_program_graph_init(&graph);
        if (structure.units.count > 0)
            culprit_program_graph_build(&structure.units, &spectra, &graph, &err);
        culprit_program_graph_free(&graph);
    }
    culprit_program_structure_free(&structure);
    culprit_spectra_free(&spectra);
    return 0;
}
