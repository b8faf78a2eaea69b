/*
 * Encoding ORC's run-length encodings the way ORC Java 1.9 does (orc_rle.h): the same run
 * boundaries, the same sub-encoding choices and bit widths (RLE v2 with aligned bit packing,
 * the "SPEED" encoding strategy that is ORC's default), so files paimon-c writes carry the
 * streams Java would write for the same values.  The algorithm follows RLEv2's description
 * in the ORC specification and RunLengthIntegerWriterV2's decisions:
 *
 *   - values collect until a run ends: 3+ equal values become a fixed run (SHORT_REPEAT up
 *     to 10, else a fixed DELTA), anything else a variable run of up to 512 values;
 *   - a variable run is DELTA when monotonic, else PATCHED_BASE when the top 10% of the
 *     values need at least 2 more bits than the 90th percentile and the base-reduced 100th
 *     and 95th percentile widths differ, else DIRECT.
 */
#include "format/orc/orc_rle.h"

#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/varint.h"

#define MIN_REPEAT       3
#define MAX_SHORT_REPEAT 10
#define BASE_VALUE_LIMIT (1LL << 56)

/* ---- byte and boolean RLE ---------------------------------------------------------------- */

void pm_orc_byte_rle_writer_init(pm_orc_byte_rle_writer *w, pm_orc_outstream *out)
{
    memset(w, 0, sizeof(*w));
    w->out = out;
}

static int byte_write_values(pm_orc_byte_rle_writer *w)
{
    int rc = 0;
    if (w->count == 0)
        return 0;
    if (w->repeat) {
        rc = pm_orc_outstream_putc(w->out, (uint8_t)(w->count - MIN_REPEAT), NULL);
        if (rc == 0)
            rc = pm_orc_outstream_putc(w->out, w->lits[0], NULL);
    } else {
        rc = pm_orc_outstream_putc(w->out, (uint8_t)(-w->count), NULL);
        if (rc == 0)
            rc = pm_orc_outstream_write(w->out, w->lits, (size_t)w->count, NULL);
    }
    w->repeat = false;
    w->tail_run = 0;
    w->count = 0;
    return rc;
}

int pm_orc_byte_rle_write(pm_orc_byte_rle_writer *w, uint8_t v)
{
    if (w->count == 0) {
        w->lits[w->count++] = v;
        w->tail_run = 1;
    } else if (w->repeat) {
        if (v == w->lits[0]) {
            if (++w->count == 127 + MIN_REPEAT)
                return byte_write_values(w);
        } else {
            int rc = byte_write_values(w);
            if (rc != 0)
                return rc;
            w->lits[w->count++] = v;
            w->tail_run = 1;
        }
    } else {
        w->tail_run = v == w->lits[w->count - 1] ? w->tail_run + 1 : 1;
        if (w->tail_run == MIN_REPEAT) {
            if (w->count + 1 == MIN_REPEAT) {
                w->repeat = true;
                w->count += 1;
            } else {
                int rc;
                w->count -= MIN_REPEAT - 1;
                if ((rc = byte_write_values(w)) != 0)
                    return rc;
                w->lits[0] = v;
                w->repeat = true;
                w->count = MIN_REPEAT;
            }
        } else {
            w->lits[w->count++] = v;
            if (w->count == 128)
                return byte_write_values(w);
        }
    }
    return 0;
}

int pm_orc_byte_rle_flush(pm_orc_byte_rle_writer *w)
{
    return byte_write_values(w);
}

int pm_orc_byte_rle_position(const pm_orc_byte_rle_writer *w, pm_orc_positions *pos)
{
    int rc = pm_orc_outstream_position(w->out, pos);
    return rc != 0 ? rc : pm_orc_positions_add(pos, (uint64_t)w->count);
}

void pm_orc_bool_rle_writer_init(pm_orc_bool_rle_writer *w, pm_orc_outstream *out)
{
    pm_orc_byte_rle_writer_init(&w->bytes, out);
    w->cur = 0;
    w->bits_left = 8;
}

