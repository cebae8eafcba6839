/*
 * fuzz_store.c - the store loader on a corrupted database (src/store/,
 * culprit_store_open read-only and every load): the input is the whole
 * culprit.db file, the seeds small stores (page size 512) that `culprit
 * import` and `culprit test` made.  Each run loads what `culprit rank`,
 * `tests`, `failures`, `output`, `export json` and `report` load - the
 * current program, its tests, judgements, units, structure and graph,
 * failure clusters, output maps - then ranks it with every technique, which
 * must cope with whatever an accepted store holds.  Errors are the expected answer; a crash, a
 * sanitizer report or a leak is a finding.
 */
#include "fuzz.h"

#include "culprit/judgement.h"
#include "culprit/store.h"
#include "culprit/techniques.h"

/* Every technique (and the default method) over what was loaded. */
static void rank_all(culprit_spectra *spectra, const culprit_program_graph *graph,
                     const culprit_failure_clusters *clusters)
{
    culprit_error err = {0};
    culprit_verdict_policy policy = culprit_verdict_policy_default();
    bool *blamed = calloc(spectra->element_count + 1, sizeof *blamed);
    FUZZ_REQUIRE(blamed);
    culprit_failure_choice choice = {.cluster = clusters->count > 0, .need_blame = false};
    size_t blamed_count = 0;
    if (culprit_output_mapping_choose(spectra, &policy, clusters, &choice, blamed, &blamed_count, &err)) {
        free(blamed);
        return;
    }
    culprit_output_mapping mapping = culprit_output_mapping_default();
    mapping.blamed = blamed;
    culprit_technique_input input = {
        .spectra = spectra, .policy = policy, .graph = graph, .mapping = mapping};
    culprit_rank_options options = {.kind = CULPRIT_KIND_LINE, .view = CULPRIT_VIEW_LINE};
    for (size_t i = 0; i <= culprit_technique_count(); i++) {
        culprit_method method;
        if (i < culprit_technique_count() &&
            culprit_method_find(culprit_technique_at(i)->name, NULL, &method, &err) != CULPRIT_OK)
            continue;
        culprit_method_ranking ranked = {0};
        culprit_rank_method(i < culprit_technique_count() ? &method : NULL, &input, &options, &ranked, &err);
        culprit_method_ranking_free(&ranked);
    }
    free(blamed);
}

/* The structure `culprit export json` writes. */
static void export_structure(culprit_store *store, int64_t program, const culprit_spectra *spectra)
{
    culprit_error err = {0};
    culprit_program_structure structure;
    culprit_program_structure_init(&structure);
    if (culprit_store_load_program_structure(store, program, spectra, &structure, &err) == CULPRIT_OK)
        culprit_json_write(spectra, &structure, fuzz_null(), &err);
    culprit_program_structure_free(&structure);
}

static void load_program(culprit_store *store, int64_t program)
{
    culprit_error err = {0};
    char hash[65];
    culprit_store_program_hash(store, program, hash, &err);
    culprit_test_records records = {0};
    if (culprit_test_records_load(store, program, &records, &err) == CULPRIT_OK) {
        for (size_t t = 0; t < records.count && t < 4; t++) {
            culprit_output_map map;
            if (culprit_output_statements(store, program, records.tests[t].name, &map, &err) == CULPRIT_OK)
                culprit_output_map_free(&map);
        }
        culprit_test_records_free(&records);
    }
    culprit_unit_set units;
    culprit_unit_set_init(&units);
    culprit_store_program_units(store, program, &units, &err);
    culprit_unit_set_free(&units);
    culprit_spectra spectra;
    culprit_spectra_init(&spectra);
    culprit_program_graph graph;
    culprit_program_graph_init(&graph);
    culprit_failure_clusters clusters = {0};
    if (culprit_store_load(store, program, &spectra, &err) == CULPRIT_OK &&
        culprit_store_load_program_graph(store, program, &spectra, &graph, &err) == CULPRIT_OK &&
        culprit_failure_clusters_load(store, program, &clusters, &err) == CULPRIT_OK) {
        fuzz_use_spectra(&spectra);
        export_structure(store, program, &spectra);
        rank_all(&spectra, &graph, &clusters);
    }
    culprit_failure_clusters_free(&clusters);
    culprit_program_graph_free(&graph);
    culprit_spectra_free(&spectra);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char *directory;
    if (!directory)
        FUZZ_REQUIRE(directory = strdup(fuzz_directory_path("store")));
    static const char *const leftovers[] = {"store/culprit.db-wal", "store/culprit.db-shm",
                                            "store/culprit.db-journal"};
    for (size_t i = 0; i < sizeof leftovers / sizeof *leftovers; i++)
        unlink(fuzz_path(leftovers[i]));
    fuzz_write("store/culprit.db", data, size);
    culprit_store *store;
    culprit_error err = {0};
    if (culprit_store_open(directory, CULPRIT_STORE_READ, &store, &err) != CULPRIT_OK)
        return 0;
    int64_t program = 0;
    if (culprit_store_current_program(store, &program, &err) == CULPRIT_OK && program != 0)
        load_program(store, program);
    culprit_store_close(store);
    return 0;
}
