/*
 * Value decoding: every Parquet value encoding into the batch layout, the conversions from
 * physical types, dictionaries, and spacing dense values out over null slots.  See
 * column.h and encoding.h.
 *
 * Hot paths avoid per-value calls: PLAIN fixed-width values are one memcpy, dictionary
 * indices are unpacked in blocks and gathered with a width-specialized loop, byte arrays
 * are appended with the output reserved once per call.
 */
#include "format/parquet/column.h"

#include <math.h>
#include <string.h>

#include "util/alloc.h"
#include "util/bytes.h"
#include "util/time.h"

#define JULIAN_EPOCH_DAY 2440588 /* Julian day number of 1970-01-01 */
#define NANOS_PER_DAY    86400000000000LL

/* ---- physical columns ------------------------------------------------------------------ */

static int phys_width(int type)
{
    switch (type) {
    case PQ_INT32:
    case PQ_FLOAT: return 4;
    case PQ_INT64:
    case PQ_DOUBLE: return 8;
    case PQ_INT96: return 12;
    default: return 0;
    }
}

/* A column holding physical values: BITS for BOOLEAN, FIXED for numbers and INT96, VAR for
 * byte arrays.  It has no type. */
static pm_column *phys_column(int type)
{
    pm_column *c = pm_calloc(1, sizeof(*c));
    if (c == NULL)
        return NULL;
    pm_buf_init(&c->validity, 0);
    pm_buf_init(&c->values, 0);
    pm_buf_init(&c->offsets, 0);
    if (type == PQ_BOOLEAN) {
        c->layout = PM_LAYOUT_BITS;
    } else if (type == PQ_BYTE_ARRAY || type == PQ_FIXED_LEN_BYTE_ARRAY) {
        c->layout = PM_LAYOUT_VAR;
        if (pm_buf_zero(&c->offsets, 4) != 0) {
            pm_column_free(c);
            return NULL;
        }
    } else {
        c->layout = PM_LAYOUT_FIXED;
        c->width = (uint32_t)phys_width(type);
    }
    return c;
}

static inline void put_offset(pm_column *c, int64_t i, int64_t v)
{
    int32_t o = (int32_t)v;
    memcpy(c->offsets.data + (size_t)i * 4, &o, 4);
}

/* Grows the VAR column's offsets for `n` more slots and its data by `bytes`. */
static int var_reserve(pm_column *c, int64_t n, size_t bytes)
{
    int rc = pm_buf_reserve(&c->offsets, (size_t)n * 4);
    if (rc == 0)
        rc = pm_buf_reserve(&c->values, bytes);
    return rc;
}

/* Copies `n` bits from `src` at bit `s` to the column's bitmap at its length. */
static int append_bits(pm_column *c, const uint8_t *src, size_t s, size_t n)
{
    size_t need = (size_t)((c->length + (int64_t)n + 7) / 8);
    int rc;
    if (need > c->values.len && (rc = pm_buf_zero(&c->values, need - c->values.len)) != 0)
        return rc;
    for (size_t i = 0; i < n; i++) {
        int64_t d = c->length + (int64_t)i;
        if ((src[(s + i) >> 3] >> ((s + i) & 7)) & 1)
            c->values.data[d >> 3] |= (uint8_t)(1u << (d & 7));
        else
            c->values.data[d >> 3] &= (uint8_t) ~(1u << (d & 7));
    }
    c->length += (int64_t)n;
    return 0;
}

/* ---- PLAIN ----------------------------------------------------------------------------- */

