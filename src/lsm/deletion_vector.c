/* Deletion vectors over CRoaring: see deletion_vector.h. */
#include "lsm/deletion_vector.h"

#include <roaring/roaring.h>
#include <string.h>

#include "util/alloc.h"
#include "util/bytes.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/roaring_portable.h"

#define MAX_DV_RECORD ((size_t)1 << 30)

/* One 32-bit bitmap per high key (position >> 32), keys ascending.  Almost every data file
 * has fewer than 2^32 rows, so `count` is 1. */
struct pm_dv {
    uint32_t *keys;
    roaring_bitmap_t **maps;
    size_t count;
    bool is64;
};

/* roaring_bitmap_free() of Debian's CRoaring (0.2.x) dereferences NULL: every free goes
 * through here, as error paths free bitmaps that were never made. */
static void bitmap_free(roaring_bitmap_t *m)
{
    if (m != NULL)
        roaring_bitmap_free(m);
}

pm_dv *pm_dv_new(void)
{
    return pm_calloc(1, sizeof(pm_dv));
}

void pm_dv_free(pm_dv *dv)
{
    if (dv == NULL)
        return;
    for (size_t i = 0; i < dv->count; i++)
        bitmap_free(dv->maps[i]);
    pm_free(dv->keys);
    pm_free(dv->maps);
    pm_free(dv);
}

/* The bitmap of `key`, created (in order) when `create`; NULL otherwise. */
static roaring_bitmap_t *map_of(pm_dv *dv, uint32_t key, bool create)
{
    size_t i = 0;
    while (i < dv->count && dv->keys[i] < key)
        i++;
    if (i < dv->count && dv->keys[i] == key)
        return dv->maps[i];
    if (!create)
        return NULL;
    {
        uint32_t *keys = pm_realloc(dv->keys, (dv->count + 1) * sizeof(uint32_t));
        roaring_bitmap_t **maps;
        roaring_bitmap_t *m;
        if (keys == NULL)
            return NULL;
        dv->keys = keys;
        maps = pm_realloc(dv->maps, (dv->count + 1) * sizeof(roaring_bitmap_t *));
        if (maps == NULL)
            return NULL;
        dv->maps = maps;
        m = roaring_bitmap_create();
        if (m == NULL)
            return NULL;
        memmove(&dv->keys[i + 1], &dv->keys[i], (dv->count - i) * sizeof(uint32_t));
        memmove(&dv->maps[i + 1], &dv->maps[i], (dv->count - i) * sizeof(roaring_bitmap_t *));
        dv->keys[i] = key;
        dv->maps[i] = m;
        dv->count++;
        return m;
    }
}

int pm_dv_add(pm_dv *dv, uint64_t position)
{
    roaring_bitmap_t *m = map_of(dv, (uint32_t)(position >> 32), true);
    if (m == NULL)
        return PAIMON_ENOMEM;
    roaring_bitmap_add(m, (uint32_t)position);
    if (position >> 32)
        dv->is64 = true;
    return 0;
}

bool pm_dv_contains(const pm_dv *dv, uint64_t position)
{
    const roaring_bitmap_t *m = map_of((pm_dv *)dv, (uint32_t)(position >> 32), false);
    return m != NULL && roaring_bitmap_contains(m, (uint32_t)position);
}

uint64_t pm_dv_cardinality(const pm_dv *dv)
{
    uint64_t n = 0;
    for (size_t i = 0; i < dv->count; i++)
        n += roaring_bitmap_get_cardinality(dv->maps[i]);
    return n;
}

bool pm_dv_is_64(const pm_dv *dv)
{
    return dv->is64;
}

/* Deserializes one portable bitmap from [p, end) and returns the bytes it used (0: bad). */
static size_t read_bitmap(const uint8_t *p, size_t avail, roaring_bitmap_t **out)
{
    size_t used = 0;
    /* CRoaring 0.2 accepts some malformed bitmaps that crash it later: validate first. */
    if (!pm_roaring_portable_valid(p, avail, &used) || used == 0 || used > avail)
        return 0;
    *out = roaring_bitmap_portable_deserialize_safe((const char *)p, used);
    return *out != NULL ? used : 0;
}

