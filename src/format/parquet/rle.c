/* Bit unpacking and the RLE/bit-packed hybrid: see encoding.h. */
#include "format/parquet/encoding.h"

#include <string.h>

#include "util/varint.h"

int pm_pq_bit_width(uint64_t v)
{
    return v == 0 ? 0 : 64 - __builtin_clzll(v);
}

static inline uint64_t load64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* Value i sits at bit i * width: load the 8 bytes that contain it and shift.  Widths up to
 * 57 fit one load (shift <= 7); PM_PQ_PADDING makes the load past the end safe. */
#define UNPACK_SMALL(T)                                                                            \
    do {                                                                                           \
        uint64_t mask = width >= 64 ? ~0ull : ((1ull << width) - 1), bit = 0;                      \
        if (width == 0) {                                                                          \
            memset(out, 0, n * sizeof(T));                                                         \
            return;                                                                                \
        }                                                                                          \
        for (size_t i = 0; i < n; i++, bit += (uint64_t)width)                                     \
            out[i] = (T)((load64(in + (bit >> 3)) >> (bit & 7)) & mask);                           \
    } while (0)

void pm_pq_unpack32(const uint8_t *in, int width, uint32_t *out, size_t n)
{
    if (width == 8) {
        for (size_t i = 0; i < n; i++)
            out[i] = in[i];
        return;
    }
    if (width == 32) {
        memcpy(out, in, n * 4);
        return;
    }
    UNPACK_SMALL(uint32_t);
}

static void unpack8(const uint8_t *in, int width, uint8_t *out, size_t n)
{
    if (width == 1) {
        size_t i = 0;
        for (; i + 8 <= n; i += 8) {
            uint8_t b = in[i >> 3];
            for (int k = 0; k < 8; k++)
                out[i + k] = (b >> k) & 1;
        }
        for (; i < n; i++)
            out[i] = (in[i >> 3] >> (i & 7)) & 1;
        return;
    }
    UNPACK_SMALL(uint8_t);
}

void pm_pq_unpack64_at(const uint8_t *in, uint64_t bit, int width, uint64_t *out, size_t n)
{
    uint64_t mask = width >= 64 ? ~0ull : ((1ull << width) - 1);
    if (width == 0) {
        memset(out, 0, n * 8);
        return;
    }
    for (size_t i = 0; i < n; i++, bit += (uint64_t)width) {
        const uint8_t *p = in + (bit >> 3);
        unsigned s = (unsigned)(bit & 7);
        uint64_t v = load64(p) >> s;
        if (s != 0 && s + (unsigned)width > 64)
            v |= load64(p + 8) << (64 - s);
        out[i] = v & mask;
    }
}

void pm_pq_unpack64(const uint8_t *in, int width, uint64_t *out, size_t n)
{
    if (width <= 57) {
        UNPACK_SMALL(uint64_t);
        return;
    }
    pm_pq_unpack64_at(in, 0, width, out, n);
}

/* ---- hybrid decoder -------------------------------------------------------------------- */

void pm_rle_init(pm_rle_decoder *d, const uint8_t *data, size_t len, int width)
{
    memset(d, 0, sizeof(*d));
    d->p = data;
    d->end = data + len;
    d->width = width;
}

/* Starts the next run; 0 at the end of the data (nothing started), 1 when a run started,
 * negative on corruption. */