int pm_orc_bool_rle_write(pm_orc_bool_rle_writer *w, bool v)
{
    w->bits_left--;
    w->cur |= (uint8_t)((v ? 1 : 0) << w->bits_left);
    if (w->bits_left == 0) {
        int rc = pm_orc_byte_rle_write(&w->bytes, w->cur);
        w->cur = 0;
        w->bits_left = 8;
        return rc;
    }
    return 0;
}

int pm_orc_bool_rle_flush(pm_orc_bool_rle_writer *w)
{
    int rc = 0;
    if (w->bits_left != 8) {
        rc = pm_orc_byte_rle_write(&w->bytes, w->cur);
        w->cur = 0;
        w->bits_left = 8;
    }
    return rc != 0 ? rc : pm_orc_byte_rle_flush(&w->bytes);
}

int pm_orc_bool_rle_position(const pm_orc_bool_rle_writer *w, pm_orc_positions *pos)
{
    int rc = pm_orc_byte_rle_position(&w->bytes, pos);
    return rc != 0 ? rc : pm_orc_positions_add(pos, (uint64_t)(8 - w->bits_left));
}

/* ---- integer RLE v2 ---------------------------------------------------------------------- */

typedef enum { SHORT_REPEAT = 0, DIRECT = 1, PATCHED_BASE = 2, DELTA = 3 } enc_type;

struct pm_orc_int_rle_writer {
    pm_orc_outstream *out;
    bool is_signed;
    int64_t lits[PM_ORC_RLE_MAX];
    int count;
    int fixed_run, variable_run;
    int64_t prev_delta;
    /* the current run's encoding decision */
    enc_type enc;
    bool is_fixed_delta;
    int64_t fixed_delta, min;
    int zz_bits_90p, zz_bits_100p, br_bits_95p, br_bits_100p, bits_delta_max;
    int patch_width, patch_gap_width, patch_length;
    uint64_t zigzag[PM_ORC_RLE_MAX];
    uint64_t base_red[PM_ORC_RLE_MAX];
    uint64_t adj_deltas[PM_ORC_RLE_MAX];
    uint64_t gap_patch[PM_ORC_RLE_MAX];
    uint8_t scratch[8 * PM_ORC_RLE_MAX + 32];
};

pm_orc_int_rle_writer *pm_orc_int_rle_writer_new(pm_orc_outstream *out, bool is_signed)
{
    pm_orc_int_rle_writer *w = pm_calloc(1, sizeof(*w));
    if (w != NULL) {
        w->out = out;
        w->is_signed = is_signed;
        w->is_fixed_delta = true;
    }
    return w;
}

void pm_orc_int_rle_writer_free(pm_orc_int_rle_writer *w)
{
    pm_free(w);
}

static int num_bits(uint64_t v)
{
    return v == 0 ? 0 : 64 - __builtin_clzll(v);
}

static int closest_aligned_bits(int n)
{
    static const int aligned[] = {1, 2, 4, 8, 16, 24, 32, 40, 48, 56, 64};
    for (size_t i = 0; i < sizeof(aligned) / sizeof(aligned[0]); i++)
        if (n <= aligned[i])
            return aligned[i];
    return 64;
}

/* The code of the closest width at or above n bits, for every n 0..64 (percentile_bits is a
 * hot loop): pm_orc_rle_widths[width_code[n]] == pm_orc_rle_closest_width(n). */
static const uint8_t width_code[65] = {
    0,  0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
    21, 22, 23, 24, 24, 25, 25, 26, 26, 27, 27, 28, 28, 28, 28, 28, 28, 28, 28, 29, 29, 29,
    29, 29, 29, 29, 29, 30, 30, 30, 30, 30, 30, 30, 30, 31, 31, 31, 31, 31, 31, 31, 31,
};

static int encode_bit_width(int n)
{
    return width_code[n]; /* n <= 64: widths come from num_bits or the closest widths */
}

/* The bits needed by the p-th percentile of the values (ORC's percentileBits).  The 100th
 * percentile is the width of the widest value, which the OR of all values has. */
static int percentile_bits(const uint64_t *v, int n, double p)
{
    int hist[32] = {0}, per_len;
    if (p >= 1.0) {
        uint64_t all = 0;
        for (int i = 0; i < n; i++)
            all |= v[i];
        return n > 0 ? pm_orc_rle_widths[width_code[num_bits(all)]] : 0;
    }
    for (int i = 0; i < n; i++)
        hist[width_code[num_bits(v[i])]]++;
    per_len = (int)(n * (1.0 - p));
    for (int i = 31; i >= 0; i--) {
        per_len -= hist[i];
        if (per_len < 0)
            return pm_orc_rle_widths[i];
    }
    return 0;
}

