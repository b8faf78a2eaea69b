/*
 * Writing ORC files the way ORC Java 1.9 writes them for Paimon (docs/format/orc.md,
 * "Writing"): file version 0.12, RLE v2, strings dictionary-encoded when the first row
 * group (or a smaller stripe) has at most 80% distinct values, row indexes every 10,000
 * rows with positions and statistics, stripe statistics in the Metadata section, file
 * statistics in the footer, compression chunks of ORC's size (64 MiB / (20 * columns),
 * rounded up to a power of two, 4 KiB to 256 KiB), stripes cut when the buffered streams
 * pass the stripe size (checked every 5,000 rows, as Java does).
 *
 * Rows arrive as column views (pm_orc_colview) in the reader's vector layouts
 * (orc_reader.h), so a batch read from one file can be written to another.  Java feeds its
 * writer Paimon's batches of 1024 rows; the writer cuts the input the same way, because
 * ORC Java's statistics and memory checks depend on those boundaries.
 *
 * The writer identifies itself honestly: footer `writer` 100 (unregistered with ORC; Java
 * and C++ readers treat unknown writers as having every fix), softwareVersion
 * "paimon-c <version>", and writerVersion 9 (ORC-14), the format revision it follows.
 *
 * Thread safety: one thread per writer.
 */
#ifndef PM_FORMAT_ORC_WRITER_H
#define PM_FORMAT_ORC_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format/orc/orc_meta.h"
#include "io/fs.h"
#include "util/buf.h"
#include "util/error.h"

#define PM_ORC_WRITER_ID 100

/* One column of the rows being written; slots as in pm_orc_vec.  `validity` NULL: no
 * nulls.  STRUCT children have a slot per struct row; LIST/MAP children hold the
 * elements between offsets. */
typedef struct pm_orc_colview pm_orc_colview;
struct pm_orc_colview {
    const uint8_t *validity; /* LSB-first bitmap, or NULL */
    const void *values;      /* fixed-width values, BOOLEAN bits, or var-width bytes */
    const int32_t *offsets;  /* STRING/BINARY/LIST/MAP */
    const int32_t *nanos;    /* TIMESTAMP: nanoseconds of the millisecond */
    const pm_orc_colview *children;
};

typedef struct pm_orc_writer_options {
    pm_orc_compression compression; /* PM_ORC_ZSTD unless set */
    bool compression_set;           /* compression holds a choice (NONE is 0) */
    int level;                      /* zstd / zlib level; 0: the codec's default (zstd 1) */
    uint64_t stripe_size;           /* 0: 64 MiB */
    uint32_t row_index_stride;      /* 0: 10,000 */
    size_t block_size;              /* 0: ORC's choice */
    int64_t batch_rows;             /* Paimon's write batch; 0: 1024 */
    double dictionary_threshold;    /* 0: 0.8; negative: never dictionary-encode */
    const char *timezone;           /* writerTimezone for TIMESTAMP; NULL: "UTC" */
} pm_orc_writer_options;

typedef struct pm_orc_writer pm_orc_writer;

/* Starts a file of `type_count` types (pre-order; types[0] the root STRUCT with field
 * names; attributes are written as given).  Exactly one of `sink` (the whole file is
 * appended) and `output` (streamed) is non-NULL; both are borrowed.  Caller owns `*out`;
 * release with pm_orc_writer_free(). */
PM_MUST_CHECK int pm_orc_writer_new(pm_orc_writer **out, const pm_orc_type *types,
                                    size_t type_count, const pm_orc_writer_options *o, pm_buf *sink,
                                    pm_output *output, paimon_error *err);

/* Writes `rows` rows whose columns are the children of `root` (one per root field).
 * TIMESTAMP values are the wall clock as epoch milliseconds plus nanoseconds of the
 * millisecond; TIMESTAMP_INSTANT ones instants. */
PM_MUST_CHECK int pm_orc_writer_write(pm_orc_writer *w, const pm_orc_colview *root, int64_t rows,
                                      paimon_error *err);
/* The same for rows [first, first + rows) of the views. */
PM_MUST_CHECK int pm_orc_writer_write_range(pm_orc_writer *w, const pm_orc_colview *root,
                                            int64_t first, int64_t rows, paimon_error *err);

/* Finishes the file (last stripe, metadata, footer, PostScript). */
PM_MUST_CHECK int pm_orc_writer_close(pm_orc_writer *w, paimon_error *err);

/* Bytes written so far (the file size once closed). */
uint64_t pm_orc_writer_position(const pm_orc_writer *w);

/* Bytes buffered for the open stripe: ORC Java's Writer.estimateMemory(). */
uint64_t pm_orc_writer_buffered(const pm_orc_writer *w);

void pm_orc_writer_free(pm_orc_writer *w);

/* ORC's compression chunk size for a stripe size and column count (Java's
 * WriterImpl.getEstimatedBufferSize with the default 256 KiB). */
size_t pm_orc_block_size(uint64_t stripe_size, size_t columns);

#endif /* PM_FORMAT_ORC_WRITER_H */
