/* Data-file indexes: the FileIndexFormat container and bloom filters; see file_index.h. */
#include "format/file_index.h"

#include <math.h>
#include <string.h>

#include "util/alloc.h"
#include "util/bytes.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/utf8.h"

/* ---- bloom filter ---------------------------------------------------------------------- */

int pm_bloom_init(pm_bloom *b, int64_t items, double fpp)
{
    double x;
    int32_t nb;
    memset(b, 0, sizeof(*b));
    if (items <= 0 || !(fpp > 0.0 && fpp < 1.0))
        return PAIMON_EINVALID;
    x = -(double)items * log(fpp) / (log(2.0) * log(2.0));
    nb = x >= 2147483647.0 ? 2147483647 : (int32_t)x;
    if (nb > 2147483647 - 8)
        return PAIMON_EINVALID;
    b->num_bits = nb + (8 - nb % 8);
    b->num_hashes = (int32_t)floor((double)b->num_bits / (double)items * log(2.0) + 0.5);
    if (b->num_hashes < 1)
        b->num_hashes = 1;
    if ((b->bits = pm_calloc((size_t)b->num_bits / 8 + 1, 1)) == NULL)
        return PAIMON_ENOMEM;
    b->owned = true;
    return 0;
}

int pm_bloom_view(pm_bloom *b, const uint8_t *payload, size_t len, paimon_error *err)
{
    memset(b, 0, sizeof(*b));
    if (len < 5 || len - 4 > (size_t)INT32_MAX / 8)
        return pm_corrupt(err, "bloom filter: %zu bytes", len);
    b->num_hashes = (int32_t)pm_load_be32(payload);
    b->num_bits = (int32_t)((len - 4) * 8);
    b->bits = (uint8_t *)payload + 4;
    if (b->num_hashes < 1 || b->num_hashes > 1000)
        return pm_corrupt(err, "bloom filter: %d hash functions", b->num_hashes);
    return 0;
}

void pm_bloom_free(pm_bloom *b)
{
    if (b->owned)
        pm_free(b->bits);
    memset(b, 0, sizeof(*b));
}

/* The bit positions of BloomFilter64 (32-bit int arithmetic, as Java). */
static int32_t position(uint64_t hash, int32_t i, int32_t num_bits)
{
    uint32_t h1 = (uint32_t)hash, h2 = (uint32_t)(hash >> 32);
    int32_t c = (int32_t)(h1 + (uint32_t)i * h2);
    if (c < 0)
        c = ~c;
    return c % num_bits;
}

void pm_bloom_add(pm_bloom *b, uint64_t hash)
{
    for (int32_t i = 1; i <= b->num_hashes; i++) {
        int32_t pos = position(hash, i, b->num_bits);
        b->bits[pos >> 3] |= (uint8_t)(1u << (pos & 7));
    }
}

bool pm_bloom_test(const pm_bloom *b, uint64_t hash)
{
    for (int32_t i = 1; i <= b->num_hashes; i++) {
        int32_t pos = position(hash, i, b->num_bits);
        if (!((b->bits[pos >> 3] >> (pos & 7)) & 1))
            return false;
    }
    return true;
}

int pm_bloom_serialize(const pm_bloom *b, pm_buf *out)
{
    uint8_t k[4];
    int rc;
    pm_store_be32(k, (uint32_t)b->num_hashes);
    if ((rc = pm_buf_append(out, k, 4)) != 0)
        return rc;
    return pm_buf_append(out, b->bits, (size_t)b->num_bits / 8);
}

bool pm_bloom_supports(const pm_type *t)
{
    switch (t->id) {
    case PM_TYPE_CHAR:
    case PM_TYPE_VARCHAR:
    case PM_TYPE_BINARY:
    case PM_TYPE_VARBINARY:
    case PM_TYPE_TINYINT:
    case PM_TYPE_SMALLINT:
    case PM_TYPE_INT:
    case PM_TYPE_BIGINT:
    case PM_TYPE_FLOAT:
    case PM_TYPE_DOUBLE:
    case PM_TYPE_DATE:
    case PM_TYPE_TIME:
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ: return true;
    default: return false;
    }
}

/* Thomas Wang's 64-bit integer hash (FastHash.getLongHash), Java long arithmetic. */
static uint64_t long_hash(uint64_t key)
{
    key = (~key) + (key << 21);
    key = key ^ (uint64_t)((int64_t)key >> 24);
    key = (key + (key << 3)) + (key << 8);
    key = key ^ (uint64_t)((int64_t)key >> 14);
    key = (key + (key << 2)) + (key << 4);
    key = key ^ (uint64_t)((int64_t)key >> 28);
    key = key + (key << 31);
    return key;
}

