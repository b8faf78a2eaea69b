/* BinaryRow and BinaryArray encoding and decoding: see binary_row.h and metadata.md §10. */
#include "data/binary_row.h"

#include <string.h>

#include "util/bytes.h"
#include "util/error.h"
#include "util/hash.h"

static size_t round8(size_t n)
{
    return (n + 7) & ~(size_t)7;
}

/* Minimal big-endian two's-complement bytes of v, as BigInteger.toByteArray(). */
static size_t int128_to_bytes(pm_int128 v, uint8_t out[16])
{
    uint8_t full[16];
    size_t start = 0;
    for (int i = 15; i >= 0; i--) {
        full[i] = (uint8_t)(v & 0xff);
        v >>= 8; /* arithmetic shift keeps the sign */
    }
    /* Drop leading bytes that only repeat the sign of the next byte. */
    while (start < 15 && ((full[start] == 0x00 && (full[start + 1] & 0x80) == 0) ||
                          (full[start] == 0xff && (full[start + 1] & 0x80) != 0)))
        start++;
    memcpy(out, full + start, 16 - start);
    return 16 - start;
}

static pm_int128 int128_from_bytes(const uint8_t *b, size_t len)
{
    pm_int128 v = (len > 0 && (b[0] & 0x80)) ? -1 : 0;
    for (size_t i = 0; i < len; i++)
        v = (pm_int128)(((unsigned __int128)v << 8) | b[i]);
    return v;
}

/* ---- writing --------------------------------------------------------------------------- */

/* Writes one value into the 8-byte slot at `slot_off` of the bytes being built in `out`
 * (row or array), appending var-length data at the end of `out` (offsets relative to
 * `base`, the start of the row or array).  `elem_size` is 8 for rows and the element width
 * for arrays. */
static int write_value(pm_buf *out, size_t base, size_t slot_off, size_t elem_size,
                       const pm_type *t, const pm_datum *d)
{
    uint8_t *slot;
    size_t cursor;
    int rc;

    if (d->is_null) {
        /* Non-compact DECIMAL and TIMESTAMP still reserve their var part. */
        if (elem_size == 8 && !pm_type_is_compact(t)) {
            size_t reserve = t->id == PM_TYPE_DECIMAL ? 16 : 8;
            cursor = out->len - base;
            if ((rc = pm_buf_zero(out, reserve)) != 0)
                return rc;
            pm_store_le64(out->data + slot_off, (uint64_t)cursor << 32);
        }
        return 0;
    }
    switch (t->id) {
    case PM_TYPE_BOOLEAN: out->data[slot_off] = d->v.b ? 1 : 0; return 0;
    case PM_TYPE_TINYINT: out->data[slot_off] = (uint8_t)d->v.i; return 0;
    case PM_TYPE_SMALLINT: pm_store_le16(out->data + slot_off, (uint16_t)d->v.i); return 0;
    case PM_TYPE_INT:
    case PM_TYPE_DATE:
    case PM_TYPE_TIME:
        /* Zero-extended: the upper 4 bytes of a row slot stay 0. */
        pm_store_le32(out->data + slot_off, (uint32_t)d->v.i);
        return 0;
    case PM_TYPE_BIGINT: pm_store_le64(out->data + slot_off, (uint64_t)d->v.i); return 0;
    case PM_TYPE_FLOAT: {
        uint32_t bits;
        memcpy(&bits, &d->v.f, 4);
        pm_store_le32(out->data + slot_off, bits);
        return 0;
    }
    case PM_TYPE_DOUBLE: {
        uint64_t bits;
        memcpy(&bits, &d->v.d, 8);
        pm_store_le64(out->data + slot_off, bits);
        return 0;
    }
    case PM_TYPE_DECIMAL:
        if (pm_type_is_compact(t)) {
            pm_store_le64(out->data + slot_off, (uint64_t)(int64_t)d->v.dec);
            return 0;
        } else {
            uint8_t bytes[16];
            size_t n = int128_to_bytes(d->v.dec, bytes);
            cursor = out->len - base;
            if ((rc = pm_buf_zero(out, 16)) != 0)
                return rc;
            memcpy(out->data + base + cursor, bytes, n);
            pm_store_le64(out->data + slot_off, ((uint64_t)cursor << 32) | n);
            return 0;
        }
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ:
        if (pm_type_is_compact(t)) {
            pm_store_le64(out->data + slot_off, (uint64_t)d->v.ts.millis);
            return 0;
        }
        cursor = out->len - base;
        if ((rc = pm_buf_zero(out, 8)) != 0)
            return rc;
        pm_store_le64(out->data + base + cursor, (uint64_t)d->v.ts.millis);
        pm_store_le64(out->data + slot_off, ((uint64_t)cursor << 32) | (uint32_t)d->v.ts.nanos);
        return 0;
    case PM_TYPE_CHAR:
    case PM_TYPE_VARCHAR:
    case PM_TYPE_BINARY:
    case PM_TYPE_VARBINARY:
        if (d->v.s.len <= 7) {
            slot = out->data + slot_off;
            memset(slot, 0, 8);
            if (d->v.s.len > 0)
                memcpy(slot, d->v.s.ptr, d->v.s.len);
            slot[7] = (uint8_t)(0x80 | d->v.s.len);
            return 0;
        }
        /* Longer values go to the var part like nested data. */
        __attribute__((fallthrough));
    default:
        if (d->v.s.len > 0x7fffffff)
            return PAIMON_ELIMIT;
        cursor = out->len - base;
        if ((rc = pm_buf_zero(out, round8(d->v.s.len))) != 0)
            return rc;
        memcpy(out->data + base + cursor, d->v.s.ptr, d->v.s.len);
        pm_store_le64(out->data + slot_off, ((uint64_t)cursor << 32) | d->v.s.len);
        return 0;
    }
}

