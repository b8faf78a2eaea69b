/* The rolling data-file writer: see data_writer.h. */
#include "table/write/data_writer.h"

#include <string.h>

#include "data/binary_row.h"
#include "lsm/merge_function.h"
#include "util/alloc.h"
#include "util/error.h"
#include "util/time.h"

#define CHECK_ROLLING_RECORDS 1000 /* RollingFileWriter.CHECK_ROLLING_RECORD_CNT */

typedef struct meta_vec {
    pm_data_file_meta *items;
    size_t count, cap;
} meta_vec;

struct pm_data_writer {
    pm_data_writer_conf c;
    size_t columns;
    /* the open file */
    pm_file_writer *fw;
    pm_buf name, path;
    int64_t rows;
    pm_stats_acc *stats; /* per column */
    pm_buf min_key, max_key;
    int64_t min_seq, max_seq, deletes;
    pm_file_index_writer *index;
    /* everything written */
    int64_t records; /* rows through this writer: the rolling check counts these */
    pm_strlist written;
    pm_arena arena; /* the metas' bytes */
    meta_vec metas;
};

int pm_data_writer_new(pm_data_writer **out, const pm_data_writer_conf *c, paimon_error *err)
{
    pm_data_writer *w = pm_calloc(1, sizeof(*w));
    *out = NULL;
    if (w == NULL)
        return pm_nomem(err);
    w->c = *c;
    w->columns = c->row->field_count;
    pm_buf_init(&w->name, 0);
    pm_buf_init(&w->path, 0);
    pm_buf_init(&w->min_key, 0);
    pm_buf_init(&w->max_key, 0);
    pm_strlist_init(&w->written);
    pm_arena_init(&w->arena, 16 * 1024);
    if ((w->stats = pm_calloc(w->columns + 1, sizeof(pm_stats_acc))) == NULL) {
        pm_data_writer_free(w);
        return pm_nomem(err);
    }
    for (size_t i = 0; i < w->columns; i++)
        pm_stats_acc_init(&w->stats[i], c->row->fields[i].type, c->modes[i], c->stats_source);
    *out = w;
    return 0;
}

/* Serializes the key of row `r` of `b`. */
static int key_row(pm_data_writer *w, const pm_batch *b, int64_t r, pm_buf *out)
{
    pm_datum vals[32];
    const pm_type *types[32];
    size_t n = w->c.key_count;
    if (n > 32)
        return PAIMON_EUNSUPPORTED;
    for (size_t k = 0; k < n; k++) {
        const pm_column *col = b->columns[w->c.key_cols[k]];
        types[k] = col->type;
        pm_column_get_datum(col, r, &vals[k]);
    }
    out->len = 0;
    return pm_binrow_serialize(out, types, vals, (int32_t)n);
}

PM_MUST_CHECK static int open_file(pm_data_writer *w, paimon_error *err)
{
    int rc;
    w->name.len = w->path.len = 0;
    if ((rc = pm_path_factory_next(w->c.names, w->c.changelog ? PM_NAME_CHANGELOG : PM_NAME_DATA,
                                   w->c.prefix, w->c.format->name, &w->name)) != 0 ||
        (rc = pm_buf_printf(&w->path, "%s/%s", w->c.dir, pm_buf_cstr(&w->name))) != 0)
        return pm_buf_error(err, rc);
    if ((rc = pm_file_writer_open(&w->fw, w->c.format, w->c.fs, pm_buf_cstr(&w->path), w->c.row,
                                  w->c.codec, w->c.opts, err)) != 0 ||
        (rc = pm_file_writer_set_pool(w->fw, w->c.pool, err)) != 0)
        return rc;
    if (w->c.index != NULL &&
        (rc = pm_file_index_writer_new(&w->index, w->c.index, w->c.row, err)) != 0)
        return rc;
    w->rows = 0;
    w->deletes = 0;
    w->min_seq = INT64_MAX;
    w->max_seq = INT64_MIN;
    if (!w->c.primary_key)
        w->min_seq = *w->c.seq_counter;
    for (size_t i = 0; i < w->columns; i++)
        pm_stats_acc_reset(&w->stats[i]);
    return 0;
}

