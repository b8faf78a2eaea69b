/*
 * ORC's run-length encodings (ORCv1 specification, "Run Length Encoding";
 * docs/format/orc.md):
 *
 *   byte RLE      runs of 3..130 equal bytes (control 0..127 = length - 3, then the byte) or
 *                 1..128 literal bytes (control -1..-128 = -count, then the bytes)
 *   boolean RLE   bits packed MSB first into bytes, the bytes byte-RLE encoded
 *   integer RLE 1 runs of 3..130 values with a fixed delta -128..127 (control, delta byte,
 *                 base varint) or 1..128 literal varints (control -count)
 *   integer RLE 2 four sub-encodings chosen by the top two bits of the first byte:
 *                 SHORT_REPEAT, DIRECT, PATCHED_BASE, DELTA (at most 512 values each)
 *
 * Signed integers are zigzag-encoded varints (RLE 1) or zigzag values (RLE 2 SHORT_REPEAT,
 * DIRECT; DELTA bases are zigzag varints when signed; PATCHED_BASE has a sign-magnitude
 * base).
 *
 * Decoders read a decompressed stream held in memory; they never read past its end and
 * return false on malformed input so the caller can report the file, column and stream.
 * Encoders reproduce the choices of ORC Java 1.9's writers (RunLengthByteWriter,
 * BitFieldWriter, RunLengthIntegerWriterV2 with aligned bit packing), so the streams
 * paimon-c writes have the bytes Java writes for the same values, and they report the
 * same row-index positions.
 */
#ifndef PM_FORMAT_ORC_RLE_H
#define PM_FORMAT_ORC_RLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format/orc/orc_stream.h"

#define PM_ORC_RLE_MAX 512 /* values of one RLE v2 run */

/* ---- decoding -------------------------------------------------------------------------- */

typedef struct pm_orc_byte_rle {
    const uint8_t *p, *end;
    const uint8_t *lits; /* literal run: next byte */
    size_t remaining;    /* values left in the current run */
    bool repeat;         /* current run repeats `value` */
    uint8_t value;
} pm_orc_byte_rle;

typedef struct pm_orc_bool_rle {
    pm_orc_byte_rle bytes;
    uint8_t cur;   /* current byte */
    int bits_left; /* bits of `cur` not yet returned */
} pm_orc_bool_rle;

typedef struct pm_orc_int_rle {
    const uint8_t *p, *end;
    bool is_signed;
    int version;                  /* 1 or 2 */
    int64_t lits[PM_ORC_RLE_MAX]; /* the current run, decoded */
    size_t count, used;
} pm_orc_int_rle;

void pm_orc_byte_rle_init(pm_orc_byte_rle *r, const uint8_t *data, size_t len);
bool pm_orc_byte_rle_read(pm_orc_byte_rle *r, uint8_t *out, size_t n);
bool pm_orc_byte_rle_skip(pm_orc_byte_rle *r, uint64_t n);

void pm_orc_bool_rle_init(pm_orc_bool_rle *r, const uint8_t *data, size_t len);
/* One byte per value, 0 or 1. */
bool pm_orc_bool_rle_read(pm_orc_bool_rle *r, uint8_t *out, size_t n);
bool pm_orc_bool_rle_skip(pm_orc_bool_rle *r, uint64_t n);

void pm_orc_int_rle_init(pm_orc_int_rle *r, const uint8_t *data, size_t len, bool is_signed,
                         int version);
bool pm_orc_int_rle_read(pm_orc_int_rle *r, int64_t *out, size_t n);
bool pm_orc_int_rle_skip(pm_orc_int_rle *r, uint64_t n);

/* RLE v2 bit widths (ORC's FixedBitSizes): a run header's 5-bit code stands for one of these
 * 32 widths, and the encoder rounds other widths up to the closest of them. */
extern const uint8_t pm_orc_rle_widths[32];
/* The closest width at or above `n` bits (ORC's getClosestFixedBits): 0 gives 1, more than
 * 56 gives 64. */
int pm_orc_rle_closest_width(int n);

/* An unbounded zigzag varint of at most 128 bits (decimal DATA). */
bool pm_orc_read_varint128(const uint8_t **p, const uint8_t *end, __int128 *out);

/* ---- encoding -------------------------------------------------------------------------- */

typedef struct pm_orc_byte_rle_writer {
    pm_orc_outstream *out;
    uint8_t lits[128];
    int count;    /* buffered values */
    bool repeat;  /* the buffered values are a run */
    int tail_run; /* equal values at the end of a literal run */
} pm_orc_byte_rle_writer;

typedef struct pm_orc_bool_rle_writer {
    pm_orc_byte_rle_writer bytes;
    uint8_t cur;
    int bits_left; /* free bits in `cur` (8 = empty) */
} pm_orc_bool_rle_writer;

typedef struct pm_orc_int_rle_writer pm_orc_int_rle_writer;

void pm_orc_byte_rle_writer_init(pm_orc_byte_rle_writer *w, pm_orc_outstream *out);
int pm_orc_byte_rle_write(pm_orc_byte_rle_writer *w, uint8_t v);
int pm_orc_byte_rle_flush(pm_orc_byte_rle_writer *w);
/* Appends the row-index position: the stream's, then the buffered value count. */
int pm_orc_byte_rle_position(const pm_orc_byte_rle_writer *w, pm_orc_positions *pos);

void pm_orc_bool_rle_writer_init(pm_orc_bool_rle_writer *w, pm_orc_outstream *out);
int pm_orc_bool_rle_write(pm_orc_bool_rle_writer *w, bool v);
int pm_orc_bool_rle_flush(pm_orc_bool_rle_writer *w);
int pm_orc_bool_rle_position(const pm_orc_bool_rle_writer *w, pm_orc_positions *pos);

/* RLE v2 (the only integer encoding paimon-c writes).  NULL on allocation failure. */
pm_orc_int_rle_writer *pm_orc_int_rle_writer_new(pm_orc_outstream *out, bool is_signed);
void pm_orc_int_rle_writer_free(pm_orc_int_rle_writer *w);
int pm_orc_int_rle_write(pm_orc_int_rle_writer *w, int64_t v);
int pm_orc_int_rle_flush(pm_orc_int_rle_writer *w);
int pm_orc_int_rle_position(const pm_orc_int_rle_writer *w, pm_orc_positions *pos);

/* Appends an unbounded zigzag varint of a 128-bit value (decimal DATA). */
int pm_orc_write_varint128(pm_orc_outstream *out, __int128 v);

#endif /* PM_FORMAT_ORC_RLE_H */
