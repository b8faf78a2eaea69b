/* Protocol Buffers wire format: see orc_proto.h. */
#include "format/orc/orc_proto.h"

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

int pm_pb_put_packed(pm_buf *b, uint32_t field, const uint64_t *values, size_t count)
{
    uint8_t tmp[PM_UVARINT_MAX];
    size_t len = 0;
    int rc;
    if (count == 0)
        return 0;
    for (size_t i = 0; i < count; i++)
        len += pm_uvarint_encode(tmp, values[i]);
    if ((rc = pm_pb_put_key(b, field, PM_PB_LEN)) != 0 || (rc = put_varint(b, len)) != 0)
        return rc;
    for (size_t i = 0; i < count && rc == 0; i++)
        rc = put_varint(b, values[i]);
    return rc;
}

int pm_pb_put_packed32(pm_buf *b, uint32_t field, const uint32_t *values, size_t count)
{
    uint8_t tmp[PM_UVARINT_MAX];
    size_t len = 0;
    int rc;
    if (count == 0)
        return 0;
    for (size_t i = 0; i < count; i++)
        len += pm_uvarint_encode(tmp, values[i]);
    if ((rc = pm_pb_put_key(b, field, PM_PB_LEN)) != 0 || (rc = put_varint(b, len)) != 0)
        return rc;
    for (size_t i = 0; i < count && rc == 0; i++)
        rc = put_varint(b, values[i]);
    return rc;
}
