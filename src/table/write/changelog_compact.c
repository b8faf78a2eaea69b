/* Changelog files packed before the commit: see changelog_compact.h. */
#include "table/write/changelog_compact.h"

#include <stdlib.h>
#include <string.h>

#include "format/compacted_changelog.h"
#include "meta/options.h"
#include "meta/schema.h"
#include "table/scan.h"
#include "table/table.h"
#include "util/alloc.h"
#include "util/bytes_map.h"
#include "util/error.h"
#include "util/strlist.h"
#include "util/uuid.h"

#define COPY_CHUNK     (1u << 20)    /* bytes copied per read */
#define DEFAULT_TARGET (256ll << 20) /* targetFileSize(false): changelogs have no LSM tree */

/* One changelog file of the messages being packed. */
typedef struct file_ref {
    pm_manifest_entry *e; /* its entry in the copy of the messages (renamed in place) */
    size_t seq;           /* position in the messages: keeps the sort stable */
} file_ref;

/* The changelog files of one partition waiting to be packed. */
typedef struct group {
    file_ref *files;
    size_t count, cap;
    int64_t total; /* bytes */
} group;

typedef struct packer {
    pm_fs *fs;
    paimon_table table;    /* borrowed path and schema, for pm_data_file_path */
    pm_commit_messages *m; /* the copy being renamed */
    pm_strlist written;    /* physical files made: removed again if the commit fails */
    pm_strlist originals;  /* files packed: removed once the commit succeeded */
    uint8_t *chunk;        /* COPY_CHUNK bytes */
} packer;

PM_MUST_CHECK static int options(const pm_schema *s, bool *on, int64_t *target, int64_t *max_size,
                                 paimon_error *err)
{
    int64_t buffer;
    int rc;
    /* precommit-compact, or its fallback key changelog.precommit-compact */
    if ((rc = pm_options_get_bool(&s->options, "precommit-compact", on, err)) != 0 || !*on)
        return rc;
    if ((rc = pm_options_get_memory_or(&s->options, "target-file-size", DEFAULT_TARGET, target,
                                       err)) != 0 ||
        (rc = pm_options_get_memory(&s->options, "changelog.precommit-compact.buffer-size", &buffer,
                                    err)) != 0)
        return rc;
    *max_size = *target / 10 * 7 < buffer ? *target / 10 * 7 : buffer;
    return 0;
}

static const char *format_of(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot != NULL ? dot + 1 : NULL;
}

