/*
 * The files of a primary-key bucket cut into sections of sorted runs, as Java's
 * IntervalPartition does it (behaviour.md §3.8).
 *
 *  - Files are sorted by (min key, max key), stably.
 *  - A section closes when the next file's min key is above every max key seen in it, so
 *    sections never share a key: they are read one after another.
 *  - Inside a section, each file joins the run whose last file has the smallest max key if
 *    it starts above that key, else starts a new run; runs are kept in a priority queue by
 *    the max key of their last file, and come out in the queue's array order, as Java's
 *    PriorityQueue.stream() gives them.
 *
 * A sorted run's files do not overlap, so one cursor reads them in order: a merge needs one
 * open file per run, not one per file.
 */
#ifndef PM_TABLE_INTERVAL_PARTITION_H
#define PM_TABLE_INTERVAL_PARTITION_H

#include "data/types.h"
#include "meta/manifest.h"
#include "util/arena.h"
#include "util/error.h"

typedef struct pm_sorted_run {
    const pm_manifest_entry **files; /* ascending, not overlapping */
    size_t file_count;
} pm_sorted_run;

typedef struct pm_section {
    pm_sorted_run *runs;
    size_t run_count;
    int64_t total_size; /* bytes of its files */
} pm_section;

/* Partitions `files` (one bucket) by their min/max keys, which are serialized BinaryRows of
 * `key_types`.  Everything is allocated in `arena`.  A key that does not decode is
 * PAIMON_ECORRUPT. */
PM_MUST_CHECK int pm_interval_partition(const pm_manifest_entry *const *files, size_t count,
                                        const pm_type *const *key_types, size_t key_count,
                                        pm_arena *arena, pm_section **out, size_t *section_count,
                                        paimon_error *err);

#endif /* PM_TABLE_INTERVAL_PARTITION_H */
