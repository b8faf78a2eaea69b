/*
 * Column writers of the ORC writer (internal to src/format/orc/): one per ORC column,
 * arranged as the type tree, each with the streams, statistics and row index of ORC Java
 * 1.9's TreeWriter for its kind (orc_column_write.c; the file layer is orc_writer.c).
 */
#ifndef PM_FORMAT_ORC_COLWRITER_H
#define PM_FORMAT_ORC_COLWRITER_H

#include "format/orc/orc_rle.h"
#include "format/orc/orc_stats.h"
#include "format/orc/orc_stream.h"
#include "format/orc/orc_writer.h"
#include "util/error.h"

/* Settings shared by a file's column writers. */
typedef struct pm_orc_wctx {
    pm_orc_codec codec;
    uint32_t stride;
    int64_t batch_rows;
    double dict_threshold;
} pm_orc_wctx;

enum { PM_S_PRESENT, PM_S_DATA, PM_S_LENGTH, PM_S_SECONDARY, PM_S_DICT, PM_S_COUNT };

typedef struct pm_orc_colwriter pm_orc_colwriter;

/* A row index entry being built: positions, and its statistics in entry_stats. */
typedef struct pm_orc_wentry {
    pm_orc_positions pos;
    size_t stats_off, stats_len;
} pm_orc_wentry;

struct pm_orc_colwriter {
    uint32_t column;
    const pm_orc_type *type;
    const pm_orc_wctx *ctx;
    pm_orc_outstream s[PM_S_COUNT];
    bool has_stream[PM_S_COUNT];
    pm_orc_bool_rle_writer present;
    bool found_nulls;
    pm_orc_int_rle_writer *data_rle, *length_rle, *secondary_rle;
    pm_orc_byte_rle_writer byte_rle;
    pm_orc_bool_rle_writer bool_rle;
    pm_orc_stats_acc index_stats, stripe_stats, file_stats;
    pm_buf entries;       /* pm_orc_wentry: this stripe's row index entries */
    pm_buf entry_stats;   /* their serialized statistics, back to back */
    pm_orc_positions cur; /* positions of the row group being written */
    int64_t cap;          /* capacity of Java's column vector (collection statistics) */

    /* strings (StringBaseTreeWriter) */
    bool dict_checked, use_dict;
    pm_buf keys;      /* distinct values' bytes */
    pm_buf key_spans; /* uint32 offset, uint32 length per distinct value */
    uint32_t *table;  /* open addressing: id + 1, 0 empty */
    size_t table_cap;
    pm_buf rows;       /* uint32 dictionary id per buffered value */
    pm_buf group_rows; /* uint64: buffered values at each saved entry's start */
    pm_buf saved;      /* pm_orc_wentry: entries awaiting their data positions */

    pm_orc_colwriter **children;
    size_t child_count;
};

PM_MUST_CHECK int pm_orc_colwriter_new(pm_orc_colwriter **out, const pm_orc_type *types,
                                       uint32_t column, const pm_orc_wctx *ctx, paimon_error *err);
void pm_orc_colwriter_free(pm_orc_colwriter *cw);

/* Simulates Java's column-vector capacity for one batch of rows [off, off + n). */
void pm_orc_colwriter_batch(pm_orc_colwriter *cw, const pm_orc_colview *v, int64_t off, int64_t n);

/* Writes rows [off, off + n) of the root's fields (root statistics count them). */
PM_MUST_CHECK int pm_orc_colwriter_write_root(pm_orc_colwriter *root, const pm_orc_colview *v,
                                              int64_t off, int64_t n, paimon_error *err);

/* Closes the current row group of every column. */
PM_MUST_CHECK int pm_orc_colwriter_index_entry(pm_orc_colwriter *cw, paimon_error *err);

/* Flushes every column's buffered values into its streams (end of a stripe). */
PM_MUST_CHECK int pm_orc_colwriter_flush(pm_orc_colwriter *cw, paimon_error *err);

/* What a stripe needs from one column after the flush. */
typedef struct pm_orc_col_stripe {
    pm_buf index; /* the ROW_INDEX stream, compressed */
    pm_orc_encoding encoding;
    pm_orc_stats_acc *stats; /* the stripe statistics (bytesOnDisk set) */
} pm_orc_col_stripe;

/* Ends the stripe for this column (not its children): suppresses an unused PRESENT stream,
 * finishes statistics and the row index, reports the encoding.  `out` is filled. */
PM_MUST_CHECK int pm_orc_colwriter_end_stripe(pm_orc_colwriter *cw, pm_orc_col_stripe *out,
                                              paimon_error *err);

/* Resets the column for the next stripe (after its streams were written). */
PM_MUST_CHECK int pm_orc_colwriter_next_stripe(pm_orc_colwriter *cw, paimon_error *err);

/* Bytes buffered for the stripe (Java's estimateMemory), whole tree. */
uint64_t pm_orc_colwriter_memory(const pm_orc_colwriter *cw);

#endif /* PM_FORMAT_ORC_COLWRITER_H */