static int put(pm_orc_int_rle_writer *w, uint8_t b)
{
    return pm_orc_outstream_putc(w->out, b, NULL);
}

static int put_varint(pm_orc_int_rle_writer *w, uint64_t v)
{
    uint8_t tmp[PM_UVARINT_MAX];
    return pm_orc_outstream_write(w->out, tmp, pm_uvarint_encode(tmp, v), NULL);
}

/* Big-endian bit packing, MSB first, the last byte zero-padded. */
static int write_ints(pm_orc_int_rle_writer *w, const uint64_t *v, int n, int bits)
{
    size_t len = 0;
    if (n < 1)
        return 0;
    if (bits % 8 == 0) {
        int nb = bits / 8;
        for (int i = 0; i < n; i++)
            for (int k = nb - 1; k >= 0; k--)
                w->scratch[len++] = (uint8_t)(v[i] >> (8 * k));
    } else {
        uint64_t cur = 0;
        int have = 0;
        for (int i = 0; i < n; i++) {
            uint64_t x = v[i] & ((1ULL << bits) - 1);
            cur = cur << bits | x;
            have += bits;
            while (have >= 8) {
                have -= 8;
                w->scratch[len++] = (uint8_t)(cur >> have);
            }
            cur &= (1ULL << have) - 1;
        }
        if (have > 0)
            w->scratch[len++] = (uint8_t)(cur << (8 - have));
    }
    return pm_orc_outstream_write(w->out, w->scratch, len, NULL);
}

static void clear_run(pm_orc_int_rle_writer *w)
{
    w->count = 0;
    w->prev_delta = 0;
    w->fixed_delta = 0;
    w->zz_bits_90p = w->zz_bits_100p = w->br_bits_95p = w->br_bits_100p = 0;
    w->bits_delta_max = 0;
    w->patch_gap_width = w->patch_length = w->patch_width = 0;
    w->min = 0;
    w->is_fixed_delta = true;
}

static const uint64_t *prepare_direct(pm_orc_int_rle_writer *w)
{
    const uint64_t *zz = (const uint64_t *)w->lits;
    if (w->is_signed) {
        for (int i = 0; i < w->count; i++)
            w->zigzag[i] = pm_zigzag_encode(w->lits[i]);
        zz = w->zigzag;
    }
    w->zz_bits_100p = percentile_bits(zz, w->count, 1.0);
    return zz;
}

static void prepare_patched(pm_orc_int_rle_writer *w)
{
    uint64_t mask = (1ULL << w->br_bits_95p) - 1;
    int gaps[PM_ORC_RLE_MAX];
    uint64_t patches[PM_ORC_RLE_MAX];
    int n = 0, prev = 0, max_gap = 0, len;

    w->patch_width = pm_orc_rle_closest_width(w->br_bits_100p - w->br_bits_95p);
    /* a 64-bit patch leaves no room for the gap: split the value 56 + 8 instead */
    if (w->patch_width == 64) {
        w->patch_width = 56;
        w->br_bits_95p = 8;
        mask = (1ULL << w->br_bits_95p) - 1;
    }
    for (int i = 0; i < w->count; i++) {
        if (w->base_red[i] > mask) {
            int gap = i - prev;
            if (gap > max_gap)
                max_gap = gap;
            prev = i;
            gaps[n] = gap;
            patches[n] = w->base_red[i] >> w->br_bits_95p;
            n++;
            w->base_red[i] &= mask;
        }
    }
    len = n;
    w->patch_gap_width =
        (max_gap == 0 && n != 0) ? 1 : pm_orc_rle_closest_width(num_bits((uint64_t)max_gap));
    /* gaps beyond 255 take extra entries */
    if (w->patch_gap_width > 8) {
        w->patch_gap_width = 8;
        len += max_gap == 511 ? 2 : 1;
    }
    {
        int out = 0;
        for (int i = 0; i < n && out < len; i++) {
            uint64_t g = (uint64_t)gaps[i];
            while (g > 255 && out < len) {
                w->gap_patch[out++] = 255ULL << w->patch_width;
                g -= 255;
            }
            if (out < len)
                w->gap_patch[out++] = g << w->patch_width | patches[i];
        }
        /* ORC Java leaves unfilled entries zero */
        for (; out < len; out++)
            w->gap_patch[out] = 0;
    }
    w->patch_length = len;
}

