/*
 * paimon-c: reading a table.
 *
 * A scan is the plan of a batch read of one snapshot: which data files, with which
 * deletion vectors, grouped into splits per partition and bucket (a split is read with a
 * merge when its primary-key files overlap).  The rows are exactly the rows Java Paimon's
 * batch read of that snapshot returns, in the snapshot's schema.  Rows come out through a
 * cursor (paimon/cursor.h): of every split in turn, or of one split.
 *
 *   paimon_scan *scan;
 *   paimon_cursor *cur;
 *   paimon_scan_options o = PAIMON_SCAN_OPTIONS_INIT;
 *   o.filter = "dt = DATE '2026-04-19' AND amount > 10";
 *   paimon_table_scan(&scan, table, &o, &err);
 *   paimon_scan_cursor(&cur, scan, &err);                   // every split, row at a time
 *   while (paimon_cursor_next(cur, &err) == 0) ...
 *   // or, per split (on any thread), an ArrowArrayStream:
 *   paimon_scan_split_cursor(&cur, scan, i, &err);
 *   paimon_cursor_arrow_stream(cur, &stream, &err);
 *
 * A table without snapshots reads as empty: its latest snapshot is no snapshot
 * (paimon_scan_snapshot_id() -1) and the scan has no splits.
 *
 * System tables (`TABLE$snapshots` and friends, behaviour.md §7.6) are scanned the same way:
 * set paimon_scan_options.system_table.  The columns, filter and output then refer to the
 * system table's columns (Java Paimon 1.4.2's names, types and values), and the scan has one
 * split, or for `ro` the splits of the table's read-optimized plan.
 *
 * Splits are independent: an engine may read them on different threads at once (each cursor
 * and stream has its own state; the scan is immutable once planned and must outlive them).
 *
 * Thread safety: a paimon_scan may be shared by threads reading different splits; a cursor
 * belongs to one thread at a time.  Planning uses the table handle (one thread at a time).
 * A cursor of paimon_scan_cursor() reads ahead on the library's thread pool
 * (paimon_scan_options.threads) until it is freed; those reads use only the scan and the
 * table's path and file system, as split cursors on other threads do.
 */
#ifndef PAIMON_SCAN_H
#define PAIMON_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "paimon/arrow.h"
#include "paimon/cursor.h"
#include "paimon/error.h"
#include "paimon/table.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct paimon_scan paimon_scan;

/* What to read.  Version the struct with PAIMON_SCAN_OPTIONS_INIT or
 * paimon_scan_options_init(); NULL options read everything of the latest snapshot. */
typedef struct paimon_scan_options {
    unsigned int version;       /* PAIMON_SCAN_OPTIONS_VERSION */
    int64_t snapshot_id;        /* > 0: this snapshot; 0: the latest (or tag/timestamp) */
    const char *tag;            /* the snapshot of this tag, or NULL */
    int use_timestamp;          /* nonzero: time travel to timestamp_millis */
    int64_t timestamp_millis;   /* the latest snapshot committed at or before it (epoch ms) */
    const char *const *columns; /* output columns by name, in order; NULL: every column */
    size_t column_count;
    const char *filter; /* a filter expression (DESIGN.md EXPR), or NULL */
    int64_t batch_rows; /* rows per batch; 0: 4096 */
    /* Version 2.  NULL: the table's rows.  Otherwise a system table of the table, by name
     * (any case, as Java): "snapshots", "schemas", "options", "files", "manifests",
     * "partitions", "buckets", "tags", read from the table's metadata, or "ro", the read-optimized
     * table (primary-key tables read only the files at the highest LSM level, without
     * merging; other tables read as usual).  The snapshot selection above applies to files,
     * manifests, partitions and ro; snapshots, schemas, options, buckets and tags ignore it, as
     * Java does (buckets always shows the latest snapshot; files shows the selected
     * snapshot's files in the partitions the latest snapshot has).  A table without
     * snapshots gives no rows (ro too, like the table). */
    const char *system_table;
    /* Version 3.  Table options for this read over the table's own (Java's
     * table.copy(dynamicOptions)): `option_count` keys and values.  They choose where the
     * read starts (behaviour.md §7.2, §7.4): scan.mode (latest-full, latest, full,
     * compacted-full, from-timestamp, from-snapshot, from-snapshot-full,
     * from-file-creation-time, from-creation-timestamp, incremental) with scan.snapshot-id,
     * scan.tag-name, scan.watermark, scan.timestamp-millis, scan.timestamp,
     * scan.file-creation-time-millis, scan.creation-time-millis, or incremental-between,
     * incremental-between-timestamp and incremental-between-scan-mode; options that do not
     * go with the mode are PAIMON_EINVALID with Java's message.  The same options set on
     * the table apply too.  snapshot_id, tag and use_timestamp above, when set, take
     * precedence over them. */
    const char *const *option_keys;
    const char *const *option_values;
    size_t option_count;
    /* Version 4.  Threads that read splits at once for paimon_scan_cursor(): 0 (the default)
     * the processors online, 1 the calling thread only.  The rows and their order do not
     * depend on it.  The reads run on the process's one thread pool, which grows to the
     * largest count asked for; at most threads / 2 splits (at least 1) are open at once,
     * each with a few batches read ahead, and within a split the files of each sorted run
     * (of a raw split: its files) are decoded a few batches ahead of the merge. */
    unsigned int threads;
} paimon_scan_options;

