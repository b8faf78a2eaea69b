/* The shared context of a table write: see write_ctx.h. */
#include "table/write/write_ctx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "data/binary_row.h"
#include "meta/file_path.h"
#include "table/feature_check.h"
#include "util/alloc.h"
#include "util/error.h"
#include "util/strlist.h"
#include "util/units.h"

#define SPILL_BLOCK 524288 /* bytes: the row groups of spill files (see spill_opts) */

int pm_write_bucket_dir(const pm_write_ctx *c, const uint8_t *partition, size_t partition_len,
                        int32_t bucket, pm_buf *out, paimon_error *err)
{
    pm_binrow row;
    int rc;
    if ((rc = pm_binrow_deserialize(&row, partition, partition_len, err)) != 0)
        return rc;
    return pm_file_path_bucket_dir(c->table, c->opts, c->part_fields, c->part_count, &row,
                                   &c->naming, bucket, out, err);
}

/* One "LEVEL:VALUE" item of a per-level map option ("0:avro, 3:parquet"). */
typedef struct level_item {
    int32_t level;
    const char *value;
    size_t value_len;
} level_item;

/* Calls fn(arg, item) for each item of the per-level option `key` (none when unset), read
 * as Java reads the map (util/units.h) with Integer.valueOf levels. */
PM_MUST_CHECK static int each_level_item(const pm_options *o, const char *key,
                                         int (*fn)(void *arg, const level_item *item,
                                                   paimon_error *err),
                                         void *arg, paimon_error *err)
{
    const char *v = pm_options_get(o, key);
    pm_strlist pairs;
    int rc = 0;
    if (v == NULL)
        return 0;
    pm_strlist_init(&pairs);
    if ((rc = pm_parse_map(v, &pairs)) != 0) {
        rc = rc == PAIMON_ENOMEM ? pm_nomem(err)
                                 : pm_err_set(err, PAIMON_EINVALID,
                                              "option %s: '%s' is not a map of levels (e.g. "
                                              "'0:avro,3:parquet')",
                                              key, v);
        goto done;
    }
    for (size_t i = 0; i < pairs.count && rc == 0; i += 2) {
        level_item item = {0, pairs.items[i + 1], strlen(pairs.items[i + 1])};
        if (pm_parse_int32(pairs.items[i], &item.level) != 0) {
            rc = pm_err_set(err, PAIMON_EINVALID, "option %s: level '%s' is not a number", key,
                            pairs.items[i]);
            goto done;
        }
        rc = fn(arg, &item, err);
    }
done:
    pm_strlist_free(&pairs);
    return rc;
}

typedef struct level_lookup {
    int32_t level;
    char *buf;
    size_t cap;
    const char *found;
} level_lookup;

PM_MUST_CHECK static int lookup_item(void *arg, const level_item *item, paimon_error *err)
{
    level_lookup *l = arg;
    (void)err;
    if (item->level != l->level || item->value_len >= l->cap)
        return 0;
    memcpy(l->buf, item->value, item->value_len);
    l->buf[item->value_len] = '\0';
    l->found = l->buf;
    return 0;
}

/* The value the per-level option `key` gives `level` (the last one listed), into buf; NULL
 * when it lists none or level is -1. */
static const char *level_value(const pm_options *o, const char *key, int32_t level, char *buf,
                               size_t cap)
{
    level_lookup l = {level, buf, cap, NULL};
    if (level < 0)
        return NULL;
    /* the items were validated by collect_levels() */
    PM_IGNORE(each_level_item(o, key, lookup_item, &l, NULL));
    return l.found;
}

typedef struct level_set {
    int32_t levels[PM_WRITE_MAX_LEVEL_SETTINGS];
    size_t count;
    const char *key;
} level_set;

PM_MUST_CHECK static int collect_item(void *arg, const level_item *item, paimon_error *err)
{
    level_set *set = arg;
    for (size_t i = 0; i < set->count; i++)
        if (set->levels[i] == item->level)
            return 0;
    if (set->count == PM_WRITE_MAX_LEVEL_SETTINGS)
        return pm_err_set(err, PAIMON_ELIMIT, "option %s: more than %d levels", set->key,
                          PM_WRITE_MAX_LEVEL_SETTINGS - 1);
    set->levels[set->count++] = item->level;
    return 0;
}

