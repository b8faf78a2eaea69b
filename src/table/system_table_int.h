/*
 * Inside the system tables (system_table.h): what each table implements and the helpers
 * they share.  A table's open function reads what it needs into its state and sets the row
 * type and count; its append function formats one row into the columns of a batch.
 */
#ifndef PM_TABLE_SYSTEM_TABLE_INT_H
#define PM_TABLE_SYSTEM_TABLE_INT_H

#include "meta/manifest.h"
#include "table/system_table.h"
#include "table/table.h"
#include "util/buf.h"
#include "util/error.h"

typedef struct pm_sys_ops {
    /* Appends row `row` (< row_count) to `cols`, one column per field of the row type.
     * `scratch` is the caller's buffer for text, reset by the function as it likes.  Every
     * failure is reported in `err`.  Must not modify the table: readers may call it from
     * several threads. */
    int (*append)(const pm_sys_table *st, size_t row, pm_column *const *cols, pm_buf *scratch,
                  paimon_error *err);
    void (*free)(void *state);
} pm_sys_ops;

struct pm_sys_table {
    pm_sys_kind kind;
    pm_type *row;        /* Java's TABLE_TYPE */
    size_t row_count;    /* rows the table holds */
    int64_t snapshot_id; /* the snapshot read, or -1 */
    const pm_sys_ops *ops;
    void *state; /* the table's own; released by ops->free */
};

/* Sets st->row from Java's column list in the COLUMNS syntax ("snapshot_id BIGINT NOT
 * NULL, ..."); fields get ids 0, 1, ... as Java declares them. */
PM_MUST_CHECK int pm_sys_set_columns(pm_sys_table *st, const char *columns, paimon_error *err);

/* Appenders: 0, PAIMON_ENOMEM or PAIMON_ELIMIT. */
int pm_sys_put_i64(pm_column *c, int64_t v);
int pm_sys_put_null(pm_column *c);
int pm_sys_put_str(pm_column *c, const char *s); /* NULL appends a null */
int pm_sys_put_buf(pm_column *c, const pm_buf *b);
/* A TIMESTAMP(3) value from milliseconds (a local date-time written as if UTC). */
int pm_sys_put_ts(pm_column *c, int64_t millis);
/* A count or id that the metadata may lack: null when absent. */
int pm_sys_put_opt(pm_column *c, bool present, int64_t v);

/* The result of appenders or-ed together: 0, or PAIMON_ENOMEM reported in `err`. */
static inline int pm_sys_done(int put_rc, paimon_error *err)
{
    return put_rc != 0 ? pm_nomem(err) : 0;
}

/* The selected snapshot, or the latest when `sel` is NULL.  With no selection and no
 * snapshot: 0 and *out NULL (the table is empty).  Caller owns `*out`. */
PM_MUST_CHECK int pm_sys_snapshot(paimon_table *t, const pm_snapshot_selector *sel,
                                  pm_snapshot **out, paimon_error *err);

/* Java's readPartitionEntries / readBucketEntries (AbstractFileStoreScan): every entry of a
 * snapshot's base and delta manifests, summed per partition (and bucket when `by_bucket`):
 * an ADD adds its row count, size and 1, a DELETE subtracts them; the last update time is
 * the latest creation time of any entry, converted to epoch millis in the local zone
 * (DataFileMeta.creationTimeEpochMillis).  Only groups whose file count ends above 0 are
 * kept.  `skip_postpone` leaves out bucket -2 (Java's onlyReadRealBuckets).  Groups are
 * sorted by partition bytes, then bucket; their partition bytes live in `arena`. */
typedef struct pm_sys_group {
    pm_avro_bytes partition; /* serialized BinaryRow */
    int32_t bucket;          /* by_bucket only */
    int64_t record_count, file_size, file_count;
    bool has_update_time;
    int64_t update_time; /* epoch millis */
} pm_sys_group;

PM_MUST_CHECK int pm_sys_group_entries(paimon_table *t, const pm_snapshot *snap, bool by_bucket,
                                       bool skip_postpone, pm_arena *arena, pm_sys_group **out,
                                       size_t *count, paimon_error *err);

/* The open function of each table. */
PM_MUST_CHECK int pm_sys_open_snapshots(pm_sys_table *st, paimon_table *t, paimon_error *err);
PM_MUST_CHECK int pm_sys_open_schemas(pm_sys_table *st, paimon_table *t, paimon_error *err);
PM_MUST_CHECK int pm_sys_open_consumers(pm_sys_table *st, paimon_table *t, paimon_error *err);
PM_MUST_CHECK int pm_sys_open_options(pm_sys_table *st, paimon_table *t, paimon_error *err);
PM_MUST_CHECK int pm_sys_open_files(pm_sys_table *st, paimon_table *t,
                                    const pm_snapshot_selector *sel, paimon_error *err);
PM_MUST_CHECK int pm_sys_open_manifests(pm_sys_table *st, paimon_table *t,
                                        const pm_snapshot_selector *sel, paimon_error *err);
PM_MUST_CHECK int pm_sys_open_partitions(pm_sys_table *st, paimon_table *t,
                                         const pm_snapshot_selector *sel, paimon_error *err);
PM_MUST_CHECK int pm_sys_open_buckets(pm_sys_table *st, paimon_table *t, paimon_error *err);
PM_MUST_CHECK int pm_sys_open_tags(pm_sys_table *st, paimon_table *t, paimon_error *err);

#endif /* PM_TABLE_SYSTEM_TABLE_INT_H */
