/*
 * Decoding ORC's run-length encodings: see orc_rle.h.  Each decoder keeps the current run
 * (integer runs fully decoded into a 512-value buffer) and refills it from the stream;
 * every header and payload length is checked against what remains first.
 */
#include "format/orc/orc_rle.h"

#include <string.h>

#include "util/bytes.h"
#include "util/varint.h"

/* ---- byte RLE -------------------------------------------------------------------------- */

void pm_orc_byte_rle_init(pm_orc_byte_rle *r, const uint8_t *data, size_t len)
{
    static const uint8_t none[1]; /* NULL + 0 is undefined: empty streams point here */
    memset(r, 0, sizeof(*r));
    r->p = data ? data : none;
    r->end = r->p + len;
}

static bool byte_run(pm_orc_byte_rle *r)
{
    uint8_t c;
    if (r->p >= r->end)
        return false;
    c = *r->p++;
    if (c < 0x80) {
        if (r->p >= r->end)
            return false;
        r->repeat = true;
        r->remaining = (size_t)c + 3;
        r->value = *r->p++;
    } else {
        size_t n = 0x100 - (size_t)c;
        if ((size_t)(r->end - r->p) < n)
            return false;
        r->repeat = false;
        r->remaining = n;
        r->lits = r->p;
        r->p += n;
    }
    return true;
}

/* Takes `n` values into `out`, or past them when `out` is NULL. */
static inline bool byte_take(pm_orc_byte_rle *r, uint8_t *out, uint64_t n)
{
    while (n > 0) {
        size_t take;
        if (r->remaining == 0 && !byte_run(r))
            return false;
        take = n < r->remaining ? (size_t)n : r->remaining;
        if (out != NULL) {
            if (r->repeat)
                memset(out, r->value, take);
            else
                memcpy(out, r->lits, take);
            out += take;
        }
        if (!r->repeat)
            r->lits += take;
        r->remaining -= take;
        n -= take;
    }
    return true;
}

bool pm_orc_byte_rle_read(pm_orc_byte_rle *r, uint8_t *out, size_t n)
{
    return byte_take(r, out, n);
}

bool pm_orc_byte_rle_skip(pm_orc_byte_rle *r, uint64_t n)
{
    return byte_take(r, NULL, n);
}

/* ---- boolean RLE ----------------------------------------------------------------------- */

void pm_orc_bool_rle_init(pm_orc_bool_rle *r, const uint8_t *data, size_t len)
{
    pm_orc_byte_rle_init(&r->bytes, data, len);
    r->cur = 0;
    r->bits_left = 0;
}

bool pm_orc_bool_rle_read(pm_orc_bool_rle *r, uint8_t *out, size_t n)
{
    while (n > 0) {
        if (r->bits_left == 0) {
            /* whole bytes at once while they last */
            while (n >= 8) {
                uint8_t b;
                if (!pm_orc_byte_rle_read(&r->bytes, &b, 1))
                    return false;
                for (int i = 0; i < 8; i++)
                    out[i] = (b >> (7 - i)) & 1;
                out += 8;
                n -= 8;
            }
            if (n == 0)
                break;
            if (!pm_orc_byte_rle_read(&r->bytes, &r->cur, 1))
                return false;
            r->bits_left = 8;
        }
        *out++ = (r->cur >> --r->bits_left) & 1;
        n--;
    }
    return true;
}

bool pm_orc_bool_rle_skip(pm_orc_bool_rle *r, uint64_t n)
{
    uint64_t take = n < (uint64_t)r->bits_left ? n : (uint64_t)r->bits_left;
    r->bits_left -= (int)take;
    n -= take;
    if (n == 0)
        return true;
    if (!pm_orc_byte_rle_skip(&r->bytes, n / 8))
        return false;
    n %= 8;
    if (n > 0) {
        if (!pm_orc_byte_rle_read(&r->bytes, &r->cur, 1))
            return false;
        r->bits_left = 8 - (int)n;
    }
    return true;
}

/* ---- integer RLE ----------------------------------------------------------------------- */

void pm_orc_int_rle_init(pm_orc_int_rle *r, const uint8_t *data, size_t len, bool is_signed,
                         int version)
{
    static const uint8_t none[1]; /* NULL + 0 is undefined: empty streams point here */
    r->p = data ? data : none;
    r->end = r->p + len;
    r->is_signed = is_signed;
    r->version = version;
    r->count = r->used = 0;
}