PM_MUST_CHECK static int plain_decode(int type, int32_t type_length, const uint8_t *data,
                                      size_t len, size_t *pos, int64_t n, pm_column *dst,
                                      paimon_error *err)
{
    int rc;
    if (type == PQ_BOOLEAN) {
        if (*pos + (size_t)n > len * 8)
            return pm_corrupt(err, "PLAIN booleans run past the page");
        if ((rc = append_bits(dst, data, *pos, (size_t)n)) != 0)
            return pm_buf_error(err, rc);
        *pos += (size_t)n;
        return 0;
    }
    if (type == PQ_BYTE_ARRAY) {
        size_t p = *pos;
        int64_t base = dst->length;
        int64_t end = pm_column_offset(dst, base);
        /* the values take at most what is left of the page */
        if ((rc = var_reserve(dst, n, len - p)) != 0)
            return pm_buf_error(err, rc);
        for (int64_t i = 0; i < n; i++) {
            uint32_t l;
            if (len - p < 4)
                return pm_corrupt(err, "PLAIN byte array length is truncated");
            l = pm_load_le32(data + p);
            p += 4;
            if (l > len - p)
                return pm_corrupt(err, "PLAIN byte array of %u bytes runs past the page", l);
            memcpy(dst->values.data + end, data + p, l);
            p += l;
            end += l;
            if (end > INT32_MAX)
                return pm_err_set(err, PAIMON_ELIMIT, "more than 2 GiB of strings in a batch");
            put_offset(dst, base + i + 1, end);
        }
        dst->values.len = (size_t)end;
        dst->offsets.len = (size_t)(base + n + 1) * 4;
        dst->length += n;
        *pos = p;
        return 0;
    }
    if (type == PQ_FIXED_LEN_BYTE_ARRAY) {
        size_t bytes = (size_t)n * (size_t)type_length;
        int64_t base = dst->length, end = pm_column_offset(dst, base);
        if (bytes / (size_t)type_length != (size_t)n || bytes > len - *pos)
            return pm_corrupt(err, "PLAIN fixed-length values run past the page");
        if (end + (int64_t)bytes > INT32_MAX)
            return pm_err_set(err, PAIMON_ELIMIT, "more than 2 GiB of bytes in a batch");
        if ((rc = var_reserve(dst, n, bytes)) != 0)
            return pm_buf_error(err, rc);
        memcpy(dst->values.data + end, data + *pos, bytes);
        for (int64_t i = 1; i <= n; i++)
            put_offset(dst, base + i, end + i * type_length);
        dst->values.len = (size_t)end + bytes;
        dst->offsets.len = (size_t)(base + n + 1) * 4;
        dst->length += n;
        *pos += bytes;
        return 0;
    }
    {
        size_t w = (size_t)phys_width(type), bytes = (size_t)n * w;
        if (bytes > len - *pos)
            return pm_corrupt(err, "PLAIN values run past the page");
        if ((rc = pm_buf_append(&dst->values, data + *pos, bytes)) != 0)
            return pm_buf_error(err, rc);
        dst->length += n;
        *pos += bytes;
        return 0;
    }
}

/* ---- conversions ----------------------------------------------------------------------- */

static inline pm_int128 be_signed(const uint8_t *p, size_t len)
{
    unsigned __int128 v = (len > 0 && (p[0] & 0x80)) ? ~(unsigned __int128)0 : 0;
    for (size_t i = 0; i < len; i++)
        v = v << 8 | p[i];
    return (pm_int128)v;
}

static float half_to_float(uint16_t h)
{
    int sign = h >> 15, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
    float v;
    if (exp == 0)
        v = ldexpf((float)mant, -24);
    else if (exp == 31)
        v = mant != 0 ? NAN : INFINITY;
    else
        v = ldexpf((float)(mant | 0x400), exp - 25);
    return sign ? -v : v;
}

static const char HEX[] = "0123456789abcdef";

