/* Java's text of internal values and Java collection orders: see java_values.h. */
#include "data/java_values.h"

#include <string.h>

#include "data/canonical.h"
#include "data/java_text.h"
#include "util/alloc.h"
#include "util/error.h"
#include "util/java_hashmap.h"
#include "util/time.h"
#include "util/utf8.h"

/* ---- UTF-8 as Java strings see it ---------------------------------------------------------- */

/* Iterates the UTF-16 code units of UTF-8 text. */
typedef struct utf16_iter {
    const uint8_t *s;
    size_t len, i;
    uint16_t pending; /* low surrogate still to return, or 0 */
} utf16_iter;

static bool utf16_next(utf16_iter *it, uint16_t *unit)
{
    uint32_t cp;
    if (it->pending != 0) {
        *unit = it->pending;
        it->pending = 0;
        return true;
    }
    if (it->i >= it->len)
        return false;
    cp = pm_utf8_next(it->s, it->len, &it->i);
    if (cp < 0x10000) {
        *unit = (uint16_t)cp;
    } else {
        cp -= 0x10000;
        *unit = (uint16_t)(0xd800 + (cp >> 10));
        it->pending = (uint16_t)(0xdc00 + (cp & 0x3ff));
    }
    return true;
}

int32_t pm_java_string_hash(const char *s, size_t len)
{
    utf16_iter it = {(const uint8_t *)s, len, 0, 0};
    uint32_t h = 0;
    uint16_t u;
    while (utf16_next(&it, &u))
        h = 31 * h + u;
    return (int32_t)h;
}

int pm_java_string_compare(const char *a, size_t alen, const char *b, size_t blen)
{
    utf16_iter x = {(const uint8_t *)a, alen, 0, 0}, y = {(const uint8_t *)b, blen, 0, 0};
    for (;;) {
        uint16_t u, v;
        bool has_u = utf16_next(&x, &u), has_v = utf16_next(&y, &v);
        if (!has_u || !has_v)
            return has_u ? 1 : has_v ? -1 : 0;
        if (u != v)
            return u < v ? -1 : 1;
    }
}

/* ---- HashMap iteration order --------------------------------------------------------------- */

/* The keys are distinct: an entry equals only itself. */
static bool same_index(void *ctx, int64_t a, int64_t b)
{
    (void)ctx;
    return a == b;
}

int pm_java_hashmap_order(const char *const *keys, size_t n, size_t *order)
{
    pm_jhm m;
    pm_jhm_iter it = PM_JHM_ITER_INIT;
    const pm_jhm_entry *e;
    size_t k = 0;
    int rc = 0;
    pm_jhm_init(&m, same_index, NULL);
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = pm_jhm_put(&m, pm_java_string_hash(keys[i], strlen(keys[i])), (int64_t)i, (int64_t)i);
    while (rc == 0 && (e = pm_jhm_next(&m, &it)) != NULL)
        order[k++] = (size_t)e->key;
    pm_jhm_free(&m);
    return rc;
}

/* ---- values -------------------------------------------------------------------------------- */

/* DateTimeUtils.formatDate: yyyy-MM-dd with exactly four year digits (Calcite's int4). */
static int java_format_date(pm_buf *out, int64_t days)
{
    int64_t y;
    unsigned m, d;
    pm_civil_from_days(days, &y, &m, &d);
    return pm_buf_printf(out, "%c%c%c%c-%02u-%02u", (char)('0' + (y / 1000) % 10),
                         (char)('0' + (y / 100) % 10), (char)('0' + (y / 10) % 10),
                         (char)('0' + y % 10), m, d);
}

/* A Java String made from bytes (BinaryString.toString): invalid UTF-8 becomes U+FFFD. */
static int java_text(pm_buf *out, const uint8_t *s, size_t len)
{
    size_t i = 0;
    int rc = 0;
    while (rc == 0 && i < len) {
        size_t start = i;
        uint32_t cp = pm_utf8_next(s, len, &i);
        if (cp == 0xfffd && !(i - start == 3 && memcmp(s + start, "\xef\xbf\xbd", 3) == 0))
            rc = pm_buf_puts(out, "\xef\xbf\xbd");
        else
            rc = pm_buf_append(out, s + start, i - start);
    }
    return rc;
}

