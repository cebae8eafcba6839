/*
 * collect.c - one test's collection directory -> its record (§6 of
 * docs/collector.md): every process's dump summed per (unit, counter), the
 * crash site, and the output records of all processes.
 *
 * A test may fork and exec, so it leaves one dump per process (and per exec
 * within a process) and one map per unit any of them loaded.  Dumps are
 * read in (pid, file name) order so that the record does not depend on
 * directory order.  Dumps refer to units by their position in that dump;
 * the record refers to them by position in its own hash-sorted unit list.
 * What a test leaves is bounded (core/input_limits.h): the number of maps
 * and dumps, and the bytes of all its dumps, which are read together.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/grow.h"
#include "core/input_limits.h"
#include "core/read_file.h"
#include "culprit/collect.h"

typedef struct name_list {
    size_t count, capacity;
    char **names;
} name_list;

typedef struct loaded_dump {
    char *name;
    culprit_dump dump;
} loaded_dump;

/* What summing needs of a unit: from its parsed map, or from the store's
 * counting plan for a unit the collector was told it need not parse. */
typedef struct unit_shape {
    const char *hash;
    uint32_t counter_count, block_count;
} unit_shape;

/* Summing state: one dense array of counts per collected unit. */
typedef struct unit_sums {
    size_t count;
    unit_shape *units; /* sorted by hash */
    uint64_t **sums;
} unit_sums;

static bool has_suffix(const char *name, const char *suffix)
{
    size_t length = strlen(name), suffix_length = strlen(suffix);
    return length > suffix_length && strcmp(name + length - suffix_length, suffix) == 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_names(name_list *list)
{
    for (size_t i = 0; i < list->count; i++)
        free(list->names[i]);
    free(list->names);
    *list = (name_list){0};
}

static culprit_status add_name(name_list *list, const char *directory, const char *name, culprit_error *err)
{
    if (!CULPRIT_GROW(list->names, list->capacity, list->count + 1, 16))
        return culprit_fail_memory(err);
    size_t length = strlen(directory) + strlen(name) + 2;
    char *path = malloc(length);
    if (!path)
        return culprit_fail_memory(err);
    snprintf(path, length, "%s/%s", directory, name);
    list->names[list->count++] = path;
    return CULPRIT_OK;
}

/* The paths of directory's maps and dumps, each list sorted.  Names that
 * start with '.' are the runtime's files in progress. */
static culprit_status list_directory(const char *directory, name_list *maps, name_list *dumps,
                                     culprit_error *err)
{
    DIR *handle = opendir(directory);
    if (!handle)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: cannot open the collection directory: %s",
                            directory, strerror(errno));
    culprit_status status = CULPRIT_OK;
    struct dirent *entry;
    while (status == CULPRIT_OK && (entry = readdir(handle))) {
        if (entry->d_name[0] == '.')
            continue;
        if (maps->count + dumps->count >= CULPRIT_LIMIT_TEST_FILES) {
            status = culprit_fail(err, CULPRIT_ERROR_INPUT,
                                  "%s: more than %d maps and dumps, the most culprit reads for a test "
                                  "(docs/formats.md, Bounds)",
                                  directory, CULPRIT_LIMIT_TEST_FILES);
            break;
        }
        if (has_suffix(entry->d_name, ".map"))
            status = add_name(maps, directory, entry->d_name, err);
        else if (has_suffix(entry->d_name, ".dump"))
            status = add_name(dumps, directory, entry->d_name, err);
    }
    closedir(handle);
    if (maps->count > 1)
        qsort(maps->names, maps->count, sizeof *maps->names, compare_names);
    if (dumps->count > 1)
        qsort(dumps->names, dumps->count, sizeof *dumps->names, compare_names);
    return status;
}

static int compare_dumps(const void *a, const void *b)
{
    const loaded_dump *left = a, *right = b;
    if (left->dump.pid != right->dump.pid)
        return left->dump.pid < right->dump.pid ? -1 : 1;
    return strcmp(left->name, right->name);
}

/* All of a test's dumps are in memory at once: their bytes together are
 * bounded as well as each file's (core/input_limits.h). */
