/*
 * paimon-c: changing tables: schema changes and commits.
 *
 * Schema changes write the next schema file with the create-if-absent protocol and Java's
 * rules on what may change (paimon_table_alter).
 *
 * Commits publish new data files as the next snapshot, atomically (snapshot-N is created
 * only if absent) and safely beside other writers: a commit that loses the race re-reads
 * the latest snapshot, checks for conflicts and retries with backoff up to
 * commit.max-retries.  A commit is described by a paimon_commit_messages set, filled by
 * writers (one per thread; merge the sets) and committed once.
 *
 * Writers (paimon_writer) turn rows into data files: rows go in as Arrow C Data Interface
 * arrays or one at a time, each with its row kind; prepare-commit flushes what was written
 * and adds it to a paimon_commit_messages; paimon_table_commit() publishes it.  An engine
 * writes in several threads (one writer each) and commits once:
 *
 *     thread i:  paimon_writer_open -> paimon_writer_write_arrow ... ->
 *                paimon_writer_prepare_commit(w, messages_i)
 *     then:      paimon_commit_messages_merge(all, messages_i) ... ->
 *                paimon_table_commit(table, all, ...)
 *
 * Text rows (JSONL, CSV, Debezium JSON) go in through a paimon_input reader bound to a
 * writer (paimon_input_write), as `paimon write` does.
 *
 * Compaction: writers of primary-key tables and fixed-bucket append tables restore their
 * bucket's files and compact them as Java's writers do (universal compaction after buffer
 * flushes, synchronously), unless the table is write-only; their messages then also carry
 * a compact increment, which paimon_table_commit() publishes as a COMPACT snapshot after
 * the APPEND one (*snapshot_id is the last).  paimon_table_compact() is the dedicated job.
 *
 * Ownership: every handle returned through an `out` parameter is the caller's and has a
 * _free function; arguments are borrowed for the call unless a function says otherwise.
 *
 * Thread safety: one thread per handle at a time (a paimon_input and its writer count as
 * one).  Writers of one table may run in
 * different threads at once (a writer uses only the table's path and file system, which
 * are thread-safe); on a primary-key table they must write different buckets (different
 * partitions, say), because two writers of one bucket would number their records from the
 * same sequence number (Java has the same rule).  Different paimon_commit_messages may be
 * filled by different threads and merged with paimon_commit_messages_merge().
 */
#ifndef PAIMON_WRITE_H
#define PAIMON_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "paimon/arrow.h"
#include "paimon/cursor.h" /* the row kinds, PAIMON_ROW_* */
#include "paimon/error.h"
#include "paimon/table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- schema changes -------------------------------------------------------------------- */

typedef enum paimon_alter_kind {
    PAIMON_ALTER_ADD_COLUMN = 1, /* column: "NAME TYPE [COMMENT '...']"; after / first */
    PAIMON_ALTER_DROP_COLUMN,    /* column: the name */
    PAIMON_ALTER_RENAME_COLUMN,  /* column: old name; value: new name */
    PAIMON_ALTER_ALTER_TYPE,     /* column: the name; value: the new type ("BIGINT") */
    PAIMON_ALTER_SET_OPTION,     /* column: the option key; value: its value */
    PAIMON_ALTER_REMOVE_OPTION   /* column: the option key */
} paimon_alter_kind;

/* One schema change.  Version the struct with PAIMON_ALTER_INIT or paimon_alter_init(). */
typedef struct paimon_alter {
    unsigned int version; /* PAIMON_ALTER_VERSION */
    paimon_alter_kind kind;
    const char *column; /* see paimon_alter_kind */
    const char *value;  /* see paimon_alter_kind */
    const char *after;  /* ADD_COLUMN: place after this column, or NULL */
    int first;          /* ADD_COLUMN: place first */
} paimon_alter;

#define PAIMON_ALTER_VERSION 1
#define PAIMON_ALTER_INIT                                                                          \
    {                                                                                              \
        PAIMON_ALTER_VERSION, PAIMON_ALTER_ADD_COLUMN, NULL, NULL, NULL, 0                         \
    }

/* Fills `change` with the defaults of version `version` of the struct (normally
 * PAIMON_ALTER_VERSION), as PAIMON_ALTER_INIT does, writing only the bytes that version has.
 * 0, or PAIMON_EINVALID for a version this library does not know. */
