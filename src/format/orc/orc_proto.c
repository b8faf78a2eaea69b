/*
 * Protocol Buffers wire format: see orc_proto.h.  pm_pb_decode() reads any message from
 * its descriptor table in two passes: the first counts the entries of its repeated fields
 * (so every array is allocated once, exactly, and bounded by the message's bytes), the
 * second stores each field where its descriptor says.
 */
#include "format/orc/orc_proto.h"

#include <assert.h>
#include <string.h>

bool pm_pb_skip(pm_pb *c, int wire)
{
    uint64_t v;
    const uint8_t *d;
    size_t n;
    switch (wire) {
    case PM_PB_VARINT: return pm_pb_varint(c, &v);
    case PM_PB_FIXED64: return pm_pb_fixed64(c, &v);
    case PM_PB_LEN: return pm_pb_bytes(c, &d, &n);
    case PM_PB_FIXED32:
        if (c->end - c->p < 4)
            return false;
        c->p += 4;
        return true;
    default: return false;
    }
}

bool pm_pb_double(pm_pb *c, double *v)
{
    uint64_t bits;
    if (!pm_pb_fixed64(c, &bits))
        return false;
    memcpy(v, &bits, sizeof(*v));
    return true;
}

/* ---- decoding from a table of fields ----------------------------------------------------- */

typedef struct dec {
    const char *path;
    const char *what; /* the top-level message, for errors ("footer") */
    pm_arena *arena;
    paimon_error *err;
} dec;

static int bad(const dec *x, const pm_pb *c, const pm_pb_msg *m, const pm_pb_field *fd)
{
    return pm_corrupt(x->err, "%s: malformed ORC %s at offset %llu (%s%s%s)", x->path, x->what,
                      (unsigned long long)pm_pb_offset(c), m->name, fd != NULL ? "." : "",
                      fd != NULL ? fd->name : "");
}

static bool is_repeated(pm_pb_kind k)
{
    return k >= PM_PBK_PACKED64;
}

/* The size of one entry of a repeated field's array. */
static size_t entry_size(const pm_pb_field *fd)
{
    switch (fd->kind) {
    case PM_PBK_PACKED64: return sizeof(uint64_t);
    case PM_PBK_PACKED32: return sizeof(uint32_t);
    case PM_PBK_STRINGS: return sizeof(char *);
    default: return fd->sub->size;
    }
}

static const pm_pb_field *find_field(const pm_pb_msg *m, uint32_t number, size_t *idx)
{
    for (size_t i = 0; i < m->field_count; i++)
        if (m->fields[i].number == number) {
            *idx = i;
            return &m->fields[i];
        }
    return NULL;
}

/* Counts the entries of each repeated field of the message at `c` (advanced to where it
 * stops): a packed run holds as many values as bytes with the high bit clear.  False when
 * the message is malformed. */
static bool count_repeated(pm_pb *c, const pm_pb_msg *m, size_t *counts)
{
    uint32_t f;
    int wire, r;
    while ((r = pm_pb_next(c, &f, &wire)) == 1) {
        size_t i = 0;
        const pm_pb_field *fd = find_field(m, f, &i);
        if (fd != NULL && (fd->kind == PM_PBK_PACKED64 || fd->kind == PM_PBK_PACKED32) &&
            wire == PM_PB_LEN) {
            const uint8_t *d;
            size_t n;
            if (!pm_pb_bytes(c, &d, &n))
                return false;
            for (size_t k = 0; k < n; k++)
                counts[i] += (d[k] & 0x80) == 0;
            continue;
        }
        if (fd != NULL && is_repeated(fd->kind))
            counts[i]++;
        if (!pm_pb_skip(c, wire))
            return false;
    }
    return r == 0;
}

static void *member(void *obj, size_t off)
{
    return (uint8_t *)obj + off;
}

static bool get_varint(pm_pb *c, int wire, uint64_t *v)
{
    return wire == PM_PB_VARINT && pm_pb_varint(c, v);
}

