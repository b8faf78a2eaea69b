/*
 * Rolling manifest files, manifest lists and ManifestFileMerger (manifest_write.h).
 */
#include "meta/manifest_write.h"

#include <string.h>

#include "data/binary_row.h"
#include "data/datum_compare.h"
#include "format/avro/avro_container.h"
#include "format/avro/avro_schema.h"
#include "meta/file_entry.h"
#include "meta/manifest_orc.h"
#include "meta/paths.h"
#include "util/alloc.h"
#include "util/error.h"

#define ROLLING_CHECK_RECORDS 1000 /* Java's RollingFileWriter.CHECK_ROLLING_RECORD_CNT */

void pm_meta_vec_free(pm_meta_vec *v)
{
    pm_free(v->items);
    v->items = NULL;
    v->count = v->cap = 0;
}

int pm_meta_vec_push(pm_meta_vec *v, const pm_manifest_file_meta *m)
{
    if (v->count == v->cap) {
        size_t cap = v->cap == 0 ? 16 : v->cap * 2;
        pm_manifest_file_meta *items = pm_realloc(v->items, cap * sizeof(*items));
        if (items == NULL)
            return PAIMON_ENOMEM;
        v->items = items;
        v->cap = cap;
    }
    v->items[v->count++] = *m;
    return 0;
}

/* ---- deep copies ----------------------------------------------------------------------- */

static int copy_bytes(pm_arena *a, pm_avro_bytes *dst, const pm_avro_bytes *src)
{
    dst->len = src->len;
    dst->ptr = NULL;
    if (src->ptr == NULL)
        return 0;
    dst->ptr = pm_arena_dup(a, src->ptr, src->len);
    return dst->ptr == NULL ? PAIMON_ENOMEM : 0;
}

static int copy_str(pm_arena *a, const char **dst, const char *src)
{
    *dst = NULL;
    if (src == NULL)
        return 0;
    *dst = pm_arena_strndup(a, src, strlen(src));
    return *dst == NULL ? PAIMON_ENOMEM : 0;
}

static int copy_str_array(pm_arena *a, pm_avro_array *dst, const pm_avro_array *src)
{
    const char **items;
    *dst = *src;
    if (src->count == 0)
        return 0;
    if ((items = pm_arena_alloc(a, src->count * sizeof(char *))) == NULL)
        return PAIMON_ENOMEM;
    for (size_t i = 0; i < src->count; i++)
        if (copy_str(a, &items[i], ((const char *const *)src->items)[i]) != 0)
            return PAIMON_ENOMEM;
    dst->items = (void *)items;
    return 0;
}

static int copy_stats(pm_arena *a, pm_simple_stats *dst, const pm_simple_stats *src)
{
    *dst = *src;
    if (copy_bytes(a, &dst->min_values, &src->min_values) != 0 ||
        copy_bytes(a, &dst->max_values, &src->max_values) != 0)
        return PAIMON_ENOMEM;
    if (src->null_counts.count > 0) {
        dst->null_counts.items =
            pm_arena_dup(a, src->null_counts.items, src->null_counts.count * sizeof(int64_t));
        if (dst->null_counts.items == NULL)
            return PAIMON_ENOMEM;
    }
    return 0;
}

int pm_manifest_entry_copy(pm_arena *a, pm_manifest_entry *dst, const pm_manifest_entry *src)
{
    const pm_data_file_meta *s = &src->file;
    pm_data_file_meta *d = &dst->file;
    *dst = *src;
    if (copy_bytes(a, &dst->partition, &src->partition) != 0 ||
        copy_str(a, &d->file_name, s->file_name) != 0 ||
        copy_bytes(a, &d->min_key, &s->min_key) != 0 ||
        copy_bytes(a, &d->max_key, &s->max_key) != 0 ||
        copy_stats(a, &d->key_stats, &s->key_stats) != 0 ||
        copy_stats(a, &d->value_stats, &s->value_stats) != 0 ||
        copy_str_array(a, &d->extra_files, &s->extra_files) != 0 ||
        copy_bytes(a, &d->embedded_file_index, &s->embedded_file_index) != 0 ||
        copy_str_array(a, &d->value_stats_cols, &s->value_stats_cols) != 0 ||
        copy_str(a, &d->external_path, s->external_path) != 0 ||
        copy_str_array(a, &d->write_cols, &s->write_cols) != 0)
        return PAIMON_ENOMEM;
    return 0;
}

