/*
 * paimon-c: following a table -- a streaming read.
 *
 * A stream returns, one after another, what Java Paimon 1.4.2's streaming read returns
 * (behaviour.md §7.2-7.3): first, depending on `scan.mode`, a full read of one snapshot (the
 * merged rows; latest-full, the default, reads the latest snapshot), then the changes of each
 * new snapshot as it is committed (the rows of paimon/changes.h).  Every row comes with its
 * kind: column 0 is `_ROW_KIND` STRING NOT NULL ("+I", "-U", "+U", "-D"); the rows of the
 * full read have their stored kind ("+I" or "+U", retractions dropped; `$audit_log` and
 * `$binlog` keep them, as Java's forceKeepDelete).  Snapshots without changes for the read (COMPACT snapshots with
 * changelog-producer none, snapshots without a changelog with the other producers, empty
 * ones) are stepped over.
 *
 *   paimon_stream *st;
 *   paimon_stream_options o = PAIMON_STREAM_OPTIONS_INIT;
 *   o.consumer_id = "app";                        // resume where "app" stopped
 *   paimon_stream_open(&st, table, &o, &err);
 *   for (;;) {
 *       rc = paimon_stream_next(st, 1000, &info, &err);  // wait up to 1 s
 *       if (rc == PAIMON_STREAM_IDLE) continue;           // nothing new yet
 *       if (rc != 0) break;                               // PAIMON_ITEROVER: ended
 *       paimon_stream_cursor(&cur, st, &err);             // this snapshot's rows
 *       while (paimon_cursor_next(cur, &err) == 0) ...    // or paimon_cursor_arrow_stream
 *       paimon_cursor_free(cur);
 *       paimon_stream_checkpoint(st, &err);               // consumer/consumer-app
 *   }
 *
 * Waiting.  paimon_stream_next() blocks up to its timeout.  On a local file system it waits on
 * inotify for the table's snapshot/ directory and so wakes within milliseconds of a commit;
 * it also looks at least every polling interval (`continuous.discovery-interval` when the
 * table or the read sets it, else 100 ms), which is all it does where inotify is not
 * available or is turned off.
 *
 * Position.  paimon_stream_position() is the next snapshot the stream will read (Java's
 * checkpoint).  Resuming at a stored position (options.position) or with a consumer id
 * continues exactly there: no snapshot is lost or repeated, provided the position is stored
 * after the rows before it were processed.  A consumer (`consumer_id`, or the option
 * `consumer-id`) is Java's: its file consumer/consumer-<id> holds {"nextSnapshot": N}; a
 * stream opened with it starts at max(N, earliest) unless `consumer.ignore-progress` is true,
 * and paimon_stream_checkpoint() writes the current position there.  A consumer file also
 * keeps snapshot expiration from removing the snapshots it still needs.  `consumer.mode`
 * exactly-once and at-least-once are the same for one reader: the position is recorded once
 * the rows before it are processed.
 *
 * Errors while following (behaviour.md §7.3): a next snapshot that expired before it was read
 * is PAIMON_ENOTFOUND "The snapshot with id N has expired..."; a next snapshot far beyond the
 * latest (the table was dropped and recreated) PAIMON_ENOTFOUND "The next expected snapshot
 * is too big!...", both checked every 16th look that finds nothing, as Java does.
 *
 * Ownership and threads.  The stream borrows its table, which must outlive it and its cursors;
 * the caller owns the stream (paimon_stream_free()) and every cursor.  One thread per stream
 * at a time, and the table is used by the stream meanwhile: do not use it from another
 * thread.  A cursor of a snapshot may be read after the stream moved on or was freed.
 */
#ifndef PAIMON_STREAM_H
#define PAIMON_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "paimon/arrow.h"
#include "paimon/changes.h"
#include "paimon/cursor.h"
#include "paimon/error.h"
#include "paimon/table.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct paimon_stream paimon_stream;

/* paimon_stream_next(): nothing was committed within the timeout (not an error). */
#define PAIMON_STREAM_IDLE 1

/* paimon_stream_options.from: the read's scan.mode decides (after a consumer's progress). */
#define PAIMON_STREAM_FROM_SCAN_MODE (-1)

/* Version the struct with PAIMON_STREAM_OPTIONS_INIT or paimon_stream_options_init(); NULL
 * options follow the table from its scan.mode (default: the latest snapshot fully, then its
 * changes), every column. */
