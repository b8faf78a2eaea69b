/*
 * System tables (behaviour.md §7.6): `TABLE$snapshots`, `$schemas`, `$options`, `$files`,
 * `$manifests`, `$partitions` and `$buckets`, read from the table's metadata with the
 * columns, types and values of Java Paimon 1.4.2's SnapshotsTable, SchemasTable,
 * OptionsTable, FilesTable, ManifestsTable, PartitionsTable and BucketsTable.  (`$ro` is a
 * scan of the table's own files: pm_scan_options.read_optimized in table/scan.h.)
 *
 * A pm_sys_table is opened once: it reads what its rows need (snapshots, schemas, manifest
 * entries) and is then immutable; readers format rows from it on demand, in batches, so a
 * table with many files never holds all its rows as text at once.  Several readers may read
 * one pm_sys_table from different threads.
 *
 * Which snapshot (Java applies scan.snapshot-id / scan.tag-name / scan.timestamp-millis by
 * copying the table with those options, which is not the same for every system table):
 *   snapshots, schemas, options   every snapshot / schema, the latest schema's options:
 *                                 the selection is ignored
 *   files                         the files of the selected snapshot, in the partitions that
 *                                 have files in the latest snapshot (Java lists those
 *                                 partitions without the time travel, then scans each)
 *   manifests, partitions         the selected snapshot
 *   buckets                       always the latest snapshot
 * A selection that names no snapshot is an error where it is used; a table without
 * snapshots has no rows.
 *
 * Values that Java takes from the JVM's default time zone (commit times, update times,
 * last_update_time, TIMESTAMP WITH LOCAL TIME ZONE partition values) use the process's
 * local zone (TZ), the one ZoneId.systemDefault() reads.
 */
#ifndef PM_TABLE_SYSTEM_TABLE_H
#define PM_TABLE_SYSTEM_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "data/batch.h"
#include "data/predicate.h"
#include "table/snapshot_select.h"
#include "util/error.h"

typedef enum pm_sys_kind {
    PM_SYS_SNAPSHOTS,
    PM_SYS_SCHEMAS,
    PM_SYS_OPTIONS,
    PM_SYS_FILES,
    PM_SYS_MANIFESTS,
    PM_SYS_PARTITIONS,
    PM_SYS_BUCKETS,
    PM_SYS_TAGS, /* system_tags.c */
    PM_SYS_RO,   /* read-optimized: a scan of the table (table/scan.h), not read here */
    PM_SYS_CONSUMERS,
    /* scans of the table with row kinds (api/scan.c), not read here: the merged rows with
     * retractions kept, a leading `rowkind` column; binlog with every column an ARRAY */
    PM_SYS_AUDIT_LOG,
    PM_SYS_BINLOG
} pm_sys_kind;

/* Resolves a system table name, case-insensitively as Java does.  PAIMON_EUNSUPPORTED for
 * the system tables Java has that paimon-c does not read yet (audit_log, tags, ...),
 * PAIMON_ENOTFOUND for any other name; messages start with "<table>$<name>: ". */
PM_MUST_CHECK int pm_sys_kind_parse(const char *table_path, const char *name, pm_sys_kind *out,
                                    paimon_error *err);

typedef struct pm_sys_table pm_sys_table;

/* Reads system table `kind` (not PM_SYS_RO) of `t`.  `sel` is the caller's snapshot
 * selection, or NULL for none (see above for what each table does with it).  Borrows `t`
 * only during the call.  Caller owns `*out`; release with pm_sys_table_free(). */
PM_MUST_CHECK int pm_sys_table_open(pm_sys_table **out, paimon_table *t, pm_sys_kind kind,
                                    const pm_snapshot_selector *sel, paimon_error *err);
void pm_sys_table_free(pm_sys_table *st);

/* The ROW type of the table's rows (Java's TABLE_TYPE).  Borrowed. */
const pm_type *pm_sys_table_type(const pm_sys_table *st);
/* The number of rows before any filter. */
size_t pm_sys_table_row_count(const pm_sys_table *st);
/* The snapshot the rows come from, or -1 (snapshots, schemas, options; no snapshot). */
int64_t pm_sys_table_snapshot_id(const pm_sys_table *st);

typedef struct pm_sys_reader pm_sys_reader;

/* Reads the rows: `columns` are indexes into the table's row type, the output columns in
 * order (NULL: all); `filter` (over the row type, may be NULL) selects rows exactly.
 * Borrows `st` and `filter` until freed. */
PM_MUST_CHECK int pm_sys_reader_open(pm_sys_reader **out, const pm_sys_table *st,
                                     const int *columns, size_t column_count,
                                     const pm_predicate *filter, int64_t batch_rows,
                                     paimon_error *err);
/* The next non-empty batch; PAIMON_ITEROVER after the last.  Caller owns `*out`. */
PM_MUST_CHECK int pm_sys_reader_next(pm_sys_reader *r, pm_batch **out, paimon_error *err);
/* The ROW type of the batches.  Borrowed. */
const pm_type *pm_sys_reader_type(const pm_sys_reader *r);
void pm_sys_reader_free(pm_sys_reader *r);

#endif /* PM_TABLE_SYSTEM_TABLE_H */