/* ---- partition statistics -------------------------------------------------------------- */

#define MAX_PARTITION_FIELDS 64

typedef struct part_stats {
    size_t n;
    pm_datum min[MAX_PARTITION_FIELDS];
    pm_datum max[MAX_PARTITION_FIELDS];
    int64_t nulls[MAX_PARTITION_FIELDS];
} part_stats;

static void stats_init(part_stats *st, size_t n)
{
    st->n = n;
    for (size_t i = 0; i < n; i++) {
        st->min[i] = pm_datum_null();
        st->max[i] = pm_datum_null();
        st->nulls[i] = 0;
    }
}

/* Adds one partition row (manifest-serialized).  Datum bytes point into the row. */
PM_MUST_CHECK static int stats_add(part_stats *st, const pm_type *const *types,
                                   const pm_avro_bytes *part, paimon_error *err)
{
    pm_binrow row;
    int rc;
    if (st->n == 0)
        return 0;
    if ((rc = pm_binrow_deserialize(&row, part->ptr, part->len, err)) != 0)
        return rc;
    if ((size_t)row.arity != st->n)
        return pm_corrupt(err, "partition row has %d fields, the table %zu", (int)row.arity, st->n);
    for (size_t i = 0; i < st->n; i++) {
        pm_datum v;
        if ((rc = pm_binrow_get(&row, (int32_t)i, types[i], &v, err)) != 0)
            return rc;
        if (v.is_null) {
            st->nulls[i]++;
            continue;
        }
        if (st->min[i].is_null || pm_datum_compare(types[i], &v, &st->min[i]) < 0)
            st->min[i] = v;
        if (st->max[i].is_null || pm_datum_compare(types[i], &v, &st->max[i]) > 0)
            st->max[i] = v;
    }
    return 0;
}

PM_MUST_CHECK static int stats_finish(const part_stats *st, const pm_type *const *types,
                                      pm_arena *a, pm_simple_stats *out, paimon_error *err)
{
    pm_buf b;
    int rc = 0;
    int64_t *nulls = NULL;
    pm_buf_init(&b, 0);
    memset(out, 0, sizeof(*out));
    if ((rc = pm_binrow_serialize(&b, types, st->min, (int32_t)st->n)) != 0) {
        rc = pm_buf_error(err, rc);
        goto done;
    }
    if ((out->min_values.ptr = pm_arena_dup(a, b.data, b.len)) == NULL)
        goto nomem;
    out->min_values.len = b.len;
    pm_buf_reset(&b);
    if ((rc = pm_binrow_serialize(&b, types, st->max, (int32_t)st->n)) != 0) {
        rc = pm_buf_error(err, rc);
        goto done;
    }
    if ((out->max_values.ptr = pm_arena_dup(a, b.data, b.len)) == NULL)
        goto nomem;
    out->max_values.len = b.len;
    if ((nulls = pm_arena_alloc(a, (st->n + 1) * sizeof(int64_t))) == NULL)
        goto nomem;
    memcpy(nulls, st->nulls, st->n * sizeof(int64_t));
    out->null_counts.items = nulls;
    out->null_counts.count = st->n;
    out->null_counts.present = true;
    goto done;
nomem:
    rc = pm_nomem(err);
done:
    pm_buf_free(&b);
    return rc;
}

/* ---- rolling manifest writer ----------------------------------------------------------- */

typedef struct one_file {
    pm_avro_writer w;
    pm_buf sink;
    pm_buf orc_entries; /* ORC manifests: the entries, encoded when the file closes */
    bool open;
    part_stats st;
    pm_manifest_file_meta meta;
} one_file;

PM_MUST_CHECK static int file_open(pm_manifest_ctx *c, one_file *f, paimon_error *err)
{
    pm_buf schema;
    int rc;
    pm_buf_init(&f->sink, 0);
    pm_buf_init(&f->orc_entries, 0);
    pm_buf_init(&schema, 0);
    if ((rc = pm_avro_schema_json(&PM_MANIFEST_ENTRY_DESC, &schema)) != 0) {
        pm_buf_free(&schema);
        return pm_buf_error(err, rc);
    }
    rc = pm_avro_writer_open(&f->w, pm_buf_cstr(&schema), c->codec, c->level, &f->sink, NULL, err);
    pm_buf_free(&schema);
    if (rc != 0) {
        pm_avro_writer_abort(&f->w);
        pm_buf_free(&f->sink);
        return rc;
    }
    f->open = true;
    stats_init(&f->st, c->partition_count);
    memset(&f->meta, 0, sizeof(f->meta));
    f->meta.version = PM_MANIFEST_LIST_VERSION;
    f->meta.schema_id = -1;
    return 0;
}