/* By bucket, then in message order. */
static int cmp_ref(const void *pa, const void *pb)
{
    const file_ref *a = pa, *b = pb;
    if (a->e->bucket != b->e->bucket)
        return a->e->bucket < b->e->bucket ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Appends the bytes of `path` (exactly `size` of them, as its entry records) to `out`. */
PM_MUST_CHECK static int copy_file(packer *p, const char *path, int64_t size, pm_output *out,
                                   paimon_error *err)
{
    pm_input *in = NULL;
    int rc = p->fs->open(p->fs, path, &in, err);
    if (rc != 0)
        return rc;
    if (in->size != (uint64_t)size) {
        rc = pm_corrupt(err, "%s: changelog file of %llu bytes, its entry records %lld", path,
                        (unsigned long long)in->size, (long long)size);
        goto done;
    }
    for (uint64_t off = 0; off < in->size; off += COPY_CHUNK) {
        size_t n = in->size - off < COPY_CHUNK ? (size_t)(in->size - off) : COPY_CHUNK;
        if ((rc = in->read_at(in, off, n, p->chunk, err)) != 0 ||
            (rc = out->write(out, p->chunk, n, err)) != 0)
            goto done;
    }
done:
    in->close(in);
    return rc;
}

/* Packs one closed group (ChangelogCompactTask.doCompact): one file alone stays as it is. */
PM_MUST_CHECK static int pack(packer *p, group *g, paimon_error *err)
{
    pm_arena scratch;
    pm_output *out = NULL;
    const char **paths = NULL, *fmt;
    int64_t *offs = NULL;
    char uuid[PM_UUID_STRLEN + 1];
    pm_buf name, real;
    const file_ref *first;
    size_t dir_len;
    int rc = 0;

    if (g->count < 2)
        return 0;
    /* Every piece's name says the physical file's format: they must share it (they do when
     * one writer wrote them; merged messages of different formats are left alone). */
    fmt = format_of(g->files[0].e->file.file_name);
    for (size_t i = 1; i < g->count; i++)
        if (strcmp(format_of(g->files[i].e->file.file_name), fmt) != 0)
            return 0;
    qsort(g->files, g->count, sizeof(*g->files), cmp_ref);
    first = &g->files[0];
    fmt = format_of(first->e->file.file_name);
    pm_arena_init(&scratch, 4096);
    pm_buf_init(&name, 0);
    pm_buf_init(&real, 0);
    paths = pm_arena_calloc(&scratch, g->count, sizeof(*paths));
    offs = pm_arena_calloc(&scratch, g->count + 1, sizeof(*offs));
    if (paths == NULL || offs == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < g->count; i++)
        if ((paths[i] = pm_data_file_path(&p->table, p->table.schema, g->files[i].e, &scratch,
                                          err)) == NULL) {
            rc = err != NULL && err->code != 0 ? err->code : PAIMON_ENOMEM;
            goto done;
        }
    if (pm_uuid_v4(uuid) != 0) {
        rc = pm_err_set(err, PAIMON_EIO, "no random numbers for a compacted changelog name");
        goto done;
    }
    /* The physical file: in the first file's bucket directory, named after its bucket and
     * length (known before copying: the entry's size, checked while copying). */
    dir_len = (size_t)(strrchr(paths[0], '/') - paths[0]);
    if ((rc = pm_compacted_changelog_name_append(&name, uuid, first->e->bucket,
                                                 first->e->file.file_size, 0, 0, fmt)) != 0 ||
        (rc = pm_buf_append(&real, paths[0], dir_len + 1)) != 0 ||
        (rc = pm_buf_puts(&real, pm_buf_cstr(&name))) != 0) {
        rc = pm_buf_error(err, rc);
        goto done;
    }
    if ((rc = p->fs->create(p->fs, pm_buf_cstr(&real), &out, err)) != 0)
        goto done;
    for (size_t i = 0; i < g->count; i++) {
        offs[i] = (int64_t)out->pos;
        if ((rc = copy_file(p, paths[i], g->files[i].e->file.file_size, out, err)) != 0)
            goto done;
    }
    rc = out->close(out, err);
    out = NULL;
    if (rc != 0)
        goto done;
    if (pm_strlist_push(&p->written, pm_buf_cstr(&real)) != 0) {
        (void)p->fs->remove(p->fs, pm_buf_cstr(&real), NULL);
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < g->count; i++) {
        pm_manifest_entry *e = g->files[i].e;
        const char *renamed;
        pm_buf_reset(&name);
        if ((rc = pm_compacted_changelog_name_append(&name, uuid, first->e->bucket,
                                                     first->e->file.file_size, offs[i],
                                                     e->file.file_size, fmt)) != 0) {
            rc = pm_buf_error(err, rc);
            goto done;
        }
        if ((renamed = pm_arena_strndup(&p->m->arena, (const char *)name.data, name.len)) == NULL ||
            pm_strlist_push(&p->originals, paths[i]) != 0) {
            rc = pm_nomem(err);
            goto done;
        }
        e->file.file_name = renamed;
    }
done:
    if (out != NULL)
        out->abort(out);
    pm_buf_free(&name);
    pm_buf_free(&real);
    pm_arena_free(&scratch);
    return rc;
}

static int group_add(group *g, pm_manifest_entry *e, size_t seq)
{
    if (g->count == g->cap) {
        size_t cap = g->cap == 0 ? 8 : g->cap * 2;
        file_ref *grown = pm_realloc(g->files, cap * sizeof(*grown));
        if (grown == NULL)
            return PAIMON_ENOMEM;
        g->files = grown;
        g->cap = cap;
    }
    g->files[g->count++] = (file_ref){e, seq};
    g->total += e->file.file_size;
    return 0;
}

/* ChangelogCompactCoordinateOperator over one commit's messages: groups per partition,
 * packed when they reach `target` bytes or at the end.  The new files' changelogs and the
 * compact increment's are grouped apart: they go into two snapshots (APPEND, then COMPACT),
 * and one physical file must belong to one snapshot (Java's task refuses to mix them; no
 * changelog producer makes both). */
PM_MUST_CHECK static int pack_list(packer *p, bool compact, size_t *seq, int64_t target,
                                   int64_t max_size, paimon_error *err)
{
    pm_manifest_entry *es = compact ? p->m->compact_changelog : p->m->changelog;
    size_t n = compact ? p->m->compact_changelog_count : p->m->changelog_count, ngroups = 0;
    pm_bytes_map parts; /* partition -> index in `groups` + 1, or 0 when none is open */
    group *groups = NULL;
    int rc = 0;

    pm_bytes_map_init(&parts);
    if ((groups = pm_calloc(n + 1, sizeof(*groups))) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < n; i++, (*seq)++) {
        pm_manifest_entry *e = &es[i];
        int64_t id, gi;
        bool inserted;
        /* too big to be worth copying (Java keeps these as they are); empty files would give
         * a second piece at offset 0; external paths are kept outside; names that are pieces
         * already are never packed twice */
        if (e->file.file_size >= max_size || e->file.file_size <= 0 ||
            e->file.external_path != NULL || format_of(e->file.file_name) == NULL ||
            pm_compacted_changelog_is(e->file.file_name))
            continue;
        if (pm_bytes_map_put(&parts, e->partition.ptr, e->partition.len, 0, &id, &inserted) != 0) {
            rc = pm_nomem(err);
            goto done;
        }
        if (parts.values[id] == 0)
            parts.values[id] = (int64_t)++ngroups;
        gi = parts.values[id] - 1;
        if (group_add(&groups[gi], e, *seq) != 0) {
            rc = pm_nomem(err);
            goto done;
        }
        if (groups[gi].total >= target) {
            PM_TRY(pack(p, &groups[gi], err));
            parts.values[id] = 0;
        }
    }
    for (size_t id = 0; id < parts.count; id++)
        if (parts.values[id] != 0)
            PM_TRY(pack(p, &groups[parts.values[id] - 1], err));
done:
    for (size_t i = 0; groups != NULL && i < ngroups; i++)
        pm_free(groups[i].files);
    pm_free(groups);
    pm_bytes_map_free(&parts);
    return rc;
}

PM_MUST_CHECK static int pack_all(packer *p, int64_t target, int64_t max_size, paimon_error *err)
{
    size_t seq = 0;
    int rc = pack_list(p, false, &seq, target, max_size, err);
    return rc != 0 ? rc : pack_list(p, true, &seq, target, max_size, err);
}

int pm_changelog_compact_commit(pm_fs *fs, const char *table, const pm_commit_messages *m,
                                const pm_commit_opts *o, int64_t *snapshot_id, paimon_error *err)
{
    pm_schema *schema = NULL;
    pm_commit_messages copy;
    pm_commit_opts co = *o;
    pm_commit_result local;
    packer p;
    bool on = false, keep = false;
    int64_t target = 0, max_size = 0;
    int rc;

    *snapshot_id = 0;
    if (m->changelog_count + m->compact_changelog_count < 2)
        return pm_commit(fs, table, m, o, snapshot_id, err);
    if ((rc = pm_schema_read_latest(fs, table, &schema, err)) != 0)
        return rc;
    if ((rc = options(schema, &on, &target, &max_size, err)) != 0 || !on ||
        schema->primary_keys.count == 0) {
        pm_schema_free(schema);
        if (rc != 0) /* an option of the table: name the table */
            return pm_err_prefix(err, rc, "%s: ", table);
        return pm_commit(fs, table, m, o, snapshot_id, err);
    }
    memset(&p, 0, sizeof(p));
    p.fs = fs;
    p.table.path = (char *)table;
    p.table.fs = fs;
    p.table.schema = schema;
    p.m = &copy;
    pm_strlist_init(&p.written);
    pm_strlist_init(&p.originals);
    pm_commit_messages_init(&copy);
    if ((p.chunk = pm_malloc(COPY_CHUNK)) == NULL || pm_commit_messages_append(&copy, m) != 0) {
        rc = pm_nomem(err);
        goto done;
    }
    PM_TRY(pack_all(&p, target, max_size, err));
    if (co.result == NULL)
        co.result = &local;
    rc = pm_commit(fs, table, &copy, &co, snapshot_id, err);
    if (rc == 0 && *snapshot_id != 0) {
        /* committed: the originals are no longer named by anything (best effort: what is
         * left is an orphan) */
        for (size_t i = 0; i < p.originals.count; i++)
            (void)fs->remove(fs, p.originals.items[i], NULL);
        keep = true;
    } else if (rc != 0) {
        /* failed: certainly nothing committed, unless the snapshot write's outcome is unknown */
        keep = co.result->uncertain != 0;
    }
done:
    /* what is still listed was not committed: the caller's messages name the originals */
    for (size_t i = 0; !keep && i < p.written.count; i++)
        (void)fs->remove(fs, p.written.items[i], NULL);
    pm_strlist_free(&p.written);
    pm_strlist_free(&p.originals);
    pm_commit_messages_release(&copy);
    pm_free(p.chunk);
    pm_schema_free(schema);
    return rc;
}