PM_MUST_CHECK static int next_run(pm_rle_decoder *d, paimon_error *err)
{
    uint64_t header;
    size_t n;
    if (d->p >= d->end)
        return 0;
    n = pm_uvarint_decode(d->p, d->end, &header);
    if (n == 0)
        return pm_corrupt(err, "RLE run header is truncated");
    d->p += n;
    if (header & 1) {
        uint64_t groups = header >> 1, bytes = groups * (uint64_t)d->width;
        if (groups > (uint64_t)(d->end - d->p) + 1 || bytes > (uint64_t)(d->end - d->p) ||
            groups * 8 > UINT32_MAX)
            return pm_corrupt(err, "bit-packed run of %llu groups overruns its data",
                              (unsigned long long)groups);
        d->packed = d->p;
        d->packed_bit = 0;
        d->packed_left = (uint32_t)(groups * 8);
        d->p += bytes;
    } else {
        uint64_t count = header >> 1;
        int vbytes = (d->width + 7) / 8;
        uint32_t v = 0;
        if (count > UINT32_MAX)
            return pm_corrupt(err, "RLE run of %llu values", (unsigned long long)count);
        if (vbytes > d->end - d->p)
            return pm_corrupt(err, "RLE run value is truncated");
        for (int i = 0; i < vbytes; i++)
            v |= (uint32_t)d->p[i] << (8 * i);
        d->p += vbytes;
        d->rle_left = (uint32_t)count;
        d->rle_value = v;
    }
    return 1;
}

#define RLE_GET(T, UNPACK)                                                                         \
    size_t done = 0;                                                                               \
    while (done < n) {                                                                             \
        if (d->rle_left > 0) {                                                                     \
            size_t take = n - done < d->rle_left ? n - done : d->rle_left;                         \
            T v = (T)d->rle_value;                                                                 \
            for (size_t i = 0; i < take; i++)                                                      \
                out[done + i] = v;                                                                 \
            d->rle_left -= (uint32_t)take;                                                         \
            done += take;                                                                          \
        } else if (d->packed_left > 0) {                                                           \
            size_t take = n - done < d->packed_left ? n - done : d->packed_left;                   \
            if ((d->packed_bit & 7) == 0) {                                                        \
                UNPACK(d->packed + (d->packed_bit >> 3), d->width, out + done, take);              \
            } else {                                                                               \
                /* resume mid-byte: realign by unpacking from the group start */                   \
                uint64_t bit = d->packed_bit;                                                      \
                for (size_t i = 0; i < take; i++, bit += (uint64_t)d->width) {                     \
                    uint64_t w = load64(d->packed + (bit >> 3)) >> (bit & 7);                      \
                    out[done + i] = (T)(d->width == 0 ? 0 : (w & ((1ull << d->width) - 1)));       \
                }                                                                                  \
            }                                                                                      \
            d->packed_bit += (uint64_t)take * (uint64_t)d->width;                                  \
            d->packed_left -= (uint32_t)take;                                                      \
            done += take;                                                                          \
        } else {                                                                                   \
            int r = next_run(d, err);                                                              \
            if (r < 0)                                                                             \
                return r;                                                                          \
            if (r == 0)                                                                            \
                break;                                                                             \
        }                                                                                          \
    }                                                                                              \
    return (long)done;

long pm_rle_get_u32(pm_rle_decoder *d, uint32_t *out, size_t n, paimon_error *err)
{
    RLE_GET(uint32_t, pm_pq_unpack32)
}

long pm_rle_get_u8(pm_rle_decoder *d, uint8_t *out, size_t n, paimon_error *err)
{
    RLE_GET(uint8_t, unpack8)
}

long pm_rle_get_bits(pm_rle_decoder *d, uint8_t *bits, int64_t bit0, size_t n, paimon_error *err)
{
    uint8_t tmp[256];
    size_t done = 0;
    while (done < n) {
        size_t want = n - done < sizeof(tmp) ? n - done : sizeof(tmp);
        long got = pm_rle_get_u8(d, tmp, want, err);
        if (got < 0)
            return got;
        for (long i = 0; i < got; i++) {
            int64_t b = bit0 + (int64_t)done + i;
            if (tmp[i] & 1)
                bits[b >> 3] |= (uint8_t)(1u << (b & 7));
            else
                bits[b >> 3] &= (uint8_t) ~(1u << (b & 7));
        }
        done += (size_t)got;
        if ((size_t)got < want)
            break;
    }
    return (long)done;
}

/* ---- hybrid encoder -------------------------------------------------------------------- */

void pm_rle_encoder_init(pm_rle_encoder *e, pm_buf *out, int width)
{
    memset(e, 0, sizeof(*e));
    e->out = out;
    e->width = width;
    e->header_pos = SIZE_MAX;
}