int pm_dv_decode(const uint8_t *data, size_t len, int64_t range_length, const char *what,
                 uint64_t offset, pm_dv **out, paimon_error *err)
{
    uint32_t size, magic_be, magic_le;
    const uint8_t *blob;
    pm_dv *dv = NULL;
    int rc = 0;

    *out = NULL;
    if (len < 8)
        return pm_corrupt(err, "%s: deletion vector at offset %llu is truncated", what,
                          (unsigned long long)offset);
    size = pm_load_be32(data);
    if (size < 4 || (size_t)size > len - 8 || size > MAX_DV_RECORD)
        return pm_corrupt(err, "%s: deletion vector at offset %llu has an invalid size %u", what,
                          (unsigned long long)offset, size);
    blob = data + 4;
    if (pm_crc32(blob, size) != pm_load_be32(blob + size))
        return pm_corrupt(err, "%s: deletion vector at offset %llu fails its CRC", what,
                          (unsigned long long)offset);
    magic_be = pm_load_be32(blob);
    magic_le = pm_load_le32(blob);
    dv = pm_dv_new();
    if (dv == NULL)
        return pm_nomem(err);
    if (magic_be == PM_DV_MAGIC_32) {
        roaring_bitmap_t *m = NULL;
        if (range_length >= 0 && range_length != (int64_t)size) {
            rc = pm_corrupt(err,
                            "%s: deletion vector at offset %llu: recorded length %lld, "
                            "stored %u",
                            what, (unsigned long long)offset, (long long)range_length, size);
            goto done;
        }
        size_t used = read_bitmap(blob + 4, size - 4, &m);
        if (used == 0 || used != size - 4) { /* 0: no bitmap at all (found by fuzz_bitmaps) */
            bitmap_free(m);
            rc = pm_corrupt(err, "%s: deletion vector at offset %llu holds a malformed bitmap",
                            what, (unsigned long long)offset);
            goto done;
        }
        if ((dv->keys = pm_malloc(sizeof(uint32_t))) == NULL ||
            (dv->maps = pm_malloc(sizeof(roaring_bitmap_t *))) == NULL) {
            bitmap_free(m);
            rc = pm_nomem(err);
            goto done;
        }
        dv->keys[0] = 0;
        dv->maps[0] = m;
        dv->count = 1;
    } else if (magic_le == PM_DV_MAGIC_64) {
        const uint8_t *p = blob + 4, *end = blob + size;
        uint64_t count;
        if (range_length >= 0 && range_length != (int64_t)size + 8) {
            rc = pm_corrupt(err,
                            "%s: 64-bit deletion vector at offset %llu: recorded length "
                            "%lld, stored %u",
                            what, (unsigned long long)offset, (long long)range_length, size + 8);
            goto done;
        }
        if (end - p < 8 || (count = pm_load_le64(p)) > (uint64_t)(end - p) / 12) {
            rc = pm_corrupt(err, "%s: 64-bit deletion vector at offset %llu has a bad count", what,
                            (unsigned long long)offset);
            goto done;
        }
        p += 8;
        dv->is64 = true;
        for (uint64_t i = 0; i < count; i++) {
            roaring_bitmap_t *m = NULL, *dst;
            uint32_t key;
            size_t used;
            if (end - p < 4) {
                rc = pm_corrupt(err, "%s: 64-bit deletion vector at offset %llu is truncated", what,
                                (unsigned long long)offset);
                goto done;
            }
            key = pm_load_le32(p);
            p += 4;
            if ((used = read_bitmap(p, (size_t)(end - p), &m)) == 0 ||
                (dv->count > 0 && key <= dv->keys[dv->count - 1])) {
                bitmap_free(m);
                rc = pm_corrupt(err,
                                "%s: 64-bit deletion vector at offset %llu holds a malformed "
                                "bitmap",
                                what, (unsigned long long)offset);
                goto done;
            }
            p += used;
            if ((dst = map_of(dv, key, true)) == NULL) {
                bitmap_free(m);
                rc = pm_nomem(err);
                goto done;
            }
            roaring_bitmap_or_inplace(dst, m);
            bitmap_free(m);
        }
        if (p != end) {
            rc = pm_corrupt(err, "%s: 64-bit deletion vector at offset %llu has %zu trailing bytes",
                            what, (unsigned long long)offset, (size_t)(end - p));
            goto done;
        }
    } else {
        rc = pm_corrupt(err, "%s: deletion vector at offset %llu has an unknown magic %08x", what,
                        (unsigned long long)offset, magic_be);
        goto done;
    }
    *out = dv;
    dv = NULL;
done:
    pm_dv_free(dv);
    return rc;
}

int pm_dv_index_check(const uint8_t *data, size_t len, const char *path, paimon_error *err)
{
    if (len < 1 || data[0] != PM_DV_INDEX_VERSION)
        return pm_corrupt(err, "%s: deletion vector index file of version %d, expected %d", path,
                          len < 1 ? -1 : data[0], PM_DV_INDEX_VERSION);
    return 0;
}

