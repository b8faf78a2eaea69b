/*
 * The page encoder of one leaf column: levels, dictionary with fallback, PLAIN values,
 * statistics, data pages v1 and the column chunk they make.  See writer.h for the layout
 * and writer_int.h for the interface.
 *
 * Dictionary (parquet-java's DictionaryValuesWriter + FallbackValuesWriter): values are
 * looked up in a hash table over the PLAIN-encoded dictionary.  When the dictionary grows
 * past dictionary_page_size the open page is re-encoded PLAIN and so is the rest of the
 * chunk; when the first page is ended, the dictionary must have made it smaller than PLAIN
 * (dictionary bytes + index bytes < PLAIN bytes), else that page is re-encoded PLAIN and the
 * dictionary dropped.  BOOLEAN columns are always PLAIN.
 */
#include <math.h>
#include <string.h>

#include "format/parquet/encoding.h"
#include "format/parquet/writer_int.h"
#include "util/alloc.h"
#include "util/bytes.h"
#include "util/hash.h"
#include "util/time.h"
#include "util/utf8.h"

#define MAX_STATS_BYTES 4096 /* parquet-java writes no min/max above this (min + max) */

typedef struct page_rec {
    int64_t off;       /* in the chunk's data pages */
    uint32_t block;    /* the page store block holding header + body */
    size_t block_off;  /* where the header starts in it */
    int32_t size;      /* header + body */
    int64_t first_row; /* in the row group */
    int64_t nulls;
    bool null_page;
    bool has_minmax;
    uint32_t min_off, min_len, max_off, max_len; /* into ci_bytes */
} page_rec;

struct pq_colw {
    const pq_wleaf *leaf;
    const pm_pq_writer_options *o;
    int width; /* fixed physical width (INT96 12, FLBA length), 0 for byte arrays */

    /* open page */
    pm_buf def, rep;
    int64_t entries, rows, values, nulls;
    bool page_dict;      /* the open page is dictionary-encoded */
    pm_buf idx;          /* its dictionary indices (uint32) */
    pm_buf plain;        /* or its PLAIN values */
    int64_t bits;        /* BOOLEAN: bits in `plain` */
    bool p_has;          /* page min/max known */
    bool p_nan_only;     /* the page had non-null values, all NaN */
    pm_buf p_min, p_max; /* physical bytes */

    /* dictionary */
    bool dict_on;      /* still dictionary-encoding this chunk */
    bool dict_used;    /* a finished page of this chunk used it */
    bool first_page;   /* no page of this chunk finished yet */
    uint32_t *slots;   /* hash table: entry + 1, 0 empty */
    uint32_t slot_cap; /* power of two */
    uint32_t dcount;   /* entries */
    pm_buf dplain;     /* PLAIN entries: the dictionary page body */
    pm_buf doff;       /* uint32 start of each entry in dplain */
    pm_buf dhash;      /* uint32 hash of each entry */

    /* chunk */
    pm_buf *blocks;       /* page store: finished data pages, each (header + compressed
                                body) contiguous in one block, in order; see store_page() */
    uint32_t block_count; /* blocks allocated (kept across row groups) */
    uint32_t block_used;  /* blocks holding pages of the open chunk */
    int64_t pages_len;    /* bytes of the finished data pages (headers + bodies) */
    int64_t pending;      /* the most bytes its pages out on compression jobs can take */
    pm_buf recs;          /* page_rec per finished page */
    pm_buf ci_bytes;      /* column index bounds */
    int64_t c_values, c_rows, c_unc, c_comp, c_nulls;
    bool c_has;
    pm_buf c_min, c_max;
    bool ci_ok; /* a column index can be written */
    int dict_pages, plain_pages;

    /* streaming (pm_pq_colw_stream): each finished page goes to segment seg + 1 of `sink`
     * at once and leaves the store; the dictionary page goes to segment seg at the end */
    pm_output *sink;
    size_t seg;
};

/* ---- setup ----------------------------------------------------------------------------- */

static void bufs_init(pq_colw *c)
{
    pm_buf *all[] = {&c->def,  &c->rep,   &c->idx,  &c->plain,    &c->p_min, &c->p_max, &c->dplain,
                     &c->doff, &c->dhash, &c->recs, &c->ci_bytes, &c->c_min, &c->c_max};
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
        pm_buf_init(all[i], 0);
}

pq_colw *pm_pq_colw_new(const pq_wleaf *leaf, const pm_pq_writer_options *o)
{
    pq_colw *c = pm_calloc(1, sizeof(*c));
    if (c == NULL)
        return NULL;
    c->leaf = leaf;
    c->o = o;
    bufs_init(c);
    c->width = leaf->phys == PQ_INT32 || leaf->phys == PQ_FLOAT    ? 4
               : leaf->phys == PQ_INT64 || leaf->phys == PQ_DOUBLE ? 8
               : leaf->phys == PQ_INT96                            ? 12
               : leaf->phys == PQ_FIXED_LEN_BYTE_ARRAY             ? leaf->type_length
                                                                   : 0;
    c->dict_on = o->dictionary && leaf->phys != PQ_BOOLEAN;
    c->page_dict = c->dict_on;
    c->first_page = true;
    c->ci_ok = true;
    return c;
}

void pm_pq_colw_free(pq_colw *c)
{
    if (c == NULL)
        return;
    pm_buf *all[] = {&c->def,  &c->rep,   &c->idx,  &c->plain,    &c->p_min, &c->p_max, &c->dplain,
                     &c->doff, &c->dhash, &c->recs, &c->ci_bytes, &c->c_min, &c->c_max};
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
        pm_buf_free(all[i]);
    for (uint32_t i = 0; i < c->block_count; i++)
        pm_buf_free(&c->blocks[i]);
    pm_free(c->blocks);
    pm_free(c->slots);
    pm_free(c);
}

/* ---- physical values ------------------------------------------------------------------- */

/* One value in physical form: fixed bytes in `fx`, or a byte array (ptr, len). */
typedef struct pval {
    const uint8_t *ptr;
    uint32_t len;
    uint8_t fx[16];
} pval;

/* Timestamp -> INT96: 8 bytes nanoseconds of the day, then 4 bytes Julian day, both
 * little-endian.  Java's ParquetRowDataWriter splits with truncating division, which gives
 * pre-1970 values a negative nanos-of-day; readers that take it as unsigned (hyparquet) then
 * misread them.  The floored split below is the standard form: it denotes the same instant
 * for every reader, Java Paimon's included (it adds the two parts as signed numbers). */
static void to_int96(int64_t v, int64_t per_second, uint8_t out[12])
{
    int64_t nanos_per_unit = 1000000000 / per_second;
    int64_t day_units = 86400 * per_second;
    int64_t days = pm_floor_div(v, day_units);
    int64_t nod = (v - days * day_units) * nanos_per_unit;
    pm_store_le64(out, (uint64_t)nod);
    pm_store_le32(out + 8, (uint32_t)(int32_t)(days + 2440588));
}

