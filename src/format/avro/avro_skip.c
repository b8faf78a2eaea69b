/* Compiled Avro skipping: see avro_skip.h. */
#include "format/avro/avro_skip.h"

#include <stdint.h>
#include <string.h>

#include "format/avro/avro_record.h"

#define MAX_FLATTEN_DEPTH 16

typedef enum skip_kind {
    SK_VARINT,          /* int, long, enum */
    SK_BYTES,           /* bytes, string */
    SK_FIXED,           /* `size` bytes: boolean 1, float 4, double 8, fixed */
    SK_NULLABLE_VARINT, /* ["null", long]-like: branch, then a varint unless null */
    SK_NULLABLE_BYTES,  /* ["null", bytes]-like */
    SK_ARRAY_VARINT,    /* array of int/long */
    SK_ARRAY_BYTES,     /* array of string/bytes */
    SK_ARRAY_NULLABLE_VARINT,
    SK_NULLABLE, /* ["null", T] for any other T: branch, then the next `size` ops unless null */
    SK_GENERIC   /* anything else: pm_avro_skip_value */
} skip_kind;

typedef struct skip_op {
    skip_kind kind;
    int8_t null_branch;         /* nullable kinds: the index of the null branch */
    size_t size;                /* SK_FIXED */
    const pm_avro_schema *type; /* SK_GENERIC */
} skip_op;

struct pm_avro_skipper {
    skip_op *ops;
    size_t count, cap;
    pm_arena *arena;
};

static bool push(pm_avro_skipper *s, skip_op op)
{
    if (s->count == s->cap) {
        size_t cap = s->cap == 0 ? 32 : s->cap * 2;
        skip_op *grown = pm_arena_alloc(s->arena, cap * sizeof(*grown));
        if (grown == NULL)
            return false;
        if (s->count > 0)
            memcpy(grown, s->ops, s->count * sizeof(*grown));
        s->ops = grown;
        s->cap = cap;
    }
    s->ops[s->count++] = op;
    return true;
}

static bool is_varint(const pm_avro_schema *t)
{
    return t->kind == PM_AVRO_INT || t->kind == PM_AVRO_LONG || t->kind == PM_AVRO_ENUM;
}

static bool is_bytes(const pm_avro_schema *t)
{
    return t->kind == PM_AVRO_BYTES || t->kind == PM_AVRO_STRING;
}

static bool compile_type(pm_avro_skipper *s, const pm_avro_schema *t, int depth)
{
    skip_op op;
    int nb;
    const pm_avro_schema *inner;
    memset(&op, 0, sizeof(op));
    op.kind = SK_GENERIC;
    op.type = t;
    switch (t->kind) {
    case PM_AVRO_NULL: return true;
    case PM_AVRO_BOOLEAN: op.kind = SK_FIXED, op.size = 1; break;
    case PM_AVRO_FLOAT: op.kind = SK_FIXED, op.size = 4; break;
    case PM_AVRO_DOUBLE: op.kind = SK_FIXED, op.size = 8; break;
    case PM_AVRO_FIXED: op.kind = SK_FIXED, op.size = t->size; break;
    case PM_AVRO_INT:
    case PM_AVRO_LONG:
    case PM_AVRO_ENUM: op.kind = SK_VARINT; break;
    case PM_AVRO_BYTES:
    case PM_AVRO_STRING: op.kind = SK_BYTES; break;
    case PM_AVRO_RECORD:
        if (depth >= MAX_FLATTEN_DEPTH)
            break;
        for (size_t i = 0; i < t->field_count; i++)
            if (!compile_type(s, t->fields[i].type, depth + 1))
                return false;
        return true;
    case PM_AVRO_UNION:
        inner = pm_avro_nullable_inner(t, &nb);
        if (inner != NULL && is_varint(inner)) {
            op.kind = SK_NULLABLE_VARINT, op.null_branch = (int8_t)nb;
        } else if (inner != NULL && is_bytes(inner)) {
            op.kind = SK_NULLABLE_BYTES, op.null_branch = (int8_t)nb;
        } else if (inner != NULL && depth < MAX_FLATTEN_DEPTH) {
            size_t at = s->count;
            op.kind = SK_NULLABLE, op.null_branch = (int8_t)nb;
            if (!push(s, op) || !compile_type(s, inner, depth + 1))
                return false;
            s->ops[at].size = s->count - at - 1;
            return true;
        }
        break;
    case PM_AVRO_ARRAY:
        if (is_varint(t->items)) {
            op.kind = SK_ARRAY_VARINT;
        } else if (is_bytes(t->items)) {
            op.kind = SK_ARRAY_BYTES;
        } else if (t->items->kind == PM_AVRO_UNION) {
            inner = pm_avro_nullable_inner(t->items, &nb);
            if (inner != NULL && is_varint(inner))
                op.kind = SK_ARRAY_NULLABLE_VARINT, op.null_branch = (int8_t)nb;
        }
        break;
    default: break;
    }
    return push(s, op);
}

