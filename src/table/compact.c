/* The dedicated compaction of a table: see compact.h. */
#include "table/compact.h"

#include <stdlib.h>
#include <string.h>

#include "data/binary_row.h"
#include "meta/partition_spec.h"
#include "meta/schema.h"
#include "table/commit.h"
#include "table/write/changelog_compact.h"
#include "table/write/table_write.h"
#include "util/alloc.h"
#include "util/buf.h"

/* Does the partition match the --partition spec (meta/partition_spec.h)?  A partition
 * row that does not decode matches nothing (the scan that listed it reports it). */
static bool matches(void *arg, const uint8_t *partition, size_t len)
{
    bool hit = false;
    return pm_partition_spec_match(arg, partition, len, &hit, NULL) == 0 && hit;
}

/* ---- the compaction job of unaware-bucket append tables ------------------------------------ */

static int64_t size_then_seq(const pm_manifest_entry *a, const pm_manifest_entry *b)
{
    if (a->file.file_size != b->file.file_size)
        return a->file.file_size < b->file.file_size ? -1 : 1;
    if (a->file.min_sequence_number != b->file.min_sequence_number)
        return a->file.min_sequence_number < b->file.min_sequence_number ? -1 : 1;
    if (a->file.creation_time != b->file.creation_time)
        return a->file.creation_time < b->file.creation_time ? -1 : 1;
    return strcmp(a->file.file_name, b->file.file_name);
}

static int by_size(const void *pa, const void *pb)
{
    return (int)size_then_seq(*(const pm_manifest_entry *const *)pa,
                              *(const pm_manifest_entry *const *)pb);
}

static bool same_partition(const pm_manifest_entry *a, const pm_manifest_entry *b)
{
    return a->partition.len == b->partition.len &&
           memcmp(a->partition.ptr, b->partition.ptr, a->partition.len) == 0;
}

/* AppendCompactCoordinator's plan on its first run, per partition: the files smaller than
 * compactionFileSize, sorted by size, packed into bins of more than one file whose sizes
 * plus source.split.open-file-cost each reach 2 x target-file-size; what is left forms one
 * more bin when it holds compaction.min.file-num files.  Each bin is rewritten in bin order
 * (AppendCompactTask) into bucket 0.  Java sorts by size alone (ties in HashSet order);
 * ties go by sequence number, creation time and file name here. */
PM_MUST_CHECK static int compact_unaware(pm_table_write *w, const char *table,
                                         pm_partition_match match, void *arg,
                                         pm_commit_messages *out, paimon_error *err)
{
    pm_compactor *k = pm_table_write_compactor(w);
    const pm_manifest_entry *const *live = NULL;
    const pm_manifest_entry **files = NULL;
    size_t live_count = 0;
    int64_t open_cost;
    int rc;

    if (k == NULL)
        return pm_err_set(err, PAIMON_EUNSUPPORTED, "%s: this table is not compacted by paimon-c",
                          table);
    PM_TRY(pm_table_write_live_files(w, &live, &live_count, err));
    PM_TRY(pm_options_get_memory(k->c->opts, "source.split.open-file-cost", &open_cost, err));
    if ((files = pm_malloc((live_count + 1) * sizeof(*files))) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < live_count; i++) {
        const pm_manifest_entry *p = live[i];
        pm_bucket_writer *bw = NULL;
        size_t n = 0, start = 0;
        int64_t total = 0;
        bool first = true;
        if (match != NULL && !match(arg, p->partition.ptr, p->partition.len))
            continue;
        for (size_t j = 0; j < i && first; j++)
            first = !same_partition(live[j], p);
        if (!first)
            continue;
        for (size_t j = i; j < live_count; j++)
            if (same_partition(live[j], p) && live[j]->file.file_size < k->min_file_size)
                files[n++] = live[j];
        qsort(files, n, sizeof(*files), by_size);
        PM_TRY(pm_table_write_bucket(w, &p->partition, 0, &bw, err));
        for (size_t j = 0; j < n; j++) {
            total += files[j]->file.file_size + open_cost;
            if (j + 1 - start > 1 && total >= 2 * k->c->target_size) {
                PM_TRY(pm_bucket_writer_compact_files(bw, k, files + start, j + 1 - start, err));
                start = j + 1;
                total = 0;
            }
        }
        if ((int64_t)(n - start) >= k->min_file_num && n - start > 1)
            PM_TRY(pm_bucket_writer_compact_files(bw, k, files + start, n - start, err));
    }
    rc = pm_table_write_prepare(w, out, err);
done:
    pm_free(files);
    return rc;
}

/* ---- the job --------------------------------------------------------------------------------- */

int pm_table_compact(pm_fs *fs, const char *table, const pm_compact_opts *o, int64_t *snapshot_id,
                     int64_t *files_before, int64_t *files_after, paimon_error *err)
{
    pm_schema *schema = NULL;
    pm_table_write *w = NULL;
    pm_table_write_opts wo = {false, o->commit_user, true};
    pm_commit_messages m;
    pm_commit_opts co;
    pm_partition_spec *spec = NULL;
    int64_t before = 0, after = 0;
    int rc;

    *snapshot_id = 0;
    pm_commit_messages_init(&m);
    PM_TRY(pm_schema_read_latest(fs, table, &schema, err));
    rc = pm_partition_spec_parse(&spec, schema, o->partition, o->partition_count, err);
    if (rc == 0)
        rc = pm_table_write_new(&w, fs, table, &wo, err);
    if (rc != 0) {
        /* The request or the table's options: name the table.  Corrupt or unreadable files
         * are named by their paths, which start with the table's. */
        if (rc != PAIMON_ENOMEM && rc != PAIMON_ECORRUPT && rc != PAIMON_EIO)
            pm_err_prefix(err, rc, "%s: ", table);
        goto done;
    }
    pm_table_write_keep_pending(w);
    if (pm_table_write_is_unaware(w))
        PM_TRY(compact_unaware(w, table, o->partition_count > 0 ? matches : NULL, spec, &m, err));
    else
        PM_TRY(pm_table_write_compact(w, o->full, o->partition_count > 0 ? matches : NULL, spec, &m,
                                      err));
    for (size_t i = 0; i < m.compact_count; i++) {
        before += m.compact[i].kind == PM_FILE_KIND_DELETE;
        after += m.compact[i].kind == PM_FILE_KIND_ADD;
    }
    if (m.compact_count > 0) {
        pm_commit_result res;
        memset(&co, 0, sizeof(co));
        co.commit_user = o->commit_user;
        co.identifier = INT64_MAX; /* a batch job's commit */
        co.kind = PM_COMMIT_COMPACT;
        co.result = &res;
        rc = pm_changelog_compact_commit(fs, table, &m, &co, snapshot_id, err);
        /* Committed, or maybe: the files are the snapshot's.  Otherwise nothing names them
         * and freeing the writer removes them (keep_pending), which needs no memory: the
         * failure may be a lack of it. */
        if (rc == 0 || res.uncertain)
            pm_table_write_release_pending(w);
        if (rc != 0)
            goto done;
    }
    if (files_before != NULL)
        *files_before = before;
    if (files_after != NULL)
        *files_after = after;
done:
    pm_table_write_free(w);
    pm_commit_messages_release(&m);
    pm_schema_free(schema);
    pm_partition_spec_free(spec);
    return rc;
}
