/*
 * eval.h - measuring how well a ranking finds known faults (TECHNIQUES.md §9).
 *
 * `culprit eval` is built from four steps, each a function here:
 *
 *   1. culprit_faults_read/parse: a faults file, one `FILE:LINE` per line;
 *   2. culprit_program_lines_build + culprit_faults_resolve: the program's
 *      executable lines (every line entity of the line view, executed or
 *      not) and which of them the faults name;
 *   3. culprit_eval_measure: for one ranking, the rank of the first faulty
 *      line (the faulty line ranked best) and its EXAM score;
 *   4. culprit_eval_summarize: over many faulty versions, per technique, the
 *      mean and standard deviation of EXAM, the share of faults located
 *      within 1/5/10/15/20% of the code, top-N counts and the curve "% of
 *      faults located against % of code examined".
 *
 * EXAM values are fractions (0.05 is 5%); fields named *_percent are 0..100.
 * Nothing here prints; reading and writing result files is the CLI's job.
 */
#ifndef CULPRIT_EVAL_H
#define CULPRIT_EVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "culprit/rank.h"
#include "culprit/spectra.h"

/* One faulty line as written in a faults file. */
typedef struct culprit_fault {
    char *file;         /* owned; the path as written */
    uint32_t line;      /* the faulty line, 1-based */
    size_t source_line; /* where it was written in the faults file, for messages */
} culprit_fault;

typedef struct culprit_fault_list {
    char *path; /* owned; the faults file's name, used in messages */
    size_t count, capacity;
    culprit_fault *faults;
} culprit_fault_list;

CULPRIT_API void culprit_fault_list_init(culprit_fault_list *faults);
CULPRIT_API void culprit_fault_list_free(culprit_fault_list *faults);

/* Parses text (length bytes, need not be terminated) of the faults file
 * named path into an initialised, empty list.  `#` starts a comment (at the
 * start of a line or after a blank); blank lines are skipped; every other
 * line must be FILE:LINE, split at the last ':'.  A malformed line is
 * CULPRIT_ERROR_INPUT "PATH:LINE:COLUMN: expected FILE:LINE, ..." pointing at
 * the offending character; a file without any fault is an error too. */
CULPRIT_API culprit_status culprit_faults_parse(const char *path, const char *text, size_t length,
                                                culprit_fault_list *faults, culprit_error *err);

/* Reads and parses the file at path. */
CULPRIT_API culprit_status culprit_faults_read(const char *path, culprit_fault_list *faults,
                                               culprit_error *err);

/* Whether a path written by a user names a path stored in the program:
 * equal, or one is a suffix of the other starting after a '/', so
 * "src/x.c" matches "/home/me/proj/src/x.c" and "./src/x.c". */
CULPRIT_API bool culprit_path_matches(const char *fault_path, const char *program_path);

/* One executable line of the program. */
typedef struct culprit_program_line {
    uint32_t file, line;
    bool executed; /* some element on it was run by a test that takes part */
} culprit_program_line;

/* The executable lines: the distinct (file, line) of the elements the rank
 * options select that have a file and a line, exactly the entities of the
 * line view, whether any test ran them or not. */
typedef struct culprit_program_lines {
    size_t count;
    size_t executed_count;
    culprit_program_line *lines; /* owned; sorted by file index, then line */
} culprit_program_lines;

/* tallies[] is indexed by element (from culprit_spectra_tally). */
CULPRIT_API culprit_status culprit_program_lines_build(const culprit_spectra *spectra,
                                                       const culprit_tally *tallies,
                                                       const culprit_rank_options *options,
                                                       culprit_program_lines *lines, culprit_error *err);
CULPRIT_API void culprit_program_lines_free(culprit_program_lines *lines);

/* Keeps the lines of the files kept_files[] keeps (path_filter.h): EXAM's
 * denominators become the kept lines, as the ranking culprit_ranking_keep_files
 * leaves.  kept_files NULL keeps every line. */
CULPRIT_API void culprit_program_lines_keep_files(culprit_program_lines *lines, const bool *kept_files);

/* Where a fault lies in the program: a file index and a line. */
typedef struct culprit_fault_location {
    uint32_t file, line;
} culprit_fault_location;

