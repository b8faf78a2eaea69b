/*
 * Block compression codecs over the Debian libraries (libzstd, snappy, zlib, liblz4).
 *
 * Decompression appends to a pm_buf whose `max` the caller sets from what the format
 * allows, so a hostile block cannot inflate without bound (PAIMON_ELIMIT).  Every failure
 * of the codec itself is PAIMON_ECORRUPT with the codec's reason; callers prefix the file
 * and offset.
 *
 * zstd frames written by Java (zstd-jni's ZstdOutputStream) carry no content size, so zstd
 * is always decoded with the streaming API (metadata.md §5, dependencies.md §1).
 *
 * Thread safety: a pm_codec_ctx belongs to one thread at a time.
 */
#ifndef PM_UTIL_COMPRESS_H
#define PM_UTIL_COMPRESS_H

#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"
#include "util/error.h"

typedef enum pm_codec {
    PM_CODEC_NONE = 0,
    PM_CODEC_ZSTD,        /* zstd frames (any number, concatenated) */
    PM_CODEC_SNAPPY,      /* one raw snappy block (no framing, no CRC) */
    PM_CODEC_DEFLATE_RAW, /* RFC 1951 deflate without zlib header (Avro deflate, ORC ZLIB) */
    PM_CODEC_GZIP,        /* RFC 1952 gzip members (Parquet GZIP) */
    PM_CODEC_LZ4_RAW      /* one LZ4 block (Parquet LZ4_RAW, ORC LZ4); needs the output size */
} pm_codec;

/* Reusable codec state (zstd contexts).  Optional: NULL makes each call use fresh state. */
typedef struct pm_codec_ctx pm_codec_ctx;

pm_codec_ctx *pm_codec_ctx_new(void);
void pm_codec_ctx_free(pm_codec_ctx *ctx);

/* Compresses `len` bytes and appends the result to `out`.  `level` is the codec's level
 * (zstd 1..22, deflate/gzip 0..9; ignored by the others; 0 = codec default). */
PM_MUST_CHECK int pm_compress(pm_codec_ctx *ctx, pm_codec codec, int level, const uint8_t *src,
                              size_t len, pm_buf *out, paimon_error *err);

/* Decompresses and appends to `out`.  `expected_len` is the exact output size when the
 * format records it (required for LZ4_RAW; checked for the others when nonzero). */
PM_MUST_CHECK int pm_decompress(pm_codec_ctx *ctx, pm_codec codec, const uint8_t *src, size_t len,
                                size_t expected_len, pm_buf *out, paimon_error *err);

/* A static name, e.g. "zstd". */
const char *pm_codec_name(pm_codec codec);

#endif /* PM_UTIL_COMPRESS_H */
