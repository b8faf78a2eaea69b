/* The writers of one partition and bucket: see bucket_writer.h. */
#include "table/write/bucket_writer.h"

#include <string.h>

#include "meta/manifest_write.h"
#include "table/write/data_writer.h"
#include "table/write/kv_buffer.h"
#include "util/alloc.h"
#include "util/error.h"

struct pm_bucket_writer {
    pm_write_ctx *c;
    uint8_t *partition;
    size_t partition_len;
    int32_t bucket, total_buckets;
    pm_buf dir;
    pm_path_factory names; /* one UUID per bucket writer, as Java's DataFilePathFactory */
    int64_t next_seq;
    pm_data_writer *append;     /* append tables: the open rolling writer */
    pm_batch *scratch;          /* append tables: rows gathered for the rolling writer */
    pm_kv_buffer *buffer;       /* primary-key tables */
    pm_commit_messages pending; /* files written since the last prepare */
};

int pm_bucket_writer_new(pm_bucket_writer **out, pm_write_ctx *c, const uint8_t *partition,
                         size_t partition_len, int32_t bucket, int32_t total_buckets,
                         int64_t next_seq, paimon_error *err)
{
    pm_bucket_writer *w = pm_calloc(1, sizeof(*w));
    int rc;
    *out = NULL;
    if (w == NULL)
        return pm_nomem(err);
    w->c = c;
    w->bucket = bucket;
    w->total_buckets = total_buckets;
    w->next_seq = next_seq;
    pm_buf_init(&w->dir, 0);
    pm_commit_messages_init(&w->pending);
    if ((w->partition = pm_malloc(partition_len + 1)) == NULL) {
        rc = pm_nomem(err);
        goto fail;
    }
    memcpy(w->partition, partition, partition_len);
    w->partition_len = partition_len;
    if ((rc = pm_path_factory_init(&w->names)) != 0) {
        rc = pm_err_set(err, PAIMON_EIO, "no random numbers for file names");
        goto fail;
    }
    if ((rc = pm_write_bucket_dir(c, partition, partition_len, bucket, &w->dir, err)) != 0)
        goto fail;
    if (c->primary_key && (rc = pm_kv_buffer_new(&w->buffer, c, err)) != 0)
        goto fail;
    *out = w;
    return 0;
fail:
    pm_bucket_writer_free(w);
    return rc;
}

/* A rolling writer of data (or changelog) files for this bucket. */
static int new_data_writer(pm_bucket_writer *w, bool changelog, pm_data_writer **out,
                           paimon_error *err)
{
    const pm_write_ctx *c = w->c;
    pm_data_writer_conf dc;
    memset(&dc, 0, sizeof(dc));
    dc.fs = c->fs;
    dc.dir = pm_buf_cstr(&w->dir);
    dc.names = &w->names;
    dc.prefix = changelog ? c->changelog_prefix : c->data_prefix;
    dc.changelog = changelog;
    dc.format = changelog ? c->changelog_format : c->format;
    dc.codec = changelog ? c->changelog_codec : c->codec;
    dc.opts = c->opts;
    dc.row = c->file_type;
    dc.target_size = c->target_size;
    dc.schema_id = c->schema_id;
    dc.primary_key = c->primary_key;
    dc.key_cols = c->file_key_cols;
    dc.key_stat_cols = c->file_key_stats;
    dc.key_count = c->key_count;
    dc.seq_col = c->seq_col;
    dc.kind_col = c->kind_col;
    dc.value_start = c->value_start;
    dc.modes = changelog ? c->changelog_modes : c->modes;
    dc.stats_source = changelog ? c->changelog_stats_source : c->stats_source;
    dc.dense = c->dense;
    dc.index = changelog ? NULL : c->index_or_null;
    dc.seq_counter = &w->next_seq;
    return pm_data_writer_new(out, &dc, err);
}

/* Moves the files of a finished rolling writer to the pending messages. */
static int take_files(pm_bucket_writer *w, pm_data_writer *dw, bool changelog, paimon_error *err)
{
    pm_data_file_meta *files;
    size_t count;
    int rc = pm_data_writer_finish(dw, &files, &count, err);
    if (rc != 0)
        return rc;
    for (size_t i = 0; i < count; i++) {
        pm_manifest_entry e;
        memset(&e, 0, sizeof(e));
        e.kind = PM_FILE_KIND_ADD;
        e.partition.ptr = w->partition;
        e.partition.len = w->partition_len;
        e.bucket = w->bucket;
        e.total_buckets = w->total_buckets;
        e.file = files[i];
        rc = changelog ? pm_commit_messages_add_changelog(&w->pending, &e)
                       : pm_commit_messages_add_data(&w->pending, &e);
        if (rc != 0)
            return pm_nomem(err);
    }
    return 0;
}

