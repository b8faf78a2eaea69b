/*
 * Column decoders of the ORC reader: see orc_column.h and, for the vector layouts,
 * orc_reader.h.
 *
 * Decoding a batch of n slots of one column:
 *   1. validity: a slot is valid when its parent slot is (pmask) and, where the column has
 *      a PRESENT stream, its present bit is set; present bits exist only for slots whose
 *      parent is valid;
 *   2. the k valid values are decoded from the data streams and spread over the slots,
 *      nulls holding zeros or empty ranges;
 *   3. children: a STRUCT passes its validity down (each field has a slot per struct
 *      row), a LIST or MAP decodes the sum of its lengths from its children.
 */
#include "format/orc/orc_column.h"

#include <string.h>

#include "util/alloc.h"
#include "util/time.h"

#define MAX_VAR_BYTES ((size_t)INT32_MAX) /* int32 offsets */

/* A stream's bytes, never NULL: an absent or empty stream has no buffer, and even NULL + 0
 * is undefined behaviour in C, so cursors over empty streams point at a static empty byte. */
static const uint8_t *sbytes(const pm_orc_sbuf *s)
{
    static const uint8_t none[1];
    return s->buf.data ? s->buf.data : none;
}
PM_MUST_CHECK static int bad(const pm_orc_colreader *cr, const char *stream, paimon_error *err)
{
    return pm_corrupt(err, "%s: ORC column %u (%s): malformed or truncated %s stream", cr->path,
                      cr->column, pm_orc_kind_name(cr->type->kind), stream);
}

PM_MUST_CHECK static int buf_rc(paimon_error *err, int rc)
{
    return pm_buf_error(err, rc);
}

/* ---- construction ---------------------------------------------------------------------- */

static void sbuf_init(pm_orc_sbuf *s)
{
    s->exists = false;
    pm_buf_init(&s->buf, 0);
    pm_buf_init(&s->map.pairs, 0);
}

static void sbuf_free(pm_orc_sbuf *s)
{
    pm_buf_free(&s->buf);
    pm_buf_free(&s->map.pairs);
}

void pm_orc_colreader_free(pm_orc_colreader *cr)
{
    if (cr == NULL)
        return;
    for (size_t i = 0; i < cr->child_count; i++)
        pm_orc_colreader_free(cr->children[i]);
    pm_free(cr->children);
    sbuf_free(&cr->present);
    sbuf_free(&cr->data);
    sbuf_free(&cr->length);
    sbuf_free(&cr->secondary);
    sbuf_free(&cr->dict);
    pm_free(cr->data_rle);
    pm_free(cr->length_rle);
    pm_free(cr->secondary_rle);
    pm_buf_free(&cr->dict_offsets);
    pm_buf_free(&cr->mask);
    pm_buf_free(&cr->pmask);
    pm_buf_free(&cr->scratch);
    pm_buf_free(&cr->scratch2);
    pm_free(cr);
}

