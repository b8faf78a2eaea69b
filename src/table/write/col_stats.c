/* Column statistics of written data files: see col_stats.h. */
#include "table/write/col_stats.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "data/binary_row.h"
#include "data/datum_compare.h"
#include "util/alloc.h"
#include "util/error.h"
#include "util/utf8.h"

/* ---- modes ----------------------------------------------------------------------------- */

int pm_stats_mode_parse(const char *text, pm_stats_mode *out, paimon_error *err)
{
    char *end;
    long n;
    out->length = 0;
    if (strcasecmp(text, "none") == 0)
        out->kind = PM_STATS_NONE;
    else if (strcasecmp(text, "counts") == 0)
        out->kind = PM_STATS_COUNTS;
    else if (strcasecmp(text, "full") == 0)
        out->kind = PM_STATS_FULL;
    else if (strncasecmp(text, "truncate(", 9) == 0 && isdigit((unsigned char)text[9]) &&
             (n = strtol(text + 9, &end, 10)) > 0 && n <= INT32_MAX && strcmp(end, ")") == 0) {
        out->kind = PM_STATS_TRUNCATE;
        out->length = (int32_t)n;
    } else {
        return pm_err_set(err, PAIMON_EINVALID,
                          "statistics mode '%s': expected none, counts, full or truncate(N)", text);
    }
    return 0;
}

static bool is_system_field(const char *name)
{
    return strncmp(name, "_KEY_", 5) == 0 || strcmp(name, "_SEQUENCE_NUMBER") == 0 ||
           strcmp(name, "_VALUE_KIND") == 0 || strcmp(name, "_LEVEL") == 0 ||
           strcmp(name, "rowkind") == 0 || strcmp(name, "_ROW_ID") == 0;
}

int pm_stats_modes_for(const pm_options *opts, const char *mode, pm_stats_source source,
                       const char *const *names, size_t count, const bool *thin_keys,
                       pm_stats_mode *modes, paimon_error *err)
{
    pm_stats_mode table_mode, sys = {PM_STATS_TRUNCATE, 128}, none = {PM_STATS_NONE, 0};
    int64_t keep_first;
    int64_t column_count = 0;
    int rc;
    if ((rc = pm_stats_mode_parse(mode, &table_mode, err)) != 0 ||
        (rc = pm_options_get_i64(opts, "metadata.stats-keep-first-n-columns", &keep_first, err)) !=
            0)
        return rc;
    for (size_t i = 0; i < count; i++) {
        char key[600];
        const char *field_mode;
        snprintf(key, sizeof(key), "fields.%s.stats-mode", names[i]);
        field_mode = pm_options_get(opts, key);
        if (field_mode != NULL) {
            if ((rc = pm_stats_mode_parse(field_mode, &modes[i], err)) != 0)
                return pm_err_prefix(err, rc, "option %s: ", key);
            column_count++;
        } else if (source != PM_STATS_FROM_ROWS &&
                   (is_system_field(names[i]) || (thin_keys != NULL && thin_keys[i]))) {
            modes[i] = sys;
        } else {
            modes[i] = keep_first >= 0 && column_count >= keep_first ? none : table_mode;
            column_count++;
        }
    }
    return 0;
}

/* ---- accumulation ---------------------------------------------------------------------- */

void pm_stats_acc_init(pm_stats_acc *s, const pm_type *type, pm_stats_mode mode,
                       pm_stats_source source)
{
    memset(s, 0, sizeof(*s));
    s->type = type;
    s->mode = mode;
    s->source = source;
    pm_buf_init(&s->min_bytes, 0);
    pm_buf_init(&s->max_bytes, 0);
    if (pm_type_is_nested(type))
        s->none = source == PM_STATS_FROM_PARQUET;
    if (pm_type_is_nested(type) || pm_type_is_binary(type))
        s->no_bounds = true;
    if (source == PM_STATS_FROM_PARQUET &&
        (type->id == PM_TYPE_TIMESTAMP || type->id == PM_TYPE_TIMESTAMP_LTZ) && type->precision > 6)
        s->no_bounds = true; /* INT96: parquet-java keeps no bounds */
}

void pm_stats_acc_reset(pm_stats_acc *s)
{
    s->has_bounds = false;
    s->no_null_count = s->min_absent = s->max_absent = false;
    s->null_count = 0;
    s->min_bytes.len = s->max_bytes.len = 0;
}

void pm_stats_acc_free(pm_stats_acc *s)
{
    pm_buf_free(&s->min_bytes);
    pm_buf_free(&s->max_bytes);
}

static bool is_var(const pm_type *t)
{
    return pm_type_is_string(t) || pm_type_is_binary(t);
}

