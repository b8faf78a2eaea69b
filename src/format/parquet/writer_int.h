/*
 * Internals shared by the writer's files: the schema it writes (writer_schema.c), the
 * per-column page encoder (column_writer.c) and the file assembly (writer.c).
 */
#ifndef PM_FORMAT_PARQUET_WRITER_INT_H
#define PM_FORMAT_PARQUET_WRITER_INT_H

#include "format/parquet/meta.h"
#include "format/parquet/schema.h"
#include "format/parquet/writer.h"
#include "util/arena.h"
#include "util/compress.h"
#include "util/error.h"
#include "util/pool.h"

/* How a batch value becomes a physical Parquet value. */
typedef enum pq_wconv {
    PQ_W_COPY,    /* same bytes: INT32 (INT, DATE, TIME millis), INT64, FLOAT, DOUBLE */
    PQ_W_BOOL,    /* bits */
    PQ_W_BYTES,   /* strings and binaries: BYTE_ARRAY */
    PQ_W_I8,      /* TINYINT -> INT32 */
    PQ_W_I16,     /* SMALLINT -> INT32 */
    PQ_W_DEC32,   /* decimal128 -> INT32 */
    PQ_W_DEC64,   /* decimal128 -> INT64 */
    PQ_W_DECFLBA, /* decimal128 -> big-endian FIXED_LEN_BYTE_ARRAY */
    PQ_W_MUL64,   /* INT64 * mul (TIMESTAMP(0) seconds -> millis) */
    PQ_W_DIV_I32, /* INT64 time units / div -> INT32 millis (TIME(p > 3)) */
    PQ_W_INT96    /* nanoseconds -> INT96 (Java's truncating day split) */
} pq_wconv;

/* Value order for statistics. */
typedef enum pq_worder {
    PQ_ORD_NONE, /* INT96: no statistics (parquet-java: unknown order) */
    PQ_ORD_BOOL,
    PQ_ORD_I32,
    PQ_ORD_I64,
    PQ_ORD_FLOAT,
    PQ_ORD_DOUBLE,
    PQ_ORD_BYTES,  /* unsigned lexicographic */
    PQ_ORD_DECIMAL /* FLBA two's complement big-endian, signed */
} pq_worder;

typedef enum pq_wstep_kind { PQ_WS_LEAF, PQ_WS_STRUCT, PQ_WS_LIST, PQ_WS_MAP } pq_wstep_kind;

/* One column on the path from a top-level column to a leaf. */
typedef struct pq_wstep {
    pq_wstep_kind kind;
    bool optional; /* the node adds a definition level when its value is present */
    int child;     /* STRUCT: field index; MAP: 0 keys, 1 values; LIST: 0 */
    int rep_level; /* LIST/MAP: repetition level of the repeated group */
} pq_wstep;

typedef struct pq_wleaf {
    int phys;            /* physical type */
    int32_t type_length; /* FIXED_LEN_BYTE_ARRAY */
    int max_def, max_rep;
    const pm_type *type; /* Paimon type of the leaf values (borrowed from the writer) */
    pq_wconv conv;
    int64_t factor; /* PQ_W_MUL64 multiplier, PQ_W_DIV_I32 divisor, PQ_W_INT96 units/s */
    pq_worder order;
    bool is_string; /* UTF-8 strings: index bounds truncated at character boundaries */
    int top;        /* top-level column index */
    pq_wstep steps[PQ_MAX_LEVEL + 1];
    int step_count;
    const char **path; /* names from the top-level column to the leaf (arena) */
    uint32_t path_len;
} pq_wleaf;

/* Builds the Parquet schema elements and the leaves of `row` (both in the arena). */
PM_MUST_CHECK int pm_pq_wschema_build(const pm_type *row, pm_arena *a, pq_schema_elem **elems,
                                      uint32_t *count, pq_wleaf **leaves, int *leaf_count,
                                      paimon_error *err);

/* ---- column writer --------------------------------------------------------------------- */

typedef struct pq_colw pq_colw;

typedef struct pq_page_jobs pq_page_jobs;

/* Per-writer context the column writers share. */
typedef struct pq_wctx {
    const pm_pq_writer_options *o;
    pm_codec_ctx *codec;
    pm_buf raw, comp, hdr; /* scratch: a page's bytes before and after compression */
    pm_buf conv;           /* scratch: values widened to their physical type */
    pq_page_jobs *jobs;    /* data pages compressed on a pool (page_jobs.c), or NULL */
} pq_wctx;

/* The library codec of a Parquet codec id the writer writes (PQ_UNCOMPRESSED:
 * PM_CODEC_NONE; column_writer.c). */
pm_codec pm_pq_codec_of(int codec);

pq_colw *pm_pq_colw_new(const pq_wleaf *leaf, const pm_pq_writer_options *o);
void pm_pq_colw_free(pq_colw *c);

