/* Descriptor-driven Avro records: see avro_record.h. */
#include "format/avro/avro_record.h"

#include "format/avro/avro_skip.h"

#include <stdio.h>
#include <string.h>

#include "util/alloc.h"
#include "util/error.h"

/* Schemas nest at most PM_AVRO_MAX_DEPTH nodes and refer to no record being defined, so this
 * bound (with room for the depth a caller starts at) is never reached by a parsed schema. */
#define MAX_SKIP_DEPTH (2 * PM_AVRO_MAX_DEPTH)

int pm_avro_bytes_cmp(const pm_avro_bytes *a, const pm_avro_bytes *b)
{
    size_t n = a->len < b->len ? a->len : b->len;
    int r = n > 0 ? memcmp(a->ptr, b->ptr, n) : 0;
    return r != 0 ? r : (a->len < b->len ? -1 : a->len > b->len);
}

/* ---- schema JSON ----------------------------------------------------------------------- */

static int record_json(const pm_avro_rdesc *rd, bool top, pm_buf *out);

static int base_type_json(pm_avro_ftype t, const pm_avro_rdesc *record, pm_buf *out)
{
    switch (t) {
    case PM_AF_INT: return pm_buf_puts(out, "\"int\"");
    case PM_AF_LONG: return pm_buf_puts(out, "\"long\"");
    case PM_AF_TS_MILLIS:
        return pm_buf_puts(out, "{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}");
    case PM_AF_STRING: return pm_buf_puts(out, "\"string\"");
    case PM_AF_BYTES: return pm_buf_puts(out, "\"bytes\"");
    case PM_AF_RECORD: return record_json(record, false, out);
    case PM_AF_ARRAY: return PAIMON_EINVALID; /* arrays are handled by field_type_json */
    }
    return PAIMON_EINVALID;
}

static int field_type_json(const pm_avro_fdesc *fd, pm_buf *out)
{
    int rc;
    if (fd->type != PM_AF_ARRAY)
        return base_type_json(fd->type, fd->record, out);
    if ((rc = pm_buf_puts(out, "{\"type\":\"array\",\"items\":")) != 0)
        return rc;
    if (fd->item_nullable && (rc = pm_buf_puts(out, "[\"null\",")) != 0)
        return rc;
    if ((rc = base_type_json(fd->item_type, fd->record, out)) != 0)
        return rc;
    if (fd->item_nullable && (rc = pm_buf_putc(out, ']')) != 0)
        return rc;
    return pm_buf_putc(out, '}');
}

static int record_json(const pm_avro_rdesc *rd, bool top, pm_buf *out)
{
    int rc = pm_buf_printf(out, "{\"type\":\"record\",\"name\":\"%s\",", rd->name);
    if (rc == 0 && top)
        rc = pm_buf_puts(out, "\"namespace\":\"" PM_AVRO_NAMESPACE "\",");
    if (rc == 0)
        rc = pm_buf_puts(out, "\"fields\":[");
    for (size_t i = 0; rc == 0 && i < rd->field_count; i++) {
        const pm_avro_fdesc *fd = &rd->fields[i];
        rc = pm_buf_printf(out, "%s{\"name\":\"%s\",\"type\":", i > 0 ? "," : "", fd->name);
        if (rc == 0 && fd->nullable)
            rc = pm_buf_puts(out, "[\"null\",");
        if (rc == 0)
            rc = field_type_json(fd, out);
        if (rc == 0 && fd->nullable)
            rc = pm_buf_puts(out, "],\"default\":null");
        if (rc == 0)
            rc = pm_buf_putc(out, '}');
    }
    if (rc == 0)
        rc = pm_buf_puts(out, "]}");
    return rc;
}

int pm_avro_schema_json(const pm_avro_rdesc *rd, pm_buf *out)
{
    return record_json(rd, true, out);
}

/* ---- encoding -------------------------------------------------------------------------- */