PM_MUST_CHECK static int write_range(pm_data_writer *w, const pm_batch *b, int64_t first, int64_t n,
                                     paimon_error *err)
{
    int rc;
    if ((rc = pm_file_writer_write(w->fw, b, first, n, err)) != 0)
        return rc;
    for (size_t i = 0; i < w->columns; i++)
        if ((rc = pm_stats_acc_add(&w->stats[i], b->columns[i], first, n)) != 0)
            return pm_buf_error(err, rc);
    if (w->index != NULL &&
        (rc = pm_file_index_writer_add(w->index, b->columns + w->c.value_start, first, n, err)))
        return rc;
    if (w->c.primary_key) {
        const int64_t *seq = (const int64_t *)(const void *)b->columns[w->c.seq_col]->values.data;
        const int8_t *kind = (const int8_t *)b->columns[w->c.kind_col]->values.data;
        for (int64_t r = first; r < first + n; r++) {
            if (seq[r] < w->min_seq)
                w->min_seq = seq[r];
            if (seq[r] > w->max_seq)
                w->max_seq = seq[r];
            w->deletes += !pm_kind_is_add(kind[r]);
        }
        if (w->rows == 0 && (rc = key_row(w, b, first, &w->min_key)) != 0)
            return rc == PAIMON_EUNSUPPORTED
                       ? pm_err_set(err, rc, "primary keys of more than 32 columns")
                       : pm_buf_error(err, rc);
        if ((rc = key_row(w, b, first + n - 1, &w->max_key)) != 0)
            return pm_buf_error(err, rc);
    } else {
        *w->c.seq_counter += n;
    }
    w->rows += n;
    return 0;
}

PM_MUST_CHECK static int push_meta(pm_data_writer *w, const pm_data_file_meta *m, paimon_error *err)
{
    if (w->metas.count == w->metas.cap) {
        size_t cap = w->metas.cap == 0 ? 4 : w->metas.cap * 2;
        pm_data_file_meta *grown = pm_realloc(w->metas.items, cap * sizeof(*grown));
        if (grown == NULL)
            return pm_nomem(err);
        w->metas.items = grown;
        w->metas.cap = cap;
    }
    w->metas.items[w->metas.count++] = *m;
    return 0;
}

PM_MUST_CHECK static int stats_of(pm_data_writer *w, pm_data_file_meta *m, paimon_error *err)
{
    size_t n = w->columns, vn = n - w->c.value_start;
    pm_col_result *res = pm_calloc(n + 1, sizeof(*res));
    pm_col_result *keys = pm_calloc(w->c.key_count + 1, sizeof(*keys));
    const pm_type **types = pm_calloc(n + 1, sizeof(*types));
    const pm_type **ktypes = pm_calloc(w->c.key_count + 1, sizeof(*ktypes));
    const char **names = pm_calloc(n + 1, sizeof(*names));
    int rc = 0;
    if (res == NULL || keys == NULL || types == NULL || ktypes == NULL || names == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        if ((rc = pm_stats_acc_result(&w->stats[i], &res[i])) != 0) {
            rc = pm_buf_error(err, rc);
            goto done;
        }
        types[i] = w->c.row->fields[i].type;
        names[i] = w->c.row->fields[i].name;
    }
    if (w->c.primary_key) {
        for (size_t k = 0; k < w->c.key_count; k++) {
            keys[k] = res[w->c.key_stat_cols[k]];
            ktypes[k] = types[w->c.key_stat_cols[k]];
        }
        PM_TRY(pm_stats_serialize_all(&w->arena, ktypes, keys, w->c.key_count, &m->key_stats, err));
    } else {
        PM_TRY(pm_stats_empty(&w->arena, &m->key_stats, err));
    }
    rc = pm_stats_serialize_dense(&w->arena, types + w->c.value_start, names + w->c.value_start,
                                  res + w->c.value_start, vn, w->c.dense, &m->value_stats,
                                  &m->value_stats_cols, err);
done:
    for (size_t i = 0; res != NULL && i < n; i++)
        pm_col_result_free(&res[i]);
    pm_free(res);
    pm_free(keys);
    pm_free(types);
    pm_free(ktypes);
    pm_free(names);
    return rc;
}