int pm_orc_colreader_new(pm_orc_colreader **out, const pm_orc_footer *footer, uint32_t column,
                         const bool *include, const char *path, bool compressed, int64_t max_values,
                         paimon_error *err)
{
    const pm_orc_type *t = &footer->types[column];
    pm_orc_colreader *cr;
    int rc = 0;

    *out = NULL;
    if (t->kind == PM_ORC_UNION)
        return pm_err_set(err, PAIMON_EUNSUPPORTED, "%s: ORC column %u is a union type", path,
                          column);
    if ((cr = pm_calloc(1, sizeof(*cr))) == NULL)
        return pm_nomem(err);
    cr->column = column;
    cr->type = t;
    cr->path = path;
    cr->compressed = compressed;
    cr->max_values = max_values;
    sbuf_init(&cr->present);
    sbuf_init(&cr->data);
    sbuf_init(&cr->length);
    sbuf_init(&cr->secondary);
    sbuf_init(&cr->dict);
    pm_buf_init(&cr->dict_offsets, 0);
    pm_buf_init(&cr->mask, 0);
    pm_buf_init(&cr->pmask, 0);
    pm_buf_init(&cr->scratch, 0);
    pm_buf_init(&cr->scratch2, 0);
    if ((cr->data_rle = pm_malloc(sizeof(pm_orc_int_rle))) == NULL ||
        (cr->length_rle = pm_malloc(sizeof(pm_orc_int_rle))) == NULL ||
        (cr->secondary_rle = pm_malloc(sizeof(pm_orc_int_rle))) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    if (t->subtype_count > 0) {
        if ((cr->children = pm_calloc(t->subtype_count, sizeof(*cr->children))) == NULL) {
            rc = pm_nomem(err);
            goto done;
        }
        cr->child_count = t->subtype_count;
        for (size_t i = 0; i < t->subtype_count; i++) {
            /* the elements, keys and values of a list or map are always read with it */
            if (t->kind == PM_ORC_STRUCT && include != NULL && !include[t->subtypes[i]])
                continue;
            rc = pm_orc_colreader_new(&cr->children[i], footer, t->subtypes[i], include, path,
                                      compressed, max_values, err);
            if (rc != 0)
                goto done;
        }
    }
done:
    if (rc != 0) {
        pm_orc_colreader_free(cr);
        return rc;
    }
    *out = cr;
    return 0;
}

/* ---- vectors --------------------------------------------------------------------------- */

pm_orc_vec *pm_orc_vec_new(const pm_orc_colreader *cr)
{
    pm_orc_vec *v = pm_calloc(1, sizeof(*v));
    if (v == NULL)
        return NULL;
    v->column = cr->column;
    v->type = cr->type;
    pm_buf_init(&v->validity, 0);
    pm_buf_init(&v->values, 0);
    pm_buf_init(&v->offsets, 0);
    pm_buf_init(&v->nanos, 0);
    if (cr->child_count > 0) {
        if ((v->children = pm_calloc(cr->child_count, sizeof(*v->children))) == NULL) {
            pm_orc_vec_free(v);
            return NULL;
        }
        v->child_count = cr->child_count;
        for (size_t i = 0; i < cr->child_count; i++) {
            if (cr->children[i] == NULL)
                continue;
            if ((v->children[i] = pm_orc_vec_new(cr->children[i])) == NULL) {
                pm_orc_vec_free(v);
                return NULL;
            }
        }
    }
    return v;
}

void pm_orc_vec_free(pm_orc_vec *v)
{
    if (v == NULL)
        return;
    for (size_t i = 0; i < v->child_count; i++)
        pm_orc_vec_free(v->children[i]);
    pm_free(v->children);
    pm_buf_free(&v->validity);
    pm_buf_free(&v->values);
    pm_buf_free(&v->offsets);
    pm_buf_free(&v->nanos);
    pm_free(v);
}

void pm_orc_vec_reset(pm_orc_vec *v)
{
    v->length = 0;
    v->null_count = 0;
    pm_buf_reset(&v->validity);
    pm_buf_reset(&v->values);
    pm_buf_reset(&v->offsets);
    pm_buf_reset(&v->nanos);
    for (size_t i = 0; i < v->child_count; i++)
        if (v->children[i] != NULL)
            pm_orc_vec_reset(v->children[i]);
}

/* Appends the validity of n slots (valid NULL: all valid) to the vector's bitmap. */
static int append_validity(pm_orc_vec *v, const uint8_t *valid, int64_t n, int64_t nulls)
{
    int64_t old = v->length, total = old + n;
    size_t need = (size_t)((total + 7) / 8);
    int rc;
    if (nulls == 0 && v->validity.len == 0)
        return 0;
    if (v->validity.len == 0) {
        /* the first null: every earlier slot was valid */
        if ((rc = pm_buf_zero(&v->validity, (size_t)((old + 7) / 8))) != 0)
            return rc;
        memset(v->validity.data, 0xff, (size_t)(old / 8));
        if (old % 8 != 0)
            v->validity.data[old / 8] = (uint8_t)((1u << (old % 8)) - 1);
    }
    if (need > v->validity.len && (rc = pm_buf_zero(&v->validity, need - v->validity.len)) != 0)
        return rc;
    for (int64_t i = 0; i < n; i++)
        if (valid == NULL || valid[i])
            v->validity.data[(old + i) >> 3] |= (uint8_t)(1u << ((old + i) & 7));
    v->null_count += nulls;
    return 0;
}

/* Room for n more fixed-width slots, zeroed when some are null. */
static uint8_t *grow(pm_buf *b, int64_t n, size_t width, bool zero, int *rc)
{
    size_t bytes = (size_t)n * width;
    uint8_t *p;
    if ((*rc = pm_buf_reserve(b, bytes)) != 0)
        return NULL;
    p = b->data + b->len;
    if (zero)
        memset(p, 0, bytes);
    b->len += bytes;
    return p;
}

static int64_t *scratch_i64(pm_buf *b, int64_t n, int *rc)
{
    pm_buf_reset(b);
    if ((*rc = pm_buf_reserve(b, (size_t)n * 8 + 8)) != 0)
        return NULL;
    return (int64_t *)(void *)b->data;
}

static int push_offset(pm_orc_vec *v, int64_t off)
{
    int32_t o = (int32_t)off;
    return pm_buf_append(&v->offsets, &o, 4);
}

/* ---- validity -------------------------------------------------------------------------- */

/* Fills cr->mask for n slots; returns the valid count in *k (mask unused when *k == n and
 * pmask is NULL). */
PM_MUST_CHECK static int read_validity(pm_orc_colreader *cr, int64_t n, const uint8_t *pmask,
                                       int64_t *k, const uint8_t **valid, paimon_error *err)
{
    uint8_t *m;
    int64_t cnt = 0;
    int rc;

    *valid = NULL;
    *k = n;
    if (pmask == NULL && !cr->present.exists)
        return 0;
    pm_buf_reset(&cr->mask);
    if ((rc = pm_buf_reserve(&cr->mask, (size_t)n + 1)) != 0)
        return buf_rc(err, rc);
    m = cr->mask.data;
    if (!cr->present.exists) {
        memcpy(m, pmask, (size_t)n);
    } else if (pmask == NULL) {
        if (!pm_orc_bool_rle_read(&cr->present_rle, m, (size_t)n))
            return bad(cr, "PRESENT", err);
    } else {
        int64_t parents = 0, j = 0;
        uint8_t *bits;
        for (int64_t i = 0; i < n; i++)
            parents += pmask[i] != 0;
        pm_buf_reset(&cr->pmask);
        if ((rc = pm_buf_reserve(&cr->pmask, (size_t)parents + 1)) != 0)
            return buf_rc(err, rc);
        bits = cr->pmask.data;
        if (!pm_orc_bool_rle_read(&cr->present_rle, bits, (size_t)parents))
            return bad(cr, "PRESENT", err);
        for (int64_t i = 0; i < n; i++)
            m[i] = pmask[i] ? bits[j++] : 0;
    }
    for (int64_t i = 0; i < n; i++)
        cnt += m[i] != 0;
    *k = cnt;
    *valid = cnt == n ? NULL : m;
    return 0;
}

/* ---- values ---------------------------------------------------------------------------- */

PM_MUST_CHECK static int decode_ints(pm_orc_colreader *cr, int64_t n, int64_t k,
                                     const uint8_t *valid, pm_orc_vec *v, size_t width,
                                     paimon_error *err)
{
    int rc = 0;
    int64_t *tmp;
    uint8_t *dst;
    if (width == 8 && valid == NULL) {
        if ((dst = grow(&v->values, n, 8, false, &rc)) == NULL)
            return buf_rc(err, rc);
        if (!pm_orc_int_rle_read(cr->data_rle, (int64_t *)(void *)dst, (size_t)n))
            return bad(cr, "DATA", err);
        return 0;
    }
    if ((tmp = scratch_i64(&cr->scratch, k, &rc)) == NULL)
        return buf_rc(err, rc);
    if (!pm_orc_int_rle_read(cr->data_rle, tmp, (size_t)k))
        return bad(cr, "DATA", err);
    if ((dst = grow(&v->values, n, width, valid != NULL, &rc)) == NULL)
        return buf_rc(err, rc);
    for (int64_t i = 0, j = 0; i < n; i++) {
        int64_t x;
        if (valid != NULL && !valid[i])
            continue;
        x = tmp[j++];
        switch (width) {
        case 2: {
            int16_t s = (int16_t)(uint16_t)x;
            memcpy(dst + 2 * i, &s, 2);
            break;
        }
        case 4: {
            int32_t s = (int32_t)(uint32_t)x;
            memcpy(dst + 4 * i, &s, 4);
            break;
        }
        default: memcpy(dst + 8 * i, &x, 8); break;
        }
    }
    return 0;
}

PM_MUST_CHECK static int decode_bytes_kind(pm_orc_colreader *cr, int64_t n, int64_t k,
                                           const uint8_t *valid, pm_orc_vec *v, paimon_error *err)
{
    int rc = 0;
    uint8_t *tmp, *dst;
    pm_buf_reset(&cr->scratch);
    if ((rc = pm_buf_reserve(&cr->scratch, (size_t)k + 1)) != 0)
        return buf_rc(err, rc);
    tmp = cr->scratch.data;
    if (cr->type->kind == PM_ORC_BYTE) {
        if (!pm_orc_byte_rle_read(&cr->byte_rle, tmp, (size_t)k))
            return bad(cr, "DATA", err);
        if ((dst = grow(&v->values, n, 1, valid != NULL, &rc)) == NULL)
            return buf_rc(err, rc);
        for (int64_t i = 0, j = 0; i < n; i++)
            if (valid == NULL || valid[i])
                dst[i] = tmp[j++];
        return 0;
    }
    /* BOOLEAN: bits */
    if (!pm_orc_bool_rle_read(&cr->bool_rle, tmp, (size_t)k))
        return bad(cr, "DATA", err);
    {
        int64_t old = v->length, total = old + n;
        size_t need = (size_t)((total + 7) / 8);
        if (need > v->values.len && (rc = pm_buf_zero(&v->values, need - v->values.len)) != 0)
            return buf_rc(err, rc);
        for (int64_t i = 0, j = 0; i < n; i++)
            if ((valid == NULL || valid[i]) && tmp[j++])
                v->values.data[(old + i) >> 3] |= (uint8_t)(1u << ((old + i) & 7));
    }
    return 0;
}

PM_MUST_CHECK static int decode_floats(pm_orc_colreader *cr, int64_t n, int64_t k,
                                       const uint8_t *valid, pm_orc_vec *v, size_t width,
                                       paimon_error *err)
{
    int rc = 0;
    uint8_t *dst;
    if ((uint64_t)(cr->raw_end - cr->raw) < (uint64_t)k * width)
        return bad(cr, "DATA", err);
    if ((dst = grow(&v->values, n, width, valid != NULL, &rc)) == NULL)
        return buf_rc(err, rc);
    if (valid == NULL) {
        memcpy(dst, cr->raw, (size_t)n * width);
    } else {
        const uint8_t *src = cr->raw;
        for (int64_t i = 0; i < n; i++) {
            if (valid[i]) {
                memcpy(dst + (size_t)i * width, src, width);
                src += width;
            }
        }
    }
    cr->raw += (size_t)k * width;
    return 0;
}

/* Reads k lengths (LENGTH stream) into scratch; their sum in *sum. */
PM_MUST_CHECK static int read_lengths(pm_orc_colreader *cr, int64_t k, int64_t **lens,
                                      uint64_t *sum, paimon_error *err)
{
    int rc = 0;
    uint64_t s = 0;
    int64_t *l = scratch_i64(&cr->scratch, k, &rc);
    if (l == NULL)
        return buf_rc(err, rc);
    if (!pm_orc_int_rle_read(cr->length_rle, l, (size_t)k))
        return bad(cr, "LENGTH", err);
    for (int64_t i = 0; i < k; i++) {
        if (l[i] < 0 || (uint64_t)l[i] > MAX_VAR_BYTES)
            return bad(cr, "LENGTH", err);
        s += (uint64_t)l[i];
    }
    *lens = l;
    *sum = s;
    return 0;
}

PM_MUST_CHECK static int decode_varlen(pm_orc_colreader *cr, int64_t n, int64_t k,
                                       const uint8_t *valid, pm_orc_vec *v, paimon_error *err)
{
    int rc = 0;
    int64_t end;
    if (v->offsets.len == 0 && (rc = push_offset(v, 0)) != 0)
        return buf_rc(err, rc);
    end = (int64_t)v->values.len;
    if ((rc = pm_buf_reserve(&v->offsets, (size_t)n * 4)) != 0)
        return buf_rc(err, rc);
    if (cr->encoding == PM_ORC_DICTIONARY || cr->encoding == PM_ORC_DICTIONARY_V2) {
        const uint32_t *doff = (const uint32_t *)(void *)cr->dict_offsets.data;
        const uint8_t *dbytes = cr->dict.buf.data;
        int64_t *ids = scratch_i64(&cr->scratch, k, &rc);
        if (ids == NULL)
            return buf_rc(err, rc);
        if (!pm_orc_int_rle_read(cr->data_rle, ids, (size_t)k))
            return bad(cr, "DATA", err);
        for (int64_t i = 0, j = 0; i < n; i++) {
            if (valid == NULL || valid[i]) {
                uint64_t id = (uint64_t)ids[j++];
                uint32_t a, b;
                if (id >= cr->dict_size)
                    return bad(cr, "DATA (dictionary id)", err);
                a = doff[id];
                b = doff[id + 1];
                if ((uint64_t)end + (b - a) > MAX_VAR_BYTES)
                    return pm_err_set(err, PAIMON_ELIMIT,
                                      "%s: ORC column %u: a batch holds more "
                                      "than 2 GiB of strings",
                                      cr->path, cr->column);
                if ((rc = pm_buf_append(&v->values, dbytes + a, b - a)) != 0)
                    return buf_rc(err, rc);
                end += b - a;
            }
            if ((rc = push_offset(v, end)) != 0)
                return buf_rc(err, rc);
        }
        return 0;
    }
    {
        int64_t *lens;
        uint64_t sum;
        if ((rc = read_lengths(cr, k, &lens, &sum, err)) != 0)
            return rc;
        if (sum > (uint64_t)(cr->raw_end - cr->raw))
            return bad(cr, "DATA", err);
        if ((uint64_t)end + sum > MAX_VAR_BYTES)
            return pm_err_set(err, PAIMON_ELIMIT,
                              "%s: ORC column %u: a batch holds more than "
                              "2 GiB of bytes",
                              cr->path, cr->column);
        if ((rc = pm_buf_append(&v->values, cr->raw, (size_t)sum)) != 0)
            return buf_rc(err, rc);
        cr->raw += sum;
        for (int64_t i = 0, j = 0; i < n; i++) {
            if (valid == NULL || valid[i])
                end += lens[j++];
            int32_t o = (int32_t)end;
            memcpy(v->offsets.data + v->offsets.len, &o, 4);
            v->offsets.len += 4;
        }
    }
    return 0;
}

/* CHAR(n) values as ORC Java's CharTreeReader returns them (StringExpr.rightTrimAndTruncate):
 * cut to n characters, then trailing spaces dropped -- the padding its writer added.  Works
 * in place on the last `n_slots` slots of `v`. */
static void trim_chars(const pm_orc_type *t, pm_orc_vec *v, int64_t n_slots)
{
    int32_t *off = (int32_t *)(void *)v->offsets.data;
    int64_t last = (int64_t)(v->offsets.len / 4) - 1, first = last - n_slots;
    int32_t w, a;
    if (first < 0)
        return;
    w = a = off[first];
    for (int64_t i = first; i < last; i++) {
        int32_t b = off[i + 1], len = b - a, cut = 0;
        const uint8_t *p = v->values.data + a;
        if (t->has_max_length && t->max_length > 0) {
            uint32_t chars = 0;
            while (cut < len && chars < t->max_length) { /* a character per leading byte */
                cut++;
                while (cut < len && (p[cut] & 0xC0) == 0x80)
                    cut++;
                chars++;
            }
        } else {
            cut = len;
        }
        while (cut > 0 && p[cut - 1] == ' ')
            cut--;
        if (cut > 0 && w != a)
            memmove(v->values.data + w, p, (size_t)cut);
        w += cut;
        a = b;
        off[i + 1] = w;
    }
    v->values.len = (size_t)w;
}

static const __int128 POW10[39] = {(__int128)1,
                                   (__int128)10,
                                   (__int128)100,
                                   (__int128)1000,
                                   (__int128)10000,
                                   (__int128)100000,
                                   (__int128)1000000,
                                   (__int128)10000000,
                                   (__int128)100000000,
                                   (__int128)1000000000,
                                   (__int128)10000000000LL,
                                   (__int128)100000000000LL,
                                   (__int128)1000000000000LL,
                                   (__int128)10000000000000LL,
                                   (__int128)100000000000000LL,
                                   (__int128)1000000000000000LL,
                                   (__int128)10000000000000000LL,
                                   (__int128)100000000000000000LL,
                                   (__int128)1000000000000000000LL,
                                   (__int128)1000000000000000000LL * 10,
                                   (__int128)1000000000000000000LL * 100,
                                   (__int128)1000000000000000000LL * 1000,
                                   (__int128)1000000000000000000LL * 10000,
                                   (__int128)1000000000000000000LL * 100000,
                                   (__int128)1000000000000000000LL * 1000000,
                                   (__int128)1000000000000000000LL * 10000000,
                                   (__int128)1000000000000000000LL * 100000000,
                                   (__int128)1000000000000000000LL * 1000000000,
                                   (__int128)1000000000000000000LL * 10000000000LL,
                                   (__int128)1000000000000000000LL * 100000000000LL,
                                   (__int128)1000000000000000000LL * 1000000000000LL,
                                   (__int128)1000000000000000000LL * 10000000000000LL,
                                   (__int128)1000000000000000000LL * 100000000000000LL,
                                   (__int128)1000000000000000000LL * 1000000000000000LL,
                                   (__int128)1000000000000000000LL * 10000000000000000LL,
                                   (__int128)1000000000000000000LL * 100000000000000000LL,
                                   (__int128)1000000000000000000LL * 1000000000000000000LL,
                                   (__int128)1000000000000000000LL * 1000000000000000000LL * 10,
                                   (__int128)1000000000000000000LL * 1000000000000000000LL * 100};

/* Rescales `v` from `from` to `to` digits (HALF_UP); false when it does not fit 38 digits. */
static bool rescale(__int128 *v, int64_t from, int to)
{
    if (from == to)
        return true;
    if (from < -100 || from > 100)
        return false;
    if (from < to) {
        __int128 r;
        int64_t r64;
        /* 64-bit values scaled by up to 10^18 (DECIMAL(p <= 18)) multiply in 64 bits */
        if (to - from <= 18 && *v >= INT64_MIN && *v <= INT64_MAX &&
            !__builtin_mul_overflow((int64_t)*v, (int64_t)POW10[to - from], &r64)) {
            *v = r64;
            return true;
        }
        if (to - from > 38 || __builtin_mul_overflow(*v, POW10[to - from], &r))
            return false;
        *v = r;
    } else {
        __int128 d, q, rem;
        if (from - to > 38) {
            *v = 0;
            return true;
        }
        d = POW10[from - to];
        q = *v / d;
        rem = *v % d;
        if (rem < 0 ? -rem >= d + rem : rem >= d - rem)
            q += *v < 0 ? -1 : 1;
        *v = q;
    }
    return *v < POW10[38] && *v > -POW10[38];
}

/* Makes slot `slot` (of the n being appended) null after the fact. */
static int set_null(pm_orc_vec *v, int64_t n, int64_t slot)
{
    int rc;
    if (v->validity.len == 0) {
        /* no null so far in the vector, this batch included: all valid */
        int64_t total = v->length + n;
        if ((rc = pm_buf_zero(&v->validity, (size_t)((total + 7) / 8))) != 0)
            return rc;
        memset(v->validity.data, 0xff, (size_t)(total / 8));
        if (total % 8 != 0)
            v->validity.data[total / 8] = (uint8_t)((1u << (total % 8)) - 1);
    }
    v->validity.data[slot >> 3] &= (uint8_t) ~(1u << (slot & 7));
    v->null_count++;
    return 0;
}

PM_MUST_CHECK static int decode_decimal(pm_orc_colreader *cr, int64_t n, int64_t k,
                                        const uint8_t *valid, pm_orc_vec *v, paimon_error *err)
{
    int rc = 0;
    int64_t *vals = NULL, *scales = NULL;
    uint8_t *dst;
    int scale = (int)cr->type->scale;

    if (cr->decimal64) {
        if ((vals = scratch_i64(&cr->scratch, k, &rc)) == NULL)
            return buf_rc(err, rc);
        if (!pm_orc_int_rle_read(cr->data_rle, vals, (size_t)k))
            return bad(cr, "DATA", err);
    } else {
        if ((scales = scratch_i64(&cr->scratch, k, &rc)) == NULL)
            return buf_rc(err, rc);
        if (!pm_orc_int_rle_read(cr->secondary_rle, scales, (size_t)k))
            return bad(cr, "SECONDARY", err);
    }
    if ((dst = grow(&v->values, n, 16, true, &rc)) == NULL)
        return buf_rc(err, rc);
    for (int64_t i = 0, j = 0; i < n; i++) {
        __int128 x;
        if (valid != NULL && !valid[i])
            continue;
        if (cr->decimal64) {
            x = vals[j++];
        } else {
            if (!pm_orc_read_varint128(&cr->raw, cr->raw_end, &x))
                return bad(cr, "DATA", err);
            /* Java's reader enforces the type's precision and scale: null when it cannot */
            if (!rescale(&x, scales[j++], scale)) {
                if ((rc = set_null(v, n, v->length + i)) != 0)
                    return buf_rc(err, rc);
                x = 0;
            }
        }
        {
            /* two 8-byte halves (the vectors are in host order, as everywhere here) */
            uint64_t half[2] = {(uint64_t)x, (uint64_t)((unsigned __int128)x >> 64)};
            memcpy(dst + 16 * i, half, 16);
        }
    }
    return 0;
}

PM_MUST_CHECK static int decode_timestamp(pm_orc_colreader *cr, int64_t n, int64_t k,
                                          const uint8_t *valid, pm_orc_vec *v, paimon_error *err)
{
    int rc = 0;
    int64_t *secs, *nanos;
    uint8_t *dst, *dst_nanos;

    if ((secs = scratch_i64(&cr->scratch, k, &rc)) == NULL ||
        (nanos = scratch_i64(&cr->scratch2, k, &rc)) == NULL)
        return buf_rc(err, rc);
    if (!pm_orc_int_rle_read(cr->data_rle, secs, (size_t)k))
        return bad(cr, "DATA", err);
    if (!pm_orc_int_rle_read(cr->secondary_rle, nanos, (size_t)k))
        return bad(cr, "SECONDARY", err);
    if ((dst = grow(&v->values, n, 8, valid != NULL, &rc)) == NULL ||
        (dst_nanos = grow(&v->nanos, n, 4, valid != NULL, &rc)) == NULL)
        return buf_rc(err, rc);
    for (int64_t i = 0, j = 0; i < n; i++) {
        uint64_t enc;
        int64_t ns, s, ms;
        int32_t nom;
        if (valid != NULL && !valid[i])
            continue;
        enc = (uint64_t)nanos[j];
        s = secs[j++];
        /* trailing zeros: the low 3 bits z say the value was divided by 10^(z+1) */
        ns = (int64_t)(enc >> 3);
        if ((enc & 7) != 0) {
            int z = (int)(enc & 7) + 1;
            if (ns > 999999999 / (int64_t)POW10[z])
                return bad(cr, "SECONDARY (nanoseconds)", err);
            ns *= (int64_t)POW10[z];
        }
        if (ns > 999999999)
            return bad(cr, "SECONDARY (nanoseconds)", err);
        if (__builtin_add_overflow(s, cr->base_seconds, &s) ||
            __builtin_mul_overflow(s, 1000, &ms) || __builtin_add_overflow(ms, ns / 1000000, &ms))
            return bad(cr, "DATA (seconds)", err);
        /* ORC Java writes truncated seconds; its reader undoes that for negative times */
        if (ms < 0 && ns > 999999)
            ms -= 1000;
        if (cr->tz != NULL) {
            /* the wall clock of that instant in the writer's zone (Java's LocalDateTime; for
             * a legacy LTZ column, the instant Paimon meant) */
            int64_t off = pm_orc_tz_offset(cr->tz, pm_floor_div(ms, 1000));
            if (__builtin_add_overflow(ms, off * 1000, &ms))
                return bad(cr, "DATA (seconds)", err);
        }
        nom = (int32_t)(ns % 1000000);
        memcpy(dst + 8 * i, &ms, 8);
        memcpy(dst_nanos + 4 * i, &nom, 4);
    }
    return 0;
}

PM_MUST_CHECK static int decode_list(pm_orc_colreader *cr, int64_t n, int64_t k,
                                     const uint8_t *valid, pm_orc_vec *v, paimon_error *err)
{
    int rc = 0;
    int64_t *lens, end;
    uint64_t sum;
    if ((rc = read_lengths(cr, k, &lens, &sum, err)) != 0)
        return rc;
    if (v->offsets.len == 0 && (rc = push_offset(v, 0)) != 0)
        return buf_rc(err, rc);
    end = pm_orc_vec_offset(v, v->length);
    /* offsets stay within int32: max_values is below 2^31 */
    if (sum > (uint64_t)(cr->max_values - end))
        return pm_err_set(err, PAIMON_ELIMIT,
                          "%s: ORC column %u: more than %lld elements in one "
                          "batch",
                          cr->path, cr->column, (long long)cr->max_values);
    if ((rc = pm_buf_reserve(&v->offsets, (size_t)n * 4)) != 0)
        return buf_rc(err, rc);
    for (int64_t i = 0, j = 0; i < n; i++) {
        int32_t o;
        if (valid == NULL || valid[i])
            end += lens[j++];
        o = (int32_t)end;
        memcpy(v->offsets.data + v->offsets.len, &o, 4);
        v->offsets.len += 4;
    }
    for (size_t c = 0; c < cr->child_count; c++)
        if ((rc = pm_orc_colreader_decode(cr->children[c], (int64_t)sum, NULL, v->children[c],
                                          err)) != 0)
            return rc;
    return 0;
}

int pm_orc_colreader_decode(pm_orc_colreader *cr, int64_t n, const uint8_t *pmask, pm_orc_vec *v,
                            paimon_error *err)
{
    const uint8_t *valid;
    int64_t k;
    int rc;

    if (n <= 0)
        return 0;
    if (n > cr->max_values - v->length)
        return pm_err_set(err, PAIMON_ELIMIT,
                          "%s: ORC column %u: more than %lld values in one "
                          "batch",
                          cr->path, cr->column, (long long)cr->max_values);
    if ((rc = read_validity(cr, n, pmask, &k, &valid, err)) != 0)
        return rc;
    if ((rc = append_validity(v, valid, n, n - k)) != 0)
        return buf_rc(err, rc);
    switch (cr->type->kind) {
    case PM_ORC_BOOLEAN:
    case PM_ORC_BYTE: rc = decode_bytes_kind(cr, n, k, valid, v, err); break;
    case PM_ORC_SHORT: rc = decode_ints(cr, n, k, valid, v, 2, err); break;
    case PM_ORC_INT:
    case PM_ORC_DATE: rc = decode_ints(cr, n, k, valid, v, 4, err); break;
    case PM_ORC_LONG: rc = decode_ints(cr, n, k, valid, v, 8, err); break;
    case PM_ORC_FLOAT: rc = decode_floats(cr, n, k, valid, v, 4, err); break;
    case PM_ORC_DOUBLE: rc = decode_floats(cr, n, k, valid, v, 8, err); break;
    case PM_ORC_STRING:
    case PM_ORC_VARCHAR:
    case PM_ORC_BINARY: rc = decode_varlen(cr, n, k, valid, v, err); break;
    case PM_ORC_CHAR:
        if ((rc = decode_varlen(cr, n, k, valid, v, err)) == 0)
            trim_chars(cr->type, v, n);
        break;
    case PM_ORC_DECIMAL: rc = decode_decimal(cr, n, k, valid, v, err); break;
    case PM_ORC_TIMESTAMP:
    case PM_ORC_TIMESTAMP_INSTANT: rc = decode_timestamp(cr, n, k, valid, v, err); break;
    case PM_ORC_LIST:
    case PM_ORC_MAP: rc = decode_list(cr, n, k, valid, v, err); break;
    case PM_ORC_STRUCT: {
        /* the struct's validity is its fields' parent mask: copy it, cr->mask is reused */
        const uint8_t *child_mask = NULL;
        if (valid != NULL) {
            pm_buf_reset(&cr->scratch2);
            if ((rc = pm_buf_append(&cr->scratch2, valid, (size_t)n)) != 0)
                return buf_rc(err, rc);
            child_mask = cr->scratch2.data;
        }
        for (size_t c = 0; c < cr->child_count && rc == 0; c++)
            if (cr->children[c] != NULL)
                rc = pm_orc_colreader_decode(cr->children[c], n, child_mask, v->children[c], err);
        break;
    }
    case PM_ORC_UNION:
        rc =
            pm_err_set(err, PAIMON_EUNSUPPORTED, "%s: ORC union types are not supported", cr->path);
        break;
    }
    if (rc != 0)
        return rc;
    v->length += n;
    return 0;
}

/* ---- skipping -------------------------------------------------------------------------- */

/* Sums `k` lengths of the LENGTH stream without keeping them. */
PM_MUST_CHECK static int skip_lengths(pm_orc_colreader *cr, uint64_t k, uint64_t *sum,
                                      paimon_error *err)
{
    int64_t buf[256];
    uint64_t s = 0;
    while (k > 0) {
        size_t take = k < 256 ? (size_t)k : 256;
        if (!pm_orc_int_rle_read(cr->length_rle, buf, take))
            return bad(cr, "LENGTH", err);
        for (size_t i = 0; i < take; i++) {
            if (buf[i] < 0 || (uint64_t)buf[i] > MAX_VAR_BYTES)
                return bad(cr, "LENGTH", err);
            s += (uint64_t)buf[i];
        }
        k -= take;
    }
    *sum = s;
    return 0;
}

int pm_orc_colreader_skip(pm_orc_colreader *cr, uint64_t n, paimon_error *err)
{
    uint64_t k = n, sum;
    int rc = 0;
    if (n == 0)
        return 0;
    if (cr->present.exists) {
        uint8_t bits[512];
        k = 0;
        for (uint64_t left = n; left > 0;) {
            size_t take = left < sizeof(bits) ? (size_t)left : sizeof(bits);
            if (!pm_orc_bool_rle_read(&cr->present_rle, bits, take))
                return bad(cr, "PRESENT", err);
            for (size_t i = 0; i < take; i++)
                k += bits[i];
            left -= take;
        }
    }
    switch (cr->type->kind) {
    case PM_ORC_BOOLEAN: return pm_orc_bool_rle_skip(&cr->bool_rle, k) ? 0 : bad(cr, "DATA", err);
    case PM_ORC_BYTE: return pm_orc_byte_rle_skip(&cr->byte_rle, k) ? 0 : bad(cr, "DATA", err);
    case PM_ORC_SHORT:
    case PM_ORC_INT:
    case PM_ORC_LONG:
    case PM_ORC_DATE: return pm_orc_int_rle_skip(cr->data_rle, k) ? 0 : bad(cr, "DATA", err);
    case PM_ORC_FLOAT:
    case PM_ORC_DOUBLE: {
        uint64_t w = cr->type->kind == PM_ORC_FLOAT ? 4 : 8;
        if (k > (uint64_t)(cr->raw_end - cr->raw) / w)
            return bad(cr, "DATA", err);
        cr->raw += k * w;
        return 0;
    }
    case PM_ORC_STRING:
    case PM_ORC_VARCHAR:
    case PM_ORC_CHAR:
    case PM_ORC_BINARY:
        if (cr->encoding == PM_ORC_DICTIONARY || cr->encoding == PM_ORC_DICTIONARY_V2)
            return pm_orc_int_rle_skip(cr->data_rle, k) ? 0 : bad(cr, "DATA", err);
        if ((rc = skip_lengths(cr, k, &sum, err)) != 0)
            return rc;
        if (sum > (uint64_t)(cr->raw_end - cr->raw))
            return bad(cr, "DATA", err);
        cr->raw += sum;
        return 0;
    case PM_ORC_DECIMAL:
        if (cr->decimal64)
            return pm_orc_int_rle_skip(cr->data_rle, k) ? 0 : bad(cr, "DATA", err);
        for (uint64_t i = 0; i < k; i++) {
            __int128 x;
            if (!pm_orc_read_varint128(&cr->raw, cr->raw_end, &x))
                return bad(cr, "DATA", err);
        }
        return pm_orc_int_rle_skip(cr->secondary_rle, k) ? 0 : bad(cr, "SECONDARY", err);
    case PM_ORC_TIMESTAMP:
    case PM_ORC_TIMESTAMP_INSTANT:
        if (!pm_orc_int_rle_skip(cr->data_rle, k))
            return bad(cr, "DATA", err);
        return pm_orc_int_rle_skip(cr->secondary_rle, k) ? 0 : bad(cr, "SECONDARY", err);
    case PM_ORC_LIST:
    case PM_ORC_MAP:
        if ((rc = skip_lengths(cr, k, &sum, err)) != 0)
            return rc;
        for (size_t c = 0; c < cr->child_count && rc == 0; c++)
            rc = pm_orc_colreader_skip(cr->children[c], sum, err);
        return rc;
    case PM_ORC_STRUCT:
        for (size_t c = 0; c < cr->child_count && rc == 0; c++)
            if (cr->children[c] != NULL)
                rc = pm_orc_colreader_skip(cr->children[c], k, err);
        return rc;
    case PM_ORC_UNION: break;
    }
    return pm_err_set(err, PAIMON_EUNSUPPORTED, "%s: ORC union types are not supported", cr->path);
}

/* ---- stripes and seeking --------------------------------------------------------------- */

static bool is_dictionary(pm_orc_encoding_kind e)
{
    return e == PM_ORC_DICTIONARY || e == PM_ORC_DICTIONARY_V2;
}

static int rle_version(pm_orc_encoding_kind e)
{
    return e == PM_ORC_DIRECT_V2 || e == PM_ORC_DICTIONARY_V2 ? 2 : 1;
}

PM_MUST_CHECK static int need(const pm_orc_colreader *cr, const pm_orc_sbuf *s, const char *name,
                              paimon_error *err)
{
    if (s->exists)
        return 0;
    return pm_corrupt(err, "%s: ORC column %u (%s) has no %s stream", cr->path, cr->column,
                      pm_orc_kind_name(cr->type->kind), name);
}

/* Points every decoder at the start of its stream. */
static void reset_decoders(pm_orc_colreader *cr)
{
    int v = rle_version(cr->encoding);
    bool is_signed;
    pm_orc_bool_rle_init(&cr->present_rle, cr->present.buf.data, cr->present.buf.len);
    switch (cr->type->kind) {
    case PM_ORC_BOOLEAN:
        pm_orc_bool_rle_init(&cr->bool_rle, cr->data.buf.data, cr->data.buf.len);
        break;
    case PM_ORC_BYTE:
        pm_orc_byte_rle_init(&cr->byte_rle, cr->data.buf.data, cr->data.buf.len);
        break;
    default:
        /* dictionary ids are unsigned; every other integer DATA stream is signed */
        is_signed = !is_dictionary(cr->encoding);
        pm_orc_int_rle_init(cr->data_rle, cr->data.buf.data, cr->data.buf.len, is_signed, v);
        break;
    }
    cr->raw = sbytes(&cr->data);
    cr->raw_end = cr->raw + cr->data.buf.len;
    pm_orc_int_rle_init(cr->length_rle, cr->length.buf.data, cr->length.buf.len, false, v);
    /* SECONDARY: timestamp nanos are unsigned, decimal scales signed */
    pm_orc_int_rle_init(cr->secondary_rle, cr->secondary.buf.data, cr->secondary.buf.len,
                        cr->type->kind == PM_ORC_DECIMAL, v);
}

int pm_orc_colreader_start(pm_orc_colreader *cr, const pm_orc_encoding *enc, paimon_error *err)
{
    pm_orc_kind kind = cr->type->kind;
    int rc = 0;
    bool dict_ok = kind == PM_ORC_STRING || kind == PM_ORC_VARCHAR || kind == PM_ORC_CHAR;

    cr->encoding = enc->kind;
    cr->dict_size = enc->dictionary_size;
    if (is_dictionary(enc->kind) && !dict_ok)
        return pm_corrupt(err, "%s: ORC column %u (%s) has dictionary encoding", cr->path,
                          cr->column, pm_orc_kind_name(kind));
    switch (kind) {
    case PM_ORC_STRUCT: break;
    case PM_ORC_LIST:
    case PM_ORC_MAP: rc = need(cr, &cr->length, "LENGTH", err); break;
    case PM_ORC_STRING:
    case PM_ORC_VARCHAR:
    case PM_ORC_CHAR:
    case PM_ORC_BINARY:
        if ((rc = need(cr, &cr->data, "DATA", err)) == 0)
            rc = need(cr, &cr->length, "LENGTH", err);
        if (rc == 0 && is_dictionary(enc->kind) && cr->dict_size > 0)
            rc = need(cr, &cr->dict, "DICTIONARY_DATA", err);
        break;
    case PM_ORC_DECIMAL:
        if ((rc = need(cr, &cr->data, "DATA", err)) == 0 && !cr->decimal64)
            rc = need(cr, &cr->secondary, "SECONDARY", err);
        break;
    case PM_ORC_TIMESTAMP:
    case PM_ORC_TIMESTAMP_INSTANT:
        if ((rc = need(cr, &cr->data, "DATA", err)) == 0)
            rc = need(cr, &cr->secondary, "SECONDARY", err);
        break;
    default: rc = need(cr, &cr->data, "DATA", err); break;
    }
    if (rc != 0)
        return rc;
    reset_decoders(cr);
    if (is_dictionary(enc->kind)) {
        /* LENGTH holds the dictionary entries' lengths; DICTIONARY_DATA their bytes */
        uint32_t o = 0;
        uint64_t total = 0;
        int64_t buf[256];
        pm_buf_reset(&cr->dict_offsets);
        if ((rc = pm_buf_append(&cr->dict_offsets, &o, 4)) != 0)
            return buf_rc(err, rc);
        /* grown as the lengths decode, so a hostile dictionarySize allocates nothing */
        for (uint32_t i = 0; i < cr->dict_size;) {
            size_t take = cr->dict_size - i < 256 ? cr->dict_size - i : 256;
            if (!pm_orc_int_rle_read(cr->length_rle, buf, take))
                return bad(cr, "LENGTH", err);
            for (size_t j = 0; j < take; j++, i++) {
                if (buf[j] < 0 || (uint64_t)buf[j] > cr->dict.buf.len - total)
                    return bad(cr, "LENGTH (dictionary)", err);
                total += (uint64_t)buf[j];
                o = (uint32_t)total;
                if ((rc = pm_buf_append(&cr->dict_offsets, &o, 4)) != 0)
                    return buf_rc(err, rc);
            }
        }
    }
    return 0;
}

typedef struct pos_cursor {
    const pm_orc_index_entry *e;
    size_t i;
} pos_cursor;

static bool next_pos(pos_cursor *c, uint64_t *v)
{
    if (c->i >= c->e->position_count)
        return false;
    *v = c->e->positions[c->i++];
    return true;
}

/* The decompressed offset a stream position names. */
static bool stream_pos(const pm_orc_colreader *cr, const pm_orc_sbuf *s, pos_cursor *c, size_t *raw)
{
    uint64_t a, b = 0, base;
    if (!next_pos(c, &a))
        return false;
    if (cr->compressed) {
        if (!next_pos(c, &b) || !pm_orc_chunk_lookup(&s->map, a, &base))
            return false;
    } else {
        base = a;
    }
    if (base > s->buf.len || b > s->buf.len - base)
        return false;
    *raw = (size_t)(base + b);
    return true;
}

static bool seek_int(const pm_orc_colreader *cr, const pm_orc_sbuf *s, pm_orc_int_rle *r,
                     pos_cursor *c)
{
    size_t raw;
    uint64_t skip;
    if (!stream_pos(cr, s, c, &raw) || !next_pos(c, &skip))
        return false;
    pm_orc_int_rle_init(r, sbytes(s) + raw, s->buf.len - raw, r->is_signed, r->version);
    return pm_orc_int_rle_skip(r, skip);
}

static bool seek_bool(const pm_orc_colreader *cr, const pm_orc_sbuf *s, pm_orc_bool_rle *r,
                      pos_cursor *c)
{
    size_t raw;
    uint64_t bytes, bits;
    if (!stream_pos(cr, s, c, &raw) || !next_pos(c, &bytes) || !next_pos(c, &bits) || bits > 8 ||
        bytes > ((uint64_t)1 << 56))
        return false;
    pm_orc_bool_rle_init(r, sbytes(s) + raw, s->buf.len - raw);
    return pm_orc_bool_rle_skip(r, bytes * 8 + bits);
}

int pm_orc_colreader_seek(pm_orc_colreader *cr, const pm_orc_index_entry *entry, paimon_error *err)
{
    pos_cursor c = {entry, 0};
    size_t raw;
    bool ok = true;

    if (cr->present.exists && !seek_bool(cr, &cr->present, &cr->present_rle, &c))
        return bad(cr, "ROW_INDEX (PRESENT position)", err);
    switch (cr->type->kind) {
    case PM_ORC_BOOLEAN: ok = seek_bool(cr, &cr->data, &cr->bool_rle, &c); break;
    case PM_ORC_BYTE: {
        uint64_t skip;
        ok = stream_pos(cr, &cr->data, &c, &raw) && next_pos(&c, &skip);
        if (ok) {
            pm_orc_byte_rle_init(&cr->byte_rle, sbytes(&cr->data) + raw, cr->data.buf.len - raw);
            ok = pm_orc_byte_rle_skip(&cr->byte_rle, skip);
        }
        break;
    }
    case PM_ORC_SHORT:
    case PM_ORC_INT:
    case PM_ORC_LONG:
    case PM_ORC_DATE: ok = seek_int(cr, &cr->data, cr->data_rle, &c); break;
    case PM_ORC_FLOAT:
    case PM_ORC_DOUBLE:
        ok = stream_pos(cr, &cr->data, &c, &raw);
        if (ok)
            cr->raw = sbytes(&cr->data) + raw;
        break;
    case PM_ORC_STRING:
    case PM_ORC_VARCHAR:
    case PM_ORC_CHAR:
    case PM_ORC_BINARY:
        if (is_dictionary(cr->encoding)) {
            ok = seek_int(cr, &cr->data, cr->data_rle, &c);
        } else {
            ok = stream_pos(cr, &cr->data, &c, &raw);
            if (ok)
                cr->raw = sbytes(&cr->data) + raw;
            ok = ok && seek_int(cr, &cr->length, cr->length_rle, &c);
        }
        break;
    case PM_ORC_DECIMAL:
        if (cr->decimal64) {
            ok = seek_int(cr, &cr->data, cr->data_rle, &c);
        } else {
            ok = stream_pos(cr, &cr->data, &c, &raw);
            if (ok)
                cr->raw = sbytes(&cr->data) + raw;
            ok = ok && seek_int(cr, &cr->secondary, cr->secondary_rle, &c);
        }
        break;
    case PM_ORC_TIMESTAMP:
    case PM_ORC_TIMESTAMP_INSTANT:
        ok = seek_int(cr, &cr->data, cr->data_rle, &c) &&
             seek_int(cr, &cr->secondary, cr->secondary_rle, &c);
        break;
    case PM_ORC_LIST:
    case PM_ORC_MAP: ok = seek_int(cr, &cr->length, cr->length_rle, &c); break;
    case PM_ORC_STRUCT:
    case PM_ORC_UNION: break;
    }
    return ok ? 0 : bad(cr, "ROW_INDEX (positions)", err);
}