static bool field_is_null(const pm_avro_fdesc *fd, const uint8_t *base)
{
    const void *p = base + fd->offset;
    switch (fd->type) {
    case PM_AF_STRING: return *(const char *const *)p == NULL;
    case PM_AF_BYTES: return ((const pm_avro_bytes *)p)->ptr == NULL;
    case PM_AF_ARRAY: return !((const pm_avro_array *)p)->present;
    default: return fd->present_offset >= 0 && !*(const bool *)(base + fd->present_offset);
    }
}

static int encode_value(pm_avro_ftype t, const pm_avro_rdesc *record, const void *p, pm_buf *out);

static int encode_array(const pm_avro_fdesc *fd, const pm_avro_array *a, pm_buf *out)
{
    size_t item_size;
    int rc;
    if (a->count > 0) {
        if ((rc = pm_avro_write_long(out, (int64_t)a->count)) != 0)
            return rc;
        switch (fd->item_type) {
        case PM_AF_INT: item_size = sizeof(int32_t); break;
        case PM_AF_LONG:
        case PM_AF_TS_MILLIS: item_size = sizeof(int64_t); break;
        case PM_AF_STRING: item_size = sizeof(const char *); break;
        case PM_AF_BYTES: item_size = sizeof(pm_avro_bytes); break;
        case PM_AF_RECORD: item_size = fd->record->size; break;
        default: return PAIMON_EINVALID;
        }
        for (size_t i = 0; i < a->count; i++) {
            const uint8_t *item = (const uint8_t *)a->items + i * item_size;
            if (fd->item_nullable) {
                bool is_null =
                    (fd->item_type == PM_AF_LONG && *(const int64_t *)item == PM_AVRO_NULL_LONG) ||
                    (fd->item_type == PM_AF_STRING && *(const char *const *)item == NULL);
                if ((rc = pm_avro_write_long(out, is_null ? 0 : 1)) != 0)
                    return rc;
                if (is_null)
                    continue;
            }
            if ((rc = encode_value(fd->item_type, fd->record, item, out)) != 0)
                return rc;
        }
    }
    return pm_avro_write_long(out, 0);
}

static int encode_value(pm_avro_ftype t, const pm_avro_rdesc *record, const void *p, pm_buf *out)
{
    switch (t) {
    case PM_AF_INT: return pm_avro_write_long(out, *(const int32_t *)p);
    case PM_AF_LONG:
    case PM_AF_TS_MILLIS: return pm_avro_write_long(out, *(const int64_t *)p);
    case PM_AF_STRING: {
        const char *s = *(const char *const *)p;
        return pm_avro_write_string(out, s != NULL ? s : "");
    }
    case PM_AF_BYTES: {
        const pm_avro_bytes *b = p;
        return pm_avro_write_bytes(out, b->ptr, b->ptr != NULL ? b->len : 0);
    }
    case PM_AF_RECORD: return pm_avro_encode(record, p, out);
    case PM_AF_ARRAY: return PAIMON_EINVALID;
    }
    return PAIMON_EINVALID;
}

int pm_avro_encode(const pm_avro_rdesc *rd, const void *src, pm_buf *out)
{
    const uint8_t *base = src;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < rd->field_count; i++) {
        const pm_avro_fdesc *fd = &rd->fields[i];
        if (fd->nullable) {
            bool is_null = field_is_null(fd, base);
            if ((rc = pm_avro_write_long(out, is_null ? 0 : 1)) != 0 || is_null)
                continue;
        }
        if (fd->type == PM_AF_ARRAY)
            rc = encode_array(fd, (const pm_avro_array *)(base + fd->offset), out);
        else
            rc = encode_value(fd->type, fd->record, base + fd->offset, out);
    }
    return rc;
}

/* ---- skipping -------------------------------------------------------------------------- */

