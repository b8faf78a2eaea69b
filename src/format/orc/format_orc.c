/*
 * ORC behind the data-file interface (format/data_file.h): ORC data files read into
 * columnar batches, and the text of `paimon file meta` for ORC files.
 *
 * Columns are found as Java Paimon finds them: by the `paimon.id` type attribute where
 * the file's struct fields carry one (Paimon 1.0 and later), otherwise by name (0.9 and
 * older wrote no attributes); ARRAY elements and MAP keys and values by position.  A field
 * the file lacks reads as null.  Vectors move into the batch without copying where the
 * layouts agree (orc_reader.h and data/batch.h share Arrow's); TIMESTAMP values are scaled
 * from milliseconds + nanoseconds to the unit of their precision, TIME(p > 3) from
 * milliseconds.
 *
 * A bare file's columns get the Paimon types Java Paimon maps the ORC types to
 * (shared/spec/canonical-rows.md): timestamp is TIMESTAMP(9), timestamp with local time
 * zone TIMESTAMP(9) WITH LOCAL TIME ZONE, binary BYTES, varchar(n) VARCHAR(n), list ARRAY,
 * map MAP, struct ROW; every column nullable.
 *
 * A predicate prunes stripes (stripe statistics) and row groups (row index statistics):
 * each top-level scalar column it reads gets min/max, null count from the ORC statistics
 * (orc_stats_to_col).  Pruning is never exact; callers filter rows themselves.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/canonical.h"
#include "format/data_file.h"
#include "format/orc/orc_describe.h"
#include "format/orc/orc_reader.h"
#include "util/alloc.h"

typedef struct cplan cplan;

/* How one column of the read type comes out of the file. */
struct cplan {
    const pm_type *t;   /* the Paimon type asked for */
    int64_t col;        /* ORC column id; -1 when the file lacks it */
    size_t child_index; /* index of this column among its ORC parent's children */
    cplan *children;    /* ROW fields, ARRAY element, MAP key and value */
    size_t child_count;
};

typedef struct orc_file {
    pm_orc_reader *r;
    pm_type *type; /* the file's columns as Paimon types */
    char *path;
    pm_type *read_type; /* the read in progress (owned copy) */
    cplan root;
    const pm_predicate *filter;
    int64_t *filter_cols;   /* per read_type field: ORC column id for statistics, or -1 */
    int64_t *stripe_starts; /* the first row of each stripe, made by orc_section_starts */
} orc_file;

/* ---- the file's Paimon types ----------------------------------------------------------- */

