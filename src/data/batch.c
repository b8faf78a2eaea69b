/* Columnar batches: construction, appenders, accessors.  The layout is described in batch.h. */
#include "data/batch.h"

#include <string.h>

#include "util/alloc.h"
#include "util/assert.h"
#include "util/error.h"
#include "util/time.h"

const pm_type pm_multiset_count_type = {.id = PM_TYPE_INT, .nullable = false};

/* ---- layouts and units ----------------------------------------------------------------- */

pm_layout pm_layout_of(const pm_type *t, uint32_t *width)
{
    uint32_t w = 0;
    pm_layout l = PM_LAYOUT_FIXED;
    switch (t->id) {
    case PM_TYPE_BOOLEAN: l = PM_LAYOUT_BITS; break;
    case PM_TYPE_TINYINT: w = 1; break;
    case PM_TYPE_SMALLINT: w = 2; break;
    case PM_TYPE_INT:
    case PM_TYPE_DATE:
    case PM_TYPE_FLOAT: w = 4; break;
    case PM_TYPE_TIME: w = t->precision <= 3 ? 4 : 8; break;
    case PM_TYPE_BIGINT:
    case PM_TYPE_DOUBLE:
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ: w = 8; break;
    case PM_TYPE_DECIMAL: w = 16; break;
    case PM_TYPE_CHAR:
    case PM_TYPE_VARCHAR:
    case PM_TYPE_BINARY:
    case PM_TYPE_VARBINARY: l = PM_LAYOUT_VAR; break;
    case PM_TYPE_ARRAY: l = PM_LAYOUT_LIST; break;
    case PM_TYPE_MAP:
    case PM_TYPE_MULTISET: l = PM_LAYOUT_MAP; break;
    case PM_TYPE_ROW: l = PM_LAYOUT_STRUCT; break;
    default: l = PM_LAYOUT_NONE; break;
    }
    if (width != NULL)
        *width = w;
    return l;
}

/* Estimated bytes of one value of `t` in a batch (pm_batch_default_rows), saturating at
 * VALUE_BYTES_CAP (nested ARRAYs multiply by four a level). */
#define VALUE_BYTES_CAP (1ull << 32)
static uint64_t value_bytes(const pm_type *t, int depth)
{
    uint32_t width = 0;
    uint64_t sum = 0;
    if (depth > PM_MAX_NESTING + 1) /* the table's row is depth 0 */
        return VALUE_BYTES_CAP;     /* deeper types are refused where they are built */
    switch (pm_layout_of(t, &width)) {
    case PM_LAYOUT_BITS: return 1;
    case PM_LAYOUT_FIXED: return width;
    case PM_LAYOUT_VAR: return 4 + 16;
    case PM_LAYOUT_LIST: sum = value_bytes(t->element, depth + 1); break;
    case PM_LAYOUT_MAP: /* MAP: element is the key; MULTISET: its counts are INT */
        sum = value_bytes(t->element, depth + 1) +
              (t->value != NULL ? value_bytes(t->value, depth + 1) : 4);
        break;
    case PM_LAYOUT_STRUCT:
        for (size_t i = 0; i < t->field_count && sum < VALUE_BYTES_CAP; i++)
            sum += value_bytes(t->fields[i].type, depth + 1);
        return sum < VALUE_BYTES_CAP ? sum : VALUE_BYTES_CAP;
    default: return 0;
    }
    /* an ARRAY or MAP value: its offset and four elements */
    return sum < VALUE_BYTES_CAP / 4 ? 4 + 4 * sum : VALUE_BYTES_CAP;
}

int64_t pm_batch_default_rows(const pm_type *row_type)
{
    uint64_t row = row_type != NULL ? value_bytes(row_type, 0) : 0, rows;
    if (row == 0)
        return PM_BATCH_DEFAULT_ROWS;
    rows = PM_BATCH_TARGET_BYTES / row / 1024 * 1024;
    if (rows < 1024)
        return 1024;
    return rows > PM_BATCH_DEFAULT_ROWS ? PM_BATCH_DEFAULT_ROWS : (int64_t)rows;
}

