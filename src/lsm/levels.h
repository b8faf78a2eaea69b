/*
 * The LSM levels of one primary-key bucket (Java Levels; behaviour.md §3.1): which live data
 * file sits in which level, and the sorted runs compaction picks from.
 *
 *  - Level 0: every file is its own sorted run, ordered newest first: max sequence number
 *    descending, then min sequence number, creation time and file name ascending.
 *  - Level >= 1: one sorted run per level, its files sorted by min key, each starting above
 *    the previous file's max key (Java's SortedRun).  The commit refuses overlapping files
 *    at a level >= 1; restored files are checked with pm_levels_check (a table whose files
 *    overlap is PAIMON_ECORRUPT); after that the levels change only by compaction, and
 *    debug builds assert the order at every pm_levels_runs.
 *  - Runs = [level-0 files, newest first] + [non-empty levels 1, 2, ...].
 *  - Number of levels: num-levels (default num-sorted-run.compaction-trigger + 1), raised
 *    to the highest restored level + 1.
 *
 * Files are manifest entries (ADD) copied into the levels' arena; pointers handed out stay
 * valid until pm_levels_release (removal only marks them gone).
 *
 * Thread safety: belongs to one bucket writer.
 */
#ifndef PM_LSM_LEVELS_H
#define PM_LSM_LEVELS_H

#include "data/types.h"
#include "lsm/universal_compaction.h"
#include "meta/manifest.h"
#include "util/arena.h"
#include "util/error.h"

typedef struct pm_levels {
    pm_arena arena;            /* the entries */
    pm_manifest_entry **files; /* live and removed (NULL) entries, in arrival order */
    size_t file_count, file_cap;
    int32_t num_levels;
    const pm_type *const *key_types; /* the key (borrowed), or NULL: see pm_levels_set_key */
    size_t key_count;
} pm_levels;

/* A sorted run: its level and files (level-0 runs hold one file). */
typedef struct pm_levels_run {
    int32_t level;
    const pm_manifest_entry **files;
    size_t file_count;
    int64_t size;
} pm_levels_run;

void pm_levels_init(pm_levels *l, int32_t num_levels);
void pm_levels_release(pm_levels *l);

/* The types of the key the files' min and max keys hold (BinaryRows; borrowed until
 * release).  Without them (append tables) runs of level >= 1 keep arrival order and
 * pm_levels_check has nothing to check. */
void pm_levels_set_key(pm_levels *l, const pm_type *const *key_types, size_t key_count);

/* Adds a copy of `e` at e->file.level (raising num_levels when needed). */
PM_MUST_CHECK int pm_levels_add(pm_levels *l, const pm_manifest_entry *e, paimon_error *err);
/* Removes the file named `name` at `level`; false when absent. */
bool pm_levels_remove(pm_levels *l, const char *name, int32_t level);

/* The sorted runs, newest first (files of a level >= 1 by min key when the key is set).
 * Caller owns *runs and each run's files array: release with pm_levels_runs_free(). */
PM_MUST_CHECK int pm_levels_runs(const pm_levels *l, pm_levels_run **runs, size_t *count,
                                 paimon_error *err);
void pm_levels_runs_free(pm_levels_run *runs, size_t count);

/* Java's SortedRun.validate for every level >= 1: once sorted by min key, each file's min
 * key is above the previous file's max key.  PAIMON_ECORRUPT naming the level and two files
 * that overlap, or a key that does not decode; 0 without key types. */
PM_MUST_CHECK int pm_levels_check(const pm_levels *l, paimon_error *err);

/* The highest level holding a file, or -1 when there are none. */
int32_t pm_levels_highest(const pm_levels *l);
/* Live files. */
size_t pm_levels_file_count(const pm_levels *l);

/* Level 0's order (Java Levels' TreeSet comparator): newest first -- max sequence number
 * descending, then min sequence number, creation time and file name ascending.  The one
 * rule for every holder of level-0 files (lsm/levels.c, lsm/lookup_levels.c). */
int pm_levels_level0_compare(const pm_data_file_meta *a, const pm_data_file_meta *b);

#endif /* PM_LSM_LEVELS_H */