static void get_value(const pq_colw *c, const pm_column *col, int64_t i, pval *v)
{
    const pq_wleaf *l = c->leaf;
    const uint8_t *src = col->values.data;
    switch (l->conv) {
    case PQ_W_BYTES: {
        int32_t a = pm_column_offset(col, i), b = pm_column_offset(col, i + 1);
        v->ptr = src != NULL ? src + a : (const uint8_t *)"";
        v->len = (uint32_t)(b - a);
        return;
    }
    case PQ_W_BOOL:
        v->fx[0] = (src[i >> 3] >> (i & 7)) & 1;
        v->len = 1;
        break;
    case PQ_W_COPY:
        memcpy(v->fx, src + (size_t)i * col->width, col->width);
        v->len = col->width;
        break;
    case PQ_W_I8:
        pm_store_le32(v->fx, (uint32_t)(int32_t)(int8_t)src[i]);
        v->len = 4;
        break;
    case PQ_W_I16: {
        int16_t x;
        memcpy(&x, src + i * 2, 2);
        pm_store_le32(v->fx, (uint32_t)(int32_t)x);
        v->len = 4;
        break;
    }
    case PQ_W_DEC32:
    case PQ_W_DEC64:
    case PQ_W_DECFLBA: {
        pm_int128 d;
        memcpy(&d, src + i * 16, 16);
        if (l->conv == PQ_W_DEC32) {
            pm_store_le32(v->fx, (uint32_t)(int32_t)d);
            v->len = 4;
        } else if (l->conv == PQ_W_DEC64) {
            pm_store_le64(v->fx, (uint64_t)(int64_t)d);
            v->len = 8;
        } else {
            for (int k = 0; k < l->type_length; k++)
                v->fx[l->type_length - 1 - k] = (uint8_t)((unsigned __int128)d >> (8 * k));
            v->len = (uint32_t)l->type_length;
        }
        break;
    }
    case PQ_W_MUL64: {
        int64_t x;
        memcpy(&x, src + i * 8, 8);
        pm_store_le64(v->fx, (uint64_t)(x * l->factor));
        v->len = 8;
        break;
    }
    case PQ_W_DIV_I32: {
        int64_t x;
        memcpy(&x, src + i * 8, 8);
        x = x / l->factor - (x % l->factor < 0);
        pm_store_le32(v->fx, (uint32_t)(int32_t)x);
        v->len = 4;
        break;
    }
    case PQ_W_INT96: {
        int64_t x;
        memcpy(&x, src + i * 8, 8);
        to_int96(x, l->factor, v->fx);
        v->len = 12;
        break;
    }
    }
    v->ptr = v->fx;
}

/* ---- ordering -------------------------------------------------------------------------- */

static int cmp_phys(pq_worder o, const uint8_t *a, uint32_t al, const uint8_t *b, uint32_t bl)
{
    switch (o) {
    case PQ_ORD_BOOL: return (int)a[0] - (int)b[0];
    case PQ_ORD_I32: {
        int32_t x = (int32_t)pm_load_le32(a), y = (int32_t)pm_load_le32(b);
        return x < y ? -1 : x > y;
    }
    case PQ_ORD_I64: {
        int64_t x = (int64_t)pm_load_le64(a), y = (int64_t)pm_load_le64(b);
        return x < y ? -1 : x > y;
    }
    case PQ_ORD_FLOAT: {
        float x, y;
        memcpy(&x, a, 4);
        memcpy(&y, b, 4);
        return x < y ? -1 : x > y;
    }
    case PQ_ORD_DOUBLE: {
        double x, y;
        memcpy(&x, a, 8);
        memcpy(&y, b, 8);
        return x < y ? -1 : x > y;
    }
    case PQ_ORD_DECIMAL:
        if (al > 0 && bl > 0 && (a[0] ^ b[0]) & 0x80)
            return (a[0] & 0x80) ? -1 : 1;
        /* same sign, same length: unsigned comparison */
        __attribute__((fallthrough));
    default: {
        uint32_t n = al < bl ? al : bl;
        int r = n > 0 ? memcmp(a, b, n) : 0;
        if (r != 0)
            return r < 0 ? -1 : 1;
        return al < bl ? -1 : al > bl;
    }
    }
}

static bool is_nan(pq_worder o, const uint8_t *p)
{
    if (o == PQ_ORD_FLOAT) {
        float f;
        memcpy(&f, p, 4);
        return isnan(f);
    }
    if (o == PQ_ORD_DOUBLE) {
        double d;
        memcpy(&d, p, 8);
        return isnan(d);
    }
    return false;
}

static int set_buf(pm_buf *b, const uint8_t *p, uint32_t len)
{
    b->len = 0;
    return pm_buf_append(b, p, len);
}

/* ---- dictionary ------------------------------------------------------------------------ */

static uint32_t hash_bytes(const uint8_t *p, uint32_t len)
{
    uint64_t h = 0x9e3779b97f4a7c15ull ^ len;
    if (len == 8 || len == 4) {
        uint64_t v = len == 8 ? pm_load_le64(p) : pm_load_le32(p);
        v ^= v >> 33;
        v *= 0xff51afd7ed558ccdull;
        v ^= v >> 33;
        return (uint32_t)v;
    }
    uint32_t i = 0;
    for (; i + 8 <= len; i += 8) {
        h ^= pm_load_le64(p + i);
        h *= 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    if (i < len) {
        uint64_t t = 0;
        memcpy(&t, p + i, len - i);
        h ^= t;
        h *= 0xc4ceb9fe1a85ec53ull;
    }
    h ^= h >> 29;
    h *= 0x9e3779b97f4a7c15ull;
    return (uint32_t)(h >> 32);
}

static const uint8_t *entry_value(const pq_colw *c, uint32_t e, uint32_t *len)
{
    if (c->width > 0) {
        *len = (uint32_t)c->width;
        return c->dplain.data + (size_t)e * (size_t)c->width;
    }
    {
        uint32_t off = ((const uint32_t *)(const void *)c->doff.data)[e];
        *len = pm_load_le32(c->dplain.data + off);
        return c->dplain.data + off + 4;
    }
}

static int grow_slots(pq_colw *c)
{
    uint32_t cap = c->slot_cap == 0 ? 1024 : c->slot_cap * 2;
    uint32_t *s = pm_calloc(cap, sizeof(uint32_t));
    const uint32_t *hashes = (const uint32_t *)(const void *)c->dhash.data;
    if (s == NULL)
        return PAIMON_ENOMEM;
    for (uint32_t e = 0; e < c->dcount; e++) {
        uint32_t k = hashes[e] & (cap - 1);
        while (s[k] != 0)
            k = (k + 1) & (cap - 1);
        s[k] = e + 1;
    }
    pm_free(c->slots);
    c->slots = s;
    c->slot_cap = cap;
    return 0;
}

/* The dictionary index of a value, adding it when new. */
static int dict_index(pq_colw *c, const uint8_t *p, uint32_t len, uint32_t *out)
{
    uint32_t h = hash_bytes(p, len), k;
    const uint32_t *hashes;
    int rc;
    if ((uint64_t)(c->dcount + 1) * 2 > c->slot_cap && (rc = grow_slots(c)) != 0)
        return rc;
    hashes = (const uint32_t *)(const void *)c->dhash.data;
    for (k = h & (c->slot_cap - 1); c->slots[k] != 0; k = (k + 1) & (c->slot_cap - 1)) {
        uint32_t e = c->slots[k] - 1, el;
        const uint8_t *ev;
        if (hashes[e] != h)
            continue;
        ev = entry_value(c, e, &el);
        if (el == len && memcmp(ev, p, len) == 0) {
            *out = e;
            return 0;
        }
    }
    /* new entry */
    {
        uint32_t off = (uint32_t)c->dplain.len;
        uint8_t l4[4];
        if (c->width == 0) {
            pm_store_le32(l4, len);
            if ((rc = pm_buf_append(&c->dplain, l4, 4)) != 0)
                return rc;
        }
        if ((rc = pm_buf_append(&c->dplain, p, len)) != 0 ||
            (rc = pm_buf_append(&c->doff, &off, 4)) != 0 ||
            (rc = pm_buf_append(&c->dhash, &h, 4)) != 0)
            return rc;
        c->slots[k] = c->dcount + 1;
        *out = c->dcount++;
    }
    return 0;
}

/* Re-encodes the open page's dictionary indices as PLAIN values. */
static int page_to_plain(pq_colw *c)
{
    const uint32_t *idx = (const uint32_t *)(const void *)c->idx.data;
    size_t n = c->idx.len / 4;
    int rc = 0;
    c->plain.len = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        uint32_t len;
        const uint8_t *v = entry_value(c, idx[i], &len);
        if (c->width == 0) {
            uint8_t l4[4];
            pm_store_le32(l4, len);
            rc = pm_buf_append(&c->plain, l4, 4);
        }
        if (rc == 0)
            rc = pm_buf_append(&c->plain, v, len);
    }
    c->idx.len = 0;
    c->page_dict = false;
    return rc;
}