static void file_abort(one_file *f)
{
    if (f->open)
        pm_avro_writer_abort(&f->w);
    pm_buf_free(&f->sink);
    pm_buf_free(&f->orc_entries);
    f->open = false;
}

PM_MUST_CHECK static int file_add(pm_manifest_ctx *c, one_file *f, const pm_manifest_entry *e,
                                  paimon_error *err)
{
    pm_manifest_file_meta *m = &f->meta;
    pm_manifest_entry copy = *e;
    int rc;
    copy.version = PM_MANIFEST_VERSION;
    /* ORC files are encoded at close; the Avro encoding still sizes the rolling (entries are
     * borrowed for the whole call, so a shallow copy is enough) */
    if (c->format == PM_MANIFEST_ORC &&
        (rc = pm_buf_append(&f->orc_entries, &copy, sizeof(copy))) != 0)
        return pm_buf_error(err, rc);
    if ((rc = pm_avro_encode(&PM_MANIFEST_ENTRY_DESC, &copy, pm_avro_writer_object(&f->w))) != 0)
        return pm_buf_error(err, rc);
    if ((rc = pm_avro_writer_end_object(&f->w, err)) != 0)
        return rc;
    if (e->kind == PM_FILE_KIND_ADD)
        m->num_added_files++;
    else
        m->num_deleted_files++;
    if ((rc = stats_add(&f->st, c->partition_types, &e->partition, err)) != 0)
        return rc;
    if (e->file.schema_id > m->schema_id)
        m->schema_id = e->file.schema_id;
    if (!m->has_min_bucket || e->bucket < m->min_bucket)
        m->min_bucket = e->bucket;
    if (!m->has_max_bucket || e->bucket > m->max_bucket)
        m->max_bucket = e->bucket;
    if (!m->has_min_level || e->file.level < m->min_level)
        m->min_level = e->file.level;
    if (!m->has_max_level || e->file.level > m->max_level)
        m->max_level = e->file.level;
    m->has_min_bucket = m->has_max_bucket = m->has_min_level = m->has_max_level = true;
    return 0;
}

/* Writes the finished file under a fresh name and appends its meta. */
PM_MUST_CHECK static int file_close(pm_manifest_ctx *c, one_file *f, pm_arena *arena,
                                    pm_meta_vec *out, paimon_error *err)
{
    pm_buf name;
    char *path = NULL;
    int rc;
    f->open = false;
    if ((rc = pm_avro_writer_close(&f->w, err)) != 0) {
        pm_buf_free(&f->sink);
        pm_buf_free(&f->orc_entries);
        return rc;
    }
    if (c->format == PM_MANIFEST_ORC) {
        pm_buf_reset(&f->sink);
        rc = pm_manifest_orc_encode(&PM_MANIFEST_ENTRY_DESC, f->orc_entries.data,
                                    f->orc_entries.len / sizeof(pm_manifest_entry), c->codec,
                                    c->level, &f->sink, err);
        pm_buf_free(&f->orc_entries);
        if (rc != 0) {
            pm_buf_free(&f->sink);
            return rc;
        }
    }
    pm_buf_init(&name, 0);
    if ((rc = pm_path_factory_next(c->names, PM_NAME_MANIFEST, NULL, NULL, &name)) != 0) {
        rc = pm_buf_error(err, rc);
        goto done;
    }
    if ((path = pm_table_file(c->table, PM_DIR_MANIFEST, pm_buf_cstr(&name))) == NULL ||
        pm_strlist_push(&c->written, path) != 0) {
        rc = pm_nomem(err);
        goto done;
    }
    if ((rc = pm_fs_write_file(c->fs, path, f->sink.data, f->sink.len, err)) != 0)
        goto done;
    f->meta.file_name = pm_arena_strndup(arena, (const char *)name.data, name.len);
    f->meta.file_size = (int64_t)f->sink.len;
    if (f->meta.schema_id < 0)
        f->meta.schema_id = c->schema_id;
    if (f->meta.file_name == NULL || (rc = stats_finish(&f->st, c->partition_types, arena,
                                                        &f->meta.partition_stats, err)) != 0) {
        rc = rc != 0 ? rc : pm_nomem(err);
        goto done;
    }
    if (pm_meta_vec_push(out, &f->meta) != 0)
        rc = pm_nomem(err);
done:
    pm_free(path);
    pm_buf_free(&name);
    pm_buf_free(&f->sink);
    return rc;
}