int pm_binrow_write(pm_buf *out, const pm_type *const *types, const pm_datum *values, int32_t arity,
                    uint8_t row_kind)
{
    size_t base = out->len, header = pm_binrow_header_size(arity);
    int rc = pm_buf_zero(out, pm_binrow_fixed_size(arity));
    if (rc != 0)
        return rc;
    out->data[base] = row_kind;
    for (int32_t i = 0; i < arity; i++) {
        if (values[i].is_null) {
            int32_t bit = i + 8;
            out->data[base + (size_t)bit / 8] |= (uint8_t)(1u << (bit % 8));
        }
        rc = write_value(out, base, base + header + 8 * (size_t)i, 8, types[i], &values[i]);
        if (rc != 0)
            return rc;
    }
    return 0;
}

int pm_binrow_serialize(pm_buf *out, const pm_type *const *types, const pm_datum *values,
                        int32_t arity)
{
    uint8_t prefix[4];
    int rc;
    pm_store_be32(prefix, (uint32_t)arity);
    if ((rc = pm_buf_append(out, prefix, 4)) != 0)
        return rc;
    return pm_binrow_write(out, types, values, arity, 0);
}

static size_t array_elem_size(const pm_type *t)
{
    switch (t->id) {
    case PM_TYPE_BOOLEAN:
    case PM_TYPE_TINYINT: return 1;
    case PM_TYPE_SMALLINT: return 2;
    case PM_TYPE_INT:
    case PM_TYPE_FLOAT:
    case PM_TYPE_DATE:
    case PM_TYPE_TIME: return 4;
    default: return 8;
    }
}

static size_t array_header_size(int32_t count)
{
    return 4 + (size_t)((count + 31) / 32) * 4;
}

int pm_binarray_write(pm_buf *out, const pm_type *elem, const pm_datum *values, int32_t count)
{
    size_t base = out->len, es = array_elem_size(elem), header = array_header_size(count);
    size_t fixed = round8(header + es * (size_t)count);
    int rc = pm_buf_zero(out, fixed);
    if (rc != 0)
        return rc;
    pm_store_le32(out->data + base, (uint32_t)count);
    for (int32_t i = 0; i < count; i++) {
        size_t slot = base + header + es * (size_t)i;
        if (values[i].is_null) {
            out->data[base + 4 + (size_t)i / 8] |= (uint8_t)(1u << (i % 8));
            continue;
        }
        if (es == 4 && elem->id == PM_TYPE_FLOAT) {
            uint32_t bits;
            memcpy(&bits, &values[i].v.f, 4);
            pm_store_le32(out->data + slot, bits);
        } else if (es < 8) {
            switch (es) {
            case 1:
                out->data[slot] =
                    elem->id == PM_TYPE_BOOLEAN ? (uint8_t)values[i].v.b : (uint8_t)values[i].v.i;
                break;
            case 2: pm_store_le16(out->data + slot, (uint16_t)values[i].v.i); break;
            default: pm_store_le32(out->data + slot, (uint32_t)values[i].v.i); break;
            }
        } else if ((rc = write_value(out, base, slot, 8, elem, &values[i])) != 0) {
            return rc;
        }
    }
    return 0;
}