int pm_pq_convert(pq_col_reader *r, const pm_column *phys, int64_t from, int64_t n, pm_column *col,
                  paimon_error *err)
{
    const pq_plan *pl = r->plan;
    const uint8_t *src = phys->values.data;
    int rc;

    if (pl->conv == PQ_CONV_UUID_STR) {
        int64_t base = col->length, end = pm_column_offset(col, base);
        if ((rc = var_reserve(col, n, (size_t)n * 36)) != 0)
            return pm_buf_error(err, rc);
        for (int64_t i = 0; i < n; i++) {
            int32_t a = pm_column_offset(phys, from + i), b = pm_column_offset(phys, from + i + 1);
            uint8_t *o = col->values.data + end;
            if (b - a != 16)
                return pm_corrupt(err, "UUID value of %d bytes", (int)(b - a));
            for (int k = 0, j = 0; k < 16; k++) {
                if (k == 4 || k == 6 || k == 8 || k == 10)
                    o[j++] = '-';
                o[j++] = (uint8_t)HEX[src[a + k] >> 4];
                o[j++] = (uint8_t)HEX[src[a + k] & 15];
            }
            end += 36;
            put_offset(col, base + i + 1, end);
        }
        col->values.len = (size_t)end;
        col->offsets.len = (size_t)(base + n + 1) * 4;
        col->length += n;
        return 0;
    }
    if ((rc = pm_buf_reserve(&col->values, (size_t)n * col->width)) != 0)
        return pm_buf_error(err, rc);
    {
        uint8_t *out = col->values.data + col->values.len;
        switch (pl->conv) {
        case PQ_CONV_I32_I8:
            for (int64_t i = 0; i < n; i++)
                out[i] = (uint8_t)(int8_t)(int32_t)pm_load_le32(src + (from + i) * 4);
            break;
        case PQ_CONV_I32_I16:
        case PQ_CONV_U8_I16:
            for (int64_t i = 0; i < n; i++) {
                uint32_t v = pm_load_le32(src + (from + i) * 4);
                int16_t o = pl->conv == PQ_CONV_U8_I16 ? (int16_t)(uint8_t)v : (int16_t)v;
                memcpy(out + i * 2, &o, 2);
            }
            break;
        case PQ_CONV_U16_I32:
            for (int64_t i = 0; i < n; i++) {
                int32_t o = (uint16_t)pm_load_le32(src + (from + i) * 4);
                memcpy(out + i * 4, &o, 4);
            }
            break;
        case PQ_CONV_I32_I64:
        case PQ_CONV_U32_I64:
            for (int64_t i = 0; i < n; i++) {
                uint32_t v = pm_load_le32(src + (from + i) * 4);
                int64_t o = pl->conv == PQ_CONV_U32_I64 ? (int64_t)v : (int64_t)(int32_t)v;
                memcpy(out + i * 8, &o, 8);
            }
            break;
        case PQ_CONV_I32_DEC:
            for (int64_t i = 0; i < n; i++) {
                pm_int128 o = (int32_t)pm_load_le32(src + (from + i) * 4);
                memcpy(out + i * 16, &o, 16);
            }
            break;
        case PQ_CONV_I64_DEC:
        case PQ_CONV_U64_DEC:
            for (int64_t i = 0; i < n; i++) {
                uint64_t v = pm_load_le64(src + (from + i) * 8);
                pm_int128 o = pl->conv == PQ_CONV_U64_DEC ? (pm_int128)v : (pm_int128)(int64_t)v;
                memcpy(out + i * 16, &o, 16);
            }
            break;
        case PQ_CONV_BIN_DEC:
            for (int64_t i = 0; i < n; i++) {
                int32_t a = pm_column_offset(phys, from + i),
                        b = pm_column_offset(phys, from + i + 1);
                const uint8_t *p = src + a;
                size_t len = (size_t)(b - a);
                pm_int128 o;
                /* longer than 16 bytes: the extra leading bytes must be sign extension */
                while (len > 16) {
                    uint8_t sign = (p[1] & 0x80) ? 0xff : 0x00;
                    if (p[0] != sign)
                        return pm_corrupt(err, "decimal of %d bytes does not fit 128 bits",
                                          (int)(b - a));
                    p++;
                    len--;
                }
                o = be_signed(p, len);
                memcpy(out + i * 16, &o, 16);
            }
            break;
        case PQ_CONV_I96_TS: {
            int64_t per = pl->mul, div = 1000000000 / per;
            for (int64_t i = 0; i < n; i++) {
                const uint8_t *p = src + (from + i) * 12;
                int64_t nod = (int64_t)pm_load_le64(p);
                int32_t jd = (int32_t)pm_load_le32(p + 8);
                __int128 nanos = ((__int128)jd - JULIAN_EPOCH_DAY) * NANOS_PER_DAY + nod;
                __int128 q = nanos / div;
                int64_t o;
                if (nanos % div != 0 && nanos < 0)
                    q--;
                if (q > INT64_MAX || q < INT64_MIN)
                    return pm_corrupt(err, "INT96 timestamp out of range");
                o = (int64_t)q;
                memcpy(out + i * 8, &o, 8);
            }
            break;
        }
        case PQ_CONV_I64_SCALE:
            for (int64_t i = 0; i < n; i++) {
                int64_t v = (int64_t)pm_load_le64(src + (from + i) * 8), o;
                if (__builtin_mul_overflow(v, pl->mul, &o))
                    return pm_corrupt(err, "time value %lld out of range", (long long)v);
                if (pl->div > 1)
                    o = pm_floor_div(o, pl->div);
                memcpy(out + i * 8, &o, 8);
            }
            break;
        case PQ_CONV_I32_SCALE:
            for (int64_t i = 0; i < n; i++) {
                int64_t o = (int64_t)(int32_t)pm_load_le32(src + (from + i) * 4) * pl->mul;
                memcpy(out + i * 8, &o, 8);
            }
            break;
        case PQ_CONV_I64_I32:
            for (int64_t i = 0; i < n; i++) {
                int64_t v = pm_floor_div((int64_t)pm_load_le64(src + (from + i) * 8), pl->div);
                int32_t o = (int32_t)v;
                memcpy(out + i * 4, &o, 4);
            }
            break;
        case PQ_CONV_F16_F32:
            for (int64_t i = 0; i < n; i++) {
                int32_t a = pm_column_offset(phys, from + i);
                float o = half_to_float(pm_load_le16(src + a));
                memcpy(out + i * 4, &o, 4);
            }
            break;
        default: return pm_err_set(err, PAIMON_EINVALID, "internal: unexpected conversion");
        }
    }
    col->values.len += (size_t)n * col->width;
    col->length += n;
    return 0;
}