/* Formats whose statistics come from the finished file (ORC): read them back into the
 * accumulators, which collected nothing while the rows went by. */
PM_MUST_CHECK static int file_stats(pm_data_writer *w, paimon_error *err)
{
    pm_file_col_stats *raw;
    pm_arena arena;
    int rc;
    if (w->c.format->file_stats == NULL)
        return 0;
    if ((raw = pm_calloc(w->columns + 1, sizeof(*raw))) == NULL)
        return pm_nomem(err);
    pm_arena_init(&arena, 4096);
    rc = w->c.format->file_stats(w->c.fs, pm_buf_cstr(&w->path), w->c.row, &arena, raw, err);
    for (size_t i = 0; rc == 0 && i < w->columns; i++)
        if ((rc = pm_stats_acc_set_file(&w->stats[i], &raw[i])) != 0)
            rc = pm_buf_error(err, rc);
    pm_arena_free(&arena);
    pm_free(raw);
    return rc;
}

PM_MUST_CHECK static int close_file(pm_data_writer *w, paimon_error *err)
{
    static const uint8_t EMPTY_ROW[12] = {0};
    pm_data_file_meta m;
    uint64_t size = 0;
    pm_buf idx;
    pm_file_writer *fw = w->fw;
    int rc;

    if (fw == NULL)
        return 0;
    w->fw = NULL;
    pm_buf_init(&idx, 0);
    if ((rc = pm_strlist_push(&w->written, pm_buf_cstr(&w->path))) != 0) {
        pm_file_writer_abort(fw);
        return pm_buf_error(err, rc);
    }
    if ((rc = pm_file_writer_close(fw, &size, err)) != 0 || (rc = file_stats(w, err)) != 0)
        return rc;
    memset(&m, 0, sizeof(m));
    m.file_name = pm_arena_strndup(&w->arena, (const char *)w->name.data, w->name.len);
    m.file_size = (int64_t)size;
    m.row_count = w->rows;
    if (w->c.primary_key) {
        m.min_key.ptr = pm_arena_dup(&w->arena, w->min_key.data, w->min_key.len);
        m.min_key.len = w->min_key.len;
        m.max_key.ptr = pm_arena_dup(&w->arena, w->max_key.data, w->max_key.len);
        m.max_key.len = w->max_key.len;
        m.min_sequence_number = w->min_seq;
        m.max_sequence_number = w->max_seq;
    } else {
        m.min_key.ptr = m.max_key.ptr = pm_arena_dup(&w->arena, EMPTY_ROW, sizeof(EMPTY_ROW));
        m.min_key.len = m.max_key.len = sizeof(EMPTY_ROW);
        m.min_sequence_number = w->min_seq;
        m.max_sequence_number = *w->c.seq_counter - 1;
    }
    if (m.file_name == NULL || m.min_key.ptr == NULL || m.max_key.ptr == NULL)
        return pm_nomem(err);
    PM_TRY(stats_of(w, &m, err));
    m.schema_id = w->c.schema_id;
    m.level = w->c.level;
    m.extra_files.present = true;
    m.has_creation_time = true;
    m.creation_time = pm_now_local_as_utc_millis();
    m.has_delete_row_count = true;
    m.delete_row_count = w->c.primary_key ? w->deletes : 0;
    m.has_file_source = true;
    m.file_source = w->c.compact ? 1 : 0; /* COMPACT : APPEND */
    if (w->index != NULL) {
        pm_file_index_writer *iw = w->index;
        w->index = NULL;
        rc = pm_file_index_writer_finish(iw, &idx, err);
        pm_file_index_writer_free(iw);
        if (rc != 0)
            goto done;
        if ((int64_t)idx.len > w->c.index->threshold) {
            pm_buf ipath;
            const char **extra = pm_arena_alloc(&w->arena, sizeof(char *));
            pm_buf_init(&ipath, 0);
            if (extra == NULL || pm_buf_printf(&ipath, "%s.index", pm_buf_cstr(&w->path)) != 0 ||
                pm_strlist_push(&w->written, pm_buf_cstr(&ipath)) != 0) {
                pm_buf_free(&ipath);
                rc = pm_nomem(err);
                goto done;
            }
            rc = pm_fs_write_file(w->c.fs, pm_buf_cstr(&ipath), idx.data, idx.len, err);
            pm_buf_free(&ipath);
            if (rc != 0)
                goto done;
            if (pm_buf_puts(&w->name, ".index") != 0)
                goto nomem;
            extra[0] = pm_arena_strndup(&w->arena, (const char *)w->name.data, w->name.len);
            if (extra[0] == NULL)
                goto nomem;
            m.extra_files.items = (void *)extra;
            m.extra_files.count = 1;
        } else if (idx.len > 0) {
            if ((m.embedded_file_index.ptr = pm_arena_dup(&w->arena, idx.data, idx.len)) == NULL)
                goto nomem;
            m.embedded_file_index.len = idx.len;
        }
    }
    rc = push_meta(w, &m, err);
    goto done;
nomem:
    rc = pm_nomem(err);
done:
    pm_buf_free(&idx);
    return rc;
}

