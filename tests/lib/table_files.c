/* The expiration tests' file accounting: see table_files.h. */
#include "table_files.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "testlib.h"

#include "meta/file_entry.h"
#include "meta/manifest.h"
#include "meta/paths.h"
#include "meta/schema.h"
#include "meta/snapshot.h"
#include "paimon.h"
#include "table/scan.h"
#include "table/table.h"
#include "util/alloc.h"

typedef struct walk {
    pm_fs *fs;
    paimon_table t;
    size_t root_len;
    pm_strlist *out;
    pm_arena arena;
    bool producer_none; /* changelog-producer none: changelogs keep their data lists */
} walk;

static void add_rel(walk *w, const char *path)
{
    assert_true(strncmp(path, w->t.path, w->root_len) == 0);
    assert_int_equal(pm_strlist_push(w->out, path + w->root_len + 1), 0);
}

static void add_in(walk *w, const char *dir, const char *name)
{
    char *p = pm_table_file(w->t.path, dir, name);
    add_rel(w, p);
    pm_free(p);
}

static void add_entry(walk *w, const pm_manifest_entry *e)
{
    paimon_error err;
    const char *p = pm_data_file_path(&w->t, w->t.schema, e, &w->arena, &err);
    const char *slash;
    if (p == NULL)
        fail_msg("%s", err.message);
    add_rel(w, p);
    slash = strrchr(p, '/');
    for (size_t i = 0; i < e->file.extra_files.count; i++) {
        char buf[4096];
        snprintf(buf, sizeof(buf), "%.*s/%s", (int)(slash - p), p,
                 ((const char *const *)e->file.extra_files.items)[i]);
        add_rel(w, buf);
    }
}

/* A list and its manifests; the entries of those (all of them) in *entries. */
static void add_list(walk *w, const char *list, pm_manifest_entry ***entries, size_t *n)
{
    pm_manifest_file_meta *metas = NULL;
    size_t nm = 0;
    paimon_error err;
    if (list == NULL)
        return;
    if (pm_manifest_list_read(w->fs, w->t.path, list, -1, &w->arena, &metas, &nm, &err) != 0)
        fail_msg("%s", err.message);
    add_in(w, PM_DIR_MANIFEST, list);
    for (size_t i = 0; i < nm; i++) {
        pm_manifest_entry *es = NULL;
        size_t ne = 0;
        add_in(w, PM_DIR_MANIFEST, metas[i].file_name);
        if (entries == NULL)
            continue;
        if (pm_manifest_read(w->fs, w->t.path, metas[i].file_name, metas[i].file_size, &w->arena,
                             &es, &ne, &err) != 0)
            fail_msg("%s", err.message);
        *entries = pm_realloc(*entries, (*n + ne) * sizeof(**entries));
        for (size_t k = 0; k < ne; k++)
            (*entries)[(*n)++] = &es[k];
    }
}

static void add_snapshot(walk *w, const pm_snapshot *s, bool with_changelog)
{
    const pm_manifest_entry **live = NULL;
    pm_manifest_entry **cl = NULL;
    size_t n = 0, ncl = 0;
    paimon_error err;
    add_list(w, s->base_manifest_list, NULL, NULL);
    add_list(w, s->delta_manifest_list, NULL, NULL);
    if (with_changelog)
        add_list(w, s->changelog_manifest_list, &cl, &ncl);
    for (size_t i = 0; i < ncl; i++)
        if (cl[i]->kind == PM_FILE_KIND_ADD)
            add_entry(w, cl[i]);
    pm_free(cl);
    if (pm_snapshot_live_entries(w->fs, w->t.path, s, &w->arena, &live, &n, &err) != 0)
        fail_msg("%s", err.message);
    for (size_t i = 0; i < n; i++)
        add_entry(w, live[i]);
    if (s->index_manifest != NULL) {
        pm_index_manifest_entry *idx = NULL;
        size_t ni = 0;
        bool in_data = false;
        assert_int_equal(pm_options_get_bool(&w->t.schema->options, "index-file-in-data-file-dir",
                                             &in_data, &err),
                         0);
        add_in(w, PM_DIR_MANIFEST, s->index_manifest);
        if (pm_index_manifest_read(w->fs, w->t.path, s->index_manifest, &w->arena, &idx, &ni,
                                   &err) != 0)
            fail_msg("%s", err.message);
        for (size_t i = 0; i < ni; i++) {
            if (in_data || idx[i].external_path != NULL) {
                pm_manifest_entry e;
                memset(&e, 0, sizeof(e));
                e.partition = idx[i].partition;
                e.bucket = idx[i].bucket;
                e.file.file_name = idx[i].file_name;
                e.file.external_path = idx[i].external_path;
                add_entry(w, &e);
            } else {
                add_in(w, PM_DIR_INDEX, idx[i].file_name);
            }
        }
    }
    if (s->statistics != NULL)
        add_in(w, "statistics", s->statistics);
}