/* ---- dictionaries ---------------------------------------------------------------------- */

static pm_column *tmp_column(pq_col_reader *r)
{
    if (r->tmp == NULL)
        r->tmp = phys_column(r->leaf->type);
    else
        pm_column_reset(r->tmp);
    return r->tmp;
}

int pm_pq_dict_load(pq_col_reader *r, const uint8_t *data, size_t len, int32_t count,
                    paimon_error *err)
{
    size_t pos = 0;
    pm_column *phys;
    int rc;

    if ((r->dict = pm_column_new(r->plan->type)) == NULL)
        return pm_nomem(err);
    if (r->plan->conv == PQ_CONV_NONE) {
        rc =
            plain_decode(r->leaf->type, r->leaf->type_length, data, len, &pos, count, r->dict, err);
        if (rc == 0)
            r->dict_count = count;
        return rc;
    }
    if ((phys = tmp_column(r)) == NULL)
        return pm_nomem(err);
    if ((rc = plain_decode(r->leaf->type, r->leaf->type_length, data, len, &pos, count, phys,
                           err)) != 0 ||
        (rc = pm_pq_convert(r, phys, 0, count, r->dict, err)) != 0)
        return rc;
    r->dict_count = count;
    return 0;
}

/* Gathers dictionary entries idx[0..n) into `col`. */
PM_MUST_CHECK static int gather(const pm_column *dict, const uint32_t *idx, size_t n,
                                pm_column *col, paimon_error *err)
{
    int rc;
    switch (dict->layout) {
    case PM_LAYOUT_FIXED: {
        uint8_t *out;
        if ((rc = pm_buf_reserve(&col->values, n * dict->width)) != 0)
            return pm_buf_error(err, rc);
        out = col->values.data + col->values.len;
        switch (dict->width) {
        case 4: {
            const uint32_t *d = (const uint32_t *)(const void *)dict->values.data;
            uint32_t *o = (uint32_t *)(void *)out;
            for (size_t i = 0; i < n; i++)
                o[i] = d[idx[i]];
            break;
        }
        case 8: {
            const uint64_t *d = (const uint64_t *)(const void *)dict->values.data;
            uint64_t *o = (uint64_t *)(void *)out;
            for (size_t i = 0; i < n; i++)
                o[i] = d[idx[i]];
            break;
        }
        default:
            for (size_t i = 0; i < n; i++)
                memcpy(out + i * dict->width, dict->values.data + (size_t)idx[i] * dict->width,
                       dict->width);
            break;
        }
        col->values.len += n * dict->width;
        col->length += (int64_t)n;
        return 0;
    }
    case PM_LAYOUT_VAR: {
        int64_t base = col->length, end = pm_column_offset(col, base);
        size_t bytes = 0;
        const int32_t *off = (const int32_t *)(const void *)dict->offsets.data;
        for (size_t i = 0; i < n; i++)
            bytes += (size_t)(off[idx[i] + 1] - off[idx[i]]);
        /* a dictionary can multiply its bytes: bound what one call may produce */
        if (bytes > PQ_MAX_PAGE_BYTES)
            return pm_err_set(err, PAIMON_ELIMIT, "dictionary values expand beyond %u bytes",
                              PQ_MAX_PAGE_BYTES);
        if (end + (int64_t)bytes > INT32_MAX)
            return pm_err_set(err, PAIMON_ELIMIT, "more than 2 GiB of strings in a batch");
        if ((rc = var_reserve(col, (int64_t)n, bytes)) != 0)
            return pm_buf_error(err, rc);
        {
            uint8_t *data = col->values.data;
            int32_t *o = (int32_t *)(void *)(col->offsets.data + (size_t)base * 4);
            int32_t e = (int32_t)end;
            for (size_t i = 0; i < n; i++) {
                int32_t a = off[idx[i]], l = off[idx[i] + 1] - a;
                memcpy(data + e, dict->values.data + a, (size_t)l);
                e += l;
                o[i + 1] = e;
            }
            col->values.len = (size_t)e;
        }
        col->offsets.len = (size_t)(base + (int64_t)n + 1) * 4;
        col->length += (int64_t)n;
        return 0;
    }
    case PM_LAYOUT_BITS: {
        size_t need = (size_t)((col->length + (int64_t)n + 7) / 8);
        if (need > col->values.len && (rc = pm_buf_zero(&col->values, need - col->values.len)))
            return pm_buf_error(err, rc);
        for (size_t i = 0; i < n; i++) {
            int64_t d = col->length + (int64_t)i;
            if ((dict->values.data[idx[i] >> 3] >> (idx[i] & 7)) & 1)
                col->values.data[d >> 3] |= (uint8_t)(1u << (d & 7));
            else
                col->values.data[d >> 3] &= (uint8_t) ~(1u << (d & 7));
        }
        col->length += (int64_t)n;
        return 0;
    }
    default: return pm_err_set(err, PAIMON_EINVALID, "internal: dictionary layout");
    }
}