int64_t pm_timestamp_units_per_second(int precision)
{
    if (precision <= 0)
        return 1;
    if (precision <= 3)
        return 1000;
    if (precision <= 6)
        return 1000000;
    return 1000000000;
}

int64_t pm_time_units_per_second(int precision)
{
    return precision <= 3 ? 1000 : pm_timestamp_units_per_second(precision);
}

/* ---- columns --------------------------------------------------------------------------- */

void pm_column_retype(pm_column *c, const pm_type *t)
{
    /* recursion as deep as the type: at most PM_MAX_NESTING */
    c->type = t;
    if (t->id == PM_TYPE_ROW) {
        for (size_t i = 0; i < c->child_count && i < t->field_count; i++)
            pm_column_retype(c->children[i], t->fields[i].type);
    } else if (t->id == PM_TYPE_ARRAY) {
        pm_column_retype(c->children[0], t->element);
    } else if (t->id == PM_TYPE_MAP || t->id == PM_TYPE_MULTISET) {
        pm_column_retype(c->children[0], t->element);
        if (c->child_count > 1)
            pm_column_retype(c->children[1],
                             t->id == PM_TYPE_MAP ? t->value : &pm_multiset_count_type);
    }
}

void pm_column_free(pm_column *c)
{
    if (c == NULL)
        return;
    for (size_t i = 0; i < c->child_count; i++)
        pm_column_free(c->children[i]);
    pm_free(c->children);
    pm_buf_free(&c->validity);
    pm_buf_free(&c->values);
    pm_buf_free(&c->offsets);
    pm_free(c);
}

static int add_child(pm_column *c, const pm_type *t)
{
    pm_column *child = pm_column_new(t);
    if (child == NULL)
        return PAIMON_ENOMEM;
    c->children[c->child_count++] = child;
    return 0;
}

pm_column *pm_column_new(const pm_type *type)
{
    pm_column *c = pm_calloc(1, sizeof(*c));
    size_t n = 0;
    int rc = 0;
    if (c == NULL)
        return NULL;
    c->type = type;
    c->layout = pm_layout_of(type, &c->width);
    pm_buf_init(&c->validity, 0);
    pm_buf_init(&c->values, 0);
    pm_buf_init(&c->offsets, 0);
    if (c->layout == PM_LAYOUT_NONE)
        goto done;
    switch (c->layout) {
    case PM_LAYOUT_LIST: n = 1; break;
    case PM_LAYOUT_MAP: n = 2; break;
    case PM_LAYOUT_STRUCT: n = type->field_count; break;
    default: break;
    }
    if (n > 0 && (c->children = pm_calloc(n, sizeof(pm_column *))) == NULL)
        goto done;
    if (c->layout == PM_LAYOUT_LIST) {
        rc = add_child(c, type->element);
    } else if (c->layout == PM_LAYOUT_MAP) {
        rc = add_child(c, type->element);
        if (rc == 0)
            rc = add_child(c, type->id == PM_TYPE_MAP ? type->value : &pm_multiset_count_type);
    } else if (c->layout == PM_LAYOUT_STRUCT) {
        for (size_t i = 0; rc == 0 && i < n; i++)
            rc = add_child(c, type->fields[i].type);
    }
    if (rc != 0)
        goto done;
    if (c->layout == PM_LAYOUT_VAR || c->layout == PM_LAYOUT_LIST || c->layout == PM_LAYOUT_MAP) {
        if (pm_buf_zero(&c->offsets, 4) != 0)
            goto done;
    }
    return c;
done:
    pm_column_free(c);
    return NULL;
}

void pm_column_reset(pm_column *c)
{
    c->length = 0;
    c->null_count = 0;
    c->validity.len = 0;
    c->values.len = 0;
    if (c->offsets.len > 0)
        c->offsets.len = 4; /* the leading 0 stays */
    for (size_t i = 0; i < c->child_count; i++)
        pm_column_reset(c->children[i]);
}

