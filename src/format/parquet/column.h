/*
 * Reading one column chunk: pages, the dictionary, levels and values.
 *
 * The chunk's bytes (all its pages, as stored) are handed over in one padded buffer, or, for
 * large chunks, read from the file window by window (pm_pq_col_start_stream(): a window of
 * a given size or one page, whichever is larger, so a reader holds about a page per column
 * instead of the whole row group, which is what bounds the memory of a merge over many
 * sorted runs).  Pages
 * are read in order: the page header (Thrift), then the page body, checked against its CRC
 * when the page has one, decompressed with the chunk's codec (Hadoop-framed LZ4 included),
 * its levels decoded into byte arrays, and its values decoded on demand straight into the
 * leaf's pm_column in the batch layout (converting physical values as the plan says;
 * dictionaries are converted once when their page is read).
 *
 * Two ways to read:
 *  - top-level columns (max_rep 0, max_def 0 or 1): pm_pq_col_read_flat() appends `n`
 *    slots (values and nulls) to the column directly;
 *  - nested columns: pm_pq_col_read_levels() appends the definition and repetition levels
 *    of `n` rows to two byte buffers and the non-null values, densely, to the column; the
 *    assembler (assemble.c) then builds offsets and validity and spaces the values out.
 * pm_pq_col_skip_rows() skips rows, dropping whole pages unread when their row count is
 * known (flat columns, v2 pages, or the offset index).
 *
 * Every failure names the file and the offset of the page concerned.
 */
#ifndef PM_FORMAT_PARQUET_COLUMN_H
#define PM_FORMAT_PARQUET_COLUMN_H

#include "data/batch.h"
#include "io/fs.h"
#include "format/parquet/encoding.h"
#include "format/parquet/meta.h"
#include "format/parquet/schema.h"
#include "util/compress.h"
#include "util/error.h"
#include "util/pool.h"

/* Limits on what one page may claim, against hostile headers. */
#define PQ_MAX_PAGE_BYTES  (256u << 20) /* decompressed page size */
#define PQ_MAX_PAGE_VALUES (1 << 24)    /* level entries in a page */

typedef struct pq_col_reader {
    /* set by init */
    const char *path;        /* file, for messages */
    const pq_leaf *leaf;     /* the leaf column */
    const pq_plan *plan;     /* the leaf's plan: conversion and scale */
    int codec;               /* PQ_* codec of the chunk */
    pm_codec_ctx *codec_ctx; /* borrowed, reused across pages */
    const uint8_t *chunk;    /* the chunk's bytes (borrowed, padded); NULL when streamed */
    pm_input *in;            /* streamed: the file (borrowed), else NULL */
    uint8_t *win;            /* streamed: chunk bytes [win_start, +win_len), padded (owned) */
    size_t win_cap;          /* bytes allocated for win */
    size_t win_start, win_len;
    size_t win_min; /* streamed: bytes read at a time (more for a larger page) */
    size_t chunk_len;
    uint64_t chunk_off;        /* file offset of chunk[0] */
    int64_t chunk_values;      /* ColumnMetaData.num_values: level entries in the chunk */
    const pq_offset_index *oi; /* optional, for skipping pages */
    bool verify_crc;           /* check page CRCs where present */

    /* position */
    size_t pos;          /* next page header in chunk */
    uint32_t page_idx;   /* data pages started so far */
    int64_t values_seen; /* level entries of the pages started so far */

    /* dictionary, converted to the batch layout */
    pm_column *dict; /* NULL until a dictionary page was read */
    int64_t dict_count;

    /* current data page */
    bool in_page;
    uint64_t page_off;   /* file offset of its header */
    int encoding;        /* of its values */
    int32_t page_levels; /* level entries in the page */
    int32_t level_pos;   /* next level entry */
    int32_t page_values; /* non-null values in the page */
    int32_t value_pos;   /* next value */
    pm_buf page_buf;     /* decompressed page (owned, padded) */
    pm_buf def, rep;     /* the page's levels (one byte each) */
    const uint8_t *data; /* the values section */
    size_t data_len;

    /* value decoder state */
    pm_rle_decoder rle;     /* dictionary indices, RLE booleans */
    pm_delta_decoder delta; /* DELTA_BINARY_PACKED ints */
    pm_buf lengths;         /* DELTA_LENGTH/DELTA_BYTE_ARRAY: int32 lengths */
    pm_buf prefixes;        /* DELTA_BYTE_ARRAY: int32 prefix lengths */
    pm_buf last_value;      /* DELTA_BYTE_ARRAY: the previous value */
    size_t data_pos;        /* PLAIN, DELTA_*: next byte of `data`; BOOLEAN: next bit */
    pm_buf scratch;         /* decoded physical values before conversion */
    pm_buf indices;         /* dictionary indices */
    pm_column *tmp;         /* a column of the physical values, for conversions */
    pm_column *skip;        /* where skipped values are decoded and dropped */

    /* pages decompressed ahead (page_ahead.c): the pool, or NULL to decompress in place */
    pm_pool *pool;
    struct pq_pages_ahead *ahead; /* the jobs, made when the first one is handed out */
    int64_t pages_ahead;          /* pages taken from jobs so far (tests ask) */
} pq_col_reader;