static int keep(pm_stats_acc *s, pm_datum *slot, pm_buf *bytes, const pm_datum *v)
{
    *slot = *v;
    if (is_var(s->type)) {
        int rc;
        bytes->len = 0;
        if ((rc = pm_buf_append(bytes, v->v.s.ptr, v->v.s.len)) != 0)
            return rc;
        slot->v.s.ptr = bytes->data;
    }
    return 0;
}

/* FLOAT/DOUBLE from Parquet: NaN skipped, strict comparisons (the first zero seen stays). */
static void add_float_parquet(pm_stats_acc *s, double v, bool is_float)
{
    if (isnan(v))
        return;
    if (!s->has_bounds) {
        s->has_bounds = true;
        if (is_float)
            s->min.v.f = s->max.v.f = (float)v;
        else
            s->min.v.d = s->max.v.d = v;
        s->min.is_null = s->max.is_null = false;
        return;
    }
    if (is_float) {
        if ((float)v < s->min.v.f)
            s->min.v.f = (float)v;
        if ((float)v > s->max.v.f)
            s->max.v.f = (float)v;
    } else {
        if (v < s->min.v.d)
            s->min.v.d = v;
        if (v > s->max.v.d)
            s->max.v.d = v;
    }
}

/* Loads slot i of a fixed-width integer column of `width` bytes (1, 2, 4 or 8), signed. */
static inline int64_t load_signed(const uint8_t *p, uint32_t width, int64_t i)
{
    switch (width) {
    case 1: return (int8_t)p[i];
    case 2: {
        int16_t v;
        memcpy(&v, p + 2 * i, 2);
        return v;
    }
    case 4: {
        int32_t v;
        memcpy(&v, p + 4 * i, 4);
        return v;
    }
    default: {
        int64_t v;
        memcpy(&v, p + 8 * i, 8);
        return v;
    }
    }
}

/* Range of an integer column whose datum is the stored value itself (TINYINT, SMALLINT,
 * INT, DATE, BIGINT): the same bounds as the datum compare gives, without a datum per row. */
#define INT_RANGE(W)                                                                               \
    for (int64_t i = first; i < first + n; i++) {                                                  \
        int64_t v;                                                                                 \
        if (nullable && !pm_column_is_valid(c, i)) {                                               \
            s->null_count++;                                                                       \
            continue;                                                                              \
        }                                                                                          \
        v = load_signed(c->values.data, W, i);                                                     \
        if (!have) {                                                                               \
            lo = hi = v;                                                                           \
            have = true;                                                                           \
        } else if (v < lo) {                                                                       \
            lo = v;                                                                                \
        } else if (v > hi) {                                                                       \
            hi = v;                                                                                \
        }                                                                                          \
    }

static int add_int_range(pm_stats_acc *s, const pm_column *c, int64_t first, int64_t n)
{
    int64_t lo = 0, hi = 0;
    bool have = false, nullable = c->validity.len > 0;
    switch (c->width) {
    case 1: INT_RANGE(1) break;
    case 2: INT_RANGE(2) break;
    case 4: INT_RANGE(4) break;
    default: INT_RANGE(8) break;
    }
    if (!have)
        return 0;
    if (!s->has_bounds) {
        s->has_bounds = true;
        s->min = pm_datum_int(lo);
        s->max = pm_datum_int(hi);
    } else {
        if (lo < s->min.v.i)
            s->min.v.i = lo;
        if (hi > s->max.v.i)
            s->max.v.i = hi;
    }
    return 0;
}

/* FLOAT/DOUBLE from Parquet, typed: add_float_parquet() for each value, in order. */
static void add_float_range(pm_stats_acc *s, const pm_column *c, int64_t first, int64_t n)
{
    bool nullable = c->validity.len > 0, is_float = s->type->id == PM_TYPE_FLOAT;
    for (int64_t i = first; i < first + n; i++) {
        double v;
        if (nullable && !pm_column_is_valid(c, i)) {
            s->null_count++;
            continue;
        }
        if (is_float) {
            float f;
            memcpy(&f, c->values.data + 4 * i, 4);
            v = (double)f;
        } else {
            memcpy(&v, c->values.data + 8 * i, 8);
        }
        add_float_parquet(s, v, is_float);
    }
}

/* Strings: the run's least and greatest values by unsigned byte order (BinaryString's
 * compareTo, as pm_datum_compare orders them), found by index and copied once. */