static void dict_reset(pq_colw *c)
{
    c->dcount = 0;
    c->dplain.len = 0;
    c->doff.len = 0;
    c->dhash.len = 0;
    if (c->slots != NULL)
        memset(c->slots, 0, c->slot_cap * sizeof(uint32_t));
}

/* ---- adding values --------------------------------------------------------------------- */

static int add_value(pq_colw *c, const pval *v)
{
    const pq_wleaf *l = c->leaf;
    int rc;
    /* statistics (NaN excluded, as Parquet readers expect) */
    if (l->order != PQ_ORD_NONE) {
        if (is_nan(l->order, v->ptr)) {
            if (!c->p_has)
                c->p_nan_only = true;
        } else if (!c->p_has) {
            if ((rc = set_buf(&c->p_min, v->ptr, v->len)) != 0 ||
                (rc = set_buf(&c->p_max, v->ptr, v->len)) != 0)
                return rc;
            c->p_has = true;
            c->p_nan_only = false;
        } else {
            if (cmp_phys(l->order, v->ptr, v->len, c->p_min.data, (uint32_t)c->p_min.len) < 0 &&
                (rc = set_buf(&c->p_min, v->ptr, v->len)) != 0)
                return rc;
            if (cmp_phys(l->order, v->ptr, v->len, c->p_max.data, (uint32_t)c->p_max.len) > 0 &&
                (rc = set_buf(&c->p_max, v->ptr, v->len)) != 0)
                return rc;
        }
    }
    if (c->page_dict) {
        uint32_t e;
        if ((rc = dict_index(c, v->ptr, v->len, &e)) != 0 ||
            (rc = pm_buf_append(&c->idx, &e, 4)) != 0)
            return rc;
        if ((int64_t)c->dplain.len > c->o->dict_page_size) {
            /* the dictionary is full: this page and the rest of the chunk go PLAIN */
            c->dict_on = false;
            return page_to_plain(c);
        }
        return 0;
    }
    if (l->phys == PQ_BOOLEAN) {
        size_t need = (size_t)(c->bits / 8 + 1);
        if (need > c->plain.len && (rc = pm_buf_zero(&c->plain, need - c->plain.len)) != 0)
            return rc;
        if (v->fx[0])
            c->plain.data[c->bits >> 3] |= (uint8_t)(1u << (c->bits & 7));
        c->bits++;
        return 0;
    }
    if (c->width == 0) {
        uint8_t l4[4];
        pm_store_le32(l4, v->len);
        if ((rc = pm_buf_append(&c->plain, l4, 4)) != 0)
            return rc;
    }
    return pm_buf_append(&c->plain, v->ptr, v->len);
}

/* ---- the fixed-width fast path -------------------------------------------------------- */

/* Bounds of n typed values (NaN left out); false when there is none. */
#define TYPED_BOUNDS(T, IS_NAN)                                                                    \
    do {                                                                                           \
        T lo = 0, hi = 0;                                                                          \
        bool any = false;                                                                          \
        for (int64_t k = 0; k < n; k++) {                                                          \
            T v;                                                                                   \
            memcpy(&v, src + (size_t)(idx != NULL ? idx[k] : first + k) * sizeof(T), sizeof(T));   \
            if (IS_NAN)                                                                            \
                continue;                                                                          \
            if (!any) {                                                                            \
                lo = hi = v;                                                                       \
                any = true;                                                                        \
            } else {                                                                               \
                lo = v < lo ? v : lo;                                                              \
                hi = v > hi ? v : hi;                                                              \
            }                                                                                      \
        }                                                                                          \
        if (any) {                                                                                 \
            memcpy(blo, &lo, sizeof(T));                                                           \
            memcpy(bhi, &hi, sizeof(T));                                                           \
        }                                                                                          \
        found = any;                                                                               \
    } while (0)

/* Merges the bounds [blo, bhi] of a run of values into the page's. */
static int merge_bounds(pq_colw *c, const uint8_t *blo, uint32_t lo_len, const uint8_t *bhi,
                        uint32_t hi_len)
{
    int rc;
    if (!c->p_has) {
        if ((rc = set_buf(&c->p_min, blo, lo_len)) != 0 ||
            (rc = set_buf(&c->p_max, bhi, hi_len)) != 0)
            return rc;
        c->p_has = true;
        c->p_nan_only = false;
        return 0;
    }
    if (cmp_phys(c->leaf->order, blo, lo_len, c->p_min.data, (uint32_t)c->p_min.len) < 0 &&
        (rc = set_buf(&c->p_min, blo, lo_len)) != 0)
        return rc;
    if (cmp_phys(c->leaf->order, bhi, hi_len, c->p_max.data, (uint32_t)c->p_max.len) > 0 &&
        (rc = set_buf(&c->p_max, bhi, hi_len)) != 0)
        return rc;
    return 0;
}

/* INT32/INT64/FLOAT/DOUBLE values whose batch bytes are their Parquet bytes: typed bounds,
 * then a memcpy (PLAIN) or a hash lookup per value (dictionary), without the per-value
 * conversion of the generic path. */