/* ---- page setup ------------------------------------------------------------------------ */

PM_MUST_CHECK static int decode_lengths(pq_col_reader *r, pm_buf *out, const uint8_t **p,
                                        const uint8_t *end, paimon_error *err)
{
    pm_delta_decoder d;
    int32_t *v;
    int rc;
    size_t n = (size_t)r->page_values;
    if ((rc = pm_delta_init(&d, *p, (size_t)(end - *p), 32, err)) != 0)
        return rc;
    if (pm_delta_remaining(&d) < n)
        return pm_corrupt(err, "DELTA lengths: %llu for %zu values",
                          (unsigned long long)pm_delta_remaining(&d), n);
    out->len = 0;
    if ((rc = pm_buf_reserve(out, n * 4 + 4)) != 0)
        return pm_buf_error(err, rc);
    v = (int32_t *)(void *)out->data;
    if ((rc = pm_delta_get32(&d, v, n, err)) != 0)
        return rc;
    for (size_t i = 0; i < n; i++)
        if (v[i] < 0)
            return pm_corrupt(err, "negative length in a DELTA stream");
    out->len = n * 4;
    return pm_delta_end(&d, p, err);
}

/* The lengths of a DELTA_(LENGTH_)BYTE_ARRAY page must be backed by its bytes, and the
 * values they make (with the prefixes) must stay within a page's limit: nothing is
 * allocated for lengths the page cannot hold. */
PM_MUST_CHECK static int check_lengths(pq_col_reader *r, const int32_t *prefixes, paimon_error *err)
{
    const int32_t *len = (const int32_t *)(const void *)r->lengths.data;
    uint64_t suffixes = 0, total = 0, prev = 0;
    for (int32_t i = 0; i < r->page_values; i++) {
        uint64_t pre = prefixes != NULL ? (uint64_t)prefixes[i] : 0;
        if (pre > prev)
            return pm_corrupt(err, "DELTA_BYTE_ARRAY prefix longer than the last value");
        suffixes += (uint64_t)len[i];
        prev = pre + (uint64_t)len[i];
        total += prev;
    }
    if (suffixes > r->data_len - r->data_pos)
        return pm_corrupt(err, "DELTA byte array lengths exceed the page");
    if (total > PQ_MAX_PAGE_BYTES)
        return pm_err_set(err, PAIMON_ELIMIT, "DELTA byte arrays expand beyond %u bytes",
                          PQ_MAX_PAGE_BYTES);
    return 0;
}