int pm_bucket_writer_put(pm_bucket_writer *w, const pm_batch *b, const int64_t *rows,
                         const int8_t *kinds, int64_t n, paimon_error *err)
{
    int rc;
    if (n <= 0)
        return 0;
    if (w->buffer != NULL) {
        if ((rc = pm_kv_buffer_put(w->buffer, b, rows, kinds, n, w->next_seq, err)) != 0)
            return rc;
        w->next_seq += n;
        return 0;
    }
    if (w->append == NULL && (rc = new_data_writer(w, false, &w->append, err)) != 0)
        return rc;
    if (w->scratch == NULL && (rc = pm_batch_new(&w->scratch, w->c->value_type, err)) != 0)
        return rc;
    pm_batch_reset(w->scratch);
    if ((rc = pm_batch_take(w->scratch, b, rows, n, err)) != 0 ||
        (rc = pm_data_writer_write(w->append, w->scratch, 0, n, err)) != 0) {
        pm_data_writer_abort(w->append);
        w->append = NULL;
        return rc;
    }
    return 0;
}

size_t pm_bucket_writer_memory(const pm_bucket_writer *w)
{
    return w->buffer != NULL ? pm_kv_buffer_memory(w->buffer) : 0;
}

/* Flushes the buffer as level-0 files (and input changelog files). */
static int flush_buffer(pm_bucket_writer *w, paimon_error *err)
{
    pm_data_writer *data = NULL, *changelog = NULL;
    int rc;
    if (pm_kv_buffer_records(w->buffer) == 0)
        return 0;
    PM_TRY(new_data_writer(w, false, &data, err));
    if (w->c->changelog_input)
        PM_TRY(new_data_writer(w, true, &changelog, err));
    PM_TRY(pm_kv_buffer_flush(w->buffer, data, changelog, err));
    if (changelog != NULL) {
        PM_TRY(take_files(w, changelog, true, err));
        pm_data_writer_free(changelog);
        changelog = NULL;
    }
    PM_TRY(take_files(w, data, false, err));
    pm_data_writer_free(data);
    data = NULL;
done:
    pm_data_writer_abort(data);
    pm_data_writer_abort(changelog);
    return rc;
}

int pm_bucket_writer_free_memory(pm_bucket_writer *w, paimon_error *err)
{
    if (w->buffer == NULL)
        return 0;
    if (w->c->spillable)
        return pm_kv_buffer_spill(w->buffer, err);
    return flush_buffer(w, err);
}

int pm_bucket_writer_prepare(pm_bucket_writer *w, pm_commit_messages *out, paimon_error *err)
{
    int rc;
    if (w->buffer != NULL) {
        if ((rc = flush_buffer(w, err)) != 0)
            return rc;
    } else if (w->append != NULL) {
        pm_data_writer *dw = w->append;
        w->append = NULL;
        rc = take_files(w, dw, false, err);
        if (rc != 0) {
            pm_data_writer_abort(dw);
            return rc;
        }
        pm_data_writer_free(dw);
    }
    if (pm_commit_messages_append(out, &w->pending) != 0)
        return pm_nomem(err);
    pm_commit_messages_release(&w->pending);
    pm_commit_messages_init(&w->pending);
    return 0;
}

int64_t pm_bucket_writer_next_seq(const pm_bucket_writer *w)
{
    return w->next_seq;
}

/* Removes the files of entries that were never committed. */
static void remove_pending(pm_bucket_writer *w)
{
    const pm_manifest_entry *lists[2] = {w->pending.data, w->pending.changelog};
    size_t counts[2] = {w->pending.data_count, w->pending.changelog_count};
    pm_buf p;
    pm_buf_init(&p, 0);
    for (int l = 0; l < 2; l++)
        for (size_t i = 0; i < counts[l]; i++) {
            const pm_data_file_meta *f = &lists[l][i].file;
            p.len = 0;
            if (pm_buf_printf(&p, "%s/%s", pm_buf_cstr(&w->dir), f->file_name) == 0)
                (void)w->c->fs->remove(w->c->fs, pm_buf_cstr(&p), NULL);
            for (size_t k = 0; k < f->extra_files.count; k++) {
                p.len = 0;
                if (pm_buf_printf(&p, "%s/%s", pm_buf_cstr(&w->dir),
                                  ((const char *const *)f->extra_files.items)[k]) == 0)
                    (void)w->c->fs->remove(w->c->fs, pm_buf_cstr(&p), NULL);
            }
        }
    pm_buf_free(&p);
}

void pm_bucket_writer_free(pm_bucket_writer *w)
{
    if (w == NULL)
        return;
    pm_data_writer_abort(w->append);
    remove_pending(w);
    pm_kv_buffer_free(w->buffer);
    pm_batch_free(w->scratch);
    pm_commit_messages_release(&w->pending);
    pm_buf_free(&w->dir);
    pm_free(w->partition);
    pm_free(w);
}