int pm_data_writer_write(pm_data_writer *w, const pm_batch *b, int64_t first, int64_t count,
                         paimon_error *err)
{
    int rc;
    while (count > 0) {
        int64_t n = CHECK_ROLLING_RECORDS - w->records % CHECK_ROLLING_RECORDS, own;
        if (w->fw == NULL && (rc = open_file(w, err)) != 0)
            return rc;
        /* the format may have check points of its own (ORC: each full row batch) */
        own = pm_file_writer_rows_until_check(w->fw);
        if (own > 0 && own < n)
            n = own;
        if (n > count)
            n = count;
        if ((rc = write_range(w, b, first, n, err)) != 0)
            return rc;
        w->records += n;
        first += n;
        count -= n;
        if (pm_file_writer_reach_target(w->fw, w->records % CHECK_ROLLING_RECORDS == 0,
                                        w->c.target_size) &&
            (rc = close_file(w, err)) != 0)
            return rc;
    }
    return 0;
}

int pm_data_writer_finish(pm_data_writer *w, pm_data_file_meta **files, size_t *count,
                          paimon_error *err)
{
    int rc = close_file(w, err);
    if (rc != 0)
        return rc;
    *files = w->metas.items;
    *count = w->metas.count;
    return 0;
}

void pm_data_writer_abort(pm_data_writer *w)
{
    if (w == NULL)
        return;
    if (w->fw != NULL) {
        pm_file_writer_abort(w->fw);
        w->fw = NULL;
    }
    for (size_t i = 0; i < w->written.count; i++)
        (void)w->c.fs->remove(w->c.fs, w->written.items[i], NULL);
    pm_data_writer_free(w);
}

void pm_data_writer_free(pm_data_writer *w)
{
    if (w == NULL)
        return;
    if (w->fw != NULL)
        pm_file_writer_abort(w->fw);
    pm_file_index_writer_free(w->index);
    for (size_t i = 0; w->stats != NULL && i < w->columns; i++)
        pm_stats_acc_free(&w->stats[i]);
    pm_free(w->stats);
    pm_buf_free(&w->name);
    pm_buf_free(&w->path);
    pm_buf_free(&w->min_key);
    pm_buf_free(&w->max_key);
    pm_strlist_free(&w->written);
    pm_arena_free(&w->arena);
    pm_free(w->metas.items);
    pm_free(w);
}