/* Finds each fault among the program's files (an exact path first, else
 * the single file matching by culprit_path_matches) and checks that its
 * line is executable.  locations[] has faults->count entries.  Errors are
 * CULPRIT_ERROR_INPUT at the fault's position in the faults file. */
CULPRIT_API culprit_status culprit_faults_resolve(const culprit_fault_list *faults,
                                                  const culprit_spectra *spectra,
                                                  const culprit_program_lines *lines,
                                                  culprit_fault_location *locations, culprit_error *err);

/* Well-localized: EXAM below 1%. */
#define CULPRIT_EVAL_WELL_LOCALIZED 0.01

/* The measures of one ranking against one set of faults. */
typedef struct culprit_eval_measures {
    size_t first_fault; /* index into the locations of the faulty line ranked best */
    size_t entry;       /* its index in the ranking */
    double best_rank, worst_rank, average_rank;
    culprit_tie_policy ties; /* which of the three `rank` and EXAM use */
    double rank;
    size_t executable_lines; /* N: all line entities */
    size_t executed_lines;   /* N over the lines run by some test */
    double exam;             /* rank / executable_lines */
    double exam_executed;    /* rank / executed_lines (NAN when none ran; may exceed 1
                                when the faulty line never ran) */
    bool well_localized;     /* exam < CULPRIT_EVAL_WELL_LOCALIZED */
} culprit_eval_measures;

/* ranking must be a line-view ranking of the same elements as lines.
 * Fails (internal error) when the two disagree on the number of lines. */
CULPRIT_API culprit_status culprit_eval_measure(const culprit_ranking *ranking,
                                                const culprit_program_lines *lines,
                                                const culprit_fault_location *locations,
                                                size_t location_count, culprit_tie_policy ties,
                                                culprit_eval_measures *measures, culprit_error *err);

/* The checkpoints of the summary. */
enum { CULPRIT_EVAL_THRESHOLD_COUNT = 5, CULPRIT_EVAL_TOP_COUNT = 3 };
/* 1, 5, 10, 15, 20: percent of code examined. */
CULPRIT_API extern const double culprit_eval_thresholds_percent[CULPRIT_EVAL_THRESHOLD_COUNT];
/* 1, 5, 10: top-N. */
CULPRIT_API extern const unsigned culprit_eval_top_n[CULPRIT_EVAL_TOP_COUNT];

/* One faulty version evaluated by one technique: the input of the summary. */
typedef struct culprit_eval_record {
    const char *technique; /* borrowed; a formula name */
    const char *version;   /* borrowed; which faulty version */
    double rank;           /* rank of the first faulty line */
    double exam;           /* EXAM under the denominator the summary is about */
} culprit_eval_record;

/* A corner of the step curve: from code_percent on (up to the next corner's
 * code_percent, exclusive) faults_percent of the faults are located. */
typedef struct culprit_curve_point {
    double code_percent, faults_percent;
} culprit_curve_point;

typedef struct culprit_eval_summary {
    char *technique; /* owned */
    size_t fault_count;
    double exam_mean;
    double exam_sd; /* sample standard deviation; NAN with fewer than two faults */
    double within_percent[CULPRIT_EVAL_THRESHOLD_COUNT]; /* % of faults with EXAM <= threshold */
    size_t top_count[CULPRIT_EVAL_TOP_COUNT];            /* faults with rank <= N */
    double top_percent[CULPRIT_EVAL_TOP_COUNT];
    double well_localized_percent; /* % of faults with EXAM < 1% */
    /* The curve's corners: (0, %EXAM<=0), then one per distinct EXAM value
     * in (0, 1], then (100, %EXAM<=1). */
    size_t curve_count;
    culprit_curve_point *curve; /* owned */
} culprit_eval_summary;

typedef struct culprit_eval_summaries {
    size_t count;
    culprit_eval_summary *items; /* owned; techniques in order of first appearance */
} culprit_eval_summaries;

/* Groups records by technique and summarises each group.  A technique that
 * has two records of one version is CULPRIT_ERROR_INPUT (a results file
 * given twice would otherwise count its faults twice). */
CULPRIT_API culprit_status culprit_eval_summarize(const culprit_eval_record *records, size_t count,
                                                  culprit_eval_summaries *summaries, culprit_error *err);
CULPRIT_API void culprit_eval_summaries_free(culprit_eval_summaries *summaries);

#endif