static int add_fixed(pq_colw *c, const uint8_t *src, uint32_t w, const int64_t *idx, int64_t first,
                     int64_t n)
{
    uint8_t blo[8], bhi[8];
    const uint8_t *prev = NULL; /* the previous value looked up, and its index */
    uint32_t prev_e = 0;
    bool found = false;
    int rc;

    switch (c->leaf->order) {
    case PQ_ORD_I32: TYPED_BOUNDS(int32_t, false); break;
    case PQ_ORD_I64: TYPED_BOUNDS(int64_t, false); break;
    case PQ_ORD_FLOAT: TYPED_BOUNDS(float, isnan(v)); break;
    case PQ_ORD_DOUBLE: TYPED_BOUNDS(double, isnan(v)); break;
    default: break;
    }
    if (found) {
        if ((rc = merge_bounds(c, blo, w, bhi, w)) != 0)
            return rc;
    } else if (n > 0 && !c->p_has) {
        c->p_nan_only = true;
    }
    for (int64_t k = 0; k < n; k++) {
        const uint8_t *p;
        uint32_t e;
        if (!c->page_dict) {
            /* the rest of the run, PLAIN */
            size_t bytes = (size_t)(n - k) * w;
            uint8_t *dst;
            if ((rc = pm_buf_reserve(&c->plain, bytes)) != 0)
                return rc;
            dst = c->plain.data + c->plain.len;
            if (idx == NULL)
                memcpy(dst, src + (size_t)(first + k) * w, bytes);
            else if (w == 8)
                for (int64_t j = k; j < n; j++, dst += 8)
                    memcpy(dst, src + (size_t)idx[j] * 8, 8);
            else
                for (int64_t j = k; j < n; j++, dst += 4)
                    memcpy(dst, src + (size_t)idx[j] * 4, 4);
            c->plain.len += bytes;
            return 0;
        }
        p = src + (size_t)(idx != NULL ? idx[k] : first + k) * w;
        /* a repeat of the previous value has its index (runs of low-cardinality columns) */
        if (prev == NULL || memcmp(p, prev, w) != 0) {
            if ((rc = dict_index(c, p, w, &prev_e)) != 0)
                return rc;
            prev = p;
        }
        e = prev_e;
        if ((rc = pm_buf_append(&c->idx, &e, 4)) != 0)
            return rc;
        if ((int64_t)c->dplain.len > c->o->dict_page_size) {
            c->dict_on = false;
            if ((rc = page_to_plain(c)) != 0)
                return rc;
        }
    }
    return 0;
}

/* TINYINT/SMALLINT: widened to INT32 in a scratch run, then the fixed-width path. */
static int add_small(pq_colw *c, pq_wctx *x, const pm_column *col, const int64_t *idx,
                     int64_t first, int64_t n)
{
    const uint8_t *src = col->values.data;
    int32_t *dst;
    int rc;
    x->conv.len = 0;
    if ((rc = pm_buf_reserve(&x->conv, (size_t)n * 4)) != 0)
        return rc;
    dst = (int32_t *)(void *)x->conv.data;
    if (col->width == 1)
        for (int64_t k = 0; k < n; k++)
            dst[k] = (int8_t)src[idx != NULL ? idx[k] : first + k];
    else
        for (int64_t k = 0; k < n; k++) {
            int16_t v;
            memcpy(&v, src + (size_t)(idx != NULL ? idx[k] : first + k) * 2, 2);
            dst[k] = v;
        }
    return add_fixed(c, x->conv.data, 4, NULL, 0, n);
}

/* Unsigned lexicographic order of byte strings (cmp_phys's PQ_ORD_BYTES), deciding most
 * pairs by their first bytes without a call. */
static inline int cmp_bytes_fast(const uint8_t *a, uint32_t al, const uint8_t *b, uint32_t bl)
{
    if (al >= 8 && bl >= 8) {
        uint64_t x = pm_load_be64(a), y = pm_load_be64(b);
        if (x != y)
            return x < y ? -1 : 1;
    }
    return cmp_phys(PQ_ORD_BYTES, a, al, b, bl);
}

/* Strings and binaries: the run's bounds by pointer (copied once), then a dictionary lookup
 * per value or one PLAIN append of the rest of the run. */
static int add_bytes(pq_colw *c, const pm_column *col, const int64_t *idx, int64_t first, int64_t n)
{
    static const uint8_t EMPTY[1] = {0};
    const uint8_t *src = col->values.data != NULL ? col->values.data : EMPTY;
    const uint8_t *lp = NULL, *hp = NULL;
    uint32_t ll = 0, hl = 0;
    int rc;

    if (n == 0)
        return 0;
    for (int64_t k = 0; k < n; k++) {
        int64_t i = idx != NULL ? idx[k] : first + k;
        int32_t a = pm_column_offset(col, i), b = pm_column_offset(col, i + 1);
        const uint8_t *p = src + a;
        uint32_t len = (uint32_t)(b - a);
        if (lp == NULL) {
            lp = hp = p;
            ll = hl = len;
            continue;
        }
        if (cmp_bytes_fast(p, len, lp, ll) < 0) {
            lp = p;
            ll = len;
        } else if (cmp_bytes_fast(p, len, hp, hl) > 0) {
            hp = p;
            hl = len;
        }
    }
    if ((rc = merge_bounds(c, lp, ll, hp, hl)) != 0)
        return rc;
    for (int64_t k = 0; k < n; k++) {
        int64_t i;
        int32_t a, b;
        uint32_t e;
        if (!c->page_dict) {
            /* the rest of the run, PLAIN: 4-byte length, then the bytes */
            size_t bytes = 0;
            uint8_t *dst;
            for (int64_t j = k; j < n; j++) {
                i = idx != NULL ? idx[j] : first + j;
                bytes += 4 + (size_t)(pm_column_offset(col, i + 1) - pm_column_offset(col, i));
            }
            if ((rc = pm_buf_reserve(&c->plain, bytes)) != 0)
                return rc;
            dst = c->plain.data + c->plain.len;
            for (int64_t j = k; j < n; j++) {
                uint32_t len;
                i = idx != NULL ? idx[j] : first + j;
                a = pm_column_offset(col, i);
                len = (uint32_t)(pm_column_offset(col, i + 1) - a);
                pm_store_le32(dst, len);
                memcpy(dst + 4, src + a, len);
                dst += 4 + len;
            }
            c->plain.len += bytes;
            return 0;
        }
        i = idx != NULL ? idx[k] : first + k;
        a = pm_column_offset(col, i);
        b = pm_column_offset(col, i + 1);
        if ((rc = dict_index(c, src + a, (uint32_t)(b - a), &e)) != 0 ||
            (rc = pm_buf_append(&c->idx, &e, 4)) != 0)
            return rc;
        if ((int64_t)c->dplain.len > c->o->dict_page_size) {
            c->dict_on = false;
            if ((rc = page_to_plain(c)) != 0)
                return rc;
        }
    }
    return 0;
}

int pm_pq_colw_add(pq_colw *c, pq_wctx *x, const uint8_t *def, const uint8_t *rep, int64_t entries,
                   int64_t rows, const pm_column *col, const int64_t *idx, int64_t first,
                   int64_t values, paimon_error *err)
{
    const pq_wleaf *l = c->leaf;
    int rc = 0;
    if (l->max_def > 0 && (rc = pm_buf_append(&c->def, def, (size_t)entries)) != 0)
        return pm_buf_error(err, rc);
    if (l->max_rep > 0 && (rc = pm_buf_append(&c->rep, rep, (size_t)entries)) != 0)
        return pm_buf_error(err, rc);
    c->entries += entries;
    c->rows += rows;
    c->values += values;
    c->nulls += entries - values;
    if (l->conv == PQ_W_DEC32 || l->conv == PQ_W_DEC64 || l->conv == PQ_W_DECFLBA) {
        /* a value beyond the precision would be cut to the physical width */
        pm_int128 lim = 1;
        for (int k = 0; k < l->type->precision; k++)
            lim *= 10;
        for (int64_t k = 0; k < values; k++) {
            pm_int128 d;
            memcpy(&d, col->values.data + (size_t)(idx != NULL ? idx[k] : first + k) * 16, 16);
            if (d >= lim || d <= -lim)
                return pm_err_set(
                    err, PAIMON_EINVALID, "column %s: a value exceeds DECIMAL(%d, %d)",
                    l->path[l->path_len - 1], (int)l->type->precision, (int)l->type->scale);
        }
    }
    if (l->conv == PQ_W_COPY && (col->width == 4 || col->width == 8))
        rc = add_fixed(c, col->values.data, col->width, idx, first, values);
    else if (l->conv == PQ_W_I8 || l->conv == PQ_W_I16)
        rc = add_small(c, x, col, idx, first, values);
    else if (l->conv == PQ_W_BYTES && l->order == PQ_ORD_BYTES)
        rc = add_bytes(c, col, idx, first, values);
    else
        for (int64_t k = 0; k < values && rc == 0; k++) {
            pval v;
            get_value(c, col, idx != NULL ? idx[k] : first + k, &v);
            rc = add_value(c, &v);
        }
    return rc != 0 ? pm_buf_error(err, rc) : 0;
}