static inline bool read_varint(pm_orc_int_rle *r, uint64_t *v)
{
    size_t n = pm_uvarint_decode(r->p, r->end, v);
    if (n == 0)
        return false;
    r->p += n;
    return true;
}

static bool v1_run(pm_orc_int_rle *r)
{
    uint8_t c;
    uint64_t v;
    if (r->p >= r->end)
        return false;
    c = *r->p++;
    if (c < 0x80) {
        int8_t delta;
        uint64_t base;
        size_t n = (size_t)c + 3;
        if (r->p >= r->end)
            return false;
        delta = (int8_t)*r->p++;
        if (!read_varint(r, &v))
            return false;
        base = r->is_signed ? (uint64_t)pm_zigzag_decode(v) : v;
        /* wrapping arithmetic: a hostile run may overflow, which is not UB in uint64 */
        for (size_t i = 0; i < n; i++)
            r->lits[i] = (int64_t)(base + (uint64_t)(int64_t)delta * i);
        r->count = n;
    } else {
        size_t n = 0x100 - (size_t)c;
        for (size_t i = 0; i < n; i++) {
            if (!read_varint(r, &v))
                return false;
            r->lits[i] = r->is_signed ? pm_zigzag_decode(v) : (int64_t)v;
        }
        r->count = n;
    }
    r->used = 0;
    return true;
}

const uint8_t pm_orc_rle_widths[32] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11,
                                       12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                                       23, 24, 26, 28, 30, 32, 40, 48, 56, 64};

int pm_orc_rle_closest_width(int n)
{
    if (n <= 24)
        return n == 0 ? 1 : n;
    for (int code = 24; code < 31; code++)
        if (n <= pm_orc_rle_widths[code])
            return pm_orc_rle_widths[code];
    return 64;
}

/* Unpacks `n` big-endian values of `w` bits (1..64) from *p. */
static bool unpack(const uint8_t **pp, const uint8_t *end, size_t n, int w, int64_t *out)
{
    const uint8_t *p = *pp;
    size_t bytes = (n * (size_t)w + 7) / 8;
    if ((size_t)(end - p) < bytes)
        return false;
    switch (w) {
    case 8:
        for (size_t i = 0; i < n; i++)
            out[i] = p[i];
        break;
    case 16:
        for (size_t i = 0; i < n; i++)
            out[i] = (int64_t)((uint32_t)p[2 * i] << 8 | p[2 * i + 1]);
        break;
    case 32:
        for (size_t i = 0; i < n; i++) {
            const uint8_t *q = p + 4 * i;
            out[i] =
                (int64_t)((uint32_t)q[0] << 24 | (uint32_t)q[1] << 16 | (uint32_t)q[2] << 8 | q[3]);
        }
        break;
    case 64:
        for (size_t i = 0; i < n; i++) {
            uint64_t v = 0;
            for (int k = 0; k < 8; k++)
                v = v << 8 | p[8 * i + (size_t)k];
            out[i] = (int64_t)v;
        }
        break;
    default: {
        /* While eight bytes can be loaded at a value's first byte, one big-endian load
         * holds the value (at most 56 bits plus 7 bits of offset); the tail goes byte by
         * byte, at most 56 bits wanted plus 7 pending fitting 64. */
        uint64_t cur = 0, mask = w == 64 ? ~0ULL : (1ULL << w) - 1;
        size_t avail = (size_t)(end - p), i = 0, bit;
        int bits = 0;
        const uint8_t *q;
        if (w <= 56) {
            for (; i < n; i++) {
                bit = i * (size_t)w;
                if ((bit >> 3) + 8 > avail)
                    break;
                out[i] = (int64_t)((pm_load_be64(p + (bit >> 3)) << (bit & 7)) >> (64 - w));
            }
        }
        bit = i * (size_t)w;
        q = p + (bit >> 3);
        if ((bit & 7) != 0) {
            bits = 8 - (int)(bit & 7);
            cur = *q++;
        }
        for (; i < n; i++) {
            while (bits < w) {
                cur = cur << 8 | *q++;
                bits += 8;
            }
            bits -= w;
            out[i] = (int64_t)((cur >> bits) & mask);
        }
        break;
    }
    }
    *pp = p + bytes;
    return true;
}