bool pm_avro_skip_value(const pm_avro_schema *s, pm_avro_cursor *c, int depth)
{
    int64_t n;
    const uint8_t *data;
    size_t len;
    if (depth > MAX_SKIP_DEPTH)
        return false;
    switch (s->kind) {
    case PM_AVRO_NULL: return true;
    case PM_AVRO_BOOLEAN: return pm_avro_skip(c, 1);
    case PM_AVRO_INT:
    case PM_AVRO_LONG:
    case PM_AVRO_ENUM: return pm_avro_read_long(c, &n);
    case PM_AVRO_FLOAT: return pm_avro_skip(c, 4);
    case PM_AVRO_DOUBLE: return pm_avro_skip(c, 8);
    case PM_AVRO_BYTES:
    case PM_AVRO_STRING: return pm_avro_read_bytes(c, &data, &len);
    case PM_AVRO_FIXED: return pm_avro_skip(c, s->size);
    case PM_AVRO_RECORD:
        for (size_t i = 0; i < s->field_count; i++)
            if (!pm_avro_skip_value(s->fields[i].type, c, depth + 1))
                return false;
        return true;
    case PM_AVRO_UNION:
        if (!pm_avro_read_long(c, &n) || n < 0 || (uint64_t)n >= s->branch_count)
            return false;
        return pm_avro_skip_value(s->branches[n], c, depth + 1);
    case PM_AVRO_ARRAY:
    case PM_AVRO_MAP:
        for (;;) {
            if (!pm_avro_read_long(c, &n))
                return false;
            if (n == 0)
                return true;
            if (n < 0) {
                int64_t bytes;
                if (n == INT64_MIN || !pm_avro_read_long(c, &bytes) || bytes < 0)
                    return false;
                if (!pm_avro_skip(c, (size_t)bytes))
                    return false;
                continue;
            }
            /* Every item takes at least one byte unless it is null: bound the loop. */
            if (s->items->kind == PM_AVRO_NULL && s->kind == PM_AVRO_ARRAY)
                continue;
            if ((uint64_t)n > (uint64_t)(c->end - c->p))
                return false;
            for (int64_t i = 0; i < n; i++) {
                if (s->kind == PM_AVRO_MAP && !pm_avro_read_bytes(c, &data, &len))
                    return false;
                if (!pm_avro_skip_value(s->items, c, depth + 1))
                    return false;
            }
        }
    }
    return false;
}

/* ---- plans ----------------------------------------------------------------------------- */

enum { OP_SKIP, OP_DECODE };

typedef struct plan_op {
    uint8_t action;
    int8_t null_branch;          /* writer type is ["null", T]-like: index of null; else -1 */
    pm_avro_kind wkind;          /* writer kind of the value (after the union) */
    const pm_avro_schema *wtype; /* the whole writer type, for skipping */
    const pm_avro_fdesc *fd;
    const pm_avro_plan *sub; /* records, and record array items */
    int8_t item_null_branch; /* arrays: items are a nullable union */
    pm_avro_kind item_wkind; /* arrays: writer item kind */
} plan_op;

struct pm_avro_plan {
    const pm_avro_rdesc *rd;
    int8_t top_null_branch; /* the record itself is wrapped in ["null", record]; else -1 */
    size_t op_count;
    plan_op *ops;
};

static const char *kind_name(pm_avro_kind k)
{
    static const char *const names[] = {"null",   "boolean", "int",    "long",   "float",
                                        "double", "bytes",   "string", "record", "enum",
                                        "array",  "map",     "union",  "fixed"};
    return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "?";
}

/* Unwraps a two-branch nullable union. */
static const pm_avro_schema *unwrap(const pm_avro_schema *s, int8_t *null_branch)
{
    int nb;
    const pm_avro_schema *inner = pm_avro_nullable_inner(s, &nb);
    if (inner == NULL) {
        *null_branch = -1;
        return s;
    }
    *null_branch = (int8_t)nb;
    return inner;
}

