/*
 * The rolling data-file writer of one partition and bucket (Java RollingFileWriterImpl over
 * RowDataFileWriter / KeyValueDataFileWriter): rows go into `data-<u>-<n>.<format>` files
 * (`changelog-…` for changelog files) in the bucket directory; a new file starts once the
 * format says it reached target-file-size (pm_file_writer_reach_target: Parquet and Avro
 * when the rows written through this writer reach a multiple of 1000, ORC at the end of
 * each full row batch), as Java checks.
 *
 * For every file it produces the DataFileMeta Java would (metadata.md §7.3): exact size,
 * row count, key and value statistics (col_stats.h), minimum and maximum key and sequence
 * numbers, delete count, creation time (local wall clock as if UTC), schema id, the level
 * and file source of the conf (0 and APPEND for flushes, the output level and COMPACT for
 * compactions), the file index (embedded or an extra `.index` file), and
 * _VALUE_STATS_COLS for dense statistics.
 *
 * Layouts (the `row` type the caller passes):
 *   append       the table's columns; sequence numbers come from the bucket's counter;
 *                minimum/maximum key and key statistics are empty rows.
 *   primary key  _KEY_<k>... (absent in thin mode), _SEQUENCE_NUMBER, _VALUE_KIND, then the
 *                table's columns; rows arrive sorted by key; the first and last key of a
 *                file are its minimum and maximum; retractions (-U, -D) are counted.
 *
 * Failure: a failed write or close removes every file this writer made (Java's abort), so
 * nothing half-written is ever handed to a commit.
 *
 * Thread safety: one thread per writer; the path factory it borrows may be shared.
 */
#ifndef PM_TABLE_WRITE_DATA_WRITER_H
#define PM_TABLE_WRITE_DATA_WRITER_H

#include <stdbool.h>
#include <stdint.h>

#include "format/file_writer.h"
#include "meta/manifest.h"
#include "meta/path_factory.h"
#include "table/write/col_stats.h"
#include "table/write/file_index_writer.h"
#include "util/error.h"

typedef struct pm_data_writer_conf {
    pm_fs *fs;
    const char *dir;        /* the bucket directory */
    pm_path_factory *names; /* borrowed; may be shared between writers */
    const char *prefix;     /* data-file.prefix / changelog-file.prefix; NULL: default */
    bool changelog;         /* changelog files */
    const pm_file_format *format;
    const char *codec;      /* compression */
    const pm_options *opts; /* table options (format settings) */
    const pm_type *row;     /* the file's columns (ROW) */
    int64_t target_size;    /* target-file-size */
    int64_t schema_id;
    bool primary_key;
    const int *key_cols;      /* PK: columns of `row` with the key fields, in key order */
    const int *key_stat_cols; /* PK: columns whose statistics are the key statistics */
    size_t key_count;
    int seq_col, kind_col;      /* PK: _SEQUENCE_NUMBER and _VALUE_KIND columns */
    size_t value_start;         /* first column of the value statistics (PK: after _VALUE_KIND) */
    const pm_stats_mode *modes; /* per column of `row` */
    pm_stats_source stats_source;
    bool dense;                      /* metadata.stats-dense-store */
    const pm_file_index_conf *index; /* file indexes over the value columns, or NULL */
    int64_t *seq_counter;            /* append: the bucket's next sequence number (advanced) */
    int32_t level;                   /* the files' LSM level (0 for flushes) */
    bool compact;                    /* file source COMPACT (compaction output), else APPEND */
    /* where the format may do part of its work while the writer goes on (Parquet compresses
     * its pages there: format/file_writer.h set_pool), or NULL; the files are the same */
    pm_pool *pool;
} pm_data_writer_conf;

typedef struct pm_data_writer pm_data_writer;

/* Borrows everything `c` points to until freed. */
PM_MUST_CHECK int pm_data_writer_new(pm_data_writer **out, const pm_data_writer_conf *c,
                                     paimon_error *err);

/* Appends rows [first, first + count) of `b` (of the conf's row type). */
PM_MUST_CHECK int pm_data_writer_write(pm_data_writer *w, const pm_batch *b, int64_t first,
                                       int64_t count, paimon_error *err);

/* Closes the open file.  The metas of every file written are then in *files (borrowed:
 * valid until the writer is freed). */
PM_MUST_CHECK int pm_data_writer_finish(pm_data_writer *w, pm_data_file_meta **files, size_t *count,
                                        paimon_error *err);

/* Removes every file written (after a failure elsewhere) and frees the writer. */
void pm_data_writer_abort(pm_data_writer *w);
void pm_data_writer_free(pm_data_writer *w);

#endif /* PM_TABLE_WRITE_DATA_WRITER_H */
