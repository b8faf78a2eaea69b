/* Lookup over the levels of a bucket: see lookup_levels.h. */
#include "lsm/lookup_levels.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "data/binary_row.h"
#include "data/datum_compare.h"
#include "lsm/levels.h"
#include "lsm/lookup_cache.h"
#include "lsm/lookup_file.h"
#include "meta/file_path.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/error.h"

#define MAX_KEYS 32

/* ---- options ------------------------------------------------------------------------------- */

int pm_lookup_options_read(pm_lookup_options *o, const pm_options *opts, paimon_error *err)
{
    int rc;
    memset(o, 0, sizeof(*o));
    /* the getters refuse values out of range (a page size, fpp or load factor that cannot
     * work: meta/option_catalog.c) */
    if ((rc = pm_options_get_memory(opts, "lookup.cache-max-disk-size", &o->max_disk_size, err)) !=
            0 ||
        (rc = pm_options_get_memory(opts, "lookup.cache-max-memory-size", &o->max_memory_size,
                                    err)) != 0 ||
        (rc = pm_options_get_memory(opts, "cache-page-size", &o->page_size, err)) != 0 ||
        (rc = pm_options_get_bool(opts, "lookup.cache.bloom.filter.enabled", &o->bloom_filter,
                                  err)) != 0 ||
        (rc = pm_options_get_double(opts, "lookup.hash-load-factor", &o->hash_load_factor, err)) !=
            0 ||
        (rc = pm_options_get_duration(opts, "lookup.cache-file-retention", &o->file_retention_ms,
                                      err)) != 0)
        return rc;
    if (o->bloom_filter && (rc = pm_options_get_double(opts, "lookup.cache.bloom.filter.fpp",
                                                       &o->bloom_fpp, err)) != 0)
        return rc;
    return 0;
}

/* ---- state --------------------------------------------------------------------------------- */

typedef struct lfile lfile;

struct lfile {
    const pm_data_file_meta *meta;  /* borrowed */
    pm_datum min[MAX_KEYS];         /* decoded min key (bytes borrowed from meta) */
    pm_datum max[MAX_KEYS];         /* decoded max key */
    pm_lookup_file *local;          /* NULL until built, and after eviction */
    int64_t weight_kib;             /* local file size >> 10, as Java's weigher */
    int64_t last_access_ms;         /* monotonic */
    struct lfile *prev, *next;      /* shared LRU of files with a local file: prev more recent */
    struct pm_lookup_levels *owner; /* the levels the file belongs to */
};

/* What the levels of several buckets share (Java: one CacheManager and one lookup file
 * cache per table write): the page cache and the LRU of local files with its bounds. */
struct pm_lookup_shared {
    pm_lookup_options o;        /* the bounds: memory, disk, retention, page size */
    pm_lookup_cache *cache;     /* pages of every local file */
    lfile *lru_head, *lru_tail; /* local files of every levels, most recent first */
    int64_t disk_kib, max_disk_kib;
    uint64_t next_file_id; /* ids of local files in the page cache */
};

typedef struct level {
    lfile **files; /* level 0: newest first; others: by min key, not overlapping */
    size_t count, cap;
} level;

struct pm_lookup_levels {
    pm_lookup_config c;
    const pm_type *key_types[MAX_KEYS]; /* borrowed from the schema */
    int key_cols[MAX_KEYS];             /* indexes into schema->row */
    size_t key_count;
    const pm_type **value_types; /* schema->row field types */
    size_t value_count;
    bool has_value, has_position;
    level *levels;
    int32_t num_levels;
    pm_lookup_shared *sh;     /* config.shared, or own_sh */
    pm_lookup_shared *own_sh; /* created when the config shares nothing */
    pm_buf key_buf;           /* the key being looked up */
    pm_buf build_key;         /* keys of a file being built (a build runs inside a lookup) */
    pm_buf val_buf, path_buf;
    pm_datum *vals; /* value_count datums of a row being stored */
    pm_batch *row;  /* the result row */
    pm_lookup_stats stats;
};