int64_t pm_pq_colw_page_rows(const pq_colw *c)
{
    return c->rows;
}

int64_t pm_pq_colw_buffered(const pq_colw *c)
{
    return (int64_t)(c->pages_len + c->pending + c->dplain.len + c->plain.len + c->idx.len / 2 +
                     c->def.len / 4 + c->rep.len / 4);
}

/* ---- pages ----------------------------------------------------------------------------- */

static int put_levels(pm_buf *raw, const pm_buf *levels, int max)
{
    pm_rle_encoder e;
    size_t at = raw->len;
    int rc = pm_buf_zero(raw, 4);
    if (rc != 0)
        return rc;
    pm_rle_encoder_init(&e, raw, pm_pq_bit_width((uint64_t)max));
    for (size_t i = 0; i < levels->len; i++)
        pm_rle_put(&e, levels->data[i]);
    if ((rc = pm_rle_finish(&e)) != 0)
        return rc;
    pm_store_le32(raw->data + at, (uint32_t)(raw->len - at - 4));
    return 0;
}

pm_codec pm_pq_codec_of(int codec)
{
    switch (codec) {
    case PQ_UNCOMPRESSED: return PM_CODEC_NONE;
    case PQ_SNAPPY: return PM_CODEC_SNAPPY;
    case PQ_GZIP: return PM_CODEC_GZIP;
    case PQ_LZ4_RAW: return PM_CODEC_LZ4_RAW;
    default: return PM_CODEC_ZSTD;
    }
}

/* Compresses x->raw into the body (x->comp, or x->raw itself for UNCOMPRESSED). */
PM_MUST_CHECK static int compress_raw(pq_wctx *x, const pm_buf **body, paimon_error *err)
{
    if (x->o->codec == PQ_UNCOMPRESSED) {
        *body = &x->raw;
        return 0;
    }
    x->comp.len = 0;
    *body = &x->comp;
    return pm_compress(x->codec, pm_pq_codec_of(x->o->codec), x->o->level, x->raw.data, x->raw.len,
                       &x->comp, err);
}

/*
 * The page store.  A finished data page is compressed straight into a block of the store,
 * HEADER_ROOM bytes after the block's end, and its header, known once the body is, is then
 * put right in front of the body: a page is written with one write and its body is never
 * copied -- except a page compressed by a job on the pool (page_jobs.c), whose body is
 * copied in once the job is taken back (the store's blocks may not be written from another
 * thread while the writer fills them).  The gap before a header (HEADER_ROOM minus its length) is never written.  Blocks
 * grow from 64 KiB (or the first page's size) to 16 MiB and are kept for the next row
 * group, so a chunk of any size costs no realloc copy, and a small file -- most files of a
 * streaming commit -- reserves 64 KiB per column, not the 1 MiB a first block used to take
 * (100 columns flushed in 8 buckets at once reserved 800 MiB; each block a fresh mapping,
 * which under ASan dominated the time of the fault-injection tests).
 */
#define HEADER_ROOM 64 /* a v1 data page header without statistics takes under 40 bytes */
#define BLOCK_MIN   (64u << 10)
#define BLOCK_MAX   (16u << 20)

/* A block with room for `need` more bytes: the current one, or the next (reused or new). */
static int store_block(pq_colw *c, size_t need, pm_buf **out)
{
    pm_buf *b = c->block_used > 0 ? &c->blocks[c->block_used - 1] : NULL;
    int rc;
    if (b != NULL && b->cap - b->len >= need) {
        *out = b;
        return 0;
    }
    if (c->block_used == c->block_count) {
        /* each new block twice the size of the last (read before the array moves) */
        size_t cap = c->block_count == 0 ? BLOCK_MIN : c->blocks[c->block_count - 1].cap * 2;
        pm_buf *grown = pm_realloc(c->blocks, (c->block_count + 1) * sizeof(pm_buf));
        if (grown == NULL)
            return PAIMON_ENOMEM;
        c->blocks = grown;
        pm_buf_init(&c->blocks[c->block_count], 0);
        if (cap > BLOCK_MAX)
            cap = BLOCK_MAX;
        if ((rc = pm_buf_reserve(&c->blocks[c->block_count], cap > need ? cap : need)) != 0)
            return rc;
        c->block_count++;
    }
    b = &c->blocks[c->block_used++];
    b->len = 0;
    if ((rc = pm_buf_reserve(b, need)) != 0)
        return rc;
    *out = b;
    return 0;
}

PM_MUST_CHECK static int put_header(pq_colw *c, pq_wctx *x, pq_page_header *h, pm_buf *b,
                                    size_t body_off, size_t body_len, uint32_t crc, page_rec *rec,
                                    paimon_error *err);

/* Compresses x->raw into the store; `h` gets the sizes and CRC, then its header is written
 * in front of the body.  Fills rec->block, rec->block_off and rec->size. */
PM_MUST_CHECK static int store_page(pq_colw *c, pq_wctx *x, pq_page_header *h, page_rec *rec,
                                    paimon_error *err)
{
    pm_buf *b;
    size_t body_off, body_len;
    /* room for the header and the compressed body; zstd's bound is the raw size plus
     * 1/256, the other codecs reserve more themselves if they need it */
    size_t need = HEADER_ROOM + x->raw.len + x->raw.len / 128 + 1024;
    int rc;

    if ((rc = store_block(c, need, &b)) != 0)
        return pm_buf_error(err, rc);
    b->len += HEADER_ROOM;
    body_off = b->len;
    if (x->o->codec == PQ_UNCOMPRESSED) {
        if ((rc = pm_buf_append(b, x->raw.data, x->raw.len)) != 0)
            return pm_buf_error(err, rc);
    } else if ((rc = pm_compress(x->codec, pm_pq_codec_of(x->o->codec), x->o->level, x->raw.data,
                                 x->raw.len, b, err)) != 0) {
        return rc;
    }
    body_len = b->len - body_off;
    return put_header(c, x, h, b, body_off, body_len,
                      (uint32_t)pm_crc32(b->data + body_off, body_len), rec, err);
}

/* Writes the header of the page whose body is b[body_off, + body_len) in front of it
 * (HEADER_ROOM was left there) and fills rec->block, rec->block_off and rec->size. */
