/*
 * Column statistics of the data files a writer produces (metadata.md §8), as Java 1.4.2
 * computes them: a collector per column (SimpleColStatsCollector: none, counts, full,
 * truncate(N)), applied to the bounds and null count the file format gives.
 *
 * Where the raw bounds come from depends on the format (KeyValueFileWriterFactory,
 * StatsCollectorFactories, ParquetSimpleStatsExtractor):
 *
 *   PM_STATS_FROM_PARQUET  the footer's column-chunk statistics, merged over row groups,
 *                          looked up by top-level column name: nested columns (ARRAY, MAP,
 *                          MULTISET, ROW) have none at all (not even a null count), BINARY
 *                          and VARBINARY and TIMESTAMP(7..9) (INT96) only a null count;
 *                          FLOAT/DOUBLE bounds skip NaN and keep the first zero seen.
 *   PM_STATS_FROM_ROWS     Avro: collected row by row; values that are not Comparable in
 *                          Java (byte[], arrays, maps, rows) only count nulls; FLOAT/DOUBLE
 *                          order as Float.compare (NaN greatest, -0.0 < 0.0).
 *   PM_STATS_FROM_ORC      ORC: nothing is collected while writing; the finished file's
 *                          footer statistics are read back (OrcSimpleStatsExtractor, see
 *                          format/orc/orc_file_stats.c) and set with pm_stats_acc_set_file().
 *                          Either bound may be missing on its own there (a string bound ORC
 *                          truncated at 1024 bytes); truncate(N) then drops both bounds when
 *                          the maximum is missing, and keeps a lone maximum.
 *
 * The collector then converts the raw statistics: none drops everything ("NONE": no
 * bounds, no null count), counts keeps the null count, full keeps all, truncate(N) cuts
 * strings to N code points (the maximum's last code point incremented; when no code point
 * can be incremented the bounds are dropped).  Java truncates while collecting; truncating
 * the final bounds gives the same result, because both truncations are monotonic and a
 * value between x and truncMax(x) shares x's first N code points.
 *
 * Serialization (SimpleStatsConverter): all-columns mode (key statistics) writes every
 * column, a NONE column as nulls; dense mode (value statistics with
 * metadata.stats-dense-store=true) drops NONE columns and lists the others in
 * _VALUE_STATS_COLS, which stays null when no column was dropped.
 */
#ifndef PM_TABLE_WRITE_COL_STATS_H
#define PM_TABLE_WRITE_COL_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "data/batch.h"
#include "format/file_writer.h"
#include "meta/manifest.h"
#include "meta/options.h"
#include "util/arena.h"
#include "util/error.h"

typedef enum pm_stats_kind {
    PM_STATS_NONE,
    PM_STATS_COUNTS,
    PM_STATS_FULL,
    PM_STATS_TRUNCATE
} pm_stats_kind;

typedef struct pm_stats_mode {
    pm_stats_kind kind;
    int32_t length; /* TRUNCATE */
} pm_stats_mode;

typedef enum pm_stats_source {
    PM_STATS_FROM_PARQUET,
    PM_STATS_FROM_ROWS,
    PM_STATS_FROM_ORC
} pm_stats_source;

/* Parses "none", "counts", "full", "truncate(N)" (any case), as
 * SimpleColStatsCollector.from. */
PM_MUST_CHECK int pm_stats_mode_parse(const char *text, pm_stats_mode *out, paimon_error *err);

/* The collector of each column of a data file's row type `names` (count of them), as
 * StatsCollectorFactories decides: fields.<f>.stats-mode first; system columns (_KEY_*,
 * _SEQUENCE_NUMBER, _VALUE_KIND) truncate(128) for Parquet/ORC; then the table's
 * metadata.stats-mode (or `mode` for changelog files), and metadata.stats-keep-first-n-
 * columns.  `thin_keys` (may be NULL) names the value columns that are key fields of a
 * thin-mode file, which get truncate(128) too.  Fills modes[count]. */
PM_MUST_CHECK int pm_stats_modes_for(const pm_options *opts, const char *mode,
                                     pm_stats_source source, const char *const *names, size_t count,
                                     const bool *thin_keys, pm_stats_mode *modes,
                                     paimon_error *err);

/* One column's accumulator over a file. */
typedef struct pm_stats_acc {
    const pm_type *type; /* borrowed */
    pm_stats_mode mode;
    pm_stats_source source;
    bool none;       /* the format has no statistics for the column */
    bool no_bounds;  /* only a null count */
    bool has_bounds; /* min/max hold a value */
    pm_datum min, max;
    pm_buf min_bytes, max_bytes; /* strings: the bytes min/max point into */
    int64_t null_count;
    /* PM_STATS_FROM_ORC (set from the file): */
    bool no_null_count;          /* the file has no statistics for the column */
    bool min_absent, max_absent; /* has_bounds, but this bound is null */
} pm_stats_acc;

void pm_stats_acc_init(pm_stats_acc *s, const pm_type *type, pm_stats_mode mode,
                       pm_stats_source source);
void pm_stats_acc_reset(pm_stats_acc *s);
void pm_stats_acc_free(pm_stats_acc *s);

/* Adds rows [first, first + n) of `c` (a column of the accumulator's type). */
int pm_stats_acc_add(pm_stats_acc *s, const pm_column *c, int64_t first, int64_t n);

/* Sets the raw statistics a format read back from the file (PM_STATS_FROM_ORC),
 * replacing what the accumulator holds.  Strings are copied. */
int pm_stats_acc_set_file(pm_stats_acc *s, const pm_file_col_stats *f);

/* What a column's statistics say after the collector's conversion. */
typedef struct pm_col_result {
    bool none;           /* SimpleColStats.NONE: min, max and null count all null */
    bool has_bounds;     /* min/max non-null (but see min_absent, max_absent) */
    bool min_absent;     /* has_bounds, yet the minimum is null (ORC only) */
    bool max_absent;     /* has_bounds, yet the maximum is null (ORC, full mode only) */
    pm_datum min, max;   /* bytes in the result's scratch buffers */
    bool has_null_count; /* null count non-null */
    int64_t null_count;
    pm_buf min_buf, max_buf;
} pm_col_result;

void pm_col_result_free(pm_col_result *r);

/* The converted statistics of `s` (truncation applied).  `r` must be zero-initialized or
 * freed before; release with pm_col_result_free(). */
int pm_stats_acc_result(const pm_stats_acc *s, pm_col_result *r);

/* SimpleStats over `count` columns of `types`: all-columns mode.  Bytes in `arena`. */
PM_MUST_CHECK int pm_stats_serialize_all(pm_arena *arena, const pm_type *const *types,
                                         const pm_col_result *res, size_t count,
                                         pm_simple_stats *out, paimon_error *err);

/* Dense mode: NONE columns dropped; *cols lists the kept columns' names (present only when
 * a column was dropped).  With dense = false this is the all-columns mode and *cols is
 * absent. */
PM_MUST_CHECK int pm_stats_serialize_dense(pm_arena *arena, const pm_type *const *types,
                                           const char *const *names, const pm_col_result *res,
                                           size_t count, bool dense, pm_simple_stats *out,
                                           pm_avro_array *cols, paimon_error *err);

/* Empty statistics: two empty rows and no null counts (append tables' key statistics). */
PM_MUST_CHECK int pm_stats_empty(pm_arena *arena, pm_simple_stats *out, paimon_error *err);

#endif /* PM_TABLE_WRITE_COL_STATS_H */