static int add_string_range(pm_stats_acc *s, const pm_column *c, int64_t first, int64_t n)
{
    const uint8_t *data = c->values.data;
    bool nullable = c->validity.len > 0;
    int64_t lo = -1, hi = -1;
    const uint8_t *lp = NULL, *hp = NULL;
    int32_t ll = 0, hl = 0;
    pm_datum v;
    int rc;
    for (int64_t i = first; i < first + n; i++) {
        int32_t a, b, len;
        const uint8_t *p;
        if (nullable && !pm_column_is_valid(c, i)) {
            s->null_count++;
            continue;
        }
        a = pm_column_offset(c, i);
        b = pm_column_offset(c, i + 1);
        p = data + a;
        len = b - a;
        if (lo < 0) {
            lo = hi = i;
            lp = hp = p;
            ll = hl = len;
            continue;
        }
        {
            int32_t m = len < ll ? len : ll;
            int r = m > 0 ? memcmp(p, lp, (size_t)m) : 0;
            if (r < 0 || (r == 0 && len < ll)) {
                lo = i;
                lp = p;
                ll = len;
            }
        }
        {
            int32_t m = len < hl ? len : hl;
            int r = m > 0 ? memcmp(p, hp, (size_t)m) : 0;
            if (r > 0 || (r == 0 && len > hl)) {
                hi = i;
                hp = p;
                hl = len;
            }
        }
    }
    if (lo < 0)
        return 0;
    pm_column_get_datum(c, lo, &v);
    if (!s->has_bounds || pm_datum_compare(s->type, &v, &s->min) < 0)
        if ((rc = keep(s, &s->min, &s->min_bytes, &v)) != 0)
            return rc;
    pm_column_get_datum(c, hi, &v);
    if (!s->has_bounds || pm_datum_compare(s->type, &v, &s->max) > 0)
        if ((rc = keep(s, &s->max, &s->max_bytes, &v)) != 0)
            return rc;
    s->has_bounds = true;
    return 0;
}

int pm_stats_acc_add(pm_stats_acc *s, const pm_column *c, int64_t first, int64_t n)
{
    const pm_type *t = s->type;
    int rc;
    if (s->none || s->source == PM_STATS_FROM_ORC)
        return 0; /* ORC: read back from the file, pm_stats_acc_set_file() */
    if (s->no_bounds) {
        if (c->null_count > 0)
            for (int64_t i = first; i < first + n; i++)
                s->null_count += !pm_column_is_valid(c, i);
        return 0;
    }
    switch (t->id) {
    case PM_TYPE_TINYINT:
    case PM_TYPE_SMALLINT:
    case PM_TYPE_INT:
    case PM_TYPE_DATE:
    case PM_TYPE_BIGINT: return add_int_range(s, c, first, n);
    case PM_TYPE_FLOAT:
    case PM_TYPE_DOUBLE:
        if (s->source != PM_STATS_FROM_PARQUET)
            break;
        add_float_range(s, c, first, n);
        return 0;
    case PM_TYPE_CHAR:
    case PM_TYPE_VARCHAR: return add_string_range(s, c, first, n);
    default: break;
    }
    for (int64_t i = first; i < first + n; i++) {
        pm_datum v;
        if (!pm_column_is_valid(c, i)) {
            s->null_count++;
            continue;
        }
        pm_column_get_datum(c, i, &v);
        if (s->source == PM_STATS_FROM_PARQUET &&
            (t->id == PM_TYPE_FLOAT || t->id == PM_TYPE_DOUBLE)) {
            add_float_parquet(s, t->id == PM_TYPE_FLOAT ? (double)v.v.f : v.v.d,
                              t->id == PM_TYPE_FLOAT);
            continue;
        }
        if (!s->has_bounds) {
            if ((rc = keep(s, &s->min, &s->min_bytes, &v)) != 0 ||
                (rc = keep(s, &s->max, &s->max_bytes, &v)) != 0)
                return rc;
            s->has_bounds = true;
            continue;
        }
        if (pm_datum_compare(t, &v, &s->min) < 0 && (rc = keep(s, &s->min, &s->min_bytes, &v)))
            return rc;
        if (pm_datum_compare(t, &v, &s->max) > 0 && (rc = keep(s, &s->max, &s->max_bytes, &v)))
            return rc;
    }
    return 0;
}

int pm_stats_acc_set_file(pm_stats_acc *s, const pm_file_col_stats *f)
{
    pm_datum absent = pm_datum_null();
    int rc;
    pm_stats_acc_reset(s);
    s->no_null_count = !f->has_null_count;
    s->null_count = f->has_null_count ? f->null_count : 0;
    if (!f->has_min && !f->has_max)
        return 0;
    s->has_bounds = true;
    s->min_absent = !f->has_min;
    s->max_absent = !f->has_max;
    s->min = s->max = absent;
    if ((f->has_min && (rc = keep(s, &s->min, &s->min_bytes, &f->min)) != 0) ||
        (f->has_max && (rc = keep(s, &s->max, &s->max_bytes, &f->max)) != 0))
        return rc;
    return 0;
}