int pm_column_reserve(pm_column *c, int64_t n)
{
    int rc = 0;
    size_t slots = (size_t)n;
    if (n <= 0)
        return 0;
    if (c->layout == PM_LAYOUT_FIXED)
        rc = pm_buf_reserve(&c->values, slots * c->width);
    else if (c->layout == PM_LAYOUT_BITS)
        rc = pm_buf_reserve(&c->values, slots / 8 + 2);
    if (rc == 0 &&
        (c->layout == PM_LAYOUT_VAR || c->layout == PM_LAYOUT_LIST || c->layout == PM_LAYOUT_MAP))
        rc = pm_buf_reserve(&c->offsets, slots * 4);
    if (rc == 0 && c->validity.len > 0)
        rc = pm_buf_reserve(&c->validity, slots / 8 + 2);
    return rc;
}

/* Grows a bitmap to cover `bits` bits, new bytes zeroed. */
static int bits_cover(pm_buf *b, int64_t bits)
{
    size_t need = (size_t)((bits + 7) / 8);
    if (need > b->len)
        return pm_buf_zero(b, need - b->len);
    return 0;
}

/* Materializes the validity bitmap with the first `length` bits set. */
static int validity_materialize(pm_column *c)
{
    size_t full = (size_t)(c->length / 8);
    int rc;
    if (c->validity.len > 0)
        return 0;
    if ((rc = pm_buf_reserve(&c->validity, full + 2)) != 0)
        return rc;
    memset(c->validity.data, 0xff, full);
    c->validity.len = full;
    if (c->length % 8 != 0)
        c->validity.data[c->validity.len++] = (uint8_t)((1u << (c->length % 8)) - 1);
    return 0;
}

/* Records the validity of the slot being appended (index c->length). */
int pm_column_push_validity(pm_column *c, bool valid)
{
    int rc;
    if (valid) {
        if (c->validity.len == 0)
            return 0;
        if ((rc = bits_cover(&c->validity, c->length + 1)) != 0)
            return rc;
        c->validity.data[c->length >> 3] |= (uint8_t)(1u << (c->length & 7));
        return 0;
    }
    if (c->validity.len == 0 && c->length > 0) {
        if ((rc = validity_materialize(c)) != 0)
            return rc;
    }
    if ((rc = bits_cover(&c->validity, c->length + 1)) != 0)
        return rc;
    c->validity.data[c->length >> 3] &= (uint8_t) ~(1u << (c->length & 7));
    c->null_count++;
    return 0;
}

int pm_column_set_null(pm_column *c, int64_t i)
{
    int rc;
    if (i < 0 || i >= c->length)
        return PAIMON_EINVALID;
    if (!pm_column_is_valid(c, i))
        return 0;
    if (c->validity.len == 0 && (rc = validity_materialize(c)) != 0)
        return rc;
    c->validity.data[i >> 3] &= (uint8_t) ~(1u << (i & 7));
    c->null_count++;
    return 0;
}

static int push_offset(pm_column *c, int64_t end)
{
    uint8_t tmp[4];
    int32_t v;
    if (end > INT32_MAX)
        return PAIMON_ELIMIT;
    v = (int32_t)end;
    memcpy(tmp, &v, 4);
    return pm_buf_append(&c->offsets, tmp, 4);
}

static int64_t child_end(const pm_column *c)
{
    return c->child_count > 0 ? c->children[0]->length : 0;
}

int pm_column_append_null(pm_column *c)
{
    int rc = pm_column_push_validity(c, false);
    if (rc != 0)
        return rc;
    switch (c->layout) {
    case PM_LAYOUT_BITS: rc = bits_cover(&c->values, c->length + 1); break;
    case PM_LAYOUT_FIXED: rc = pm_buf_zero(&c->values, c->width); break;
    case PM_LAYOUT_VAR: rc = push_offset(c, (int64_t)c->values.len); break;
    case PM_LAYOUT_LIST:
    case PM_LAYOUT_MAP: rc = push_offset(c, child_end(c)); break;
    case PM_LAYOUT_STRUCT:
        for (size_t i = 0; rc == 0 && i < c->child_count; i++)
            rc = pm_column_append_null(c->children[i]);
        break;
    default: rc = PAIMON_EINVALID; break;
    }
    if (rc == 0)
        c->length++;
    return rc;
}

static int append_fixed(pm_column *c, const void *v)
{
    int rc = pm_column_push_validity(c, true);
    if (rc == 0)
        rc = pm_buf_append(&c->values, v, c->width);
    if (rc == 0)
        c->length++;
    return rc;
}