/* Appends one varint to a packed field's array (`cap` entries allocated). */
static bool packed_add(pm_pb *c, const pm_pb_field *fd, void *obj, size_t cap)
{
    uint64_t v;
    size_t n;
    void *arr;
    memcpy(&n, member(obj, (size_t)fd->count_off), sizeof(n));
    memcpy(&arr, member(obj, fd->off), sizeof(arr));
    if (n >= cap || !pm_pb_varint(c, &v))
        return false;
    if (fd->kind == PM_PBK_PACKED64) {
        ((uint64_t *)arr)[n] = v;
    } else {
        if (v > UINT32_MAX)
            return false;
        ((uint32_t *)arr)[n] = (uint32_t)v;
    }
    n++;
    memcpy(member(obj, (size_t)fd->count_off), &n, sizeof(n));
    return true;
}

/* The next free entry of a repeated field's array, counted in; NULL when full. */
static void *next_entry(const pm_pb_field *fd, void *obj, size_t cap)
{
    size_t n;
    uint8_t *arr;
    memcpy(&n, member(obj, (size_t)fd->count_off), sizeof(n));
    memcpy(&arr, member(obj, fd->off), sizeof(arr));
    if (n >= cap)
        return NULL;
    memcpy(member(obj, (size_t)fd->count_off), &(size_t){n + 1}, sizeof(n));
    return arr + n * entry_size(fd);
}

static int decode_msg(const dec *x, pm_pb *c, const pm_pb_msg *m, void *obj);

/* Reads one occurrence of field `fd` (wire type `wire`) of message `m` into `obj`; `cap`
 * is the entries allocated for a repeated field. */
static int read_field(const dec *x, pm_pb *c, int wire, const pm_pb_msg *m, const pm_pb_field *fd,
                      void *obj, size_t cap)
{
    void *p = member(obj, fd->off);
    uint64_t v = 0;
    pm_pb_view b = {NULL, 0};
    pm_pb sub;
    bool ok = false;

    switch (fd->kind) {
    case PM_PBK_UINT64:
        if ((ok = get_varint(c, wire, &v)))
            memcpy(p, &v, sizeof(v));
        break;
    case PM_PBK_UINT32:
        if ((ok = get_varint(c, wire, &v) && v <= (fd->max != 0 ? fd->max : UINT32_MAX)))
            memcpy(p, &(uint32_t){(uint32_t)v}, sizeof(uint32_t));
        break;
    case PM_PBK_BOOL:
        if ((ok = get_varint(c, wire, &v)))
            memcpy(p, &(bool){v != 0}, sizeof(bool));
        break;
    case PM_PBK_SINT64:
        if ((ok = get_varint(c, wire, &v)))
            memcpy(p, &(int64_t){pm_zigzag_decode(v)}, sizeof(int64_t));
        break;
    case PM_PBK_SINT32: {
        int64_t s = 0;
        if ((ok = get_varint(c, wire, &v) && (s = pm_zigzag_decode(v)) >= INT32_MIN &&
                  s <= INT32_MAX))
            memcpy(p, &s, sizeof(s));
        break;
    }
    case PM_PBK_INT32:
        if ((ok = get_varint(c, wire, &v)))
            memcpy(p, &(int32_t){(int32_t)v}, sizeof(int32_t));
        break;
    case PM_PBK_DOUBLE: {
        double d;
        if ((ok = wire == PM_PB_FIXED64 && pm_pb_double(c, &d)))
            memcpy(p, &d, sizeof(d));
        break;
    }
    case PM_PBK_BYTES:
        if ((ok = wire == PM_PB_LEN && pm_pb_bytes(c, &b.ptr, &b.len)))
            memcpy(p, &b, sizeof(b));
        break;
    case PM_PBK_STRING:
    case PM_PBK_STRINGS: {
        char *s;
        if (!(ok = wire == PM_PB_LEN && pm_pb_bytes(c, &b.ptr, &b.len)))
            break;
        if (fd->kind == PM_PBK_STRINGS && (p = next_entry(fd, obj, cap)) == NULL) {
            ok = false;
            break;
        }
        if ((s = pm_arena_strndup(x->arena, (const char *)b.ptr, b.len)) == NULL)
            return pm_nomem(x->err);
        memcpy(p, &s, sizeof(s));
        break;
    }
    case PM_PBK_PRESENT: ok = pm_pb_skip(c, wire); break;
    case PM_PBK_MESSAGE:
    case PM_PBK_MERGE:
    case PM_PBK_MESSAGES:
        if (!(ok = wire == PM_PB_LEN && pm_pb_sub(c, &sub)))
            break;
        if (fd->kind == PM_PBK_MESSAGE) {
            memset(p, 0, fd->sub->size);
        } else if (fd->kind == PM_PBK_MERGE) {
            memcpy(p, &fd->number, sizeof(uint32_t));
            p = obj;
        } else if ((p = next_entry(fd, obj, cap)) == NULL) {
            ok = false;
            break;
        }
        return decode_msg(x, &sub, fd->sub, p);
    case PM_PBK_HOOK: ok = fd->hook(c, wire, obj); break;
    case PM_PBK_PACKED64:
    case PM_PBK_PACKED32:
        if (wire == PM_PB_VARINT) {
            ok = packed_add(c, fd, obj, cap);
        } else if (wire == PM_PB_LEN && pm_pb_sub(c, &sub)) {
            ok = true;
            while (ok && sub.p < sub.end)
                ok = packed_add(&sub, fd, obj, cap);
            if (!ok)
                return bad(x, &sub, m, fd);
        }
        break;
    }
    return ok ? 0 : bad(x, c, m, fd);
}

