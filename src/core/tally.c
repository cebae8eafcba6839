/*
 * tally.c - (ef, ep, nf, np) for every element in one pass over the hit rows.
 *
 * Counting how many rows set each bit is done with bit-sliced counters:
 * for every 64-element word of a row we keep the count of each of its 64
 * bits "vertically", one 64-bit plane per binary digit, and add a row with
 * word-wide AND/XOR carries.  Rows are first added in groups of up to 31
 * into 5-plane partial counters held in registers (a branch-free adder), and
 * each partial sum is then added into the wide counters.  The cost is a few
 * word operations per row word - the same order as merely reading the
 * matrix - and there is no loop over tests per element.  Failing and passing
 * rows are counted into separate counter banks.
 *
 * The adder is written once, over a vector of LANES words (GCC vector
 * extensions), and compiled three times: for AVX-512 (8 words), AVX2 (4) and
 * plain 64-bit words; the widest the CPU supports is chosen at run time.
 * The counters are plane-major (all words of plane 0, then plane 1, ...) so
 * that a vector of neighbouring words is one load in every plane.  Together
 * with software prefetch this brings the tally to about 3x the time of
 * merely reading the matrix once (BENCHMARKS.md).
 */
#include <stdlib.h>
#include <string.h>

#include "culprit/spectra.h"

enum { GROUP_SIZE = 31 }; /* the most a 5-bit partial counter holds */
/* Each group reads fifteen rows side by side, more streams than the hardware
 * prefetcher follows; asking for the bytes 1 KiB ahead in each row halved the
 * tally's time on the benchmark (bench/bench_rank.c; 256 B to 1 KiB measured
 * alike, 2 KiB worse).  A prefetch past the end of a row is harmless. */
enum { PREFETCH_BYTES = 1024 };

typedef struct counter_bank {
    size_t words;     /* words per row */
    unsigned planes;  /* binary digits per counter */
    uint64_t *digits; /* planes * words: digits[plane * words + word] */
} counter_bank;

typedef struct row_group {
    const uint64_t *rows[GROUP_SIZE];
    size_t count;
} row_group;

/* Defines add_group_LANES(bank, group, first_word): adds the group's words
 * [first_word, first_word + LANES) into the bank.  VECTOR is a vector type of
 * LANES uint64_t (or uint64_t itself when LANES is 1). */
#define DEFINE_ADD_GROUP(NAME, VECTOR, LANES, TARGET)                                                        \
    TARGET static void NAME(counter_bank *bank, const row_group *group, size_t first_word)                   \
    {                                                                                                        \
        VECTOR partial0 = {0}, partial1 = {0}, partial2 = {0}, partial3 = {0}, partial4 = {0};               \
        for (size_t r = 0; r < group->count; r++) {                                                          \
            VECTOR bits;                                                                                     \
            __builtin_prefetch((const char *)((uintptr_t)(group->rows[r] + first_word) + PREFETCH_BYTES));   \
            memcpy(&bits, group->rows[r] + first_word, sizeof bits);                                         \
            VECTOR carry0 = partial0 & bits;                                                                 \
            partial0 ^= bits;                                                                                \
            VECTOR carry1 = partial1 & carry0;                                                               \
            partial1 ^= carry0;                                                                              \
            VECTOR carry2 = partial2 & carry1;                                                               \
            partial2 ^= carry1;                                                                              \
            VECTOR carry3 = partial3 & carry2;                                                               \
            partial3 ^= carry2;                                                                              \
            partial4 ^= carry3;                                                                              \
        }                                                                                                    \
        const VECTOR partial[5] = {partial0, partial1, partial2, partial3, partial4};                        \
        VECTOR carry = {0};                                                                                  \
        for (unsigned plane = 0; plane < bank->planes; plane++) {                                            \
            uint64_t *at = bank->digits + plane * bank->words + first_word;                                  \
            VECTOR digit, addend = plane < 5 ? partial[plane] : (VECTOR){0};                                 \
            memcpy(&digit, at, sizeof digit);                                                                \
            VECTOR sum = digit ^ addend ^ carry;                                                             \
            carry = (digit & addend) | (carry & (digit ^ addend));                                           \
            memcpy(at, &sum, sizeof sum);                                                                    \
            if (plane >= 4 && vector_is_zero_##NAME(carry))                                                  \
                break;                                                                                       \
        }                                                                                                    \
    }

typedef uint64_t words8 __attribute__((vector_size(64)));
typedef uint64_t words4 __attribute__((vector_size(32)));

#define TARGET_AVX512 __attribute__((target("avx512f")))
#define TARGET_AVX2 __attribute__((target("avx2")))
#define TARGET_PLAIN

TARGET_AVX512 static int vector_is_zero_add_group_avx512(words8 v)
{
    uint64_t any = 0;
    for (int i = 0; i < 8; i++)
        any |= v[i];
    return any == 0;
}

TARGET_AVX2 static int vector_is_zero_add_group_avx2(words4 v)
{
    return (v[0] | v[1] | v[2] | v[3]) == 0;
}

static int vector_is_zero_add_group_plain(uint64_t v)
{
    return v == 0;
}

DEFINE_ADD_GROUP(add_group_avx512, words8, 8, TARGET_AVX512)
DEFINE_ADD_GROUP(add_group_avx2, words4, 4, TARGET_AVX2)
DEFINE_ADD_GROUP(add_group_plain, uint64_t, 1, TARGET_PLAIN)

typedef void (*add_group_function)(counter_bank *bank, const row_group *group, size_t first_word);

/* The widest kernel this CPU runs, and how many words it takes at once. */
static add_group_function widest_kernel(size_t *lanes)
{
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) {
        *lanes = 8;
        return add_group_avx512;
    }
    if (__builtin_cpu_supports("avx2")) {
        *lanes = 4;
        return add_group_avx2;
    }
#endif
    *lanes = 1;
    return add_group_plain;
}

