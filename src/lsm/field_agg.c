/* Field aggregators: see field_agg.h and behaviour.md §2.3. */
#include "lsm/field_agg.h"
#include "lsm/field_agg_int.h"

#include <stdio.h>
#include <string.h>

#include "data/datum_compare.h"
#include "util/alloc.h"
#include "util/error.h"

static const struct {
    const char *name;
    int kind; /* pm_agg_kind, or -2 for functions not supported yet */
} FUNCTIONS[] = {
    {"primary-key", PM_AGG_PRIMARY_KEY},
    {"last_value", PM_AGG_LAST_VALUE},
    {"last_non_null_value", PM_AGG_LAST_NON_NULL},
    {"first_value", PM_AGG_FIRST_VALUE},
    {"first_non_null_value", PM_AGG_FIRST_NON_NULL},
    {"first_not_null_value", PM_AGG_FIRST_NON_NULL},
    {"sum", PM_AGG_SUM},
    {"product", PM_AGG_PRODUCT},
    {"max", PM_AGG_MAX},
    {"min", PM_AGG_MIN},
    {"bool_and", PM_AGG_BOOL_AND},
    {"bool_or", PM_AGG_BOOL_OR},
    {"listagg", PM_AGG_LISTAGG},
    {"collect", PM_AGG_COLLECT},
    {"merge_map", PM_AGG_MERGE_MAP},
    {"merge_map_with_keytime", PM_AGG_MERGE_MAP_KEYTIME},
    {"nested_update", PM_AGG_NESTED_UPDATE},
    {"nested_partial_update", PM_AGG_NESTED_PARTIAL_UPDATE},
    {"rbm32", PM_AGG_RBM32},
    {"rbm64", -2},
    {"hll_sketch", -2},
    {"theta_sketch", -2},
};

int pm_agg_kind_of(const char *fn)
{
    for (size_t i = 0; i < sizeof(FUNCTIONS) / sizeof(FUNCTIONS[0]); i++)
        if (strcmp(fn, FUNCTIONS[i].name) == 0)
            return FUNCTIONS[i].kind;
    return -1;
}

/* ---- set-up ------------------------------------------------------------------------------ */

static const char *field_option(const pm_schema *s, const char *field, const char *suffix)
{
    char key[512];
    snprintf(key, sizeof(key), "fields.%s.%s", field, suffix);
    return pm_schema_option(s, key);
}

static bool is_numeric(const pm_type *t)
{
    return t->id == PM_TYPE_TINYINT || t->id == PM_TYPE_SMALLINT || t->id == PM_TYPE_INT ||
           t->id == PM_TYPE_BIGINT || t->id == PM_TYPE_FLOAT || t->id == PM_TYPE_DOUBLE ||
           t->id == PM_TYPE_DECIMAL;
}

PM_MUST_CHECK static int type_error(const pm_field_agg *a, const char *wanted, paimon_error *err)
{
    pm_buf b;
    int rc;
    pm_buf_init(&b, 0);
    if (pm_type_format(a->type, &b) != 0) {
        pm_buf_free(&b);
        return pm_nomem(err);
    }
    rc = pm_err_set(err, PAIMON_EINVALID, "field %s: aggregate function '%s' needs %s, not %s",
                    a->field, a->name, wanted, pm_buf_cstr(&b));
    pm_buf_free(&b);
    return rc;
}