void pm_pq_col_init(pq_col_reader *r, const char *path, const pq_leaf *leaf, const pq_plan *plan,
                    int codec, pm_codec_ctx *ctx);
/* Starts a new chunk (keeps the buffers). */
void pm_pq_col_start(pq_col_reader *r, const uint8_t *chunk, size_t len, uint64_t chunk_off,
                     int64_t num_values, const pq_offset_index *oi);
/* Starts a new chunk that is read from `in` (borrowed; it must outlive the chunk's reading)
 * `window` bytes at a time (at least; a page at a time when larger): bytes
 * [chunk_off, chunk_off + len) of the file. */
void pm_pq_col_start_stream(pq_col_reader *r, pm_input *in, size_t window, size_t len,
                            uint64_t chunk_off, int64_t num_values, const pq_offset_index *oi);
void pm_pq_col_free(pq_col_reader *r);

/* Appends `n` slots of a top-level column (max_rep 0, max_def 0 or 1) to `col`. */
PM_MUST_CHECK int pm_pq_col_read_flat(pq_col_reader *r, int64_t n, pm_column *col,
                                      paimon_error *err);

/* Appends the levels of `n` rows to `def`/`rep` and their non-null values to `col`. */
PM_MUST_CHECK int pm_pq_col_read_levels(pq_col_reader *r, int64_t n, pm_buf *def, pm_buf *rep,
                                        pm_column *col, paimon_error *err);

/* Skips `n` rows. */
PM_MUST_CHECK int pm_pq_col_skip_rows(pq_col_reader *r, int64_t n, paimon_error *err);

/* The page header at chunk offset `pos` and the offset of the page's body, checked to lie
 * within the chunk; a streamed chunk's window may move.  Errors name the chunk offset of
 * the header (page_corrupt's message names r->page_off, the page being read). */
PM_MUST_CHECK int pm_pq_col_header_at(pq_col_reader *r, size_t pos, pq_page_header *h, size_t *body,
                                      paimon_error *err);

/* ---- pages decompressed ahead on a pool (page_ahead.c) ----------------------------------
 *
 * A column reader with a pool (r->pool, set after pm_pq_col_init()) hands the next
 * PQ_PAGES_AHEAD compressed data pages of a chunk held whole to jobs that decompress them on
 * the pool while it decodes the page before; decompress() takes a job's result where it
 * would have decompressed in place.  Nothing else moves: headers, CRCs, levels and every
 * check stay with the reader in page order, so the values and the errors are those of the
 * reader without a pool.  Streamed chunks and uncompressed ones are read in place. */
#define PQ_PAGES_AHEAD 2

typedef struct pq_pages_ahead pq_pages_ahead;

/* After a data page opened: hands the pages after it to jobs, up to PQ_PAGES_AHEAD out.  0,
 * or PAIMON_ENOMEM. */
PM_MUST_CHECK int pm_pq_col_fill_ahead(pq_col_reader *r, paimon_error *err);
/* Whether a job holds the page whose compressed bytes are `src`, `len` (to `expected`
 * bytes): then r->page_buf holds what pm_pq_decompress() made of them and *rc (with `err`)
 * what it returned.  Jobs of pages before it (skipped) are dropped, and every job when it
 * is not the next one out. */
bool pm_pq_col_take_ahead(pq_col_reader *r, const uint8_t *src, size_t len, size_t expected,
                          int *rc, paimon_error *err);
/* Drops every job out (waits for those started): before the chunk's bytes change. */
void pm_pq_col_drop_ahead(pq_col_reader *r);
/* Drops the jobs and frees their slots. */
void pm_pq_col_free_ahead(pq_col_reader *r);

/* Decompresses a page body with a Parquet codec (PQ_*, Hadoop-framed LZ4 included),
 * appending exactly `expected` bytes to `out`. */
PM_MUST_CHECK int pm_pq_decompress(pm_codec_ctx *ctx, int codec, const uint8_t *src, size_t len,
                                   size_t expected, pm_buf *out, paimon_error *err);

/* Decodes `n` values of the current page into `col` (internal to the column reader, shared
 * with values.c). */
PM_MUST_CHECK int pm_pq_values_decode(pq_col_reader *r, int64_t n, pm_column *col,
                                      paimon_error *err);
/* Prepares the value decoder of a page whose values section is r->data. */
PM_MUST_CHECK int pm_pq_values_begin(pq_col_reader *r, paimon_error *err);
/* Decodes a dictionary page body (PLAIN values) into r->dict. */
PM_MUST_CHECK int pm_pq_dict_load(pq_col_reader *r, const uint8_t *data, size_t len, int32_t count,
                                  paimon_error *err);
/* Converts physical values (in r->tmp) into `col`; the conversions of the plan. */
PM_MUST_CHECK int pm_pq_convert(pq_col_reader *r, const pm_column *phys, int64_t from, int64_t n,
                                pm_column *col, paimon_error *err);

/* Spreads the last `dense` values of `col` over the last `slots` slots, leaving the slots
 * whose byte in `valid` is 0 null (for flat reads and the assembler). */
int pm_pq_spread(pm_column *col, int64_t dense, const uint8_t *valid, int64_t slots);

#endif /* PM_FORMAT_PARQUET_COLUMN_H */
