/*
 * Writing data files of any format behind one interface: the dispatch point of the table
 * writers (table/write/data_writer.h), as format/data_file.h is for readers.
 *
 * A format is one pm_file_format entry: its name (the `file.format` value and the file
 * extension), how its statistics are made (table/write/col_stats.h), and the writer
 * callbacks.  Each format is one entry in file_writer.c's table.
 *
 * Thread safety: one thread per pm_file_writer.
 */
#ifndef PM_FORMAT_FILE_WRITER_H
#define PM_FORMAT_FILE_WRITER_H

#include <stdbool.h>
#include <stdint.h>

#include "data/batch.h"
#include "io/fs.h"
#include "util/options.h"
#include "util/arena.h"
#include "util/error.h"
#include "util/pool.h"

/* Where a format's file statistics come from (table/write/col_stats.h). */
typedef enum pm_file_stats_kind {
    PM_FILE_STATS_FOOTER_PARQUET, /* column-chunk statistics of top-level columns */
    PM_FILE_STATS_ROWS,           /* collected row by row (Avro) */
    PM_FILE_STATS_FOOTER_ORC      /* read back from the finished file (file_stats below) */
} pm_file_stats_kind;

/* One top-level column's statistics as a format's stats extractor reports them, before the
 * collector's conversion (Java's SimpleColStats given to SimpleColStatsCollector.convert).
 * Either bound may be missing on its own (ORC drops a string bound longer than 1024 bytes). */
typedef struct pm_file_col_stats {
    bool has_null_count; /* false: the file has no statistics for the column */
    int64_t null_count;
    bool has_min, has_max;
    pm_datum min, max; /* of the column's Paimon type; string bytes in the caller's arena */
} pm_file_col_stats;

typedef struct pm_file_format {
    const char *name; /* "parquet" */
    pm_file_stats_kind stats;
    /* Starts a file on `out` (taking ownership of it, also on failure) for rows of `row`
     * (a ROW type; field ids matter); `codec` is the compression name (file.compression or
     * its per-level/changelog variant), `opts` the table options. */
    int (*open)(void **impl, pm_output *out, const pm_type *row, const char *codec,
                const pm_options *opts, paimon_error *err);
    /* Appends rows [first, first + count) of `b`. */
    int (*write)(void *impl, const pm_batch *b, int64_t first, int64_t count, paimon_error *err);
    /* Bytes written plus bytes buffered: what target-file-size is compared with. */
    int64_t (*data_size)(const void *impl);
    /* Java's FormatWriter.reachTargetSize(suggestedCheck, targetSize): asked after each
     * chunk the table writer hands over; `suggested` is true every 1,000 records
     * (RollingFileWriter).  NULL: suggested && data_size >= target. */
    bool (*reach_target)(void *impl, bool suggested, int64_t target);
    /* Rows until reach_target may next answer yes on its own (ORC: the end of Paimon's
     * row batch), so the table writer cuts its chunks there.  NULL: only every 1,000. */
    int64_t (*rows_until_check)(const void *impl);
    /* Optional (NULL: the format does all its work on the writer's thread).  Lets the
     * format do part of its work on `pool` (Parquet: compress its pages), before the first
     * row; the file written is the same. */
    int (*set_pool)(void *impl, pm_pool *pool, paimon_error *err);
    /* Finishes the file (freeing the writer, also on failure); *size is its exact size. */
    int (*close)(void *impl, uint64_t *size, paimon_error *err);
    void (*abort)(void *impl); /* drops the partial file and frees the writer */
    /* Statistics of a finished file `path` of rows `row`, one per field (stats
     * PM_FILE_STATS_FOOTER_ORC; NULL otherwise), as Java's format stats extractor reads
     * them back.  Strings are copied into `arena`. */
    int (*file_stats)(pm_fs *fs, const char *path, const pm_type *row, pm_arena *arena,
                      pm_file_col_stats *out, paimon_error *err);
} pm_file_format;

/* The format named `name` (case-insensitive); PAIMON_EUNSUPPORTED names it otherwise. */
PM_MUST_CHECK int pm_file_format_find(const char *name, const pm_file_format **out,
                                      paimon_error *err);

typedef struct pm_file_writer {
    const pm_file_format *format;
    void *impl;
    int64_t rows; /* written so far (util/progress.h counts them when the file is done) */
} pm_file_writer;

/* Creates `path` on `fs` and starts a file of `format`.  Caller owns `*out`; finish with
 * pm_file_writer_close() or pm_file_writer_abort(). */
PM_MUST_CHECK int pm_file_writer_open(pm_file_writer **out, const pm_file_format *format, pm_fs *fs,
                                      const char *path, const pm_type *row, const char *codec,
                                      const pm_options *opts, paimon_error *err);
PM_MUST_CHECK int pm_file_writer_write(pm_file_writer *w, const pm_batch *b, int64_t first,
                                       int64_t count, paimon_error *err);
int64_t pm_file_writer_data_size(const pm_file_writer *w);
bool pm_file_writer_reach_target(pm_file_writer *w, bool suggested, int64_t target);
/* The format's set_pool, when it has one; 0 otherwise. */
PM_MUST_CHECK int pm_file_writer_set_pool(pm_file_writer *w, pm_pool *pool, paimon_error *err);
/* Rows until the format's own rolling check point; 0 when it has none. */
int64_t pm_file_writer_rows_until_check(const pm_file_writer *w);
/* Frees the writer, also on failure (the partial file is then removed). */
PM_MUST_CHECK int pm_file_writer_close(pm_file_writer *w, uint64_t *size, paimon_error *err);
void pm_file_writer_abort(pm_file_writer *w);

/* The entries: format/parquet/format_parquet_write.c, format/orc/format_orc_entry.c,
 * format/avro/format_avro_entry.c. */
extern const pm_file_format pm_parquet_file_format;
extern const pm_file_format pm_orc_file_format;
extern const pm_file_format pm_avro_file_format;

#endif /* PM_FORMAT_FILE_WRITER_H */
