/*
 * File indexes of written data files (behaviour.md §9, Java DataFileIndexWriter): for the
 * columns named by `file-index.bloom-filter.columns`, a bloom filter over the values of
 * each data file, serialized in the FileIndexFormat container (format/file_index.h).  The
 * result is embedded in the manifest entry when it is at most
 * `file-index.in-manifest-threshold` bytes (500 B), else written next to the data file as
 * `<data file>.index` and listed in _EXTRA_FILES.
 *
 * Thread safety: one thread per writer.
 */
#ifndef PM_TABLE_WRITE_FILE_INDEX_WRITER_H
#define PM_TABLE_WRITE_FILE_INDEX_WRITER_H

#include <stdbool.h>
#include <stdint.h>

#include "data/batch.h"
#include "meta/schema.h"
#include "util/buf.h"
#include "util/error.h"

/* One indexed column. */
typedef struct pm_file_index_column {
    char *name;    /* owned */
    int column;    /* index among the indexed row's columns */
    int64_t items; /* file-index.bloom-filter.<col>.items (1000000) */
    double fpp;    /* file-index.bloom-filter.<col>.fpp (0.1) */
} pm_file_index_column;

typedef struct pm_file_index_conf {
    pm_file_index_column *columns; /* owned; in the order Java serializes them */
    size_t count;
    int64_t threshold; /* file-index.in-manifest-threshold */
} pm_file_index_conf;

/* The index configuration of `schema` over the columns of `row` (the rows indexed: the
 * table's columns).  No index columns leaves count 0.  PAIMON_EINVALID names a column that
 * does not exist; PAIMON_EUNSUPPORTED an index type or column type not supported. */
PM_MUST_CHECK int pm_file_index_conf_init(pm_file_index_conf *c, const pm_schema *schema,
                                          const pm_type *row, paimon_error *err);
void pm_file_index_conf_free(pm_file_index_conf *c);

typedef struct pm_file_index_writer pm_file_index_writer;

/* A writer for one data file.  *out is NULL when `c` has no columns. */
PM_MUST_CHECK int pm_file_index_writer_new(pm_file_index_writer **out, const pm_file_index_conf *c,
                                           const pm_type *row, paimon_error *err);
/* Adds rows [first, first + n) of the columns `cols` (cols[0] is the first indexed row
 * column). */
PM_MUST_CHECK int pm_file_index_writer_add(pm_file_index_writer *w, pm_column *const *cols,
                                           int64_t first, int64_t n, paimon_error *err);
/* The serialized index (FileIndexFormat) appended to `out`. */
PM_MUST_CHECK int pm_file_index_writer_finish(pm_file_index_writer *w, pm_buf *out,
                                              paimon_error *err);
void pm_file_index_writer_free(pm_file_index_writer *w);

#endif /* PM_TABLE_WRITE_FILE_INDEX_WRITER_H */
