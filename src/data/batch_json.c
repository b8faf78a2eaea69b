/*
 * Canonical JSON (shared/spec/canonical-rows.md) of batch values: scalars go through
 * pm_canonical_json() with a pm_datum; nested values are walked here (ARRAY as a JSON array,
 * MAP and MULTISET as [key, value] pairs in stored order, ROW as an object).
 */
#include "data/batch.h"

#include <math.h>
#include <string.h>

#include "data/canonical.h"
#include "util/error.h"

/* Inline, so that strlen of the literals folds away: cat calls these for every value. */
static inline int put(pm_buf *out, const char *s, paimon_error *err)
{
    int rc = pm_buf_append(out, s, strlen(s));
    return rc != 0 ? pm_buf_error(err, rc) : 0;
}

/* [,]"name": -- a name of plain ASCII (what pm_json_quote copies unchanged) in one append,
 * any other through pm_json_quote. */
PM_MUST_CHECK static int put_key(pm_buf *out, const char *name, bool first, paimon_error *err)
{
    size_t n = strlen(name), i = 0;
    uint8_t *p;
    int rc;
    while (i < n && (uint8_t)name[i] >= 0x20 && (uint8_t)name[i] < 0x80 && name[i] != '"' &&
           name[i] != '\\')
        i++;
    if (i < n) {
        if ((!first && (rc = put(out, ",", err)) != 0) ||
            (rc = pm_buf_error(err, pm_json_quote(out, name, n))) != 0)
            return rc;
        return put(out, ":", err);
    }
    if ((rc = pm_buf_reserve(out, n + 4)) != 0)
        return pm_buf_error(err, rc);
    p = out->data + out->len;
    if (!first)
        *p++ = ',';
    *p++ = '"';
    memcpy(p, name, n);
    p += n;
    *p++ = '"';
    *p++ = ':';
    out->len = (size_t)(p - out->data);
    return 0;
}

int pm_column_json(pm_buf *out, const pm_column *c, int64_t i, paimon_error *err)
{
    int rc = 0;
    if (!pm_column_is_valid(c, i))
        return put(out, "null", err);
    switch (c->layout) {
    case PM_LAYOUT_LIST: {
        int32_t a = pm_column_offset(c, i), b = pm_column_offset(c, i + 1);
        if ((rc = put(out, "[", err)) != 0)
            return rc;
        for (int32_t j = a; j < b; j++) {
            if ((j > a && (rc = put(out, ",", err)) != 0) ||
                (rc = pm_column_json(out, c->children[0], j, err)) != 0)
                return rc;
        }
        return put(out, "]", err);
    }
    case PM_LAYOUT_MAP: {
        int32_t a = pm_column_offset(c, i), b = pm_column_offset(c, i + 1);
        if ((rc = put(out, "[", err)) != 0)
            return rc;
        for (int32_t j = a; j < b; j++) {
            if ((rc = put(out, j > a ? ",[" : "[", err)) != 0 ||
                (rc = pm_column_json(out, c->children[0], j, err)) != 0 ||
                (rc = put(out, ",", err)) != 0 ||
                (rc = pm_column_json(out, c->children[1], j, err)) != 0 ||
                (rc = put(out, "]", err)) != 0)
                return rc;
        }
        return put(out, "]", err);
    }
    case PM_LAYOUT_STRUCT:
        if ((rc = put(out, "{", err)) != 0)
            return rc;
        for (size_t k = 0; k < c->child_count; k++) {
            const char *name = c->type->fields[k].name;
            if ((k > 0 && (rc = put(out, ",", err)) != 0) ||
                (rc = pm_buf_error(err, pm_json_quote(out, name, strlen(name)))) != 0 ||
                (rc = put(out, ":", err)) != 0 ||
                (rc = pm_column_json(out, c->children[k], i, err)) != 0)
                return rc;
        }
        return put(out, "}", err);
    default: break;
    }
    if (c->type->id == PM_TYPE_DOUBLE) { /* the common case without a pm_datum */
        double v;
        memcpy(&v, c->values.data + (size_t)i * 8, 8);
        if (isfinite(v))
            return pm_buf_error(err, pm_format_double(out, v));
    }
    if (c->type->id == PM_TYPE_TIME && c->type->precision > 3) {
        int64_t v;
        memcpy(&v, c->values.data + (size_t)i * 8, 8);
        v *= 1000000000 / pm_time_units_per_second(c->type->precision);
        if ((rc = put(out, "\"", err)) != 0 ||
            (rc = pm_buf_error(err, pm_format_time_nanos(out, v, c->type->precision))) != 0)
            return rc;
        return put(out, "\"", err);
    }
    {
        pm_datum d;
        pm_column_get_datum(c, i, &d);
        return pm_canonical_json(out, c->type, &d, err);
    }
}

int pm_batch_row_json(pm_buf *out, const pm_batch *b, int64_t row, paimon_error *err)
{
    int rc = put(out, "{", err);
    for (size_t k = 0; rc == 0 && k < b->column_count; k++) {
        if ((rc = put_key(out, b->type->fields[k].name, k == 0, err)) != 0)
            break;
        rc = pm_column_json(out, b->columns[k], row, err);
    }
    return rc != 0 ? rc : put(out, "}", err);
}

int pm_column_text(pm_buf *out, const pm_column *c, int64_t i, bool *is_null, paimon_error *err)
{
    size_t start = out->len;
    int rc;
    *is_null = !pm_column_is_valid(c, i);
    if (*is_null)
        return 0;
    if (c->layout == PM_LAYOUT_VAR && pm_type_is_string(c->type)) {
        pm_datum d;
        pm_column_get_datum(c, i, &d);
        rc = pm_buf_append(out, d.v.s.ptr, d.v.s.len);
        return rc != 0 ? pm_buf_error(err, rc) : 0;
    }
    if ((rc = pm_column_json(out, c, i, err)) != 0)
        return rc;
    /* drop the quotes of a top-level JSON string (dates, decimals, base64, "NaN") */
    if (out->len - start >= 2 && out->data[start] == '"' && out->data[out->len - 1] == '"') {
        memmove(out->data + start, out->data + start + 1, out->len - start - 2);
        out->len -= 2;
    }
    return 0;
}