static int orc_paimon_type(const pm_orc_footer *f, uint32_t col, int depth, pm_type **out)
{
    const pm_orc_type *o = &f->types[col];
    pm_type *t = NULL;
    pm_type_id id;
    int rc = 0;
    *out = NULL;
    if (depth > PM_ORC_MAX_DEPTH) /* pm_orc_check_types() bounds a file's tree */
        return PAIMON_ECORRUPT;
    switch (o->kind) {
    case PM_ORC_BOOLEAN: id = PM_TYPE_BOOLEAN; break;
    case PM_ORC_BYTE: id = PM_TYPE_TINYINT; break;
    case PM_ORC_SHORT: id = PM_TYPE_SMALLINT; break;
    case PM_ORC_INT: id = PM_TYPE_INT; break;
    case PM_ORC_LONG: id = PM_TYPE_BIGINT; break;
    case PM_ORC_FLOAT: id = PM_TYPE_FLOAT; break;
    case PM_ORC_DOUBLE: id = PM_TYPE_DOUBLE; break;
    case PM_ORC_STRING:
    case PM_ORC_VARCHAR: id = PM_TYPE_VARCHAR; break;
    case PM_ORC_CHAR: id = PM_TYPE_CHAR; break;
    case PM_ORC_BINARY: id = PM_TYPE_VARBINARY; break;
    case PM_ORC_TIMESTAMP: id = PM_TYPE_TIMESTAMP; break;
    case PM_ORC_TIMESTAMP_INSTANT: id = PM_TYPE_TIMESTAMP_LTZ; break;
    case PM_ORC_DECIMAL: id = PM_TYPE_DECIMAL; break;
    case PM_ORC_DATE: id = PM_TYPE_DATE; break;
    case PM_ORC_LIST: id = PM_TYPE_ARRAY; break;
    case PM_ORC_MAP: id = PM_TYPE_MAP; break;
    case PM_ORC_STRUCT: id = PM_TYPE_ROW; break;
    default: return PAIMON_EUNSUPPORTED;
    }
    if ((t = pm_type_new(id)) == NULL)
        return PAIMON_ENOMEM;
    switch (o->kind) {
    case PM_ORC_STRING:
    case PM_ORC_BINARY: t->length = PM_MAX_LENGTH; break;
    case PM_ORC_VARCHAR:
    case PM_ORC_CHAR:
        t->length = o->has_max_length && o->max_length > 0 && o->max_length <= PM_MAX_LENGTH
                        ? (int32_t)o->max_length
                        : (o->kind == PM_ORC_CHAR ? 1 : PM_MAX_LENGTH);
        break;
    case PM_ORC_TIMESTAMP:
    case PM_ORC_TIMESTAMP_INSTANT: t->precision = 9; break;
    case PM_ORC_DECIMAL:
        t->precision = o->has_precision && o->precision >= 1 && o->precision <= 38
                           ? (int32_t)o->precision
                           : 38;
        t->scale = o->has_scale && (int32_t)o->scale <= t->precision ? (int32_t)o->scale : 10;
        break;
    case PM_ORC_LIST: rc = orc_paimon_type(f, o->subtypes[0], depth + 1, &t->element); break;
    case PM_ORC_MAP:
        if ((rc = orc_paimon_type(f, o->subtypes[0], depth + 1, &t->element)) == 0)
            rc = orc_paimon_type(f, o->subtypes[1], depth + 1, &t->value);
        break;
    case PM_ORC_STRUCT:
        for (size_t i = 0; i < o->subtype_count && rc == 0; i++) {
            pm_type *ft = NULL;
            int32_t fid;
            const char *name = o->field_names[i];
            if (!pm_orc_field_id(&f->types[o->subtypes[i]], &fid))
                fid = (int32_t)i;
            if ((rc = orc_paimon_type(f, o->subtypes[i], depth + 1, &ft)) == 0)
                rc = pm_type_row_add(t, fid, name, ft);
        }
        break;
    default: break;
    }
    if (rc != 0) {
        pm_type_free(t);
        return rc;
    }
    *out = t;
    return 0;
}

/* ---- matching the read type against the file ------------------------------------------ */

static void plan_free(cplan *p)
{
    for (size_t i = 0; i < p->child_count; i++)
        plan_free(&p->children[i]);
    pm_free(p->children);
    p->children = NULL;
    p->child_count = 0;
}

/* Whether ORC kind `k` reads as Paimon type `t`. */
static bool kind_fits(const pm_type *t, const pm_orc_type *o)
{
    switch (t->id) {
    case PM_TYPE_BOOLEAN: return o->kind == PM_ORC_BOOLEAN;
    case PM_TYPE_TINYINT: return o->kind == PM_ORC_BYTE;
    case PM_TYPE_SMALLINT: return o->kind == PM_ORC_BYTE || o->kind == PM_ORC_SHORT;
    case PM_TYPE_INT:
        return o->kind == PM_ORC_BYTE || o->kind == PM_ORC_SHORT || o->kind == PM_ORC_INT;
    case PM_TYPE_BIGINT:
        return o->kind == PM_ORC_BYTE || o->kind == PM_ORC_SHORT || o->kind == PM_ORC_INT ||
               o->kind == PM_ORC_LONG;
    case PM_TYPE_FLOAT: return o->kind == PM_ORC_FLOAT;
    case PM_TYPE_DOUBLE: return o->kind == PM_ORC_DOUBLE || o->kind == PM_ORC_FLOAT;
    case PM_TYPE_DECIMAL: return o->kind == PM_ORC_DECIMAL && (int32_t)o->scale == t->scale;
    case PM_TYPE_CHAR:
    case PM_TYPE_VARCHAR:
        return o->kind == PM_ORC_STRING || o->kind == PM_ORC_VARCHAR || o->kind == PM_ORC_CHAR;
    case PM_TYPE_BINARY:
    case PM_TYPE_VARBINARY: return o->kind == PM_ORC_BINARY || o->kind == PM_ORC_STRING;
    case PM_TYPE_DATE: return o->kind == PM_ORC_DATE;
    case PM_TYPE_TIME: return o->kind == PM_ORC_INT;
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ:
        return o->kind == PM_ORC_TIMESTAMP || o->kind == PM_ORC_TIMESTAMP_INSTANT;
    case PM_TYPE_ARRAY: return o->kind == PM_ORC_LIST;
    case PM_TYPE_MAP:
    case PM_TYPE_MULTISET: return o->kind == PM_ORC_MAP;
    case PM_TYPE_ROW: return o->kind == PM_ORC_STRUCT;
    default: return false;
    }
}

