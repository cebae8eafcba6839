/*
 * fuzz_import_gzoltar.c - GZoltar's text spectra (culprit_gzoltar_read,
 * src/interchange/gzoltar.c, `culprit import gzoltar`).  The input is the
 * spectra file, the matrix and optionally the tests file, split at lines
 * "--8<--"; what is read is then tallied and exported (fuzz.h).
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_part parts[3];
    size_t count = fuzz_split(data, size, parts, 3);
    if (count < 2)
        parts[count++] = (fuzz_part){(const uint8_t *)"", 0};
    char *spectra_path = strdup(fuzz_write("spectra.csv", parts[0].data, parts[0].size));
    char *matrix_path = strdup(fuzz_write("matrix.txt", parts[1].data, parts[1].size));
    const char *tests_path = count > 2 ? fuzz_write("tests.csv", parts[2].data, parts[2].size) : NULL;
    FUZZ_REQUIRE(spectra_path && matrix_path);
    culprit_spectra spectra;
    culprit_spectra_init(&spectra);
    culprit_error err = {0};
    if (culprit_gzoltar_read(spectra_path, matrix_path, tests_path, &spectra, &err) == CULPRIT_OK)
        fuzz_use_spectra(&spectra);
    culprit_spectra_free(&spectra);
    free(spectra_path);
    free(matrix_path);
    return 0;
}
