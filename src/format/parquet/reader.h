/*
 * Reading a Parquet file into batches (data/batch.h).
 *
 * Open reads and checks the footer (docs/format/parquet.md: "PAR1", pages, FileMetaData,
 * its 4-byte length, "PAR1") and builds the schema tree.  Start plans a read: which columns
 * (a ROW type matched by field id, or by name for files without ids; by default the whole
 * file as the Paimon types of schema.h), how many rows per batch, an optional predicate
 * whose row groups and pages cannot match are skipped (chunk statistics, then the column
 * and offset indexes), and optional row ranges (the rows a deletion vector keeps).  Next
 * returns batches until PAIMON_ITEROVER.
 *
 * The predicate only prunes: batches may still hold rows that do not satisfy it; callers
 * that need exact filtering evaluate it on the batch (pm_predicate_eval_batch()).  Row
 * ranges are exact: only the rows inside them are returned.
 *
 * Memory: the column chunks of the current row group that the read needs, plus one batch.
 *
 * Thread safety: one thread per reader.
 */
#ifndef PM_FORMAT_PARQUET_READER_H
#define PM_FORMAT_PARQUET_READER_H

#include "data/batch.h"
#include "data/predicate.h"
#include "format/parquet/meta.h"
#include "format/parquet/schema.h"
#include "io/fs.h"
#include "util/error.h"
#include "util/pool.h"

typedef struct pm_pq_reader pm_pq_reader;

typedef struct pm_pq_read_options {
    const pm_type *read_type;   /* ROW type to read; NULL: the whole file */
    int64_t batch_rows;         /* rows per batch; 0: PM_PQ_DEFAULT_BATCH_ROWS */
    const pm_predicate *filter; /* over read_type (borrowed; must outlive the read) */
    const int64_t *ranges;      /* [start, end) row position pairs, sorted, disjoint */
    size_t range_count;         /* number of pairs; ranges NULL: every row */
    bool skip_crc;              /* do not verify page CRCs */
    size_t stream_chunk_bytes;  /* column chunks larger than this are read page by page
                                   through a window; 0: PM_PQ_STREAM_CHUNK_BYTES */
    size_t stream_window_bytes; /* bytes read at a time then; 0: PM_PQ_STREAM_WINDOW_BYTES */
    pm_pool *pool; /* decompress the next pages of each column here while a page is decoded
                      (column.h, "pages decompressed ahead"), or NULL: in place */
} pm_pq_read_options;

#define PM_PQ_DEFAULT_BATCH_ROWS 65536
/* A merge over many sorted runs then holds a window per column and run, not every run's
 * row group; smaller chunks are read with one read, which suits object stores. */
#define PM_PQ_STREAM_CHUNK_BYTES  ((size_t)8 << 20)
#define PM_PQ_STREAM_WINDOW_BYTES ((size_t)2 << 20)

/* Opens `in` (taking ownership of it, also on failure).  `path` names the file in
 * messages.  Caller owns `*out`; release with pm_pq_reader_free(). */
PM_MUST_CHECK int pm_pq_reader_open(pm_pq_reader **out, pm_input *in, const char *path,
                                    paimon_error *err);
void pm_pq_reader_free(pm_pq_reader *r);

/* Borrowed; valid until the reader is freed. */
const pq_file_meta *pm_pq_reader_meta(const pm_pq_reader *r);
const pq_schema *pm_pq_reader_schema(const pm_pq_reader *r);
/* The file's columns as a Paimon ROW type (schema.h).  Borrowed. */
const pm_type *pm_pq_reader_type(const pm_pq_reader *r);
const char *pm_pq_reader_path(const pm_pq_reader *r);
uint64_t pm_pq_reader_file_size(const pm_pq_reader *r);

/* Plans a read (and restarts from the first row).  `o` may be NULL. */
PM_MUST_CHECK int pm_pq_reader_start(pm_pq_reader *r, const pm_pq_read_options *o,
                                     paimon_error *err);

/* The next batch.  Caller owns `*out`; release with pm_batch_free().  PAIMON_ITEROVER
 * after the last. */
PM_MUST_CHECK int pm_pq_reader_next(pm_pq_reader *r, pm_batch **out, paimon_error *err);

/* The same into a batch the caller owns and reuses (created with pm_batch_new() of the
 * read type): it is reset, then filled.  Reusing batches keeps their memory warm. */
PM_MUST_CHECK int pm_pq_reader_next_into(pm_pq_reader *r, pm_batch *b, paimon_error *err);

/* How many data pages of the read begun by the last pm_pq_reader_start() were decompressed
 * by jobs on its pool (pm_pq_read_options.pool), for tests: the rest were decompressed in
 * place. */
int64_t pm_pq_reader_pages_ahead(const pm_pq_reader *r);

/* The page indexes of a column chunk; *ci / *oi are NULL when the file has none.
 * Borrowed; valid until the next call or pm_pq_reader_free(). */
PM_MUST_CHECK int pm_pq_reader_page_index(pm_pq_reader *r, uint32_t row_group, int leaf,
                                          const pq_column_index **ci, const pq_offset_index **oi,
                                          paimon_error *err);

/* What the filter pruned in the current read: row groups, and rows (in those groups and in
 * pruned pages). */
void pm_pq_reader_skipped(const pm_pq_reader *r, int64_t *row_groups, int64_t *rows);

#endif /* PM_FORMAT_PARQUET_READER_H */