/* Number-like values whose two renderings agree. */
static int common_string(pm_buf *out, const pm_type *t, const pm_datum *d, bool *done)
{
    *done = true;
    switch (t->id) {
    case PM_TYPE_BOOLEAN: return pm_buf_puts(out, d->v.b ? "true" : "false");
    case PM_TYPE_TINYINT:
    case PM_TYPE_SMALLINT:
    case PM_TYPE_INT:
    case PM_TYPE_BIGINT: return pm_buf_printf(out, "%lld", (long long)d->v.i);
    case PM_TYPE_FLOAT: return pm_java_float_string(out, d->v.f);
    case PM_TYPE_DOUBLE: return pm_java_double_string(out, d->v.d);
    case PM_TYPE_DECIMAL: return pm_format_decimal(out, d->v.dec, t->scale);
    case PM_TYPE_CHAR:
    case PM_TYPE_VARCHAR: return java_text(out, d->v.s.ptr, d->v.s.len);
    default: *done = false; return 0;
    }
}

int pm_java_cast_string(pm_buf *out, const pm_type *t, const pm_datum *d, paimon_error *err)
{
    bool done;
    int rc = common_string(out, t, d, &done);
    if (done)
        return rc;
    switch (t->id) {
    case PM_TYPE_BINARY:
    case PM_TYPE_VARBINARY: return java_text(out, d->v.s.ptr, d->v.s.len);
    case PM_TYPE_DATE: return java_format_date(out, d->v.i);
    case PM_TYPE_TIME: return pm_java_format_time(out, d->v.i, t->precision);
    case PM_TYPE_TIMESTAMP:
        return pm_java_format_timestamp(out, d->v.ts.millis, d->v.ts.nanos, t->precision);
    case PM_TYPE_TIMESTAMP_LTZ:
        return pm_java_format_timestamp(out, pm_epoch_to_local_millis(d->v.ts.millis),
                                        d->v.ts.nanos, t->precision);
    default: return pm_err_set(err, PAIMON_EUNSUPPORTED, "a cast of a nested value to STRING");
    }
}

int pm_java_object_string(pm_buf *out, const pm_type *t, const pm_datum *d, paimon_error *err)
{
    bool done;
    int rc = common_string(out, t, d, &done);
    if (done)
        return rc;
    switch (t->id) {
    case PM_TYPE_DATE:
    case PM_TYPE_TIME: return pm_buf_printf(out, "%lld", (long long)d->v.i);
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ: return pm_java_local_date_time(out, d->v.ts.millis, d->v.ts.nanos);
    case PM_TYPE_BINARY:
    case PM_TYPE_VARBINARY: {
        /* Object.toString() of a byte[]: "[B@" + Integer.toHexString(identityHashCode). */
        uint32_t h = 2166136261u; /* FNV-1a of the bytes, standing in for the identity hash */
        for (size_t i = 0; i < d->v.s.len; i++)
            h = (h ^ d->v.s.ptr[i]) * 16777619u;
        return pm_buf_printf(out, "[B@%x", h);
    }
    default:
        /* Java prints the class name and identity hash of a BinaryArray/Map/Row; the
         * canonical JSON is shown instead (Java never collects statistics for them). */
        return pm_canonical_json(out, t, d, err);
    }
}

int pm_java_row_cast_string(pm_buf *out, const pm_field *const *fields, size_t count,
                            const pm_binrow *row, paimon_error *err)
{
    int rc = pm_buf_putc(out, '{');
    for (size_t i = 0; rc == 0 && i < count; i++) {
        pm_datum d;
        if (i > 0 && (rc = pm_buf_puts(out, ", ")) != 0)
            break;
        if ((rc = pm_binrow_get(row, (int32_t)i, fields[i]->type, &d, err)) != 0)
            return rc;
        rc = d.is_null ? pm_buf_puts(out, "null")
                       : pm_java_cast_string(out, fields[i]->type, &d, err);
    }
    return rc != 0 ? rc : pm_buf_putc(out, '}');
}