PAIMON_API int paimon_alter_init(paimon_alter *change, unsigned int version);

/* Applies one change to the table at `path` and writes the next schema.  `change` is
 * required (it is the change, not options): NULL is PAIMON_EINVALID.  `*schema_id`
 * (may be NULL) receives the new schema id.  PAIMON_EINVALID for a change Java rejects
 * (the message says why), PAIMON_EUNSUPPORTED for changes Java does not support yet
 * (immutable options, bucket to or from -1, ...), PAIMON_ENOTFOUND for unknown columns. */
PAIMON_API int paimon_table_alter(const char *path, const paimon_alter *change, int64_t *schema_id,
                                  paimon_error *err);

/* ---- commits --------------------------------------------------------------------------- */

/* What writers produced and a commit publishes: new and removed data files per partition
 * and bucket, changelog files and index-file changes. */
typedef struct paimon_commit_messages paimon_commit_messages;

/* Caller owns `*out`; release with paimon_commit_messages_free(). */
PAIMON_API int paimon_commit_messages_new(paimon_commit_messages **out, paimon_error *err);
PAIMON_API void paimon_commit_messages_free(paimon_commit_messages *messages);
/* Moves every message of `src` into `dst` (src is left empty). */
PAIMON_API int paimon_commit_messages_merge(paimon_commit_messages *dst,
                                            paimon_commit_messages *src, paimon_error *err);
/* Data files the messages add (the number of ADD entries). */
PAIMON_API size_t paimon_commit_messages_count(const paimon_commit_messages *messages);
/* Whether the messages hold nothing a commit would publish: no data, changelog or index
 * change, and no compaction result (which paimon_commit_messages_count() does not count:
 * a last prepare after the input ended may hold only the compactions still running and
 * their deletion vectors, and those must be committed). */
PAIMON_API bool paimon_commit_messages_empty(const paimon_commit_messages *messages);

/* What paimon_table_commit() did, part by part (docs/WRITING.md, "Commit results").  The
 * caller sets `version` (PAIMON_COMMIT_RESULT_INIT); the call fills the rest. */
typedef struct paimon_commit_result {
    unsigned int version;        /* PAIMON_COMMIT_RESULT_VERSION */
    int64_t snapshot_id;         /* the data's snapshot (APPEND or OVERWRITE); 0: none */
    int64_t compact_snapshot_id; /* the writers' compaction's COMPACT snapshot; 0: none */
    int64_t committed_before;    /* > 0: nothing was committed, because this snapshot of the
                                    commit user has this identifier or a later one */
    int uncertain;               /* a failed call that could not tell whether its snapshot
                                    was written: keep the messages' files */
    paimon_error compact_err;    /* code != 0: the compaction part failed after the data was
                                    committed (the call returned 0); its files are removed */
    paimon_error maintain_err;   /* version 2.  code != 0: the table's upkeep after the commit
                                    (expiring consumers, snapshots and partitions, automatic
                                    tags) failed; the commit stands (the call returned 0) and
                                    the next commit's upkeep finishes the job */
} paimon_commit_result;

#define PAIMON_COMMIT_RESULT_VERSION 2 /* version 1 (without maintain_err) is still accepted */
/* clang-format off */
#define PAIMON_COMMIT_RESULT_INIT                                                                  \
    {                                                                                              \
        PAIMON_COMMIT_RESULT_VERSION, 0, 0, 0, 0, { 0, { 0 } }, { 0, { 0 } }                       \
    }
/* clang-format on */

/* How to commit.  Version the struct with PAIMON_COMMIT_OPTIONS_INIT or
 * paimon_commit_options_init(); NULL options are the defaults (a fresh commit user, a batch
 * commit that appends). */
typedef struct paimon_commit_options {
    unsigned int version;         /* PAIMON_COMMIT_OPTIONS_VERSION */
    const char *commit_user;      /* stable per writer; NULL: a fresh UUID */
    int64_t identifier;           /* strictly increasing per user; batch commits use INT64_MAX */
    int overwrite;                /* replace data: the partitions below, or as Java decides */
    const char *const *partition; /* overwrite only: "k=v" items naming the partitions (see
                                     paimon_table_check_partition) */
    size_t partition_count;
    paimon_commit_result *result; /* version 2; may be NULL: receives what the commit did */
    /* version 3: the snapshot's "properties" map (Java's ManifestCommittable.properties),
     * recorded in every snapshot the commit makes, as Java does; none: no "properties" field.
     * Keys must be distinct and non-empty; a CDC source records its position here. */
    const char *const *property_keys;
    const char *const *property_values;
    size_t property_count;
} paimon_commit_options;