static void add_changelog(walk *w, const pm_snapshot *s)
{
    pm_manifest_entry **es = NULL;
    size_t n = 0;
    if (s->changelog_manifest_list != NULL) {
        add_list(w, s->changelog_manifest_list, &es, &n);
        for (size_t i = 0; i < n; i++)
            if (es[i]->kind == PM_FILE_KIND_ADD)
                add_entry(w, es[i]);
    } else if (w->producer_none) {
        add_list(w, s->base_manifest_list, NULL, NULL);
        add_list(w, s->delta_manifest_list, &es, &n);
        /* APPEND files, added or removed here: they go when this changelog expires */
        for (size_t i = 0; i < n; i++)
            if (!es[i]->file.has_file_source || es[i]->file.file_source == 0)
                add_entry(w, es[i]);
    }
    pm_free(es);
}

/* Every file of table directory `dir` (schema, consumer, tag): metadata kept as a whole. */
static void add_dir(walk *w, const char *dir)
{
    pm_strlist names;
    char *d = pm_table_file(w->t.path, dir, NULL);
    pm_strlist_init(&names);
    if (w->fs->list(w->fs, d, &names, NULL) == 0)
        for (size_t i = 0; i < names.count; i++)
            if (names.items[i][0] != '.')
                add_in(w, dir, names.items[i]);
    pm_strlist_free(&names);
    pm_free(d);
}

static void add_if_exists(walk *w, const char *dir, const char *name)
{
    char *p = pm_table_file(w->t.path, dir, name);
    bool exists = false;
    assert_int_equal(pm_fs_exists(w->fs, p, &exists, NULL), 0);
    if (exists)
        add_rel(w, p);
    pm_free(p);
}

void pm_test_referenced_files(const char *table, pm_strlist *out)
{
    walk w;
    int64_t *ids = NULL;
    size_t n = 0;
    pm_strlist tags;
    paimon_error err;
    char *cl_dir;
    memset(&w, 0, sizeof(w));
    w.fs = pm_fs_local_new(false);
    w.t.path = (char *)table;
    w.t.fs = w.fs;
    w.root_len = strlen(table);
    w.out = out;
    pm_arena_init(&w.arena, 1 << 16);
    assert_int_equal(pm_schema_read_latest(w.fs, table, &w.t.schema, &err), 0);
    {
        const char *p = pm_options_get_str(&w.t.schema->options, "changelog-producer");
        w.producer_none = p == NULL || strcasecmp(p, "none") == 0;
    }
    add_dir(&w, PM_DIR_SCHEMA);
    add_dir(&w, PM_DIR_CONSUMER);
    add_dir(&w, PM_DIR_TAG);
    add_if_exists(&w, PM_DIR_SNAPSHOT, "EARLIEST");
    add_if_exists(&w, PM_DIR_SNAPSHOT, "LATEST");
    add_if_exists(&w, "changelog", "EARLIEST");
    add_if_exists(&w, "changelog", "LATEST");
    assert_int_equal(pm_snapshot_list_ids(w.fs, table, &ids, &n, &err), 0);
    for (size_t i = 0; i < n; i++) {
        pm_snapshot *s = NULL;
        char *p = pm_snapshot_path(table, ids[i]);
        add_rel(&w, p);
        pm_free(p);
        if (pm_snapshot_read(w.fs, table, ids[i], &s, &err) != 0)
            fail_msg("%s", err.message);
        add_snapshot(&w, s, true);
        pm_snapshot_free(s);
    }
    pm_free(ids);
    pm_strlist_init(&tags);
    assert_int_equal(pm_tag_list(w.fs, table, &tags, &err), 0);
    for (size_t i = 0; i < tags.count; i++) {
        pm_tag *t = NULL;
        if (pm_tag_read(w.fs, table, tags.items[i], &t, &err) != 0)
            fail_msg("%s", err.message);
        add_snapshot(&w, t->snapshot, false);
        pm_tag_free(t);
    }
    pm_strlist_free(&tags);
    cl_dir = pm_table_file(table, "changelog", NULL);
    ids = NULL;
    n = 0;
    assert_int_equal(pm_list_versioned(w.fs, cl_dir, "changelog-", &ids, &n, &err), 0);
    for (size_t i = 0; i < n; i++) {
        char name[48];
        uint8_t *data;
        size_t len;
        char *p;
        pm_snapshot *s = NULL;
        snprintf(name, sizeof(name), "changelog-%lld", (long long)ids[i]);
        p = pm_table_file(table, "changelog", name);
        data = pm_test_read_file(p, &len);
        if (pm_snapshot_parse(data, len, p, &s, &err) != 0)
            fail_msg("%s", err.message);
        add_rel(&w, p);
        add_changelog(&w, s);
        pm_snapshot_free(s);
        pm_free(data);
        pm_free(p);
    }
    pm_free(ids);
    pm_free(cl_dir);
    pm_strlist_sort(out);
    /* unique */
    {
        size_t k = 0;
        for (size_t i = 0; i < out->count; i++) {
            if (k > 0 && strcmp(out->items[k - 1], out->items[i]) == 0) {
                pm_free(out->items[i]);
                continue;
            }
            out->items[k++] = out->items[i];
        }
        out->count = k;
    }
    pm_arena_free(&w.arena);
    pm_schema_free(w.t.schema);
    pm_fs_free(w.fs);
}