static bool read_be(pm_orc_int_rle *r, int nbytes, uint64_t *v)
{
    uint64_t x = 0;
    if (r->end - r->p < nbytes)
        return false;
    for (int i = 0; i < nbytes; i++)
        x = x << 8 | *r->p++;
    *v = x;
    return true;
}

static bool v2_patched(pm_orc_int_rle *r, uint8_t b0)
{
    int fb = pm_orc_rle_widths[(b0 >> 1) & 31], bw, pw, pgw, pl, patch_bits;
    size_t len;
    uint64_t base_u, patches[32];
    int64_t base, tmp[32];
    uint8_t b1, b2, b3;

    if (r->end - r->p < 3)
        return false;
    b1 = *r->p++;
    b2 = *r->p++;
    b3 = *r->p++;
    len = ((size_t)(b0 & 1) << 8 | b1) + 1;
    bw = ((b2 >> 5) & 7) + 1;
    pw = pm_orc_rle_widths[b2 & 31];
    pgw = ((b3 >> 5) & 7) + 1;
    pl = b3 & 31;
    if (pw + pgw > 64)
        return false;
    if (!read_be(r, bw, &base_u))
        return false;
    /* sign-magnitude: the top bit of the base bytes is the sign */
    {
        uint64_t sign = 1ULL << (bw * 8 - 1);
        base = (base_u & sign) ? -(int64_t)(base_u & ~sign) : (int64_t)base_u;
    }
    if (!unpack(&r->p, r->end, len, fb, r->lits))
        return false;
    patch_bits = pm_orc_rle_closest_width(pw + pgw);
    if (pl > 0 && !unpack(&r->p, r->end, (size_t)pl, patch_bits, tmp))
        return false;
    for (int i = 0; i < pl; i++)
        patches[i] = (uint64_t)tmp[i];
    {
        uint64_t pmask = pw == 64 ? ~0ULL : (1ULL << pw) - 1;
        size_t idx = 0;
        for (int i = 0; i < pl; i++) {
            uint64_t gap = pw == 64 ? 0 : patches[i] >> pw, patch = patches[i] & pmask;
            idx += gap;
            /* a zero patch with gap 255 only advances the index */
            if (gap == 255 && patch == 0)
                continue;
            if (idx >= len || fb >= 64)
                return false;
            r->lits[idx] = (int64_t)((uint64_t)r->lits[idx] | patch << fb);
        }
    }
    for (size_t i = 0; i < len; i++)
        r->lits[i] = (int64_t)((uint64_t)base + (uint64_t)r->lits[i]);
    r->count = len;
    return true;
}

static bool v2_run(pm_orc_int_rle *r)
{
    uint8_t b0;
    uint64_t v;
    if (r->p >= r->end)
        return false;
    b0 = *r->p++;
    r->used = 0;
    switch (b0 >> 6) {
    case 0: { /* SHORT_REPEAT */
        int w = ((b0 >> 3) & 7) + 1;
        size_t n = (size_t)(b0 & 7) + 3;
        int64_t val;
        if (!read_be(r, w, &v))
            return false;
        val = r->is_signed ? pm_zigzag_decode(v) : (int64_t)v;
        for (size_t i = 0; i < n; i++)
            r->lits[i] = val;
        r->count = n;
        return true;
    }
    case 1: { /* DIRECT */
        int fb = pm_orc_rle_widths[(b0 >> 1) & 31];
        size_t n;
        if (r->p >= r->end)
            return false;
        n = ((size_t)(b0 & 1) << 8 | *r->p++) + 1;
        if (!unpack(&r->p, r->end, n, fb, r->lits))
            return false;
        if (r->is_signed)
            for (size_t i = 0; i < n; i++)
                r->lits[i] = pm_zigzag_decode((uint64_t)r->lits[i]);
        r->count = n;
        return true;
    }
    case 2: return v2_patched(r, b0);
    default: { /* DELTA */
        int code = (b0 >> 1) & 31, fb = code == 0 ? 0 : pm_orc_rle_widths[code];
        size_t n;
        uint64_t first, d;
        int64_t delta;
        if (r->p >= r->end)
            return false;
        n = ((size_t)(b0 & 1) << 8 | *r->p++) + 1;
        if (!read_varint(r, &v))
            return false;
        first = r->is_signed ? (uint64_t)pm_zigzag_decode(v) : v;
        if (!read_varint(r, &d))
            return false;
        delta = pm_zigzag_decode(d);
        r->lits[0] = (int64_t)first;
        if (fb == 0) {
            for (size_t i = 1; i < n; i++)
                r->lits[i] = (int64_t)((uint64_t)r->lits[i - 1] + (uint64_t)delta);
        } else {
            if (n < 2)
                return false;
            r->lits[1] = (int64_t)(first + (uint64_t)delta);
            if (n > 2 && !unpack(&r->p, r->end, n - 2, fb, r->lits + 2))
                return false;
            for (size_t i = 2; i < n; i++) {
                uint64_t prev = (uint64_t)r->lits[i - 1], dv = (uint64_t)r->lits[i];
                r->lits[i] = (int64_t)(delta < 0 ? prev - dv : prev + dv);
            }
        }
        r->count = n;
        return true;
    }
    }
}

