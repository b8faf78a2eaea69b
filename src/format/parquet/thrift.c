/* Thrift compact protocol reader and writer: see thrift.h. */
#include "format/parquet/thrift.h"

#include <string.h>

#include "util/bytes.h"
#include "util/varint.h"

void pm_thrift_reader_init(pm_thrift_reader *r, const uint8_t *data, size_t len, uint64_t base_off,
                           const char *path, paimon_error *err)
{
    r->start = data;
    r->p = data;
    r->end = data + len;
    r->base_off = base_off;
    r->path = path != NULL ? path : "(parquet)";
    r->err = err;
    r->depth = 0;
}

int pm_thrift_corrupt(pm_thrift_reader *r, const char *what)
{
    return pm_corrupt(r->err, "%s: thrift: %s at offset %llu", r->path, what,
                      (unsigned long long)pm_thrift_offset(r));
}

static int uvarint(pm_thrift_reader *r, uint64_t *v)
{
    size_t n = pm_uvarint_decode(r->p, r->end, v);
    if (n == 0)
        return pm_thrift_corrupt(r, r->p >= r->end ? "truncated varint" : "varint too long");
    r->p += n;
    return 0;
}

int pm_thrift_struct_begin(pm_thrift_reader *r)
{
    if (r->depth >= PM_THRIFT_MAX_DEPTH)
        return pm_thrift_corrupt(r, "structs nested too deeply");
    r->depth++;
    return 0;
}

void pm_thrift_struct_end(pm_thrift_reader *r)
{
    r->depth--;
}

int pm_thrift_field(pm_thrift_reader *r, int16_t *last_id, int *type, int16_t *id)
{
    uint8_t b;
    if (r->p >= r->end)
        return pm_thrift_corrupt(r, "truncated struct");
    b = *r->p++;
    *type = b & 0x0f;
    if (*type == PM_TT_STOP) {
        *id = 0;
        return 0;
    }
    if (*type > PM_TT_STRUCT)
        return pm_thrift_corrupt(r, "unknown field type");
    if ((b >> 4) != 0) {
        *id = (int16_t)(*last_id + (b >> 4));
    } else {
        int16_t v;
        int rc = pm_thrift_i16(r, &v);
        if (rc != 0)
            return rc;
        *id = v;
    }
    *last_id = *id;
    return 0;
}

int pm_thrift_i8(pm_thrift_reader *r, int8_t *v)
{
    if (r->p >= r->end)
        return pm_thrift_corrupt(r, "truncated byte");
    *v = (int8_t)*r->p++;
    return 0;
}

int pm_thrift_i16(pm_thrift_reader *r, int16_t *v)
{
    uint64_t u;
    int rc = uvarint(r, &u);
    if (rc != 0)
        return rc;
    *v = (int16_t)pm_zigzag_decode(u);
    return 0;
}

int pm_thrift_i32(pm_thrift_reader *r, int32_t *v)
{
    uint64_t u;
    int rc = uvarint(r, &u);
    if (rc != 0)
        return rc;
    *v = (int32_t)pm_zigzag_decode(u);
    return 0;
}

int pm_thrift_i64(pm_thrift_reader *r, int64_t *v)
{
    uint64_t u;
    int rc = uvarint(r, &u);
    if (rc != 0)
        return rc;
    *v = pm_zigzag_decode(u);
    return 0;
}

int pm_thrift_double(pm_thrift_reader *r, double *v)
{
    uint64_t bits;
    if (r->end - r->p < 8)
        return pm_thrift_corrupt(r, "truncated double");
    bits = pm_load_le64(r->p);
    memcpy(v, &bits, 8);
    r->p += 8;
    return 0;
}

int pm_thrift_binary(pm_thrift_reader *r, const uint8_t **data, uint32_t *len)
{
    uint64_t n;
    int rc = uvarint(r, &n);
    if (rc != 0)
        return rc;
    if (n > (uint64_t)(r->end - r->p))
        return pm_thrift_corrupt(r, "binary length beyond the end");
    *data = r->p;
    *len = (uint32_t)n;
    r->p += n;
    return 0;
}

int pm_thrift_bool_elem(pm_thrift_reader *r, bool *v)
{
    if (r->p >= r->end)
        return pm_thrift_corrupt(r, "truncated bool");
    *v = *r->p++ == PM_TT_TRUE;
    return 0;
}