static void enc_put(pm_rle_encoder *e, const void *data, size_t len)
{
    if (e->rc == 0)
        e->rc = pm_buf_append(e->out, data, len);
}

static void end_packed_run(pm_rle_encoder *e)
{
    if (e->header_pos == SIZE_MAX)
        return;
    if (e->rc == 0)
        e->out->data[e->header_pos] = (uint8_t)(e->group_count << 1 | 1);
    e->header_pos = SIZE_MAX;
    e->group_count = 0;
}

static void write_packed_group(pm_rle_encoder *e)
{
    uint8_t packed[32] = {0};
    uint64_t bit = 0;
    if (e->group_count >= 63)
        end_packed_run(e);
    if (e->header_pos == SIZE_MAX) {
        uint8_t zero = 0;
        e->header_pos = e->out->len;
        enc_put(e, &zero, 1);
    }
    if (e->width <= 56) { /* a word at a time: 8 values of `width` bits are `width` bytes */
        uint64_t acc = 0, mask = ((uint64_t)1 << e->width) - 1;
        int nbits = 0;
        size_t o = 0;
        for (int i = 0; i < 8; i++) {
            acc |= ((uint64_t)e->buffered[i] & mask) << nbits;
            nbits += e->width;
            while (nbits >= 8) {
                packed[o++] = (uint8_t)acc;
                acc >>= 8;
                nbits -= 8;
            }
        }
    } else {
        for (int i = 0; i < 8; i++, bit += (uint64_t)e->width) {
            uint64_t v = e->buffered[i];
            for (int k = 0; k < e->width; k++)
                if ((v >> k) & 1)
                    packed[(bit + (uint64_t)k) >> 3] |= (uint8_t)(1u << ((bit + (uint64_t)k) & 7));
        }
    }
    enc_put(e, packed, (size_t)e->width);
    e->buffered_count = 0;
    e->repeat = 0;
    e->group_count++;
}

static void write_rle_run(pm_rle_encoder *e)
{
    uint8_t tmp[PM_UVARINT_MAX + 4];
    size_t n;
    int vbytes = (e->width + 7) / 8;
    end_packed_run(e);
    n = pm_uvarint_encode(tmp, (uint64_t)e->repeat << 1);
    for (int i = 0; i < vbytes; i++)
        tmp[n++] = (uint8_t)(e->previous >> (8 * i));
    enc_put(e, tmp, n);
    e->repeat = 0;
    e->buffered_count = 0;
}

void pm_rle_put(pm_rle_encoder *e, uint32_t v)
{
    if (v == e->previous) {
        if (++e->repeat >= 8)
            return;
    } else {
        if (e->repeat >= 8)
            write_rle_run(e);
        e->repeat = 1;
        e->previous = v;
    }
    e->buffered[e->buffered_count++] = v;
    if (e->buffered_count == 8)
        write_packed_group(e);
}

int pm_rle_finish(pm_rle_encoder *e)
{
    if (e->repeat >= 8) {
        write_rle_run(e);
    } else if (e->buffered_count > 0) {
        for (int i = e->buffered_count; i < 8; i++)
            e->buffered[i] = 0;
        write_packed_group(e);
        end_packed_run(e);
    } else {
        end_packed_run(e);
    }
    return e->rc;
}

/* ---- legacy BIT_PACKED ----------------------------------------------------------------- */

int pm_pq_bitpacked_levels(const uint8_t *data, size_t len, int width, uint8_t *out, size_t n,
                           paimon_error *err)
{
    uint64_t need = ((uint64_t)n * (uint64_t)width + 7) / 8, bit = 0;
    if (need > len)
        return pm_corrupt(err, "BIT_PACKED levels need %llu bytes, have %zu",
                          (unsigned long long)need, len);
    for (size_t i = 0; i < n; i++) {
        uint32_t v = 0;
        for (int k = 0; k < width; k++, bit++)
            v = v << 1 | ((data[bit >> 3] >> (7 - (bit & 7))) & 1);
        out[i] = (uint8_t)v;
    }
    return 0;
}