static inline bool refill(pm_orc_int_rle *r)
{
    return r->version == 1 ? v1_run(r) : v2_run(r);
}

/* Takes `n` values into `out`, or past them when `out` is NULL. */
static inline bool int_take(pm_orc_int_rle *r, int64_t *out, uint64_t n)
{
    while (n > 0) {
        size_t take;
        if (r->used == r->count && !refill(r))
            return false;
        take = r->count - r->used;
        if (take > n)
            take = (size_t)n;
        if (out != NULL) {
            memcpy(out, r->lits + r->used, take * sizeof(int64_t));
            out += take;
        }
        r->used += take;
        n -= take;
    }
    return true;
}

bool pm_orc_int_rle_read(pm_orc_int_rle *r, int64_t *out, size_t n)
{
    return int_take(r, out, n);
}

bool pm_orc_int_rle_skip(pm_orc_int_rle *r, uint64_t n)
{
    return int_take(r, NULL, n);
}

bool pm_orc_read_varint128(const uint8_t **pp, const uint8_t *end, __int128 *out)
{
    const uint8_t *p = *pp;
    unsigned __int128 v;
    uint64_t lo = 0;
    unsigned shift = 0;
    /* Up to eight bytes (56 bits) at once when eight are there to load: the first byte
     * without its high bit ends the varint, and the 7-bit groups are packed by halving
     * steps. */
    if (end - p >= 8) {
        uint64_t w = pm_load_le64(p), stop = ~w & 0x8080808080808080ULL;
        if (stop != 0) {
            int len = (__builtin_ctzll(stop) >> 3) + 1;
            uint64_t x = len == 8 ? w : w & ((1ULL << (8 * len)) - 1);
            x &= 0x7f7f7f7f7f7f7f7fULL;
            x = (x & 0x007f007f007f007fULL) | ((x & 0x7f007f007f007f00ULL) >> 1);
            x = (x & 0x00003fff00003fffULL) | ((x & 0x3fff00003fff0000ULL) >> 2);
            x = (x & 0x000000000fffffffULL) | ((x & 0x0fffffff00000000ULL) >> 4);
            *pp = p + len;
            *out = (__int128)(x >> 1) ^ -(__int128)(x & 1);
            return true;
        }
    }
    /* the first nine bytes (63 bits, every DECIMAL(p <= 18)) in 64-bit arithmetic */
    while (shift < 63) {
        uint8_t b;
        if (p >= end)
            return false;
        b = *p++;
        lo |= (uint64_t)(b & 0x7f) << shift;
        shift += 7;
        if ((b & 0x80) == 0) {
            *pp = p;
            *out = (__int128)(lo >> 1) ^ -(__int128)(lo & 1);
            return true;
        }
    }
    v = lo;
    for (;;) {
        uint8_t b;
        if (p >= end)
            return false;
        b = *p++;
        if (shift >= 128 || (shift > 121 && (b & 0x7f) >> (128 - shift) != 0))
            return false;
        v |= (unsigned __int128)(b & 0x7f) << shift;
        shift += 7;
        if ((b & 0x80) == 0)
            break;
    }
    *pp = p;
    *out = (__int128)(v >> 1) ^ -(__int128)(v & 1);
    return true;
}