int pm_thrift_list(pm_thrift_reader *r, int *elem_type, uint32_t *count)
{
    uint8_t b;
    uint64_t n;
    if (r->p >= r->end)
        return pm_thrift_corrupt(r, "truncated list header");
    b = *r->p++;
    *elem_type = b & 0x0f;
    n = b >> 4;
    if (n == 15) {
        int rc = uvarint(r, &n);
        if (rc != 0)
            return rc;
    }
    if (*elem_type == PM_TT_STOP || *elem_type > PM_TT_STRUCT)
        return pm_thrift_corrupt(r, "unknown list element type");
    /* Every element takes at least one byte: a larger count cannot be honest, and this
     * bound is what keeps list allocations proportional to the input. */
    if (n > (uint64_t)(r->end - r->p))
        return pm_thrift_corrupt(r, "list longer than its bytes");
    *count = (uint32_t)n;
    return 0;
}

int pm_thrift_skip(pm_thrift_reader *r, int type)
{
    int rc = 0;
    switch (type) {
    case PM_TT_TRUE:
    case PM_TT_FALSE: return 0; /* field bools carry no payload */
    case PM_TT_I8: {
        int8_t v;
        return pm_thrift_i8(r, &v);
    }
    case PM_TT_I16:
    case PM_TT_I32:
    case PM_TT_I64: {
        uint64_t v;
        return uvarint(r, &v);
    }
    case PM_TT_DOUBLE: {
        double v;
        return pm_thrift_double(r, &v);
    }
    case PM_TT_BINARY: {
        const uint8_t *d;
        uint32_t n;
        return pm_thrift_binary(r, &d, &n);
    }
    case PM_TT_LIST:
    case PM_TT_SET: {
        int et;
        uint32_t n;
        if ((rc = pm_thrift_list(r, &et, &n)) != 0)
            return rc;
        if ((rc = pm_thrift_struct_begin(r)) != 0)
            return rc;
        for (uint32_t i = 0; rc == 0 && i < n; i++) {
            if (et == PM_TT_TRUE || et == PM_TT_FALSE) {
                bool b;
                rc = pm_thrift_bool_elem(r, &b);
            } else {
                rc = pm_thrift_skip(r, et);
            }
        }
        pm_thrift_struct_end(r);
        return rc;
    }
    case PM_TT_MAP: {
        uint64_t n;
        uint8_t kv;
        if ((rc = uvarint(r, &n)) != 0)
            return rc;
        if (n == 0)
            return 0;
        if (n > (uint64_t)(r->end - r->p))
            return pm_thrift_corrupt(r, "map longer than its bytes");
        if (r->p >= r->end)
            return pm_thrift_corrupt(r, "truncated map header");
        kv = *r->p++;
        if ((rc = pm_thrift_struct_begin(r)) != 0)
            return rc;
        for (uint64_t i = 0; rc == 0 && i < n; i++) {
            int kt = kv >> 4, vt = kv & 0x0f;
            bool b;
            if (kt == 0 || kt > PM_TT_STRUCT || vt == 0 || vt > PM_TT_STRUCT) {
                rc = pm_thrift_corrupt(r, "unknown map element type");
                break;
            }
            rc = (kt == PM_TT_TRUE || kt == PM_TT_FALSE) ? pm_thrift_bool_elem(r, &b)
                                                         : pm_thrift_skip(r, kt);
            if (rc == 0)
                rc = (vt == PM_TT_TRUE || vt == PM_TT_FALSE) ? pm_thrift_bool_elem(r, &b)
                                                             : pm_thrift_skip(r, vt);
        }
        pm_thrift_struct_end(r);
        return rc;
    }
    case PM_TT_STRUCT: {
        int16_t last = 0, id;
        int t;
        if ((rc = pm_thrift_struct_begin(r)) != 0)
            return rc;
        for (;;) {
            if ((rc = pm_thrift_field(r, &last, &t, &id)) != 0 || t == PM_TT_STOP)
                break;
            if ((rc = pm_thrift_skip(r, t)) != 0)
                break;
        }
        pm_thrift_struct_end(r);
        return rc;
    }
    default: return pm_thrift_corrupt(r, "unknown type");
    }
}

int pm_thrift_read_i32(pm_thrift_reader *r, int type, int32_t *v, bool *ok)
{
    if (type != PM_TT_I32 && type != PM_TT_I16 && type != PM_TT_I8) {
        *ok = false;
        return pm_thrift_skip(r, type);
    }
    *ok = true;
    if (type == PM_TT_I8) {
        int8_t b = 0; /* read below also when the byte is missing */
        int rc = pm_thrift_i8(r, &b);
        *v = b;
        return rc;
    }
    return pm_thrift_i32(r, v);
}