#define PAIMON_COMMIT_OPTIONS_VERSION                                                              \
    3 /* versions 1 (without result) and 2 (without
                                           properties) are still accepted */
#define PAIMON_COMMIT_OPTIONS_INIT                                                                 \
    {                                                                                              \
        PAIMON_COMMIT_OPTIONS_VERSION, NULL, INT64_MAX, 0, NULL, 0, NULL, NULL, NULL, 0            \
    }

/* Fills `options` with the defaults of version `version` of the struct (normally
 * PAIMON_COMMIT_OPTIONS_VERSION), as PAIMON_COMMIT_OPTIONS_INIT does, writing only the bytes
 * that version has.  0, or PAIMON_EINVALID for a version this library does not know. */
PAIMON_API int paimon_commit_options_init(paimon_commit_options *options, unsigned int version);

/* Checks `partition_count` "k=v" items naming partitions of `table` (its schema when
 * opened), as paimon_table_commit() and paimon_table_compact() read them: each value is
 * parsed as its partition column's type, in the text form rows are written in (DATE
 * 2026-04-19, TIMESTAMP 2026-04-19 10:11:12.5, DECIMAL 1.50, BOOLEAN true, BINARY
 * base64:AQI=, strings as they are), and the table's partition.default-name
 * (__DEFAULT_PARTITION__) stands for null.  Partitions are then matched by value, never by
 * directory name.  0, or PAIMON_EINVALID naming the item: not k=v, a column that is not a
 * partition key or is given twice, a value that does not parse.  Lets a caller tell a bad
 * request from a failed operation before doing any work. */
PAIMON_API int paimon_table_check_partition(paimon_table *table, const char *const *partition,
                                            size_t partition_count, paimon_error *err);

/* Commits `messages` to `table`; `options` may be NULL (the defaults).  `*snapshot_id` (may be NULL) receives the id of the last
 * new snapshot, or 0 when nothing was committed (empty commits are skipped, as Java's batch
 * commits do).  The messages are not consumed.
 *
 * The return value tells the truth: nonzero means nothing of the messages is in the table
 * (except when result->uncertain); commit them again, or release their files with
 * paimon_commit_messages_abort().  PAIMON_ECONFLICT when a concurrent commit conflicts (the
 * message says with what) or the retries ran out (only a snapshot name taken by another
 * writer is retried; any other failure to write the snapshot, a permission error say, is
 * returned at once with the path and the reason).  Messages with a compact increment (the
 * writers compacted) make two snapshots, the data's and a COMPACT one; when the data's
 * lands and the compaction's then fails (another writer compacted the same files), the call
 * returns 0, as the data is committed, and says why in result->compact_err.  The writers
 * that prepared such messages still see their compaction in their buckets: free them and
 * open new ones (restored from the table as it is) before writing more rows.
 *
 * Exactly-once retries (Java's filterCommitted): with a commit_user given and an
 * identifier other than INT64_MAX, a commit finds whether a snapshot of that user with
 * this identifier or a later one exists; then it commits nothing, returns 0 and sets
 * result->committed_before.  Retrying a commit with the same user and identifier is safe.
 *
 * When the table sets precommit-compact (changelog.precommit-compact), the changelog files
 * are first packed per partition as Java's Flink sink does (docs/WRITING.md); the packed
 * originals are removed once the snapshot is committed, and a failed commit removes what
 * it packed, so the messages can be committed again. */
PAIMON_API int paimon_table_commit(paimon_table *table, const paimon_commit_messages *messages,
                                   const paimon_commit_options *options, int64_t *snapshot_id,
                                   paimon_error *err);

/* Removes the files `messages` add to `table` (new data, changelog and index files, and the
 * results of the writers' compaction; never a file the messages remove), as Java's
 * FileStoreCommit.abort does: for messages that will not be committed, after
 * paimon_table_commit() failed (and result->uncertain is 0), or skipped them as committed
 * before (result->committed_before) when they were written anew.  Never for messages that
 * may be in the table.  Files already gone are fine. */