int pm_manifest_write_rolling(pm_manifest_ctx *c, const pm_manifest_entry *const *entries,
                              size_t count, pm_arena *arena, pm_meta_vec *out, paimon_error *err)
{
    one_file f;
    size_t in_file = 0;
    int rc = 0;
    f.open = false;
    pm_buf_init(&f.sink, 0);
    if (c->partition_count > MAX_PARTITION_FIELDS)
        return pm_err_set(err, PAIMON_EUNSUPPORTED, "more than %d partition columns",
                          MAX_PARTITION_FIELDS);
    for (size_t i = 0; i < count; i++) {
        if (!f.open && (rc = file_open(c, &f, err)) != 0)
            return rc;
        if ((rc = file_add(c, &f, entries[i], err)) != 0)
            goto done;
        /* Java checks the flushed length every 1000 records. */
        if (++in_file % ROLLING_CHECK_RECORDS == 0 && (int64_t)f.sink.len >= c->target_size) {
            if ((rc = file_close(c, &f, arena, out, err)) != 0)
                return rc;
            in_file = 0;
        }
    }
    if (f.open)
        return file_close(c, &f, arena, out, err);
    return 0;
done:
    file_abort(&f);
    return rc;
}

PM_MUST_CHECK static int write_named(pm_manifest_ctx *c, pm_file_kind_name kind,
                                     const pm_avro_rdesc *rd, const void *records, size_t count,
                                     pm_arena *arena, const char **name_out, int64_t *size,
                                     paimon_error *err)
{
    pm_buf name;
    char *path;
    int64_t sz = 0;
    int rc;
    pm_buf_init(&name, 0);
    if ((rc = pm_path_factory_next(c->names, kind, NULL, NULL, &name)) != 0) {
        pm_buf_free(&name);
        return pm_buf_error(err, rc);
    }
    path = pm_table_file(c->table, PM_DIR_MANIFEST, pm_buf_cstr(&name));
    if (path == NULL || pm_strlist_push(&c->written, path) != 0) {
        pm_free(path);
        pm_buf_free(&name);
        return pm_nomem(err);
    }
    pm_free(path);
    if (c->format == PM_MANIFEST_ORC)
        rc = pm_manifest_file_write_format(c->fs, c->table, pm_buf_cstr(&name), c->format, rd,
                                           records, count, c->codec, c->level, &sz, err);
    else
        rc = pm_manifest_file_write(c->fs, c->table, pm_buf_cstr(&name), rd, records, count,
                                    c->codec, c->level, &sz, err);
    if (rc == 0 && (*name_out = pm_arena_strndup(arena, (const char *)name.data, name.len)) == NULL)
        rc = pm_nomem(err);
    if (size != NULL)
        *size = sz;
    pm_buf_free(&name);
    return rc;
}

int pm_manifest_list_write(pm_manifest_ctx *c, const pm_manifest_file_meta *metas, size_t count,
                           pm_arena *arena, const char **name, int64_t *size, paimon_error *err)
{
    return write_named(c, PM_NAME_MANIFEST_LIST, &PM_MANIFEST_FILE_META_DESC, metas, count, arena,
                       name, size, err);
}

int pm_index_manifest_write(pm_manifest_ctx *c, const pm_index_manifest_entry *entries,
                            size_t count, pm_arena *arena, const char **name, paimon_error *err)
{
    return write_named(c, PM_NAME_INDEX_MANIFEST, &PM_INDEX_MANIFEST_ENTRY_DESC, entries, count,
                       arena, name, NULL, err);
}

/* ---- identity map (FileEntry.mergeEntries' LinkedHashMap) ------------------------------ */

typedef pm_file_set id_map;

#define TOMB SIZE_MAX

void pm_file_set_free(pm_file_set *m)
{
    pm_free(m->order);
    pm_free(m->slots);
    memset(m, 0, sizeof(*m));
}