PM_MUST_CHECK static int put_header(pq_colw *c, pq_wctx *x, pq_page_header *h, pm_buf *b,
                                    size_t body_off, size_t body_len, uint32_t crc, page_rec *rec,
                                    paimon_error *err)
{
    pm_thrift_writer tw;
    if (body_len > INT32_MAX)
        return pm_err_set(err, PAIMON_ELIMIT, "parquet: a page larger than 2 GiB");
    h->compressed_size = (int32_t)body_len;
    h->crc = (int32_t)crc;
    x->hdr.len = 0;
    pm_thrift_writer_init(&tw, &x->hdr);
    pm_pq_write_page_header(&tw, h);
    if (tw.rc != 0)
        return pm_buf_error(err, tw.rc);
    if (x->hdr.len > HEADER_ROOM)
        return pm_err_set(err, PAIMON_ELIMIT, "parquet: a page header of %zu bytes", x->hdr.len);
    memcpy(b->data + body_off - x->hdr.len, x->hdr.data, x->hdr.len);
    rec->block = c->block_used - 1;
    rec->block_off = body_off - x->hdr.len;
    rec->size = (int32_t)(x->hdr.len + body_len);
    return 0;
}

int pm_pq_colw_page_done(pq_colw *c, pq_wctx *x, size_t rec_at, pq_page_header *h,
                         const pm_buf *body, size_t raw_len, uint32_t crc, paimon_error *err)
{
    page_rec *rec = (page_rec *)(void *)c->recs.data + rec_at;
    pm_buf *b;
    size_t body_off;
    int rc;
    if ((rc = store_block(c, HEADER_ROOM + body->len, &b)) != 0)
        return pm_buf_error(err, rc);
    b->len += HEADER_ROOM;
    body_off = b->len;
    if ((rc = pm_buf_append(b, body->data, body->len)) != 0)
        return pm_buf_error(err, rc);
    if ((rc = put_header(c, x, h, b, body_off, body->len, crc, rec, err)) != 0)
        return rc;
    rec->off = c->pages_len;
    c->pages_len += rec->size;
    c->c_unc += (int64_t)x->hdr.len + (int64_t)raw_len;
    c->c_comp += rec->size;
    c->pending -= (int64_t)pm_pq_page_jobs_bound(raw_len);
    return 0;
}

static void fix_zero(pq_worder o, pm_buf *min, pm_buf *max)
{
    /* min +0.0 is written as -0.0 and max -0.0 as +0.0, so readers that compare with the
     * bounds never exclude the other zero */
    if (o == PQ_ORD_FLOAT) {
        float a, b;
        memcpy(&a, min->data, 4);
        memcpy(&b, max->data, 4);
        if (a == 0.0f) {
            a = -0.0f;
            memcpy(min->data, &a, 4);
        }
        if (b == 0.0f) {
            b = 0.0f;
            memcpy(max->data, &b, 4);
        }
    } else if (o == PQ_ORD_DOUBLE) {
        double a, b;
        memcpy(&a, min->data, 8);
        memcpy(&b, max->data, 8);
        if (a == 0.0) {
            a = -0.0;
            memcpy(min->data, &a, 8);
        }
        if (b == 0.0) {
            b = 0.0;
            memcpy(max->data, &b, 8);
        }
    }
}

/* A column-index bound: byte arrays longer than the truncate length are cut (the minimum
 * at a UTF-8 character boundary for strings), the maximum then incremented at its last
 * byte below 0x7f (0xff for binaries) so it stays an upper bound; when that is impossible
 * the value is kept whole. */
static int index_bound(pq_colw *c, const pm_buf *v, bool is_max)
{
    uint32_t len = (uint32_t)v->len, cut = (uint32_t)c->o->index_truncate;
    int rc;
    if (c->leaf->order != PQ_ORD_BYTES || cut == 0 || len <= cut)
        return pm_buf_append(&c->ci_bytes, v->data, len);
    if (c->leaf->is_string)
        cut = (uint32_t)pm_utf8_char_start(v->data, 0, cut);
    if (!is_max)
        return cut > 0 ? pm_buf_append(&c->ci_bytes, v->data, cut)
                       : pm_buf_append(&c->ci_bytes, v->data, len);
    {
        uint8_t limit = c->leaf->is_string ? 0x7f : 0xff;
        uint32_t k = cut;
        while (k > 0 && v->data[k - 1] >= limit)
            k--;
        if (k == 0)
            return pm_buf_append(&c->ci_bytes, v->data, len);
        if ((rc = pm_buf_append(&c->ci_bytes, v->data, k)) != 0)
            return rc;
        c->ci_bytes.data[c->ci_bytes.len - 1]++;
        return 0;
    }
}