int pm_pq_values_begin(pq_col_reader *r, paimon_error *err)
{
    int type = r->leaf->type, rc;
    const uint8_t *p = r->data, *end = r->data + r->data_len;

    r->data_pos = 0;
    switch (r->encoding) {
    case PQ_PLAIN: return 0;
    case PQ_PLAIN_DICTIONARY:
    case PQ_RLE_DICTIONARY:
        if (r->page_values == 0)
            return 0;
        if (r->dict == NULL)
            return pm_corrupt(err, "dictionary-encoded page without a dictionary");
        if (r->data_len < 1 || r->data[0] > 32)
            return pm_corrupt(err, "bad dictionary index width");
        pm_rle_init(&r->rle, r->data + 1, r->data_len - 1, r->data[0]);
        return 0;
    case PQ_RLE:
        if (type != PQ_BOOLEAN)
            return pm_corrupt(err, "RLE values outside a BOOLEAN column");
        if (r->page_values == 0)
            return 0;
        if (r->data_len < 4 || pm_load_le32(r->data) > r->data_len - 4)
            return pm_corrupt(err, "RLE boolean length is bad");
        pm_rle_init(&r->rle, r->data + 4, pm_load_le32(r->data), 1);
        return 0;
    case PQ_DELTA_BINARY_PACKED:
        if (type != PQ_INT32 && type != PQ_INT64)
            return pm_corrupt(err, "DELTA_BINARY_PACKED outside an integer column");
        if ((rc = pm_delta_init(&r->delta, r->data, r->data_len, type == PQ_INT32 ? 32 : 64,
                                err)) != 0)
            return rc;
        if (pm_delta_remaining(&r->delta) < (uint64_t)r->page_values)
            return pm_corrupt(err, "DELTA_BINARY_PACKED holds fewer values than the page");
        return 0;
    case PQ_DELTA_LENGTH_BYTE_ARRAY:
        if (type != PQ_BYTE_ARRAY)
            return pm_corrupt(err, "DELTA_LENGTH_BYTE_ARRAY outside a BYTE_ARRAY column");
        if (r->page_values == 0)
            return 0;
        if ((rc = decode_lengths(r, &r->lengths, &p, end, err)) != 0)
            return rc;
        r->data_pos = (size_t)(p - r->data);
        return check_lengths(r, NULL, err);
    case PQ_DELTA_BYTE_ARRAY:
        if (type != PQ_BYTE_ARRAY && type != PQ_FIXED_LEN_BYTE_ARRAY)
            return pm_corrupt(err, "DELTA_BYTE_ARRAY outside a byte array column");
        r->last_value.len = 0;
        if (r->page_values == 0)
            return 0;
        if ((rc = decode_lengths(r, &r->prefixes, &p, end, err)) != 0 ||
            (rc = decode_lengths(r, &r->lengths, &p, end, err)) != 0)
            return rc;
        r->data_pos = (size_t)(p - r->data);
        return check_lengths(r, (const int32_t *)(const void *)r->prefixes.data, err);
    case PQ_BYTE_STREAM_SPLIT: {
        size_t w = type == PQ_FIXED_LEN_BYTE_ARRAY ? (size_t)r->leaf->type_length
                                                   : (size_t)phys_width(type);
        if (w == 0 || type == PQ_INT96)
            return pm_corrupt(err, "BYTE_STREAM_SPLIT on an unsupported type");
        if (r->data_len < (size_t)r->page_values * w)
            return pm_corrupt(err, "BYTE_STREAM_SPLIT streams are short");
        return 0;
    }
    default:
        return pm_err_set(err, PAIMON_EUNSUPPORTED, "encoding %s (%d) is not supported",
                          pm_pq_encoding_name(r->encoding), r->encoding);
    }
}

/* ---- decoding -------------------------------------------------------------------------- */

