/*
 * Partition expiration (behaviour.md §8.6), as Java 1.4.2's PartitionExpire with its two
 * strategies:
 *
 *   values-time   (default) the partition's values make a time: `partition.timestamp-pattern`
 *                 (`$dt $hour:00:00`; default: the first partition value) filled with the
 *                 values as Java's toString() writes them, parsed with
 *                 `partition.timestamp-formatter` (a DateTimeFormatter pattern; default
 *                 `y-M-d[ H:m:s[.fraction]]`, lenient); a value that does not parse (or a
 *                 null) never expires, as in Java, which logs a warning;
 *   update-time   the last creation time of the partition's live files;
 *
 * and a partition expires when that time is before now - `partition.expiration-time` (the
 * local wall clock, as Java's LocalDateTime.now()).  Expired partitions are sorted by their
 * values joined with ',' and at most `partition.expiration-max-num` (100) are dropped, in
 * batches of `partition.expiration-batch-size` when set: each batch is one OVERWRITE
 * snapshot that deletes every live data file and index file of those partitions (Java's
 * FileStoreCommitImpl.dropPartitions, an overwrite with no new files).  The snapshot carries
 * the commit user and identifier given: after a commit, those of the commit that triggered
 * it; for the command, Java's procedure's: user "" and identifier Long.MAX_VALUE.
 *
 * Formatter patterns supported: y (u) M d H m s S and literals ('quoted' or any non-letter);
 * other pattern letters are PAIMON_EUNSUPPORTED naming the pattern.
 *
 * Failure at any step leaves the table as it was or with some batches dropped: every batch
 * is one atomic commit, and a rerun drops what is left.
 */
#ifndef PM_TABLE_PARTITION_EXPIRE_H
#define PM_TABLE_PARTITION_EXPIRE_H

#include <stdbool.h>
#include <stdint.h>

#include "io/fs.h"
#include "util/error.h"
#include "util/options.h"
#include "util/strlist.h"

typedef struct pm_partition_expire_opts {
    bool has_older_than; /* use older_than_ms instead of partition.expiration-time */
    int64_t older_than_ms;
    bool dry_run;                /* select, drop nothing */
    const pm_options *overrides; /* options for this run over the table's, or NULL */
    const char *commit_user;     /* NULL: "" */
    int64_t identifier;
    int64_t now_local_ms; /* 0: the local wall clock now (as if UTC) */
} pm_partition_expire_opts;

/* Expires the partitions of table `table` as described above.  `expired` (initialized by
 * the caller) receives each expired partition as Java's procedure prints it ("k=v, k2=v2"),
 * in the order dropped; `*snapshot_id` the last snapshot made (0: none).  PAIMON_EUNSUPPORTED
 * when the table has no partition keys or no expiration time is given nor set. */
PM_MUST_CHECK int pm_partition_expire(pm_fs *fs, const char *table,
                                      const pm_partition_expire_opts *o, pm_strlist *expired,
                                      int64_t *snapshot_id, paimon_error *err);

/* Step 3 of the post-commit upkeep (table/maintain.h): when the table sets
 * partition.expiration-time and has partition keys, expires partitions at most once per
 * `partition.expiration-check-interval` per table in this process (Java keeps the last check
 * in the writer's memory, starting at a random point within one interval before the writer
 * was made; here the first commit of a table in a process starts that clock), always when
 * the interval is 0, and at the end of a batch write (the commit's identifier is
 * Long.MAX_VALUE) with `end-input.check-partition-expire`.  The drop commits with the user
 * and identifier of snapshot `committed`. */
PM_MUST_CHECK int pm_partition_expire_after_commit(pm_fs *fs, const char *table, int64_t committed,
                                                   paimon_error *err);

/* Parses `text` to a local date-time (epoch-style milliseconds of the wall clock, as if UTC)
 * with a DateTimeFormatter pattern (NULL: Java's default partition formatter).  0; 1 when
 * the text does not parse (Java's DateTimeParseException); PAIMON_EUNSUPPORTED for a
 * pattern letter outside the supported set. */
PM_MUST_CHECK int pm_partition_time_parse(const char *text, const char *pattern, int64_t *out_ms,
                                          paimon_error *err);

#endif /* PM_TABLE_PARTITION_EXPIRE_H */
