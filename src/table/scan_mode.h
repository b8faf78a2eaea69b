/*
 * Where a batch read starts (behaviour.md §7.2, batch column): Java 1.4.2's `scan.mode`
 * (fallback key `log.scan`) with the options that go with it, resolved as
 * CoreOptions.startupMode() does, validated as SchemaValidation.validateStartupMode() does
 * (same messages), and turned into what the batch read plans, as
 * AbstractDataTableScan.createStartingScanner(false) chooses its starting scanner:
 *
 *   latest-full, latest, full   the latest snapshot
 *   compacted-full              the latest COMPACT snapshot (with changelog-producer
 *                               full-compaction or full-compaction.delta-commits: the latest
 *                               whose identifier % N == 0 or is Long.MAX_VALUE); else latest
 *   from-timestamp              the latest snapshot committed at or before scan.timestamp-millis
 *                               (or scan.timestamp, a local date-time)
 *   from-snapshot               scan.snapshot-id, scan.tag-name, or the first snapshot whose
 *                               watermark is >= scan.watermark
 *   from-snapshot-full          scan.snapshot-id
 *   from-file-creation-time     the latest snapshot, only files created at or after
 *                               scan.file-creation-time-millis
 *   from-creation-timestamp     the first snapshot committed at or after
 *                               scan.creation-time-millis when there is one after an older
 *                               snapshot, else as from-file-creation-time with that time
 *   incremental                 incremental-between / incremental-between-timestamp
 *                               (table/incremental.h)
 *
 * The options are the table's with the read's own on top (Java's table.copy(dynamicOptions)).
 */
#ifndef PM_TABLE_SCAN_MODE_H
#define PM_TABLE_SCAN_MODE_H

#include <stdbool.h>
#include <stdint.h>

#include "table/snapshot_select.h"
#include "table/table.h"
#include "util/error.h"
#include "util/options.h"

typedef enum pm_startup_mode {
    PM_STARTUP_LATEST_FULL,
    PM_STARTUP_LATEST,
    PM_STARTUP_COMPACTED_FULL,
    PM_STARTUP_FROM_TIMESTAMP,
    PM_STARTUP_FROM_SNAPSHOT,
    PM_STARTUP_FROM_SNAPSHOT_FULL,
    PM_STARTUP_FROM_FILE_CREATION_TIME,
    PM_STARTUP_FROM_CREATION_TIMESTAMP,
    PM_STARTUP_INCREMENTAL
} pm_startup_mode;

/* Java's name of a mode ("from-snapshot"). */
const char *pm_startup_mode_name(pm_startup_mode m);

/* CoreOptions.startupMode(): scan.mode (or log.scan), `default` resolved by the options
 * present, `full` as latest-full.  PAIMON_EINVALID for a value that is not a mode. */
PM_MUST_CHECK int pm_startup_mode_of(const pm_options *o, pm_startup_mode *out, paimon_error *err);

/* SchemaValidation.validateStartupMode: PAIMON_EINVALID with Java's message, prefixed with
 * `table`, when options that do not belong to the mode are set or the mode misses one. */
PM_MUST_CHECK int pm_startup_mode_validate(const char *table, const pm_options *o,
                                           paimon_error *err);

/* What a batch read of the mode plans. */
typedef struct pm_batch_start {
    pm_startup_mode mode;
    bool empty; /* nothing to read (a table without snapshots) */
    pm_snapshot_selector snapshot;
    char *tag; /* owned; snapshot.tag points here */
    bool has_min_creation;
    int64_t min_creation_millis; /* epoch ms */
} pm_batch_start;

/* Resolves the batch start of `t` under options `o` (validated first).  For
 * PM_STARTUP_INCREMENTAL only `mode` is set.  Errors are Java's: "There is currently no
 * snapshot earlier than or equal to timestamp [...]", "The specified scan snapshotId N is
 * out of available snapshotId range [a, b].", "There is currently no snapshot later than
 * or equal to watermark[N]" (PAIMON_ENOTFOUND), named with the table.  Release with
 * pm_batch_start_release(). */
PM_MUST_CHECK int pm_batch_start_resolve(paimon_table *t, const pm_options *o, pm_batch_start *out,
                                         paimon_error *err);
void pm_batch_start_release(pm_batch_start *s);

/* Java's DateTimeUtils.parseTimestampData(text, 3, local zone) for scan.timestamp and
 * incremental-between-timestamp: "yyyy-MM-dd[ HH:mm:ss[.fff]]" as a local time, in epoch
 * ms.  PAIMON_EINVALID naming `what` when it does not parse. */
PM_MUST_CHECK int pm_scan_parse_local_timestamp(const char *what, const char *text, int64_t *out,
                                                paimon_error *err);

/* Java's CoreOptions.scanTimestampMills, shared by batch and streaming starts:
 * scan.timestamp-millis (or its fallback key) when set, else scan.timestamp parsed by
 * pm_scan_parse_local_timestamp; *set false when neither is given. */
PM_MUST_CHECK int pm_scan_timestamp_millis(const pm_options *o, int64_t *out, bool *set,
                                           paimon_error *err);

#endif /* PM_TABLE_SCAN_MODE_H */