int pm_column_append_raw(pm_column *c, const void *value)
{
    if (c->layout != PM_LAYOUT_FIXED)
        return PAIMON_EINVALID;
    return append_fixed(c, value);
}

int pm_column_append_i64(pm_column *c, int64_t v)
{
    uint8_t tmp[16];
    if (c->layout != PM_LAYOUT_FIXED)
        return PAIMON_EINVALID;
    switch (c->width) {
    case 1: tmp[0] = (uint8_t)v; break;
    case 2: {
        int16_t x = (int16_t)v;
        memcpy(tmp, &x, 2);
        break;
    }
    case 4: {
        int32_t x = (int32_t)v;
        memcpy(tmp, &x, 4);
        break;
    }
    case 8: memcpy(tmp, &v, 8); break;
    default: {
        pm_int128 x = v;
        memcpy(tmp, &x, 16);
        break;
    }
    }
    return append_fixed(c, tmp);
}

int pm_column_append_f64(pm_column *c, double v)
{
    if (c->type->id == PM_TYPE_FLOAT) {
        float f = (float)v;
        return append_fixed(c, &f);
    }
    if (c->type->id != PM_TYPE_DOUBLE)
        return PAIMON_EINVALID;
    return append_fixed(c, &v);
}

int pm_column_append_bytes(pm_column *c, const void *data, size_t len)
{
    int rc;
    if (c->layout != PM_LAYOUT_VAR)
        return PAIMON_EINVALID;
    if (len > INT32_MAX || c->values.len + len > INT32_MAX)
        return PAIMON_ELIMIT;
    if ((rc = pm_column_push_validity(c, true)) != 0 ||
        (rc = pm_buf_append(&c->values, data, len)) != 0 ||
        (rc = push_offset(c, (int64_t)c->values.len)) != 0)
        return rc;
    c->length++;
    return 0;
}

static int append_bool(pm_column *c, bool v)
{
    int rc = pm_column_push_validity(c, true);
    if (rc == 0)
        rc = bits_cover(&c->values, c->length + 1);
    if (rc != 0)
        return rc;
    if (v)
        c->values.data[c->length >> 3] |= (uint8_t)(1u << (c->length & 7));
    c->length++;
    return 0;
}

int pm_column_append_datum(pm_column *c, const pm_datum *d)
{
    const pm_type *t = c->type;
    if (d->is_null)
        return pm_column_append_null(c);
    switch (t->id) {
    case PM_TYPE_BOOLEAN: return append_bool(c, d->v.b);
    case PM_TYPE_TINYINT:
    case PM_TYPE_SMALLINT:
    case PM_TYPE_INT:
    case PM_TYPE_BIGINT:
    case PM_TYPE_DATE: return pm_column_append_i64(c, d->v.i);
    case PM_TYPE_TIME: {
        int64_t per = pm_time_units_per_second(t->precision) / 1000;
        return pm_column_append_i64(c, d->v.i * per);
    }
    case PM_TYPE_FLOAT: return append_fixed(c, &d->v.f);
    case PM_TYPE_DOUBLE: return append_fixed(c, &d->v.d);
    case PM_TYPE_DECIMAL: return append_fixed(c, &d->v.dec);
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ: {
        int64_t per = pm_timestamp_units_per_second(t->precision), v;
        if (per == 1)
            v = pm_floor_div(d->v.ts.millis, 1000);
        else if (per == 1000)
            v = d->v.ts.millis;
        else if (per == 1000000)
            v = d->v.ts.millis * 1000 + d->v.ts.nanos / 1000;
        else
            v = d->v.ts.millis * 1000000 + d->v.ts.nanos;
        return pm_column_append_i64(c, v);
    }
    case PM_TYPE_CHAR:
    case PM_TYPE_VARCHAR:
    case PM_TYPE_BINARY:
    case PM_TYPE_VARBINARY: return pm_column_append_bytes(c, d->v.s.ptr, d->v.s.len);
    default: return PAIMON_EINVALID;
    }
}

