/*
 * Column decoders of the ORC reader (internal to src/format/orc/): one pm_orc_colreader
 * per ORC column that a read needs, arranged as the type tree.  orc_reader.c reads and
 * decompresses a stripe's streams and hands them over; orc_column.c decodes, skips and
 * seeks.  Streams and encodings per kind are those of the ORCv1 specification, "Column
 * Encodings" (docs/format/orc.md).
 */
#ifndef PM_FORMAT_ORC_COLUMN_H
#define PM_FORMAT_ORC_COLUMN_H

#include "format/orc/orc_reader.h"
#include "format/orc/orc_rle.h"
#include "format/orc/orc_stream.h"
#include "format/orc/orc_tz.h"
#include "util/error.h"

/* One decompressed stream of the current stripe. */
typedef struct pm_orc_sbuf {
    bool exists;
    pm_buf buf;           /* decompressed bytes */
    pm_orc_chunk_map map; /* chunk starts, for row-index positions */
} pm_orc_sbuf;

typedef struct pm_orc_colreader pm_orc_colreader;

struct pm_orc_colreader {
    uint32_t column;
    const pm_orc_type *type;
    const char *path; /* for messages (borrowed) */
    bool compressed;  /* positions carry a chunk offset */
    int64_t max_values;

    /* per stripe */
    pm_orc_encoding_kind encoding;
    uint32_t dict_size;
    pm_orc_sbuf present, data, length, secondary, dict;
    pm_orc_bool_rle present_rle;
    pm_orc_int_rle *data_rle;      /* integer DATA (ints, dates, seconds, dictionary ids) */
    pm_orc_int_rle *length_rle;    /* LENGTH */
    pm_orc_int_rle *secondary_rle; /* SECONDARY (nanos, decimal scales) */
    pm_orc_byte_rle byte_rle;      /* BYTE DATA */
    pm_orc_bool_rle bool_rle;      /* BOOLEAN DATA */
    const uint8_t *raw, *raw_end;  /* raw DATA: floats, string bytes, decimal varints */
    pm_buf dict_offsets;           /* uint32 [dict_size + 1] */
    bool decimal64;                /* DECIMAL written as RLE longs (ORC UNSTABLE-PRE-2.0) */
    const pm_orc_tz *tz;           /* TIMESTAMP: the writer's zone (borrowed) */
    int64_t base_seconds;          /* TIMESTAMP: 2015-01-01 00:00:00 in that zone */

    pm_orc_colreader **children; /* subtype_count entries, NULL when not read */
    size_t child_count;

    pm_buf mask;    /* scratch: one byte per slot, 1 = valid */
    pm_buf pmask;   /* scratch: present bits of the parent-valid slots */
    pm_buf scratch; /* scratch: int64 values */
    pm_buf scratch2;
};

/* Builds readers for the included columns under `column` (which must be included).
 * Caller owns `*out`; release with pm_orc_colreader_free(). */
PM_MUST_CHECK int pm_orc_colreader_new(pm_orc_colreader **out, const pm_orc_footer *footer,
                                       uint32_t column, const bool *include, const char *path,
                                       bool compressed, int64_t max_values, paimon_error *err);
void pm_orc_colreader_free(pm_orc_colreader *cr);

/* Starts a stripe once the streams are filled in: checks the encoding and the streams the
 * kind needs, sets the decoders up and reads the dictionary. */
PM_MUST_CHECK int pm_orc_colreader_start(pm_orc_colreader *cr, const pm_orc_encoding *encoding,
                                         paimon_error *err);

/* Appends `n` slots to `vec`.  `pmask` (n bytes, or NULL when every parent slot is valid)
 * marks the slots whose parent is non-null: only those consume this column's streams. */
PM_MUST_CHECK int pm_orc_colreader_decode(pm_orc_colreader *cr, int64_t n, const uint8_t *pmask,
                                          pm_orc_vec *vec, paimon_error *err);

/* Skips `n` values of this column's streams (slots its parent holds). */
PM_MUST_CHECK int pm_orc_colreader_skip(pm_orc_colreader *cr, uint64_t n, paimon_error *err);

/* Positions this column's own streams at a row-index entry (children are positioned by
 * their own entries). */
PM_MUST_CHECK int pm_orc_colreader_seek(pm_orc_colreader *cr, const pm_orc_index_entry *entry,
                                        paimon_error *err);

/* Vectors mirroring a reader tree: NULL on allocation failure. */
pm_orc_vec *pm_orc_vec_new(const pm_orc_colreader *cr);
void pm_orc_vec_free(pm_orc_vec *v);
void pm_orc_vec_reset(pm_orc_vec *v);

#endif /* PM_FORMAT_ORC_COLUMN_H */
