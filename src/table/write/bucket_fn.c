/* Fixed buckets and key hashes: see bucket_fn.h. */
#include "table/write/bucket_fn.h"

#include <string.h>
#include <strings.h>

#include "data/binary_row.h"
#include "util/error.h"
#include "util/hash.h"

static bool fast_type(const pm_type *t)
{
    switch (t->id) {
    case PM_TYPE_BOOLEAN:
    case PM_TYPE_TINYINT:
    case PM_TYPE_SMALLINT:
    case PM_TYPE_INT:
    case PM_TYPE_DATE:
    case PM_TYPE_BIGINT: return true;
    default: return false;
    }
}

void pm_key_hasher_init(pm_key_hasher *h, const pm_type *row, const int *cols, size_t count)
{
    memset(h, 0, sizeof(*h));
    pm_buf_init(&h->scratch, 0);
    for (size_t k = 0; k < count && k < PM_BUCKET_MAX_KEYS; k++) {
        h->cols[k] = cols[k];
        h->types[k] = row->fields[cols[k]].type;
    }
    h->count = count < PM_BUCKET_MAX_KEYS ? count : PM_BUCKET_MAX_KEYS;
    h->fast = h->count == 1 && fast_type(h->types[0]);
}

void pm_key_hasher_free(pm_key_hasher *h)
{
    pm_buf_free(&h->scratch);
}

/* The BinaryRow of one non-null integer-like value: 8 zero bytes, then the slot (ints
 * zero-extended, metadata.md §10.2). */
static int32_t hash_fast(const pm_column *c, int64_t r)
{
    uint8_t row[16] = {0};
    uint64_t slot = 0;
    switch (c->type->id) {
    case PM_TYPE_BOOLEAN: slot = (c->values.data[r >> 3] >> (r & 7)) & 1; break;
    case PM_TYPE_TINYINT: slot = (uint8_t)c->values.data[r]; break;
    case PM_TYPE_SMALLINT: {
        uint16_t v;
        memcpy(&v, c->values.data + 2 * r, 2);
        slot = v;
        break;
    }
    case PM_TYPE_INT:
    case PM_TYPE_DATE: {
        uint32_t v;
        memcpy(&v, c->values.data + 4 * r, 4);
        slot = v;
        break;
    }
    default: memcpy(&slot, c->values.data + 8 * r, 8); break;
    }
    memcpy(row + 8, &slot, 8); /* little-endian hosts */
    return pm_murmur3_words(row, sizeof(row), PM_BINARY_ROW_HASH_SEED);
}

int pm_key_hasher_hash(pm_key_hasher *h, const pm_batch *b, int64_t r, int32_t *hash,
                       paimon_error *err)
{
    pm_datum vals[PM_BUCKET_MAX_KEYS];
    int rc;
    if (h->fast && pm_column_is_valid(b->columns[h->cols[0]], r)) {
        *hash = hash_fast(b->columns[h->cols[0]], r);
        return 0;
    }
    for (size_t k = 0; k < h->count; k++)
        pm_column_get_datum(b->columns[h->cols[k]], r, &vals[k]);
    h->scratch.len = 0;
    if ((rc = pm_binrow_write(&h->scratch, h->types, vals, (int32_t)h->count, 0)) != 0)
        return pm_buf_error(err, rc);
    *hash = pm_binrow_hash(h->scratch.data, h->scratch.len);
    return 0;
}

int pm_bucket_fn_init(pm_bucket_fn *f, const pm_schema *s, const pm_type *row, paimon_error *err)
{
    const char *bk = pm_schema_option(s, "bucket-key"), *fn;
    int cols[PM_BUCKET_MAX_KEYS];
    size_t n = 0;
    int64_t buckets;
    int rc;
    memset(f, 0, sizeof(*f));
    if ((rc = pm_options_get_i64(&s->options, "bucket", &buckets, err)) != 0)
        return rc;
    if (buckets <= 0)
        return pm_err_set(err, PAIMON_EINVALID, "bucket = %lld is not a fixed bucket count",
                          (long long)buckets);
    f->num_buckets = (int32_t)buckets;
    if (bk != NULL) {
        for (const char *p = bk; *p != '\0';) {
            const char *comma = strchr(p, ',');
            size_t len = comma != NULL ? (size_t)(comma - p) : strlen(p), idx;
            char name[512];
            if (len >= sizeof(name) || n == PM_BUCKET_MAX_KEYS)
                return pm_err_set(err, PAIMON_EINVALID, "bucket-key: too long");
            memcpy(name, p, len);
            name[len] = '\0';
            if (pm_type_field_by_name(row, name, &idx) == NULL)
                return pm_err_set(err, PAIMON_EINVALID, "bucket-key: no column %s", name);
            cols[n++] = (int)idx;
            p = comma != NULL ? comma + 1 : p + len;
        }
    } else if (s->primary_keys.count > 0) {
        const pm_field *keys[PM_BUCKET_MAX_KEYS];
        size_t nk, idx;
        if ((rc = pm_schema_trimmed_pk_fields(s, keys, PM_BUCKET_MAX_KEYS, &nk, err)) != 0)
            return rc;
        for (size_t k = 0; k < nk; k++) {
            if (pm_type_field_by_name(row, keys[k]->name, &idx) == NULL)
                return pm_err_set(err, PAIMON_EINVALID, "no key column %s", keys[k]->name);
            cols[n++] = (int)idx;
        }
    } else {
        return pm_err_set(err, PAIMON_EINVALID,
                          "bucket = %lld on a table without a primary key needs bucket-key",
                          (long long)buckets);
    }
    pm_key_hasher_init(&f->key, row, cols, n);
    fn = pm_schema_option(s, "bucket-function.type");
    if (fn != NULL && strcasecmp(fn, "hive") == 0)
        return pm_err_set(err, PAIMON_EUNSUPPORTED, "bucket-function.type = hive is not supported");
    if (fn != NULL && strcasecmp(fn, "mod") == 0) {
        const pm_type *t = f->key.types[0];
        if (n != 1 || (t->id != PM_TYPE_INT && t->id != PM_TYPE_BIGINT))
            return pm_err_set(err, PAIMON_EINVALID,
                              "bucket-function.type = mod needs one INT or BIGINT bucket key");
        f->mod = true;
    }
    return 0;
}

void pm_bucket_fn_free(pm_bucket_fn *f)
{
    pm_key_hasher_free(&f->key);
}

int pm_bucket_fn_bucket(pm_bucket_fn *f, const pm_batch *b, int64_t r, int32_t *bucket,
                        paimon_error *err)
{
    int32_t h;
    int rc;
    if (f->mod) {
        pm_datum d;
        int64_t m;
        pm_column_get_datum(b->columns[f->key.cols[0]], r, &d);
        if (d.is_null)
            return pm_err_set(err, PAIMON_EINVALID, "a null bucket key (bucket-function mod)");
        m = d.v.i % f->num_buckets;
        *bucket = (int32_t)(m < 0 ? m + f->num_buckets : m);
        return 0;
    }
    if ((rc = pm_key_hasher_hash(&f->key, b, r, &h, err)) != 0)
        return rc;
    *bucket = pm_bucket_of_hash(h, f->num_buckets);
    return 0;
}