/* Counts the rows listed in tests[0..count) into bank. */
static void bank_add_rows(counter_bank *bank, const culprit_spectra *spectra, const size_t *tests,
                          size_t count)
{
    size_t lanes;
    add_group_function add_group = widest_kernel(&lanes);
    size_t vector_words = bank->words - bank->words % lanes;
    for (size_t first = 0; first < count; first += GROUP_SIZE) {
        row_group group = {.count = count - first < GROUP_SIZE ? count - first : GROUP_SIZE};
        for (size_t r = 0; r < group.count; r++)
            group.rows[r] = culprit_spectra_row(spectra, tests[first + r]);
        for (size_t word = 0; word < vector_words; word += lanes)
            add_group(bank, &group, word);
        for (size_t word = vector_words; word < bank->words; word++)
            add_group_plain(bank, &group, word);
    }
}

/* Reads the 64 counters of word `word` into counts[64]: each plane adds its
 * digit to the counters whose bit is set, so the cost follows the set bits
 * rather than 64 x planes. */
static void bank_read_word(const counter_bank *bank, size_t word, uint32_t counts[64])
{
    memset(counts, 0, 64 * sizeof *counts);
    for (unsigned plane = 0; plane < bank->planes; plane++) {
        for (uint64_t bits = bank->digits[plane * bank->words + word]; bits; bits &= bits - 1)
            counts[__builtin_ctzll(bits)] |= (uint32_t)1 << plane;
    }
}

/* Turns the two banks into one tally per element. */
static void write_tallies(const counter_bank *failed, const counter_bank *passed, size_t element_count,
                          const culprit_totals *totals, culprit_tally *tallies)
{
    uint32_t failing[64], passing[64];
    for (size_t word = 0; word * 64 < element_count; word++) {
        bank_read_word(failed, word, failing);
        bank_read_word(passed, word, passing);
        for (size_t bit = 0; bit < 64 && word * 64 + bit < element_count; bit++)
            tallies[word * 64 + bit] = (culprit_tally){.ef = failing[bit],
                                                       .ep = passing[bit],
                                                       .nf = totals->failing - failing[bit],
                                                       .np = totals->passing - passing[bit]};
    }
}

static unsigned planes_for(size_t maximum)
{
    unsigned planes = 5; /* the partial counters' width: the adder writes at least 5 planes */
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
    totals->failing = (uint32_t)failing_count;
    totals->passing = (uint32_t)passing_count;
    if (words)
        write_tallies(&failed, &passed, spectra->element_count, totals, tallies);
    else
        for (size_t element = 0; element < spectra->element_count; element++)
            tallies[element] = (culprit_tally){.nf = totals->failing, .np = totals->passing};
done:
    free(failing);
    free(passing);
    free(failed.digits);
    free(passed.digits);
    return status;
}