static culprit_status load_dumps(const name_list *paths, loaded_dump *dumps, culprit_error *err)
{
    size_t total = 0, limit = (size_t)CULPRIT_LIMIT_TEST_DUMPS_MIB * CULPRIT_MIB;
    for (size_t i = 0; i < paths->count; i++) {
        struct stat info; /* a file past a dump's own bound fails as such when read */
        if (stat(paths->names[i], &info) == 0 && S_ISREG(info.st_mode) &&
            (uintmax_t)info.st_size <= (uintmax_t)CULPRIT_LIMIT_DUMP_MIB * CULPRIT_MIB &&
            (total += (size_t)info.st_size) > limit)
            return culprit_fail_too_large(err, paths->names[i], "the dumps of one test", limit);
        dumps[i].name = paths->names[i];
        culprit_status status = culprit_dump_read_file(paths->names[i], &dumps[i].dump, err);
        if (status != CULPRIT_OK)
            return status;
    }
    if (paths->count > 1)
        qsort(dumps, paths->count, sizeof *dumps, compare_dumps);
    return CULPRIT_OK;
}

/* The shape of unit hash: its map's, else the known plan's. */
static bool find_shape(const culprit_unit_set *maps, const culprit_count_plan *known, const char *hash,
                       unit_shape *shape)
{
    const culprit_unit *map = culprit_unit_set_find(maps, hash);
    if (map) {
        *shape = (unit_shape){map->hash, map->counter_count, map->block_count};
        return true;
    }
    const culprit_plan_unit *planned = known ? culprit_count_plan_find(known, hash) : NULL;
    if (planned)
        *shape = (unit_shape){planned->hash, planned->counter_count, planned->block_count};
    return planned != NULL;
}

/* Checks that every unit of every dump has a matching map (or plan unit). */
static culprit_status check_dump_units(const loaded_dump *dumps, size_t count, const culprit_unit_set *maps,
                                       const culprit_count_plan *known, culprit_error *err)
{
    for (size_t d = 0; d < count; d++) {
        for (size_t u = 0; u < dumps[d].dump.unit_count; u++) {
            const culprit_dump_unit *unit = &dumps[d].dump.units[u];
            unit_shape shape;
            if (!find_shape(maps, known, unit->hash, &shape))
                return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: unit %s has no map in the directory",
                                    dumps[d].name, unit->hash);
            if (shape.counter_count != unit->counter_count)
                return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: unit %s has %u counters, its map says %u",
                                    dumps[d].name, unit->hash, (unsigned)unit->counter_count,
                                    (unsigned)shape.counter_count);
        }
    }
    return CULPRIT_OK;
}

/* The index of hash among the sorted collected units. */
static uint32_t find_collected(const unit_sums *sums, const char *hash)
{
    size_t low = 0, high = sums->count;
    while (low < high) {
        size_t middle = (low + high) / 2;
        int order = strcmp(sums->units[middle].hash, hash);
        if (order == 0)
            return (uint32_t)middle;
        if (order < 0)
            low = middle + 1;
        else
            high = middle;
    }
    return UINT32_MAX;
}

static int compare_shapes(const void *a, const void *b)
{
    return strcmp(((const unit_shape *)a)->hash, ((const unit_shape *)b)->hash);
}

/* Picks the units that some dump names, sorted by hash (each dump's units
 * were checked to have a shape). */
static culprit_status choose_units(const loaded_dump *dumps, size_t count, const culprit_unit_set *maps,
                                   const culprit_count_plan *known, unit_sums *sums, culprit_error *err)
{
    size_t named = 0;
    for (size_t d = 0; d < count; d++)
        named += dumps[d].dump.unit_count;
    sums->units = calloc(named ? named : 1, sizeof *sums->units);
    sums->sums = calloc(named ? named : 1, sizeof *sums->sums);
    if (!sums->units || !sums->sums)
        return culprit_fail_memory(err);
    for (size_t d = 0; d < count; d++)
        for (size_t u = 0; u < dumps[d].dump.unit_count; u++)
            find_shape(maps, known, dumps[d].dump.units[u].hash, &sums->units[sums->count++]);
    if (sums->count > 1)
        qsort(sums->units, sums->count, sizeof *sums->units, compare_shapes);
    size_t distinct = 0;
    for (size_t u = 0; u < sums->count; u++)
        if (distinct == 0 || strcmp(sums->units[distinct - 1].hash, sums->units[u].hash) != 0)
            sums->units[distinct++] = sums->units[u];
    sums->count = distinct;
    for (size_t u = 0; u < sums->count; u++)
        if (!(sums->sums[u] = calloc((size_t)sums->units[u].counter_count + 1, sizeof(uint64_t))))
            return culprit_fail_memory(err);
    return CULPRIT_OK;
}

