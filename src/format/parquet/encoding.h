/*
 * Parquet value and level encodings (parquet-format Encodings.md):
 *
 *   RLE/bit-packed hybrid   levels, dictionary indices, RLE booleans:
 *                             run := header varint; header & 1 == 0: RLE run of header >> 1
 *                             copies of one value stored in ceil(width / 8) bytes LE;
 *                             header & 1 == 1: (header >> 1) groups of 8 values bit-packed
 *                             LSB first, `width` bytes per group
 *   BIT_PACKED (deprecated) levels only: values packed MSB first, no header
 *   DELTA_BINARY_PACKED     <block size><miniblocks per block><total count><first value>
 *                             then blocks: <min delta zigzag><one bit width byte per
 *                             miniblock><miniblocks bit-packed LSB first>
 *   DELTA_LENGTH_BYTE_ARRAY lengths as DELTA_BINARY_PACKED, then the bytes back to back
 *   DELTA_BYTE_ARRAY        prefix lengths (DELTA_BINARY_PACKED), then the suffixes as
 *                             DELTA_LENGTH_BYTE_ARRAY; value i = prefix of value i-1 + suffix
 *   BYTE_STREAM_SPLIT       byte k of every value, for k = 0..width-1, stream after stream
 *
 * Input contract: every decoder may read up to PM_PQ_PADDING bytes past the end of its input
 * (bulk unpacking loads 8 bytes at a time), so every buffer handed to a decoder is allocated
 * with that many extra bytes.  Values themselves are always bounds-checked: a decoder that
 * runs out of input, meets a bit width above what the encoding allows, or overflows a count
 * returns PAIMON_ECORRUPT.  Decoders do not know the file or offset; their callers prefix
 * those to the message.
 */
#ifndef PM_FORMAT_PARQUET_ENCODING_H
#define PM_FORMAT_PARQUET_ENCODING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"
#include "util/error.h"

#define PM_PQ_PADDING 16

/* ---- bit unpacking --------------------------------------------------------------------- */

/* Unpacks `n` values of `width` bits (0..32), LSB first, starting at bit 0 of `in`. */
void pm_pq_unpack32(const uint8_t *in, int width, uint32_t *out, size_t n);
/* The same for widths 0..64. */
void pm_pq_unpack64(const uint8_t *in, int width, uint64_t *out, size_t n);
/* The same starting at bit `bit` of `in`. */
void pm_pq_unpack64_at(const uint8_t *in, uint64_t bit, int width, uint64_t *out, size_t n);

/* ---- RLE / bit-packed hybrid ----------------------------------------------------------- */

typedef struct pm_rle_decoder {
    const uint8_t *p;      /* next run header */
    const uint8_t *end;    /* end of the encoded data */
    int width;             /* bits per value, 0..32 */
    uint32_t rle_left;     /* values left in the current RLE run */
    uint32_t rle_value;    /* its value */
    uint32_t packed_left;  /* values left in the current bit-packed run */
    const uint8_t *packed; /* the run's data */
    uint64_t packed_bit;   /* bit offset of the next packed value */
} pm_rle_decoder;

void pm_rle_init(pm_rle_decoder *d, const uint8_t *data, size_t len, int width);

/* Decodes up to `n` values; returns how many were decoded (fewer only when the data ends),
 * or a negative PAIMON_ECORRUPT for a malformed run (message in err). */
long pm_rle_get_u32(pm_rle_decoder *d, uint32_t *out, size_t n, paimon_error *err);
long pm_rle_get_u8(pm_rle_decoder *d, uint8_t *out, size_t n, paimon_error *err);
/* Decodes booleans into bits (LSB first) starting at bit `bit0` of `bits`. */
long pm_rle_get_bits(pm_rle_decoder *d, uint8_t *bits, int64_t bit0, size_t n, paimon_error *err);

/* parquet-java's RunLengthBitPackingHybridEncoder: 8 equal values or more become an RLE
 * run, the rest bit-packed groups of 8 (at most 63 groups per run). */
typedef struct pm_rle_encoder {
    pm_buf *out;          /* appended to */
    int width;            /* bits per value */
    uint32_t buffered[8]; /* values not yet written */
    int buffered_count;
    uint32_t previous; /* last value seen */
    uint32_t repeat;   /* how often it repeated */
    size_t header_pos; /* offset of the open bit-packed run's header, or SIZE_MAX */
    int group_count;   /* groups in that run */
    int rc;            /* first failure */
} pm_rle_encoder;

void pm_rle_encoder_init(pm_rle_encoder *e, pm_buf *out, int width);
void pm_rle_put(pm_rle_encoder *e, uint32_t v);
/* Writes what is buffered; the encoder can then be discarded.  Returns e->rc. */
int pm_rle_finish(pm_rle_encoder *e);

/* The bit width that holds `max_value` (0 for 0). */
int pm_pq_bit_width(uint64_t max_value);

/* ---- legacy BIT_PACKED levels ---------------------------------------------------------- */

/* Decodes `n` levels packed MSB first; PAIMON_ECORRUPT when `len` is too short. */
PM_MUST_CHECK int pm_pq_bitpacked_levels(const uint8_t *data, size_t len, int width, uint8_t *out,
                                         size_t n, paimon_error *err);

/* ---- DELTA_BINARY_PACKED --------------------------------------------------------------- */

typedef struct pm_delta_decoder {
    const uint8_t *p, *end; /* the remaining input */
    uint64_t block_size;    /* values per block */
    uint64_t miniblocks;    /* miniblocks per block */
    uint64_t per_mini;      /* values per miniblock */
    uint64_t total;         /* values in the stream */
    uint64_t emitted;       /* values returned so far */
    uint64_t last;          /* previous value (wrapping arithmetic) */
    uint64_t min_delta;     /* of the current block */
    const uint8_t *widths;  /* bit widths of the current block's miniblocks */
    uint64_t mini_idx;      /* current miniblock in the block */
    uint64_t mini_left;     /* values left in the current miniblock */
    const uint8_t *mini;    /* its packed data */
    uint64_t mini_bit;      /* bit offset into it */
    bool first_pending;     /* the header's first value not yet returned */
    int max_width;          /* 32 for INT32 streams, 64 for INT64 */
} pm_delta_decoder;

/* Reads the header.  `max_width` is 32 or 64. */
PM_MUST_CHECK int pm_delta_init(pm_delta_decoder *d, const uint8_t *data, size_t len, int max_width,
                                paimon_error *err);
/* Decodes the next `n` values (n <= remaining). */
PM_MUST_CHECK int pm_delta_get64(pm_delta_decoder *d, int64_t *out, size_t n, paimon_error *err);
PM_MUST_CHECK int pm_delta_get32(pm_delta_decoder *d, int32_t *out, size_t n, paimon_error *err);
static inline uint64_t pm_delta_remaining(const pm_delta_decoder *d)
{
    return d->total - d->emitted;
}
/* After the last value: the first byte past the stream (for the data that follows it).
 * Decodes and discards what is left. */
PM_MUST_CHECK int pm_delta_end(pm_delta_decoder *d, const uint8_t **end, paimon_error *err);

/* ---- BYTE_STREAM_SPLIT ----------------------------------------------------------------- */

/* Gathers value i from byte streams: out[i * width + k] = data[k * count + i]. */
void pm_pq_bss_decode(const uint8_t *data, size_t count, size_t width, size_t first, size_t n,
                      uint8_t *out);

#endif /* PM_FORMAT_PARQUET_ENCODING_H */