int pm_thrift_read_i64(pm_thrift_reader *r, int type, int64_t *v, bool *ok)
{
    if (type != PM_TT_I64 && type != PM_TT_I32 && type != PM_TT_I16) {
        *ok = false;
        return pm_thrift_skip(r, type);
    }
    *ok = true;
    return pm_thrift_i64(r, v);
}

int pm_thrift_read_binary(pm_thrift_reader *r, int type, const uint8_t **data, uint32_t *len,
                          bool *ok)
{
    if (type != PM_TT_BINARY) {
        *ok = false;
        return pm_thrift_skip(r, type);
    }
    *ok = true;
    return pm_thrift_binary(r, data, len);
}

/* ---- writer ---------------------------------------------------------------------------- */

void pm_thrift_writer_init(pm_thrift_writer *w, pm_buf *out)
{
    w->out = out;
    w->rc = 0;
    w->depth = 0;
    w->ids[0] = 0;
}

static void put(pm_thrift_writer *w, const void *data, size_t len)
{
    if (w->rc == 0)
        w->rc = pm_buf_append(w->out, data, len);
}

static void put_uvarint(pm_thrift_writer *w, uint64_t v)
{
    uint8_t tmp[PM_UVARINT_MAX];
    put(w, tmp, pm_uvarint_encode(tmp, v));
}

void pm_thrift_w_struct_begin(pm_thrift_writer *w)
{
    if (w->depth + 1 >= PM_THRIFT_MAX_DEPTH) {
        w->rc = PAIMON_ELIMIT;
        return;
    }
    w->ids[++w->depth] = 0;
}

void pm_thrift_w_struct_end(pm_thrift_writer *w)
{
    uint8_t stop = 0;
    put(w, &stop, 1);
    if (w->depth > 0)
        w->depth--;
}

void pm_thrift_w_field(pm_thrift_writer *w, int type, int16_t id)
{
    int16_t *last = &w->ids[w->depth];
    int delta = id - *last;
    if (delta > 0 && delta <= 15) {
        uint8_t b = (uint8_t)(delta << 4 | type);
        put(w, &b, 1);
    } else {
        uint8_t b = (uint8_t)type;
        put(w, &b, 1);
        put_uvarint(w, pm_zigzag_encode(id));
    }
    *last = id;
}

void pm_thrift_w_bool(pm_thrift_writer *w, int16_t id, bool v)
{
    pm_thrift_w_field(w, v ? PM_TT_TRUE : PM_TT_FALSE, id);
}

void pm_thrift_w_i32(pm_thrift_writer *w, int32_t v)
{
    put_uvarint(w, pm_zigzag_encode(v));
}

void pm_thrift_w_i64(pm_thrift_writer *w, int64_t v)
{
    put_uvarint(w, pm_zigzag_encode(v));
}

void pm_thrift_w_binary(pm_thrift_writer *w, const void *data, size_t len)
{
    put_uvarint(w, len);
    put(w, data, len);
}

void pm_thrift_w_list(pm_thrift_writer *w, int elem_type, uint32_t count)
{
    if (count < 15) {
        uint8_t b = (uint8_t)(count << 4 | (uint32_t)elem_type);
        put(w, &b, 1);
    } else {
        uint8_t b = (uint8_t)(0xf0 | elem_type);
        put(w, &b, 1);
        put_uvarint(w, count);
    }
}

void pm_thrift_w_bool_elem(pm_thrift_writer *w, bool v)
{
    uint8_t b = v ? PM_TT_TRUE : PM_TT_FALSE;
    put(w, &b, 1);
}

void pm_thrift_w_field_i32(pm_thrift_writer *w, int16_t id, int32_t v)
{
    pm_thrift_w_field(w, PM_TT_I32, id);
    pm_thrift_w_i32(w, v);
}

void pm_thrift_w_field_i64(pm_thrift_writer *w, int16_t id, int64_t v)
{
    pm_thrift_w_field(w, PM_TT_I64, id);
    pm_thrift_w_i64(w, v);
}

void pm_thrift_w_field_binary(pm_thrift_writer *w, int16_t id, const void *data, size_t len)
{
    pm_thrift_w_field(w, PM_TT_BINARY, id);
    pm_thrift_w_binary(w, data, len);
}
