/* Value ordering: see datum_compare.h. */
#include "data/datum_compare.h"

#include <math.h>
#include <string.h>

static int cmp_bytes(const uint8_t *a, size_t al, const uint8_t *b, size_t bl)
{
    size_t n = al < bl ? al : bl;
    int c = n > 0 ? memcmp(a, b, n) : 0;
    if (c != 0)
        return c;
    return al < bl ? -1 : al > bl;
}

/* Float.compare / Double.compare: -0.0 < 0.0, NaN above everything, NaN == NaN. */
static int cmp_double(double a, double b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) ? (isnan(b) ? 0 : 1) : -1;
    if (a < b)
        return -1;
    if (a > b)
        return 1;
    return signbit(b) - signbit(a) != 0 ? (signbit(a) ? -1 : 1) : 0;
}

int pm_datum_compare(const pm_type *t, const pm_datum *a, const pm_datum *b)
{
    if (a->is_null || b->is_null)
        return a->is_null == b->is_null ? 0 : (a->is_null ? -1 : 1);
    switch (t->id) {
    case PM_TYPE_BOOLEAN: return (int)a->v.b - (int)b->v.b;
    case PM_TYPE_TINYINT:
    case PM_TYPE_SMALLINT:
    case PM_TYPE_INT:
    case PM_TYPE_BIGINT:
    case PM_TYPE_DATE:
    case PM_TYPE_TIME: return a->v.i < b->v.i ? -1 : a->v.i > b->v.i;
    case PM_TYPE_FLOAT: return cmp_double((double)a->v.f, (double)b->v.f);
    case PM_TYPE_DOUBLE: return cmp_double(a->v.d, b->v.d);
    case PM_TYPE_DECIMAL: return a->v.dec < b->v.dec ? -1 : a->v.dec > b->v.dec;
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ:
        if (a->v.ts.millis != b->v.ts.millis)
            return a->v.ts.millis < b->v.ts.millis ? -1 : 1;
        return a->v.ts.nanos < b->v.ts.nanos ? -1 : a->v.ts.nanos > b->v.ts.nanos;
    default: return cmp_bytes(a->v.s.ptr, a->v.s.len, b->v.s.ptr, b->v.s.len);
    }
}

int pm_datum_compare_key(const pm_type *const *types, const pm_datum *a, const pm_datum *b,
                         size_t count)
{
    for (size_t k = 0; k < count; k++) {
        int c = pm_datum_compare(types[k], &a[k], &b[k]);
        if (c != 0)
            return c;
    }
    return 0;
}

static int cmp_i64(int64_t a, int64_t b)
{
    return a < b ? -1 : a > b;
}

int pm_column_compare(const pm_column *a, int64_t i, const pm_column *b, int64_t j)
{
    bool va = pm_column_is_valid(a, i), vb = pm_column_is_valid(b, j);
    if (!va || !vb)
        return va == vb ? 0 : (va ? 1 : -1);
    switch (a->type->id) {
    case PM_TYPE_TINYINT:
        return cmp_i64(((const int8_t *)a->values.data)[i], ((const int8_t *)b->values.data)[j]);
    case PM_TYPE_SMALLINT: {
        int16_t x, y;
        memcpy(&x, a->values.data + 2 * i, 2);
        memcpy(&y, b->values.data + 2 * j, 2);
        return cmp_i64(x, y);
    }
    case PM_TYPE_INT:
    case PM_TYPE_DATE: {
        int32_t x, y;
        memcpy(&x, a->values.data + 4 * i, 4);
        memcpy(&y, b->values.data + 4 * j, 4);
        return cmp_i64(x, y);
    }
    case PM_TYPE_BIGINT: {
        int64_t x, y;
        memcpy(&x, a->values.data + 8 * i, 8);
        memcpy(&y, b->values.data + 8 * j, 8);
        return cmp_i64(x, y);
    }
    case PM_TYPE_CHAR:
    case PM_TYPE_VARCHAR:
    case PM_TYPE_BINARY:
    case PM_TYPE_VARBINARY: {
        int32_t a0 = pm_column_offset(a, i), a1 = pm_column_offset(a, i + 1);
        int32_t b0 = pm_column_offset(b, j), b1 = pm_column_offset(b, j + 1);
        size_t la = (size_t)(a1 - a0), lb = (size_t)(b1 - b0), n = la < lb ? la : lb;
        int c = n > 0 ? memcmp(a->values.data + a0, b->values.data + b0, n) : 0;
        return c != 0 ? (c < 0 ? -1 : 1) : (la < lb ? -1 : la > lb);
    }
    default: {
        pm_datum x, y;
        pm_column_get_datum(a, i, &x);
        pm_column_get_datum(b, j, &y);
        return pm_datum_compare(a->type, &x, &y);
    }
    }
}