static bool compatible(pm_avro_ftype want, pm_avro_kind have)
{
    switch (want) {
    case PM_AF_INT: return have == PM_AVRO_INT;
    case PM_AF_LONG:
    case PM_AF_TS_MILLIS: return have == PM_AVRO_LONG || have == PM_AVRO_INT;
    case PM_AF_STRING:
    case PM_AF_BYTES: return have == PM_AVRO_STRING || have == PM_AVRO_BYTES;
    case PM_AF_RECORD: return have == PM_AVRO_RECORD;
    case PM_AF_ARRAY: return have == PM_AVRO_ARRAY;
    }
    return false;
}

PM_MUST_CHECK static int compile(const pm_avro_schema *writer, const pm_avro_rdesc *rd,
                                 pm_arena *arena, const char *what, int depth, pm_avro_plan **out,
                                 paimon_error *err);

PM_MUST_CHECK static int compile_field(plan_op *op, const pm_avro_field *wf,
                                       const pm_avro_fdesc *fd, pm_arena *arena, const char *what,
                                       int depth, paimon_error *err)
{
    const pm_avro_schema *inner = unwrap(wf->type, &op->null_branch);
    op->action = OP_DECODE;
    op->fd = fd;
    op->wkind = inner->kind;
    if (!compatible(fd->type, inner->kind))
        return pm_corrupt(err,
                          "%s: Avro field %s has type %s, which cannot be read as the "
                          "expected type",
                          what, fd->name, kind_name(inner->kind));
    if (fd->type == PM_AF_RECORD)
        return compile(inner, fd->record, arena, what, depth + 1, (pm_avro_plan **)&op->sub, err);
    if (fd->type == PM_AF_ARRAY) {
        const pm_avro_schema *item = unwrap(inner->items, &op->item_null_branch);
        op->item_wkind = item->kind;
        if (!compatible(fd->item_type, item->kind))
            return pm_corrupt(err, "%s: Avro field %s holds items of type %s", what, fd->name,
                              kind_name(item->kind));
        if (fd->item_type == PM_AF_RECORD)
            return compile(item, fd->record, arena, what, depth + 1, (pm_avro_plan **)&op->sub,
                           err);
    }
    return 0;
}

PM_MUST_CHECK static int compile(const pm_avro_schema *writer, const pm_avro_rdesc *rd,
                                 pm_arena *arena, const char *what, int depth, pm_avro_plan **out,
                                 paimon_error *err)
{
    pm_avro_plan *plan;
    const pm_avro_schema *rec;
    int8_t nb;
    int rc;

    if (depth > 16)
        return pm_corrupt(err, "%s: Avro records nested too deeply", what);
    rec = unwrap(writer, &nb);
    if (rec->kind != PM_AVRO_RECORD)
        return pm_corrupt(err, "%s: expected an Avro record for %s, found %s", what, rd->name,
                          kind_name(rec->kind));
    plan = pm_arena_calloc(arena, 1, sizeof(*plan));
    if (plan == NULL ||
        (plan->ops = pm_arena_calloc(arena, rec->field_count + 1, sizeof(plan_op))) == NULL)
        return pm_nomem(err);
    plan->rd = rd;
    plan->top_null_branch = nb;
    plan->op_count = rec->field_count;
    for (size_t i = 0; i < rec->field_count; i++) {
        const pm_avro_field *wf = &rec->fields[i];
        plan_op *op = &plan->ops[i];
        op->wtype = wf->type;
        op->action = OP_SKIP;
        for (size_t k = 0; k < rd->field_count; k++) {
            if (strcmp(rd->fields[k].name, wf->name) == 0) {
                if ((rc = compile_field(op, wf, &rd->fields[k], arena, what, depth, err)) != 0)
                    return rc;
                break;
            }
        }
    }
    /* Reader fields the writer lacks read as null: only nullable ones may be missing. */
    for (size_t k = 0; k < rd->field_count; k++) {
        if (!rd->fields[k].nullable && pm_avro_record_field(rec, rd->fields[k].name, NULL) == NULL)
            return pm_corrupt(err, "%s: Avro schema lacks the required field %s of %s", what,
                              rd->fields[k].name, rd->name);
    }
    *out = plan;
    return 0;
}