PM_MUST_CHECK static int plan_build(orc_file *f, cplan *p, const pm_type *t, int64_t col,
                                    bool *include, int depth, paimon_error *err);

/* Finds the struct child of `col` for field `fd`: by paimon.id when the struct's fields
 * carry ids, else by name.  An id several fields carry (a file written from a type without
 * distinct ids) says nothing, and the name decides. */
static int64_t find_field(const pm_orc_footer *ft, uint32_t col, const pm_field *fd, size_t *index)
{
    const pm_orc_type *st = &ft->types[col];
    bool has_ids = false;
    size_t hits = 0, hit = 0;
    for (size_t i = 0; i < st->subtype_count && !has_ids; i++) {
        int32_t id;
        has_ids = pm_orc_field_id(&ft->types[st->subtypes[i]], &id);
    }
    for (size_t i = 0; i < st->subtype_count && has_ids; i++) {
        int32_t id;
        if (pm_orc_field_id(&ft->types[st->subtypes[i]], &id) && id == fd->id && hits++ == 0)
            hit = i;
    }
    if (hits == 1) {
        *index = hit;
        return st->subtypes[hit];
    }
    if (has_ids && hits == 0)
        return -1;
    for (size_t i = 0; i < st->subtype_count; i++)
        if (strcmp(st->field_names[i], fd->name) == 0) {
            *index = i;
            return st->subtypes[i];
        }
    return -1;
}

PM_MUST_CHECK static int plan_build(orc_file *f, cplan *p, const pm_type *t, int64_t col,
                                    bool *include, int depth, paimon_error *err)
{
    const pm_orc_footer *ft = pm_orc_reader_footer(f->r);
    const pm_orc_type *o;
    size_t n = 0;
    p->t = t;
    p->col = col;
    if (col < 0)
        return 0;
    if (depth > PM_ORC_MAX_DEPTH) /* col's depth: pm_orc_check_types() bounds it */
        return pm_corrupt(err, "%s: ORC types nest deeper than %d levels", f->path, PM_MAX_NESTING);
    o = &ft->types[col];
    if (!kind_fits(t, o)) {
        pm_buf b;
        int rc;
        pm_buf_init(&b, 256);
        pm_type_format(t, &b);
        rc = pm_corrupt(err, "%s: ORC column %lld is %s, which does not read as %s", f->path,
                        (long long)col, pm_orc_kind_name(o->kind), pm_buf_cstr(&b));
        pm_buf_free(&b);
        return rc;
    }
    include[col] = true;
    switch (t->id) {
    case PM_TYPE_ROW: n = t->field_count; break;
    case PM_TYPE_ARRAY: n = 1; break;
    case PM_TYPE_MAP:
    case PM_TYPE_MULTISET: n = 2; break;
    default: return 0;
    }
    if ((p->children = pm_calloc(n, sizeof(cplan))) == NULL)
        return pm_nomem(err);
    p->child_count = n;
    for (size_t i = 0; i < n; i++) {
        int64_t c;
        const pm_type *ct;
        size_t index = i;
        int rc;
        if (t->id == PM_TYPE_ROW) {
            ct = t->fields[i].type;
            c = find_field(ft, (uint32_t)col, &t->fields[i], &index);
        } else {
            ct = i == 0 ? t->element : t->id == PM_TYPE_MAP ? t->value : &pm_multiset_count_type;
            c = o->subtypes[i];
        }
        p->children[i].child_index = index;
        if ((rc = plan_build(f, &p->children[i], ct, c, include, depth + 1, err)) != 0)
            return rc;
    }
    return 0;
}

