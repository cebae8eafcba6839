/*
 * tally.c - (ef, ep, nf, np) for every element in one pass over the hit rows.
 *
 * Counting how many rows set each bit is done with bit-sliced counters:
 * for every 64-element word of a row we keep the count of each of its 64
 * bits "vertically", one 64-bit plane per binary digit, and add a row with
 * word-wide AND/XOR carries.  Rows are first added in groups of up to 15
 * into 4-plane partial counters held in registers (a branch-free adder), and
 * each partial sum is then added into the wide counters.  The cost is a few
 * word operations per row word - the same order as merely reading the
 * matrix - and there is no loop over tests per element.  Failing and passing
 * rows are counted into separate counter banks.
 */
#include <stdlib.h>
#include <string.h>

#include "culprit/spectra.h"

enum { GROUP_SIZE = 15 }; /* the most a 4-bit partial counter holds */

typedef struct counter_bank {
    size_t words;     /* words per row */
    unsigned planes;  /* binary digits per counter */
    uint64_t *digits; /* words * planes: digits[word * planes + plane] */
} counter_bank;

/* Adds the 4-bit bit-sliced number partial[0..3] into the bank's word. */
static void bank_add_partial(counter_bank *bank, size_t word, const uint64_t partial[4])
{
    uint64_t *digit = bank->digits + word * bank->planes;
    uint64_t carry = 0;
    for (unsigned plane = 0; plane < bank->planes; plane++) {
        uint64_t addend = plane < 4 ? partial[plane] : 0;
        if (plane >= 4 && !carry)
            break;
        uint64_t sum = digit[plane] ^ addend ^ carry;
        carry = (digit[plane] & addend) | (carry & (digit[plane] ^ addend));
        digit[plane] = sum;
    }
}

/* Counts the rows listed in tests[0..count) into bank. */
static void bank_add_rows(counter_bank *bank, const culprit_spectra *spectra, const size_t *tests,
                          size_t count)
{
    for (size_t first = 0; first < count; first += GROUP_SIZE) {
        size_t group = count - first < GROUP_SIZE ? count - first : GROUP_SIZE;
        const uint64_t *rows[GROUP_SIZE];
        for (size_t r = 0; r < group; r++)
            rows[r] = culprit_spectra_row(spectra, tests[first + r]);
        for (size_t word = 0; word < bank->words; word++) {
            uint64_t partial[4] = {0, 0, 0, 0};
            for (size_t r = 0; r < group; r++) {
                uint64_t bit = rows[r][word];
                uint64_t carry0 = partial[0] & bit;
                partial[0] ^= bit;
                uint64_t carry1 = partial[1] & carry0;
                partial[1] ^= carry0;
                uint64_t carry2 = partial[2] & carry1;
                partial[2] ^= carry1;
                partial[3] ^= carry2;
            }
            if (partial[0] | partial[1] | partial[2] | partial[3])
                bank_add_partial(bank, word, partial);
        }
    }
}

/* Reads the counter of bit `bit` of word `word`. */
static uint32_t bank_count(const counter_bank *bank, size_t word, unsigned bit)
{
    const uint64_t *digit = bank->digits + word * bank->planes;
    uint32_t value = 0;
    for (unsigned plane = 0; plane < bank->planes; plane++)
        value |= (uint32_t)((digit[plane] >> bit) & 1) << plane;
    return value;
}

static unsigned planes_for(size_t maximum)
{
    unsigned planes = 1;
    while (planes < 32 && (maximum >> planes) != 0)
        planes++;
    return planes;
}

culprit_status culprit_spectra_tally(const culprit_spectra *spectra, const culprit_verdict_policy *policy,
                                     culprit_tally *tallies, culprit_totals *totals, culprit_error *err)
{
    size_t *failing = malloc((spectra->test_count + 1) * sizeof *failing);
    size_t *passing = malloc((spectra->test_count + 1) * sizeof *passing);
    size_t failing_count = 0, passing_count = 0;
    culprit_status status = CULPRIT_OK;
    counter_bank failed = {0}, passed = {0};
    if (!failing || !passing) {
        status = culprit_fail_memory(err);
        goto done;
    }
    for (size_t test = 0; test < spectra->test_count; test++) {
        culprit_outcome outcome = culprit_verdict_outcome(spectra->tests[test].verdict, policy);
        if (outcome == CULPRIT_OUTCOME_FAILING)
            failing[failing_count++] = test;
        else if (outcome == CULPRIT_OUTCOME_PASSING)
            passing[passing_count++] = test;
    }
    if (failing_count > UINT32_MAX || passing_count > UINT32_MAX) {
        status = culprit_fail(err, CULPRIT_ERROR_INPUT, "too many tests to count");
        goto done;
    }
    size_t words = spectra->test_count ? spectra->words_per_test : 0;
    failed = (counter_bank){.words = words, .planes = planes_for(failing_count)};
    passed = (counter_bank){.words = words, .planes = planes_for(passing_count)};
    failed.digits = calloc(words * failed.planes + 1, sizeof(uint64_t));
    passed.digits = calloc(words * passed.planes + 1, sizeof(uint64_t));
    if (!failed.digits || !passed.digits) {
        status = culprit_fail_memory(err);
        goto done;
    }
    bank_add_rows(&failed, spectra, failing, failing_count);
    bank_add_rows(&passed, spectra, passing, passing_count);
    for (size_t element = 0; element < spectra->element_count; element++) {
        uint32_t ef = words ? bank_count(&failed, element / 64, element % 64) : 0;
        uint32_t ep = words ? bank_count(&passed, element / 64, element % 64) : 0;
        tallies[element] = (culprit_tally){
            .ef = ef, .ep = ep, .nf = (uint32_t)failing_count - ef, .np = (uint32_t)passing_count - ep};
    }
    totals->failing = (uint32_t)failing_count;
    totals->passing = (uint32_t)passing_count;
done:
    free(failing);
    free(passing);
    free(failed.digits);
    free(passed.digits);
    return status;
}