PAIMON_API int paimon_commit_messages_abort(paimon_table *table,
                                            const paimon_commit_messages *messages,
                                            paimon_error *err);

/* ---- compaction ----------------------------------------------------------------------- */

/* How to compact.  Version the struct with PAIMON_COMPACT_OPTIONS_INIT or
 * paimon_compact_options_init(); NULL options are the defaults (every partition, as the
 * strategy picks, a fresh commit user). */
typedef struct paimon_compact_options {
    unsigned int version;         /* PAIMON_COMPACT_OPTIONS_VERSION */
    int full;                     /* everything into the highest level (else: as the strategy
                                     picks, Java's universal compaction) */
    const char *const *partition; /* "k=v" items: only partitions matching all; none: all
                                     (see paimon_table_check_partition) */
    size_t partition_count;
    const char *commit_user;    /* NULL: a fresh UUID */
    paimon_error *maintain_err; /* version 2; may be NULL: receives the failure of the table's
                                   upkeep after the COMPACT commit (see paimon_commit_result),
                                   code 0 when it succeeded; the compaction stands either way */
    unsigned int threads;       /* version 3: buckets compacted at once on the library's thread
                                   pool; 0 (the default) the processors online, 1 the calling
                                   thread only.  The snapshot holds the same files per bucket
                                   and level, and the same rows, for any count. */
} paimon_compact_options;

#define PAIMON_COMPACT_OPTIONS_VERSION 3 /* versions 1 and 2 are still accepted */
#define PAIMON_COMPACT_OPTIONS_INIT                                                                \
    {                                                                                              \
        PAIMON_COMPACT_OPTIONS_VERSION, 0, NULL, 0, NULL, NULL, 0                                  \
    }

/* Fills `options` with the defaults of version `version` of the struct (normally
 * PAIMON_COMPACT_OPTIONS_VERSION), as PAIMON_COMPACT_OPTIONS_INIT does, writing only the bytes
 * that version has.  0, or PAIMON_EINVALID for a version this library does not know. */
PAIMON_API int paimon_compact_options_init(paimon_compact_options *options, unsigned int version);

/* Compacts a table as Java's dedicated compaction job does (the buckets of primary-key and
 * fixed-bucket append tables, the small files of unaware-bucket append tables) and commits
 * the result as one COMPACT snapshot; `options` may be NULL (the defaults).  `*snapshot_id`
 * (may be NULL) receives its id, or 0 when there was nothing to compact (no snapshot is
 * made).  What paimon-c cannot write (postpone buckets, ...) is PAIMON_EUNSUPPORTED, as for
 * writers.  PAIMON_ECONFLICT when a concurrent commit removed a file being compacted. */
PAIMON_API int paimon_table_compact(paimon_table *table, const paimon_compact_options *options,
                                    int64_t *snapshot_id, paimon_error *err);

/* ---- writers -------------------------------------------------------------------------- */

typedef struct paimon_writer paimon_writer;

/* How to write.  Version the struct with PAIMON_WRITER_OPTIONS_INIT or
 * paimon_writer_options_init(); NULL options are the defaults (rows to append). */
typedef struct paimon_writer_options {
    unsigned int version;    /* PAIMON_WRITER_OPTIONS_VERSION */
    int overwrite;           /* rows for an overwrite commit (Java ignores previous files) */
    const char *commit_user; /* the commit user that will commit (may be NULL) */
    /* Version 2.  Buckets whose write buffers are flushed (sorted, encoded, compressed,
     * written) and compacted at once, on the process's one thread pool, which also spills
     * full buffers in the background: 0 (the default) the processors online, 1 the calling
     * thread only.  Files, sequence numbers and rows do not
     * depend on it.  The buffers of all buckets together stay within the table's
     * write-buffer-size whatever the count. */
    unsigned int threads;
    /* Version 2.  When a bucket's compaction runs and its result is committed, one of:
     *  PAIMON_COMPACTION_SYNC (0, the default): every prepare-commit waits for the
     *    compactions it starts, as a batch write's does.
     *  PAIMON_COMPACTION_ASYNC: Java's streaming writer.  A compaction runs in the
     *    background while rows keep coming; a flush or prepare-commit takes its result only
     *    once it is finished, and waits for it only where Java's writer waits (past
     *    num-sorted-run.stop-trigger sorted runs at a flush, stop-trigger + 1 at a
     *    prepare-commit, full compactions, lookup-wait for tables that need lookups, tables
     *    with deletion vectors or lookups at a flush).  Commits do not stall on compaction;
     *    which commit carries a compaction depends on timing and on `threads`.
     *  PAIMON_COMPACTION_ASYNC_FIXED: as ASYNC, but a running compaction's result is taken
     *    at the bucket's next flush or prepare-commit, waiting for it there: the files
     *    committed are the same whatever the timing and `threads` (a commit may wait for the
     *    compaction the previous one started).
     * With either async mode, call paimon_writer_end_input() before the last
     * prepare-commit.  A failure of a background compaction is the error of the writer's
     * next call, and the writer is unusable afterwards (nothing of it is committed). */
    int async_compaction;
} paimon_writer_options;

