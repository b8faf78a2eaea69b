/*
 * Parquet statistics (column chunk Statistics and ColumnIndex page bounds) as pm_col_stats
 * in the batch type of a column, for pruning with predicates.
 *
 * Which bounds are trusted (parquet.thrift, ColumnOrder):
 *  - min_value / max_value (fields 6, 5) use the column's order (TYPE_ORDER);
 *  - the deprecated min / max (fields 2, 1) use signed order: trusted for numeric types,
 *    and for byte arrays only when min == max (any order agrees then);
 *  - INT96, UUID and FLOAT16 bounds are ignored;
 *  - FLOAT/DOUBLE: a NaN bound is ignored; a +0.0 minimum may hide -0.0 and a -0.0 maximum
 *    may hide +0.0, so the bounds are widened to include both.
 */
#include "format/parquet/stats.h"

#include <math.h>
#include <string.h>

#include "data/batch.h"
#include "util/bytes.h"
#include "util/time.h"

static pm_int128 be_signed(const uint8_t *p, size_t len)
{
    unsigned __int128 v = (len > 0 && (p[0] & 0x80)) ? ~(unsigned __int128)0 : 0;
    for (size_t i = 0; i < len; i++)
        v = v << 8 | p[i];
    return (pm_int128)v;
}

/* Units per second of the file's INT64 time values for a plan. */
static int64_t file_units(const pq_plan *p, int64_t target)
{
    return target * p->div / p->mul;
}

static void ts_from_units(int64_t v, int64_t per, pm_datum *d)
{
    if (per == 1000) {
        d->v.ts.millis = v;
        d->v.ts.nanos = 0;
    } else if (per == 1000000) {
        d->v.ts.millis = pm_floor_div(v, 1000);
        d->v.ts.nanos = (int32_t)(pm_floor_mod(v, 1000) * 1000);
    } else if (per == 1000000000) {
        d->v.ts.millis = pm_floor_div(v, 1000000);
        d->v.ts.nanos = (int32_t)pm_floor_mod(v, 1000000);
    } else {
        d->v.ts.millis = v * 1000;
        d->v.ts.nanos = 0;
    }
}

bool pm_pq_bound_to_datum(const pq_plan *p, const pq_leaf *leaf, const uint8_t *b, uint32_t len,
                          pm_datum *d)
{
    const pm_type *t = p->type;
    memset(d, 0, sizeof(*d));
    switch (leaf->type) {
    case PQ_BOOLEAN:
        if (len < 1)
            return false;
        d->v.b = b[0] != 0;
        return t->id == PM_TYPE_BOOLEAN;
    case PQ_INT32: {
        int32_t v;
        if (len != 4)
            return false;
        v = (int32_t)pm_load_le32(b);
        switch (p->conv) {
        case PQ_CONV_U8_I16: d->v.i = (uint8_t)v; break;
        case PQ_CONV_U16_I32: d->v.i = (uint16_t)v; break;
        case PQ_CONV_U32_I64: d->v.i = (uint32_t)v; break;
        case PQ_CONV_I32_DEC: d->v.dec = v; break;
        default: d->v.i = v; break; /* ints, DATE, TIME millis */
        }
        return true;
    }
    case PQ_INT64: {
        int64_t v;
        if (len != 8)
            return false;
        v = (int64_t)pm_load_le64(b);
        if (p->conv == PQ_CONV_I64_DEC) {
            d->v.dec = v;
        } else if (p->conv == PQ_CONV_U64_DEC) {
            d->v.dec = (pm_int128)(uint64_t)v;
        } else if (t->id == PM_TYPE_TIMESTAMP || t->id == PM_TYPE_TIMESTAMP_LTZ) {
            ts_from_units(v, file_units(p, pm_timestamp_units_per_second(t->precision)), d);
        } else if (t->id == PM_TYPE_TIME) {
            int64_t f = file_units(p, pm_time_units_per_second(t->precision));
            d->v.i = pm_floor_div(v, f / 1000);
        } else {
            d->v.i = v;
        }
        return true;
    }
    case PQ_FLOAT:
        if (len != 4 || t->id != PM_TYPE_FLOAT)
            return false;
        memcpy(&d->v.f, b, 4);
        return !isnan(d->v.f);
    case PQ_DOUBLE:
        if (len != 8 || t->id != PM_TYPE_DOUBLE)
            return false;
        memcpy(&d->v.d, b, 8);
        return !isnan(d->v.d);
    case PQ_BYTE_ARRAY:
    case PQ_FIXED_LEN_BYTE_ARRAY:
        if (p->conv == PQ_CONV_BIN_DEC) {
            if (len == 0 || len > 16)
                return false;
            d->v.dec = be_signed(b, len);
            return true;
        }
        if (p->conv != PQ_CONV_NONE)
            return false;
        d->v.s.ptr = b;
        d->v.s.len = len;
        return true;
    default: return false; /* INT96 */
    }
}