static void add_counts(const culprit_dump *dump, unit_sums *sums)
{
    for (size_t u = 0; u < dump->unit_count; u++) {
        const culprit_dump_unit *unit = &dump->units[u];
        uint64_t *sum = sums->sums[find_collected(sums, unit->hash)];
        for (size_t i = 0; i < unit->length; i++) {
            uint64_t *slot = &sum[unit->counters[i]];
            *slot = unit->counts[i] > UINT64_MAX - *slot ? UINT64_MAX : *slot + unit->counts[i];
        }
    }
}

/* The blocks on a crashed process's stack ran, whatever their counters say:
 * full mode's counters are plain load/add/store, which the optimiser may
 * keep in a register through a loop, so a crash inside the loop loses the
 * loop's counts, the crashing block's included (its frame, a volatile
 * store, is exact).  Frames naming no block are left to take_crash. */
static void count_stack_blocks(const culprit_dump *dump, unit_sums *sums)
{
    if (!dump->crashed)
        return;
    for (uint32_t i = 0; i < dump->stack_depth; i++) {
        const culprit_site *site = &dump->stack[i];
        uint32_t unit = find_collected(sums, dump->units[site->unit].hash);
        if (site->block < sums->units[unit].block_count && sums->sums[unit][site->block] == 0)
            sums->sums[unit][site->block] = 1;
    }
}

static culprit_status make_sparse(const unit_sums *sums, culprit_collected *collected, culprit_error *err)
{
    collected->units = calloc(sums->count ? sums->count : 1, sizeof *collected->units);
    if (!collected->units)
        return culprit_fail_memory(err);
    for (size_t u = 0; u < sums->count; u++) {
        culprit_unit_counts *counts = &collected->units[u];
        collected->unit_count++;
        snprintf(counts->hash, sizeof counts->hash, "%.64s", sums->units[u].hash);
        counts->counter_count = sums->units[u].counter_count;
        size_t nonzero = 0;
        for (uint32_t c = 0; c < counts->counter_count; c++)
            nonzero += sums->sums[u][c] != 0;
        counts->counters = malloc((nonzero ? nonzero : 1) * sizeof *counts->counters);
        counts->counts = malloc((nonzero ? nonzero : 1) * sizeof *counts->counts);
        if (!counts->counters || !counts->counts)
            return culprit_fail_memory(err);
        for (uint32_t c = 0; c < counts->counter_count; c++) {
            if (sums->sums[u][c] == 0)
                continue;
            counts->counters[counts->length] = c;
            counts->counts[counts->length++] = sums->sums[u][c];
        }
    }
    return CULPRIT_OK;
}

/* Translates a dump's frame into the record's unit numbering, checking
 * that it names a block. */
static culprit_status translate_site(const loaded_dump *loaded, const unit_sums *sums, culprit_site *site,
                                     culprit_error *err)
{
    const char *hash = loaded->dump.units[site->unit].hash;
    uint32_t unit = find_collected(sums, hash);
    if (site->block >= sums->units[unit].block_count)
        return culprit_fail(err, CULPRIT_ERROR_INPUT,
                            "%s: a frame names counter %u of unit %s, which has %u blocks", loaded->name,
                            (unsigned)site->block, hash, (unsigned)sums->units[unit].block_count);
    site->unit = unit;
    return CULPRIT_OK;
}

/* The dump whose crash site the record takes: the harness's child's if it
 * crashed, else the first crashed one in pid order; NULL when none did. */
static const loaded_dump *crash_dump(const loaded_dump *dumps, size_t count, int32_t child_pid)
{
    for (size_t d = 0; d < count; d++)
        if (dumps[d].dump.crashed && dumps[d].dump.pid == child_pid)
            return &dumps[d];
    for (size_t d = 0; d < count; d++)
        if (dumps[d].dump.crashed)
            return &dumps[d];
    return NULL;
}