/* ---- statistics for predicates --------------------------------------------------------- */

/* A decimal statistics text ("-77.022") as an unscaled value at `scale`. */
static bool parse_decimal(const pm_orc_bytes *b, int scale, pm_int128 *out)
{
    unsigned __int128 v = 0;
    int frac = -1;
    bool neg = false;
    size_t i = 0;
    if (b->ptr == NULL || b->len == 0 || b->len > 60)
        return false;
    if (b->ptr[0] == '-' || b->ptr[0] == '+')
        neg = b->ptr[i++] == '-';
    for (; i < b->len; i++) {
        uint8_t c = b->ptr[i];
        if (c == '.' && frac < 0) {
            frac = 0;
            continue;
        }
        if (c < '0' || c > '9' || v > ((unsigned __int128)1 << 120))
            return false;
        v = v * 10 + (c - '0');
        if (frac >= 0)
            frac++;
    }
    if (frac < 0)
        frac = 0;
    if (frac > scale)
        return false; /* more digits than the type keeps: do not prune on it */
    for (; frac < scale; frac++)
        v *= 10;
    *out = neg ? -(pm_int128)v : (pm_int128)v;
    return true;
}

/* ORC statistics of a column of Paimon type `t` as the predicate layer's. */
static void orc_stats_to_col(const pm_type *t, const pm_orc_stats *s, int64_t rows, pm_col_stats *c)
{
    memset(c, 0, sizeof(*c));
    if (s == NULL)
        return;
    if ((s->has & PM_OS_VALUES) && s->number_of_values <= (uint64_t)rows) {
        c->has_null_count = true;
        c->null_count = rows - (int64_t)s->number_of_values;
    }
    switch (t->id) {
    case PM_TYPE_TINYINT:
    case PM_TYPE_SMALLINT:
    case PM_TYPE_INT:
    case PM_TYPE_BIGINT:
    case PM_TYPE_DATE:
    case PM_TYPE_TIME:
        if ((s->kind == PM_OSK_INT || s->kind == PM_OSK_DATE) && (s->has & PM_OS_MIN) &&
            (s->has & PM_OS_MAX)) {
            c->has_min_max = true;
            c->min = pm_datum_int(s->i_min);
            c->max = pm_datum_int(s->i_max);
        }
        break;
    case PM_TYPE_FLOAT:
    case PM_TYPE_DOUBLE:
        /* NaN never makes a bound usable */
        if (s->kind == PM_OSK_DOUBLE && (s->has & PM_OS_MIN) && (s->has & PM_OS_MAX) &&
            s->d_min == s->d_min && s->d_max == s->d_max) {
            c->has_min_max = true;
            c->min.is_null = c->max.is_null = false;
            if (t->id == PM_TYPE_FLOAT) {
                c->min.v.f = (float)s->d_min;
                c->max.v.f = (float)s->d_max;
            } else {
                c->min.v.d = s->d_min;
                c->max.v.d = s->d_max;
            }
        }
        break;
    case PM_TYPE_CHAR:
    case PM_TYPE_VARCHAR:
        /* truncated lowerBound/upperBound are still bounds */
        if (s->kind == PM_OSK_STRING && (s->has & (PM_OS_MIN | PM_OS_LOWER)) &&
            (s->has & (PM_OS_MAX | PM_OS_UPPER))) {
            const pm_orc_bytes *lo = (s->has & PM_OS_MIN) ? &s->s_min : &s->s_lower;
            const pm_orc_bytes *hi = (s->has & PM_OS_MAX) ? &s->s_max : &s->s_upper;
            c->has_min_max = true;
            c->min = pm_datum_bytes(lo->ptr, lo->len);
            c->max = pm_datum_bytes(hi->ptr, hi->len);
        }
        break;
    case PM_TYPE_DECIMAL:
        if (s->kind == PM_OSK_DECIMAL && (s->has & PM_OS_MIN) && (s->has & PM_OS_MAX) &&
            parse_decimal(&s->s_min, t->scale, &c->min.v.dec) &&
            parse_decimal(&s->s_max, t->scale, &c->max.v.dec)) {
            c->has_min_max = true;
            c->min.is_null = c->max.is_null = false;
        }
        break;
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ:
        if (s->kind == PM_OSK_TIMESTAMP && (s->has & PM_OS_MIN_UTC) && (s->has & PM_OS_MAX_UTC)) {
            c->has_min_max = true;
            c->min.is_null = c->max.is_null = false;
            c->min.v.ts.millis = s->ts_min_utc;
            c->min.v.ts.nanos =
                (s->has & PM_OS_MIN_NANOS) && s->ts_min_nanos >= 1 && s->ts_min_nanos <= 1000000
                    ? s->ts_min_nanos - 1
                    : 0;
            c->max.v.ts.millis = s->ts_max_utc;
            c->max.v.ts.nanos =
                (s->has & PM_OS_MAX_NANOS) && s->ts_max_nanos >= 1 && s->ts_max_nanos <= 1000000
                    ? s->ts_max_nanos - 1
                    : 999999;
        }
        break;
    case PM_TYPE_BOOLEAN:
        if (s->kind == PM_OSK_BUCKET && s->bucket_count >= 1 && (s->has & PM_OS_VALUES) &&
            s->buckets[0] <= s->number_of_values && s->number_of_values > 0) {
            c->has_min_max = true;
            c->min.is_null = c->max.is_null = false;
            c->min.v.b = s->buckets[0] == s->number_of_values;
            c->max.v.b = s->buckets[0] > 0;
        }
        break;
    default: break;
    }
}