PM_MUST_CHECK static int unsupported(paimon_error *err, const char *what)
{
    return pm_err_set(err, PAIMON_EUNSUPPORTED, "%s", what);
}

/* Refuses what this writer cannot write as Java would (behaviour.md §5.1). */
PM_MUST_CHECK static int check_supported(const pm_schema *s, bool pk, int64_t bucket,
                                         paimon_error *err)
{
    const pm_options *o = &s->options;
    (void)pk;
    if (bucket == -2)
        return unsupported(err, "postpone buckets (bucket = -2) cannot be written by paimon-c yet: "
                                "their files wait for a compaction job that moves them into real "
                                "buckets");
    if (bucket == 0 || bucket < -2)
        return pm_err_set(err, PAIMON_EINVALID, "bucket = %lld is not a valid bucket number",
                          (long long)bucket);
    /* deletion vectors, first-row, changelog-producer = lookup and force-lookup compact with
     * lookups at every commit (compact_task.h), as Java's writers do */
    if (pm_options_is(o, "bucket-function.type", "hive"))
        return unsupported(err, "bucket-function.type = hive is not supported yet");
    if (pm_options_get(o, "data-file.external-paths") != NULL)
        return unsupported(err, "data-file.external-paths is not supported yet");
    if (pm_options_is(o, "row-tracking.enabled", "true") ||
        pm_options_is(o, "data-evolution.enabled", "true"))
        return unsupported(err, "row tracking and data evolution are not supported yet");
    /* the commit could not publish the files: refuse before writing any (commit.c) */
    if (pm_options_get(o, "manifest.format") != NULL &&
        !pm_options_is(o, "manifest.format", "avro") && !pm_options_is(o, "manifest.format", "orc"))
        return pm_err_set(err, PAIMON_EUNSUPPORTED,
                          "manifest.format=%s: only Avro and ORC manifests can be written",
                          pm_options_get(o, "manifest.format"));
    return 0;
}

PM_MUST_CHECK static int field_index(const pm_type *row, const char *name, paimon_error *err)
{
    size_t idx;
    if (pm_type_field_by_name(row, name, &idx) == NULL)
        return pm_err_set(err, PAIMON_ECORRUPT, "schema: no column %s", name);
    return (int)idx;
}

/* changelog-producer.row-deduplicate (Java KeyValueFileStore's logDedupEqualSupplier): the
 * value columns an unchanged row is recognised by, every column but the ignored ones. */
PM_MUST_CHECK static int changelog_compare(pm_write_ctx *c, const pm_schema *s, paimon_error *err)
{
    const pm_options *o = &s->options;
    const char *p = pm_options_get(o, "changelog-producer.row-deduplicate-ignore-fields");
    bool dedup = false;
    int rc;
    if ((rc = pm_options_get_bool(o, "changelog-producer.row-deduplicate", &dedup, err)) != 0)
        return rc;
    if (!dedup)
        return 0;
    if ((c->changelog_compare = pm_calloc(s->row->field_count + 1, sizeof(bool))) == NULL)
        return pm_nomem(err);
    for (size_t i = 0; i < s->row->field_count; i++)
        c->changelog_compare[i] = true;
    while (p != NULL && *p != '\0') {
        const char *comma = strchr(p, ',');
        size_t len = comma != NULL ? (size_t)(comma - p) : strlen(p);
        char name[256];
        size_t idx;
        while (len > 0 && (*p == ' ' || *p == '\t'))
            p++, len--;
        while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\t'))
            len--;
        if (len >= sizeof(name))
            return pm_err_set(err, PAIMON_EINVALID,
                              "changelog-producer.row-deduplicate-ignore-fields: name too long");
        memcpy(name, p, len);
        name[len] = '\0';
        /* Java's equaliser compares by name: a name of no column ignores nothing */
        if (len > 0 && pm_type_field_by_name(s->row, name, &idx) != NULL)
            c->changelog_compare[idx] = false;
        p = comma != NULL ? comma + 1 : NULL;
    }
    return 0;
}