/* Decodes the message at `c` into `obj` (zeroed, or the struct a MERGE field fills). */
static int decode_msg(const dec *x, pm_pb *c, const pm_pb_msg *m, void *obj)
{
    size_t counts[PM_PB_MAX_FIELDS] = {0};
    uint64_t start = pm_pb_offset(c);
    uint32_t seen = 0, f;
    bool has_repeated = false;
    int wire, r;

    assert(m->field_count <= PM_PB_MAX_FIELDS); /* the tables are the program's own */
    for (size_t i = 0; i < m->field_count; i++)
        has_repeated |= is_repeated(m->fields[i].kind);
    if (has_repeated) {
        pm_pb cc = *c;
        if (!count_repeated(&cc, m, counts))
            return bad(x, &cc, m, NULL);
        for (size_t i = 0; i < m->field_count; i++) {
            const pm_pb_field *fd = &m->fields[i];
            void *arr;
            if (!is_repeated(fd->kind))
                continue;
            /* counts[i] <= the message's bytes: the product cannot overflow in practice,
             * and pm_arena_calloc() checks it anyway */
            if ((arr = pm_arena_calloc(x->arena, counts[i] + 1, entry_size(fd))) == NULL)
                return pm_nomem(x->err);
            memcpy(member(obj, fd->off), &arr, sizeof(arr));
            memset(member(obj, (size_t)fd->count_off), 0, sizeof(size_t));
        }
    }
    while ((r = pm_pb_next(c, &f, &wire)) == 1) {
        size_t i = 0;
        const pm_pb_field *fd = find_field(m, f, &i);
        int rc;
        if (fd == NULL) {
            if (!pm_pb_skip(c, wire))
                return bad(x, c, m, NULL);
            continue;
        }
        if ((rc = read_field(x, c, wire, m, fd, obj, counts[i])) != 0)
            return rc;
        seen |= 1u << i;
        if (fd->has_off >= 0 && fd->has_bit == 0) {
            memcpy(member(obj, (size_t)fd->has_off), &(bool){true}, sizeof(bool));
        } else if (fd->has_off >= 0) {
            uint32_t mask;
            memcpy(&mask, member(obj, (size_t)fd->has_off), sizeof(mask));
            mask |= fd->has_bit;
            memcpy(member(obj, (size_t)fd->has_off), &mask, sizeof(mask));
        }
    }
    if (r != 0)
        return bad(x, c, m, NULL);
    for (size_t i = 0; i < m->field_count; i++)
        if (m->fields[i].required && (seen & (1u << i)) == 0)
            return pm_corrupt(x->err, "%s: malformed ORC %s at offset %llu (%s without %s)",
                              x->path, x->what, (unsigned long long)start, m->name,
                              m->fields[i].name);
    return m->check != NULL ? m->check(obj, x->path, start, x->err) : 0;
}