static int map_rehash(id_map *m)
{
    size_t cap = m->cap == 0 ? 256 : m->cap * 2;
    size_t *slots = pm_calloc(cap, sizeof(size_t));
    if (slots == NULL)
        return PAIMON_ENOMEM;
    m->used = 0;
    for (size_t i = 0; i < m->order_count; i++) {
        size_t j;
        if (m->order[i] == NULL)
            continue;
        j = pm_file_identity_hash(m->order[i]) & (cap - 1);
        while (slots[j] != 0)
            j = (j + 1) & (cap - 1);
        slots[j] = i + 1;
        m->used++;
    }
    pm_free(m->slots);
    m->slots = slots;
    m->cap = cap;
    return 0;
}

/* The slot holding `e`'s identity, or SIZE_MAX-1 when absent. */
static size_t map_find(const id_map *m, const pm_manifest_entry *e);
static void map_free(id_map *m)
{
    pm_file_set_free(m);
}

static size_t map_find(const id_map *m, const pm_manifest_entry *e)
{
    size_t j;
    if (m->cap == 0)
        return SIZE_MAX - 1;
    j = pm_file_identity_hash(e) & (m->cap - 1);
    while (m->slots[j] != 0) {
        if (m->slots[j] != TOMB && pm_file_identity_equal(m->order[m->slots[j] - 1], e))
            return j;
        j = (j + 1) & (m->cap - 1);
    }
    return SIZE_MAX - 1;
}

static int map_put(id_map *m, const pm_manifest_entry *e)
{
    size_t j;
    if ((m->used + 1) * 2 > m->cap && map_rehash(m) != 0)
        return PAIMON_ENOMEM;
    if (m->order_count == m->order_cap) {
        size_t cap = m->order_cap == 0 ? 256 : m->order_cap * 2;
        const pm_manifest_entry **o = pm_realloc(m->order, cap * sizeof(*o));
        if (o == NULL)
            return PAIMON_ENOMEM;
        m->order = o;
        m->order_cap = cap;
    }
    m->order[m->order_count++] = e;
    j = pm_file_identity_hash(e) & (m->cap - 1);
    while (m->slots[j] != 0 && m->slots[j] != TOMB)
        j = (j + 1) & (m->cap - 1);
    m->slots[j] = m->order_count;
    m->used++;
    return 0;
}

bool pm_file_set_contains(const pm_file_set *s, const pm_manifest_entry *e)
{
    return map_find(s, e) != SIZE_MAX - 1;
}

int pm_file_set_add(pm_file_set *s, const pm_manifest_entry *e)
{
    return map_put(s, e);
}

bool pm_file_set_remove(pm_file_set *s, const pm_manifest_entry *e)
{
    size_t j = map_find(s, e);
    if (j == SIZE_MAX - 1)
        return false;
    s->order[s->slots[j] - 1] = NULL;
    s->slots[j] = TOMB;
    return true;
}

/* FileEntry.mergeEntries: ADD of a held identity is an error; DELETE of a held identity
 * cancels both; DELETE of an unknown identity is kept. */
PM_MUST_CHECK static int map_merge(id_map *m, const pm_manifest_entry *e, paimon_error *err)
{
    size_t j = map_find(m, e);
    if (j != SIZE_MAX - 1) {
        if (e->kind == PM_FILE_KIND_ADD)
            return pm_err_set(err, PAIMON_ECONFLICT,
                              "Trying to add file %s which is already added.", e->file.file_name);
        m->order[m->slots[j] - 1] = NULL;
        m->slots[j] = TOMB;
        return 0;
    }
    return map_put(m, e) != 0 ? pm_nomem(err) : 0;
}

/* ---- ManifestFileMerger ---------------------------------------------------------------- */

PM_MUST_CHECK static int read_entries(pm_manifest_ctx *c, const pm_manifest_file_meta *m,
                                      pm_arena *arena, pm_manifest_entry **entries, size_t *count,
                                      paimon_error *err)
{
    return pm_manifest_read(c->fs, c->table, m->file_name, m->file_size, arena, entries, count,
                            err);
}

