/* The live files of a snapshot in listing order (meta/live_files.h): DELETE entries remove
 * their ADDs; partitions are ordered by value (a negative INT before a positive one, though
 * its bytes are larger; NULL first), then bucket, level, file name; the `keep` callback
 * chooses; a partition of the wrong arity is corrupt data naming the file; an unpartitioned
 * table sorts by bucket alone; an allocation failure anywhere is PAIMON_ENOMEM. */
#include <stdlib.h>
#include <string.h>

#include "manifest_util.h"
#include "testlib.h"

#include "data/binary_row.h"
#include "meta/live_files.h"
#include "util/alloc.h"
#include "util/arena.h"

static pm_arena arena; /* bytes of the entries written */

/* A serialized INT partition row: `v` NULL for a null, "-" for an empty row (arity 0). */
static pm_avro_bytes part(const char *v)
{
    pm_type *type = pm_type_new(PM_TYPE_INT);
    const pm_type *tp = type;
    pm_datum d;
    pm_buf b;
    pm_avro_bytes out;
    memset(&d, 0, sizeof(d));
    d.is_null = v == NULL;
    if (v != NULL)
        d.v.i = strtol(v, NULL, 10);
    pm_buf_init(&b, 0);
    assert_int_equal(pm_binrow_serialize(&b, &tp, &d, v != NULL && strcmp(v, "-") == 0 ? 0 : 1), 0);
    out.ptr = pm_arena_dup(&arena, b.data, b.len);
    out.len = b.len;
    pm_buf_free(&b);
    pm_type_free(type);
    return out;
}

static pm_manifest_entry entry(int kind, const char *name, const char *p, int32_t bucket,
                               int32_t level)
{
    pm_manifest_entry e;
    memset(&e, 0, sizeof(e));
    e.version = PM_MANIFEST_VERSION;
    e.kind = kind;
    e.partition = part(p);
    e.bucket = bucket;
    e.total_buckets = 4;
    e.file.file_name = name;
    e.file.file_size = 10;
    e.file.row_count = 1;
    e.file.level = level;
    e.file.extra_files.present = true;
    return e;
}

/* A snapshot whose base list holds `base` and delta list `delta` (one manifest each). */
static void make_snapshot(pm_fs *fs, pm_snapshot *snap, const pm_manifest_entry *base, size_t nb,
                          const pm_manifest_entry *delta, size_t nd)
{
    pm_manifest_file_meta m;
    pm_test_write_manifest(fs, "m-base", base, nb, &m);
    pm_test_write_list(fs, "list-base", &m, 1);
    pm_test_write_manifest(fs, "m-delta", delta, nd, &m);
    pm_test_write_list(fs, "list-delta", &m, 1);
    memset(snap, 0, sizeof(*snap));
    snap->id = 1;
    snap->base_manifest_list = "list-base";
    snap->base_manifest_list_size = PM_ABSENT;
    snap->delta_manifest_list = "list-delta";
    snap->delta_manifest_list_size = PM_ABSENT;
}

static pm_field *int_field(void)
{
    static pm_field f;
    static pm_type *type;
    if (type == NULL)
        type = pm_type_new(PM_TYPE_INT);
    f.id = 1;
    f.name = "p";
    f.type = type;
    return &f;
}

static bool skip_postpone(const pm_manifest_entry *e, void *ctx)
{
    (*(int *)ctx)++;
    return e->bucket != -2;
}

static void test_order(void **state)
{
    pm_fs *fs = pm_fs_memory_new();
    const pm_field *parts[1] = {int_field()};
    pm_manifest_entry base[5], delta[3];
    pm_snapshot snap;
    pm_arena a;
    pm_live_file *files = NULL;
    size_t n = 0;
    paimon_error err = {0};
    int calls = 0;
    static const char *const want[] = {"null-b0",  "neg-b1", "p2-b0-l0-a", "p2-b0-l0-b",
                                       "p2-b0-l3", "p2-b3",  "p10-b0"};
    (void)state;
    pm_arena_init(&arena, 4096);
    base[0] = entry(PM_FILE_KIND_ADD, "p10-b0", "10", 0, 0);
    base[1] = entry(PM_FILE_KIND_ADD, "p2-b0-l3", "2", 0, 3);
    base[2] = entry(PM_FILE_KIND_ADD, "p2-b3", "2", 3, 0);
    base[3] = entry(PM_FILE_KIND_ADD, "gone", "2", 0, 0);
    base[4] = entry(PM_FILE_KIND_ADD, "p2-b0-l0-b", "2", 0, 0);
    delta[0] = entry(PM_FILE_KIND_DELETE, "gone", "2", 0, 0);
    delta[1] = entry(PM_FILE_KIND_ADD, "neg-b1", "-1", 1, 0);
    delta[2] = entry(PM_FILE_KIND_ADD, "p2-b0-l0-a", "2", 0, 0);
    pm_arena_init(&a, 4096);
    /* and a null partition and a postponed file */
    {
        pm_manifest_entry more[2] = {entry(PM_FILE_KIND_ADD, "null-b0", NULL, 0, 0),
                                     entry(PM_FILE_KIND_ADD, "postponed", "2", -2, 0)};
        pm_manifest_entry all[7];
        memcpy(all, base, sizeof(base));
        memcpy(all + 5, more, sizeof(more));
        make_snapshot(fs, &snap, all, 7, delta, 3);
    }
    assert_int_equal(
        pm_live_files_sorted(fs, "t", &snap, parts, 1, NULL, NULL, &a, &files, &n, &err), 0);
    assert_int_equal(n, 8);
    assert_string_equal(files[0].e->file.file_name, "null-b0");
    assert_string_equal(files[1].e->file.file_name, "neg-b1");
    assert_string_equal(files[2].e->file.file_name, "postponed"); /* bucket -2 first */
    /* with the callback: the postponed file is left out, every entry was offered once */
    assert_int_equal(
        pm_live_files_sorted(fs, "t", &snap, parts, 1, skip_postpone, &calls, &a, &files, &n, &err),
        0);
    assert_int_equal(calls, 8);
    assert_int_equal(n, 7);
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(files[i].e->file.file_name, want[i]);
        assert_int_equal(files[i].partition.arity, 1);
    }
    pm_arena_free(&a);
    pm_arena_free(&arena);
    pm_fs_free(fs);
}

