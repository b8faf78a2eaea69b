/*
 * Where a streaming read starts (behaviour.md §7.2, streaming column): Java Paimon 1.4.2's
 * AbstractDataTableScan.createStartingScanner with isStreaming = true, and its starting
 * scanners, reduced to what they decide.  A start is one of
 *
 *   WAIT   the table has no snapshot yet (Java's NoSnapshot): resolve again later;
 *   NEXT   no initial data: the change stream begins at snapshot `id`;
 *   FULL   snapshot `id` is read fully (merged, ScanMode.ALL), then changes from `id` + 1.
 *
 * The mode comes from `scan.mode` (fallback key `log.scan`) over the read's options, with
 * `default` resolved as CoreOptions.startupMode does and `full` an alias of `latest-full`:
 *
 *   latest-full, full        FULL at the latest snapshot
 *   latest                   NEXT at latest + 1 (ContinuousLatestStartingScanner)
 *   compacted-full           FULL at the latest COMPACT snapshot (with changelog-producer
 *                            full-compaction or full-compaction.delta-commits: the latest
 *                            whose commit identifier % delta-commits == 0 or == Long.MAX),
 *                            else the latest snapshot
 *   from-timestamp           NEXT at the first snapshot committed at or after
 *                            scan.timestamp-millis (TimeTravelUtil.earlierThanTimeMills + 1)
 *   from-snapshot            NEXT at max(scan.snapshot-id, earliest); a tag or watermark is
 *                            refused as in Java ("Cannot scan from tag in streaming mode.")
 *   from-snapshot-full       FULL at max(scan.snapshot-id, earliest snapshot)
 *   from-file-creation-time  FULL at the latest snapshot, only files created at or after
 *                            scan.file-creation-time-millis
 *   from-creation-timestamp  from-snapshot at the first snapshot at or after
 *                            scan.creation-time-millis when one exists, else
 *                            from-file-creation-time with that time
 *   incremental              refused ("Cannot read incremental in streaming mode.")
 *
 * A consumer with progress (`consumer-id` set, its file present, `consumer.ignore-progress`
 * false) overrides the mode: NEXT at max(nextSnapshot, earliest), as Java does.  A stored
 * position given by the caller comes before the consumer; a range start (`paimon tail
 * --from`) after it, in place of the mode.
 *
 * FULL reads are filtered by level as DataTableStreamScan.tryFirstPlan filters them:
 * changelog-producer lookup reads levels > 0 only (level 0 still waits for its changelog),
 * full-compaction only the highest level (num-levels - 1).
 */
#ifndef PM_TABLE_STREAM_START_H
#define PM_TABLE_STREAM_START_H

#include <stdbool.h>
#include <stdint.h>

#include "table/changes.h"
#include "table/table.h"
#include "util/error.h"

typedef enum pm_stream_mode {
    PM_STREAM_LATEST_FULL,
    PM_STREAM_LATEST,
    PM_STREAM_COMPACTED_FULL,
    PM_STREAM_FROM_TIMESTAMP,
    PM_STREAM_FROM_SNAPSHOT,
    PM_STREAM_FROM_SNAPSHOT_FULL,
    PM_STREAM_FROM_FILE_CREATION_TIME,
    PM_STREAM_FROM_CREATION_TIMESTAMP,
} pm_stream_mode;

typedef enum pm_stream_start_kind {
    PM_STREAM_START_WAIT,
    PM_STREAM_START_NEXT,
    PM_STREAM_START_FULL,
} pm_stream_start_kind;

typedef struct pm_stream_start {
    pm_stream_start_kind kind;
    int64_t id;         /* NEXT: the first snapshot of the change stream; FULL: the one read */
    int32_t level_min;  /* FULL: only files at this level or above (0: every level) */
    int32_t level_only; /* FULL: only files at this level (-1: any) */
    bool by_creation;   /* FULL: only files created at or after creation_ms */
    int64_t creation_ms;
} pm_stream_start;

/* What the caller asks for instead of the read's scan.mode. */
typedef enum pm_stream_origin_kind {
    PM_STREAM_ORIGIN_SCAN_MODE, /* the options decide (consumer progress, then scan.mode) */
    PM_STREAM_ORIGIN_POSITION,  /* NEXT at max(value, earliest): a stored position */
    PM_STREAM_ORIGIN_RANGE,     /* NEXT at the first snapshot of a change range (tail --from) */
} pm_stream_origin_kind;

typedef struct pm_stream_origin {
    pm_stream_origin_kind kind;
    int64_t position;       /* PM_STREAM_ORIGIN_POSITION */
    pm_changes_range range; /* PM_STREAM_ORIGIN_RANGE (its `to` is ignored) */
} pm_stream_origin;

/* The streaming startup mode of `options` (default and full resolved).  PAIMON_EINVALID
 * for `incremental`, which Java refuses in streaming mode, and for a mode whose option is
 * missing (from-timestamp without scan.timestamp-millis, ...). */
PM_MUST_CHECK int pm_stream_mode_of(const pm_options *options, pm_stream_mode *out,
                                    paimon_error *err);

/* Resolves the start of a streaming read of `t` whose options are `options` (the table's
 * with the read's own on top) and whose schema is `schema`. */
PM_MUST_CHECK int pm_stream_start_resolve(paimon_table *t, const pm_schema *schema,
                                          const pm_options *options, const pm_stream_origin *origin,
                                          pm_stream_start *out, paimon_error *err);

#endif /* PM_TABLE_STREAM_START_H */
