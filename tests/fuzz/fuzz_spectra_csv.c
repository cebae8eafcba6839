/*
 * fuzz_spectra_csv.c - the CSV spectra (culprit_csv_read,
 * src/interchange/spectra_csv.c, `culprit import csv`).  The input is the
 * file; what is read is then tallied and exported (fuzz.h).
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    culprit_spectra spectra;
    culprit_spectra_init(&spectra);
    culprit_error err = {0};
    if (culprit_csv_read(fuzz_write("spectra.csv", data, size), &spectra, &err) == CULPRIT_OK)
        fuzz_use_spectra(&spectra);
    culprit_spectra_free(&spectra);
    return 0;
}