static void test_wrong_arity(void **state)
{
    pm_fs *fs = pm_fs_memory_new();
    const pm_field *parts[1] = {int_field()};
    pm_manifest_entry base[2], none[1];
    pm_snapshot snap;
    pm_arena a;
    pm_live_file *files = NULL;
    size_t n = 0;
    paimon_error err = {0};
    (void)state;
    pm_arena_init(&arena, 4096);
    base[0] = entry(PM_FILE_KIND_ADD, "ok", "1", 0, 0);
    base[1] = entry(PM_FILE_KIND_ADD, "bad", "-", 0, 0);
    none[0] = entry(PM_FILE_KIND_ADD, "ok2", "1", 1, 0);
    make_snapshot(fs, &snap, base, 2, none, 1);
    pm_arena_init(&a, 4096);
    assert_int_equal(
        pm_live_files_sorted(fs, "t", &snap, parts, 1, NULL, NULL, &a, &files, &n, &err),
        PAIMON_ECORRUPT);
    assert_string_equal(err.message, "t: data file bad has a partition of 0 fields, the table 1");
    assert_int_equal(n, 0);
    /* an unpartitioned table: every row must be empty, so "ok" is now the bad one */
    assert_int_equal(
        pm_live_files_sorted(fs, "t", &snap, parts, 0, NULL, NULL, &a, &files, &n, &err),
        PAIMON_ECORRUPT);
    assert_non_null(strstr(err.message, "has a partition of 1 fields, the table 0"));
    pm_arena_free(&a);
    pm_arena_free(&arena);
    pm_fs_free(fs);
}

static void test_unpartitioned(void **state)
{
    pm_fs *fs = pm_fs_memory_new();
    pm_manifest_entry base[3], delta[1];
    pm_snapshot snap;
    pm_arena a;
    pm_live_file *files = NULL;
    size_t n = 0;
    paimon_error err = {0};
    (void)state;
    pm_arena_init(&arena, 4096);
    base[0] = entry(PM_FILE_KIND_ADD, "b2", "-", 2, 0);
    base[1] = entry(PM_FILE_KIND_ADD, "b0-z", "-", 0, 1);
    base[2] = entry(PM_FILE_KIND_ADD, "b0-y", "-", 0, 1);
    delta[0] = entry(PM_FILE_KIND_ADD, "b1", "-", 1, 5);
    make_snapshot(fs, &snap, base, 3, delta, 1);
    pm_arena_init(&a, 4096);
    assert_int_equal(
        pm_live_files_sorted(fs, "t", &snap, NULL, 0, NULL, NULL, &a, &files, &n, &err), 0);
    assert_int_equal(n, 4);
    assert_string_equal(files[0].e->file.file_name, "b0-y");
    assert_string_equal(files[1].e->file.file_name, "b0-z");
    assert_string_equal(files[2].e->file.file_name, "b1");
    assert_string_equal(files[3].e->file.file_name, "b2");
    pm_arena_free(&a);
    /* allocation failures: ENOMEM, never a crash or a leak */
    for (long k = 1; k < 10000; k++) {
        int rc;
        pm_arena_init(&a, 4096);
        pm_alloc_fail_after(k);
        rc = pm_live_files_sorted(fs, "t", &snap, NULL, 0, NULL, NULL, &a, &files, &n, &err);
        pm_alloc_fail_after(0);
        pm_arena_free(&a);
        if (rc == 0)
            break;
        assert_int_equal(rc, PAIMON_ENOMEM);
    }
    pm_arena_free(&arena);
    pm_fs_free(fs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order),
        cmocka_unit_test(test_wrong_arity),
        cmocka_unit_test(test_unpartitioned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