static bool signed_order(const pq_leaf *leaf, const pq_plan *p)
{
    if (leaf->type == PQ_BYTE_ARRAY || leaf->type == PQ_FIXED_LEN_BYTE_ARRAY)
        return false;
    return p->conv != PQ_CONV_U8_I16 && p->conv != PQ_CONV_U16_I32 && p->conv != PQ_CONV_U32_I64 &&
           p->conv != PQ_CONV_U64_DEC;
}

/* Widens float bounds around zero (see the top). */
static void widen_zero(const pm_type *t, pm_col_stats *s)
{
    if (t->id == PM_TYPE_FLOAT) {
        if (s->min.v.f == 0.0f)
            s->min.v.f = -0.0f;
        if (s->max.v.f == 0.0f)
            s->max.v.f = 0.0f;
    } else if (t->id == PM_TYPE_DOUBLE) {
        if (s->min.v.d == 0.0)
            s->min.v.d = -0.0;
        if (s->max.v.d == 0.0)
            s->max.v.d = 0.0;
    }
}

void pm_pq_stats_convert(const pq_plan *p, const pq_leaf *leaf, const pq_stats *st,
                         pm_col_stats *out)
{
    const pq_bytes *lo = NULL, *hi = NULL;
    memset(out, 0, sizeof(*out));
    if (st == NULL || p->kind != PQ_PLAN_LEAF)
        return;
    out->has_null_count = st->has_null_count && st->null_count >= 0;
    out->null_count = st->null_count;
    out->has_nan_count = st->has_nan_count && st->nan_count >= 0;
    out->nan_count = st->nan_count;
    if (st->has_min_value && st->has_max_value) {
        lo = &st->min_value;
        hi = &st->max_value;
    } else if (st->has_min && st->has_max) {
        bool same = st->min.len == st->max.len &&
                    (st->min.len == 0 || memcmp(st->min.ptr, st->max.ptr, st->min.len) == 0);
        if (signed_order(leaf, p) || same) {
            lo = &st->min;
            hi = &st->max;
        }
    }
    if (lo == NULL || p->conv == PQ_CONV_UUID_STR || p->conv == PQ_CONV_F16_F32 ||
        p->conv == PQ_CONV_I96_TS)
        return;
    if (pm_pq_bound_to_datum(p, leaf, lo->ptr, lo->len, &out->min) &&
        pm_pq_bound_to_datum(p, leaf, hi->ptr, hi->len, &out->max)) {
        out->has_min_max = true;
        widen_zero(p->type, out);
    }
}

void pm_pq_page_stats(const pq_plan *p, const pq_leaf *leaf, const pq_column_index *ci,
                      uint32_t page, int64_t rows, pm_col_stats *out)
{
    memset(out, 0, sizeof(*out));
    if (ci->null_counts != NULL) {
        out->has_null_count = true;
        out->null_count = ci->null_counts[page];
    }
    if (ci->null_pages[page]) {
        out->has_null_count = true;
        out->null_count = rows;
    }
    if (ci->null_pages[page] || p->conv == PQ_CONV_UUID_STR || p->conv == PQ_CONV_F16_F32 ||
        p->conv == PQ_CONV_I96_TS)
        return;
    if (pm_pq_bound_to_datum(p, leaf, ci->min_values[page].ptr, ci->min_values[page].len,
                             &out->min) &&
        pm_pq_bound_to_datum(p, leaf, ci->max_values[page].ptr, ci->max_values[page].len,
                             &out->max)) {
        out->has_min_max = true;
        widen_zero(p->type, out);
    }
}
