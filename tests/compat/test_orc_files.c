/*
 * ORC in the fixtures:
 *  - every data file named by a manifest entry of any snapshot decodes in full, with the
 *    row count its entry records (values are checked end to end by the table read);
 *  - every ORC manifest list decodes, and its added/deleted counts match the entries of
 *    the manifests it names.
 * The byte-flip sweep over the same files is test_orc_byte_flip.c.
 */
#include <string.h>

#include "testlib.h"

#include "format/orc/orc_reader.h"
#include "meta/file_entry.h"
#include "meta/manifest.h"
#include "meta/snapshot.h"
#include "util/alloc.h"

static bool is_orc_file(const char *path)
{
    size_t len;
    uint8_t *data = pm_test_read_file(path, &len);
    bool orc = len >= 3 && memcmp(data, "ORC", 3) == 0;
    pm_free(data);
    return orc;
}

/* Decodes every row of an ORC file in memory; returns the code and the row count. */
static int decode_all(const uint8_t *data, size_t len, const char *what, int64_t *rows,
                      paimon_error *err)
{
    pm_orc_reader *r = NULL;
    pm_orc_read_options o;
    const pm_orc_vec *v;
    int rc;
    *rows = 0;
    memset(&o, 0, sizeof(o));
    o.batch_rows = 7; /* several batches even for small files */
    o.max_values = 1 << 20;
    if ((rc = pm_orc_reader_open_memory(&r, data, len, what, err)) == 0 &&
        (rc = pm_orc_reader_start(r, &o, err)) == 0) {
        while ((rc = pm_orc_reader_next(r, &v, err)) == 0)
            *rows += v->length;
        if (rc == PAIMON_ITEROVER)
            rc = 0;
    }
    if (rc == 0 && *rows != (int64_t)pm_orc_reader_footer(r)->number_of_rows)
        rc = pm_corrupt(err, "%s: decoded %lld rows, the footer says %llu", what, (long long)*rows,
                        (unsigned long long)pm_orc_reader_footer(r)->number_of_rows);
    pm_orc_reader_free(r);
    return rc;
}

/* Finds a file by name under `dir` (data files sit in partition and bucket folders). */
static char *find_named(const char *dir, const char *name)
{
    pm_strlist found;
    char *path = NULL;
    pm_strlist_init(&found);
    pm_test_find_files(dir, name, &found);
    for (size_t i = 0; i < found.count && path == NULL; i++)
        if (strcmp(strrchr(found.items[i], '/') + 1, name) == 0)
            path = pm_strdup(found.items[i]);
    pm_strlist_free(&found);
    return path;
}

static void test_data_files_row_counts(void **state)
{
    pm_strlist tables, seen;
    pm_fs *fs;
    size_t files = 0, tables_with_orc = 0;
    (void)state;
    if (!pm_test_require_fixtures())
        return;
    fs = pm_fs_local_new(false);
    pm_strlist_init(&tables);
    pm_strlist_init(&seen);
    pm_test_fixture_tables(&tables);
    for (size_t t = 0; t < tables.count; t++) {
        int64_t *ids = NULL;
        size_t nids = 0, before = files;
        paimon_error err = {0};
        if (pm_snapshot_list_ids(fs, tables.items[t], &ids, &nids, &err) != 0)
            fail_msg("%s: %s", tables.items[t], err.message);
        for (size_t s = 0; s < nids; s++) {
            pm_snapshot *snap = NULL;
            pm_arena arena;
            const pm_manifest_entry **live = NULL;
            size_t n = 0;
            pm_arena_init(&arena, 1 << 14);
            if (pm_snapshot_read(fs, tables.items[t], ids[s], &snap, &err) != 0 ||
                pm_snapshot_live_entries(fs, tables.items[t], snap, &arena, &live, &n, &err) != 0)
                fail_msg("%s snapshot %lld: %s", tables.items[t], (long long)ids[s], err.message);
            for (size_t i = 0; i < n; i++) {
                const pm_data_file_meta *m = &live[i]->file;
                char *path = find_named(tables.items[t], m->file_name);
                size_t len;
                uint8_t *data;
                int64_t rows;
                bool dup = false;
                if (path == NULL)
                    fail_msg("%s: %s is missing", tables.items[t], m->file_name);
                for (size_t k = 0; k < seen.count && !dup; k++)
                    dup = strcmp(seen.items[k], path) == 0;
                if (dup || !is_orc_file(path)) {
                    pm_free(path);
                    continue;
                }
                pm_strlist_push(&seen, path);
                data = pm_test_read_file(path, &len);
                assert_int_equal((int64_t)len, m->file_size);
                if (decode_all(data, len, path, &rows, &err) != 0)
                    fail_msg("%s", err.message);
                if (rows != m->row_count)
                    fail_msg("%s: %lld rows, the manifest entry records %lld", path,
                             (long long)rows, (long long)m->row_count);
                files++;
                pm_free(data);
                pm_free(path);
            }
            pm_arena_free(&arena);
            pm_snapshot_free(snap);
        }
        tables_with_orc += files > before;
        pm_free(ids);
    }
    printf("%zu ORC data files in %zu tables decode with their entries' row counts\n", files,
           tables_with_orc);
    assert_true(files >= 30);
    pm_strlist_free(&seen);
    pm_strlist_free(&tables);
    pm_fs_free(fs);
}

static void test_manifest_lists_match_manifests(void **state)
{
    pm_strlist lists;
    pm_fs *fs;
    size_t checked = 0;
    (void)state;
    if (!pm_test_require_fixtures())
        return;
    fs = pm_fs_local_new(false);
    pm_strlist_init(&lists);
    pm_test_find_files(pm_test_fixtures(), "manifest-list-", &lists);
    for (size_t l = 0; l < lists.count; l++) {
        const char *path = lists.items[l];
        char *table = pm_strndup(path, (size_t)(strstr(path, "/manifest/") - path));
        pm_arena arena;
        pm_manifest_file_meta *metas = NULL;
        size_t n = 0;
        paimon_error err = {0};
        if (!is_orc_file(path)) {
            pm_free(table);
            continue;
        }
        pm_arena_init(&arena, 1 << 14);
        if (pm_manifest_list_read(fs, table, strrchr(path, '/') + 1, -1, &arena, &metas, &n,
                                  &err) != 0)
            fail_msg("%s", err.message);
        for (size_t i = 0; i < n; i++) {
            pm_manifest_entry *e = NULL;
            size_t ne = 0;
            int64_t added = 0, deleted = 0;
            if (pm_manifest_read(fs, table, metas[i].file_name, metas[i].file_size, &arena, &e, &ne,
                                 &err) != 0)
                fail_msg("%s", err.message);
            for (size_t k = 0; k < ne; k++)
                e[k].kind == PM_FILE_KIND_ADD ? added++ : deleted++;
            assert_int_equal(added, metas[i].num_added_files);
            assert_int_equal(deleted, metas[i].num_deleted_files);
            checked++;
        }
        pm_arena_free(&arena);
        pm_free(table);
    }
    printf("%zu manifests named by ORC manifest lists match their counts\n", checked);
    assert_true(checked > 50);
    pm_strlist_free(&lists);
    pm_fs_free(fs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_data_files_row_counts),
        cmocka_unit_test(test_manifest_lists_match_manifests),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