void pm_test_disk_files(const char *table, pm_strlist *out)
{
    pm_strlist all;
    size_t root = strlen(table);
    pm_strlist_init(&all);
    pm_test_find_files(table, "", &all);
    for (size_t i = 0; i < all.count; i++) {
        const char *rel = all.items[i] + root + 1;
        const char *base = strrchr(all.items[i], '/');
        if (base != NULL && base[1] == '.')
            continue;
        assert_int_equal(pm_strlist_push(out, rel), 0);
    }
    pm_strlist_free(&all);
    pm_strlist_sort(out);
}

void pm_test_assert_files_exact(const char *table)
{
    pm_strlist ref, disk;
    size_t i = 0, j = 0;
    int bad = 0;
    pm_strlist_init(&ref);
    pm_strlist_init(&disk);
    pm_test_referenced_files(table, &ref);
    pm_test_disk_files(table, &disk);
    while (i < ref.count || j < disk.count) {
        int c = i == ref.count ? 1 : j == disk.count ? -1 : strcmp(ref.items[i], disk.items[j]);
        if (c == 0) {
            i++, j++;
        } else if (c < 0) {
            print_error("referenced but missing: %s\n", ref.items[i++]);
            bad++;
        } else {
            print_error("on disk but not referenced: %s\n", disk.items[j++]);
            bad++;
        }
    }
    pm_strlist_free(&ref);
    pm_strlist_free(&disk);
    if (bad > 0)
        fail_msg("%s: %d files differ between the references and the disk", table, bad);
}

char *pm_test_rows_at(const char *table, int64_t id, const char *tag, int *rc, char *why,
                      size_t why_len)
{
    paimon_table *t = NULL;
    paimon_scan *scan = NULL;
    paimon_scan_options so = PAIMON_SCAN_OPTIONS_INIT;
    paimon_cursor *rows = NULL;
    paimon_error err;
    pm_strlist lines;
    pm_buf all;
    char *out = NULL;
    pm_strlist_init(&lines);
    pm_buf_init(&all, 0);
    so.snapshot_id = id;
    so.tag = tag;
    if ((*rc = paimon_table_open(&t, table, &err)) != 0 ||
        (*rc = paimon_table_scan(&scan, t, &so, &err)) != 0 ||
        (*rc = paimon_scan_cursor(&rows, scan, &err)) != 0)
        goto done;
    for (;;) {
        const char *json;
        size_t len;
        int r = paimon_cursor_next(rows, &err);
        if (r == PAIMON_ITEROVER)
            break;
        if (r != 0 || (r = paimon_cursor_row_json(rows, &json, &len, &err)) != 0) {
            *rc = r;
            goto done;
        }
        pm_strlist_pushn(&lines, json, len);
    }
    pm_strlist_sort(&lines);
    for (size_t i = 0; i < lines.count; i++) {
        pm_buf_puts(&all, lines.items[i]);
        pm_buf_putc(&all, '\n');
    }
    pm_buf_putc(&all, '\0');
    out = (char *)pm_buf_detach(&all, NULL);
done:
    if (out == NULL && why != NULL)
        snprintf(why, why_len, "%s", err.message);
    pm_strlist_free(&lines);
    pm_buf_free(&all);
    paimon_cursor_free(rows);
    paimon_scan_free(scan);
    paimon_table_free(t);
    return out;
}

int pm_test_commit_jsonl(const char *table, const char *rows, int64_t *id, paimon_error *err,
                         paimon_error *maintain_err)
{
    paimon_table *t = NULL;
    paimon_writer *w = NULL;
    paimon_input *in = NULL;
    paimon_commit_messages *m = NULL;
    paimon_commit_options cmo = PAIMON_COMMIT_OPTIONS_INIT;
    paimon_commit_result res = PAIMON_COMMIT_RESULT_INIT;
    FILE *f = fmemopen((void *)rows, strlen(rows), "r");
    int rc;
    *id = 0;
    cmo.result = &res;
    if (f == NULL)
        return PAIMON_EIO;
    if ((rc = paimon_table_open(&t, table, err)) == 0 &&
        (rc = paimon_writer_open(&w, t, NULL, err)) == 0 &&
        (rc = paimon_input_open(&in, w, f, "jsonl", err)) == 0) {
        rc = paimon_input_write(in, w, 0, NULL, err);
        if (rc == PAIMON_ITEROVER)
            rc = 0;
    }
    if (rc == 0 && (rc = paimon_commit_messages_new(&m, err)) == 0 &&
        (rc = paimon_writer_prepare_commit(w, m, err)) == 0)
        rc = paimon_table_commit(t, m, &cmo, id, err);
    if (maintain_err != NULL)
        *maintain_err = res.maintain_err;
    paimon_commit_messages_free(m);
    paimon_input_free(in);
    paimon_writer_free(w);
    paimon_table_free(t);
    fclose(f);
    return rc;
}