static bool stats_filter(void *ctx, const pm_orc_stats *const *stats, size_t count, int64_t rows)
{
    orc_file *f = ctx;
    size_t n = f->read_type->field_count;
    pm_col_stats *cs = pm_calloc(n + 1, sizeof(*cs));
    const pm_col_stats **ptrs = pm_calloc(n + 1, sizeof(*ptrs));
    bool keep = true;
    if (cs != NULL && ptrs != NULL) {
        for (size_t i = 0; i < n; i++) {
            int64_t col = f->filter_cols[i];
            if (col < 0 || (size_t)col >= count || stats[col] == NULL)
                continue;
            orc_stats_to_col(f->read_type->fields[i].type, stats[col], rows, &cs[i]);
            ptrs[i] = &cs[i];
        }
        keep = pm_predicate_eval_stats(f->filter, ptrs, rows);
    }
    pm_free(cs);
    pm_free(ptrs);
    return keep;
}

/* ---- vectors into batches -------------------------------------------------------------- */

static void swap(pm_buf *a, pm_buf *b)
{
    pm_buf t = *a;
    *a = *b;
    *b = t;
}

PM_MUST_CHECK static int fill(pm_column *c, const cplan *p, pm_orc_vec *v, int64_t n,
                              const char *path, paimon_error *err);

PM_MUST_CHECK static int fill_nulls(pm_column *c, int64_t n, paimon_error *err)
{
    for (int64_t i = 0; i < n; i++) {
        int rc = pm_column_append_null(c);
        if (rc != 0)
            return pm_buf_error(err, rc);
    }
    return 0;
}

/* Widens integers, or scales TIME milliseconds, value by value. */
PM_MUST_CHECK static int convert_fixed(pm_column *c, const pm_orc_vec *v, int64_t n,
                                       paimon_error *err)
{
    size_t from = n > 0 ? v->values.len / (size_t)n : 0;
    int rc = pm_buf_reserve(&c->values, (size_t)n * c->width);
    int64_t scale =
        c->type->id == PM_TYPE_TIME ? pm_time_units_per_second(c->type->precision) / 1000 : 1;
    if (rc != 0)
        return pm_buf_error(err, rc);
    for (int64_t i = 0; i < n; i++) {
        const uint8_t *src = v->values.data + (size_t)i * from;
        int64_t x = 0;
        if (v->type->kind == PM_ORC_FLOAT) {
            float fl;
            double d;
            memcpy(&fl, src, 4);
            d = (double)fl;
            memcpy(c->values.data + (size_t)i * 8, &d, 8);
            continue;
        }
        switch (from) {
        case 1: x = (int8_t)src[0]; break;
        case 2: {
            int16_t y;
            memcpy(&y, src, 2);
            x = y;
            break;
        }
        case 4: {
            int32_t y;
            memcpy(&y, src, 4);
            x = y;
            break;
        }
        default: memcpy(&x, src, 8); break;
        }
        x *= scale;
        switch (c->width) {
        case 2: {
            int16_t y = (int16_t)x;
            memcpy(c->values.data + (size_t)i * 2, &y, 2);
            break;
        }
        case 4: {
            int32_t y = (int32_t)x;
            memcpy(c->values.data + (size_t)i * 4, &y, 4);
            break;
        }
        default: memcpy(c->values.data + (size_t)i * 8, &x, 8); break;
        }
    }
    c->values.len = (size_t)n * c->width;
    return 0;
}