static bool safe_subtract(int64_t l, int64_t r)
{
    return (l ^ r) >= 0 || (l ^ (int64_t)((uint64_t)l - (uint64_t)r)) >= 0;
}

static void determine_encoding(pm_orc_int_rle_writer *w)
{
    int64_t max, initial_delta, curr_delta = 0;
    uint64_t delta_max = 0;
    bool increasing = true, decreasing = true;
    const uint64_t *zz;

    if (w->count <= MIN_REPEAT) {
        prepare_direct(w);
        w->enc = DIRECT;
        return;
    }
    w->is_fixed_delta = true;
    w->min = max = w->lits[0];
    initial_delta = (int64_t)((uint64_t)w->lits[1] - (uint64_t)w->lits[0]);
    w->adj_deltas[0] = (uint64_t)initial_delta;
    for (int i = 1; i < w->count; i++) {
        int64_t l1 = w->lits[i], l0 = w->lits[i - 1];
        curr_delta = (int64_t)((uint64_t)l1 - (uint64_t)l0);
        if (l1 < w->min)
            w->min = l1;
        if (l1 > max)
            max = l1;
        increasing &= l0 <= l1;
        decreasing &= l0 >= l1;
        w->is_fixed_delta &= curr_delta == initial_delta;
        if (i > 1) {
            /* Math.abs: Long.MIN_VALUE stays itself */
            w->adj_deltas[i - 1] =
                curr_delta < 0 ? (uint64_t)0 - (uint64_t)curr_delta : (uint64_t)curr_delta;
            if ((int64_t)w->adj_deltas[i - 1] > (int64_t)delta_max)
                delta_max = w->adj_deltas[i - 1];
        }
    }
    if (!safe_subtract(max, w->min)) {
        prepare_direct(w);
        w->enc = DIRECT;
        return;
    }
    if (w->min == max) {
        w->fixed_delta = 0;
        w->enc = DELTA;
        return;
    }
    if (w->is_fixed_delta) {
        w->enc = DELTA;
        w->fixed_delta = curr_delta;
        return;
    }
    if (initial_delta != 0) {
        w->bits_delta_max = pm_orc_rle_closest_width(num_bits(delta_max));
        if (increasing || decreasing) {
            w->enc = DELTA;
            return;
        }
    }
    zz = prepare_direct(w);
    w->zz_bits_90p = percentile_bits(zz, w->count, 0.9);
    if (w->zz_bits_100p - w->zz_bits_90p > 1) {
        for (int i = 0; i < w->count; i++)
            w->base_red[i] = (uint64_t)w->lits[i] - (uint64_t)w->min;
        w->br_bits_95p = percentile_bits(w->base_red, w->count, 0.95);
        w->br_bits_100p = percentile_bits(w->base_red, w->count, 1.0);
        if (w->br_bits_100p - w->br_bits_95p != 0 && llabs(w->min) < BASE_VALUE_LIMIT) {
            w->enc = PATCHED_BASE;
            prepare_patched(w);
            return;
        }
    }
    w->enc = DIRECT;
}

static int write_short_repeat(pm_orc_int_rle_writer *w)
{
    uint64_t v = w->is_signed ? pm_zigzag_encode(w->lits[0]) : (uint64_t)w->lits[0];
    int bits = pm_orc_rle_closest_width(num_bits(v)), nbytes = (bits + 7) / 8, rc;
    uint8_t header = (uint8_t)(SHORT_REPEAT << 6 | (nbytes - 1) << 3 | (w->fixed_run - MIN_REPEAT));
    if ((rc = put(w, header)) != 0)
        return rc;
    for (int i = nbytes - 1; i >= 0; i--)
        if ((rc = put(w, (uint8_t)(v >> (8 * i)))) != 0)
            return rc;
    w->fixed_run = 0;
    return 0;
}

