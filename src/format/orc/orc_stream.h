/*
 * ORC compression chunks (ORCv1 specification, "Compression"; docs/format/orc.md).
 *
 * With a codec, every stream, the stripe footers, the metadata and the footer are split
 * into chunks, each compressed on its own:
 *
 *   OFFSET  SIZE    DESCRIPTION
 *   0       3       header, little-endian: chunkLength << 1 | isOriginal
 *   3       length  the chunk: compressed, or stored as is when isOriginal is 1
 *
 * A chunk expands to at most the PostScript's compressionBlockSize.  Without a codec the
 * bytes are stored directly, with no headers.
 *
 * Reading decompresses a whole stream into one buffer and, for seeking to a row group,
 * keeps where each chunk starts on both sides (a row index position names a chunk by its
 * compressed offset, then an offset inside the decompressed chunk).
 *
 * Writing (pm_orc_outstream) follows ORC Java's OutStream: bytes collect in a buffer of
 * compressionBlockSize; a full buffer is compressed into a chunk, or stored as original
 * when compression does not make it smaller; a position is (bytes of finished chunks,
 * bytes in the buffer), or the byte offset without a codec.
 */
#ifndef PM_FORMAT_ORC_STREAM_H
#define PM_FORMAT_ORC_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format/orc/orc_meta.h"
#include "util/buf.h"
#include "util/compress.h"
#include "util/error.h"

#define PM_ORC_HEADER_SIZE 3
/* A 3-byte header holds a 23-bit length. */
#define PM_ORC_MAX_CHUNK ((size_t)1 << 23)

/* Codec settings shared by a file's readers or writers. */
typedef struct pm_orc_codec {
    pm_orc_compression kind;
    size_t block_size; /* compressionBlockSize */
    int level;         /* compression level (writing); 0 = the codec's default */
    pm_codec_ctx *ctx; /* reused contexts (owned by whoever made the pm_orc_codec) */
} pm_orc_codec;

/* Maps the PostScript kind to a util codec; PAIMON_EUNSUPPORTED for LZO and unknown kinds. */
PM_MUST_CHECK int pm_orc_codec_check(pm_orc_compression kind, const char *path, paimon_error *err);

/* ---- reading --------------------------------------------------------------------------- */

/* Where chunks start: compressed offset within the stream -> decompressed offset. */
typedef struct pm_orc_chunk_map {
    pm_buf pairs; /* uint64_t compressed, uint64_t decompressed; sorted */
} pm_orc_chunk_map;

/* Decompresses the stream `src` (`len` bytes at file offset `off`) and appends it to `out`.
 * `map` (may be NULL) receives each chunk's start.  `what` names the stream in messages.
 * Malformed chunks are PAIMON_ECORRUPT; a chunk larger than the block size too. */
PM_MUST_CHECK int pm_orc_decompress(const pm_orc_codec *codec, const uint8_t *src, size_t len,
                                    uint64_t off, const char *path, const char *what, pm_buf *out,
                                    pm_orc_chunk_map *map, paimon_error *err);

/* The largest decompressed stream accepted (PAIMON_ELIMIT beyond): 2 GiB by default.  A
 * process-wide setting for fuzzing, where a hostile file must not reach the memory limit
 * with chunks that each expand to the block size. */
void pm_orc_stream_limit(size_t max);

/* The decompressed offset of the chunk that starts at compressed offset `comp`; false when
 * no chunk starts there. */
bool pm_orc_chunk_lookup(const pm_orc_chunk_map *map, uint64_t comp, uint64_t *raw);

/* ---- writing --------------------------------------------------------------------------- */

/* A list of row-index positions being recorded. */
typedef struct pm_orc_positions {
    uint64_t v[16];
    size_t count;
} pm_orc_positions;

static inline int pm_orc_positions_add(pm_orc_positions *p, uint64_t v)
{
    if (p->count >= sizeof(p->v) / sizeof(p->v[0]))
        return PAIMON_ELIMIT;
    p->v[p->count++] = v;
    return 0;
}

typedef struct pm_orc_outstream {
    const pm_orc_codec *codec; /* borrowed */
    pm_buf current;            /* bytes not yet in a chunk (codec only) */
    pm_buf out;                /* finished bytes: chunks with headers, or raw bytes */
    pm_buf scratch;            /* compression output */
    bool suppressed;           /* dropped from the stripe (PRESENT without nulls) */
} pm_orc_outstream;

void pm_orc_outstream_init(pm_orc_outstream *s, const pm_orc_codec *codec);
void pm_orc_outstream_free(pm_orc_outstream *s);
/* Empties the stream for the next stripe (keeps the memory). */
void pm_orc_outstream_reset(pm_orc_outstream *s);

PM_MUST_CHECK int pm_orc_outstream_write(pm_orc_outstream *s, const void *data, size_t len,
                                         paimon_error *err);
PM_MUST_CHECK int pm_orc_outstream_putc(pm_orc_outstream *s, uint8_t c, paimon_error *err);
/* Compresses what is buffered into a final chunk; `out` is then the stream's bytes. */
PM_MUST_CHECK int pm_orc_outstream_flush(pm_orc_outstream *s, paimon_error *err);
/* Appends the current position (1 value without a codec, 2 with one). */
int pm_orc_outstream_position(const pm_orc_outstream *s, pm_orc_positions *pos);

/* Compresses a whole message (footer, metadata, stripe footer, row index) into `out` the
 * way an OutStream flushed once does. */
PM_MUST_CHECK int pm_orc_compress_message(const pm_orc_codec *codec, const uint8_t *data,
                                          size_t len, pm_buf *out, paimon_error *err);

#endif /* PM_FORMAT_ORC_STREAM_H */