/* Milliseconds + nanoseconds of the millisecond into the precision's unit. */
PM_MUST_CHECK static int convert_timestamp(pm_column *c, const pm_orc_vec *v, int64_t n,
                                           const char *path, paimon_error *err)
{
    int p = c->type->precision;
    int rc = pm_buf_reserve(&c->values, (size_t)n * 8);
    if (rc != 0)
        return pm_buf_error(err, rc);
    for (int64_t i = 0; i < n; i++) {
        int64_t ms, x;
        int32_t ns;
        bool ok = true;
        memcpy(&ms, v->values.data + 8 * i, 8);
        memcpy(&ns, v->nanos.data + 4 * i, 4);
        if (p == 0)
            x = ms >= 0 ? ms / 1000 : -((-ms + 999) / 1000);
        else if (p <= 3)
            x = ms;
        else if (p <= 6)
            ok = !__builtin_mul_overflow(ms, 1000, &x) && !__builtin_add_overflow(x, ns / 1000, &x);
        else
            ok = !__builtin_mul_overflow(ms, 1000000, &x) && !__builtin_add_overflow(x, ns, &x);
        if (!ok)
            return pm_err_set(err, PAIMON_EUNSUPPORTED,
                              "%s: timestamp %lld ms is out of range for TIMESTAMP(%d)", path,
                              (long long)ms, p);
        memcpy(c->values.data + 8 * i, &x, 8);
    }
    c->values.len = (size_t)n * 8;
    return 0;
}

PM_MUST_CHECK static int fill(pm_column *c, const cplan *p, pm_orc_vec *v, int64_t n,
                              const char *path, paimon_error *err)
{
    int rc = 0;
    if (v == NULL)
        return fill_nulls(c, n, err);
    swap(&c->validity, &v->validity);
    c->null_count = v->null_count;
    switch (c->layout) {
    case PM_LAYOUT_BITS: swap(&c->values, &v->values); break;
    case PM_LAYOUT_FIXED:
        if (c->type->id == PM_TYPE_TIMESTAMP || c->type->id == PM_TYPE_TIMESTAMP_LTZ)
            rc = convert_timestamp(c, v, n, path, err);
        else if (v->values.len == (size_t)n * c->width &&
                 (c->type->id != PM_TYPE_TIME || c->width == 4) && v->type->kind != PM_ORC_FLOAT)
            swap(&c->values, &v->values); /* the same layout: no copy */
        else if (c->type->id == PM_TYPE_FLOAT)
            swap(&c->values, &v->values);
        else
            rc = convert_fixed(c, v, n, err); /* wider integers, FLOAT as DOUBLE, TIME(p > 3) */
        break;
    case PM_LAYOUT_VAR:
        swap(&c->values, &v->values);
        if (v->offsets.len > 0)
            swap(&c->offsets, &v->offsets);
        break;
    case PM_LAYOUT_LIST:
    case PM_LAYOUT_MAP: {
        int64_t elems;
        if (v->offsets.len > 0)
            swap(&c->offsets, &v->offsets);
        elems = pm_column_offset(c, n);
        for (size_t i = 0; i < c->child_count && rc == 0; i++)
            rc = fill(c->children[i], &p->children[i], v->children[i], elems, path, err);
        break;
    }
    case PM_LAYOUT_STRUCT:
        for (size_t i = 0; i < c->child_count && rc == 0; i++) {
            const cplan *cp = &p->children[i];
            pm_orc_vec *cv = cp->col >= 0 ? v->children[cp->child_index] : NULL;
            rc = fill(c->children[i], cp, cv, n, path, err);
        }
        break;
    case PM_LAYOUT_NONE:
        rc = pm_err_set(err, PAIMON_EUNSUPPORTED, "%s: a column type cannot be read", path);
        break;
    }
    c->length = n;
    return rc;
}