uint64_t pm_bloom_hash(const pm_type *t, const pm_datum *d)
{
    switch (t->id) {
    case PM_TYPE_CHAR:
    case PM_TYPE_VARCHAR:
    case PM_TYPE_BINARY:
    case PM_TYPE_VARBINARY: return pm_xxh64(d->v.s.ptr, d->v.s.len, 0);
    case PM_TYPE_FLOAT: {
        int32_t bits;
        if (isnan(d->v.f))
            bits = 0x7fc00000; /* Float.floatToIntBits canonical NaN */
        else
            memcpy(&bits, &d->v.f, 4);
        return long_hash((uint64_t)(int64_t)bits);
    }
    case PM_TYPE_DOUBLE: {
        int64_t bits;
        if (isnan(d->v.d))
            bits = 0x7ff8000000000000LL;
        else
            memcpy(&bits, &d->v.d, 8);
        return long_hash((uint64_t)bits);
    }
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ:
        if (t->precision <= 3)
            return long_hash((uint64_t)d->v.ts.millis);
        return long_hash((uint64_t)d->v.ts.millis * 1000u + (uint64_t)(d->v.ts.nanos / 1000));
    default: return long_hash((uint64_t)d->v.i);
    }
}

/* ---- container ------------------------------------------------------------------------- */

/* Java's DataOutput.writeUTF: modified UTF-8 (NUL as C0 80, supplementary characters as
 * two 3-byte surrogates) after a u16 length. */
static int write_utf(pm_buf *out, const char *s)
{
    pm_buf enc;
    const uint8_t *p = (const uint8_t *)s;
    size_t len = strlen(s), i = 0;
    uint8_t n[2];
    int rc = 0;
    pm_buf_init(&enc, 0);
    while (i < len && rc == 0) {
        uint32_t cp = pm_utf8_next(p, len, &i); /* the Java String's code point */
        uint8_t t[8];
        size_t k;
        if (cp == 0) { /* NUL as two bytes */
            t[0] = 0xC0;
            t[1] = 0x80;
            k = 2;
        } else if (cp >= 0x10000) { /* a surrogate pair, each unit as three bytes */
            uint32_t v = cp - 0x10000;
            k = pm_utf8_encode_any(0xD800 | (v >> 10), t);
            k += pm_utf8_encode_any(0xDC00 | (v & 0x3FF), t + k);
        } else {
            k = pm_utf8_encode_any(cp, t);
        }
        rc = pm_buf_append(&enc, t, k);
    }
    if (rc == 0 && enc.len > 65535)
        rc = PAIMON_ELIMIT;
    if (rc == 0) {
        n[0] = (uint8_t)(enc.len >> 8);
        n[1] = (uint8_t)enc.len;
        if ((rc = pm_buf_append(out, n, 2)) == 0 && enc.len > 0)
            rc = pm_buf_append(out, enc.data, enc.len);
    }
    pm_buf_free(&enc);
    return rc;
}

static int put_i32(pm_buf *out, int32_t v)
{
    uint8_t b[4];
    pm_store_be32(b, (uint32_t)v);
    return pm_buf_append(out, b, 4);
}

int pm_file_index_serialize(const pm_file_index_item *items, size_t count, pm_buf *out,
                            paimon_error *err)
{
    pm_buf names;
    size_t columns = 0, start = out->len;
    int64_t head_len, body_off = 0;
    uint8_t magic[8];
    int rc = 0;
    pm_buf_init(&names, 0);
    /* the head length: fixed parts plus every writeUTF */
    for (size_t i = 0; i < count && rc == 0; i++) {
        if (i == 0 || strcmp(items[i].column, items[i - 1].column) != 0) {
            columns++;
            rc = write_utf(&names, items[i].column);
        }
        if (rc == 0)
            rc = write_utf(&names, items[i].type);
    }
    if (rc != 0)
        goto done;
    head_len = 8 + 4 + 4 + 4 + (int64_t)count * 8 + (int64_t)columns * 4 + 4 + (int64_t)names.len;
    pm_store_be64(magic, (uint64_t)PM_FILE_INDEX_MAGIC);
    if ((rc = pm_buf_append(out, magic, 8)) != 0 || (rc = put_i32(out, PM_FILE_INDEX_VERSION)) ||
        (rc = put_i32(out, (int32_t)head_len)) != 0 || (rc = put_i32(out, (int32_t)columns)) != 0)
        goto done;
    for (size_t i = 0; i < count && rc == 0; i++) {
        if (i == 0 || strcmp(items[i].column, items[i - 1].column) != 0) {
            size_t n = 0;
            for (size_t j = i; j < count && strcmp(items[j].column, items[i].column) == 0; j++)
                n++;
            if ((rc = write_utf(out, items[i].column)) != 0 || (rc = put_i32(out, (int32_t)n)))
                break;
        }
        if ((rc = write_utf(out, items[i].type)) != 0)
            break;
        if (items[i].data == NULL) {
            rc = put_i32(out, -1);
            if (rc == 0)
                rc = put_i32(out, 0);
        } else {
            if ((rc = put_i32(out, (int32_t)(head_len + body_off))) == 0)
                rc = put_i32(out, (int32_t)items[i].len);
            body_off += (int64_t)items[i].len;
        }
    }
    if (rc == 0)
        rc = put_i32(out, 0); /* redundant length */
    if (rc == 0 && (int64_t)(out->len - start) != head_len)
        rc = PAIMON_EINVALID;
    for (size_t i = 0; i < count && rc == 0; i++)
        if (items[i].data != NULL)
            rc = pm_buf_append(out, items[i].data, items[i].len);
done:
    pm_buf_free(&names);
    if (rc == PAIMON_EINVALID)
        return pm_err_set(err, rc, "file index: head length mismatch");
    return rc != 0 ? pm_buf_error(err, rc) : 0;
}