/* Appends level entries (def/rep NULL when the maximum is 0) and their non-null values:
 * `values` slots of `leaf_col`, listed in `idx` (NULL: the consecutive slots from
 * `first`).  `rows` is how many rows the entries complete. */
PM_MUST_CHECK int pm_pq_colw_add(pq_colw *c, pq_wctx *x, const uint8_t *def, const uint8_t *rep,
                                 int64_t entries, int64_t rows, const pm_column *leaf_col,
                                 const int64_t *idx, int64_t first, int64_t values,
                                 paimon_error *err);

/* Ends the current page when it reached its size or row limits (or always with `force`). */
PM_MUST_CHECK int pm_pq_colw_maybe_flush(pq_colw *c, pq_wctx *x, bool force, paimon_error *err);

/* Rows in the open page. */
int64_t pm_pq_colw_page_rows(const pq_colw *c);

/* Bytes the column chunk holds so far (pages, dictionary, open page estimate).  While some of
 * its pages are being compressed on the pool, an upper bound: each such page counts as the
 * most its codec can make of it (pm_pq_page_jobs_bound), so a decision "below the limit"
 * taken on it is the one the exact size gives, and only one "at or above" needs the jobs
 * drained (pm_pq_page_jobs_drain) and the size asked again. */
int64_t pm_pq_colw_buffered(const pq_colw *c);

/* A data page compressed by a job (page_jobs.c), taken in page order: its header (`h`, with
 * the sizes and CRC still to fill) and `body` go into the chunk's store as the page's record
 * `rec` (an index into the chunk's pages) says. */
PM_MUST_CHECK int pm_pq_colw_page_done(pq_colw *c, pq_wctx *x, size_t rec, pq_page_header *h,
                                       const pm_buf *body, size_t raw_len, uint32_t crc,
                                       paimon_error *err);

/* ---- data pages compressed on a pool (page_jobs.c) --------------------------------------
 *
 * A finished data page is handed to a job with its uncompressed bytes (x->raw, swapped for
 * an empty buffer of the job's: nothing is copied) and compressed on the pool while the
 * writer encodes the next pages; the jobs are taken back in the order they were given, each
 * put into its chunk by pm_pq_colw_page_done().  The bytes written are the same as when each
 * page is compressed in place: the same codec and level over the same bytes, the pages in
 * the same order, and the writer's decisions on sizes (row groups, rolling files) taken on
 * exact sizes (pm_pq_colw_buffered above).  At most `slots` pages are out at once; giving a
 * page when all are out first takes back the oldest.  Errors of a job surface when it is
 * taken back. */

/* Jobs on `pool` (not NULL) for pages of codec `codec` (not PQ_UNCOMPRESSED) at `level`. */
PM_MUST_CHECK int pm_pq_page_jobs_new(pq_page_jobs **out, pm_pool *pool, int codec, int level,
                                      size_t slots, paimon_error *err);
/* Waits for the jobs still out (their pages are dropped) and frees everything. */
void pm_pq_page_jobs_free(pq_page_jobs *j);

/* Gives page `rec` of `c`, whose header is `h` and bytes x->raw, to a job. */
PM_MUST_CHECK int pm_pq_page_jobs_submit(pq_wctx *x, pq_colw *c, size_t rec,
                                         const pq_page_header *h, paimon_error *err);
/* Takes back every job out, in order. */
PM_MUST_CHECK int pm_pq_page_jobs_drain(pq_wctx *x, paimon_error *err);
/* Whether some job is out. */
bool pm_pq_page_jobs_pending(const pq_page_jobs *j);
/* The most bytes a page of `raw_len` bytes can take in the chunk (header and body). */
size_t pm_pq_page_jobs_bound(size_t raw_len);

/* Streams the open chunk into segments `seg` (its dictionary page) and `seg + 1` (its data
 * pages) of `sink` (which has segments, fs.h): each page goes out as it is finished instead of
 * waiting in memory for the row group's end.  Until the chunk is finished. */
void pm_pq_colw_stream(pq_colw *c, pm_output *sink, size_t seg);

/* Finishes the chunk, which starts at file offset `start`: writes it (dictionary page, data
 * pages) to `out` in order (`start` is then out->pos), or, when streamed, its dictionary page
 * to its segment; fills the chunk's metadata (stats bytes and page index entries copied into
 * `a`) and resets the writer for the next row group.  The chunk is
 * meta.total_compressed_size bytes long. */
PM_MUST_CHECK int pm_pq_colw_finish(pq_colw *c, pq_wctx *x, pm_output *out, int64_t start,
                                    pm_arena *a, pq_column_chunk *meta, pq_column_index **ci,
                                    pq_offset_index **oi, paimon_error *err);

#endif /* PM_FORMAT_PARQUET_WRITER_INT_H */