/* ---- the data format ------------------------------------------------------------------- */

static void orc_close(void *impl)
{
    orc_file *f = impl;
    if (f == NULL)
        return;
    plan_free(&f->root);
    pm_free(f->filter_cols);
    pm_free(f->stripe_starts);
    pm_type_free(f->read_type);
    pm_type_free(f->type);
    pm_orc_reader_free(f->r);
    pm_free(f->path);
    pm_free(f);
}

PM_MUST_CHECK static int orc_open(void **impl, pm_input *in, const char *path, paimon_error *err)
{
    orc_file *f = pm_calloc(1, sizeof(*f));
    int rc;
    *impl = NULL;
    if (f == NULL) {
        in->close(in);
        return pm_nomem(err);
    }
    if ((rc = pm_orc_reader_open(&f->r, in, path, err)) != 0) {
        pm_free(f);
        return rc;
    }
    if ((f->path = pm_strdup(path)) == NULL) {
        orc_close(f);
        return pm_nomem(err);
    }
    if ((rc = orc_paimon_type(pm_orc_reader_footer(f->r), 0, 0, &f->type)) != 0) {
        orc_close(f);
        if (rc == PAIMON_EUNSUPPORTED)
            return pm_err_set(err, rc, "%s: an ORC column type has no Paimon type", path);
        if (rc == PAIMON_ECORRUPT)
            return pm_corrupt(err, "%s: ORC types nest deeper than %d levels", path,
                              PM_MAX_NESTING);
        return pm_buf_error(err, rc);
    }
    f->type->nullable = false;
    *impl = f;
    return 0;
}

static const pm_type *orc_type(void *impl)
{
    return ((orc_file *)impl)->type;
}

static int64_t orc_rows(void *impl)
{
    return (int64_t)pm_orc_reader_footer(((orc_file *)impl)->r)->number_of_rows;
}