int pm_column_list_end(pm_column *c, bool valid)
{
    int rc;
    if (c->layout != PM_LAYOUT_LIST && c->layout != PM_LAYOUT_MAP)
        return PAIMON_EINVALID;
    if (c->layout == PM_LAYOUT_MAP && c->children[0]->length != c->children[1]->length)
        return PAIMON_EINVALID;
    if ((rc = pm_column_push_validity(c, valid)) != 0 || (rc = push_offset(c, child_end(c))) != 0)
        return rc;
    c->length++;
    return 0;
}

int pm_column_struct_end(pm_column *c, bool valid)
{
    int rc;
    if (c->layout != PM_LAYOUT_STRUCT)
        return PAIMON_EINVALID;
    for (size_t i = 0; i < c->child_count; i++)
        if (c->children[i]->length != c->length + 1)
            return PAIMON_EINVALID;
    if ((rc = pm_column_push_validity(c, valid)) != 0)
        return rc;
    c->length++;
    return 0;
}

/* ---- reading --------------------------------------------------------------------------- */

static int64_t load_int(const pm_column *c, int64_t i)
{
    const uint8_t *p = c->values.data + (size_t)i * c->width;
    switch (c->width) {
    case 1: return (int8_t)p[0];
    case 2: {
        int16_t v;
        memcpy(&v, p, 2);
        return v;
    }
    case 4: {
        int32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    default: {
        int64_t v;
        memcpy(&v, p, 8);
        return v;
    }
    }
}

void pm_column_get_datum(const pm_column *c, int64_t i, pm_datum *out)
{
    const pm_type *t = c->type;
    memset(out, 0, sizeof(*out));
    if (!pm_column_is_valid(c, i)) {
        out->is_null = true;
        return;
    }
    switch (t->id) {
    case PM_TYPE_BOOLEAN: out->v.b = (c->values.data[i >> 3] >> (i & 7)) & 1; break;
    case PM_TYPE_TINYINT:
    case PM_TYPE_SMALLINT:
    case PM_TYPE_INT:
    case PM_TYPE_BIGINT:
    case PM_TYPE_DATE: out->v.i = load_int(c, i); break;
    case PM_TYPE_TIME:
        out->v.i = pm_floor_div(load_int(c, i), pm_time_units_per_second(t->precision) / 1000);
        break;
    case PM_TYPE_FLOAT: memcpy(&out->v.f, c->values.data + (size_t)i * 4, 4); break;
    case PM_TYPE_DOUBLE: memcpy(&out->v.d, c->values.data + (size_t)i * 8, 8); break;
    case PM_TYPE_DECIMAL: memcpy(&out->v.dec, c->values.data + (size_t)i * 16, 16); break;
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ: {
        int64_t v = load_int(c, i), per = pm_timestamp_units_per_second(t->precision);
        if (per == 1) {
            out->v.ts.millis = v * 1000;
        } else if (per == 1000) {
            out->v.ts.millis = v;
        } else if (per == 1000000) {
            out->v.ts.millis = pm_floor_div(v, 1000);
            out->v.ts.nanos = (int32_t)(pm_floor_mod(v, 1000) * 1000);
        } else {
            out->v.ts.millis = pm_floor_div(v, 1000000);
            out->v.ts.nanos = (int32_t)pm_floor_mod(v, 1000000);
        }
        break;
    }
    case PM_TYPE_CHAR:
    case PM_TYPE_VARCHAR:
    case PM_TYPE_BINARY:
    case PM_TYPE_VARBINARY: {
        int32_t a = pm_column_offset(c, i), b = pm_column_offset(c, i + 1);
        out->v.s.ptr = c->values.data != NULL ? c->values.data + a : (const uint8_t *)"";
        out->v.s.len = (size_t)(b - a);
        break;
    }
    default: out->is_null = true; break;
    }
}

int pm_column_append_from(pm_column *dst, const pm_column *src, int64_t i)
{
    int rc = 0;
    if (!pm_column_is_valid(src, i))
        return pm_column_append_null(dst);
    switch (src->layout) {
    case PM_LAYOUT_BITS: return append_bool(dst, (src->values.data[i >> 3] >> (i & 7)) & 1);
    case PM_LAYOUT_FIXED: return append_fixed(dst, src->values.data + (size_t)i * src->width);
    case PM_LAYOUT_VAR: {
        int32_t a = pm_column_offset(src, i), b = pm_column_offset(src, i + 1);
        return pm_column_append_bytes(dst, src->values.data + a, (size_t)(b - a));
    }
    case PM_LAYOUT_LIST:
    case PM_LAYOUT_MAP: {
        int32_t a = pm_column_offset(src, i), b = pm_column_offset(src, i + 1);
        for (int32_t j = a; rc == 0 && j < b; j++)
            for (size_t k = 0; rc == 0 && k < src->child_count; k++)
                rc = pm_column_append_from(dst->children[k], src->children[k], j);
        return rc != 0 ? rc : pm_column_list_end(dst, true);
    }
    case PM_LAYOUT_STRUCT:
        for (size_t k = 0; rc == 0 && k < src->child_count; k++)
            rc = pm_column_append_from(dst->children[k], src->children[k], i);
        return rc != 0 ? rc : pm_column_struct_end(dst, true);
    default: return PAIMON_EINVALID;
    }
}

/* ---- batches --------------------------------------------------------------------------- */

void pm_batch_free(pm_batch *b)
{
    if (b == NULL)
        return;
    for (size_t i = 0; i < b->column_count; i++)
        pm_column_free(b->columns[i]);
    pm_free(b->columns);
    pm_type_free(b->type);
    pm_free(b);
}

/* Whether every type in the tree of `t` has a column layout (no VARIANT or BLOB inside). */
static bool is_representable(const pm_type *t)
{
    switch (pm_layout_of(t, NULL)) {
    case PM_LAYOUT_NONE: return false;
    case PM_LAYOUT_LIST: return is_representable(t->element);
    case PM_LAYOUT_MAP:
        return is_representable(t->element) && (t->id != PM_TYPE_MAP || is_representable(t->value));
    case PM_LAYOUT_STRUCT:
        for (size_t i = 0; i < t->field_count; i++)
            if (!is_representable(t->fields[i].type))
                return false;
        return true;
    default: return true;
    }
}

int pm_batch_new(pm_batch **out, const pm_type *row_type, paimon_error *err)
{
    pm_batch *b = NULL;
    int rc = 0;

    *out = NULL;
    if (row_type == NULL || row_type->id != PM_TYPE_ROW)
        return pm_err_set(err, PAIMON_EINVALID, "batch: the type must be a ROW type");
    if ((b = pm_calloc(1, sizeof(*b))) == NULL || (b->type = pm_type_clone(row_type)) == NULL ||
        (row_type->field_count > 0 &&
         (b->columns = pm_calloc(row_type->field_count, sizeof(pm_column *))) == NULL)) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < b->type->field_count; i++) {
        const pm_field *f = &b->type->fields[i];
        if (!is_representable(f->type)) {
            rc = pm_err_set(err, PAIMON_EUNSUPPORTED,
                            "%s: VARIANT and BLOB columns are not supported", f->name);
            goto done;
        }
        /* every type in the tree has a layout, so NULL is an allocation failure */
        if ((b->columns[i] = pm_column_new(f->type)) == NULL) {
            rc = pm_nomem(err);
            goto done;
        }
        b->column_count = i + 1;
    }
    *out = b;
    b = NULL;
done:
    pm_batch_free(b);
    return rc;
}