int pm_pb_decode(const pm_pb_msg *m, const uint8_t *data, size_t len, uint64_t off,
                 const char *path, const char *what, pm_arena *arena, void *out, paimon_error *err)
{
    dec x = {path, what, arena, err};
    pm_pb c = pm_pb_init(data, len, off);
    memset(out, 0, m->size);
    return decode_msg(&x, &c, m, out);
}

/* ---- writing ---------------------------------------------------------------------------- */

/* Value `i` of an array of uint64_t (width 8) or uint32_t (width 4). */
static uint64_t packed_at(const void *values, size_t width, size_t i)
{
    return width == 8 ? ((const uint64_t *)values)[i] : ((const uint32_t *)values)[i];
}

static int put_varint(pm_buf *b, uint64_t v)
{
    uint8_t tmp[PM_UVARINT_MAX];
    return pm_buf_append(b, tmp, pm_uvarint_encode(tmp, v));
}

int pm_pb_put_key(pm_buf *b, uint32_t field, int wire)
{
    return put_varint(b, ((uint64_t)field << 3) | (uint64_t)wire);
}

int pm_pb_put_uint(pm_buf *b, uint32_t field, uint64_t v)
{
    int rc = pm_pb_put_key(b, field, PM_PB_VARINT);
    return rc != 0 ? rc : put_varint(b, v);
}

int pm_pb_put_sint(pm_buf *b, uint32_t field, int64_t v)
{
    return pm_pb_put_uint(b, field, pm_zigzag_encode(v));
}

int pm_pb_put_bool(pm_buf *b, uint32_t field, bool v)
{
    return pm_pb_put_uint(b, field, v ? 1 : 0);
}

int pm_pb_put_double(pm_buf *b, uint32_t field, double v)
{
    uint64_t bits;
    uint8_t le[8];
    int rc = pm_pb_put_key(b, field, PM_PB_FIXED64);
    if (rc != 0)
        return rc;
    memcpy(&bits, &v, sizeof(bits));
    for (int i = 0; i < 8; i++)
        le[i] = (uint8_t)(bits >> (8 * i));
    return pm_buf_append(b, le, 8);
}

int pm_pb_put_bytes(pm_buf *b, uint32_t field, const void *data, size_t len)
{
    int rc = pm_pb_put_key(b, field, PM_PB_LEN);
    if (rc == 0)
        rc = put_varint(b, len);
    if (rc == 0 && len > 0)
        rc = pm_buf_append(b, data, len);
    return rc;
}

int pm_pb_put_string(pm_buf *b, uint32_t field, const char *s)
{
    return pm_pb_put_bytes(b, field, s, strlen(s));
}

/* A packed field of `count` values of `width` bytes (8 or 4). */
static int put_packed(pm_buf *b, uint32_t field, const void *values, size_t width, size_t count)
{
    uint8_t tmp[PM_UVARINT_MAX];
    size_t len = 0;
    int rc;
    if (count == 0)
        return 0;
    for (size_t i = 0; i < count; i++)
        len += pm_uvarint_encode(tmp, packed_at(values, width, i));
    if ((rc = pm_pb_put_key(b, field, PM_PB_LEN)) != 0 || (rc = put_varint(b, len)) != 0)
        return rc;
    for (size_t i = 0; i < count && rc == 0; i++)
        rc = put_varint(b, packed_at(values, width, i));
    return rc;
}

int pm_pb_put_packed(pm_buf *b, uint32_t field, const uint64_t *values, size_t count)
{
    return put_packed(b, field, values, sizeof(*values), count);
}

int pm_pb_put_packed32(pm_buf *b, uint32_t field, const uint32_t *values, size_t count)
{
    return put_packed(b, field, values, sizeof(*values), count);
}