PM_MUST_CHECK static int orc_start(void *impl, const pm_read_options *o, paimon_error *err)
{
    orc_file *f = impl;
    const pm_orc_footer *ft = pm_orc_reader_footer(f->r);
    pm_orc_read_options ro;
    bool *include = NULL;
    int rc = 0;

    plan_free(&f->root);
    pm_free(f->filter_cols);
    f->filter_cols = NULL;
    pm_type_free(f->read_type);
    f->read_type = pm_type_clone(o != NULL && o->read_type != NULL ? o->read_type : f->type);
    include = pm_calloc(ft->type_count, sizeof(bool));
    if (f->read_type == NULL || include == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    if (f->read_type->id != PM_TYPE_ROW) {
        rc = pm_err_set(err, PAIMON_EINVALID, "%s: the read type is not a ROW", f->path);
        goto done;
    }
    PM_TRY(plan_build(f, &f->root, f->read_type, 0, include, 0, err));
    memset(&ro, 0, sizeof(ro));
    ro.include = include;
    ro.batch_rows =
        o != NULL && o->batch_rows > 0 ? o->batch_rows : pm_batch_default_rows(f->read_type);
    ro.pool = o != NULL ? o->pool : NULL;
    if (o != NULL && o->ranges != NULL) {
        ro.ranges = o->ranges;
        ro.range_count = o->range_count;
    }
    f->filter = o != NULL ? o->filter : NULL;
    if (f->filter != NULL) {
        size_t n = f->read_type->field_count;
        if ((f->filter_cols = pm_calloc(n + 1, sizeof(int64_t))) == NULL) {
            rc = pm_nomem(err);
            goto done;
        }
        /* top-level scalar columns only: their statistics count every row */
        for (size_t i = 0; i < n; i++)
            f->filter_cols[i] =
                pm_type_is_nested(f->read_type->fields[i].type) ? -1 : f->root.children[i].col;
        ro.filter = stats_filter;
        ro.filter_ctx = f;
    }
    rc = pm_orc_reader_start(f->r, &ro, err);
done:
    pm_free(include);
    return rc;
}

PM_MUST_CHECK static int orc_next(void *impl, pm_batch **out, paimon_error *err)
{
    orc_file *f = impl;
    const pm_orc_vec *root;
    pm_batch *b = NULL;
    int rc;

    *out = NULL;
    if (f->read_type == NULL && (rc = orc_start(f, NULL, err)) != 0)
        return rc;
    if ((rc = pm_orc_reader_next(f->r, &root, err)) != 0)
        return rc;
    if ((rc = pm_batch_new(&b, f->read_type, err)) != 0)
        return rc;
    for (size_t i = 0; i < b->column_count && rc == 0; i++) {
        const cplan *cp = &f->root.children[i];
        /* the vectors are the reader's; their buffers move into the batch */
        pm_orc_vec *cv = cp->col >= 0 ? root->children[cp->child_index] : NULL;
        rc = fill(b->columns[i], cp, cv, root->length, f->path, err);
    }
    if (rc == 0)
        rc = pm_batch_set_rows(b, root->length, err);
    if (rc != 0) {
        pm_batch_free(b);
        return rc;
    }
    *out = b;
    return 0;
}

PM_MUST_CHECK static int orc_describe_text(void *impl, pm_buf *out, paimon_error *err)
{
    orc_file *f = impl;
    const pm_orc_footer *ft = pm_orc_reader_footer(f->r);
    const pm_orc_postscript *ps = pm_orc_reader_postscript(f->r);
    static const char *const writers[] = {"ORC Java",      "ORC C++", "Presto",
                                          "Scritchley Go", "Trino",   "CUDF"};
    int rc;
    rc = pm_buf_printf(out, "file: %s\nformat: orc (version %u.%u)\nsize: %llu bytes\n", f->path,
                       ps->version_count > 0 ? ps->version[0] : 0,
                       ps->version_count > 1 ? ps->version[1] : 0,
                       (unsigned long long)pm_orc_reader_file_size(f->r));
    if (rc == 0)
        rc = pm_buf_printf(out, "created by: %s%s%s\nrows: %llu\nstripes: %zu\n",
                           ft->writer < 6 ? writers[ft->writer] : "writer ",
                           ft->writer < 6 ? " " : "",
                           ft->software_version != NULL ? ft->software_version : "",
                           (unsigned long long)ft->number_of_rows, ft->stripe_count);
    if (rc == 0 && (rc = pm_buf_puts(out, "type: ")) == 0 &&
        (rc = pm_type_format(f->type, out)) == 0)
        rc = pm_buf_puts(out, "\n");
    if (rc != 0)
        return pm_buf_error(err, rc);
    return pm_orc_describe(f->r, NULL, out, err);
}

/* A section begins at a stripe: a stripe's streams are decompressed whole, so a section
 * that began inside one would decompress it again (api/file.c). */
PM_MUST_CHECK static int orc_section_starts(void *impl, const int64_t **starts, size_t *count,
                                            paimon_error *err)
{
    orc_file *f = impl;
    const pm_orc_footer *ft = pm_orc_reader_footer(f->r);
    if (f->stripe_starts == NULL) {
        int64_t row = 0;
        if ((f->stripe_starts = pm_calloc(ft->stripe_count + 1, sizeof(int64_t))) == NULL)
            return pm_nomem(err);
        for (size_t i = 0; i < ft->stripe_count; i++) {
            f->stripe_starts[i] = row;
            row += (int64_t)ft->stripes[i].number_of_rows; /* their sum was checked at open */
        }
    }
    *starts = f->stripe_starts;
    *count = ft->stripe_count;
    return 0;
}

const pm_data_format pm_orc_format = {
    .name = "orc",
    .magic = "ORC",
    .magic_len = 3,
    .open = orc_open,
    .close = orc_close,
    .type = orc_type,
    .row_count = orc_rows,
    .start = orc_start,
    .next = orc_next,
    .describe = orc_describe_text,
    .section_starts = orc_section_starts,
};