PM_MUST_CHECK static int flush_page(pq_colw *c, pq_wctx *x, paimon_error *err)
{
    const pq_wleaf *l = c->leaf;
    pq_page_header h;
    page_rec rec;
    bool async;
    int rc;

    if (c->entries == 0)
        return 0;
    if (c->page_dict && c->first_page) {
        /* parquet-java's isCompressionSatisfying on the first page */
        int64_t plain_bytes = 0, idx_bytes;
        const uint32_t *idx = (const uint32_t *)(const void *)c->idx.data;
        for (size_t i = 0; i < c->idx.len / 4; i++) {
            uint32_t len;
            entry_value(c, idx[i], &len);
            plain_bytes += len + (c->width == 0 ? 4 : 0);
        }
        idx_bytes = (c->values * pm_pq_bit_width(c->dcount > 0 ? c->dcount - 1 : 0) + 7) / 8;
        if ((int64_t)c->dplain.len + idx_bytes >= plain_bytes) {
            if ((rc = page_to_plain(c)) != 0)
                return pm_buf_error(err, rc);
            c->dict_on = false;
            dict_reset(c);
        }
    }
    x->raw.len = 0;
    if ((l->max_rep > 0 && (rc = put_levels(&x->raw, &c->rep, l->max_rep)) != 0) ||
        (l->max_def > 0 && (rc = put_levels(&x->raw, &c->def, l->max_def)) != 0))
        return pm_buf_error(err, rc);
    if (c->page_dict) {
        pm_rle_encoder e;
        const uint32_t *idx = (const uint32_t *)(const void *)c->idx.data;
        uint8_t width = (uint8_t)pm_pq_bit_width(c->dcount > 0 ? c->dcount - 1 : 0);
        if ((rc = pm_buf_putc(&x->raw, width)) != 0)
            return pm_buf_error(err, rc);
        pm_rle_encoder_init(&e, &x->raw, width);
        for (size_t i = 0; i < c->idx.len / 4; i++)
            pm_rle_put(&e, idx[i]);
        if ((rc = pm_rle_finish(&e)) != 0)
            return pm_buf_error(err, rc);
    } else if ((rc = pm_buf_append(&x->raw, c->plain.data, c->plain.len)) != 0) {
        return pm_buf_error(err, rc);
    }
    if (x->raw.len > INT32_MAX)
        return pm_err_set(err, PAIMON_ELIMIT, "parquet: a page larger than 2 GiB");
    memset(&h, 0, sizeof(h));
    h.type = PQ_DATA_PAGE;
    h.uncompressed_size = (int32_t)x->raw.len;
    h.has_crc = c->o->write_crc;
    h.has_data = true;
    h.num_values = (int32_t)c->entries;
    h.encoding = c->page_dict ? PQ_PLAIN_DICTIONARY : PQ_PLAIN;
    h.def_encoding = l->max_def > 0 ? PQ_RLE : PQ_BIT_PACKED;
    h.rep_encoding = l->max_rep > 0 ? PQ_RLE : PQ_BIT_PACKED;
    memset(&rec, 0, sizeof(rec));
    /* on a pool the page is compressed by a job and stored when it is taken back
     * (pm_pq_colw_page_done); a streamed chunk's pages leave at once, in place */
    async = x->jobs != NULL && c->sink == NULL && x->o->codec != PQ_UNCOMPRESSED;
    if (!async && (rc = store_page(c, x, &h, &rec, err)) != 0)
        return rc;
    if (c->sink != NULL) {
        const pm_buf *b = &c->blocks[rec.block];
        if ((rc = c->sink->segment_write(c->sink, c->seg + 1, b->data + rec.block_off,
                                         (size_t)rec.size, err)) != 0)
            return rc;
        c->block_used = 0; /* the store held this page only */
    }
    rec.off = c->pages_len;
    rec.first_row = c->c_rows;
    rec.nulls = c->nulls;
    rec.null_page = c->values == 0;
    if (c->p_nan_only)
        c->ci_ok = false; /* a NaN bound is no bound: no column index for this chunk */
    if (c->p_has) {
        fix_zero(l->order, &c->p_min, &c->p_max);
        rec.has_minmax = true;
        rec.min_off = (uint32_t)c->ci_bytes.len;
        if ((rc = index_bound(c, &c->p_min, false)) != 0)
            return pm_buf_error(err, rc);
        rec.min_len = (uint32_t)c->ci_bytes.len - rec.min_off;
        rec.max_off = (uint32_t)c->ci_bytes.len;
        if ((rc = index_bound(c, &c->p_max, true)) != 0)
            return pm_buf_error(err, rc);
        rec.max_len = (uint32_t)c->ci_bytes.len - rec.max_off;
        /* chunk bounds */
        if (!c->c_has) {
            if ((rc = set_buf(&c->c_min, c->p_min.data, (uint32_t)c->p_min.len)) != 0 ||
                (rc = set_buf(&c->c_max, c->p_max.data, (uint32_t)c->p_max.len)) != 0)
                return pm_buf_error(err, rc);
            c->c_has = true;
        } else {
            if (cmp_phys(l->order, c->p_min.data, (uint32_t)c->p_min.len, c->c_min.data,
                         (uint32_t)c->c_min.len) < 0 &&
                (rc = set_buf(&c->c_min, c->p_min.data, (uint32_t)c->p_min.len)) != 0)
                return pm_buf_error(err, rc);
            if (cmp_phys(l->order, c->p_max.data, (uint32_t)c->p_max.len, c->c_max.data,
                         (uint32_t)c->c_max.len) > 0 &&
                (rc = set_buf(&c->c_max, c->p_max.data, (uint32_t)c->p_max.len)) != 0)
                return pm_buf_error(err, rc);
        }
    } else if (c->values > 0) {
        c->ci_ok = false; /* values without bounds (NaN only, or no order) */
    }
    if ((rc = pm_buf_append(&c->recs, &rec, sizeof(rec))) != 0)
        return pm_buf_error(err, rc);
    if (async) {
        c->pending += (int64_t)pm_pq_page_jobs_bound(x->raw.len);
        if ((rc = pm_pq_page_jobs_submit(x, c, c->recs.len / sizeof(rec) - 1, &h, err)) != 0)
            return rc;
    } else {
        c->pages_len += rec.size;
        c->c_unc += (int64_t)x->hdr.len + (int64_t)x->raw.len;
        c->c_comp += rec.size;
    }
    c->c_values += c->entries;
    c->c_rows += c->rows;
    c->c_nulls += c->nulls;
    if (c->page_dict) {
        c->dict_pages++;
        c->dict_used = true;
    } else {
        c->plain_pages++;
    }
    c->first_page = false;
    /* the next page */
    c->entries = c->rows = c->values = c->nulls = 0;
    c->def.len = c->rep.len = c->idx.len = c->plain.len = 0;
    c->bits = 0;
    c->p_has = c->p_nan_only = false;
    c->page_dict = c->dict_on;
    return 0;
}

int pm_pq_colw_maybe_flush(pq_colw *c, pq_wctx *x, bool force, paimon_error *err)
{
    int64_t est;
    if (c->entries == 0)
        return 0;
    est = (int64_t)(c->def.len + c->rep.len) / 4 +
          (c->page_dict ? (int64_t)c->idx.len / 2 : (int64_t)c->plain.len);
    if (force || c->rows >= c->o->page_row_limit || est >= c->o->page_size)
        return flush_page(c, x, err);
    return 0;
}

/* ---- chunks ---------------------------------------------------------------------------- */

static int boundary_order(const pq_colw *c, const page_rec *recs, uint32_t n)
{
    bool asc = true, desc = true;
    const page_rec *prev = NULL;
    for (uint32_t i = 0; i < n; i++) {
        const page_rec *r = &recs[i];
        if (!r->has_minmax)
            continue;
        if (prev != NULL) {
            int a = cmp_phys(c->leaf->order, c->ci_bytes.data + prev->min_off, prev->min_len,
                             c->ci_bytes.data + r->min_off, r->min_len);
            int b = cmp_phys(c->leaf->order, c->ci_bytes.data + prev->max_off, prev->max_len,
                             c->ci_bytes.data + r->max_off, r->max_len);
            asc &= a <= 0 && b <= 0;
            desc &= a >= 0 && b >= 0;
        }
        prev = r;
    }
    return asc ? 1 : desc ? 2 : 0;
}

void pm_pq_colw_stream(pq_colw *c, pm_output *sink, size_t seg)
{
    c->sink = sink;
    c->seg = seg;
}

/* Bytes of the chunk: to its segment when streaming, else to the file in order. */
PM_MUST_CHECK static int chunk_write(pq_colw *c, pm_output *out, size_t seg, const void *p,
                                     size_t n, paimon_error *err)
{
    if (n == 0)
        return 0;
    return c->sink != NULL ? c->sink->segment_write(c->sink, seg, p, n, err)
                           : out->write(out, p, n, err);
}

