/* The deletion vectors of a bucket while it is written (table/write/dv_maintainer.h): marks,
 * removals and writes of whole index files whose ranges decode to the same vectors; the
 * 64-bit format under bitmap64 and for restored 64-bit vectors; damaged files refused by
 * name.  (Restoring Java's files: tests/compat/dv_coexist.test.sh.) */
#include <string.h>

#include "testlib.h"

#include "io/fs.h"
#include "table/write/dv_maintainer.h"
#include "util/alloc.h"

typedef struct world {
    pm_fs *fs;
    pm_path_factory names;
    pm_arena arena;
} world;

static void world_init(world *w)
{
    w->fs = pm_fs_memory_new();
    assert_non_null(w->fs);
    assert_int_equal(pm_path_factory_init(&w->names), 0);
    pm_arena_init(&w->arena, 1024);
    assert_int_equal(w->fs->mkdirs(w->fs, "/t/index", NULL), 0);
}

static void world_free(world *w)
{
    pm_arena_free(&w->arena);
    pm_fs_free(w->fs);
}

static void write_index(world *w, pm_dv_maintainer *m, pm_index_manifest_entry *e, bool *written)
{
    paimon_error err = {0};
    static const uint8_t part[] = {0, 0, 0, 1};
    if (pm_dv_maintainer_write(m, w->fs, "/t/index", &w->names, part, sizeof(part), 3, &w->arena, e,
                               written, &err) != 0)
        fail_msg("%s", err.message);
}

static const pm_dv_range *range_of(const pm_index_manifest_entry *e, const char *file)
{
    for (size_t i = 0; i < e->dv_ranges.count; i++) {
        const pm_dv_range *r = (const pm_dv_range *)e->dv_ranges.items + i;
        if (strcmp(r->data_file, file) == 0)
            return r;
    }
    return NULL;
}

/* The range of `file`, which must be there (a miss fails the test). */
static const pm_dv_range *found_range(const pm_index_manifest_entry *e, const char *file)
{
    static const pm_dv_range none;
    const pm_dv_range *r = range_of(e, file);
    if (r == NULL) {
        fail_msg("no deletion vector range for %s", file);
        return &none;
    }
    return r;
}

/* Reads the vector a written entry records for `file`, as a reader would. */
static pm_dv *read_back(world *w, const pm_index_manifest_entry *e, const char *file)
{
    char path[256];
    const pm_dv_range *r = found_range(e, file);
    pm_dv *dv = NULL;
    paimon_error err = {0};
    snprintf(path, sizeof(path), "/t/index/%s", e->file_name);
    if (pm_dv_read(w->fs, path, r->offset, r->length, &dv, &err) != 0)
        fail_msg("%s", err.message);
    assert_int_equal(pm_dv_cardinality(dv), r->cardinality);
    return dv;
}

static void test_mark_remove_write(void **state)
{
    world w;
    pm_dv_maintainer *m = NULL;
    pm_index_manifest_entry e, again;
    paimon_error err = {0};
    bool written;
    pm_dv *dv;
    (void)state;
    world_init(&w);
    assert_int_equal(pm_dv_maintainer_new(&m, w.fs, false, NULL, NULL, &err), 0);
    assert_false(pm_dv_maintainer_modified(m));
    write_index(&w, m, &e, &written);
    assert_false(written); /* nothing changed: no file */

    assert_int_equal(pm_dv_maintainer_mark(m, "data-b.parquet", 7, &err), 0);
    assert_int_equal(pm_dv_maintainer_mark(m, "data-a.parquet", 3, &err), 0);
    assert_int_equal(pm_dv_maintainer_mark(m, "data-b.parquet", 1, &err), 0);
    assert_int_equal(pm_dv_maintainer_mark(m, "data-c.parquet", 0, &err), 0);
    assert_true(pm_dv_maintainer_modified(m));
    assert_int_equal(pm_dv_cardinality(pm_dv_maintainer_get(m, "data-b.parquet")), 2);
    assert_null(pm_dv_maintainer_get(m, "data-x.parquet"));
    assert_int_not_equal(pm_dv_maintainer_mark(m, "data-a.parquet", -1, &err), 0);
    pm_dv_maintainer_remove(m, "data-c.parquet");
    assert_null(pm_dv_maintainer_get(m, "data-c.parquet"));

    write_index(&w, m, &e, &written);
    assert_true(written);
    assert_false(pm_dv_maintainer_modified(m));
    assert_string_equal(e.index_type, "DELETION_VECTORS");
    assert_int_equal(e.kind, PM_FILE_KIND_ADD);
    assert_int_equal(e.bucket, 3);
    assert_int_equal(e.row_count, 2); /* a and b; c was removed */
    assert_int_equal(e.dv_ranges.count, 2);
    assert_null(range_of(&e, "data-c.parquet"));
    /* records in file-name order, the first right after the version byte */
    assert_int_equal(found_range(&e, "data-a.parquet")->offset, 1);
    dv = read_back(&w, &e, "data-b.parquet");
    assert_true(pm_dv_contains(dv, 1) && pm_dv_contains(dv, 7) && !pm_dv_contains(dv, 3));
    assert_false(pm_dv_is_64(dv));
    pm_dv_free(dv);

    /* a known position changes nothing (checkedDelete) */
    assert_int_equal(pm_dv_maintainer_mark(m, "data-a.parquet", 3, &err), 0);
    assert_false(pm_dv_maintainer_modified(m));

    /* restoring the written file gives the same vectors */
    {
        char path[256];
        pm_dv_maintainer *r = NULL;
        snprintf(path, sizeof(path), "/t/index/%s", e.file_name);
        if (pm_dv_maintainer_new(&r, w.fs, false, &e, path, &err) != 0)
            fail_msg("%s", err.message);
        assert_int_equal(pm_dv_cardinality(pm_dv_maintainer_get(r, "data-a.parquet")), 1);
        assert_int_equal(pm_dv_cardinality(pm_dv_maintainer_get(r, "data-b.parquet")), 2);
        assert_false(pm_dv_maintainer_modified(r));
        pm_dv_maintainer_remove(r, "data-a.parquet");
        pm_dv_maintainer_remove(r, "data-b.parquet");
        write_index(&w, r, &again, &written);
        assert_true(written); /* an emptied bucket still writes its (empty) index file */
        assert_int_equal(again.row_count, 0);
        assert_int_equal(again.file_size, 1);
        assert_string_not_equal(again.file_name, e.file_name);
        pm_dv_maintainer_free(r);
    }
    pm_dv_maintainer_free(m);
    world_free(&w);
}

