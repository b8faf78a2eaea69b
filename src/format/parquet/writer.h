/*
 * Writing Parquet files the way Java Paimon writes its data files (Paimon 1.4.2 with
 * parquet-java 1.16.0: RowDataParquetBuilder, ParquetSchemaConverter, ParquetRowDataWriter).
 *
 * Layout (docs/format/parquet.md):
 *   "PAR1" | row groups: column chunks, each [dictionary page] data pages (v1) |
 *   column indexes | offset indexes | FileMetaData | footer length (4 bytes LE) | "PAR1"
 *
 * Schema: message "paimon_schema"; every field carries its Paimon field id; TINYINT and
 * SMALLINT are INT32 with INTEGER(8/16, signed); DECIMAL(p, s) is INT32 for p <= 9, INT64
 * for p <= 18, FIXED_LEN_BYTE_ARRAY of the fewest bytes otherwise; TIMESTAMP(p) is INT64
 * MILLIS for p <= 3, INT64 MICROS for p <= 6, INT96 above (isAdjustedToUTC for WITH LOCAL
 * TIME ZONE); TIME is INT32 TIME(MILLIS, UTC); DATE is INT32 DATE; strings BYTE_ARRAY STRING;
 * ARRAY a 3-level LIST (list/element, element id = MAX/4 + id*1024 + depth); MAP and MULTISET
 * a MAP of key_value/key (always REQUIRED, id MAX/4 - id*1024 - depth) and value (id
 * MAX/4 + id*1024 + depth).  The primary-key system columns (_KEY_*, _SEQUENCE_NUMBER,
 * _VALUE_KIND) are ordinary fields of the row type the caller passes, with their ids.
 *
 * Pages: data page v1 with RLE levels (a 4-byte length prefix; a level whose maximum is 0
 * is not written and declared BIT_PACKED, as parquet-java does), dictionary encoding
 * (PLAIN_DICTIONARY) falling back to PLAIN when the dictionary outgrows
 * dictionary_page_size or, at the first page, does not make the page smaller; page CRCs;
 * no statistics in page headers; column chunk statistics and the column and offset
 * indexes (parquet-java's defaults).
 *
 * Memory: the current row group's pages, compressed, plus one page per column.  The exact
 * file size is known when the writer closes.
 *
 * Thread safety: one thread per writer.
 */
#ifndef PM_FORMAT_PARQUET_WRITER_H
#define PM_FORMAT_PARQUET_WRITER_H

#include "data/batch.h"
#include "io/fs.h"
#include "util/error.h"
#include "util/pool.h"

typedef struct pm_pq_writer pm_pq_writer;

/* Writer settings; PM_PQ_WRITER_OPTIONS_INIT holds Java Paimon's defaults. */
typedef struct pm_pq_writer_options {
    int codec;              /* PQ_ZSTD, PQ_SNAPPY, PQ_GZIP, PQ_LZ4_RAW, PQ_UNCOMPRESSED */
    int level;              /* compression level (zstd: file.compression.zstd-level, 1) */
    int64_t block_size;     /* parquet.block.size: row group bytes (128 MiB) */
    int64_t page_size;      /* parquet.page.size (1 MiB) */
    int64_t page_row_limit; /* parquet.page.row.count.limit (20000) */
    int64_t dict_page_size; /* parquet.dictionary.page.size (1 MiB) */
    bool dictionary;        /* parquet.enable.dictionary (true) */
    bool write_crc;         /* parquet.page.write-checksum.enabled (true) */
    bool page_index;        /* write column and offset indexes (true) */
    int32_t index_truncate; /* parquet.columnindex.truncate.length (64) */
} pm_pq_writer_options;

#define PM_PQ_WRITER_OPTIONS_INIT                                                                  \
    {                                                                                              \
        6 /* ZSTD */, 1, 128ll << 20, 1 << 20, 20000, 1 << 20, true, true, true, 64                \
    }

/* Reads table options (file.compression, file.compression.zstd-level, parquet.compression,
 * parquet.block.size, parquet.page.size, parquet.page.row.count.limit,
 * parquet.dictionary.page.size, parquet.enable.dictionary,
 * parquet.page.write-checksum.enabled, parquet.columnindex.truncate.length) over the
 * defaults in `o`.  Unknown keys are ignored; a bad value is PAIMON_EINVALID naming it. */
PM_MUST_CHECK int pm_pq_writer_options_parse(pm_pq_writer_options *o, const char *const *keys,
                                             const char *const *values, size_t count,
                                             paimon_error *err);

/* Starts a file on `out` (taking ownership of it, also on failure: it is aborted on
 * failure) for rows of `row_type` (a ROW type, copied).  Caller owns `*w`; finish with
 * pm_pq_writer_close() or pm_pq_writer_abort(). */
PM_MUST_CHECK int pm_pq_writer_open(pm_pq_writer **w, pm_output *out, const pm_type *row_type,
                                    const pm_pq_writer_options *o, paimon_error *err);

/* Appends the rows of `b` (of the writer's row type, borrowed).  A null in a NOT NULL
 * column is PAIMON_EINVALID.  After a failure the writer can only be aborted. */
PM_MUST_CHECK int pm_pq_writer_write(pm_pq_writer *w, const pm_batch *b, paimon_error *err);

/* Appends rows [first, first + count) of `b`. */
PM_MUST_CHECK int pm_pq_writer_write_range(pm_pq_writer *w, const pm_batch *b, int64_t first,
                                           int64_t count, paimon_error *err);

/* Rows written so far, and bytes of the file so far (the final size after close). */
int64_t pm_pq_writer_rows(const pm_pq_writer *w);

/* Bytes of the file so far plus the bytes buffered for the open row group: parquet-java's
 * ParquetWriter.getDataSize(), which Paimon compares with target-file-size.  While pages
 * are compressed on a pool (pm_pq_writer_set_pool), an upper bound of it. */
int64_t pm_pq_writer_data_size(const pm_pq_writer *w);

/* Whether the data size has reached `target`, on the exact size: the pages out on the pool
 * are taken back first when the upper bound reaches it (so the answer never depends on how
 * far the pool got).  A page that failed to compress answers yes; the close reports it. */
bool pm_pq_writer_reach_target(pm_pq_writer *w, int64_t target);

/* Most data pages out on the pool at once, per writer. */
#define PQ_PAGE_JOBS_MAX 16

/* Compresses the data pages on `pool` (NULL: each where it ends, as by default) while the
 * writer encodes the next ones (writer_int.h, "data pages compressed on a pool").  The file
 * is byte for byte the one written without it.  Before the first row; not for uncompressed
 * files, nor for row groups streamed into an output's segments (those pages leave in
 * place).  Memory: up to one page of each column (PQ_PAGE_JOBS_MAX at most) twice, before
 * and after compression, and a codec state per page out. */
PM_MUST_CHECK int pm_pq_writer_set_pool(pm_pq_writer *w, pm_pool *pool, paimon_error *err);

/* Writes the rest of the file, closes the output and frees the writer (also on failure,
 * when the partial file is removed).  *file_size receives the exact size (may be NULL). */
PM_MUST_CHECK int pm_pq_writer_close(pm_pq_writer *w, uint64_t *file_size, paimon_error *err);

/* Drops the file and frees the writer.  NULL is allowed. */
void pm_pq_writer_abort(pm_pq_writer *w);

#endif /* PM_FORMAT_PARQUET_WRITER_H */