/* Decodes `n` physical values of a non-dictionary page into `dst`. */
PM_MUST_CHECK static int decode_phys(pq_col_reader *r, int64_t n, pm_column *dst, paimon_error *err)
{
    int type = r->leaf->type, rc;
    switch (r->encoding) {
    case PQ_PLAIN:
        return plain_decode(type, r->leaf->type_length, r->data, r->data_len, &r->data_pos, n, dst,
                            err);
    case PQ_RLE: {
        size_t need = (size_t)((dst->length + n + 7) / 8);
        long got;
        if (need > dst->values.len && (rc = pm_buf_zero(&dst->values, need - dst->values.len)))
            return pm_buf_error(err, rc);
        got = pm_rle_get_bits(&r->rle, dst->values.data, dst->length, (size_t)n, err);
        if (got < 0)
            return (int)got;
        if (got != n)
            return pm_corrupt(err, "RLE booleans end early");
        dst->length += n;
        return 0;
    }
    case PQ_DELTA_BINARY_PACKED: {
        size_t w = type == PQ_INT32 ? 4 : 8;
        if ((rc = pm_buf_reserve(&dst->values, (size_t)n * w)) != 0)
            return pm_buf_error(err, rc);
        rc =
            type == PQ_INT32
                ? pm_delta_get32(&r->delta, (int32_t *)(void *)(dst->values.data + dst->values.len),
                                 (size_t)n, err)
                : pm_delta_get64(&r->delta, (int64_t *)(void *)(dst->values.data + dst->values.len),
                                 (size_t)n, err);
        if (rc != 0)
            return rc;
        dst->values.len += (size_t)n * w;
        dst->length += n;
        return 0;
    }
    case PQ_DELTA_LENGTH_BYTE_ARRAY:
    case PQ_DELTA_BYTE_ARRAY: {
        const int32_t *len = (const int32_t *)(const void *)r->lengths.data + r->value_pos;
        const int32_t *pre = r->encoding == PQ_DELTA_BYTE_ARRAY
                                 ? (const int32_t *)(const void *)r->prefixes.data + r->value_pos
                                 : NULL;
        int64_t base = dst->length, end = pm_column_offset(dst, base);
        size_t bytes = 0;
        for (int64_t i = 0; i < n; i++)
            bytes += (size_t)len[i] + (pre != NULL ? (size_t)pre[i] : 0);
        if (bytes > PQ_MAX_PAGE_BYTES)
            return pm_err_set(err, PAIMON_ELIMIT, "DELTA byte arrays expand beyond %u bytes",
                              PQ_MAX_PAGE_BYTES);
        if (end + (int64_t)bytes > INT32_MAX)
            return pm_err_set(err, PAIMON_ELIMIT, "more than 2 GiB of strings in a batch");
        if ((rc = var_reserve(dst, n, bytes)) != 0)
            return pm_buf_error(err, rc);
        for (int64_t i = 0; i < n; i++) {
            size_t l = (size_t)len[i];
            if (l > r->data_len - r->data_pos)
                return pm_corrupt(err, "DELTA byte arrays run past the page");
            if (pre != NULL) {
                size_t pl = (size_t)pre[i];
                if (pl > r->last_value.len)
                    return pm_corrupt(err, "DELTA_BYTE_ARRAY prefix longer than the last value");
                r->last_value.len = pl;
                if ((rc = pm_buf_append(&r->last_value, r->data + r->data_pos, l)) != 0)
                    return pm_buf_error(err, rc);
                memcpy(dst->values.data + end, r->last_value.data, pl + l);
                end += (int64_t)(pl + l);
            } else {
                memcpy(dst->values.data + end, r->data + r->data_pos, l);
                end += (int64_t)l;
            }
            r->data_pos += l;
            put_offset(dst, base + i + 1, end);
        }
        dst->values.len = (size_t)end;
        dst->offsets.len = (size_t)(base + n + 1) * 4;
        dst->length += n;
        return 0;
    }
    case PQ_BYTE_STREAM_SPLIT: {
        size_t w = type == PQ_FIXED_LEN_BYTE_ARRAY ? (size_t)r->leaf->type_length
                                                   : (size_t)phys_width(type);
        uint8_t *out;
        if (dst->layout == PM_LAYOUT_VAR) {
            int64_t base = dst->length, end = pm_column_offset(dst, base);
            if ((rc = var_reserve(dst, n, (size_t)n * w)) != 0)
                return pm_buf_error(err, rc);
            out = dst->values.data + end;
            for (int64_t i = 1; i <= n; i++)
                put_offset(dst, base + i, end + i * (int64_t)w);
            dst->values.len = (size_t)end + (size_t)n * w;
            dst->offsets.len = (size_t)(base + n + 1) * 4;
        } else {
            if ((rc = pm_buf_reserve(&dst->values, (size_t)n * w)) != 0)
                return pm_buf_error(err, rc);
            out = dst->values.data + dst->values.len;
            dst->values.len += (size_t)n * w;
        }
        pm_pq_bss_decode(r->data, (size_t)r->page_values, w, (size_t)r->value_pos, (size_t)n, out);
        dst->length += n;
        return 0;
    }
    default: return pm_corrupt(err, "unexpected encoding");
    }
}

PM_MUST_CHECK static int decode_dict(pq_col_reader *r, int64_t n, pm_column *col, paimon_error *err)
{
    int rc;
    if ((rc = pm_buf_reserve(&r->indices, 1024 * 4)) != 0)
        return pm_buf_error(err, rc);
    while (n > 0) {
        uint32_t *idx = (uint32_t *)(void *)r->indices.data, worst = 0;
        size_t take = n < 1024 ? (size_t)n : 1024;
        long got = pm_rle_get_u32(&r->rle, idx, take, err);
        if (got < 0)
            return (int)got;
        if ((size_t)got != take)
            return pm_corrupt(err, "dictionary indices end early");
        for (size_t i = 0; i < take; i++)
            worst = idx[i] > worst ? idx[i] : worst;
        if ((int64_t)worst >= r->dict_count)
            return pm_corrupt(err, "dictionary index %u beyond %lld entries", worst,
                              (long long)r->dict_count);
        if ((rc = gather(r->dict, idx, take, col, err)) != 0)
            return rc;
        n -= (int64_t)take;
    }
    return 0;
}

int pm_pq_values_decode(pq_col_reader *r, int64_t n, pm_column *col, paimon_error *err)
{
    int rc;
    if (n == 0)
        return 0;
    if (n > (int64_t)r->page_values - r->value_pos)
        return pm_corrupt(err, "more values asked than the page holds");
    if (r->encoding == PQ_PLAIN_DICTIONARY || r->encoding == PQ_RLE_DICTIONARY) {
        rc = decode_dict(r, n, col, err);
    } else if (r->plan->conv == PQ_CONV_NONE) {
        rc = decode_phys(r, n, col, err);
    } else {
        pm_column *phys = tmp_column(r);
        if (phys == NULL)
            return pm_nomem(err);
        rc = decode_phys(r, n, phys, err);
        if (rc == 0)
            rc = pm_pq_convert(r, phys, 0, n, col, err);
    }
    if (rc == 0)
        r->value_pos += (int32_t)n;
    return rc;
}