static culprit_status take_crash(const loaded_dump *dumps, size_t count, int32_t child_pid,
                                 const unit_sums *sums, culprit_collected *collected, culprit_error *err)
{
    const loaded_dump *crashed = crash_dump(dumps, count, child_pid);
    if (!crashed)
        return CULPRIT_OK;
    collected->crashed = true;
    collected->crash_pid = crashed->dump.pid;
    collected->crash_signal = crashed->dump.status;
    collected->crash_depth = crashed->dump.stack_depth;
    for (uint32_t i = 0; i < crashed->dump.stack_depth; i++) {
        collected->crash_stack[i] = crashed->dump.stack[i];
        culprit_status status = translate_site(crashed, sums, &collected->crash_stack[i], err);
        if (status != CULPRIT_OK)
            return status;
    }
    return CULPRIT_OK;
}

static int compare_outputs(const void *a, const void *b)
{
    const culprit_output_record *left = a, *right = b;
    if (left->stream != right->stream)
        return left->stream < right->stream ? -1 : 1;
    if (left->pid != right->pid)
        return left->pid < right->pid ? -1 : 1;
    if (left->offset != right->offset)
        return left->offset < right->offset ? -1 : 1;
    return 0;
}

static culprit_status take_outputs(const loaded_dump *dumps, size_t count, const unit_sums *sums,
                                   culprit_collected *collected, culprit_error *err)
{
    size_t total = 0;
    for (size_t d = 0; d < count; d++)
        total += dumps[d].dump.output_count;
    collected->outputs = calloc(total ? total : 1, sizeof *collected->outputs);
    if (!collected->outputs)
        return culprit_fail_memory(err);
    for (size_t d = 0; d < count; d++) {
        for (size_t r = 0; r < dumps[d].dump.output_count; r++) {
            culprit_output_record *record = &collected->outputs[collected->output_count++];
            *record = dumps[d].dump.outputs[r];
            for (uint32_t f = 0; f < record->depth; f++) {
                culprit_status status = translate_site(&dumps[d], sums, &record->frames[f], err);
                if (status != CULPRIT_OK)
                    return status;
            }
        }
    }
    /* Records of one process are already in offset order; the sort groups
     * streams and processes (ties keep no meaning, so qsort's instability is harmless). */
    if (collected->output_count > 1)
        qsort(collected->outputs, collected->output_count, sizeof *collected->outputs, compare_outputs);
    return CULPRIT_OK;
}

static void free_sums(unit_sums *sums)
{
    for (size_t u = 0; u < sums->count; u++)
        free(sums->sums[u]);
    free(sums->sums);
    free(sums->units);
}

/* The hash a map file at path (named HASH.map) is named by, or NULL. */
static const char *map_file_hash(const char *path)
{
    const char *name = strrchr(path, '/');
    name = name ? name + 1 : path;
    return strlen(name) == 64 + strlen(".map") ? name : NULL;
}

/* Whether a crashed process's stack names unit hash: the crash site is
 * described from the unit's blocks, so its map is read whatever is known. */
static bool on_a_crash_stack(const loaded_dump *dumps, size_t count, const char *hash)
{
    for (size_t d = 0; d < count; d++)
        for (uint32_t i = 0; dumps[d].dump.crashed && i < dumps[d].dump.stack_depth; i++) {
            uint32_t unit = dumps[d].dump.stack[i].unit;
            if (unit < dumps[d].dump.unit_count && strncmp(dumps[d].dump.units[unit].hash, hash, 64) == 0)
                return true;
        }
    return false;
}

/* Parses the maps that are needed: not those maps already holds (a map is
 * named by the hash of its content, docs/collector.md §4, and every test
 * of a run brings the same ones), nor those of units the known plan
 * describes, which the store already has.  Parsing maps is most of a small
 * test's collection cost. */
static bool map_wanted(const culprit_unit_set *maps, const culprit_count_plan *known,
                       const loaded_dump *dumps, size_t dump_count, const char *hash)
{
    if (culprit_unit_set_find(maps, hash))
        return false;
    return !known || !culprit_count_plan_find(known, hash) || on_a_crash_stack(dumps, dump_count, hash);
}

/* The maps of the units the dumps name that are still wanted, from
 * maps_directory (CULPRIT_MAPS_DIR: maps kept across tests).  Tests can
 * write there, so a map that does not parse is removed as well as
 * reported: the next process writes it again. */