int pm_avro_plan_compile(const pm_avro_schema *writer, const pm_avro_rdesc *rd, pm_arena *arena,
                         const char *what, pm_avro_plan **out, paimon_error *err)
{
    return compile(writer, rd, arena, what, 0, out, err);
}

/* ---- decoding -------------------------------------------------------------------------- */

PM_MUST_CHECK static int truncated(pm_avro_cursor *c, const char *what, const char *field,
                                   paimon_error *err)
{
    return pm_corrupt(err, "%s: malformed Avro value of %s at block offset %zu", what, field,
                      pm_avro_offset(c));
}

PM_MUST_CHECK static int decode_ops(const pm_avro_plan *plan, pm_avro_cursor *c, uint8_t *base,
                                    pm_arena *arena, const char *what, int depth, size_t from,
                                    size_t to, paimon_error *err);

PM_MUST_CHECK static int decode_fields(const pm_avro_plan *plan, pm_avro_cursor *c, uint8_t *base,
                                       pm_arena *arena, const char *what, int depth,
                                       paimon_error *err)
{
    return decode_ops(plan, c, base, arena, what, depth, 0, plan->op_count, err);
}

PM_MUST_CHECK static int decode_record(const pm_avro_plan *plan, pm_avro_cursor *c, uint8_t *base,
                                       pm_arena *arena, const char *what, int depth,
                                       paimon_error *err);

/* Decodes one non-null value of writer kind `wkind` as `t` into `dst`. */
PM_MUST_CHECK static int decode_value(pm_avro_ftype t, pm_avro_kind wkind, const pm_avro_plan *sub,
                                      pm_avro_cursor *c, void *dst, pm_arena *arena,
                                      const char *what, const char *field, int depth,
                                      paimon_error *err)
{
    int64_t v;
    const uint8_t *data;
    size_t len;
    switch (t) {
    case PM_AF_INT: {
        int32_t i;
        if (!pm_avro_read_int(c, &i))
            return truncated(c, what, field, err);
        *(int32_t *)dst = i;
        return 0;
    }
    case PM_AF_LONG:
    case PM_AF_TS_MILLIS:
        if (!pm_avro_read_long(c, &v) || (wkind == PM_AVRO_INT && (v < INT32_MIN || v > INT32_MAX)))
            return truncated(c, what, field, err);
        *(int64_t *)dst = v;
        return 0;
    case PM_AF_STRING: {
        char *s;
        if (!pm_avro_read_bytes(c, &data, &len))
            return truncated(c, what, field, err);
        s = pm_arena_strndup(arena, (const char *)data, len);
        if (s == NULL)
            return pm_nomem(err);
        *(char **)dst = s;
        return 0;
    }
    case PM_AF_BYTES:
        if (!pm_avro_read_bytes(c, &data, &len))
            return truncated(c, what, field, err);
        /* A zero-length value still needs a non-NULL pointer: NULL means null. */
        ((pm_avro_bytes *)dst)->ptr = len > 0 ? data : (const uint8_t *)"";
        ((pm_avro_bytes *)dst)->len = len;
        return 0;
    case PM_AF_RECORD: return decode_record(sub, c, dst, arena, what, depth + 1, err);
    case PM_AF_ARRAY: break;
    }
    return pm_err_set(err, PAIMON_EINVALID, "%s: bad descriptor for %s", what, field);
}

static size_t item_size_of(const pm_avro_fdesc *fd)
{
    switch (fd->item_type) {
    case PM_AF_INT: return sizeof(int32_t);
    case PM_AF_LONG:
    case PM_AF_TS_MILLIS: return sizeof(int64_t);
    case PM_AF_STRING: return sizeof(char *);
    case PM_AF_BYTES: return sizeof(pm_avro_bytes);
    case PM_AF_RECORD: return fd->record->size;
    case PM_AF_ARRAY: return 0;
    }
    return 0;
}

