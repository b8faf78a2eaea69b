/*
 * Universal compaction (behaviour.md §3.3; Java UniversalCompaction and
 * CompactStrategy.pickFullCompaction): which sorted runs of a bucket to merge, and into
 * which level.
 *
 * Runs come newest first: each level-0 file is a run (newest first), then one run per
 * non-empty level 1, 2, ... .  A pick is a prefix of the runs (`run_count` of them) and an
 * output level.  The picker only looks at levels and sizes; the caller owns the files.
 *
 *   0. early full compaction (compaction.optimization-interval, compaction.total-size-
 *      threshold, compaction.incremental-size-threshold; only when one is set and there is
 *      more than one run);
 *   1. size amplification: runs >= trigger and the newer runs together exceed
 *      max-size-amplification-percent of the oldest run -> everything to the max level;
 *   2. size ratio: runs >= trigger -> pick_for_size_ratio(1);
 *   3. file number: runs > trigger -> pick_for_size_ratio(runs - trigger + 1).
 *
 * create_unit: output = max level when every run is taken, else the next run's level - 1;
 * an output of 0 extends the prefix to the next run of a level above 0 and takes its
 * level.  Taking every run resets the early-full-compaction clock, as picking by size
 * amplification does.
 *
 * Thread safety: a picker belongs to one bucket's writer.
 */
#ifndef PM_LSM_UNIVERSAL_COMPACTION_H
#define PM_LSM_UNIVERSAL_COMPACTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "meta/options.h"
#include "util/error.h"

typedef struct pm_level_run {
    int32_t level; /* 0 for a level-0 file, else the level */
    int64_t size;  /* bytes of the run's files */
} pm_level_run;

typedef struct pm_universal {
    int64_t max_size_amp;    /* compaction.max-size-amplification-percent (200) */
    int64_t size_ratio;      /* compaction.size-ratio (1) */
    int64_t trigger;         /* num-sorted-run.compaction-trigger (5) */
    int64_t offpeak_start;   /* compaction.offpeak.start.hour (-1) */
    int64_t offpeak_end;     /* compaction.offpeak.end.hour (-1) */
    int64_t offpeak_ratio;   /* compaction.offpeak-ratio (0) */
    int64_t interval_ms;     /* compaction.optimization-interval, -1 unset */
    int64_t total_size;      /* compaction.total-size-threshold, -1 unset */
    int64_t incremental;     /* compaction.incremental-size-threshold, -1 unset */
    int64_t last_full_ms;    /* when the last full compaction was picked, -1 none yet */
    int (*hour_now)(void);   /* the local hour (tests replace it); NULL: the clock */
    int64_t (*now_ms)(void); /* the clock in ms (tests replace it); NULL: the clock */
} pm_universal;

/* Reads the options above from `o`. */
PM_MUST_CHECK int pm_universal_init(pm_universal *u, const pm_options *o, paimon_error *err);

/* The pick over `runs[0..n)` with `num_levels` levels: true with *run_count and *output,
 * or false when nothing is due. */
bool pm_universal_pick(pm_universal *u, int32_t num_levels, const pm_level_run *runs, size_t n,
                       size_t *run_count, int32_t *output);

/* pickForSizeRatio(count, force) as Java names it (also used by forced level-0 picks). */
bool pm_universal_pick_size_ratio(pm_universal *u, int32_t num_levels, const pm_level_run *runs,
                                  size_t n, size_t count, bool force, size_t *run_count,
                                  int32_t *output);

#endif /* PM_LSM_UNIVERSAL_COMPACTION_H */
