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
 *   paimon_cursor *cur;
 *   paimon_changes_options o = PAIMON_CHANGES_OPTIONS_INIT;
 *   o.from = PAIMON_CHANGES_FROM_SNAPSHOT;
 *   o.from_value = 5;
 *   paimon_table_changes(&ch, table, &o, &err);
 *   while (paimon_changes_next_snapshot(ch, &info, &err) == 0) {
 *       paimon_changes_cursor(&cur, ch, &err);              // this snapshot's changes
 *       while (paimon_cursor_next(cur, &err) == 0)
 *           paimon_cursor_row_json(cur, &json, &len, &err); // {"_ROW_KIND":"+I",...}
 *       paimon_cursor_free(cur);
 *   }
 *
 * The rows come out through a cursor (paimon/cursor.h), row at a time or as an Arrow stream;
 * paimon_cursor_row_kind() gives each row's kind.  The range is fixed when it is opened
 * (later commits are not followed).
 *
 * Thread safety: one thread per paimon_changes at a time, and its cursors and streams use
 * its table handle too, so the table must not be used by another thread meanwhile.
 */
#ifndef PAIMON_CHANGES_H
#define PAIMON_CHANGES_H

#include <stddef.h>
#include <stdint.h>

#include "paimon/arrow.h"
#include "paimon/cursor.h"
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

/* Version the struct with PAIMON_CHANGES_OPTIONS_INIT or paimon_changes_options_init();
 * NULL options read from the earliest snapshot to the latest, every column. */
typedef struct paimon_changes_options {
    unsigned int version;       /* PAIMON_CHANGES_OPTIONS_VERSION */
    int from;                   /* a paimon_changes_from */
    int64_t from_value;         /* the snapshot id or timestamp `from` needs */
    int64_t to_snapshot;        /* > 0: the last snapshot of the range; 0: the latest */
    const char *const *columns; /* data columns by name, in order (after _ROW_KIND); NULL: all */
    size_t column_count;
    int64_t batch_rows; /* rows per batch; 0: 4096 */
    /* Version 2.  Threads that read a snapshot's splits at once (paimon_scan_options.threads):
     * 0 the processors online, 1 the calling thread only; the changes and their order do
     * not depend on it. */
    unsigned int threads;
} paimon_changes_options;

#define PAIMON_CHANGES_OPTIONS_VERSION 2 /* version 1 is still accepted */
#define PAIMON_CHANGES_OPTIONS_INIT                                                                \
    {                                                                                              \
        PAIMON_CHANGES_OPTIONS_VERSION, PAIMON_CHANGES_FROM_EARLIEST, 0, 0, NULL, 0, 0, 0          \
    }

/* Fills `options` with the defaults of version `version` of the struct (normally
 * PAIMON_CHANGES_OPTIONS_VERSION), as PAIMON_CHANGES_OPTIONS_INIT does, writing only the
 * bytes that version has.  0, or PAIMON_EINVALID for a version this library does not know. */
PAIMON_API int paimon_changes_options_init(paimon_changes_options *options, unsigned int version);

/* Opens a change read of a range; `options` may be NULL (see above).  A table without snapshots, or a timestamp after the last
 * commit, gives an empty range.  PAIMON_ENOTFOUND for a snapshot id before the earliest
 * ("has expired") or after the latest ("does not exist") and for an unknown column;
 * PAIMON_EINVALID for a range that ends before it starts.  Caller owns `*out`; release with
 * paimon_changes_free(). */
PAIMON_API int paimon_table_changes(paimon_changes **out, paimon_table *table,
                                    const paimon_changes_options *options, paimon_error *err);

/* Releases the read.  Cursors of it (and their streams) may outlive it, not its table.
 * NULL is allowed. */
PAIMON_API void paimon_changes_free(paimon_changes *changes);

/* The range's first and last snapshot ids (first > last when it is empty). */
PAIMON_API void paimon_changes_range(const paimon_changes *changes, int64_t *first, int64_t *last);

/* The output columns, _ROW_KIND first: number, names and type strings (the columns of every
 * cursor of the read).  Borrowed; valid until the read is freed. */
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
 * meanwhile is PAIMON_ENOTFOUND.  `info`'s strings are borrowed; valid until the next
 * paimon_changes_next_snapshot() or paimon_changes_free() (a cursor of the snapshot may
 * outlive them).
 * `info` may be NULL. */
PAIMON_API int paimon_changes_next_snapshot(paimon_changes *changes, paimon_changes_snapshot *info,
                                            paimon_error *err);

/* A cursor over the current snapshot's changes, _ROW_KIND first (paimon/cursor.h; its
 * Arrow stream leads with the utf8 `_ROW_KIND` child).  One cursor per snapshot: a second
 * call for the same snapshot is PAIMON_EINVALID, as is a call before the first
 * paimon_changes_next_snapshot() or after the last.  The cursor takes the snapshot's plan
 * with it: the read may move on to the next snapshot, and may be freed, while the cursor is
 * read.  It borrows the table, which must outlive it and its Arrow stream.  Caller owns
 * `*out`; release with paimon_cursor_free(). */
PAIMON_API int paimon_changes_cursor(paimon_cursor **out, paimon_changes *changes,
                                     paimon_error *err);

#ifdef __cplusplus
}
#endif

#endif /* PAIMON_CHANGES_H */
