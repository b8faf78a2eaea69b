/*
 * Reading Avro data files into columnar batches (avro_data.h): the file's writer schema is
 * resolved against the read type by field name into a plan, then records decode straight
 * into the batch's columns.  Every read is bounded by the block it is in (avro_io.h).
 */
#include <stdio.h>
#include <string.h>

#include "format/avro/avro_container.h"
#include "format/avro/avro_data.h"
#include "format/avro/avro_io.h"
#include "format/avro/avro_record.h"
#include "format/data_file.h"
#include "util/alloc.h"
#include "util/time.h"

#define MAX_FILE ((size_t)2 << 30)
/* Paimon types nest at most PM_MAX_NESTING deep below the top-level columns (depth 1). */
#define MAX_DEPTH (PM_MAX_NESTING + 1)

typedef enum op {
    OP_SKIP, /* not read: skipped with the generic skipper */
    OP_BOOL,
    OP_INT,       /* int or long into an integer-like fixed column (also DATE) */
    OP_TIME,      /* time-millis (int) or time-micros (long) into TIME(p) */
    OP_FLOAT,     /* float or double into FLOAT or DOUBLE */
    OP_BYTES,     /* string, bytes or fixed into a VAR column */
    OP_DECIMAL,   /* bytes or fixed with logical type decimal */
    OP_TIMESTAMP, /* long milliseconds or microseconds */
    OP_RECORD,
    OP_ARRAY,
    OP_MAP,      /* Avro map: string keys */
    OP_ARRAY_MAP /* array of {key, value} records */
} op;

typedef struct aplan aplan;

struct aplan {
    op op;
    const pm_avro_schema *w; /* the writer's schema (inside a nullable union) */
    int null_branch;         /* the union branch that is null; -1: not a union */
    int value_branch;
    int64_t unit;    /* timestamps and times: writer units per second */
    int scale;       /* decimals: the writer's scale */
    aplan *children; /* RECORD: per writer field; ARRAY: 1; MAP: value; ARRAY_MAP: 2 */
    int *targets;    /* RECORD: per writer field, the column index or -1 */
    size_t child_count;
    bool *missing; /* RECORD: per read field, true when the writer lacks it */
};

typedef struct avro_file {
    uint8_t *data;
    size_t len;
    char *path;
    pm_avro_reader reader;
    bool reader_open;
    pm_type *type;      /* the file's columns */
    pm_type *read_type; /* the read in progress */
    aplan plan;
    pm_arena arena; /* the plan */
    pm_buf block;
    pm_avro_cursor cur;
    int64_t remaining; /* records left in the block */
    int64_t row;       /* file position of the next record */
    int64_t batch_rows;
    const int64_t *ranges;
    size_t range_count, range_idx;
    int64_t total_rows;
} avro_file;

/* ---- types ----------------------------------------------------------------------------- */

static const pm_avro_schema *unwrap(const pm_avro_schema *s, int *null_branch, int *value_branch)
{
    int nb;
    const pm_avro_schema *inner = pm_avro_nullable_inner(s, &nb);
    if (inner == NULL) {
        *null_branch = -1;
        *value_branch = -1;
        return s;
    }
    *null_branch = nb;
    *value_branch = 1 - nb;
    return inner;
}

static bool logical(const pm_avro_schema *s, const char *name)
{
    return s->logical_type != NULL && strcmp(s->logical_type, name) == 0;
}

/* An array of {key, value} records: Paimon's maps with keys other than strings (a bare file
 * marks them with logicalType "map"; a read of a MAP column accepts them without). */
static bool is_array_map(const pm_avro_schema *s, bool need_logical)
{
    const pm_avro_schema *item;
    int nb, vb;
    if (s->kind != PM_AVRO_ARRAY || (need_logical && !logical(s, "map")))
        return false;
    item = unwrap(s->items, &nb, &vb);
    return item->kind == PM_AVRO_RECORD && item->field_count == 2 &&
           strcmp(item->fields[0].name, "key") == 0 && strcmp(item->fields[1].name, "value") == 0;
}