void pm_batch_reset(pm_batch *b)
{
    b->row_count = 0;
    for (size_t i = 0; i < b->column_count; i++)
        pm_column_reset(b->columns[i]);
}

bool pm_batch_is_aligned(const pm_batch *b)
{
    if (b->column_count != b->type->field_count)
        return false;
    for (size_t i = 0; i < b->column_count; i++)
        if (b->columns[i] == NULL || b->columns[i]->length != b->row_count)
            return false;
    return true;
}

int pm_batch_set_rows(pm_batch *b, int64_t rows, paimon_error *err)
{
    for (size_t i = 0; i < b->column_count; i++)
        if (b->columns[i]->length != rows)
            return pm_err_set(
                err, PAIMON_EINVALID, "%s: column has %lld values, the batch %lld rows",
                b->type->fields[i].name, (long long)b->columns[i]->length, (long long)rows);
    b->row_count = rows;
    return 0;
}

int pm_batch_filter(const pm_batch *b, const uint8_t *select, pm_batch **out, paimon_error *err)
{
    pm_batch *r = NULL;
    int64_t n = 0;
    int rc;

    *out = NULL;
    PM_ASSERT(pm_batch_is_aligned(b));
    if ((rc = pm_batch_new(&r, b->type, err)) != 0)
        return rc;
    for (int64_t i = 0; i < b->row_count; i++) {
        if (!select[i])
            continue;
        for (size_t c = 0; c < b->column_count; c++) {
            rc = pm_column_append_from(r->columns[c], b->columns[c], i);
            if (rc != 0) {
                pm_batch_free(r);
                return pm_buf_error(err, rc);
            }
        }
        n++;
    }
    r->row_count = n;
    PM_ASSERT(pm_batch_is_aligned(r));
    *out = r;
    return 0;
}