#define PAIMON_COMPACTION_SYNC        0
#define PAIMON_COMPACTION_ASYNC       1
#define PAIMON_COMPACTION_ASYNC_FIXED 2

#define PAIMON_WRITER_OPTIONS_VERSION 2 /* version 1 is still accepted */
#define PAIMON_WRITER_OPTIONS_INIT                                                                 \
    {                                                                                              \
        PAIMON_WRITER_OPTIONS_VERSION, 0, NULL, 0, 0                                               \
    }

/* Fills `options` with the defaults of version `version` of the struct (normally
 * PAIMON_WRITER_OPTIONS_VERSION), as PAIMON_WRITER_OPTIONS_INIT does, writing only the bytes
 * that version has.  0, or PAIMON_EINVALID for a version this library does not know. */
PAIMON_API int paimon_writer_options_init(paimon_writer_options *options, unsigned int version);

/* Opens a writer of the rows of `table` (its latest schema); `options` may be NULL (the
 * defaults).  `table` is borrowed and must
 * outlive the writer.  PAIMON_EUNSUPPORTED names what this library cannot write yet
 * (tables Java compacts at every commit, postpone buckets, ...).  Caller owns `*out`;
 * release with paimon_writer_free(). */
PAIMON_API int paimon_writer_open(paimon_writer **out, paimon_table *table,
                                  const paimon_writer_options *options, paimon_error *err);

/* The Arrow schema rows must have: a struct ("+s") with one child per table column, in
 * schema order.  Caller owns `*out`; release with out->release(). */
PAIMON_API int paimon_writer_arrow_schema(const paimon_writer *writer, struct ArrowSchema *out,
                                          paimon_error *err);

/* Writes the rows of `array`, a struct array of `schema` (whose children are the table's
 * columns in order; formats as in paimon/arrow.h).  `kinds` holds one PAIMON_ROW_* byte per
 * row, or is NULL for all inserts.  Both are borrowed: the array is copied, not released.
 * A bad row (a null in a NOT NULL column, a row kind the table refuses) is PAIMON_EINVALID
 * naming the row; the writer is then unusable (free it: its files are removed). */
PAIMON_API int paimon_writer_write_arrow(paimon_writer *writer, const struct ArrowSchema *schema,
                                         const struct ArrowArray *array, const int8_t *kinds,
                                         paimon_error *err);

/* One value of a row written with paimon_writer_write_row(). */
typedef enum paimon_value_type {
    PAIMON_VALUE_NULL = 0,
    PAIMON_VALUE_BOOL,     /* b: BOOLEAN */
    PAIMON_VALUE_INT,      /* i: integers; DATE (days), TIME (ms of the day); DECIMAL (an
                               integer value) */
    PAIMON_VALUE_DOUBLE,   /* d: FLOAT, DOUBLE */
    PAIMON_VALUE_TEXT,     /* s: CHAR/VARCHAR; any other scalar column parses it as Java
                               casts a string (decimals, dates, timestamps, ...) */
    PAIMON_VALUE_BYTES,    /* s: BINARY, VARBINARY */
    PAIMON_VALUE_TIMESTAMP /* ts: TIMESTAMP, TIMESTAMP WITH LOCAL TIME ZONE */
} paimon_value_type;