static int write_header2(pm_orc_int_rle_writer *w, enc_type enc, int efb, int len)
{
    int rc = put(w, (uint8_t)(enc << 6 | efb | ((len & 0x100) >> 8)));
    return rc != 0 ? rc : put(w, (uint8_t)(len & 0xff));
}

static int write_direct(pm_orc_int_rle_writer *w)
{
    int fb = closest_aligned_bits(w->zz_bits_100p), rc;
    const uint64_t *zz = w->is_signed ? w->zigzag : (const uint64_t *)w->lits;
    w->variable_run -= 1;
    if ((rc = write_header2(w, DIRECT, encode_bit_width(fb) << 1, w->variable_run)) != 0)
        return rc;
    rc = write_ints(w, zz, w->count, fb);
    w->variable_run = 0;
    return rc;
}

static int write_patched(pm_orc_int_rle_writer *w)
{
    int fb = w->br_bits_95p, base_width, base_bytes, rc;
    bool negative = w->min < 0;
    uint64_t min = negative ? (uint64_t)0 - (uint64_t)w->min : (uint64_t)w->min;

    w->variable_run -= 1;
    base_width = pm_orc_rle_closest_width(num_bits(min)) + 1;
    base_bytes = (base_width + 7) / 8;
    if (negative)
        min |= 1ULL << (base_bytes * 8 - 1);
    if ((rc = write_header2(w, PATCHED_BASE, encode_bit_width(fb) << 1, w->variable_run)) != 0 ||
        (rc = put(w, (uint8_t)((base_bytes - 1) << 5 | encode_bit_width(w->patch_width)))) != 0 ||
        (rc = put(w, (uint8_t)((w->patch_gap_width - 1) << 5 | w->patch_length))) != 0)
        return rc;
    for (int i = base_bytes - 1; i >= 0; i--)
        if ((rc = put(w, (uint8_t)(min >> (8 * i)))) != 0)
            return rc;
    if ((rc = write_ints(w, w->base_red, w->count, pm_orc_rle_closest_width(fb))) != 0)
        return rc;
    rc = write_ints(w, w->gap_patch, w->patch_length,
                    pm_orc_rle_closest_width(w->patch_gap_width + w->patch_width));
    w->variable_run = 0;
    return rc;
}

static int write_delta(pm_orc_int_rle_writer *w)
{
    int len, fb = closest_aligned_bits(w->bits_delta_max), efb = 0, rc;
    if (w->is_fixed_delta) {
        /* a fixed run of more than 3 values, else the variable run that ended fixed */
        if (w->fixed_run > MIN_REPEAT) {
            len = w->fixed_run - 1;
            w->fixed_run = 0;
        } else {
            len = w->variable_run - 1;
            w->variable_run = 0;
        }
    } else {
        if (fb == 1)
            fb = 2;
        efb = encode_bit_width(fb) << 1;
        len = w->variable_run - 1;
        w->variable_run = 0;
    }
    if ((rc = write_header2(w, DELTA, efb, len)) != 0)
        return rc;
    rc = put_varint(w, w->is_signed ? pm_zigzag_encode(w->lits[0]) : (uint64_t)w->lits[0]);
    if (rc != 0)
        return rc;
    if (w->is_fixed_delta)
        return put_varint(w, pm_zigzag_encode(w->fixed_delta));
    if ((rc = put_varint(w, pm_zigzag_encode((int64_t)w->adj_deltas[0]))) != 0)
        return rc;
    return write_ints(w, w->adj_deltas + 1, w->count - 2, fb);
}

static int write_values(pm_orc_int_rle_writer *w)
{
    int rc = 0;
    if (w->count == 0)
        return 0;
    switch (w->enc) {
    case SHORT_REPEAT: rc = write_short_repeat(w); break;
    case DIRECT: rc = write_direct(w); break;
    case PATCHED_BASE: rc = write_patched(w); break;
    case DELTA: rc = write_delta(w); break;
    }
    clear_run(w);
    return rc;
}

static void init_literals(pm_orc_int_rle_writer *w, int64_t v)
{
    w->lits[w->count++] = v;
    w->fixed_run = 1;
    w->variable_run = 1;
}