PM_MUST_CHECK static int check_type(pm_field_agg *a, paimon_error *err)
{
    const pm_type *t = a->type;
    switch (a->kind) {
    case PM_AGG_SUM:
    case PM_AGG_PRODUCT: return is_numeric(t) ? 0 : type_error(a, "a numeric type", err);
    case PM_AGG_BOOL_AND:
    case PM_AGG_BOOL_OR: return t->id == PM_TYPE_BOOLEAN ? 0 : type_error(a, "BOOLEAN", err);
    case PM_AGG_LISTAGG:
        return t->id == PM_TYPE_VARCHAR && t->length == PM_MAX_LENGTH
                   ? 0
                   : type_error(a, "STRING", err);
    case PM_AGG_COLLECT: return t->id == PM_TYPE_ARRAY ? 0 : type_error(a, "an ARRAY", err);
    case PM_AGG_MERGE_MAP: return t->id == PM_TYPE_MAP ? 0 : type_error(a, "a MAP", err);
    case PM_AGG_MERGE_MAP_KEYTIME:
        if (t->id != PM_TYPE_MAP || t->value->id != PM_TYPE_ROW || t->value->field_count < 2)
            return type_error(a, "a MAP whose values are ROWs of at least 2 fields", err);
        return 0;
    case PM_AGG_NESTED_UPDATE:
    case PM_AGG_NESTED_PARTIAL_UPDATE:
        if (t->id != PM_TYPE_ARRAY || t->element->id != PM_TYPE_ROW)
            return type_error(a, "ARRAY<ROW<...>>", err);
        return 0;
    case PM_AGG_RBM32: return t->id == PM_TYPE_VARBINARY ? 0 : type_error(a, "VARBINARY", err);
    case PM_AGG_MAX:
    case PM_AGG_MIN:
        if (pm_type_is_nested(t) || t->id == PM_TYPE_VARIANT || t->id == PM_TYPE_BLOB)
            return type_error(a, "a comparable type", err);
        return 0;
    default: return 0;
    }
}