/* ---- validation ------------------------------------------------------------------------ */

PM_MUST_CHECK static int validate_column(const pm_column *c, const char *name, int64_t len,
                                         paimon_error *err)
{
    int64_t nulls = 0;
    if (c->length != len)
        return pm_err_set(err, PAIMON_EINVALID, "%s: %lld slots, expected %lld", name,
                          (long long)c->length, (long long)len);
    if (c->validity.len != 0) {
        if (c->validity.len != (size_t)((len + 7) / 8))
            return pm_err_set(err, PAIMON_EINVALID, "%s: validity bitmap of %zu bytes", name,
                              c->validity.len);
        for (int64_t i = 0; i < len; i++)
            nulls += !pm_column_is_valid(c, i);
    }
    if (nulls != c->null_count)
        return pm_err_set(err, PAIMON_EINVALID, "%s: null_count %lld, bitmap says %lld", name,
                          (long long)c->null_count, (long long)nulls);
    switch (c->layout) {
    case PM_LAYOUT_BITS:
        if (c->values.len < (size_t)((len + 7) / 8))
            return pm_err_set(err, PAIMON_EINVALID, "%s: short boolean bitmap", name);
        return 0;
    case PM_LAYOUT_FIXED:
        if (c->values.len != (size_t)len * c->width)
            return pm_err_set(err, PAIMON_EINVALID, "%s: %zu value bytes for %lld slots", name,
                              c->values.len, (long long)len);
        return 0;
    case PM_LAYOUT_VAR:
    case PM_LAYOUT_LIST:
    case PM_LAYOUT_MAP: {
        int64_t end;
        if (c->offsets.len != (size_t)(len + 1) * 4 || pm_column_offset(c, 0) != 0)
            return pm_err_set(err, PAIMON_EINVALID, "%s: bad offsets buffer", name);
        for (int64_t i = 0; i < len; i++)
            if (pm_column_offset(c, i + 1) < pm_column_offset(c, i))
                return pm_err_set(err, PAIMON_EINVALID, "%s: offsets decrease at %lld", name,
                                  (long long)i);
        end = pm_column_offset(c, len);
        if (c->layout == PM_LAYOUT_VAR)
            return (size_t)end == c->values.len
                       ? 0
                       : pm_err_set(err, PAIMON_EINVALID, "%s: offsets end at %lld of %zu bytes",
                                    name, (long long)end, c->values.len);
        for (size_t k = 0; k < c->child_count; k++) {
            int rc = validate_column(c->children[k], name, end, err);
            if (rc != 0)
                return rc;
        }
        return 0;
    }
    case PM_LAYOUT_STRUCT:
        for (size_t k = 0; k < c->child_count; k++) {
            int rc = validate_column(c->children[k], c->type->fields[k].name, len, err);
            if (rc != 0)
                return rc;
        }
        return 0;
    default: return pm_err_set(err, PAIMON_EINVALID, "%s: unsupported layout", name);
    }
}

int pm_batch_validate(const pm_batch *b, paimon_error *err)
{
    for (size_t i = 0; i < b->column_count; i++) {
        int rc = validate_column(b->columns[i], b->type->fields[i].name, b->row_count, err);
        if (rc != 0)
            return rc;
    }
    return 0;
}
