/*
 * ORC data files of Paimon tables: the reader behind the data-file interface
 * (format_orc.c; pm_orc_format is in data_file.c's table) and the writer of columnar
 * batches (format_orc_write.c).
 *
 * The writer lays files out as Java Paimon 1.4.2 does with ORC 1.9 (orc_writer.h): the ORC
 * schema of OrcTypeUtil.convertToOrcSchema after OrcFileFormat.refineDataType -- every
 * BINARY/VARBINARY as binary, MULTISET as map<element, int>, CHAR(n) char(n), VARCHAR(n)
 * varchar(n) unless it is STRING, TIME as int (milliseconds), TIMESTAMP as timestamp and
 * TIMESTAMP WITH LOCAL TIME ZONE as timestamp with local time zone -- each type with its
 * `paimon.id` (array elements and map values MAX/4 + id * 1024 + depth, map keys
 * MAX/4 - id * 1024 - depth).  A null in a NOT NULL top-level column is PAIMON_EINVALID,
 * as Java's RowDataVectorizer refuses it.
 *
 * TIMESTAMP values are written as wall-clock times with writerTimezone "UTC", which Java
 * reads back as the same LocalDateTime in any zone.  TIMESTAMP WITH LOCAL TIME ZONE follows
 * Paimon's default orc.timestamp-ltz.legacy.type=true as a Java writer running in UTC
 * would: the instant is stored as is (docs/format/orc.md, "Timestamps").
 */
#ifndef PM_FORMAT_ORC_FORMAT_H
#define PM_FORMAT_ORC_FORMAT_H

#include "data/batch.h"
#include "format/file_writer.h"
#include "format/orc/orc_writer.h"
#include "io/fs.h"
#include "util/arena.h"
#include "util/error.h"

/* Reads Paimon table options over Java's defaults: file.compression (zstd),
 * file.compression.zstd-level (1), orc.compress (wins over file.compression),
 * orc.compression.zstd.level, file.block-size / orc.stripe.size (64 MiB),
 * orc.row.index.stride (10000), orc.dictionary.key.threshold (0.8), orc.compress.size,
 * write-batch-size (1024).  Unknown keys are ignored; a bad value is PAIMON_EINVALID
 * naming it. */
PM_MUST_CHECK int pm_orc_writer_options_parse(pm_orc_writer_options *o, const char *const *keys,
                                              const char *const *values, size_t count,
                                              paimon_error *err);

typedef struct pm_orc_file_writer pm_orc_file_writer;

/* Starts a data file on `out` (taking ownership of it, also on failure: it is aborted)
 * for rows of `row_type` (a ROW type, copied).  `o` may be NULL (Java's defaults).  Caller
 * owns `*w`; finish with pm_orc_file_writer_close() or pm_orc_file_writer_abort(). */
PM_MUST_CHECK int pm_orc_file_writer_open(pm_orc_file_writer **w, pm_output *out,
                                          const pm_type *row_type, const pm_orc_writer_options *o,
                                          paimon_error *err);

/* Appends the rows of `b` (of the writer's row type, borrowed). */
PM_MUST_CHECK int pm_orc_file_writer_write(pm_orc_file_writer *w, const pm_batch *b,
                                           paimon_error *err);
/* Appends rows [first, first + count) of `b`. */
PM_MUST_CHECK int pm_orc_file_writer_write_range(pm_orc_file_writer *w, const pm_batch *b,
                                                 int64_t first, int64_t count, paimon_error *err);

/* Rows written so far; bytes of the file so far (stripes are written as they fill). */
int64_t pm_orc_file_writer_rows(const pm_orc_file_writer *w);
uint64_t pm_orc_file_writer_position(const pm_orc_file_writer *w);
/* Bytes buffered for the open stripe (ORC Java's estimateMemory); Paimon's row batch size
 * (write-batch-size, 1024 by default). */
uint64_t pm_orc_file_writer_buffered(const pm_orc_file_writer *w);
int64_t pm_orc_file_writer_batch_rows(const pm_orc_file_writer *w);

/* Writes the rest of the file, closes the output and frees the writer (also on failure,
 * when the partial file is removed).  *file_size receives the exact size (may be NULL). */
PM_MUST_CHECK int pm_orc_file_writer_close(pm_orc_file_writer *w, uint64_t *file_size,
                                           paimon_error *err);

/* Drops the file and frees the writer.  NULL is allowed. */
void pm_orc_file_writer_abort(pm_orc_file_writer *w);

/* The ORC type tree Java Paimon writes for `row_type` (pre-order, in `arena`). */
PM_MUST_CHECK int pm_orc_schema_of(const pm_type *row_type, pm_arena *arena, pm_orc_type **types,
                                   size_t *count, paimon_error *err);

/* Java's OrcSimpleStatsExtractor over a file's footer (orc_file_stats.c): the statistics
 * of each field of `row`, found by name, before the collector's conversion.  `path` names
 * the file in messages; strings are copied into `arena`.  Fills out[row->field_count]. */
PM_MUST_CHECK int pm_orc_footer_col_stats(const pm_orc_footer *f, const char *path,
                                          const pm_type *row, pm_arena *arena,
                                          pm_file_col_stats *out, paimon_error *err);
/* The same for the file `path` on `fs` (the pm_file_format callback). */
PM_MUST_CHECK int pm_orc_file_col_stats(pm_fs *fs, const char *path, const pm_type *row,
                                        pm_arena *arena, pm_file_col_stats *out, paimon_error *err);

#endif /* PM_FORMAT_ORC_FORMAT_H */