int pm_dv_read(pm_fs *fs, const char *path, int64_t offset, int64_t length, pm_dv **out,
               paimon_error *err)
{
    pm_input *in = NULL;
    uint8_t *buf = NULL;
    size_t want;
    uint32_t size;
    uint8_t head[4];
    int rc;

    *out = NULL;
    if (offset < 1 || length < 0 || length > (int64_t)MAX_DV_RECORD)
        return pm_corrupt(err, "%s: invalid deletion vector range %lld+%lld", path,
                          (long long)offset, (long long)length);
    if ((rc = fs->open(fs, path, &in, err)) != 0)
        return rc;
    /* the file's version first, as a restoring writer checks it (one rule for both) */
    if ((rc = in->size < 1 ? pm_dv_index_check(head, 0, path, err)
                           : in->read_at(in, 0, 1, head, err)) != 0 ||
        (rc = pm_dv_index_check(head, 1, path, err)) != 0)
        goto done;
    if ((rc = in->read_at(in, (uint64_t)offset, 4, head, err)) != 0)
        goto done;
    size = pm_load_be32(head);
    want = (size_t)size + 8;
    if (size > MAX_DV_RECORD || (uint64_t)offset + want > in->size) {
        rc = pm_corrupt(err, "%s: deletion vector at offset %lld runs past the end of the file",
                        path, (long long)offset);
        goto done;
    }
    if ((buf = pm_malloc(want)) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    if ((rc = in->read_at(in, (uint64_t)offset, want, buf, err)) != 0)
        goto done;
    rc = pm_dv_decode(buf, want, length, path, (uint64_t)offset, out, err);
done:
    pm_free(buf);
    in->close(in);
    return rc;
}

int pm_dv_encode(const pm_dv *dv, bool bitmap64, pm_buf *out, int32_t *range_length,
                 paimon_error *err)
{
    size_t start = out->len, size;
    int rc;
    uint8_t word[8];

    if (!bitmap64 && (dv->count > 1 || (dv->count == 1 && dv->keys[0] != 0)))
        return pm_err_set(err, PAIMON_EINVALID,
                          "deletion vector holds positions beyond 2^32: needs the 64-bit format");
    if ((rc = pm_buf_zero(out, 4)) != 0)
        return pm_buf_error(err, rc);
    if (!bitmap64) {
        roaring_bitmap_t *m =
            dv->count == 1 ? roaring_bitmap_copy(dv->maps[0]) : roaring_bitmap_create();
        size_t n;
        if (m == NULL)
            return pm_nomem(err);
        roaring_bitmap_run_optimize(m); /* as Java serializes */
        n = roaring_bitmap_portable_size_in_bytes(m);
        pm_store_be32(word, PM_DV_MAGIC_32);
        if ((rc = pm_buf_append(out, word, 4)) == 0 && (rc = pm_buf_reserve(out, n)) == 0) {
            roaring_bitmap_portable_serialize(m, (char *)out->data + out->len);
            out->len += n;
        }
        bitmap_free(m);
    } else {
        pm_store_le32(word, PM_DV_MAGIC_64);
        rc = pm_buf_append(out, word, 4);
        pm_store_le64(word, dv->count);
        if (rc == 0)
            rc = pm_buf_append(out, word, 8);
        for (size_t i = 0; rc == 0 && i < dv->count; i++) {
            roaring_bitmap_t *m = roaring_bitmap_copy(dv->maps[i]);
            size_t n;
            if (m == NULL)
                return pm_nomem(err);
            roaring_bitmap_run_optimize(m);
            n = roaring_bitmap_portable_size_in_bytes(m);
            pm_store_le32(word, dv->keys[i]);
            if ((rc = pm_buf_append(out, word, 4)) == 0 && (rc = pm_buf_reserve(out, n)) == 0) {
                roaring_bitmap_portable_serialize(m, (char *)out->data + out->len);
                out->len += n;
            }
            bitmap_free(m);
        }
    }
    if (rc != 0)
        return pm_buf_error(err, rc);
    size = out->len - start - 4;
    if (size > MAX_DV_RECORD)
        return pm_err_set(err, PAIMON_ELIMIT, "deletion vector of %zu bytes", size);
    pm_store_be32(out->data + start, (uint32_t)size);
    pm_store_be32(word, pm_crc32(out->data + start + 4, size));
    if ((rc = pm_buf_append(out, word, 4)) != 0)
        return pm_buf_error(err, rc);
    *range_length = bitmap64 ? (int32_t)size + 8 : (int32_t)size;
    return 0;
}
