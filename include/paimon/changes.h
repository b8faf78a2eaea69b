/*
 * paimon-c: reading a table's changes back, snapshot by snapshot.
 *
 * A change read walks a range of snapshots and gives, for each, the rows Java Paimon 1.4.2's
 * streaming read returns for it after its first plan, each with its row kind ("+I", "-U",
 * "+U", "-D"):
 *
 *   changelog-producer none     APPEND snapshots: their new data files as written (primary-key
 *   (and append tables)         rows with their stored kind; append rows +I).  COMPACT and
 *                               OVERWRITE snapshots give nothing.
 *   input, lookup,              every snapshot's changelog files (input: with APPEND snapshots;
 *   full-compaction             lookup and full-compaction: with COMPACT snapshots).
 *
 * Rows are not merged and deletion vectors are not applied: a change stream reports what
 * happened, not what is left.  With `none`, a primary-key snapshot's rows are each flush's
 * last record per key (an update can show as +I or +U, and the before-image -U is absent),
 * so a consumer upserts them; the changelog producers give exact before and after images.
 * Rows come out in the table's latest schema (older files read by field id), column 0 being
 * `_ROW_KIND` STRING NOT NULL.
 *
 *   paimon_changes *ch;
 *   paimon_changes_options o = PAIMON_CHANGES_OPTIONS_INIT;
 *   o.from = PAIMON_CHANGES_FROM_SNAPSHOT;
 *   o.from_value = 5;
 *   paimon_table_changes(&ch, table, &o, &err);
 *   while (paimon_changes_next_snapshot(ch, &info, &err) == 0)
 *       while (paimon_changes_next_row(ch, &err) == 0)
 *           paimon_changes_row_json(ch, &json, &len, &err);   // {"_ROW_KIND":"+I",...}
 *
 * The range is fixed when it is opened (later commits are not followed).
 *
 * Thread safety: one thread per paimon_changes at a time; it uses its table handle, so the
 * table must not be used by another thread meanwhile.
 */
#ifndef PAIMON_CHANGES_H
#define PAIMON_CHANGES_H

#include <stddef.h>
#include <stdint.h>

#include "paimon/arrow.h"
#include "paimon/error.h"
#include "paimon/table.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct paimon_changes paimon_changes;

/* Where a range starts. */
typedef enum paimon_changes_from {
    PAIMON_CHANGES_FROM_EARLIEST = 0,  /* the earliest snapshot still there */
    PAIMON_CHANGES_FROM_LATEST = 1,    /* the latest snapshot (its own changes) */
    PAIMON_CHANGES_FROM_SNAPSHOT = 2,  /* snapshot from_value */
    PAIMON_CHANGES_FROM_TIMESTAMP = 3, /* the first snapshot committed at or after from_value
                                          (epoch ms), as Java's from-timestamp startup */
} paimon_changes_from;

/* Version the struct with PAIMON_CHANGES_OPTIONS_INIT. */
typedef struct paimon_changes_options {
    unsigned int version;       /* PAIMON_CHANGES_OPTIONS_VERSION */
    int from;                   /* a paimon_changes_from */
    int64_t from_value;         /* the snapshot id or timestamp `from` needs */
    int64_t to_snapshot;        /* > 0: the last snapshot of the range; 0: the latest */
    const char *const *columns; /* data columns by name, in order (after _ROW_KIND); NULL: all */
    size_t column_count;
    int64_t batch_rows; /* rows per batch; 0: 4096 */
} paimon_changes_options;

#define PAIMON_CHANGES_OPTIONS_VERSION 1
#define PAIMON_CHANGES_OPTIONS_INIT                                                                \
    {                                                                                              \
        PAIMON_CHANGES_OPTIONS_VERSION, PAIMON_CHANGES_FROM_EARLIEST, 0, 0, NULL, 0, 0             \
    }

/* Opens a change read of a range.  A table without snapshots, or a timestamp after the last
 * commit, gives an empty range.  PAIMON_ENOTFOUND for a snapshot id before the earliest
 * ("has expired") or after the latest ("does not exist") and for an unknown column;
 * PAIMON_EINVALID for a range that ends before it starts.  Caller owns `*out`; release with
 * paimon_changes_free(). */
PAIMON_API int paimon_table_changes(paimon_changes **out, paimon_table *table,
                                    const paimon_changes_options *options, paimon_error *err);

/* Releases the read (and any stream or row state of it).  NULL ok. */
PAIMON_API void paimon_changes_free(paimon_changes *changes);

/* The range's first and last snapshot ids (first > last when it is empty). */
PAIMON_API void paimon_changes_range(const paimon_changes *changes, int64_t *first, int64_t *last);

/* The output columns, _ROW_KIND first: number, names and type strings.  Borrowed; valid until
 * the read is freed. */
PAIMON_API size_t paimon_changes_column_count(const paimon_changes *changes);
PAIMON_API const char *paimon_changes_column_name(const paimon_changes *changes, size_t column);
PAIMON_API const char *paimon_changes_column_type(const paimon_changes *changes, size_t column);

/* One snapshot of the range. */
typedef struct paimon_changes_snapshot {
    int64_t id;
    const char *commit_kind; /* "APPEND", "COMPACT", "OVERWRITE", ... as written */
    int64_t time_millis;     /* commit time, epoch ms */
    int read;                /* 1: its changes are read; 0: Java's streaming read skips it */
    size_t file_count;       /* data or changelog files read for it */
} paimon_changes_snapshot;

/* Moves to the next snapshot of the range (every one, skipped ones included) and plans its
 * changes: 0, or PAIMON_ITEROVER after the last.  A snapshot of the range that has gone
 * meanwhile is PAIMON_ENOTFOUND.  `info`'s strings are borrowed; valid until the next call.
 * `info` may be NULL. */
PAIMON_API int paimon_changes_next_snapshot(paimon_changes *changes, paimon_changes_snapshot *info,
                                            paimon_error *err);

/* The current snapshot's changes as an Arrow stream of struct arrays (_ROW_KIND first).  The
 * caller owns `*out` and must call out->release(out) before moving to the next snapshot or
 * freeing the read.  Rows and the stream are two ways to read; use one per snapshot. */
PAIMON_API int paimon_changes_read(paimon_changes *changes, struct ArrowArrayStream *out,
                                   paimon_error *err);

/* Moves to the current snapshot's next change row: 0, or PAIMON_ITEROVER after its last. */
PAIMON_API int paimon_changes_next_row(paimon_changes *changes, paimon_error *err);

/* The current row as one canonical JSON object (no newline), "_ROW_KIND" first.  Borrowed;
 * valid until the next call on `changes`. */
PAIMON_API int paimon_changes_row_json(paimon_changes *changes, const char **json, size_t *len,
                                       paimon_error *err);

/* One value of the current row as canonical text (as paimon_rows_value_text); *text NULL for
 * a null.  Borrowed; valid until the next call on `changes`. */
PAIMON_API int paimon_changes_row_value_text(paimon_changes *changes, size_t column,
                                             const char **text, size_t *len, paimon_error *err);

#ifdef __cplusplus
}
#endif

#endif /* PAIMON_CHANGES_H */