int pm_orc_int_rle_write(pm_orc_int_rle_writer *w, int64_t v)
{
    int rc;
    if (w->count == 0) {
        init_literals(w, v);
        return 0;
    }
    if (w->count == 1) {
        w->prev_delta = (int64_t)((uint64_t)v - (uint64_t)w->lits[0]);
        w->lits[w->count++] = v;
        if (v == w->lits[0]) {
            w->fixed_run = 2;
            w->variable_run = 0;
        } else {
            w->fixed_run = 0;
            w->variable_run = 2;
        }
        return 0;
    }
    if (w->prev_delta == 0 && v == w->lits[w->count - 1]) {
        w->lits[w->count++] = v;
        if (w->variable_run > 0)
            w->fixed_run = 2;
        w->fixed_run += 1;
        /* a run of 3 ends the variable run before it */
        if (w->fixed_run >= MIN_REPEAT && w->variable_run > 0) {
            int64_t tail[MIN_REPEAT];
            w->count -= MIN_REPEAT;
            w->variable_run -= MIN_REPEAT - 1;
            memcpy(tail, w->lits + w->count, sizeof(tail));
            determine_encoding(w);
            if ((rc = write_values(w)) != 0)
                return rc;
            for (int i = 0; i < MIN_REPEAT; i++)
                w->lits[w->count++] = tail[i];
        }
        if (w->fixed_run == PM_ORC_RLE_MAX) {
            w->enc = DELTA;
            w->is_fixed_delta = true;
            return write_values(w);
        }
        return 0;
    }
    if (w->fixed_run >= MIN_REPEAT) {
        if (w->fixed_run <= MAX_SHORT_REPEAT) {
            w->enc = SHORT_REPEAT;
        } else {
            w->enc = DELTA;
            w->is_fixed_delta = true;
        }
        if ((rc = write_values(w)) != 0)
            return rc;
    }
    if (w->fixed_run > 0 && w->fixed_run < MIN_REPEAT && v != w->lits[w->count - 1]) {
        w->variable_run = w->fixed_run;
        w->fixed_run = 0;
    }
    if (w->count == 0) {
        init_literals(w, v);
        return 0;
    }
    w->prev_delta = (int64_t)((uint64_t)v - (uint64_t)w->lits[w->count - 1]);
    w->lits[w->count++] = v;
    w->variable_run += 1;
    if (w->variable_run == PM_ORC_RLE_MAX) {
        determine_encoding(w);
        return write_values(w);
    }
    return 0;
}

int pm_orc_int_rle_flush(pm_orc_int_rle_writer *w)
{
    if (w->count == 0)
        return 0;
    if (w->variable_run != 0) {
        determine_encoding(w);
    } else if (w->fixed_run != 0) {
        if (w->fixed_run < MIN_REPEAT) {
            w->variable_run = w->fixed_run;
            w->fixed_run = 0;
            determine_encoding(w);
        } else if (w->fixed_run <= MAX_SHORT_REPEAT) {
            w->enc = SHORT_REPEAT;
        } else {
            w->enc = DELTA;
            w->is_fixed_delta = true;
        }
    }
    return write_values(w);
}

int pm_orc_int_rle_position(const pm_orc_int_rle_writer *w, pm_orc_positions *pos)
{
    int rc = pm_orc_outstream_position(w->out, pos);
    return rc != 0 ? rc : pm_orc_positions_add(pos, (uint64_t)w->count);
}

int pm_orc_write_varint128(pm_orc_outstream *out, __int128 v)
{
    unsigned __int128 z = ((unsigned __int128)v << 1) ^ (unsigned __int128)(v >> 127);
    uint8_t tmp[20];
    size_t n = 0;
    if (z <= UINT64_MAX) /* DECIMAL(p <= 18): shift in 64 bits */
        return pm_orc_outstream_write(out, tmp, pm_uvarint_encode(tmp, (uint64_t)z), NULL);
    while (z >= 0x80) {
        tmp[n++] = (uint8_t)(z | 0x80);
        z >>= 7;
    }
    tmp[n++] = (uint8_t)z;
    return pm_orc_outstream_write(out, tmp, n, NULL);
}
