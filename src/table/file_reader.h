/*
 * Reading one data file of a table in the schema of the read (behaviour.md §8.8).
 *
 * A data file was written with the schema its manifest entry names (`_SCHEMA_ID`).  Columns
 * are matched to the read schema by field id (DESIGN.md invariant 4): renamed columns are
 * found by id, dropped ones are not read, columns the file lacks read as null, changed types
 * are cast as Java casts them (data/cast.h), nested ROW fields are matched by id too.  The
 * file itself is asked for its columns by id, or by the names of the file's own schema when
 * it has no ids (Parquet written by Paimon 0.9 and older).
 *
 * With `system_fields`, every batch also carries _SEQUENCE_NUMBER (BIGINT) and _VALUE_KIND
 * (TINYINT) as its last two columns, for the merge of primary-key files.  A deletion vector
 * makes the file skip the deleted positions (the format readers read row ranges).
 */
#ifndef PM_TABLE_FILE_READER_H
#define PM_TABLE_FILE_READER_H

#include "data/arrow_stream.h"
#include "data/batch.h"
#include "meta/manifest.h"
#include "lsm/deletion_vector.h"
#include "meta/schema.h"
#include "table/scan.h"
#include "util/error.h"
#include "util/pool.h"

#define PM_SEQUENCE_NUMBER_ID 2147483646
#define PM_VALUE_KIND_ID      2147483645
/* The row kind column of change reads: Java's SpecialFields.ROW_KIND id, under the name the
 * canonical row form gives it (canonical-rows.md), not Java's "rowkind". */
#define PM_ROW_KIND_ID   2147483643
#define PM_ROW_KIND_NAME "_ROW_KIND"

typedef struct pm_file_reader pm_file_reader;

typedef struct pm_file_reader_options {
    const pm_type *out_type; /* ROW of the columns to produce (read schema fields, by id) */
    bool system_fields;      /* append _SEQUENCE_NUMBER and _VALUE_KIND */
    const pm_dv_ref *dv;     /* deletion vector of the file, or NULL */
    const pm_dv *dv_loaded;  /* or the vector itself (compaction holds them), or NULL */
    int64_t batch_rows;      /* 0: the format's default */
    /* Over out_type, or NULL: lets the format skip row groups, stripes and pages that cannot
     * match (on columns the file stores with the same type); rows still need filtering. */
    const pm_predicate *filter;
    /* Where the format may decompress ahead while a batch is decoded (Parquet's pages:
     * format/parquet/column.h), or NULL; the batches are the same. */
    pm_pool *pool;
} pm_file_reader_options;

/* Opens `path` (the entry's file) written with `file_schema`.  Borrows `fs`, `path` and
 * `o->dv_loaded` until pm_file_reader_free(); reads the rest during the call only.  Caller
 * owns `*out`. */
PM_MUST_CHECK int pm_file_reader_open(pm_file_reader **out, pm_fs *fs, const char *path,
                                      const pm_manifest_entry *entry, const pm_schema *file_schema,
                                      const pm_file_reader_options *o, paimon_error *err);

/* The next batch of out_type (+ the two system columns); PAIMON_ITEROVER at the end.
 * Caller owns `*out`; release with pm_batch_free(). */
PM_MUST_CHECK int pm_file_reader_next(pm_file_reader *r, pm_batch **out, paimon_error *err);

/* The type of the batches it returns (out_type plus the system fields). Borrowed. */
const pm_type *pm_file_reader_type(const pm_file_reader *r);

void pm_file_reader_free(pm_file_reader *r);

/* The `open_file` of the lookup levels (lsm/lookup_levels.h): a reader of every row of the
 * data file `meta` at `path` (no deletion vector) in `out_type` plus the two system fields,
 * as a batch source.  Borrows `fs`, `path`, `meta` and the types until out->release.  `ctx`
 * is unused.  On failure nothing is left to release. */
PM_MUST_CHECK int pm_file_reader_open_source(void *ctx, pm_fs *fs, const char *path,
                                             const pm_data_file_meta *meta,
                                             const pm_schema *file_schema, const pm_type *out_type,
                                             pm_batch_source *out, paimon_error *err);

#endif /* PM_TABLE_FILE_READER_H */