pm_avro_skipper *pm_avro_skipper_compile(const pm_avro_schema *const *types, size_t count,
                                         pm_arena *arena)
{
    pm_avro_skipper *s = pm_arena_calloc(arena, 1, sizeof(*s));
    if (s == NULL)
        return NULL;
    s->arena = arena;
    for (size_t i = 0; i < count; i++)
        if (!compile_type(s, types[i], 0))
            return NULL;
    return s;
}

/* ---- running ----------------------------------------------------------------------------- */

static inline bool skip_varint(pm_avro_cursor *c)
{
    const uint8_t *p = c->p, *end = c->end;
    for (int i = 0; i < 10 && p < end; i++)
        if ((*p++ & 0x80) == 0) {
            c->p = p;
            return true;
        }
    return false;
}

static inline bool skip_bytes(pm_avro_cursor *c)
{
    const uint8_t *data;
    size_t len;
    return pm_avro_read_bytes(c, &data, &len);
}

/* The branch of a two-branch union: 0 or 1 (a one-byte varint, zigzag 0 or 2). */
static inline bool read_branch(pm_avro_cursor *c, int *branch)
{
    if (c->p >= c->end || (*c->p != 0 && *c->p != 2))
        return false;
    *branch = *c->p++ >> 1;
    return true;
}

/* An array's blocks, each item skipped by `item`. */
static bool skip_array(pm_avro_cursor *c, const skip_op *op)
{
    for (;;) {
        int64_t n;
        if (!pm_avro_read_long(c, &n))
            return false;
        if (n == 0)
            return true;
        if (n < 0) {
            int64_t bytes;
            if (n == INT64_MIN || !pm_avro_read_long(c, &bytes) || bytes < 0 ||
                !pm_avro_skip(c, (size_t)bytes))
                return false;
            continue;
        }
        if ((uint64_t)n > (uint64_t)(c->end - c->p)) /* every item takes a byte */
            return false;
        for (int64_t i = 0; i < n; i++) {
            int branch;
            bool ok;
            switch (op->kind) {
            case SK_ARRAY_VARINT: ok = skip_varint(c); break;
            case SK_ARRAY_BYTES: ok = skip_bytes(c); break;
            default:
                ok = read_branch(c, &branch) && (branch == op->null_branch || skip_varint(c));
                break;
            }
            if (!ok)
                return false;
        }
    }
}

bool pm_avro_skipper_run(const pm_avro_skipper *s, pm_avro_cursor *c)
{
    for (size_t i = 0; i < s->count; i++) {
        const skip_op *op = &s->ops[i];
        int branch;
        bool ok;
        switch (op->kind) {
        case SK_VARINT: ok = skip_varint(c); break;
        case SK_BYTES: ok = skip_bytes(c); break;
        case SK_FIXED: ok = pm_avro_skip(c, op->size); break;
        case SK_NULLABLE_VARINT:
            ok = read_branch(c, &branch) && (branch == op->null_branch || skip_varint(c));
            break;
        case SK_NULLABLE_BYTES:
            ok = read_branch(c, &branch) && (branch == op->null_branch || skip_bytes(c));
            break;
        case SK_ARRAY_VARINT:
        case SK_ARRAY_BYTES:
        case SK_ARRAY_NULLABLE_VARINT: ok = skip_array(c, op); break;
        case SK_NULLABLE:
            ok = read_branch(c, &branch);
            if (ok && branch == op->null_branch)
                i += op->size; /* the value's ops do not run */
            break;
        default: ok = pm_avro_skip_value(op->type, c, 0); break;
        }
        if (!ok)
            return false;
    }
    return true;
}