PM_MUST_CHECK static int merge_candidates(pm_manifest_ctx *c, const pm_manifest_file_meta *cand,
                                          size_t n, pm_arena *arena, pm_meta_vec *out,
                                          paimon_error *err)
{
    id_map map = {0};
    const pm_manifest_entry **live = NULL;
    size_t live_count = 0;
    int rc = 0;
    if (n == 1)
        return pm_meta_vec_push(out, &cand[0]) != 0 ? pm_nomem(err) : 0;
    for (size_t i = 0; i < n; i++) {
        pm_manifest_entry *es;
        size_t ec;
        if ((rc = read_entries(c, &cand[i], arena, &es, &ec, err)) != 0)
            goto done;
        for (size_t k = 0; k < ec; k++)
            if ((rc = map_merge(&map, &es[k], err)) != 0)
                goto done;
    }
    if ((live = pm_malloc((map.order_count + 1) * sizeof(*live))) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < map.order_count; i++)
        if (map.order[i] != NULL)
            live[live_count++] = map.order[i];
    if (live_count > 0)
        rc = pm_manifest_write_rolling(c, live, live_count, arena, out, err);
done:
    pm_free(live);
    map_free(&map);
    return rc;
}

PM_MUST_CHECK static int minor_compaction(pm_manifest_ctx *c, const pm_manifest_file_meta *in,
                                          size_t count, int64_t min_count, pm_arena *arena,
                                          pm_meta_vec *out, paimon_error *err)
{
    size_t start = 0;
    int64_t total = 0;
    int rc;
    for (size_t i = 0; i < count; i++) {
        total += in[i].file_size;
        if (total >= c->target_size) {
            if ((rc = merge_candidates(c, &in[start], i + 1 - start, arena, out, err)) != 0)
                return rc;
            start = i + 1;
            total = 0;
        }
    }
    if ((int64_t)(count - start) >= min_count)
        return merge_candidates(c, &in[start], count - start, arena, out, err);
    for (size_t i = start; i < count; i++)
        if (pm_meta_vec_push(out, &in[i]) != 0)
            return pm_nomem(err);
    return 0;
}

static bool must_change(const pm_manifest_ctx *c, const pm_manifest_file_meta *m)
{
    return m->num_deleted_files > 0 || m->file_size < c->target_size;
}

/* Decodes field `i` of a stats row; null datum when the row has no value. */
PM_MUST_CHECK static int stat_field(const pm_avro_bytes *b, const pm_type *t, size_t i,
                                    pm_datum *out, paimon_error *err)
{
    pm_binrow row;
    int rc;
    *out = pm_datum_null();
    if (b->ptr == NULL)
        return 0;
    if ((rc = pm_binrow_deserialize(&row, b->ptr, b->len, err)) != 0)
        return rc;
    if ((size_t)row.arity <= i)
        return 0;
    return pm_binrow_get(&row, (int32_t)i, t, out, err);
}

/* MultiplePartitionPredicate.test on a manifest's partition statistics: per field, the
 * manifest's range must meet the deleted partitions' range (or both hold nulls). */
PM_MUST_CHECK static int may_hold_deleted(const pm_manifest_ctx *c, const part_stats *del,
                                          size_t del_count, const pm_manifest_file_meta *m,
                                          bool *out, paimon_error *err)
{
    const pm_simple_stats *ps = &m->partition_stats;
    int rc;
    *out = true;
    for (size_t i = 0; i < c->partition_count; i++) {
        const pm_type *t = c->partition_types[i];
        pm_datum mn, mx;
        int64_t mnull = 1; /* unknown null count: assume nulls may be there */
        bool ge, le;
        if (ps->null_counts.present && i < ps->null_counts.count &&
            ((int64_t *)ps->null_counts.items)[i] != PM_AVRO_NULL_LONG)
            mnull = ((int64_t *)ps->null_counts.items)[i];
        if ((rc = stat_field(&ps->min_values, t, i, &mn, err)) != 0 ||
            (rc = stat_field(&ps->max_values, t, i, &mx, err)) != 0)
            return rc;
        if ((size_t)del->nulls[i] == del_count) {
            ge = le = mnull > 0;
        } else {
            ge = !mx.is_null && pm_datum_compare(t, &mx, &del->min[i]) >= 0;
            le = !mn.is_null && pm_datum_compare(t, &mn, &del->max[i]) <= 0;
            if (del->nulls[i] > 0) {
                ge |= mnull > 0;
                le |= mnull > 0;
            }
        }
        if (!ge || !le) {
            *out = false;
            return 0;
        }
    }
    return 0;
}