typedef struct paimon_value {
    paimon_value_type type;
    union {
        int b;
        int64_t i;
        double d;
        struct {
            const char *ptr; /* borrowed for the call */
            size_t len;
        } s;
        struct {
            int64_t millis; /* since the epoch */
            int32_t nanos;  /* of the millisecond, 0..999999 */
        } ts;
    } v;
} paimon_value;

/* Writes one row: `values[i]` for column i (`count` must be the column count) with its row
 * kind.  Nested columns (ARRAY, MAP, MULTISET, ROW) take a null or PAIMON_VALUE_TEXT
 * holding the value's canonical JSON, as `paimon write` reads it (an ARRAY a JSON array, a
 * ROW an object, ...; every check applied); many rows of them go faster as Arrow with
 * paimon_writer_write_arrow().  Rows are gathered into batches internally. */
PAIMON_API int paimon_writer_write_row(paimon_writer *writer, const paimon_value *values,
                                       size_t count, int8_t kind, paimon_error *err);

/* Flushes everything written so far into data files and appends them (and index changes)
 * to `messages`.  The writer stays open: later rows continue the sequence numbers and go to
 * the next prepare-commit. */
PAIMON_API int paimon_writer_prepare_commit(paimon_writer *writer, paimon_commit_messages *messages,
                                            paimon_error *err);

/* No more rows come (Java's endInput): from now on prepare-commits wait for every
 * compaction, as without async_compaction, so that the last commit leaves none running
 * (a compaction still running when the writer is freed is lost: its files are removed). */
PAIMON_API int paimon_writer_end_input(paimon_writer *writer, paimon_error *err);

/* Rows accepted so far (after the row-kind filters of the table's options). */
PAIMON_API int64_t paimon_writer_rows(const paimon_writer *writer);

/* Releases the writer; files written since the last prepare-commit are removed.  NULL is
 * allowed. */
PAIMON_API void paimon_writer_free(paimon_writer *writer);

/* ---- input rows (paimon write) ---------------------------------------------------------- */

/* A reader of text rows for a writer's table: JSONL (canonical rows, an optional "_ROW_KIND"
 * key), CSV with a header row, or Debezium JSON change events (docs/format/input.md).  Every
 * value is checked against its column type; nothing is rounded, truncated or padded. */
typedef struct paimon_input paimon_input;

/* Opens a reader of `file` (borrowed: it must stay open until paimon_input_free(), which
 * does not close it) in `format`: "jsonl", "csv" or "debezium-json" (PAIMON_EINVALID for
 * another name).  The rows have the columns of `writer`'s table, which must outlive the
 * reader.  Caller owns `*out`; release with paimon_input_free(). */
PAIMON_API int paimon_input_open(paimon_input **out, const paimon_writer *writer, FILE *file,
                                 const char *format, paimon_error *err);

/* Names the input in messages ("stdin", a file name; NULL: none, the default): errors about
 * the input or one of its rows then read "NAME: line L, column C: ...".  Errors of anything
 * else (a table's metadata file, say) never carry it: they name their own file.  The name
 * is copied. */
PAIMON_API int paimon_input_set_name(paimon_input *input, const char *name, paimon_error *err);

/* Reads rows and writes them into `writer`: at most `max_rows` (<= 0: no limit), so that a
 * caller can prepare a commit every so many rows.  `*rows` (may be NULL) receives the rows
 * read by this call.  Returns 0 when the limit was reached (more rows may follow),
 * PAIMON_ITEROVER at the end of the input, or an error: a malformed record or a bad value is
 * PAIMON_EINVALID naming the input (paimon_input_set_name), the line (1-based, where the
 * record starts) and the column, as do the writer's own row checks (a row kind the table
 * refuses); a read error is PAIMON_EIO.  After an error the writer is unusable: free it without committing, and
 * nothing of this input is committed.  One thread at a time per reader and writer. */
PAIMON_API int paimon_input_write(paimon_input *input, paimon_writer *writer, int64_t max_rows,
                                  int64_t *rows, paimon_error *err);

/* The input line where the last row read so far starts (0 before any). */
PAIMON_API int64_t paimon_input_line(const paimon_input *input);

/* Releases the reader.  NULL is allowed. */
PAIMON_API void paimon_input_free(paimon_input *input);

#ifdef __cplusplus
}
#endif

#endif /* PAIMON_WRITE_H */