static culprit_status read_kept_maps(const char *maps_directory, const loaded_dump *dumps, size_t dump_count,
                                     const culprit_count_plan *known, culprit_unit_set *maps,
                                     culprit_error *err)
{
    culprit_status status = CULPRIT_OK;
    for (size_t d = 0; d < dump_count && status == CULPRIT_OK; d++)
        for (size_t u = 0; u < dumps[d].dump.unit_count && status == CULPRIT_OK; u++) {
            const char *hash = dumps[d].dump.units[u].hash;
            char path[4096];
            if (!map_wanted(maps, known, dumps, dump_count, hash) ||
                (size_t)snprintf(path, sizeof path, "%s/%s.map", maps_directory, hash) >= sizeof path ||
                access(path, F_OK) != 0)
                continue;
            status = culprit_map_read_file(path, maps, err);
            if (status == CULPRIT_ERROR_INPUT)
                unlink(path);
            culprit_unit_set_sort(maps);
        }
    return status;
}

static culprit_status read_maps(const name_list *map_paths, const char *maps_directory,
                                const loaded_dump *dumps, size_t dump_count, const culprit_count_plan *known,
                                culprit_unit_set *maps, culprit_error *err)
{
    culprit_status status = CULPRIT_OK;
    for (size_t i = 0; i < map_paths->count && status == CULPRIT_OK; i++) {
        const char *hash = map_file_hash(map_paths->names[i]);
        if (!hash || map_wanted(maps, known, dumps, dump_count, hash))
            status = culprit_map_read_file(map_paths->names[i], maps, err);
    }
    culprit_unit_set_sort(maps);
    if (status == CULPRIT_OK && maps_directory)
        status = read_kept_maps(maps_directory, dumps, dump_count, known, maps, err);
    return status;
}

/* Everything after listing: parse, check, sum, and pick. */
static culprit_status collect_listed(const name_list *map_paths, const name_list *dump_paths,
                                     const char *maps_directory, int32_t child_pid,
                                     const culprit_count_plan *known, culprit_unit_set *maps,
                                     culprit_collected *collected, culprit_error *err)
{
    culprit_status status = CULPRIT_OK;
    loaded_dump *dumps = calloc(dump_paths->count ? dump_paths->count : 1, sizeof *dumps);
    unit_sums sums = {0};
    if (!dumps)
        status = culprit_fail_memory(err);
    if (status == CULPRIT_OK)
        status = load_dumps(dump_paths, dumps, err);
    if (status == CULPRIT_OK)
        status = read_maps(map_paths, maps_directory, dumps, dump_paths->count, known, maps, err);
    if (status == CULPRIT_OK)
        status = check_dump_units(dumps, dump_paths->count, maps, known, err);
    if (status == CULPRIT_OK)
        status = choose_units(dumps, dump_paths->count, maps, known, &sums, err);
    for (size_t d = 0; d < dump_paths->count && status == CULPRIT_OK; d++)
        add_counts(&dumps[d].dump, &sums);
    for (size_t d = 0; d < dump_paths->count && status == CULPRIT_OK; d++)
        count_stack_blocks(&dumps[d].dump, &sums);
    if (status == CULPRIT_OK)
        status = make_sparse(&sums, collected, err);
    if (status == CULPRIT_OK)
        status = take_crash(dumps, dump_paths->count, child_pid, &sums, collected, err);
    if (status == CULPRIT_OK)
        status = take_outputs(dumps, dump_paths->count, &sums, collected, err);
    collected->dump_count = dump_paths->count;
    free_sums(&sums);
    for (size_t d = 0; dumps && d < dump_paths->count; d++)
        culprit_dump_free(&dumps[d].dump);
    free(dumps);
    return status;
}

culprit_status culprit_collect_directory_known(const char *directory, const char *maps_directory,
                                               int32_t child_pid, const culprit_count_plan *known,
                                               culprit_unit_set *maps, culprit_collected *collected,
                                               culprit_error *err)
{
    name_list map_paths = {0}, dump_paths = {0};
    culprit_collected_init(collected);
    culprit_status status = list_directory(directory, &map_paths, &dump_paths, err);
    if (status == CULPRIT_OK)
        status =
            collect_listed(&map_paths, &dump_paths, maps_directory, child_pid, known, maps, collected, err);
    free_names(&map_paths);
    free_names(&dump_paths);
    if (status != CULPRIT_OK)
        culprit_collected_free(collected);
    return status;
}

culprit_status culprit_collect_directory(const char *directory, int32_t child_pid, culprit_unit_set *maps,
                                         culprit_collected *collected, culprit_error *err)
{
    return culprit_collect_directory_known(directory, NULL, child_pid, NULL, maps, collected, err);
}
