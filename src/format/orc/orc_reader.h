/*
 * Reading ORC files (docs/format/orc.md): the file tail, stripes, and columns decoded into
 * vectors.
 *
 * Open reads the tail (the last byte gives the PostScript's length; the PostScript gives
 * the footer's and the metadata's; both may need decompressing) and checks the type tree.
 * Start plans a read: which columns (ORC column ids), how many rows per batch, optional
 * row ranges, and an optional callback that looks at column statistics and says whether a
 * stripe, or a row group of `rowIndexStride` rows, may hold wanted rows.  Next decodes the
 * next batch of rows into vectors until PAIMON_ITEROVER.
 *
 * Vectors (pm_orc_vec) use Arrow's layouts, so the data-file layer can move their buffers
 * into columnar batches without copying:
 *
 *   ORC kind                       values                           other buffers
 *   BOOLEAN                        bits, LSB first
 *   BYTE, SHORT, INT, LONG         int8, int16, int32, int64
 *   FLOAT, DOUBLE                  float, double
 *   DATE                           int32 days since 1970-01-01
 *   DECIMAL                        int128 unscaled, at the type's scale
 *   TIMESTAMP                      int64 milliseconds: the writer's wall-clock time as if
 *                                  it were UTC                      nanos: int32 nanoseconds
 *   TIMESTAMP_INSTANT              int64 milliseconds since the epoch     of the millisecond
 *   STRING, VARCHAR, CHAR, BINARY  bytes                            offsets: int32 [n + 1]
 *   LIST, MAP                      -                                offsets: int32 [n + 1];
 *                                                                   children: elements, or
 *                                                                   keys and values
 *   STRUCT                         -                                children: one per field
 *                                                                   (NULL when not read)
 *
 * `validity` is an LSB-first bitmap, empty while no slot is null; null slots hold zeros and
 * empty ranges.  A STRUCT's children have a slot for every row of the struct (null where
 * the struct is null); a LIST's or MAP's children hold only the elements.
 *
 * TIMESTAMP values are converted with the writer's time zone from each stripe footer
 * (orc_tz.h), so a TIMESTAMP reads as the LocalDateTime Java wrote, whatever the zone.
 * TIMESTAMP_INSTANT values written by Paimon's legacy LTZ path (the default) hold the
 * instant's wall clock in the writer's zone as an instant; the same zone undoes it.
 *
 * Every length, offset and count in the file is checked before use; malformed input is
 * PAIMON_ECORRUPT naming the file, the column and the stream.  Memory: the selected
 * streams of the current stripe, decompressed, and one batch (with a pool, the streams'
 * compressed bytes too: at most the stripe).  Limits (PAIMON_ELIMIT): a decompressed stream
 * of 2 GiB, `max_values` slots in one vector of a batch.
 *
 * Thread safety: one thread per reader (with a pool, its tasks decompress a stripe's
 * streams while the reader's thread waits for them).
 */
#ifndef PM_FORMAT_ORC_READER_H
#define PM_FORMAT_ORC_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format/orc/orc_meta.h"
#include "io/fs.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/pool.h"

typedef struct pm_orc_vec pm_orc_vec;

struct pm_orc_vec {
    uint32_t column;         /* ORC column id */
    const pm_orc_type *type; /* borrowed from the footer */
    int64_t length;          /* slots */
    int64_t null_count;
    pm_buf validity;       /* LSB-first bitmap; empty while no slot is null */
    pm_buf values;         /* see the table above */
    pm_buf offsets;        /* int32 offsets, length + 1 of them */
    pm_buf nanos;          /* TIMESTAMP: int32 nanoseconds of the millisecond */
    pm_orc_vec **children; /* STRUCT: subtype_count entries (NULL = not read); LIST 1; MAP 2 */
    size_t child_count;
};

typedef struct pm_orc_reader pm_orc_reader;

/* Decides whether rows described by per-column statistics may be wanted: `stats[c]` for
 * ORC column c, NULL when unknown.  false skips them. */
typedef bool (*pm_orc_stats_filter)(void *ctx, const pm_orc_stats *const *stats, size_t count,
                                    int64_t rows);