int pm_lookup_shared_new(pm_lookup_shared **out, const pm_lookup_options *o, paimon_error *err)
{
    pm_lookup_shared *s = pm_calloc(1, sizeof(*s));
    int rc;
    *out = NULL;
    if (s == NULL)
        return pm_nomem(err);
    s->o = *o;
    s->max_disk_kib = o->max_disk_size >> 10;
    if ((rc = pm_lookup_cache_new(&s->cache, o->page_size, o->max_memory_size, err)) != 0) {
        pm_free(s);
        return rc;
    }
    *out = s;
    return 0;
}

void pm_lookup_shared_free(pm_lookup_shared *s)
{
    if (s == NULL)
        return;
    pm_lookup_cache_free(s->cache);
    pm_free(s);
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int compare_key(const pm_lookup_levels *l, const pm_datum *a, const pm_datum *b)
{
    return pm_datum_compare_key(l->key_types, a, b, l->key_count);
}

/* ---- the LRU of local files ---------------------------------------------------------------- */

static void lru_unlink(pm_lookup_shared *s, lfile *f)
{
    if (f->prev != NULL)
        f->prev->next = f->next;
    else
        s->lru_head = f->next;
    if (f->next != NULL)
        f->next->prev = f->prev;
    else
        s->lru_tail = f->prev;
    f->prev = f->next = NULL;
}

static void lru_push(pm_lookup_shared *s, lfile *f)
{
    f->next = s->lru_head;
    f->prev = NULL;
    if (s->lru_head != NULL)
        s->lru_head->prev = f;
    s->lru_head = f;
    if (s->lru_tail == NULL)
        s->lru_tail = f;
}

/* Deletes the local file of `f` (it is rebuilt on demand). */
static void drop_local(lfile *f, bool evicted)
{
    pm_lookup_levels *l = f->owner;
    if (f->local == NULL)
        return;
    lru_unlink(l->sh, f);
    l->stats.bloom_skips += pm_lookup_file_bloom_skips(f->local);
    l->stats.local_bytes -= pm_lookup_file_size(f->local);
    l->stats.local_files--;
    l->sh->disk_kib -= f->weight_kib;
    pm_lookup_file_close(f->local, true);
    f->local = NULL;
    if (evicted)
        l->stats.evictions++;
}

/* Drops local files past the retention, then the least recently used ones while the disk
 * weight exceeds the bound (the file just used included, as Caffeine evicts an entry heavier
 * than the whole bound). */
static void enforce_bounds(pm_lookup_shared *s)
{
    int64_t now = now_ms();
    while (s->lru_tail != NULL && now - s->lru_tail->last_access_ms > s->o.file_retention_ms)
        drop_local(s->lru_tail, true);
    while (s->lru_tail != NULL && s->disk_kib > s->max_disk_kib)
        drop_local(s->lru_tail, true);
}

/* ---- levels -------------------------------------------------------------------------------- */

static int compare_level0(const void *x, const void *y)
{
    return pm_levels_level0_compare((*(lfile *const *)x)->meta, (*(lfile *const *)y)->meta);
}

static int compare_run(const void *x, const void *y, void *ctx)
{
    const lfile *a = *(lfile *const *)x, *b = *(lfile *const *)y;
    return compare_key(ctx, a->min, b->min);
}

static void sort_level(pm_lookup_levels *l, int32_t i)
{
    level *lv = &l->levels[i];
    if (lv->count < 2)
        return;
    if (i == 0)
        qsort(lv->files, lv->count, sizeof(*lv->files), compare_level0);
    else
        qsort_r(lv->files, lv->count, sizeof(*lv->files), compare_run, l);
}

PM_MUST_CHECK static int decode_key(pm_lookup_levels *l, const pm_avro_bytes *b, pm_datum *out,
                                    const char *file, const char *what, paimon_error *err)
{
    int rc = pm_binrow_decode_key(b->ptr, b->len, l->key_types, l->key_count, out, err);
    return rc == 0 ? 0 : pm_err_prefix(err, rc, "data file %s: %s: ", file, what);
}

PM_MUST_CHECK static int ensure_levels(pm_lookup_levels *l, int32_t n, paimon_error *err)
{
    level *grown;
    if (n <= l->num_levels)
        return 0;
    if ((grown = pm_realloc(l->levels, (size_t)n * sizeof(*grown))) == NULL)
        return pm_nomem(err);
    memset(grown + l->num_levels, 0, (size_t)(n - l->num_levels) * sizeof(*grown));
    l->levels = grown;
    l->num_levels = n;
    return 0;
}

/* Adds a file to its level (unsorted; the caller sorts). */
PM_MUST_CHECK static int add_file(pm_lookup_levels *l, const pm_data_file_meta *m,
                                  paimon_error *err)
{
    lfile *f;
    level *lv;
    int rc;
    if (m->level < 0 || m->level > 1000)
        return pm_err_set(err, PAIMON_EINVALID, "data file %s: level %d", m->file_name, m->level);
    if ((rc = ensure_levels(l, m->level + 1, err)) != 0)
        return rc;
    if ((f = pm_calloc(1, sizeof(*f))) == NULL)
        return pm_nomem(err);
    f->meta = m;
    f->owner = l;
    if ((rc = decode_key(l, &m->min_key, f->min, m->file_name, "min key", err)) != 0 ||
        (rc = decode_key(l, &m->max_key, f->max, m->file_name, "max key", err)) != 0) {
        pm_free(f);
        return rc;
    }
    lv = &l->levels[m->level];
    if (lv->count == lv->cap) {
        size_t cap = lv->cap == 0 ? 8 : lv->cap * 2;
        lfile **grown = pm_realloc(lv->files, cap * sizeof(*grown));
        if (grown == NULL) {
            pm_free(f);
            return pm_nomem(err);
        }
        lv->files = grown;
        lv->cap = cap;
    }
    lv->files[lv->count++] = f;
    return 0;
}

static lfile *find_file(const pm_lookup_levels *l, const char *name, int32_t *lvl, size_t *idx)
{
    for (int32_t i = 0; i < l->num_levels; i++)
        for (size_t j = 0; j < l->levels[i].count; j++)
            if (strcmp(l->levels[i].files[j]->meta->file_name, name) == 0) {
                *lvl = i;
                *idx = j;
                return l->levels[i].files[j];
            }
    return NULL;
}

static void remove_file(pm_lookup_levels *l, int32_t lvl, size_t idx)
{
    level *lv = &l->levels[lvl];
    lfile *f = lv->files[idx];
    drop_local(f, false);
    memmove(lv->files + idx, lv->files + idx + 1, (lv->count - idx - 1) * sizeof(*lv->files));
    lv->count--;
    pm_free(f);
}

int pm_lookup_levels_new(pm_lookup_levels **out, const pm_lookup_config *config,
                         const pm_data_file_meta *const *files, size_t count, paimon_error *err)
{
    pm_lookup_levels *l = pm_calloc(1, sizeof(*l));
    const pm_field *pk[MAX_KEYS];
    const pm_type *row_type = config->schema->row;
    int rc = 0;
    *out = NULL;
    if (l == NULL)
        return pm_nomem(err);
    if (config->open_file == NULL) {
        pm_free(l);
        return pm_err_set(err, PAIMON_EINVALID, "lookup levels: no open_file callback");
    }
    l->c = *config;
    pm_buf_init(&l->key_buf, 0);
    pm_buf_init(&l->build_key, 0);
    pm_buf_init(&l->val_buf, 0);
    pm_buf_init(&l->path_buf, 0);
    l->has_value = config->mode == PM_LOOKUP_VALUE || config->mode == PM_LOOKUP_VALUE_POSITION;
    l->has_position =
        config->mode == PM_LOOKUP_POSITION || config->mode == PM_LOOKUP_VALUE_POSITION;
    if ((rc = pm_schema_trimmed_pk_fields(config->schema, pk, MAX_KEYS, &l->key_count, err)) != 0)
        goto done;
    if (l->key_count == 0) {
        rc = pm_err_set(err, PAIMON_EINVALID, "lookup needs a primary-key table");
        goto done;
    }
    for (size_t k = 0; k < l->key_count; k++) {
        size_t idx;
        if (pm_type_field_by_id(row_type, pk[k]->id, &idx) == NULL) {
            rc = pm_corrupt(err, "primary key %s is not a column", pk[k]->name);
            goto done;
        }
        l->key_cols[k] = (int)idx;
        l->key_types[k] = pk[k]->type;
    }
    l->value_count = row_type->field_count;
    l->value_types = pm_calloc(l->value_count + 1, sizeof(*l->value_types));
    l->vals = pm_calloc(l->value_count + 1, sizeof(*l->vals));
    if (l->value_types == NULL || l->vals == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < l->value_count; i++) {
        l->value_types[i] = row_type->fields[i].type;
        if (l->has_value && pm_type_is_nested(l->value_types[i])) {
            rc = pm_err_set(err, PAIMON_EUNSUPPORTED,
                            "lookup of values: column %s is nested (ARRAY, MAP, MULTISET or ROW)",
                            row_type->fields[i].name);
            goto done;
        }
    }
    if (l->has_value && (rc = pm_batch_new(&l->row, row_type, err)) != 0)
        goto done;
    if (config->shared == NULL &&
        (rc = pm_lookup_shared_new(&l->own_sh, &config->options, err)) != 0)
        goto done;
    l->sh = config->shared != NULL ? config->shared : l->own_sh;
    if ((rc = ensure_levels(l, config->num_levels < 2 ? 2 : config->num_levels, err)) != 0)
        goto done;
    for (size_t i = 0; i < count; i++)
        if ((rc = add_file(l, files[i], err)) != 0)
            goto done;
    for (int32_t i = 0; i < l->num_levels; i++)
        sort_level(l, i);
    *out = l;
    l = NULL;
done:
    pm_lookup_levels_free(l);
    return rc;
}

int pm_lookup_levels_update(pm_lookup_levels *l, const pm_data_file_meta *const *removed,
                            size_t removed_count, const pm_data_file_meta *const *added,
                            size_t added_count, paimon_error *err)
{
    int32_t lvl;
    size_t idx;
    int rc;
    bool touched[1001] = {false};
    for (size_t i = 0; i < removed_count; i++)
        if (find_file(l, removed[i]->file_name, &lvl, &idx) == NULL)
            return pm_err_set(err, PAIMON_EINVALID, "lookup levels: data file %s is not present",
                              removed[i]->file_name);
    for (size_t i = 0; i < removed_count; i++)
        if (find_file(l, removed[i]->file_name, &lvl, &idx) != NULL)
            remove_file(l, lvl, idx);
    for (size_t i = 0; i < added_count; i++) {
        if ((rc = add_file(l, added[i], err)) != 0)
            return rc;
        touched[added[i]->level] = true;
    }
    for (int32_t i = 0; i < l->num_levels; i++)
        if (touched[i])
            sort_level(l, i);
    return 0;
}

/* ---- building a local file ----------------------------------------------------------------- */

/* A key as BinaryRow bytes (row kind 0) in `out`. */
PM_MUST_CHECK static int encode_key(pm_lookup_levels *l, const pm_datum *key, pm_buf *out,
                                    paimon_error *err)
{
    int rc;
    pm_buf_reset(out);
    if ((rc = pm_binrow_write(out, l->key_types, key, (int32_t)l->key_count, 0)) != 0)
        return pm_buf_error(err, rc);
    return 0;
}

static void put_i64(uint8_t *p, int64_t v)
{
    memcpy(p, &v, 8);
}

static int64_t get_i64(const uint8_t *p)
{
    int64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* The stored value of one record (lookup_levels.h's modes):
 *   VALUE           BinaryRow of the values, i64 sequence number, i8 kind
 *   VALUE_POSITION  BinaryRow of the values, i64 position, i64 sequence number, i8 kind
 *   POSITION        i64 position
 *   EXISTS          nothing */
PM_MUST_CHECK static int encode_value(pm_lookup_levels *l, const pm_batch *b, int64_t r,
                                      int64_t pos, paimon_error *err)
{
    uint8_t tail[17];
    size_t n = 0;
    int rc;
    pm_buf_reset(&l->val_buf);
    if (l->has_value) {
        for (size_t i = 0; i < l->value_count; i++)
            pm_column_get_datum(b->columns[i], r, &l->vals[i]);
        if ((rc = pm_binrow_write(&l->val_buf, l->value_types, l->vals, (int32_t)l->value_count,
                                  0)) != 0)
            return pm_buf_error(err, rc);
    }
    if (l->has_position) {
        put_i64(tail + n, pos);
        n += 8;
    }
    if (l->has_value) {
        int64_t seq;
        memcpy(&seq, b->columns[l->value_count]->values.data + 8 * r, 8);
        put_i64(tail + n, seq);
        tail[n + 8] = (uint8_t)((const int8_t *)b->columns[l->value_count + 1]->values.data)[r];
        n += 9;
    }
    if (n > 0 && (rc = pm_buf_append(&l->val_buf, tail, n)) != 0)
        return pm_buf_error(err, rc);
    return 0;
}

/* Makes sure an error about data file `name` names it. */
PM_MUST_CHECK static int name_file(paimon_error *err, int rc, const char *name)
{
    if (err != NULL && strstr(err->message, name) == NULL)
        return pm_err_prefix(err, rc, "lookup: data file %s: ", name);
    return rc;
}

PM_MUST_CHECK static int build_local(pm_lookup_levels *l, lfile *f, paimon_error *err)
{
    const pm_data_file_meta *m = f->meta;
    const pm_schema *fschema = l->c.schema;
    const pm_dv *dv = l->c.dv_of != NULL ? l->c.dv_of(l->c.dv_ctx, m->file_name) : NULL;
    pm_batch_source r = {0};
    pm_lookup_file_writer *w = NULL;
    pm_batch *b = NULL;
    char *local = NULL, *remote = NULL;
    int64_t pos = 0;
    int rc = 0;

    /* the name also names the local file: check it before either path is made
     * (meta/file_path.h); the table root is the bucket directory's as far as messages go */
    pm_buf_reset(&l->path_buf);
    if ((rc = pm_file_path_resolve(l->c.bucket_dir, &l->c.schema->options, l->c.bucket_dir,
                                   m->file_name, m->external_path, &l->path_buf, err)) != 0 ||
        (remote = pm_strdup(pm_buf_cstr(&l->path_buf))) == NULL) {
        rc = rc != 0 ? rc : pm_nomem(err);
        goto done;
    }
    pm_buf_reset(&l->path_buf);
    if ((rc = pm_buf_printf(&l->path_buf, "%s/%s%s.lookup", l->c.local_dir,
                            l->c.local_prefix != NULL ? l->c.local_prefix : "", m->file_name)) !=
            0 ||
        (local = pm_strdup(pm_buf_cstr(&l->path_buf))) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    if (m->schema_id != l->c.schema->id && l->c.schema_of != NULL &&
        (rc = l->c.schema_of(l->c.schema_ctx, m->schema_id, &fschema, err)) != 0) {
        rc = name_file(err, rc, m->file_name);
        goto done;
    }
    if ((rc = l->c.open_file(l->c.open_ctx, l->c.fs, remote, m, fschema, l->c.schema->row, &r,
                             err)) != 0) {
        rc = name_file(err, rc, m->file_name);
        goto done;
    }
    /* A leftover of an earlier process under the same name is ours to replace. */
    unlink(local);
    if ((rc = pm_lookup_file_writer_open(&w, local, m->row_count,
                                         l->c.options.bloom_filter ? l->c.options.bloom_fpp : 0.0,
                                         l->c.options.hash_load_factor, err)) != 0)
        goto done;
    for (;;) {
        rc = r.next(r.ctx, &b, err);
        if (rc == PAIMON_ITEROVER) {
            rc = 0;
            break;
        }
        if (rc != 0) {
            rc = name_file(err, rc, m->file_name);
            goto done;
        }
        for (int64_t i = 0; i < b->row_count; i++, pos++) {
            pm_datum key[MAX_KEYS];
            if (dv != NULL && pm_dv_contains(dv, (uint64_t)pos))
                continue;
            for (size_t k = 0; k < l->key_count; k++)
                pm_column_get_datum(b->columns[l->key_cols[k]], i, &key[k]);
            if ((rc = encode_key(l, key, &l->build_key, err)) != 0 ||
                (rc = encode_value(l, b, i, pos, err)) != 0 ||
                (rc = pm_lookup_file_writer_add(w, l->build_key.data, l->build_key.len,
                                                l->val_buf.data, l->val_buf.len, err)) != 0)
                goto done;
        }
        pm_batch_free(b);
        b = NULL;
    }
    if ((rc = pm_lookup_file_writer_finish(w, err)) != 0 ||
        (rc = pm_lookup_file_open(&f->local, local, l->sh->cache, ++l->sh->next_file_id, err)) !=
            0) {
        unlink(local);
        goto done;
    }
    f->weight_kib = pm_lookup_file_size(f->local) >> 10;
    l->sh->disk_kib += f->weight_kib;
    l->stats.builds++;
    l->stats.local_files++;
    l->stats.local_bytes += pm_lookup_file_size(f->local);
    lru_push(l->sh, f);
done:
    pm_batch_free(b);
    pm_lookup_file_writer_free(w);
    if (r.release != NULL)
        r.release(r.ctx);
    pm_free(local);
    pm_free(remote);
    return rc;
}

/* ---- lookups ------------------------------------------------------------------------------- */

PM_MUST_CHECK static int decode_result(pm_lookup_levels *l, const uint8_t *v, size_t len,
                                       pm_lookup_result *out, paimon_error *err)
{
    size_t tail = (l->has_position ? 8 : 0) + (l->has_value ? 9 : 0);
    pm_binrow row;
    int rc;
    if (len < tail)
        return pm_corrupt(err, "lookup value of %zu bytes", len);
    if (l->has_position)
        out->position = get_i64(v + len - tail);
    if (!l->has_value)
        return 0;
    out->sequence_number = get_i64(v + len - 9);
    out->value_kind = (int8_t)v[len - 1];
    pm_batch_reset(l->row);
    if ((rc = pm_binrow_view(&row, v, len - tail, (int32_t)l->value_count, err)) != 0)
        return rc;
    for (size_t i = 0; i < l->value_count; i++) {
        pm_datum d;
        if ((rc = pm_binrow_get(&row, (int32_t)i, l->value_types[i], &d, err)) != 0)
            return rc;
        if (pm_binrow_is_null(&row, (int32_t)i))
            d.is_null = true;
        if ((rc = pm_column_append_datum(l->row->columns[i], &d)) != 0)
            return pm_buf_error(err, rc);
    }
    if ((rc = pm_batch_set_rows(l->row, 1, err)) != 0)
        return rc;
    out->row = l->row;
    return 0;
}

/* Looks the key up in one data file; *hit when found (out filled). */
PM_MUST_CHECK static int lookup_file(pm_lookup_levels *l, lfile *f, pm_lookup_result *out,
                                     bool *hit, paimon_error *err)
{
    const uint8_t *v;
    size_t vlen;
    bool found;
    int rc;
    *hit = false;
    if (f->local == NULL) {
        if ((rc = build_local(l, f, err)) != 0)
            return rc;
    } else if (f != l->sh->lru_head) {
        lru_unlink(l->sh, f);
        lru_push(l->sh, f);
    }
    f->last_access_ms = now_ms();
    if ((rc = pm_lookup_file_get(f->local, l->key_buf.data, l->key_buf.len, &found, &v, &vlen,
                                 err)) != 0)
        return rc;
    if (found) {
        out->found = *hit = true;
        out->level = f->meta->level;
        out->file_name = f->meta->file_name;
        rc = decode_result(l, v, vlen, out, err);
    }
    enforce_bounds(l->sh); /* after the value was copied out: it may evict this very file */
    return rc;
}

/* The one file of a sorted run whose range can hold the key (LookupUtils.lookup). */
static lfile *run_file(const pm_lookup_levels *l, const level *lv, const pm_datum *key)
{
    size_t lo = 0, hi;
    if (lv->count == 0)
        return NULL;
    hi = lv->count - 1;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (compare_key(l, lv->files[mid]->max, key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (compare_key(l, lv->files[hi]->max, key) < 0)
        return NULL;
    return lv->files[hi];
}

int pm_lookup_levels_get(pm_lookup_levels *l, const pm_datum *key, int32_t start_level,
                         pm_lookup_result *out, paimon_error *err)
{
    int rc;
    bool hit = false;
    memset(out, 0, sizeof(*out));
    out->position = out->sequence_number = -1;
    out->value_kind = -1;
    if (start_level < 0)
        return pm_err_set(err, PAIMON_EINVALID, "lookup: start level %d", start_level);
    for (size_t k = 0; k < l->key_count; k++)
        if (key[k].is_null)
            return pm_err_set(err, PAIMON_EINVALID, "lookup: key column %zu is null", k);
    if ((rc = encode_key(l, key, &l->key_buf, err)) != 0)
        return rc;
    for (int32_t i = start_level; i < l->num_levels && !hit; i++) {
        const level *lv = &l->levels[i];
        if (i == 0) {
            for (size_t j = 0; j < lv->count && !hit; j++) {
                lfile *f = lv->files[j];
                if (compare_key(l, f->max, key) >= 0 && compare_key(l, f->min, key) <= 0 &&
                    (rc = lookup_file(l, f, out, &hit, err)) != 0)
                    return rc;
            }
        } else {
            lfile *f = run_file(l, lv, key);
            if (f != NULL && (rc = lookup_file(l, f, out, &hit, err)) != 0)
                return rc;
        }
    }
    if (!hit)
        enforce_bounds(l->sh);
    return 0;
}

int pm_lookup_levels_get_row(pm_lookup_levels *l, const pm_batch *b, int64_t row,
                             const int *key_cols, int32_t start_level, pm_lookup_result *out,
                             paimon_error *err)
{
    pm_datum key[MAX_KEYS];
    if (row < 0 || row >= b->row_count)
        return pm_err_set(err, PAIMON_EINVALID, "lookup: row %lld of %lld", (long long)row,
                          (long long)b->row_count);
    for (size_t k = 0; k < l->key_count; k++)
        pm_column_get_datum(b->columns[key_cols[k]], row, &key[k]);
    return pm_lookup_levels_get(l, key, start_level, out, err);
}

int pm_lookup_levels_get_binrow(pm_lookup_levels *l, const uint8_t *bytes, size_t len,
                                int32_t start_level, pm_lookup_result *out, paimon_error *err)
{
    pm_datum key[MAX_KEYS];
    pm_binrow row;
    int rc = pm_binrow_view(&row, bytes, len, (int32_t)l->key_count, err);
    for (size_t k = 0; rc == 0 && k < l->key_count; k++)
        rc = pm_binrow_get(&row, (int32_t)k, l->key_types[k], &key[k], err);
    if (rc != 0) {
        pm_err_prefix(err, rc, "lookup key: ");
        return PAIMON_EINVALID; /* the caller's bytes, not a file */
    }
    return pm_lookup_levels_get(l, key, start_level, out, err);
}

void pm_lookup_levels_stats(const pm_lookup_levels *l, pm_lookup_stats *out)
{
    *out = l->stats;
    for (const lfile *f = l->sh->lru_head; f != NULL; f = f->next)
        if (f->owner == l)
            out->bloom_skips += pm_lookup_file_bloom_skips(f->local);
    out->page_loads = pm_lookup_cache_loads(l->sh->cache);
    out->page_evictions = pm_lookup_cache_evictions(l->sh->cache);
}

void pm_lookup_levels_free(pm_lookup_levels *l)
{
    if (l == NULL)
        return;
    for (int32_t i = 0; i < l->num_levels; i++) {
        while (l->levels[i].count > 0)
            remove_file(l, i, l->levels[i].count - 1);
        pm_free(l->levels[i].files);
    }
    pm_free(l->levels);
    pm_lookup_shared_free(l->own_sh);
    pm_batch_free(l->row);
    pm_free(l->value_types);
    pm_free(l->vals);
    pm_buf_free(&l->key_buf);
    pm_buf_free(&l->build_key);
    pm_buf_free(&l->val_buf);
    pm_buf_free(&l->path_buf);
    pm_free(l);
}