static int add_field(pm_type *row, int32_t id, const char *name, const pm_type *t)
{
    pm_type *copy = pm_type_clone(t);
    if (copy == NULL)
        return PAIMON_ENOMEM;
    return pm_type_row_add(row, id, name, copy);
}

/* The data-file layout (write_ctx.h). */
PM_MUST_CHECK static int build_file_type(pm_write_ctx *c, bool thin, paimon_error *err)
{
    const pm_type *v = c->value_type;
    pm_type seq = {.id = PM_TYPE_BIGINT, .nullable = false};
    pm_type kind = {.id = PM_TYPE_TINYINT, .nullable = false};
    size_t keys = 0;
    int rc = 0;
    if ((c->file_type = pm_type_new(PM_TYPE_ROW)) == NULL)
        return pm_nomem(err);
    c->file_type->nullable = false;
    if (c->primary_key) {
        if (!thin)
            for (size_t k = 0; k < c->key_count && rc == 0; k++) {
                const pm_field *f = &v->fields[c->key_idx[k]];
                char name[600];
                snprintf(name, sizeof(name), "_KEY_%s", f->name);
                rc = add_field(c->file_type, PM_KEY_FIELD_ID_START + f->id, name, f->type);
                keys++;
            }
        if (rc == 0)
            rc = add_field(c->file_type, PM_SEQUENCE_NUMBER_ID, "_SEQUENCE_NUMBER", &seq);
        if (rc == 0)
            rc = add_field(c->file_type, PM_VALUE_KIND_ID, "_VALUE_KIND", &kind);
        c->seq_col = (int)keys;
        c->kind_col = (int)keys + 1;
        c->value_start = keys + 2;
        for (size_t k = 0; k < c->key_count; k++)
            c->file_key_cols[k] = c->file_key_stats[k] =
                thin ? (int)c->value_start + c->key_idx[k] : (int)k;
    }
    for (size_t i = 0; i < v->field_count && rc == 0; i++)
        rc = add_field(c->file_type, v->fields[i].id, v->fields[i].name, v->fields[i].type);
    return rc != 0 ? pm_nomem(err) : 0;
}