typedef struct pm_orc_read_options {
    const bool *include;   /* per ORC column id (type_count entries): read it; NULL: all */
    int64_t batch_rows;    /* 0: PM_ORC_DEFAULT_BATCH_ROWS */
    const int64_t *ranges; /* [start, end) row pairs, sorted and disjoint; NULL: all rows */
    size_t range_count;
    pm_orc_stats_filter filter; /* stripe and row-group pruning; NULL: none */
    void *filter_ctx;
    int64_t max_values; /* slots in one vector of a batch; 0: PM_ORC_DEFAULT_MAX_VALUES */
    /* TIMESTAMP_INSTANT as stored (Paimon's orc.timestamp-ltz.legacy.type=false); by
     * default (legacy, Java's default) the wall clock of the writer's zone is undone */
    bool ltz_utc;
    /* where the streams of each stripe are decompressed at once, several threads at a time
     * (orc_stream_jobs.h), or NULL: one after another on the reader's thread.  The rows and
     * the errors are the same either way. */
    pm_pool *pool;
} pm_orc_read_options;

#define PM_ORC_DEFAULT_BATCH_ROWS 65536
#define PM_ORC_DEFAULT_MAX_VALUES ((int64_t)1 << 26)

/* Opens `in`, taking ownership of it (also on failure).  `path` names the file in messages
 * (copied).  Caller owns `*out`; release with pm_orc_reader_free(). */
PM_MUST_CHECK int pm_orc_reader_open(pm_orc_reader **out, pm_input *in, const char *path,
                                     paimon_error *err);
void pm_orc_reader_free(pm_orc_reader *r);

/* Opens an ORC file held in memory; `data` is borrowed until pm_orc_reader_free(). */
PM_MUST_CHECK int pm_orc_reader_open_memory(pm_orc_reader **out, const uint8_t *data, size_t len,
                                            const char *path, paimon_error *err);

/* Borrowed; valid until the reader is freed. */
const pm_orc_postscript *pm_orc_reader_postscript(const pm_orc_reader *r);
const pm_orc_footer *pm_orc_reader_footer(const pm_orc_reader *r);
const char *pm_orc_reader_path(const pm_orc_reader *r);
uint64_t pm_orc_reader_file_size(const pm_orc_reader *r);

/* The stripe statistics of the Metadata section (decoded on first use).  Borrowed. */
PM_MUST_CHECK int pm_orc_reader_stripe_stats(pm_orc_reader *r, const pm_orc_stripe_stats **out,
                                             size_t *count, paimon_error *err);

/* The footer of stripe `i` and the row index of `column` in it (NULL when the stripe has
 * none).  Borrowed; valid until the next call of either, pm_orc_reader_start() or
 * pm_orc_reader_next(). */
PM_MUST_CHECK int pm_orc_reader_stripe_footer(pm_orc_reader *r, size_t stripe,
                                              const pm_orc_stripe_footer **out, paimon_error *err);
PM_MUST_CHECK int pm_orc_reader_row_index(pm_orc_reader *r, size_t stripe, uint32_t column,
                                          const pm_orc_row_index **out, paimon_error *err);

/* The decompressed bytes of one stream of stripe `stripe` (for tests and tools).  Appends
 * to `out`; *found false when the stripe has no such stream. */
PM_MUST_CHECK int pm_orc_reader_stream_bytes(pm_orc_reader *r, size_t stripe, uint32_t column,
                                             pm_orc_stream_kind kind, pm_buf *out, bool *found,
                                             paimon_error *err);

/* Plans a read and restarts from the first row.  `o` may be NULL. */
PM_MUST_CHECK int pm_orc_reader_start(pm_orc_reader *r, const pm_orc_read_options *o,
                                      paimon_error *err);

/* Decodes the next batch.  *root is the STRUCT vector of the root column (children NULL
 * for columns not read), borrowed until the next call.  PAIMON_ITEROVER after the last. */
PM_MUST_CHECK int pm_orc_reader_next(pm_orc_reader *r, const pm_orc_vec **root, paimon_error *err);

/* Streams decompressed on opts.pool so far, over the reader's reads. */
int64_t pm_orc_reader_streams_on_pool(const pm_orc_reader *r);

/* What pruning skipped in the current read: stripes, row groups and rows. */
void pm_orc_reader_skipped(const pm_orc_reader *r, int64_t *stripes, int64_t *groups,
                           int64_t *rows);

static inline bool pm_orc_vec_valid(const pm_orc_vec *v, int64_t i)
{
    return v->validity.len == 0 || (v->validity.data[i >> 3] >> (i & 7)) & 1;
}

static inline int32_t pm_orc_vec_offset(const pm_orc_vec *v, int64_t i)
{
    int32_t o;
    __builtin_memcpy(&o, v->offsets.data + (size_t)i * 4, 4);
    return o;
}

/* The Paimon field id of a type from its "paimon.id" attribute; false when absent or not a
 * number. */
bool pm_orc_field_id(const pm_orc_type *t, int32_t *id);

#endif /* PM_FORMAT_ORC_READER_H */
