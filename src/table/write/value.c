/* paimon_value to a datum of the column type: see value.h. */
#include "table/write/value.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "data/cast.h"
#include "util/error.h"

PM_MUST_CHECK static int bad_value(paimon_error *err, int64_t row, const pm_field *f,
                                   const char *why)
{
    return pm_err_set(err, PAIMON_EINVALID, "row %lld, column %s: %s", (long long)row, f->name,
                      why);
}

int pm_value_to_datum(const pm_field *f, const paimon_value *v, int64_t row, pm_buf *scratch,
                      pm_datum *d, paimon_error *err)
{
    const pm_type *t = f->type;
    memset(d, 0, sizeof(*d));
    if (v->type == PAIMON_VALUE_NULL) {
        d->is_null = true;
        return 0;
    }
    if (pm_type_is_nested(t))
        return bad_value(err, row, f, "a nested column takes a null or its JSON as text");
    switch (v->type) {
    case PAIMON_VALUE_BOOL:
        if (t->id != PM_TYPE_BOOLEAN)
            return bad_value(err, row, f, "a boolean for a column that is not BOOLEAN");
        d->v.b = v->v.b != 0;
        return 0;
    case PAIMON_VALUE_INT: {
        int64_t x = v->v.i;
        switch (t->id) {
        case PM_TYPE_TINYINT:
            if (x < INT8_MIN || x > INT8_MAX)
                return bad_value(err, row, f, "out of the TINYINT range");
            break;
        case PM_TYPE_SMALLINT:
            if (x < INT16_MIN || x > INT16_MAX)
                return bad_value(err, row, f, "out of the SMALLINT range");
            break;
        case PM_TYPE_INT:
        case PM_TYPE_DATE:
            if (x < INT32_MIN || x > INT32_MAX)
                return bad_value(err, row, f, "out of the INT range");
            break;
        case PM_TYPE_TIME:
            if (x < 0 || x >= 86400000)
                return bad_value(err, row, f, "not a millisecond of the day");
            break;
        case PM_TYPE_BIGINT: break;
        case PM_TYPE_FLOAT: d->v.f = (float)x; return 0;
        case PM_TYPE_DOUBLE: d->v.d = (double)x; return 0;
        case PM_TYPE_DECIMAL: {
            pm_int128 u = x, lim = 1;
            for (int i = 0; i < t->precision; i++)
                lim *= 10;
            for (int i = 0; i < t->scale; i++)
                u *= 10;
            if (u >= lim || u <= -lim)
                return bad_value(err, row, f, "too many digits for the DECIMAL");
            d->v.dec = u;
            return 0;
        }
        default: return bad_value(err, row, f, "an integer for a column that takes none");
        }
        d->v.i = x;
        return 0;
    }
    case PAIMON_VALUE_DOUBLE:
        if (t->id == PM_TYPE_FLOAT) {
            /* as `paimon write` reads "1e39": a finite value beyond FLOAT's range is an error,
             * not an infinity (NaN and the infinities themselves are values) */
            if (isfinite(v->v.d) && fabs(v->v.d) > (double)FLT_MAX)
                return bad_value(err, row, f, "a double out of the range of FLOAT");
            d->v.f = (float)v->v.d;
        } else if (t->id == PM_TYPE_DOUBLE)
            d->v.d = v->v.d;
        else
            return bad_value(err, row, f, "a double for a column that is not FLOAT or DOUBLE");
        return 0;
    case PAIMON_VALUE_BYTES:
        if (!pm_type_is_binary(t))
            return bad_value(err, row, f, "bytes for a column that is not BINARY or VARBINARY");
        *d = pm_datum_bytes(v->v.s.ptr, v->v.s.len);
        return 0;
    case PAIMON_VALUE_TIMESTAMP:
        if (t->id != PM_TYPE_TIMESTAMP && t->id != PM_TYPE_TIMESTAMP_LTZ)
            return bad_value(err, row, f, "a timestamp for a column that is not a TIMESTAMP");
        if (v->v.ts.nanos < 0 || v->v.ts.nanos > 999999)
            return bad_value(err, row, f, "nanoseconds outside 0..999999");
        d->v.ts.millis = v->v.ts.millis;
        d->v.ts.nanos = v->v.ts.nanos;
        return 0;
    case PAIMON_VALUE_TEXT: {
        pm_type str = {.id = PM_TYPE_VARCHAR, .nullable = true, .length = PM_MAX_LENGTH};
        pm_datum in = pm_datum_bytes(v->v.s.ptr, v->v.s.len);
        if (pm_type_is_string(t)) {
            *d = in;
            return 0;
        }
        return pm_cast_datum(&str, &in, t, scratch, d, f->name, err);
    }
    default: return bad_value(err, row, f, "an unknown value type");
    }
}