/* ---- conversion ------------------------------------------------------------------------ */

void pm_col_result_free(pm_col_result *r)
{
    pm_buf_free(&r->min_buf);
    pm_buf_free(&r->max_buf);
    memset(r, 0, sizeof(*r));
}

/* TruncateSimpleColStatsCollector.truncateMax: false when no bound exists.  The first `n`
 * characters (BinaryString.substring) are decoded as Java's String is (U+FFFD for invalid
 * bytes), and of their first `n` code points the last one that can be is incremented. */
static int truncate_max(const uint8_t *p, size_t len, int32_t n, pm_buf *out, bool *ok)
{
    size_t chars = n > 0 ? (size_t)n : 0, cut = pm_utf8_prefix(p, len, chars), off = 0, count = 0;
    uint32_t cps[64], *cp = cps;
    int rc = 0;
    *ok = true;
    out->len = 0;
    if (cut == len)
        return pm_buf_append(out, p, len);
    if (chars > sizeof(cps) / sizeof(cps[0]) && (cp = pm_malloc(chars * sizeof(uint32_t))) == NULL)
        return PAIMON_ENOMEM;
    while (off < cut && count < chars)
        cp[count++] = pm_utf8_next(p, cut, &off);
    *ok = false;
    for (size_t i = count; i-- > 0;) {
        uint32_t next = cp[i] + 1;
        if (next <= 0x10FFFF) {
            for (size_t k = 0; k < i && rc == 0; k++)
                rc = pm_utf8_put(out, cp[k]);
            if (rc == 0)
                rc = pm_utf8_put(out, next); /* a surrogate: '?', as Java encodes it */
            *ok = true;
            break;
        }
    }
    if (cp != cps)
        pm_free(cp);
    return rc;
}

int pm_stats_acc_result(const pm_stats_acc *s, pm_col_result *r)
{
    int rc;
    pm_buf_init(&r->min_buf, 0);
    pm_buf_init(&r->max_buf, 0);
    r->none = r->has_bounds = r->has_null_count = r->min_absent = r->max_absent = false;
    r->min = r->max = pm_datum_null();
    r->null_count = 0;
    if (s->none || s->mode.kind == PM_STATS_NONE) {
        r->none = true;
        return 0;
    }
    r->has_null_count = !s->no_null_count;
    r->null_count = s->null_count;
    if (!s->has_bounds || s->mode.kind == PM_STATS_COUNTS)
        return 0;
    /* truncate(N) without a maximum: no bounds (TruncateSimpleColStatsCollector.convert) */
    if (s->max_absent && s->mode.kind == PM_STATS_TRUNCATE)
        return 0;
    r->min_absent = s->min_absent;
    r->max_absent = s->max_absent;
    r->min = s->min;
    r->max = s->max;
    if (is_var(s->type)) {
        if ((!s->min_absent &&
             (rc = pm_buf_append(&r->min_buf, s->min.v.s.ptr, s->min.v.s.len)) != 0) ||
            (!s->max_absent &&
             (rc = pm_buf_append(&r->max_buf, s->max.v.s.ptr, s->max.v.s.len)) != 0))
            return rc;
        if (s->mode.kind == PM_STATS_TRUNCATE && pm_type_is_string(s->type)) {
            bool ok;
            if (!s->min_absent)
                r->min_buf.len = pm_utf8_prefix(s->min.v.s.ptr, s->min.v.s.len,
                                                s->mode.length > 0 ? (size_t)s->mode.length : 0);
            if ((rc = truncate_max(s->max.v.s.ptr, s->max.v.s.len, s->mode.length, &r->max_buf,
                                   &ok)) != 0)
                return rc;
            if (!ok) {
                r->min_absent = r->max_absent = false;
                return 0; /* no upper bound: the collector gives up on the bounds */
            }
        }
        r->min = pm_datum_bytes(r->min_buf.data, r->min_buf.len);
        r->max = pm_datum_bytes(r->max_buf.data, r->max_buf.len);
    }
    r->has_bounds = true;
    return 0;
}

/* ---- serialization --------------------------------------------------------------------- */