/* ---- spacing --------------------------------------------------------------------------- */

int pm_pq_spread(pm_column *col, int64_t dense, const uint8_t *valid, int64_t slots)
{
    int64_t start = col->length - dense, nulls = 0, j;
    int rc;

    if (valid != NULL)
        for (int64_t i = 0; i < slots; i++)
            nulls += !valid[i];
    /* the bitmap covers the slots before `start`; make room and set the new bits */
    if (nulls > 0 && col->validity.len == 0) {
        size_t full = (size_t)(start / 8);
        if ((rc = pm_buf_reserve(&col->validity, (size_t)(start + slots) / 8 + 2)) != 0)
            return rc;
        memset(col->validity.data, 0xff, full);
        col->validity.len = full;
        if (start % 8 != 0)
            col->validity.data[col->validity.len++] = (uint8_t)((1u << (start % 8)) - 1);
    }
    if (col->validity.len > 0 || nulls > 0) {
        size_t need = (size_t)((start + slots + 7) / 8);
        if (need > col->validity.len &&
            (rc = pm_buf_zero(&col->validity, need - col->validity.len)) != 0)
            return rc;
        for (int64_t i = 0; i < slots; i++) {
            int64_t b = start + i;
            if (valid == NULL || valid[i])
                col->validity.data[b >> 3] |= (uint8_t)(1u << (b & 7));
            else
                col->validity.data[b >> 3] &= (uint8_t) ~(1u << (b & 7));
        }
        col->validity.len = need;
    }
    col->null_count += nulls;
    if (nulls == 0)
        return 0;
    /* move values back to front */
    j = dense;
    switch (col->layout) {
    case PM_LAYOUT_FIXED: {
        size_t w = col->width;
        if ((rc = pm_buf_reserve(&col->values, (size_t)(slots - dense) * w)) != 0)
            return rc;
        if (w == 8 || w == 4) {
            /* typed moves: the common widths without a memmove call per value */
            uint8_t *base = col->values.data + (size_t)start * w;
            for (int64_t i = slots - 1; i >= 0 && j < i + 1; i--) {
                if (w == 8) {
                    uint64_t v = 0;
                    if (valid[i])
                        memcpy(&v, base + (size_t)--j * 8, 8);
                    memcpy(base + (size_t)i * 8, &v, 8);
                } else {
                    uint32_t v = 0;
                    if (valid[i])
                        memcpy(&v, base + (size_t)--j * 4, 4);
                    memcpy(base + (size_t)i * 4, &v, 4);
                }
            }
            col->values.len = (size_t)(start + slots) * w;
            break;
        }
        for (int64_t i = slots - 1; i >= 0; i--) {
            uint8_t *dst = col->values.data + (size_t)(start + i) * w;
            if (valid[i]) {
                j--;
                if (j != i)
                    memmove(dst, col->values.data + (size_t)(start + j) * w, w);
            } else {
                memset(dst, 0, w);
            }
        }
        col->values.len = (size_t)(start + slots) * w;
        break;
    }
    case PM_LAYOUT_BITS: {
        size_t need = (size_t)((start + slots + 7) / 8);
        if (need > col->values.len && (rc = pm_buf_zero(&col->values, need - col->values.len)))
            return rc;
        for (int64_t i = slots - 1; i >= 0; i--) {
            int64_t d = start + i;
            bool bit = false;
            if (valid[i]) {
                int64_t s = start + --j;
                bit = (col->values.data[s >> 3] >> (s & 7)) & 1;
            }
            if (bit)
                col->values.data[d >> 3] |= (uint8_t)(1u << (d & 7));
            else
                col->values.data[d >> 3] &= (uint8_t) ~(1u << (d & 7));
        }
        break;
    }
    case PM_LAYOUT_VAR: {
        int32_t cur;
        if ((rc = pm_buf_reserve(&col->offsets, (size_t)(slots - dense) * 4)) != 0)
            return rc;
        cur = pm_column_offset(col, start + dense);
        for (int64_t i = slots - 1; i >= 0; i--) {
            memcpy(col->offsets.data + (size_t)(start + i + 1) * 4, &cur, 4);
            if (valid[i]) {
                j--;
                cur = pm_column_offset(col, start + j);
            }
        }
        col->offsets.len = (size_t)(start + slots + 1) * 4;
        break;
    }
    default: return PAIMON_EINVALID;
    }
    col->length = start + slots;
    return 0;
}