/* ---- reading --------------------------------------------------------------------------- */

int pm_binrow_view(pm_binrow *row, const uint8_t *data, size_t len, int32_t arity,
                   paimon_error *err)
{
    if (arity < 0 || arity > 1 << 20)
        return pm_corrupt(err, "BinaryRow: invalid arity %d", arity);
    if (len < pm_binrow_fixed_size(arity))
        return pm_corrupt(err, "BinaryRow: %zu bytes cannot hold %d fields (need %zu)", len, arity,
                          pm_binrow_fixed_size(arity));
    row->data = data;
    row->len = len;
    row->arity = arity;
    return 0;
}

int pm_binrow_deserialize(pm_binrow *row, const uint8_t *data, size_t len, paimon_error *err)
{
    if (len < 4)
        return pm_corrupt(err, "serialized BinaryRow of %zu bytes has no arity", len);
    return pm_binrow_view(row, data + 4, len - 4, (int32_t)pm_load_be32(data), err);
}

int pm_binrow_decode_key(const uint8_t *data, size_t len, const pm_type *const *types, size_t count,
                         pm_datum *out, paimon_error *err)
{
    pm_binrow row;
    int rc = pm_binrow_deserialize(&row, data, len, err);
    if (rc == 0 && row.arity != (int32_t)count)
        rc = pm_corrupt(err, "%d fields, the key has %zu", row.arity, count);
    for (size_t k = 0; rc == 0 && k < count; k++)
        rc = pm_binrow_get(&row, (int32_t)k, types[k], &out[k], err);
    return rc;
}

/* Resolves an (offset << 32 | len) reference inside [base, base + total). */
PM_MUST_CHECK static int var_ref(uint64_t slot, const uint8_t *base, size_t total,
                                 const uint8_t **ptr, size_t *len, size_t need_len,
                                 paimon_error *err)
{
    uint32_t off = (uint32_t)(slot >> 32), n = (uint32_t)slot;
    size_t span = need_len > n ? need_len : n;
    if ((uint64_t)off + span > total)
        return pm_corrupt(err, "BinaryRow: var-length reference %u+%zu outside %zu bytes", off,
                          span, total);
    *ptr = base + off;
    *len = n;
    return 0;
}

/* Reads a value whose 8-byte slot is at `slot_ptr` (rows; arrays with 8-byte elements). */
PM_MUST_CHECK static int read_slot(const uint8_t *slot_ptr, const uint8_t *base, size_t total,
                                   const pm_type *t, pm_datum *out, paimon_error *err)
{
    uint64_t slot = pm_load_le64(slot_ptr);
    const uint8_t *p = NULL;
    size_t n = 0;
    int rc;

    out->is_null = false;
    switch (t->id) {
    case PM_TYPE_BOOLEAN: out->v.b = slot_ptr[0] != 0; return 0;
    case PM_TYPE_TINYINT: out->v.i = (int8_t)slot_ptr[0]; return 0;
    case PM_TYPE_SMALLINT: out->v.i = (int16_t)pm_load_le16(slot_ptr); return 0;
    case PM_TYPE_INT:
    case PM_TYPE_DATE:
    case PM_TYPE_TIME: out->v.i = (int32_t)pm_load_le32(slot_ptr); return 0;
    case PM_TYPE_BIGINT: out->v.i = (int64_t)slot; return 0;
    case PM_TYPE_FLOAT: {
        uint32_t bits = pm_load_le32(slot_ptr);
        memcpy(&out->v.f, &bits, 4);
        return 0;
    }
    case PM_TYPE_DOUBLE: memcpy(&out->v.d, &slot, 8); return 0;
    case PM_TYPE_DECIMAL:
        if (pm_type_is_compact(t)) {
            out->v.dec = (int64_t)slot;
            return 0;
        }
        if ((rc = var_ref(slot, base, total, &p, &n, 0, err)) != 0)
            return rc;
        if (n > 16)
            return pm_corrupt(err, "BinaryRow: decimal of %zu bytes", n);
        out->v.dec = int128_from_bytes(p, n);
        return 0;
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ:
        if (pm_type_is_compact(t)) {
            out->v.ts.millis = (int64_t)slot;
            out->v.ts.nanos = 0;
            return 0;
        }
        if ((uint64_t)(slot >> 32) + 8 > total)
            return pm_corrupt(err, "BinaryRow: timestamp reference outside the row");
        out->v.ts.millis = (int64_t)pm_load_le64(base + (slot >> 32));
        out->v.ts.nanos = (int32_t)(uint32_t)slot;
        if (out->v.ts.nanos < 0 || out->v.ts.nanos > 999999)
            return pm_corrupt(err, "BinaryRow: nanos of millisecond %d out of range",
                              out->v.ts.nanos);
        return 0;
    case PM_TYPE_CHAR:
    case PM_TYPE_VARCHAR:
    case PM_TYPE_BINARY:
    case PM_TYPE_VARBINARY:
        if (slot >> 63) {
            n = (size_t)((slot >> 56) & 0x7f);
            if (n > 7)
                return pm_corrupt(err, "BinaryRow: inline length %zu > 7", n);
            out->v.s.ptr = slot_ptr;
            out->v.s.len = n;
            return 0;
        }
        __attribute__((fallthrough));
    default:
        if ((rc = var_ref(slot, base, total, &p, &n, 0, err)) != 0)
            return rc;
        out->v.s.ptr = p;
        out->v.s.len = n;
        return 0;
    }
}