static void test_bitmap64(void **state)
{
    world w;
    pm_dv_maintainer *m = NULL, *r = NULL;
    pm_index_manifest_entry e, e2;
    paimon_error err = {0};
    bool written;
    char path[256];
    pm_dv *dv;
    (void)state;
    world_init(&w);
    assert_int_equal(pm_dv_maintainer_new(&m, w.fs, true, NULL, NULL, &err), 0);
    assert_int_equal(pm_dv_maintainer_mark(m, "data-a.parquet", 5, &err), 0);
    assert_int_equal(pm_dv_maintainer_mark(m, "data-a.parquet", (int64_t)1 << 33, &err), 0);
    write_index(&w, m, &e, &written);
    assert_true(written);
    dv = read_back(&w, &e, "data-a.parquet");
    assert_true(pm_dv_is_64(dv));
    assert_true(pm_dv_contains(dv, (uint64_t)1 << 33) && pm_dv_contains(dv, 5));
    /* the 64-bit range covers the whole record: 4 + size + 4 */
    assert_int_equal(found_range(&e, "data-a.parquet")->length, (int32_t)(e.file_size - 1));
    pm_dv_free(dv);

    /* a restored 64-bit vector stays 64-bit under a 32-bit maintainer */
    snprintf(path, sizeof(path), "/t/index/%s", e.file_name);
    assert_int_equal(pm_dv_maintainer_new(&r, w.fs, false, &e, path, &err), 0);
    assert_int_equal(pm_dv_maintainer_mark(r, "data-a.parquet", 6, &err), 0);
    assert_int_equal(pm_dv_maintainer_mark(r, "data-b.parquet", 6, &err), 0);
    write_index(&w, r, &e2, &written);
    dv = read_back(&w, &e2, "data-a.parquet");
    assert_true(pm_dv_is_64(dv));
    assert_int_equal(pm_dv_cardinality(dv), 3);
    pm_dv_free(dv);
    dv = read_back(&w, &e2, "data-b.parquet");
    assert_false(pm_dv_is_64(dv));
    pm_dv_free(dv);
    pm_dv_maintainer_free(r);
    pm_dv_maintainer_free(m);
    world_free(&w);
}

static void test_damaged_restore(void **state)
{
    world w;
    pm_dv_maintainer *m = NULL;
    pm_index_manifest_entry e;
    paimon_error err = {0};
    bool written;
    char path[256];
    (void)state;
    world_init(&w);
    assert_int_equal(pm_dv_maintainer_new(&m, w.fs, false, NULL, NULL, &err), 0);
    assert_int_equal(pm_dv_maintainer_mark(m, "data-a.parquet", 5, &err), 0);
    write_index(&w, m, &e, &written);
    pm_dv_maintainer_free(m);
    snprintf(path, sizeof(path), "/t/index/%s", e.file_name);
    /* a wrong version byte */
    {
        size_t len;
        uint8_t *data = NULL;
        assert_int_equal(pm_fs_read_all(w.fs, path, 1 << 20, &data, &len, &err), 0);
        data[0] = 9;
        assert_int_equal(w.fs->remove(w.fs, path, NULL), 0);
        assert_int_equal(pm_fs_write_file(w.fs, path, data, len, &err), 0);
        assert_int_not_equal(pm_dv_maintainer_new(&m, w.fs, false, &e, path, &err), 0);
        assert_non_null(strstr(err.message, e.file_name));
        /* a range past the end */
        data[0] = 1;
        assert_int_equal(w.fs->remove(w.fs, path, NULL), 0);
        assert_int_equal(pm_fs_write_file(w.fs, path, data, len, &err), 0);
        ((pm_dv_range *)e.dv_ranges.items)[0].offset = (int32_t)len + 10;
        assert_int_not_equal(pm_dv_maintainer_new(&m, w.fs, false, &e, path, &err), 0);
        assert_non_null(strstr(err.message, "data-a.parquet"));
        pm_free(data);
    }
    world_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mark_remove_write),
        cmocka_unit_test(test_bitmap64),
        cmocka_unit_test(test_damaged_restore),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