PM_MUST_CHECK static int decode_array(const plan_op *op, pm_avro_cursor *c, pm_avro_array *a,
                                      pm_arena *arena, const char *what, int depth,
                                      paimon_error *err)
{
    const pm_avro_fdesc *fd = op->fd;
    size_t item_size = item_size_of(fd), total = 0;
    uint8_t *items = NULL;
    int rc;

    for (;;) {
        int64_t n, branch;
        uint8_t *grown;
        if (!pm_avro_read_long(c, &n))
            return truncated(c, what, fd->name, err);
        if (n == 0)
            break;
        if (n < 0) {
            int64_t bytes;
            if (n == INT64_MIN || !pm_avro_read_long(c, &bytes))
                return truncated(c, what, fd->name, err);
            n = -n;
        }
        /* Each item takes at least one byte: a count beyond the bytes left is corrupt. */
        if ((uint64_t)n > (uint64_t)(c->end - c->p))
            return truncated(c, what, fd->name, err);
        grown = pm_arena_alloc(arena, (total + (size_t)n) * item_size);
        if (grown == NULL)
            return pm_nomem(err);
        if (total > 0)
            memcpy(grown, items, total * item_size);
        items = grown;
        memset(items + total * item_size, 0, (size_t)n * item_size);
        for (int64_t i = 0; i < n; i++) {
            uint8_t *dst = items + (total + (size_t)i) * item_size;
            if (op->item_null_branch >= 0) {
                if (!pm_avro_read_long(c, &branch) || branch < 0 || branch > 1)
                    return truncated(c, what, fd->name, err);
                if (branch == op->item_null_branch) {
                    if (fd->item_type == PM_AF_LONG || fd->item_type == PM_AF_TS_MILLIS)
                        *(int64_t *)dst = PM_AVRO_NULL_LONG;
                    else if (fd->item_type != PM_AF_STRING)
                        return pm_corrupt(err, "%s: null item in Avro array %s", what, fd->name);
                    continue;
                }
            }
            rc = decode_value(fd->item_type, op->item_wkind, op->sub, c, dst, arena, what, fd->name,
                              depth, err);
            if (rc != 0)
                return rc;
        }
        total += (size_t)n;
    }
    a->items = items;
    a->count = total;
    a->present = true;
    return 0;
}

/* Decodes the fields of one record into `base`, which the caller has zeroed (a nested
 * record lies inside its zeroed parent).  The common field types are decoded inline: this
 * loop is the hot path of every manifest read. */