int pm_binrow_get(const pm_binrow *row, int32_t idx, const pm_type *type, pm_datum *out,
                  paimon_error *err)
{
    if (idx < 0 || idx >= row->arity)
        return pm_err_set(err, PAIMON_EINVALID, "BinaryRow: field %d of %d", idx, row->arity);
    if (pm_binrow_is_null(row, idx)) {
        *out = pm_datum_null();
        return 0;
    }
    return read_slot(row->data + pm_binrow_header_size(row->arity) + 8 * (size_t)idx, row->data,
                     row->len, type, out, err);
}

int pm_binarray_view(pm_binarray *arr, const uint8_t *data, size_t len, paimon_error *err)
{
    int32_t count;
    if (len < 4)
        return pm_corrupt(err, "BinaryArray: %zu bytes", len);
    count = (int32_t)pm_load_le32(data);
    if (count < 0 || array_header_size(count) > len)
        return pm_corrupt(err, "BinaryArray: invalid element count %d", count);
    arr->data = data;
    arr->len = len;
    arr->count = count;
    return 0;
}

bool pm_binarray_is_null(const pm_binarray *arr, int32_t idx)
{
    return (arr->data[4 + idx / 8] >> (idx % 8)) & 1;
}

int pm_binarray_get(const pm_binarray *arr, int32_t idx, const pm_type *elem, pm_datum *out,
                    paimon_error *err)
{
    size_t es = array_elem_size(elem), off;
    if (idx < 0 || idx >= arr->count)
        return pm_err_set(err, PAIMON_EINVALID, "BinaryArray: element %d of %d", idx, arr->count);
    off = array_header_size(arr->count) + es * (size_t)idx;
    if (off + es > arr->len)
        return pm_corrupt(err, "BinaryArray: element %d outside %zu bytes", idx, arr->len);
    if (pm_binarray_is_null(arr, idx)) {
        *out = pm_datum_null();
        return 0;
    }
    if (es == 8)
        return read_slot(arr->data + off, arr->data, arr->len, elem, out, err);
    {
        /* Narrow elements: widen into a zeroed 8-byte slot and decode as a row slot. */
        uint8_t slot[8] = {0};
        memcpy(slot, arr->data + off, es);
        return read_slot(slot, arr->data, arr->len, elem, out, err);
    }
}

int pm_binmap_view(pm_binarray *keys, pm_binarray *values, const uint8_t *data, size_t len,
                   paimon_error *err)
{
    uint32_t key_len;
    int rc;
    if (len < 4)
        return pm_corrupt(err, "BinaryMap: %zu bytes", len);
    key_len = pm_load_le32(data);
    if ((uint64_t)key_len + 4 > len)
        return pm_corrupt(err, "BinaryMap: key array of %u bytes outside %zu", key_len, len);
    if ((rc = pm_binarray_view(keys, data + 4, key_len, err)) != 0 ||
        (rc = pm_binarray_view(values, data + 4 + key_len, len - 4 - key_len, err)) != 0)
        return rc;
    if (keys->count != values->count)
        return pm_corrupt(err, "BinaryMap: %d keys but %d values", keys->count, values->count);
    return 0;
}

int32_t pm_binrow_hash(const uint8_t *row, size_t len)
{
    return pm_murmur3_words(row, len, PM_BINARY_ROW_HASH_SEED);
}