PM_MUST_CHECK static int stats_modes(pm_write_ctx *c, const char *mode, pm_stats_source source,
                                     bool thin, pm_stats_mode **out, paimon_error *err)
{
    size_t n = c->file_type->field_count;
    const char **names = pm_calloc(n + 1, sizeof(char *));
    bool *thin_keys = pm_calloc(n + 1, sizeof(bool));
    int rc;
    *out = pm_calloc(n + 1, sizeof(pm_stats_mode));
    if (names == NULL || thin_keys == NULL || *out == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        names[i] = c->file_type->fields[i].name;
    if (thin)
        for (size_t k = 0; k < c->key_count; k++)
            thin_keys[c->file_key_stats[k]] = true;
    rc = pm_stats_modes_for(c->opts, mode, source, names, n, thin_keys, *out, err);
done:
    pm_free(names);
    pm_free(thin_keys);
    return rc;
}

static pm_stats_source source_of(const pm_file_format *f)
{
    switch (f->stats) {
    case PM_FILE_STATS_ROWS: return PM_STATS_FROM_ROWS;
    case PM_FILE_STATS_FOOTER_ORC: return PM_STATS_FROM_ORC;
    default: return PM_STATS_FROM_PARQUET;
    }
}

/* The settings of files at `level` (-1: the levels no per-level option lists). */
PM_MUST_CHECK static int level_settings(pm_write_ctx *c, int32_t level, bool thin,
                                        pm_write_file_settings *st, paimon_error *err)
{
    const pm_options *o = c->opts;
    char fmt[64], codec[64], stats[64];
    const char *format, *changelog_format, *compression, *stats_mode, *v;
    int rc;
    st->level = level;
    format = level_value(o, "file.format.per.level", level, fmt, sizeof(fmt));
    if (format == NULL)
        format = pm_options_get_str(o, "file.format");
    if ((rc = pm_file_format_find(format, &st->format, err)) != 0)
        return rc;
    changelog_format = pm_options_get(o, "changelog-file.format");
    if ((rc = pm_file_format_find(changelog_format != NULL ? changelog_format : format,
                                  &st->changelog_format, err)) != 0)
        return rc;
    compression = level_value(o, "file.compression.per.level", level, codec, sizeof(codec));
    if (compression == NULL)
        compression = pm_options_get_str(o, "file.compression");
    if ((st->codec = pm_strdup(compression)) == NULL)
        return pm_nomem(err);
    v = pm_options_get(o, "changelog-file.compression");
    st->changelog_codec = v != NULL ? v : st->codec;
    stats_mode = level_value(o, "metadata.stats-mode.per.level", level, stats, sizeof(stats));
    if (stats_mode == NULL)
        stats_mode = pm_options_get_str(o, "metadata.stats-mode");
    st->stats_source = source_of(st->format);
    st->changelog_stats_source = source_of(st->changelog_format);
    if ((rc = stats_modes(c, stats_mode, st->stats_source, thin, &st->modes, err)) != 0)
        return rc;
    v = pm_options_get(o, "changelog-file.stats-mode");
    return stats_modes(c, v != NULL ? v : stats_mode, st->changelog_stats_source, thin,
                       &st->changelog_modes, err);
}

/* settings[0] for unlisted levels, then one for each level a per-level option lists. */
PM_MUST_CHECK static int build_settings(pm_write_ctx *c, bool thin, paimon_error *err)
{
    static const char *const KEYS[] = {"file.format.per.level", "file.compression.per.level",
                                       "metadata.stats-mode.per.level"};
    level_set set = {{-1}, 1, NULL};
    int rc;
    for (size_t k = 0; k < sizeof(KEYS) / sizeof(KEYS[0]); k++) {
        set.key = KEYS[k];
        if ((rc = each_level_item(c->opts, KEYS[k], collect_item, &set, err)) != 0)
            return rc;
    }
    for (size_t i = 0; i < set.count; i++) {
        c->settings_count = i + 1; /* released by pm_write_ctx_release, also on failure */
        if ((rc = level_settings(c, set.levels[i], thin, &c->settings[i], err)) != 0)
            return rc;
    }
    return 0;
}

static const pm_write_file_settings *settings_for(const pm_write_ctx *c, int32_t level)
{
    for (size_t i = 1; i < c->settings_count; i++)
        if (c->settings[i].level == level)
            return &c->settings[i];
    return &c->settings[0];
}

int pm_write_ctx_init(pm_write_ctx *c, pm_fs *fs, const char *table, const pm_schema *s,
                      paimon_error *err)
{
    const pm_options *o = &s->options;
    const pm_field *fields[PM_WRITE_MAX_KEYS];
    const char *seq_fields, *v;
    int64_t bucket;
    bool thin = false;
    size_t n;
    int rc;

    memset(c, 0, sizeof(*c));
    pthread_mutex_init(&c->tmp_lock, NULL);
    c->fs = fs;
    c->table = table;
    c->schema = s;
    c->opts = o;
    c->value_type = s->row;
    c->schema_id = s->id;
    c->primary_key = s->primary_keys.count > 0;
    if ((rc = pm_options_get_i64(o, "bucket", &bucket, err)) != 0 ||
        (rc = pm_table_check_write(table, s, err)) != 0 ||
        (rc = check_supported(s, c->primary_key, bucket, err)) != 0)
        return rc;

    /* partitions and keys */
    if ((rc = pm_schema_partition_fields(s, c->part_fields, PM_WRITE_MAX_KEYS, &c->part_count,
                                         err)) != 0 ||
        (rc = pm_partition_naming_from(s, &c->naming, err)) != 0)
        return rc;
    if (c->primary_key) {
        if ((rc = pm_schema_trimmed_pk_fields(s, fields, PM_WRITE_MAX_KEYS, &n, err)) != 0)
            return rc;
        for (size_t k = 0; k < n; k++) {
            int idx = field_index(s->row, fields[k]->name, err);
            if (idx < 0)
                return idx;
            if (pm_type_is_nested(fields[k]->type))
                return unsupported(err, "primary keys of nested types are not supported");
            c->key_idx[c->key_count++] = idx;
        }
        seq_fields = pm_options_get(o, "sequence.field");
        for (const char *p = seq_fields; p != NULL && *p != '\0';) {
            const char *comma = strchr(p, ',');
            size_t len = comma != NULL ? (size_t)(comma - p) : strlen(p);
            char name[512];
            int idx;
            if (len >= sizeof(name) || c->seq_count == PM_WRITE_MAX_KEYS)
                return pm_err_set(err, PAIMON_EINVALID, "sequence.field: too long");
            memcpy(name, p, len);
            name[len] = '\0';
            if ((idx = field_index(s->row, name, err)) < 0)
                return idx;
            c->seq_idx[c->seq_count++] = idx;
            p = comma != NULL ? comma + 1 : NULL;
        }
        c->seq_descending = pm_options_is(o, "sequence.field.sort-order", "descending");
        if ((rc = pm_merge_fn_new(&c->merge, s, s->row, err)) != 0)
            return rc;
        c->changelog_input = pm_options_is(o, "changelog-producer", "input");
        c->changelog_full = pm_options_is(o, "changelog-producer", "full-compaction");
        if ((c->changelog_full || pm_options_is(o, "changelog-producer", "lookup")) &&
            (rc = changelog_compare(c, s, err)) != 0)
            return rc;
        if ((rc = pm_options_get_bool(o, "data-file.thin-mode", &thin, err)) != 0)
            return rc;
    }
    if ((rc = build_file_type(c, thin, err)) != 0)
        return rc;

    /* formats, compression, statistics */
    if ((rc = build_settings(c, thin, err)) != 0)
        return rc;
    c->data_prefix = pm_options_get(o, "data-file.prefix");
    c->changelog_prefix = pm_options_get(o, "changelog-file.prefix");
    /* CoreOptions.targetFileSize(hasPrimaryKey): 128 mb with a primary key, else 256 mb */
    if ((rc = pm_options_get_memory_or(o, "target-file-size",
                                       c->primary_key ? 128ll << 20 : 256ll << 20, &c->target_size,
                                       err)) != 0 ||
        (rc = pm_options_get_bool(o, "metadata.stats-dense-store", &c->dense, err)) != 0)
        return rc;
    if ((rc = pm_file_index_conf_init(&c->index, s, s->row, err)) != 0)
        return rc;
    c->index_or_null = c->index.count > 0 ? &c->index : NULL;

    /* write buffer */
    if ((rc = pm_options_get_memory(o, "write-buffer-size", &c->buffer_size, err)) != 0 ||
        (rc = pm_options_get_bool(o, "write-buffer-spillable", &c->spillable, err)) != 0 ||
        (rc = pm_options_get_i64(o, "local-sort.max-num-file-handles", &c->spill_fan_in, err)) != 0)
        return rc;
    /* A merge holds one row group of every run it reads (SPILL_BLOCK bytes): a quarter of
     * the write buffer's worth of them are open at once, so memory stays bounded however
     * many records a commit spills. */
    if (c->spill_fan_in > c->buffer_size / (4 * SPILL_BLOCK))
        c->spill_fan_in = c->buffer_size / (4 * SPILL_BLOCK);
    if (c->spill_fan_in < 4)
        c->spill_fan_in = 4;
    pm_options_init(&c->spill_opts);
    /* spill files are read once, soon: no dictionaries (they cost the writer a hash lookup
     * per value for little) */
    if (pm_options_set(&c->spill_opts, "parquet.block.size", "524288") != 0 ||
        pm_options_set(&c->spill_opts, "parquet.page.size", "65536") != 0 ||
        pm_options_set(&c->spill_opts, "parquet.enable.dictionary", "false") != 0)
        return pm_nomem(err);
    {
        /* Java's zstd also takes its library's fast levels (below 1) and nothing past 22: the
         * Parquet writer's range, 1 to 22, is the nearest */
        int64_t level = 1;
        char text[24];
        if ((rc = pm_options_get_i64(o, "spill-compression.zstd-level", &level, err)) != 0)
            return rc;
        snprintf(text, sizeof(text), "%d", level < 1 ? 1 : level > 22 ? 22 : (int)level);
        if (pm_options_set(&c->spill_opts, "file.compression.zstd-level", text) != 0)
            return pm_nomem(err);
    }
    v = pm_options_get(o, "spill-compression");
    c->spill_codec = v != NULL && (strcasecmp(v, "none") == 0 || strcasecmp(v, "lz4") == 0)
                         ? v
                         : "zstd"; /* lzo: zstd here (spill files are private) */
    if ((c->tmp_fs = pm_fs_local_new(false)) == NULL)
        return pm_nomem(err);
    return 0;
}

int pm_write_ctx_tmp_dir(pm_write_ctx *c, paimon_error *err)
{
    int rc = 0;
    pthread_mutex_lock(&c->tmp_lock);
    if (c->tmp_dir == NULL && (rc = pm_tmp_dir_create(&c->tmp, "paimon-write-", err)) == 0)
        c->tmp_dir = c->tmp.path;
    pthread_mutex_unlock(&c->tmp_lock);
    return rc;
}

int pm_write_index_dir(const pm_write_ctx *c, const uint8_t *partition, size_t partition_len,
                       int32_t bucket, pm_buf *out, paimon_error *err)
{
    bool in_data_dir = false;
    int rc = pm_options_get_bool(c->opts, "index-file-in-data-file-dir", &in_data_dir, err);
    if (rc != 0)
        return rc;
    if (in_data_dir)
        return pm_write_bucket_dir(c, partition, partition_len, bucket, out, err);
    rc = pm_buf_printf(out, "%s/index", c->table);
    return rc != 0 ? pm_buf_error(err, rc) : 0;
}

void pm_write_ctx_release(pm_write_ctx *c)
{
    pm_tmp_dir_release(&c->tmp);
    pthread_mutex_destroy(&c->tmp_lock);
    pm_fs_free(c->tmp_fs);
    pm_options_free(&c->spill_opts);
    pm_merge_fn_free(c->merge);
    pm_type_free(c->file_type);
    for (size_t i = 0; i < c->settings_count; i++) {
        pm_free(c->settings[i].modes);
        pm_free(c->settings[i].changelog_modes);
        pm_free(c->settings[i].codec);
    }
    pm_free(c->changelog_compare);
    pm_file_index_conf_free(&c->index);
    memset(c, 0, sizeof(*c));
}

void pm_write_ctx_writer_conf(const pm_write_ctx *c, const char *dir, pm_path_factory *names,
                              bool changelog, int32_t level, int64_t *seq_counter,
                              pm_data_writer_conf *dc)
{
    const pm_write_file_settings *st = settings_for(c, level);
    memset(dc, 0, sizeof(*dc));
    dc->level = level;
    dc->fs = c->fs;
    dc->dir = dir;
    dc->names = names;
    dc->prefix = changelog ? c->changelog_prefix : c->data_prefix;
    dc->changelog = changelog;
    dc->format = changelog ? st->changelog_format : st->format;
    dc->codec = changelog ? st->changelog_codec : st->codec;
    dc->opts = c->opts;
    dc->row = c->file_type;
    dc->target_size = c->target_size;
    dc->schema_id = c->schema_id;
    dc->primary_key = c->primary_key;
    dc->key_cols = c->file_key_cols;
    dc->key_stat_cols = c->file_key_stats;
    dc->key_count = c->key_count;
    dc->seq_col = c->seq_col;
    dc->kind_col = c->kind_col;
    dc->value_start = c->value_start;
    dc->modes = changelog ? st->changelog_modes : st->modes;
    dc->stats_source = changelog ? st->changelog_stats_source : st->stats_source;
    dc->dense = c->dense;
    dc->index = changelog ? NULL : c->index_or_null;
    dc->seq_counter = seq_counter;
}