static int type_of(const pm_avro_schema *s, int32_t *next_id, int depth, pm_type **out)
{
    int nb, vb, rc = 0;
    const pm_avro_schema *w = unwrap(s, &nb, &vb);
    pm_type *t = NULL;
    pm_type_id id;
    *out = NULL;
    if (depth > MAX_DEPTH)
        return PAIMON_ECORRUPT;
    switch (w->kind) {
    case PM_AVRO_BOOLEAN: id = PM_TYPE_BOOLEAN; break;
    case PM_AVRO_INT:
        id = logical(w, "date")          ? PM_TYPE_DATE
             : logical(w, "time-millis") ? PM_TYPE_TIME
                                         : PM_TYPE_INT;
        break;
    case PM_AVRO_LONG:
        id = logical(w, "timestamp-millis") || logical(w, "timestamp-micros")
                 ? PM_TYPE_TIMESTAMP_LTZ
             : logical(w, "local-timestamp-millis") || logical(w, "local-timestamp-micros")
                 ? PM_TYPE_TIMESTAMP
             : logical(w, "time-micros") ? PM_TYPE_TIME
                                         : PM_TYPE_BIGINT;
        break;
    case PM_AVRO_FLOAT: id = PM_TYPE_FLOAT; break;
    case PM_AVRO_DOUBLE: id = PM_TYPE_DOUBLE; break;
    case PM_AVRO_STRING: id = PM_TYPE_VARCHAR; break;
    case PM_AVRO_BYTES:
    case PM_AVRO_FIXED: id = logical(w, "decimal") ? PM_TYPE_DECIMAL : PM_TYPE_VARBINARY; break;
    case PM_AVRO_RECORD: id = PM_TYPE_ROW; break;
    case PM_AVRO_ARRAY: id = is_array_map(w, true) ? PM_TYPE_MAP : PM_TYPE_ARRAY; break;
    case PM_AVRO_MAP: id = PM_TYPE_MAP; break;
    default: return PAIMON_EUNSUPPORTED;
    }
    if ((t = pm_type_new(id)) == NULL)
        return PAIMON_ENOMEM;
    t->nullable = nb >= 0;
    switch (id) {
    case PM_TYPE_VARCHAR:
    case PM_TYPE_VARBINARY: t->length = PM_MAX_LENGTH; break;
    case PM_TYPE_TIME: t->precision = w->kind == PM_AVRO_LONG ? 6 : 3; break;
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ: t->precision = strstr(w->logical_type, "millis") ? 3 : 6; break;
    case PM_TYPE_DECIMAL:
        t->precision = w->precision >= 1 && w->precision <= 38 ? w->precision : 38;
        t->scale = w->scale >= 0 && w->scale <= t->precision ? w->scale : 0;
        break;
    case PM_TYPE_ROW:
        for (size_t i = 0; i < w->field_count && rc == 0; i++) {
            pm_type *ft;
            int32_t fid = (*next_id)++;
            if ((rc = type_of(w->fields[i].type, next_id, depth + 1, &ft)) == 0)
                rc = pm_type_row_add(t, fid, w->fields[i].name, ft);
        }
        break;
    case PM_TYPE_ARRAY: rc = type_of(w->items, next_id, depth + 1, &t->element); break;
    case PM_TYPE_MAP:
        if (w->kind == PM_AVRO_MAP) {
            if ((t->element = pm_type_new(PM_TYPE_VARCHAR)) == NULL) {
                rc = PAIMON_ENOMEM;
                break;
            }
            t->element->nullable = false;
            t->element->length = PM_MAX_LENGTH;
            rc = type_of(w->items, next_id, depth + 1, &t->value);
        } else {
            const pm_avro_schema *item = unwrap(w->items, &nb, &vb);
            if ((rc = type_of(item->fields[0].type, next_id, depth + 1, &t->element)) == 0)
                rc = type_of(item->fields[1].type, next_id, depth + 1, &t->value);
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

int pm_avro_data_type_of(const pm_avro_schema *record, pm_type **out, paimon_error *err)
{
    int32_t next = 0;
    int nb, vb;
    int rc;
    if (unwrap(record, &nb, &vb)->kind != PM_AVRO_RECORD)
        return pm_err_set(err, PAIMON_EUNSUPPORTED, "an Avro data file holds records");
    rc = type_of(record, &next, 0, out);
    if (rc == PAIMON_EUNSUPPORTED)
        return pm_err_set(err, rc, "an Avro type has no Paimon type");
    if (rc == PAIMON_ECORRUPT)
        return pm_corrupt(err, "the Avro schema in the header nests deeper than %d types",
                          PM_MAX_NESTING);
    if (rc != 0)
        return pm_buf_error(err, rc);
    (*out)->nullable = false;
    return 0;
}

/* ---- the plan -------------------------------------------------------------------------- */

PM_MUST_CHECK static int build(avro_file *f, aplan *p, const pm_avro_schema *s, const pm_type *t,
                               int depth, paimon_error *err);

PM_MUST_CHECK static int mismatch(avro_file *f, const pm_type *t, const pm_avro_schema *w,
                                  paimon_error *err)
{
    pm_buf b;
    int rc;
    pm_buf_init(&b, 256);
    pm_type_format(t, &b);
    rc = pm_corrupt(err, "%s: an Avro value of kind %d%s%s cannot be read as %s", f->path,
                    (int)w->kind, w->logical_type != NULL ? " " : "",
                    w->logical_type != NULL ? w->logical_type : "", pm_buf_cstr(&b));
    pm_buf_free(&b);
    return rc;
}

PM_MUST_CHECK static int build_record(avro_file *f, aplan *p, const pm_avro_schema *w,
                                      const pm_type *t, int depth, paimon_error *err)
{
    p->op = OP_RECORD;
    p->child_count = w->field_count;
    p->children = pm_arena_calloc(&f->arena, w->field_count + 1, sizeof(aplan));
    p->targets = pm_arena_calloc(&f->arena, w->field_count + 1, sizeof(int));
    p->missing = pm_arena_calloc(&f->arena, t->field_count + 1, sizeof(bool));
    if (p->children == NULL || p->targets == NULL || p->missing == NULL)
        return pm_nomem(err);
    for (size_t k = 0; k < t->field_count; k++)
        p->missing[k] = true;
    for (size_t i = 0; i < w->field_count; i++) {
        size_t idx;
        const pm_field *fd = pm_type_field_by_name(t, w->fields[i].name, &idx);
        int rc;
        p->targets[i] = fd != NULL ? (int)idx : -1;
        if (fd == NULL) {
            p->children[i].op = OP_SKIP;
            p->children[i].w = w->fields[i].type;
            p->children[i].null_branch = -1;
            continue;
        }
        p->missing[idx] = false;
        if ((rc = build(f, &p->children[i], w->fields[i].type, fd->type, depth + 1, err)) != 0)
            return rc;
    }
    return 0;
}

PM_MUST_CHECK static int build(avro_file *f, aplan *p, const pm_avro_schema *s, const pm_type *t,
                               int depth, paimon_error *err)
{
    const pm_avro_schema *w = unwrap(s, &p->null_branch, &p->value_branch);
    p->w = w;
    if (depth > MAX_DEPTH)
        return pm_corrupt(err, "%s: the Avro schema in the header nests deeper than %d types",
                          f->path, PM_MAX_NESTING);
    switch (t->id) {
    case PM_TYPE_BOOLEAN:
        if (w->kind != PM_AVRO_BOOLEAN)
            return mismatch(f, t, w, err);
        p->op = OP_BOOL;
        return 0;
    case PM_TYPE_TINYINT:
    case PM_TYPE_SMALLINT:
    case PM_TYPE_INT:
    case PM_TYPE_DATE:
        if (w->kind != PM_AVRO_INT)
            return mismatch(f, t, w, err);
        p->op = OP_INT;
        return 0;
    case PM_TYPE_BIGINT:
        if (w->kind != PM_AVRO_INT && w->kind != PM_AVRO_LONG)
            return mismatch(f, t, w, err);
        p->op = OP_INT;
        return 0;
    case PM_TYPE_TIME:
        if (w->kind != PM_AVRO_INT && w->kind != PM_AVRO_LONG)
            return mismatch(f, t, w, err);
        p->op = OP_TIME;
        p->unit = logical(w, "time-micros") ? 1000000 : 1000;
        return 0;
    case PM_TYPE_FLOAT:
    case PM_TYPE_DOUBLE:
        if (w->kind != PM_AVRO_FLOAT && (w->kind != PM_AVRO_DOUBLE || t->id != PM_TYPE_DOUBLE) &&
            !(w->kind == PM_AVRO_DOUBLE && t->id == PM_TYPE_FLOAT))
            return mismatch(f, t, w, err);
        p->op = OP_FLOAT;
        return 0;
    case PM_TYPE_CHAR:
    case PM_TYPE_VARCHAR:
    case PM_TYPE_BINARY:
    case PM_TYPE_VARBINARY:
        if (w->kind != PM_AVRO_STRING && w->kind != PM_AVRO_BYTES && w->kind != PM_AVRO_FIXED)
            return mismatch(f, t, w, err);
        p->op = OP_BYTES;
        return 0;
    case PM_TYPE_DECIMAL:
        if ((w->kind != PM_AVRO_BYTES && w->kind != PM_AVRO_FIXED) || !logical(w, "decimal"))
            return mismatch(f, t, w, err);
        p->op = OP_DECIMAL;
        p->scale = w->scale;
        return 0;
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ:
        if (w->kind != PM_AVRO_LONG)
            return mismatch(f, t, w, err);
        p->op = OP_TIMESTAMP;
        /* millis unless the logical type says micros (Java reads a bare long as millis) */
        p->unit =
            w->logical_type != NULL && strstr(w->logical_type, "micros") != NULL ? 1000000 : 1000;
        return 0;
    case PM_TYPE_ROW:
        if (w->kind != PM_AVRO_RECORD)
            return mismatch(f, t, w, err);
        return build_record(f, p, w, t, depth, err);
    case PM_TYPE_ARRAY:
        if (w->kind != PM_AVRO_ARRAY)
            return mismatch(f, t, w, err);
        p->op = OP_ARRAY;
        p->child_count = 1;
        if ((p->children = pm_arena_calloc(&f->arena, 1, sizeof(aplan))) == NULL)
            return pm_nomem(err);
        return build(f, &p->children[0], w->items, t->element, depth + 1, err);
    case PM_TYPE_MAP:
    case PM_TYPE_MULTISET: {
        const pm_type *vt = t->id == PM_TYPE_MAP ? t->value : &pm_multiset_count_type;
        int rc;
        if ((p->children = pm_arena_calloc(&f->arena, 2, sizeof(aplan))) == NULL)
            return pm_nomem(err);
        if (w->kind == PM_AVRO_MAP) {
            if (!pm_type_is_string(t->element) && !pm_type_is_binary(t->element))
                return mismatch(f, t, w, err);
            p->op = OP_MAP;
            p->child_count = 2;
            p->children[0].op = OP_BYTES;
            p->children[0].null_branch = -1;
            return build(f, &p->children[1], w->items, vt, depth + 1, err);
        }
        if (!is_array_map(w, false))
            return mismatch(f, t, w, err);
        {
            int nb, vb;
            const pm_avro_schema *item = unwrap(w->items, &nb, &vb);
            p->op = OP_ARRAY_MAP;
            p->child_count = 2;
            if ((rc = build(f, &p->children[0], item->fields[0].type, t->element, depth + 1,
                            err)) != 0)
                return rc;
            return build(f, &p->children[1], item->fields[1].type, vt, depth + 1, err);
        }
    }
    default: return mismatch(f, t, w, err);
    }
}

/* ---- decoding -------------------------------------------------------------------------- */

PM_MUST_CHECK static int bad(avro_file *f, paimon_error *err)
{
    return pm_corrupt(err, "%s: malformed Avro record %lld at block offset %zu", f->path,
                      (long long)f->row, pm_avro_offset(&f->cur));
}

PM_MUST_CHECK static int value(avro_file *f, const aplan *p, pm_column *c, int depth,
                               paimon_error *err);

/* Reads an array or map block count; 0 ends.  Counts are bounded by the bytes left. */
PM_MUST_CHECK static int block_count(avro_file *f, int64_t *n, paimon_error *err)
{
    int64_t bytes;
    if (!pm_avro_read_long(&f->cur, n))
        return bad(f, err);
    if (*n < 0) {
        if (*n == INT64_MIN || !pm_avro_read_long(&f->cur, &bytes))
            return bad(f, err);
        *n = -*n;
    }
    if ((uint64_t)*n > (uint64_t)(f->cur.end - f->cur.p) + 1)
        return bad(f, err);
    return 0;
}

PM_MUST_CHECK static int entries(avro_file *f, const aplan *p, pm_column *c, int depth,
                                 paimon_error *err)
{
    int rc;
    for (;;) {
        int64_t n = 0;
        if ((rc = block_count(f, &n, err)) != 0)
            return rc;
        if (n == 0)
            break;
        for (int64_t i = 0; i < n; i++) {
            if (p->op == OP_ARRAY) {
                rc = value(f, &p->children[0], c->children[0], depth + 1, err);
            } else if (p->op == OP_MAP) {
                const uint8_t *k;
                size_t klen;
                if (!pm_avro_read_bytes(&f->cur, &k, &klen))
                    return bad(f, err);
                rc = pm_column_append_bytes(c->children[0], k, klen);
                if (rc != 0)
                    return pm_buf_error(err, rc);
                rc = value(f, &p->children[1], c->children[1], depth + 1, err);
            } else {
                /* a {key, value} record, maybe inside a nullable union */
                if ((rc = value(f, &p->children[0], c->children[0], depth + 1, err)) == 0)
                    rc = value(f, &p->children[1], c->children[1], depth + 1, err);
            }
            if (rc != 0)
                return rc;
        }
    }
    rc = pm_column_list_end(c, true);
    return rc != 0 ? pm_buf_error(err, rc) : 0;
}

PM_MUST_CHECK static int value(avro_file *f, const aplan *p, pm_column *c, int depth,
                               paimon_error *err)
{
    pm_avro_cursor *cur = &f->cur;
    int64_t v;
    int rc = 0;

    if (depth > MAX_DEPTH)
        return bad(f, err);
    if (p->null_branch >= 0) {
        int64_t branch;
        if (!pm_avro_read_long(cur, &branch) || branch < 0 || branch > 1)
            return bad(f, err);
        if (branch == p->null_branch) {
            if (!c->type->nullable)
                return pm_corrupt(err, "%s: record %lld holds a null where the column is NOT NULL",
                                  f->path, (long long)f->row);
            rc = pm_column_append_null(c);
            return rc != 0 ? pm_buf_error(err, rc) : 0;
        }
    }
    switch (p->op) {
    case OP_BOOL:
        if (cur->p >= cur->end || *cur->p > 1)
            return bad(f, err);
        {
            pm_datum d;
            d.is_null = false;
            d.v.b = *cur->p++ != 0;
            rc = pm_column_append_datum(c, &d);
        }
        break;
    case OP_INT:
        if (!pm_avro_read_long(cur, &v))
            return bad(f, err);
        rc = pm_column_append_i64(c, v);
        break;
    case OP_TIME: {
        int64_t per = pm_time_units_per_second(c->type->precision);
        if (!pm_avro_read_long(cur, &v))
            return bad(f, err);
        v = per >= p->unit ? v * (per / p->unit) : v / (p->unit / per);
        rc = pm_column_append_i64(c, v);
        break;
    }
    case OP_FLOAT: {
        double d;
        if (p->w->kind == PM_AVRO_FLOAT) {
            float x;
            uint32_t bits;
            if (cur->end - cur->p < 4)
                return bad(f, err);
            bits = pm_load_le32(cur->p);
            memcpy(&x, &bits, 4);
            cur->p += 4;
            d = (double)x;
        } else {
            uint64_t bits;
            if (cur->end - cur->p < 8)
                return bad(f, err);
            bits = pm_load_le64(cur->p);
            memcpy(&d, &bits, 8);
            cur->p += 8;
        }
        rc = pm_column_append_f64(c, d);
        break;
    }
    case OP_BYTES: {
        const uint8_t *b;
        size_t len;
        if (p->w->kind == PM_AVRO_FIXED) {
            if ((size_t)(cur->end - cur->p) < p->w->size)
                return bad(f, err);
            b = cur->p;
            len = p->w->size;
            cur->p += len;
        } else if (!pm_avro_read_bytes(cur, &b, &len)) {
            return bad(f, err);
        }
        rc = pm_column_append_bytes(c, b, len);
        break;
    }
    case OP_DECIMAL: {
        const uint8_t *b;
        size_t len;
        unsigned __int128 u = 0;
        pm_int128 x;
        pm_datum d;
        int diff = c->type->scale - p->scale;
        if (p->w->kind == PM_AVRO_FIXED) {
            if ((size_t)(cur->end - cur->p) < p->w->size)
                return bad(f, err);
            b = cur->p;
            len = p->w->size;
            cur->p += len;
        } else if (!pm_avro_read_bytes(cur, &b, &len)) {
            return bad(f, err);
        }
        if (len > 16)
            return bad(f, err);
        /* two's complement, big endian, sign-extended */
        for (size_t i = 0; i < 16; i++)
            u = u << 8 | (i < 16 - len ? (len > 0 && (b[0] & 0x80) ? 0xff : 0) : b[i - (16 - len)]);
        x = (pm_int128)u;
        for (; diff > 0; diff--)
            x *= 10;
        for (; diff < 0; diff++)
            x /= 10;
        d.is_null = false;
        d.v.dec = x;
        rc = pm_column_append_datum(c, &d);
        break;
    }
    case OP_TIMESTAMP: {
        pm_datum d;
        if (!pm_avro_read_long(cur, &v))
            return bad(f, err);
        d.is_null = false;
        if (p->unit == 1000) {
            d.v.ts.millis = v;
            d.v.ts.nanos = 0;
        } else {
            d.v.ts.millis = pm_floor_div(v, 1000);
            d.v.ts.nanos = (int32_t)pm_floor_mod(v, 1000) * 1000;
        }
        rc = pm_column_append_datum(c, &d);
        break;
    }
    case OP_RECORD:
        for (size_t i = 0; i < p->child_count && rc == 0; i++) {
            const aplan *cp = &p->children[i];
            if (p->targets[i] < 0) {
                if (!pm_avro_skip_value(cp->w, cur, depth))
                    return bad(f, err);
                continue;
            }
            rc = value(f, cp, c->children[p->targets[i]], depth + 1, err);
            if (rc != 0)
                return rc;
        }
        for (size_t k = 0; k < c->child_count && rc == 0; k++)
            if (p->missing[k])
                rc = pm_column_append_null(c->children[k]);
        if (rc == 0)
            rc = pm_column_struct_end(c, true);
        break;
    case OP_ARRAY:
    case OP_MAP:
    case OP_ARRAY_MAP: return entries(f, p, c, depth, err);
    case OP_SKIP:
        if (!pm_avro_skip_value(p->w, cur, depth))
            return bad(f, err);
        break;
    }
    return rc != 0 ? pm_buf_error(err, rc) : 0;
}

/* One top-level record into the batch's columns (the root plan is a record). */
PM_MUST_CHECK static int record(avro_file *f, pm_batch *b, paimon_error *err)
{
    const aplan *p = &f->plan;
    int rc = 0;
    if (p->null_branch >= 0) {
        int64_t branch;
        if (!pm_avro_read_long(&f->cur, &branch) || branch < 0 || branch > 1)
            return bad(f, err);
        if (branch == p->null_branch)
            return pm_corrupt(err, "%s: record %lld is null", f->path, (long long)f->row);
    }
    for (size_t i = 0; i < p->child_count && rc == 0; i++) {
        if (p->targets[i] < 0) {
            if (!pm_avro_skip_value(p->children[i].w, &f->cur, 0))
                return bad(f, err);
            continue;
        }
        rc = value(f, &p->children[i], b->columns[p->targets[i]], 1, err);
    }
    for (size_t k = 0; k < b->column_count && rc == 0; k++)
        if (p->missing[k] && (rc = pm_column_append_null(b->columns[k])) != 0)
            rc = pm_buf_error(err, rc);
    return rc;
}

PM_MUST_CHECK static int skip_record(avro_file *f, paimon_error *err)
{
    return pm_avro_skip_value(f->reader.schema, &f->cur, 0) ? 0 : bad(f, err);
}

/* ---- the data format ------------------------------------------------------------------- */

static void avro_close(void *impl)
{
    avro_file *f = impl;
    if (f == NULL)
        return;
    if (f->reader_open)
        pm_avro_reader_close(&f->reader);
    pm_type_free(f->type);
    pm_type_free(f->read_type);
    pm_arena_free(&f->arena);
    pm_buf_free(&f->block);
    pm_free(f->data);
    pm_free(f->path);
    pm_free(f);
}

/* Sums the blocks' object counts into f->total_rows: the blocks are framed (header and
 * sync marker checked), not decompressed, and the reader goes back to the first block. */
PM_MUST_CHECK static int count_rows(avro_file *f, paimon_error *err)
{
    size_t first = f->reader.pos, off;
    int64_t n;
    int rc;
    while ((rc = pm_avro_reader_next_block(&f->reader, NULL, &n, &off, err)) == 0) {
        if (n > INT64_MAX - f->total_rows)
            return pm_corrupt(err, "%s: Avro block at offset %zu: more than 2^63 rows", f->path,
                              off);
        f->total_rows += n;
    }
    f->reader.pos = first;
    return rc == PAIMON_ITEROVER ? 0 : rc;
}

PM_MUST_CHECK static int avro_open(void **impl, pm_input *in, const char *path, paimon_error *err)
{
    avro_file *f = pm_calloc(1, sizeof(*f));
    int rc = 0;
    *impl = NULL;
    if (f == NULL) {
        in->close(in);
        return pm_nomem(err);
    }
    pm_arena_init(&f->arena, 1 << 12);
    pm_buf_init(&f->block, PM_AVRO_DEFAULT_MAX_BLOCK);
    if ((f->path = pm_strdup(path)) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    if (in->size > MAX_FILE) {
        rc = pm_err_set(err, PAIMON_ELIMIT, "%s: Avro data files above 2 GiB are not read", path);
        goto done;
    }
    f->len = (size_t)in->size;
    if ((f->data = pm_malloc(f->len + 1)) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    PM_TRY(in->read_at(in, 0, f->len, f->data, err));
    PM_TRY(pm_avro_reader_open(&f->reader, f->data, f->len, f->path, err));
    f->reader_open = true;
    if ((rc = pm_avro_data_type_of(f->reader.schema, &f->type, err)) != 0) {
        rc = pm_err_prefix(err, rc, "%s: ", f->path);
        goto done;
    }
    rc = count_rows(f, err);
done:
    in->close(in);
    if (rc != 0) {
        avro_close(f);
        return rc;
    }
    *impl = f;
    return 0;
}

static const pm_type *avro_type(void *impl)
{
    return ((avro_file *)impl)->type;
}

/* Records in the file: the sum of the blocks' counts, counted by avro_open (row_count has
 * no error to report, so a malformed block frame shows there; a block that does not
 * decompress shows when it is read). */
static int64_t avro_rows(void *impl)
{
    return ((avro_file *)impl)->total_rows;
}

PM_MUST_CHECK static int avro_start(void *impl, const pm_read_options *o, paimon_error *err)
{
    avro_file *f = impl;
    int rc;
    pm_type_free(f->read_type);
    pm_arena_reset(&f->arena);
    memset(&f->plan, 0, sizeof(f->plan));
    f->read_type = pm_type_clone(o != NULL && o->read_type != NULL ? o->read_type : f->type);
    if (f->read_type == NULL)
        return pm_nomem(err);
    if (f->read_type->id != PM_TYPE_ROW)
        return pm_err_set(err, PAIMON_EINVALID, "%s: the read type is not a ROW", f->path);
    /* restart from the first block (the plan points into this reader's schema) */
    pm_avro_reader_close(&f->reader);
    f->reader_open = false;
    if ((rc = pm_avro_reader_open(&f->reader, f->data, f->len, f->path, err)) != 0)
        return rc;
    f->reader_open = true;
    if ((rc = build(f, &f->plan, f->reader.schema, f->read_type, 0, err)) != 0)
        return rc;
    f->remaining = 0;
    f->row = 0;
    f->batch_rows =
        o != NULL && o->batch_rows > 0 ? o->batch_rows : pm_batch_default_rows(f->read_type);
    f->ranges = o != NULL ? o->ranges : NULL;
    f->range_count = o != NULL && o->ranges != NULL ? o->range_count : 0;
    f->range_idx = 0;
    /* Avro keeps no statistics: a filter prunes nothing */
    return 0;
}

/* Whether record f->row is wanted by the ranges; false past the last range too. */
static bool wanted(avro_file *f, bool *done)
{
    *done = false;
    if (f->ranges == NULL)
        return true;
    while (f->range_idx < f->range_count && f->row >= f->ranges[2 * f->range_idx + 1])
        f->range_idx++;
    if (f->range_idx == f->range_count) {
        *done = true;
        return false;
    }
    return f->row >= f->ranges[2 * f->range_idx];
}

PM_MUST_CHECK static int avro_next(void *impl, pm_batch **out, paimon_error *err)
{
    avro_file *f = impl;
    pm_batch *b = NULL;
    int64_t got = 0;
    int rc = 0;

    *out = NULL;
    if (f->read_type == NULL && (rc = avro_start(f, NULL, err)) != 0)
        return rc;
    if ((rc = pm_batch_new(&b, f->read_type, err)) != 0)
        return rc;
    while (got < f->batch_rows) {
        bool done;
        if (f->remaining == 0) {
            size_t off;
            rc = pm_avro_reader_next_block(&f->reader, &f->block, &f->remaining, &off, err);
            if (rc == PAIMON_ITEROVER) {
                rc = 0;
                break;
            }
            if (rc != 0)
                break;
            f->cur.p = f->cur.start = f->block.data;
            f->cur.end = f->block.data + f->block.len;
            continue;
        }
        if (wanted(f, &done)) {
            rc = record(f, b, err);
            got++;
        } else if (done) {
            break;
        } else {
            rc = skip_record(f, err);
        }
        if (rc != 0)
            break;
        f->remaining--;
        f->row++;
    }
    if (rc == 0 && got == 0)
        rc = PAIMON_ITEROVER;
    if (rc == 0)
        rc = pm_batch_set_rows(b, got, err);
    if (rc != 0) {
        pm_batch_free(b);
        return rc;
    }
    *out = b;
    return 0;
}

PM_MUST_CHECK static int avro_describe(void *impl, pm_buf *out, paimon_error *err)
{
    avro_file *f = impl;
    int rc = pm_buf_printf(out, "file: %s\nformat: avro\nsize: %zu bytes\ncodec: %s\nrows: %lld\n",
                           f->path, f->len, f->reader.codec_name, (long long)avro_rows(f));
    if (rc == 0 && (rc = pm_buf_puts(out, "type: ")) == 0 &&
        (rc = pm_type_format(f->type, out)) == 0)
        rc = pm_buf_printf(out, "\nschema: %.*s\n", (int)f->reader.schema_json_len,
                           f->reader.schema_json);
    return rc != 0 ? pm_buf_error(err, rc) : 0;
}

const pm_data_format pm_avro_format = {
    .name = "avro",
    .magic = "Obj\x01",
    .magic_len = 4,
    .open = avro_open,
    .close = avro_close,
    .type = avro_type,
    .row_count = avro_rows,
    .start = avro_start,
    .next = avro_next,
    .describe = avro_describe,
};