int pm_pq_colw_finish(pq_colw *c, pq_wctx *x, pm_output *out, int64_t start, pm_arena *a,
                      pq_column_chunk *cc, pq_column_index **ci_out, pq_offset_index **oi_out,
                      paimon_error *err)
{
    const pq_wleaf *l = c->leaf;
    pq_column_meta *m = &cc->meta;
    const page_rec *recs;
    uint32_t n;
    int64_t dict_len = 0, dict_unc = 0;
    int rc;

    *ci_out = NULL;
    *oi_out = NULL;
    /* the open page, then every page still on a job (of any column: they come back in
     * order) */
    if ((rc = flush_page(c, x, err)) != 0 || (rc = pm_pq_page_jobs_drain(x, err)) != 0)
        return rc;
    memset(cc, 0, sizeof(*cc));
    if (c->dict_used) {
        pq_page_header h;
        pm_thrift_writer tw;
        const pm_buf *body;
        x->raw.len = 0;
        if ((rc = pm_buf_append(&x->raw, c->dplain.data, c->dplain.len)) != 0)
            return pm_buf_error(err, rc);
        if ((rc = compress_raw(x, &body, err)) != 0)
            return rc;
        memset(&h, 0, sizeof(h));
        h.type = PQ_DICTIONARY_PAGE;
        h.uncompressed_size = (int32_t)x->raw.len;
        h.compressed_size = (int32_t)body->len;
        h.has_crc = c->o->write_crc;
        h.crc = (int32_t)pm_crc32(body->data, body->len);
        h.has_dict = true;
        h.dict_num_values = (int32_t)c->dcount;
        h.dict_encoding = PQ_PLAIN_DICTIONARY;
        x->hdr.len = 0;
        pm_thrift_writer_init(&tw, &x->hdr);
        pm_pq_write_page_header(&tw, &h);
        if (tw.rc != 0)
            return pm_buf_error(err, tw.rc);
        if ((rc = chunk_write(c, out, c->seg, x->hdr.data, x->hdr.len, err)) != 0 ||
            (rc = chunk_write(c, out, c->seg, body->data, body->len, err)) != 0)
            return rc;
        dict_len = (int64_t)(x->hdr.len + body->len);
        dict_unc = (int64_t)(x->hdr.len + x->raw.len);
    }
    recs = (const page_rec *)(const void *)c->recs.data;
    n = (uint32_t)(c->recs.len / sizeof(page_rec));
    for (uint32_t i = 0; i < n && c->sink == NULL; i++) /* streamed pages went out already */
        if ((rc = chunk_write(c, out, 0, c->blocks[recs[i].block].data + recs[i].block_off,
                              (size_t)recs[i].size, err)) != 0)
            return rc;

    /* ColumnMetaData */
    m->type = l->phys;
    if ((m->encodings = pm_arena_calloc(a, 4, sizeof(int32_t))) == NULL)
        return pm_nomem(err);
    if (c->dict_used)
        m->encodings[m->encoding_count++] = PQ_PLAIN_DICTIONARY;
    if (c->plain_pages > 0)
        m->encodings[m->encoding_count++] = PQ_PLAIN;
    if (l->max_def > 0 || l->max_rep > 0)
        m->encodings[m->encoding_count++] = PQ_RLE;
    if (l->max_def == 0 || l->max_rep == 0)
        m->encodings[m->encoding_count++] = PQ_BIT_PACKED;
    m->path = l->path;
    m->path_len = l->path_len;
    m->codec = c->o->codec;
    m->num_values = c->c_values;
    m->total_uncompressed_size = c->c_unc + dict_unc;
    m->total_compressed_size = c->c_comp + dict_len;
    m->data_page_offset = start + dict_len;
    if (c->dict_used) {
        m->has_dictionary_page_offset = true;
        m->dictionary_page_offset = start;
        m->enc_stats[m->enc_stat_count++] =
            (pq_enc_stat){PQ_DICTIONARY_PAGE, PQ_PLAIN_DICTIONARY, 1};
    }
    if (c->dict_pages > 0)
        m->enc_stats[m->enc_stat_count++] =
            (pq_enc_stat){PQ_DATA_PAGE, PQ_PLAIN_DICTIONARY, c->dict_pages};
    if (c->plain_pages > 0)
        m->enc_stats[m->enc_stat_count++] = (pq_enc_stat){PQ_DATA_PAGE, PQ_PLAIN, c->plain_pages};
    /* Statistics, as parquet-java's toParquetStatistics writes them */
    m->has_stats = true;
    m->stats.has_null_count = true;
    m->stats.null_count = c->c_nulls;
    if (c->c_has && c->c_min.len + c->c_max.len < MAX_STATS_BYTES) {
        uint8_t *lo = pm_arena_dup(a, c->c_min.data, c->c_min.len);
        uint8_t *hi = pm_arena_dup(a, c->c_max.data, c->c_max.len);
        bool same;
        if (lo == NULL || hi == NULL)
            return pm_nomem(err);
        same = c->c_min.len == c->c_max.len && memcmp(lo, hi, c->c_min.len) == 0;
        m->stats.has_min_value = m->stats.has_max_value = true;
        m->stats.min_value = (pq_bytes){lo, (uint32_t)c->c_min.len};
        m->stats.max_value = (pq_bytes){hi, (uint32_t)c->c_max.len};
        if (l->order != PQ_ORD_BYTES || same) {
            m->stats.has_min = m->stats.has_max = true;
            m->stats.min = m->stats.min_value;
            m->stats.max = m->stats.max_value;
        }
    }
    cc->has_meta = true;
    cc->file_offset = 0; /* parquet-java 1.15+: no ColumnMetaData outside the footer */

    /* page indexes */
    if (c->o->page_index && n > 0) {
        pq_offset_index *oi = pm_arena_calloc(a, 1, sizeof(*oi));
        if (oi == NULL || (oi->pages = pm_arena_calloc(a, n, sizeof(pq_page_location))) == NULL)
            return pm_nomem(err);
        oi->page_count = n;
        for (uint32_t i = 0; i < n; i++) {
            oi->pages[i].offset = start + dict_len + recs[i].off;
            oi->pages[i].compressed_size = recs[i].size;
            oi->pages[i].first_row = recs[i].first_row;
        }
        *oi_out = oi;
        if (c->ci_ok && l->order != PQ_ORD_NONE) {
            pq_column_index *ci = pm_arena_calloc(a, 1, sizeof(*ci));
            uint8_t *bytes =
                pm_arena_dup(a, c->ci_bytes.data != NULL ? c->ci_bytes.data : (const uint8_t *)"",
                             c->ci_bytes.len + 1);
            if (ci == NULL || bytes == NULL ||
                (ci->null_pages = pm_arena_calloc(a, n, sizeof(bool))) == NULL ||
                (ci->min_values = pm_arena_calloc(a, n, sizeof(pq_bytes))) == NULL ||
                (ci->max_values = pm_arena_calloc(a, n, sizeof(pq_bytes))) == NULL ||
                (ci->null_counts = pm_arena_calloc(a, n, sizeof(int64_t))) == NULL)
                return pm_nomem(err);
            ci->page_count = n;
            for (uint32_t i = 0; i < n; i++) {
                ci->null_pages[i] = recs[i].null_page;
                ci->null_counts[i] = recs[i].nulls;
                if (recs[i].has_minmax) {
                    ci->min_values[i] = (pq_bytes){bytes + recs[i].min_off, recs[i].min_len};
                    ci->max_values[i] = (pq_bytes){bytes + recs[i].max_off, recs[i].max_len};
                } else {
                    ci->min_values[i] = ci->max_values[i] = (pq_bytes){bytes, 0};
                }
            }
            ci->boundary_order = boundary_order(c, recs, n);
            *ci_out = ci;
        }
    }

    /* reset for the next row group */
    c->sink = NULL;
    c->recs.len = c->ci_bytes.len = 0;
    c->pages_len = 0;
    c->block_used = 0;
    c->c_values = c->c_rows = c->c_unc = c->c_comp = c->c_nulls = 0;
    c->c_has = false;
    c->ci_ok = true;
    c->dict_pages = c->plain_pages = 0;
    c->dict_used = false;
    c->first_page = true;
    c->dict_on = c->o->dictionary && l->phys != PQ_BOOLEAN;
    c->page_dict = c->dict_on;
    dict_reset(c);
    return 0;
}