PM_MUST_CHECK static int full_compaction(pm_manifest_ctx *c, const pm_manifest_file_meta *in,
                                         size_t count, int64_t size_trigger, pm_arena *arena,
                                         pm_meta_vec *out, bool *done_out, paimon_error *err)
{
    id_map deleted = {0};
    part_stats del_parts;
    size_t del_part_count = 0;
    pm_meta_vec result = {0};
    bool *merge = NULL;
    size_t merge_count = 0;
    const pm_manifest_entry **survivors = NULL;
    size_t surv_count = 0, surv_cap = 0;
    int64_t delta_size = 0;
    int rc = 0;

    *done_out = false;
    for (size_t i = 0; i < count; i++)
        if (must_change(c, &in[i]))
            delta_size += in[i].file_size;
    if (delta_size < size_trigger)
        return 0;
    /* 1. identities of every DELETE entry, and the range of their partitions */
    stats_init(&del_parts, c->partition_count);
    for (size_t i = 0; i < count; i++) {
        pm_manifest_entry *es;
        size_t ec;
        if (in[i].num_deleted_files == 0)
            continue;
        if ((rc = read_entries(c, &in[i], arena, &es, &ec, err)) != 0)
            goto done;
        for (size_t k = 0; k < ec; k++) {
            if (es[k].kind != PM_FILE_KIND_DELETE || map_find(&deleted, &es[k]) != SIZE_MAX - 1)
                continue;
            if (map_put(&deleted, &es[k]) != 0) {
                rc = pm_nomem(err);
                goto done;
            }
            del_part_count++;
            if ((rc = stats_add(&del_parts, c->partition_types, &es[k].partition, err)) != 0)
                goto done;
        }
    }
    /* 2. manifests that need no change and cannot hold a deleted file stay as they are */
    if ((merge = pm_calloc(count + 1, sizeof(bool))) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < count; i++) {
        bool may = deleted.used > 0; /* no deletes: ALWAYS_FALSE */
        if (!must_change(c, &in[i]) && may && c->partition_count > 0 &&
            (rc = may_hold_deleted(c, &del_parts, del_part_count, &in[i], &may, err)) != 0)
            goto done;
        if (!must_change(c, &in[i]) && !may) {
            if (pm_meta_vec_push(&result, &in[i]) != 0) {
                rc = pm_nomem(err);
                goto done;
            }
        } else {
            merge[i] = true;
            merge_count++;
        }
    }
    if (merge_count <= 1)
        goto done; /* minor compaction instead */
    /* 3. rewrite the manifests that change with their surviving ADD entries */
    for (size_t i = 0; i < count; i++) {
        pm_manifest_entry *es;
        size_t ec, first = surv_count;
        bool change;
        if (!merge[i])
            continue;
        change = must_change(c, &in[i]);
        if ((rc = read_entries(c, &in[i], arena, &es, &ec, err)) != 0)
            goto done;
        for (size_t k = 0; k < ec; k++) {
            if (es[k].kind == PM_FILE_KIND_DELETE)
                continue;
            if (map_find(&deleted, &es[k]) != SIZE_MAX - 1) {
                change = true;
                continue;
            }
            if (surv_count == surv_cap) {
                size_t cap = surv_cap == 0 ? 1024 : surv_cap * 2;
                const pm_manifest_entry **s = pm_realloc(survivors, cap * sizeof(*s));
                if (s == NULL) {
                    rc = pm_nomem(err);
                    goto done;
                }
                survivors = s;
                surv_cap = cap;
            }
            survivors[surv_count++] = &es[k];
        }
        if (!change) {
            surv_count = first; /* kept as it is */
            if (pm_meta_vec_push(&result, &in[i]) != 0) {
                rc = pm_nomem(err);
                goto done;
            }
        }
    }
    if (surv_count > 0 &&
        (rc = pm_manifest_write_rolling(c, survivors, surv_count, arena, &result, err)) != 0)
        goto done;
    for (size_t i = 0; i < result.count; i++)
        if (pm_meta_vec_push(out, &result.items[i]) != 0) {
            rc = pm_nomem(err);
            goto done;
        }
    *done_out = true;
done:
    pm_free(survivors);
    pm_free(merge);
    pm_meta_vec_free(&result);
    map_free(&deleted);
    return rc;
}

int pm_manifest_merge(pm_manifest_ctx *c, const pm_manifest_file_meta *in, size_t count,
                      int64_t merge_min_count, int64_t full_compaction_size, pm_arena *arena,
                      pm_meta_vec *out, paimon_error *err)
{
    bool done = false;
    int rc = full_compaction(c, in, count, full_compaction_size, arena, out, &done, err);
    if (rc != 0 || done)
        return rc;
    return minor_compaction(c, in, count, merge_min_count, arena, out, err);
}