PM_MUST_CHECK static int serialize(pm_arena *arena, const pm_type *const *types,
                                   const pm_col_result *const *res, size_t count,
                                   pm_simple_stats *out, paimon_error *err)
{
    pm_datum mins[64], maxs[64], *lo = mins, *hi = maxs;
    const pm_type *ts[64], **tp = ts;
    pm_buf b;
    int64_t *nulls;
    int rc = 0;

    memset(out, 0, sizeof(*out));
    pm_buf_init(&b, 0);
    if (count > 64) {
        lo = pm_malloc(count * sizeof(pm_datum));
        hi = pm_malloc(count * sizeof(pm_datum));
        tp = pm_malloc(count * sizeof(pm_type *));
        if (lo == NULL || hi == NULL || tp == NULL) {
            rc = pm_nomem(err);
            goto done;
        }
    }
    nulls = pm_arena_alloc(arena, (count + 1) * sizeof(int64_t));
    if (nulls == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < count; i++) {
        tp[i] = types[i];
        lo[i] = res[i]->has_bounds && !res[i]->min_absent ? res[i]->min : pm_datum_null();
        hi[i] = res[i]->has_bounds && !res[i]->max_absent ? res[i]->max : pm_datum_null();
        nulls[i] = res[i]->has_null_count ? res[i]->null_count : PM_AVRO_NULL_LONG;
    }
    if ((rc = pm_binrow_serialize(&b, tp, lo, (int32_t)count)) != 0)
        goto buf_err;
    out->min_values.len = b.len;
    if ((out->min_values.ptr = pm_arena_dup(arena, b.data, b.len)) == NULL)
        goto nomem;
    b.len = 0;
    if ((rc = pm_binrow_serialize(&b, tp, hi, (int32_t)count)) != 0)
        goto buf_err;
    out->max_values.len = b.len;
    if ((out->max_values.ptr = pm_arena_dup(arena, b.data, b.len)) == NULL)
        goto nomem;
    out->null_counts.items = nulls;
    out->null_counts.count = count;
    out->null_counts.present = true;
    goto done;
buf_err:
    rc = pm_buf_error(err, rc);
    goto done;
nomem:
    rc = pm_nomem(err);
done:
    if (lo != mins)
        pm_free(lo);
    if (hi != maxs)
        pm_free(hi);
    if (tp != ts)
        pm_free(tp);
    pm_buf_free(&b);
    return rc;
}

int pm_stats_serialize_all(pm_arena *arena, const pm_type *const *types, const pm_col_result *res,
                           size_t count, pm_simple_stats *out, paimon_error *err)
{
    const pm_col_result *rp[256] = {0}, **p = rp;
    int rc;
    if (count > 256 && (p = pm_malloc(count * sizeof(*p))) == NULL)
        return pm_nomem(err);
    for (size_t i = 0; i < count; i++)
        p[i] = &res[i];
    rc = serialize(arena, types, p, count, out, err);
    if (p != rp)
        pm_free(p);
    return rc;
}

int pm_stats_serialize_dense(pm_arena *arena, const pm_type *const *types, const char *const *names,
                             const pm_col_result *res, size_t count, bool dense,
                             pm_simple_stats *out, pm_avro_array *cols, paimon_error *err)
{
    const pm_col_result **p;
    const pm_type **t;
    const char **n;
    size_t kept = 0;
    int rc;
    memset(cols, 0, sizeof(*cols));
    if (!dense)
        return pm_stats_serialize_all(arena, types, res, count, out, err);
    p = pm_malloc((count + 1) * sizeof(*p));
    t = pm_malloc((count + 1) * sizeof(*t));
    n = pm_arena_alloc(arena, (count + 1) * sizeof(*n));
    if (p == NULL || t == NULL || n == NULL) {
        pm_free(p);
        pm_free(t);
        return pm_nomem(err);
    }
    for (size_t i = 0; i < count; i++) {
        if (res[i].none)
            continue;
        p[kept] = &res[i];
        t[kept] = types[i];
        n[kept] = names[i];
        kept++;
    }
    rc = serialize(arena, t, p, kept, out, err);
    if (rc == 0 && kept != count) {
        cols->items = (void *)n;
        cols->count = kept;
        cols->present = true;
    }
    pm_free(p);
    pm_free(t);
    return rc;
}

int pm_stats_empty(pm_arena *arena, pm_simple_stats *out, paimon_error *err)
{
    static const uint8_t EMPTY_ROW[12] = {0};
    memset(out, 0, sizeof(*out));
    out->min_values.ptr = out->max_values.ptr = pm_arena_dup(arena, EMPTY_ROW, sizeof(EMPTY_ROW));
    if (out->min_values.ptr == NULL)
        return pm_nomem(err);
    out->min_values.len = out->max_values.len = sizeof(EMPTY_ROW);
    out->null_counts.present = true;
    out->null_counts.items = NULL;
    out->null_counts.count = 0;
    return 0;
}
