/*
 * Avro object container files (spec "Object Container Files"), read and written by hand:
 * Debian's avro-c has no zstandard codec, and Paimon's manifests default to it.
 *
 *   OFFSET  SIZE   DESCRIPTION
 *   0       4      magic "Obj" 0x01
 *   4       var    file metadata: an Avro map<bytes> ("avro.schema", "avro.codec", ...)
 *   .       16     sync marker
 *   then blocks until the end of the file:
 *           var    object count (long)
 *           var    byte size of the (compressed) objects (long)
 *           size   the objects, compressed with the codec
 *           16     the sync marker again
 *
 * Codecs: "null", "deflate" (raw RFC 1951), "snappy" (a snappy block followed by the
 * big-endian CRC-32 of the uncompressed data), "zstandard" (frames without a content size,
 * decoded as a stream).  An empty file (no objects) has no blocks at all.
 *
 * Java writes the metadata as one map block with avro.schema then avro.codec, and starts a
 * new block once the encoded objects reach 64000 bytes; the writer here does the same.
 */
#ifndef PM_FORMAT_AVRO_CONTAINER_H
#define PM_FORMAT_AVRO_CONTAINER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format/avro/avro_schema.h"
#include "io/fs.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/compress.h"
#include "util/error.h"

#define PM_AVRO_MAGIC         "Obj\x01"
#define PM_AVRO_SYNC_INTERVAL 64000
/* Java flushes a block every 64000 bytes; no legitimate block comes near this. */
#define PM_AVRO_DEFAULT_MAX_BLOCK ((size_t)256 << 20)

/* ---- reading --------------------------------------------------------------------------- */

typedef struct pm_avro_reader {
    const char *what;    /* file name for messages (borrowed) */
    const uint8_t *data; /* the whole file (borrowed) */
    size_t len;
    size_t pos;              /* offset of the next block */
    pm_arena arena;          /* schema nodes */
    pm_avro_schema *schema;  /* the writer schema */
    const char *schema_json; /* points into data */
    size_t schema_json_len;
    pm_codec codec;
    const char *codec_name; /* static */
    uint8_t sync[16];
    pm_codec_ctx *ctx;
    size_t max_block; /* limit on a decompressed block (PAIMON_ELIMIT beyond) */
} pm_avro_reader;

/* Parses the header of `len` bytes of a container file.  The reader borrows `data` and
 * `what` until pm_avro_reader_close().  A wrong magic is PAIMON_ECORRUPT ("not an Avro
 * file"); an unknown codec PAIMON_EUNSUPPORTED.  A failed open holds nothing (closing it
 * anyway is harmless). */
PM_MUST_CHECK int pm_avro_reader_open(pm_avro_reader *r, const uint8_t *data, size_t len,
                                      const char *what, paimon_error *err);

/* Decompresses the next block into `block` (replacing its contents) and returns its
 * object count and the file offset of the block; PAIMON_ITEROVER after the last block.
 * With `block` NULL the block is only framed (its header and sync marker checked) and
 * skipped: counting a file's objects decompresses nothing. */
PM_MUST_CHECK int pm_avro_reader_next_block(pm_avro_reader *r, pm_buf *block, int64_t *count,
                                            size_t *block_off, paimon_error *err);

void pm_avro_reader_close(pm_avro_reader *r);

/* ---- writing --------------------------------------------------------------------------- */

typedef struct pm_avro_writer {
    pm_buf *sink;      /* whole-file destination (borrowed), or NULL */
    pm_output *output; /* streaming destination (borrowed), or NULL */
    pm_codec codec;
    int level;
    pm_codec_ctx *ctx;
    uint8_t sync[16];
    pm_buf block;        /* encoded objects of the current block */
    pm_buf packed;       /* scratch for compression and block headers */
    int64_t block_count; /* objects in `block` */
    int64_t total_count; /* objects written */
    size_t sync_interval;
} pm_avro_writer;

/* Starts a file with `schema_json` (compact JSON, written verbatim) and codec `codec_name`
 * ("null", "deflate", "snappy" or "zstandard"; level for deflate/zstandard, 0 = default).
 * Exactly one of `sink` and `output` is non-NULL. */
PM_MUST_CHECK int pm_avro_writer_open(pm_avro_writer *w, const char *schema_json,
                                      const char *codec_name, int level, pm_buf *sink,
                                      pm_output *output, paimon_error *err);

/* The buffer to encode the next object into; call pm_avro_writer_end_object() after. */
static inline pm_buf *pm_avro_writer_object(pm_avro_writer *w)
{
    return &w->block;
}

/* Counts the object just encoded and flushes a full block. */
PM_MUST_CHECK int pm_avro_writer_end_object(pm_avro_writer *w, paimon_error *err);

/* Flushes the last block and releases the writer's own memory (not the destination). */
PM_MUST_CHECK int pm_avro_writer_close(pm_avro_writer *w, paimon_error *err);

/* Releases the writer's memory after a failure. */
void pm_avro_writer_abort(pm_avro_writer *w);

/* Maps a Paimon compression option value ("zstd", "snappy", "deflate", "null", "none", ...)
 * to the Avro codec name Java writes (AvroFileFormat: zstd -> zstandard). */
const char *pm_avro_codec_for_option(const char *option);

#endif /* PM_FORMAT_AVRO_CONTAINER_H */