#define PAIMON_SCAN_OPTIONS_VERSION 4 /* versions 1 to 3 are still accepted */
#define PAIMON_SCAN_OPTIONS_INIT                                                                   \
    {                                                                                              \
        PAIMON_SCAN_OPTIONS_VERSION, 0, NULL, 0, 0, NULL, 0, NULL, 0, NULL, NULL, NULL, 0, 0       \
    }

/* Fills `options` with the defaults of version `version` of the struct (normally
 * PAIMON_SCAN_OPTIONS_VERSION), as PAIMON_SCAN_OPTIONS_INIT does, writing only the bytes that
 * version has.  0, or PAIMON_EINVALID for a version this library does not know. */
PAIMON_API int paimon_scan_options_init(paimon_scan_options *options, unsigned int version);

/* Plans a read; `options` may be NULL (everything of the latest snapshot).  The latest
 * snapshot of a table without snapshots is an empty scan.  PAIMON_ENOTFOUND for an unknown
 * snapshot, tag or timestamp, an unknown column or an unknown system table
 * ("TABLE$name: no such system table");
 * PAIMON_EUNSUPPORTED for a system table Java has that paimon-c does not read yet;
 * PAIMON_EINVALID for a malformed filter (the message gives the position).  A system table
 * read from metadata reads it here, so errors in manifests show up here too.  Caller owns
 * `*out`; release with paimon_scan_free(). */
PAIMON_API int paimon_table_scan(paimon_scan **out, paimon_table *table,
                                 const paimon_scan_options *options, paimon_error *err);

/* Releases the scan.  Its cursors and their Arrow streams must be released first.  NULL
 * is allowed. */
PAIMON_API void paimon_scan_free(paimon_scan *scan);

/* The snapshot read; -1 for the system tables that read no single snapshot (snapshots,
 * schemas, options) or when the table has no snapshot. */
PAIMON_API int64_t paimon_scan_snapshot_id(const paimon_scan *scan);

/* The output columns: number, names and type strings ("DECIMAL(18, 2)").  Borrowed; valid
 * until the scan is freed. */
PAIMON_API size_t paimon_scan_column_count(const paimon_scan *scan);
PAIMON_API const char *paimon_scan_column_name(const paimon_scan *scan, size_t column);
PAIMON_API const char *paimon_scan_column_type(const paimon_scan *scan, size_t column);

/* ---- splits ------------------------------------------------------------------------------ */

PAIMON_API size_t paimon_scan_split_count(const paimon_scan *scan);

typedef struct paimon_split_info {
    const char *partition; /* canonical JSON object of the partition values ({} if none) */
    int32_t bucket;
    size_t file_count; /* 0 for the split of a system table read from metadata */
    int needs_merge;   /* 1: primary-key files merged by key; 0: files read one by one */
} paimon_split_info;

typedef struct paimon_split_file {
    const char *path;  /* full path of the data file */
    int32_t level;     /* LSM level */
    int64_t row_count; /* rows in the file (before deletion vectors) */
    int64_t file_size;
    int64_t min_sequence_number, max_sequence_number;
    const char *deletion_vector_file; /* index file holding its deletion vector, or NULL */
    int64_t deletion_vector_offset, deletion_vector_length;
} paimon_split_file;

/* Describes split `split` / one of its files.  Strings are borrowed; valid until the scan is
 * freed. */
PAIMON_API int paimon_scan_split(paimon_scan *scan, size_t split, paimon_split_info *out,
                                 paimon_error *err);
PAIMON_API int paimon_scan_split_file(const paimon_scan *scan, size_t split, size_t file,
                                      paimon_split_file *out, paimon_error *err);

/* ---- reading ----------------------------------------------------------------------------- */

/* A cursor over the rows of every split in turn, as `paimon cat` reads them.  It borrows the
 * scan, which must outlive it and its Arrow stream.  Caller owns `*out`; release with
 * paimon_cursor_free(). */
PAIMON_API int paimon_scan_cursor(paimon_cursor **out, paimon_scan *scan, paimon_error *err);

/* A cursor over the rows of split `split` only (PAIMON_EINVALID when there is no such
 * split); cursors of different splits may be read on different threads at once.  Its
 * files are opened here, so a missing or corrupt file may show up here or while reading.
 * It borrows the scan, which must outlive it and its Arrow stream.  Caller owns `*out`;
 * release with paimon_cursor_free(). */
PAIMON_API int paimon_scan_split_cursor(paimon_cursor **out, paimon_scan *scan, size_t split,
                                        paimon_error *err);

#ifdef __cplusplus
}
#endif

#endif /* PAIMON_SCAN_H */