/* Reads a writeUTF string at *off (modified UTF-8 kept as it is: plain names are plain). */
PM_MUST_CHECK static int read_utf(const uint8_t *data, size_t len, size_t *off, pm_arena *arena,
                                  const char **out, const char *what, paimon_error *err)
{
    size_t n;
    if (*off + 2 > len)
        return pm_corrupt(err, "%s: offset %zu: truncated file index head", what, *off);
    n = (size_t)data[*off] << 8 | data[*off + 1];
    if (*off + 2 + n > len)
        return pm_corrupt(err, "%s: offset %zu: truncated file index head", what, *off);
    if ((*out = pm_arena_strndup(arena, (const char *)data + *off + 2, n)) == NULL)
        return pm_nomem(err);
    *off += 2 + n;
    return 0;
}

PM_MUST_CHECK static int read_i32(const uint8_t *data, size_t len, size_t *off, int32_t *out,
                                  const char *what, paimon_error *err)
{
    if (*off + 4 > len)
        return pm_corrupt(err, "%s: offset %zu: truncated file index head", what, *off);
    *out = (int32_t)pm_load_be32(data + *off);
    *off += 4;
    return 0;
}

int pm_file_index_parse(const uint8_t *data, size_t len, const char *what, pm_arena *arena,
                        pm_file_index_item **items, size_t *count, paimon_error *err)
{
    size_t off = 16, n = 0, cap = 0;
    int32_t head_len, columns;
    pm_file_index_item *out = NULL;
    int rc;
    *items = NULL;
    *count = 0;
    if (len < 20 || (int64_t)pm_load_be64(data) != PM_FILE_INDEX_MAGIC)
        return pm_corrupt(err, "%s: not a file index (magic)", what);
    if (pm_load_be32(data + 8) != PM_FILE_INDEX_VERSION)
        return pm_err_set(err, PAIMON_EUNSUPPORTED, "%s: file index version %u", what,
                          pm_load_be32(data + 8));
    head_len = (int32_t)pm_load_be32(data + 12);
    if ((rc = read_i32(data, len, &off, &columns, what, err)) != 0)
        return rc;
    if (head_len < 24 || (size_t)head_len > len || columns < 0 || columns > head_len / 6)
        return pm_corrupt(err, "%s: bad file index head (length %d, %d columns)", what, head_len,
                          columns);
    for (int32_t c = 0; c < columns; c++) {
        const char *name;
        int32_t k = 0;
        if ((rc = read_utf(data, (size_t)head_len, &off, arena, &name, what, err)) != 0 ||
            (rc = read_i32(data, (size_t)head_len, &off, &k, what, err)) != 0)
            return rc;
        if (k < 0 || k > head_len / 10)
            return pm_corrupt(err, "%s: offset %zu: %d indexes", what, off, k);
        for (int32_t i = 0; i < k; i++) {
            const char *type;
            int32_t start = 0, length = 0;
            if ((rc = read_utf(data, (size_t)head_len, &off, arena, &type, what, err)) != 0 ||
                (rc = read_i32(data, (size_t)head_len, &off, &start, what, err)) != 0 ||
                (rc = read_i32(data, (size_t)head_len, &off, &length, what, err)) != 0)
                return rc;
            if (n == cap) {
                size_t ncap = cap == 0 ? 8 : cap * 2;
                pm_file_index_item *grown = pm_arena_alloc(arena, ncap * sizeof(*grown));
                if (grown == NULL)
                    return pm_nomem(err);
                if (n > 0)
                    memcpy(grown, out, n * sizeof(*grown));
                out = grown;
                cap = ncap;
            }
            out[n].column = name;
            out[n].type = type;
            if (start == -1) {
                out[n].data = NULL;
                out[n].len = 0;
            } else {
                if (start < head_len || length < 0 || (size_t)start + (size_t)length > len)
                    return pm_corrupt(err, "%s: index of %s at %d+%d outside the file", what, name,
                                      start, length);
                out[n].data = data + start;
                out[n].len = (size_t)length;
            }
            n++;
        }
    }
    *items = out;
    *count = n;
    return 0;
}