PM_MUST_CHECK static int decode_ops(const pm_avro_plan *plan, pm_avro_cursor *c, uint8_t *base,
                                    pm_arena *arena, const char *what, int depth, size_t from,
                                    size_t to, paimon_error *err)
{
    int rc = 0;
    if (from == 0 && plan->top_null_branch >= 0) {
        int64_t branch;
        if (!pm_avro_read_long(c, &branch) || branch < 0 || branch > 1)
            return truncated(c, what, plan->rd->name, err);
        if (branch == plan->top_null_branch)
            return pm_corrupt(err, "%s: null %s record", what, plan->rd->name);
    }
    for (size_t i = from; i < to; i++) {
        const plan_op *op = &plan->ops[i];
        const pm_avro_fdesc *fd = op->fd;
        uint8_t *dst;
        int64_t v;
        const uint8_t *data;
        size_t len;

        if (op->action == OP_SKIP) {
            if (!pm_avro_skip_value(op->wtype, c, depth))
                return truncated(c, what, "a skipped field", err);
            continue;
        }
        if (op->null_branch >= 0) {
            int64_t branch;
            if (!pm_avro_read_long(c, &branch) || branch < 0 || branch > 1)
                return truncated(c, what, fd->name, err);
            if (branch == op->null_branch) {
                if (!fd->nullable)
                    return pm_corrupt(err, "%s: null in NOT NULL field %s", what, fd->name);
                continue;
            }
        }
        dst = base + fd->offset;
        switch (fd->type) {
        case PM_AF_INT:
            if (!pm_avro_read_long(c, &v) || v < INT32_MIN || v > INT32_MAX)
                return truncated(c, what, fd->name, err);
            *(int32_t *)dst = (int32_t)v;
            break;
        case PM_AF_LONG:
        case PM_AF_TS_MILLIS:
            if (!pm_avro_read_long(c, &v) ||
                (op->wkind == PM_AVRO_INT && (v < INT32_MIN || v > INT32_MAX)))
                return truncated(c, what, fd->name, err);
            *(int64_t *)dst = v;
            break;
        case PM_AF_STRING: {
            char *str;
            if (!pm_avro_read_bytes(c, &data, &len))
                return truncated(c, what, fd->name, err);
            if ((str = pm_arena_alloc(arena, len + 1)) == NULL)
                return pm_nomem(err);
            memcpy(str, data, len);
            str[len] = '\0';
            *(char **)dst = str;
            break;
        }
        case PM_AF_BYTES:
            if (!pm_avro_read_bytes(c, &data, &len))
                return truncated(c, what, fd->name, err);
            /* A zero-length value still needs a non-NULL pointer: NULL means null. */
            ((pm_avro_bytes *)dst)->ptr = len > 0 ? data : (const uint8_t *)"";
            ((pm_avro_bytes *)dst)->len = len;
            break;
        case PM_AF_RECORD:
            if (depth > 16)
                return pm_corrupt(err, "%s: Avro records nested too deeply", what);
            rc = decode_fields(op->sub, c, dst, arena, what, depth + 1, err);
            break;
        case PM_AF_ARRAY:
            rc = decode_array(op, c, (pm_avro_array *)dst, arena, what, depth, err);
            break;
        }
        if (rc != 0)
            return rc;
        if (fd->present_offset >= 0)
            *(bool *)(base + fd->present_offset) = true;
    }
    return 0;
}

PM_MUST_CHECK static int decode_record(const pm_avro_plan *plan, pm_avro_cursor *c, uint8_t *base,
                                       pm_arena *arena, const char *what, int depth,
                                       paimon_error *err)
{
    memset(base, 0, plan->rd->size);
    return decode_fields(plan, c, base, arena, what, depth, err);
}

int pm_avro_decode(const pm_avro_plan *plan, pm_avro_cursor *c, void *target, pm_arena *arena,
                   const char *what, paimon_error *err)
{
    return decode_record(plan, c, target, arena, what, 0, err);
}

/* ---- whole files ----------------------------------------------------------------------- */

int pm_avro_file_open(pm_avro_file_reader *r, const uint8_t *data, size_t len, const char *what,
                      const pm_avro_rdesc *rd, pm_arena *arena, bool retain, paimon_error *err)
{
    int rc;
    memset(r, 0, sizeof(*r));
    r->arena = arena;
    r->retain = retain;
    pm_buf_init(&r->block, 0);
    rc = pm_avro_reader_open(&r->file, data, len, what, err);
    if (rc == 0)
        rc = pm_avro_plan_compile(r->file.schema, rd, &r->file.arena, what, &r->plan, err);
    return rc;
}