/* The nested-key fields of an ARRAY<ROW> field, by name. */
PM_MUST_CHECK static int setup_nested_key(pm_field_agg *a, const char *keys, paimon_error *err)
{
    const pm_type *row = a->type->element;
    char *copy = pm_strdup(keys), *save = NULL;
    int rc = 0;
    if (copy == NULL)
        return pm_nomem(err);
    a->nested_key = pm_calloc(row->field_count + 1, sizeof(int));
    if (a->nested_key == NULL) {
        pm_free(copy);
        return pm_nomem(err);
    }
    for (char *tok = strtok_r(copy, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
        size_t idx;
        while (*tok == ' ')
            tok++;
        for (char *end = tok + strlen(tok); end > tok && end[-1] == ' ';)
            *--end = '\0';
        if (pm_type_field_by_name(row, tok, &idx) == NULL) {
            rc = pm_err_set(err, PAIMON_EINVALID, "field %s: nested-key '%s' is not a field of %s",
                            a->field, tok, "its rows");
            break;
        }
        if (a->nested_key_count >= row->field_count) {
            rc = pm_err_set(err, PAIMON_EINVALID, "field %s: nested-key repeats a field", a->field);
            break;
        }
        a->nested_key[a->nested_key_count++] = (int)idx;
    }
    pm_free(copy);
    return rc;
}

int pm_field_agg_init(pm_field_agg *a, const pm_schema *s, const pm_field *field, const char *fn,
                      paimon_error *err)
{
    const char *v;
    int kind = pm_agg_kind_of(fn);
    int rc = 0;

    memset(a, 0, sizeof(*a));
    pm_buf_init(&a->work, 0);
    pm_jhm_init(&a->map, pm_field_agg_item_equal, a);
    a->type = field->type;
    a->field = pm_strdup(field->name);
    if (a->field == NULL)
        return pm_nomem(err);
    if (kind == -1)
        return pm_err_set(err, PAIMON_EINVALID,
                          "field %s: unsupported aggregation '%s' (or a misspelt function)",
                          field->name, fn);
    if (kind == -2)
        return pm_err_set(err, PAIMON_EUNSUPPORTED,
                          "field %s: aggregate function '%s' is not supported yet", field->name,
                          fn);
    a->kind = (pm_agg_kind)kind;
    for (size_t i = 0; i < sizeof(FUNCTIONS) / sizeof(FUNCTIONS[0]); i++)
        if (FUNCTIONS[i].kind == kind) {
            a->name = FUNCTIONS[i].name;
            break;
        }
    if ((rc = check_type(a, err)) != 0)
        return rc;
    v = field_option(s, field->name, "ignore-retract");
    a->ignore_retract = v != NULL && strcasecmp(v, "true") == 0;
    v = field_option(s, field->name, "distinct");
    a->distinct = v != NULL && strcasecmp(v, "true") == 0;
    if (a->ignore_retract) {
        bool remove = false;
        if ((rc = pm_options_get_bool(&s->options, "aggregation.remove-record-on-delete", &remove,
                                      err)) != 0)
            return rc;
        if (remove)
            return pm_err_set(err, PAIMON_EINVALID,
                              "aggregation.remove-record-on-delete and fields.%s.ignore-retract "
                              "have conflicting behavior so should not be enabled at the same time",
                              field->name);
    }
    a->count_limit = INT32_MAX;
    switch (a->kind) {
    case PM_AGG_LISTAGG:
        v = field_option(s, field->name, "list-agg-delimiter");
        a->delimiter = pm_strdup(v != NULL ? v : ",");
        if (a->delimiter == NULL)
            return pm_nomem(err);
        break;
    case PM_AGG_NESTED_UPDATE:
    case PM_AGG_NESTED_PARTIAL_UPDATE:
        v = field_option(s, field->name, "nested-key");
        if (v != NULL && (rc = setup_nested_key(a, v, err)) != 0)
            return rc;
        if (a->kind == PM_AGG_NESTED_PARTIAL_UPDATE && a->nested_key_count == 0)
            return pm_err_set(err, PAIMON_EINVALID,
                              "field %s: nested_partial_update needs fields.%s.nested-key",
                              field->name, field->name);
        if (a->kind == PM_AGG_NESTED_UPDATE) {
            int64_t limit;
            char key[512];
            /* a field option (not in the catalogue): Integer.MAX_VALUE when unset */
            snprintf(key, sizeof(key), "fields.%s.count-limit", field->name);
            if ((rc = pm_options_get_i64_or(&s->options, key, INT32_MAX, &limit, err)) != 0)
                return rc;
            a->count_limit = limit > INT32_MAX ? INT32_MAX : (int32_t)limit;
        }
        break;
    case PM_AGG_MERGE_MAP_KEYTIME: {
        const pm_type *row = a->type->value;
        size_t idx = row->field_count - 1;
        v = field_option(s, field->name, "ts-field");
        if (v != NULL && pm_type_field_by_name(row, v, &idx) == NULL)
            return pm_err_set(err, PAIMON_EINVALID,
                              "field %s: timestamp field '%s' is not a field of its ROW values",
                              field->name, v);
        if (!pm_type_is_string(row->fields[idx].type))
            return pm_err_set(err, PAIMON_EINVALID,
                              "field %s: the timestamp field %s must be a string", field->name,
                              row->fields[idx].name);
        a->ts_field = (int)idx;
        break;
    }
    default: break;
    }
    a->scratch[0] = pm_column_new(a->type);
    a->scratch[1] = pm_column_new(a->type);
    if (a->scratch[0] == NULL || a->scratch[1] == NULL)
        return pm_nomem(err);
    return 0;
}

void pm_field_agg_free(pm_field_agg *a)
{
    if (a == NULL)
        return;
    pm_free(a->field);
    pm_free(a->delimiter);
    pm_free(a->nested_key);
    pm_column_free(a->scratch[0]);
    pm_column_free(a->scratch[1]);
    pm_buf_free(&a->work);
    pm_jhm_free(&a->map);
    pm_free(a->items);
    memset(a, 0, sizeof(*a));
}

void pm_field_agg_reset(pm_field_agg *a)
{
    a->initialized = false;
}

/* The scratch column that holds neither operand, emptied for a result. */
pm_column *pm_field_agg_scratch(pm_field_agg *a, pm_vref x, pm_vref y)
{
    pm_column *c = a->scratch[0];
    if (x.col == c || y.col == c)
        c = a->scratch[1];
    pm_column_reset(c);
    return c;
}

int pm_fa_put_datum(pm_field_agg *a, pm_vref x, pm_vref y, const pm_datum *d, pm_vref *out,
                    paimon_error *err)
{
    pm_column *c = pm_field_agg_scratch(a, x, y);
    int rc = d->is_null ? pm_column_append_null(c) : pm_column_append_datum(c, d);
    if (rc != 0)
        return pm_buf_error(err, rc);
    *out = pm_vref_of(c, 0);
    return 0;
}

/* ---- numbers ----------------------------------------------------------------------------- */

static pm_int128 pow10_i128(int n)
{
    pm_int128 v = 1;
    while (n-- > 0)
        v *= 10;
    return v;
}

static int64_t wrap_int(const pm_type *t, uint64_t v)
{
    switch (t->id) {
    case PM_TYPE_TINYINT: return (int8_t)(uint8_t)v;
    case PM_TYPE_SMALLINT: return (int16_t)(uint16_t)v;
    case PM_TYPE_INT: return (int32_t)(uint32_t)v;
    default: return (int64_t)v;
    }
}

/* Decimal.fromBigDecimal's precision check: null when the value has more digits. */
static pm_datum decimal_checked(const pm_type *t, pm_int128 v)
{
    pm_int128 limit = pow10_i128(t->precision);
    pm_datum r;
    if (v >= limit || v <= -limit)
        return pm_datum_null();
    r.is_null = false;
    r.v.dec = v;
    return r;
}

/* DecimalUtils.add/subtract: compact decimals (precision <= 18) keep any sum that fits a
 * long, even one with more digits than the precision; otherwise Decimal.fromBigDecimal. */
static pm_datum decimal_add(const pm_type *t, pm_int128 x, pm_int128 y)
{
    pm_datum r;
    pm_int128 v;
    if (t->precision <= PM_DECIMAL_MAX_COMPACT_PRECISION) {
        int64_t s;
        if (!__builtin_add_overflow((int64_t)x, (int64_t)y, &s)) {
            r.is_null = false;
            r.v.dec = s;
            return r;
        }
    }
    if (__builtin_add_overflow(x, y, &v))
        return pm_datum_null();
    return decimal_checked(t, v);
}

/* |x| * |y| as 256 bits (hi, lo), then divided by 10^scale rounding half up. */
static bool mul_rescale(pm_int128 x, pm_int128 y, int scale, pm_int128 *out)
{
    typedef unsigned __int128 u128;
    bool negative = (x < 0) != (y < 0);
    u128 a = x < 0 ? (u128)0 - (u128)x : (u128)x, b = y < 0 ? (u128)0 - (u128)y : (u128)y;
    uint64_t al = (uint64_t)a, ah = (uint64_t)(a >> 64), bl = (uint64_t)b, bh = (uint64_t)(b >> 64);
    u128 ll = (u128)al * bl, lh = (u128)al * bh, hl = (u128)ah * bl, hh = (u128)ah * bh;
    u128 mid = (ll >> 64) + (uint64_t)lh + (uint64_t)hl;
    u128 lo = (mid << 64) | (uint64_t)ll;
    u128 hi = hh + (lh >> 64) + (hl >> 64) + (mid >> 64);
    u128 d = (u128)pow10_i128(scale), q_hi = 0, q_lo = 0, r = 0;
    /* Long division of (hi, lo) by d, bit by bit: d < 2^127, so r << 1 never overflows. */
    for (int bit = 255; bit >= 0; bit--) {
        u128 in = bit >= 128 ? (hi >> (bit - 128)) & 1 : (lo >> bit) & 1;
        r = (r << 1) | in;
        if (r >= d) {
            r -= d;
            if (bit >= 128)
                q_hi |= (u128)1 << (bit - 128);
            else
                q_lo |= (u128)1 << bit;
        }
    }
    if (r * 2 >= d) /* HALF_UP: away from zero on a tie */
        q_lo++, q_hi += q_lo == 0;
    if (q_hi != 0 || q_lo > (u128)pow10_i128(38))
        return false;
    *out = negative ? -(pm_int128)q_lo : (pm_int128)q_lo;
    return true;
}

/* acc op x with Java's arithmetic.  '/' is product's retraction. */
PM_MUST_CHECK static int arith(const pm_field_agg *a, const pm_datum *acc, const pm_datum *x,
                               char op, pm_datum *out, paimon_error *err)
{
    const pm_type *t = a->type;
    *out = *acc;
    out->is_null = false;
    switch (t->id) {
    case PM_TYPE_TINYINT:
    case PM_TYPE_SMALLINT:
    case PM_TYPE_INT:
    case PM_TYPE_BIGINT: {
        uint64_t p = (uint64_t)acc->v.i, q = (uint64_t)x->v.i;
        if (op == '/') {
            if (x->v.i == 0)
                return pm_err_set(err, PAIMON_EINVALID,
                                  "field %s: product retraction divides by zero", a->field);
            if (acc->v.i == INT64_MIN && x->v.i == -1)
                out->v.i = INT64_MIN;
            else
                out->v.i = wrap_int(t, (uint64_t)(acc->v.i / x->v.i));
            return 0;
        }
        out->v.i = wrap_int(t, op == '+' ? p + q : op == '-' ? p - q : p * q);
        return 0;
    }
    case PM_TYPE_FLOAT:
        out->v.f = op == '+'   ? acc->v.f + x->v.f
                   : op == '-' ? acc->v.f - x->v.f
                   : op == '*' ? acc->v.f * x->v.f
                               : acc->v.f / x->v.f;
        return 0;
    case PM_TYPE_DOUBLE:
        out->v.d = op == '+'   ? acc->v.d + x->v.d
                   : op == '-' ? acc->v.d - x->v.d
                   : op == '*' ? acc->v.d * x->v.d
                               : acc->v.d / x->v.d;
        return 0;
    case PM_TYPE_DECIMAL: {
        pm_int128 v;
        if (op == '+' || op == '-') {
            *out = decimal_add(t, acc->v.dec, op == '+' ? x->v.dec : -x->v.dec);
            return 0;
        }
        if (op == '*') {
            *out = mul_rescale(acc->v.dec, x->v.dec, t->scale, &v) ? decimal_checked(t, v)
                                                                   : pm_datum_null();
            return 0;
        }
        if (x->v.dec == 0)
            return pm_err_set(err, PAIMON_EINVALID, "field %s: product retraction divides by zero",
                              a->field);
        {
            /* acc / x at the field's scale, half up (BigDecimal.divide, then setScale). */
            pm_int128 num, q, r;
            if (__builtin_mul_overflow(acc->v.dec, pow10_i128(t->scale), &num)) {
                *out = pm_datum_null();
                return 0;
            }
            q = num / x->v.dec;
            r = num % x->v.dec;
            if (r != 0 && (r < 0 ? -r : r) * 2 >= (x->v.dec < 0 ? -x->v.dec : x->v.dec))
                q += (num < 0) != (x->v.dec < 0) ? -1 : 1;
            *out = decimal_checked(t, q);
        }
        return 0;
    }
    default: *out = pm_datum_null(); return 0;
    }
}

/* listagg: acc + delimiter + in; empty strings are skipped; `distinct` appends only the
 * tokens of `in` not yet in acc (splitting by the whole delimiter, keeping empty tokens). */
PM_MUST_CHECK static int listagg_agg(pm_field_agg *a, pm_vref acc, pm_vref in, pm_vref *out,
                                     paimon_error *err)
{
    pm_datum x, y;
    size_t dl = strlen(a->delimiter);
    bool appended = false;
    if (pm_vref_is_null(acc) || pm_vref_is_null(in)) {
        *out = pm_vref_is_null(acc) ? in : acc;
        return 0;
    }
    pm_column_get_datum(acc.col, acc.row, &x);
    pm_column_get_datum(in.col, in.row, &y);
    if (y.v.s.len == 0) {
        *out = acc;
        return 0;
    }
    if (x.v.s.len == 0) {
        *out = in;
        return 0;
    }
    pm_buf_reset(&a->work);
    if (pm_buf_append(&a->work, x.v.s.ptr, x.v.s.len) != 0)
        return pm_nomem(err);
    if (!a->distinct || dl == 0) {
        if (pm_buf_append(&a->work, a->delimiter, dl) != 0 ||
            pm_buf_append(&a->work, y.v.s.ptr, y.v.s.len) != 0)
            return pm_nomem(err);
        appended = true;
    } else {
        /* Token by token; a token is new unless it equals a token of what is built so far
         * (the accumulator's tokens and the ones already appended). */
        const uint8_t *p = y.v.s.ptr, *end = p + y.v.s.len;
        while (p <= end) {
            const uint8_t *q =
                dl <= (size_t)(end - p) ? memmem(p, (size_t)(end - p), a->delimiter, dl) : NULL;
            size_t tl = (size_t)((q != NULL ? q : end) - p);
            bool seen = tl == 0;
            for (size_t off = 0; !seen && off <= a->work.len;) {
                const uint8_t *w = a->work.data + off;
                const uint8_t *wq = memmem(w, a->work.len - off, a->delimiter, dl);
                size_t wl = (size_t)((wq != NULL ? wq : a->work.data + a->work.len) - w);
                seen = wl == tl && memcmp(w, p, tl) == 0;
                if (wq == NULL)
                    break;
                off = (size_t)(wq - a->work.data) + dl;
            }
            if (!seen) {
                if (pm_buf_append(&a->work, a->delimiter, dl) != 0 ||
                    pm_buf_append(&a->work, p, tl) != 0)
                    return pm_nomem(err);
                appended = true;
            }
            if (q == NULL)
                break;
            p = q + dl;
        }
    }
    if (!appended) {
        *out = acc;
        return 0;
    }
    {
        pm_datum d = pm_datum_bytes(a->work.data, a->work.len);
        return pm_fa_put_datum(a, acc, in, &d, out, err);
    }
}

/* ---- the operations ---------------------------------------------------------------------- */

int pm_field_agg_agg(pm_field_agg *a, pm_vref acc, pm_vref in, pm_vref *out, paimon_error *err)
{
    bool acc_null = pm_vref_is_null(acc), in_null = pm_vref_is_null(in);
    pm_datum x, y, r;
    int rc;

    switch (a->kind) {
    case PM_AGG_PRIMARY_KEY:
    case PM_AGG_LAST_VALUE: *out = in; return 0;
    case PM_AGG_LAST_NON_NULL: *out = in_null ? acc : in; return 0;
    case PM_AGG_FIRST_VALUE:
        *out = a->initialized ? acc : in;
        a->initialized = true;
        return 0;
    case PM_AGG_FIRST_NON_NULL:
        if (!a->initialized && !in_null) {
            a->initialized = true;
            *out = in;
        } else {
            *out = acc;
        }
        return 0;
    case PM_AGG_LISTAGG: return listagg_agg(a, acc, in, out, err);
    case PM_AGG_COLLECT: return pm_fa_collect_agg(a, acc, in, out, err);
    case PM_AGG_MERGE_MAP: return pm_fa_merge_map_agg(a, acc, in, out, err);
    case PM_AGG_MERGE_MAP_KEYTIME: return pm_fa_keytime_agg(a, acc, in, out, err);
    case PM_AGG_NESTED_UPDATE: return pm_fa_nested_update_agg(a, acc, in, out, err);
    case PM_AGG_NESTED_PARTIAL_UPDATE: return pm_fa_nested_partial_agg(a, acc, in, out, err);
    case PM_AGG_RBM32: return pm_fa_rbm32_agg(a, acc, in, out, err);
    default: break;
    }
    /* The rest keep acc when the input is null and take the input when acc is. */
    if (acc_null || in_null) {
        *out = acc_null ? in : acc;
        return 0;
    }
    pm_column_get_datum(acc.col, acc.row, &x);
    pm_column_get_datum(in.col, in.row, &y);
    switch (a->kind) {
    case PM_AGG_MAX: *out = pm_datum_compare(a->type, &x, &y) < 0 ? in : acc; return 0;
    case PM_AGG_MIN: *out = pm_datum_compare(a->type, &x, &y) < 0 ? acc : in; return 0;
    case PM_AGG_BOOL_AND: *out = x.v.b ? in : acc; return 0;
    case PM_AGG_BOOL_OR: *out = x.v.b ? acc : in; return 0;
    case PM_AGG_SUM:
    case PM_AGG_PRODUCT:
        if ((rc = arith(a, &x, &y, a->kind == PM_AGG_SUM ? '+' : '*', &r, err)) != 0)
            return rc;
        return pm_fa_put_datum(a, acc, in, &r, out, err);
    default: *out = in; return 0;
    }
}

int pm_field_agg_agg_reversed(pm_field_agg *a, pm_vref acc, pm_vref in, pm_vref *out,
                              paimon_error *err)
{
    if (a->kind == PM_AGG_COLLECT) /* its aggReversed is agg */
        return pm_field_agg_agg(a, acc, in, out, err);
    return pm_field_agg_agg(a, in, acc, out, err);
}

int pm_field_agg_retract(pm_field_agg *a, pm_vref acc, pm_vref in, pm_vref *out, paimon_error *err)
{
    pm_datum x, y, r;
    int rc;
    if (a->ignore_retract) {
        *out = acc;
        return 0;
    }
    switch (a->kind) {
    case PM_AGG_PRIMARY_KEY: *out = in; return 0;
    case PM_AGG_LAST_VALUE: *out = pm_vref_null(); return 0;
    case PM_AGG_LAST_NON_NULL: *out = pm_vref_is_null(in) ? acc : pm_vref_null(); return 0;
    case PM_AGG_COLLECT: return pm_fa_collect_retract(a, acc, in, out, err);
    case PM_AGG_MERGE_MAP: return pm_fa_merge_map_retract(a, acc, in, out, err);
    case PM_AGG_NESTED_UPDATE: return pm_fa_nested_update_retract(a, acc, in, out, err);
    case PM_AGG_SUM:
        if (pm_vref_is_null(in)) {
            *out = acc;
            return 0;
        }
        pm_column_get_datum(in.col, in.row, &y);
        if (pm_vref_is_null(acc)) { /* -x */
            memset(&x, 0, sizeof(x));
            x.is_null = false;
            if ((rc = arith(a, &x, &y, '-', &r, err)) != 0)
                return rc;
            if (a->type->id == PM_TYPE_DECIMAL && !r.is_null)
                r = decimal_checked(a->type, r.v.dec);
            return pm_fa_put_datum(a, acc, in, &r, out, err);
        }
        pm_column_get_datum(acc.col, acc.row, &x);
        if ((rc = arith(a, &x, &y, '-', &r, err)) != 0)
            return rc;
        return pm_fa_put_datum(a, acc, in, &r, out, err);
    case PM_AGG_PRODUCT:
        if (pm_vref_is_null(acc) || pm_vref_is_null(in)) {
            *out = acc;
            return 0;
        }
        pm_column_get_datum(acc.col, acc.row, &x);
        pm_column_get_datum(in.col, in.row, &y);
        if ((rc = arith(a, &x, &y, '/', &r, err)) != 0)
            return rc;
        return pm_fa_put_datum(a, acc, in, &r, out, err);
    default:
        return pm_err_set(err, PAIMON_EINVALID,
                          "field %s: aggregate function '%s' does not support retraction; set "
                          "'fields.%s.ignore-retract'='true' to ignore retract messages",
                          a->field, a->name, a->field);
    }
}