typedef struct paimon_stream_options {
    unsigned int version; /* PAIMON_STREAM_OPTIONS_VERSION */
    /* The read's options over the table's, as Java's dynamic options: scan.mode,
     * scan.snapshot-id, scan.timestamp-millis, scan.file-creation-time-millis,
     * scan.creation-time-millis, scan.bounded.watermark, streaming.read.snapshot.delay,
     * continuous.discovery-interval, consumer-id, consumer.ignore-progress, ... */
    const char *const *option_keys;
    const char *const *option_values;
    size_t option_count;
    const char *consumer_id; /* or NULL: as the option consumer-id */
    /* > 0: resume at this position (a paimon_stream_position() value), before scan.mode and
     * a consumer's progress; an expired position starts at the earliest snapshot. */
    int64_t position;
    /* PAIMON_STREAM_FROM_SCAN_MODE, or a paimon_changes_from: the changes from that snapshot
     * on (as paimon_table_changes() starts a range; `paimon tail --from`), no full read. */
    int from;
    int64_t from_value;
    int64_t to_snapshot;        /* > 0: the stream ends after this snapshot */
    const char *const *columns; /* data columns by name, in order (after _ROW_KIND); NULL: all */
    size_t column_count;
    int64_t batch_rows;       /* rows per batch; 0: 4096 */
    int64_t poll_interval_ms; /* > 0: look at least this often (overrides the option) */
    int no_inotify;           /* nonzero: poll only, never inotify */
    /* NULL: the table's rows.  A system table of the table read as a stream, by name (any
     * case), as Java reads it: "audit_log" -- column 0 is `rowkind` instead of `_ROW_KIND`,
     * a value like any other, and paimon_cursor_row_kind() says +I for every row;
     * "binlog" -- `rowkind`, then every column an ARRAY of its (nullable) type: `[v]` for a
     * row, and in the changes after the start a -U with the +U after it packed into one +U
     * row of `[before, after]`.  Other names are PAIMON_EUNSUPPORTED. */
    const char *system_table;
    /* Version 2.  Threads that read a snapshot's splits at once (paimon_scan_options.threads):
     * 0 the processors online, 1 the calling thread only; the rows and their order do not
     * depend on it. */
    unsigned int threads;
} paimon_stream_options;

#define PAIMON_STREAM_OPTIONS_VERSION 2 /* version 1 is still accepted */
#define PAIMON_STREAM_OPTIONS_INIT                                                                 \
    {                                                                                              \
        PAIMON_STREAM_OPTIONS_VERSION, NULL, NULL, 0, NULL, 0, PAIMON_STREAM_FROM_SCAN_MODE, 0, 0, \
            NULL, 0, 0, 0, 0, NULL, 0                                                              \
    }

/* Fills `options` with the defaults of version `version` of the struct, as
 * PAIMON_STREAM_OPTIONS_INIT does.  0, or PAIMON_EINVALID for a version this library does
 * not know. */
PAIMON_API int paimon_stream_options_init(paimon_stream_options *options, unsigned int version);

/* Opens a stream; reads nothing yet but the schema and the consumer (the start is resolved
 * by the first paimon_stream_next(), and again while the table has no snapshot).
 * PAIMON_EINVALID for options Java refuses in a streaming read (scan.mode incremental, a
 * tag or watermark start, a mode without its option, an unknown mode), PAIMON_ENOTFOUND for
 * an unknown column, PAIMON_EUNSUPPORTED for what paimon-c does not read yet.  Caller owns
 * `*out`; release with paimon_stream_free(). */
PAIMON_API int paimon_stream_open(paimon_stream **out, paimon_table *table,
                                  const paimon_stream_options *options, paimon_error *err);

/* Releases the stream (without writing the consumer).  NULL is allowed. */
PAIMON_API void paimon_stream_free(paimon_stream *stream);

/* The output columns, _ROW_KIND first.  Borrowed; valid until the stream is freed. */
PAIMON_API size_t paimon_stream_column_count(const paimon_stream *stream);
PAIMON_API const char *paimon_stream_column_name(const paimon_stream *stream, size_t column);
PAIMON_API const char *paimon_stream_column_type(const paimon_stream *stream, size_t column);

/* What paimon_stream_next() moved to. */
typedef struct paimon_stream_snapshot {
    int64_t id;              /* the snapshot read */
    int full;                /* 1: the full read of the start; 0: the snapshot's changes */
    const char *commit_kind; /* "APPEND", "COMPACT", ... as written */
    int64_t time_millis;     /* commit time, epoch ms */
    size_t file_count;       /* files read for it */
} paimon_stream_snapshot;

/* Waits up to `timeout_ms` (0: only look; < 0: forever) for the next snapshot with rows for
 * the read and plans it: 0 (its rows through paimon_stream_cursor()); PAIMON_STREAM_IDLE when
 * none came in time (also earlier, when a signal interrupts the wait, so that a caller's
 * signal handler is seen at once); PAIMON_ITEROVER when the stream has ended (the last
 * snapshot of options.to_snapshot, or scan.bounded.watermark); or an error, after which the
 * stream may be retried (the position did not move).  `info` may be NULL; its strings are
 * borrowed until the next call. */
PAIMON_API int paimon_stream_next(paimon_stream *stream, int64_t timeout_ms,
                                  paimon_stream_snapshot *info, paimon_error *err);

/* A cursor over the current snapshot's rows, _ROW_KIND first (paimon/cursor.h), once per
 * snapshot (a second call, or one without a current snapshot, is PAIMON_EINVALID).  It
 * borrows the table.  Caller owns `*out`; release with paimon_cursor_free(). */
PAIMON_API int paimon_stream_cursor(paimon_cursor **out, paimon_stream *stream, paimon_error *err);

/* The position: the next snapshot id the stream reads (every snapshot before it was
 * returned or stepped over); 0 before the start is known.  Store it to resume with
 * options.position. */
PAIMON_API int64_t paimon_stream_position(const paimon_stream *stream);

/* Records the position in the stream's consumer file (consumer/consumer-<id>,
 * {"nextSnapshot": N}), overwriting it.  Call it once the rows of every snapshot returned so
 * far are processed.  PAIMON_EINVALID without a consumer id; 0 without doing anything
 * before the start is known. */
PAIMON_API int paimon_stream_checkpoint(paimon_stream *stream, paimon_error *err);

#ifdef __cplusplus
}
#endif

#endif /* PAIMON_STREAM_H */