/* Makes the next block current. */
PM_MUST_CHECK static int load_block(pm_avro_file_reader *r, paimon_error *err)
{
    int64_t count;
    size_t off, len;
    uint8_t *bytes;
    int rc;

    if (r->cursor.p != r->cursor.end)
        return pm_corrupt(err, "%s: Avro block at offset %zu has %zu bytes after its last record",
                          r->file.what, r->block_off, (size_t)(r->cursor.end - r->cursor.p));
    if (!r->retain) {
        rc = pm_avro_reader_next_block(&r->file, &r->block, &count, &off, err);
        if (rc != 0)
            return rc;
        bytes = r->block.data;
        len = r->block.len;
    } else {
        pm_buf block;
        pm_buf_init(&block, 0);
        rc = pm_avro_reader_next_block(&r->file, &block, &count, &off, err);
        if (rc != 0) {
            pm_buf_free(&block);
            return rc;
        }
        /* Records point into the block: the arena keeps it alive. */
        bytes = pm_buf_detach(&block, &len);
        if (bytes != NULL && pm_arena_adopt(r->arena, bytes, len) != 0)
            return pm_nomem(err);
    }
    r->cursor.start = bytes;
    r->cursor.p = bytes;
    r->cursor.end = bytes == NULL ? NULL : bytes + len;
    r->remaining = count;
    r->block_off = off;
    return 0;
}

int pm_avro_file_next(pm_avro_file_reader *r, void *target, paimon_error *err)
{
    int rc;
    while (r->remaining == 0)
        if ((rc = load_block(r, err)) != 0)
            return rc;
    if (!r->retain)
        pm_arena_reset(r->arena);
    rc = pm_avro_decode(r->plan, &r->cursor, target, r->arena, r->file.what, err);
    if (rc == PAIMON_ECORRUPT && err != NULL) {
        size_t used = strlen(err->message);
        snprintf(err->message + used, sizeof(err->message) - used, " (block at file offset %zu)",
                 r->block_off);
    }
    r->remaining--;
    return rc;
}

/* The index of the first op of field `name`, or op_count. */
static size_t field_op(const pm_avro_plan *plan, const char *name)
{
    for (size_t i = 0; i < plan->op_count; i++)
        if (plan->ops[i].action == OP_DECODE && strcmp(plan->ops[i].fd->name, name) == 0)
            return i;
    return plan->op_count;
}

PM_MUST_CHECK static int add_block_offset(pm_avro_file_reader *r, int rc, paimon_error *err)
{
    if (rc == PAIMON_ECORRUPT && err != NULL) {
        size_t used = strlen(err->message);
        snprintf(err->message + used, sizeof(err->message) - used, " (block at file offset %zu)",
                 r->block_off);
    }
    return rc;
}

int pm_avro_file_next_filtered(pm_avro_file_reader *r, void *target, const pm_avro_prefilter *f,
                               paimon_error *err)
{
    const pm_avro_plan *plan = r->plan;
    size_t stop = field_op(plan, f->stop_field);
    int rc;
    if (r->skip == NULL || r->skip_from != stop) {
        const pm_avro_schema **types =
            pm_arena_alloc(&r->file.arena, (plan->op_count - stop + 1) * sizeof(*types));
        if (types == NULL)
            return pm_nomem(err);
        for (size_t i = stop; i < plan->op_count; i++)
            types[i - stop] = plan->ops[i].wtype;
        r->skip = pm_avro_skipper_compile(types, plan->op_count - stop, &r->file.arena);
        r->skip_from = stop;
        if (r->skip == NULL)
            return pm_nomem(err);
    }
    for (;;) {
        while (r->remaining == 0)
            if ((rc = load_block(r, err)) != 0)
                return rc;
        if (!r->retain)
            pm_arena_reset(r->arena);
        memset(target, 0, plan->rd->size);
        r->remaining--;
        rc = decode_ops(plan, &r->cursor, target, r->arena, r->file.what, 0, 0, stop, err);
        if (rc != 0)
            return add_block_offset(r, rc, err);
        if (f->accept(f->ctx, target)) {
            rc = decode_ops(plan, &r->cursor, target, r->arena, r->file.what, 0, stop,
                            plan->op_count, err);
            return add_block_offset(r, rc, err);
        }
        if (!pm_avro_skipper_run(r->skip, &r->cursor))
            return add_block_offset(r, truncated(&r->cursor, r->file.what, "a skipped record", err),
                                    err);
    }
}

void pm_avro_file_close(pm_avro_file_reader *r)
{
    pm_avro_reader_close(&r->file);
    pm_buf_free(&r->block);
}
