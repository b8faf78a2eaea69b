/*
 * Buckets as Java assigns them (table/write/bucket_fn.h):
 *  - the vectors pinned by Java's FixedBucketRowKeyExtractorTest (INT a=5, b=6, c=7 over 100
 *    buckets: 96, 27, 40) and the BIGINT 1 over 4 buckets of metadata.md §11.3;
 *  - every fixed-bucket fixture table: each row of each live Parquet data file, re-bucketed
 *    with the table's bucket key and function, lands in the bucket its manifest entry says.
 */
#include <string.h>

#include "testlib.h"

#include "format/data_file.h"
#include "meta/file_entry.h"
#include "meta/schema.h"
#include "table/scan.h"
#include "table/table.h"
#include "table/write/bucket_fn.h"
#include "util/alloc.h"

static pm_schema *schema_with(const char *columns, const char *bucket_key, const char *buckets)
{
    pm_schema *s = pm_calloc(1, sizeof(*s));
    paimon_error err = {0};
    assert_int_equal(pm_columns_parse(columns, &s->row, &err), 0);
    pm_strlist_init(&s->partition_keys);
    pm_strlist_init(&s->primary_keys);
    pm_options_init(&s->options);
    assert_int_equal(pm_options_set(&s->options, "bucket", buckets), 0);
    if (bucket_key != NULL)
        assert_int_equal(pm_options_set(&s->options, "bucket-key", bucket_key), 0);
    return s;
}

static int32_t bucket_of(const char *columns, const char *key, const char *buckets,
                         const int64_t *values)
{
    pm_schema *s = schema_with(columns, key, buckets);
    pm_bucket_fn f;
    pm_batch *b;
    paimon_error err = {0};
    int32_t bucket = -1;
    assert_int_equal(pm_batch_new(&b, s->row, &err), 0);
    for (size_t i = 0; i < s->row->field_count; i++)
        assert_int_equal(pm_column_append_i64(b->columns[i], values[i]), 0);
    assert_int_equal(pm_batch_set_rows(b, 1, &err), 0);
    if (pm_bucket_fn_init(&f, s, s->row, &err) != 0)
        fail_msg("%s", err.message);
    assert_int_equal(pm_bucket_fn_bucket(&f, b, 0, &bucket, &err), 0);
    pm_bucket_fn_free(&f);
    pm_batch_free(b);
    pm_schema_free(s);
    return bucket;
}

static void test_pinned_vectors(void **state)
{
    const int64_t abc[] = {5, 6, 7};
    const int64_t one[] = {1};
    const int64_t neg[] = {-7};
    (void)state;
    assert_int_equal(bucket_of("a INT, b INT, c INT", "a", "100", abc), 96);
    assert_int_equal(bucket_of("a INT, b INT, c INT", "a,b", "100", abc), 27);
    assert_int_equal(bucket_of("a INT, b INT, c INT", "a,b,c", "100", abc), 40);
    assert_int_equal(bucket_of("k BIGINT", "k", "4", one), 2);
    /* bucket-function.type = mod: floorMod */
    {
        pm_schema *s = schema_with("k BIGINT", "k", "4");
        pm_bucket_fn f;
        pm_batch *b;
        int32_t bucket;
        assert_int_equal(pm_options_set(&s->options, "bucket-function.type", "mod"), 0);
        assert_int_equal(pm_batch_new(&b, s->row, NULL), 0);
        assert_int_equal(pm_column_append_i64(b->columns[0], neg[0]), 0);
        assert_int_equal(pm_batch_set_rows(b, 1, NULL), 0);
        assert_int_equal(pm_bucket_fn_init(&f, s, s->row, NULL), 0);
        assert_int_equal(pm_bucket_fn_bucket(&f, b, 0, &bucket, NULL), 0);
        assert_int_equal(bucket, 1);
        pm_bucket_fn_free(&f);
        pm_batch_free(b);
        pm_schema_free(s);
    }
}

static void check_table(const char *table, size_t *rows, size_t *tables)
{
    paimon_error err = {0};
    paimon_table *t = NULL;
    pm_snapshot *snap = NULL;
    pm_arena arena;
    const pm_manifest_entry **live = NULL;
    size_t count = 0;
    int64_t buckets = -1;
    bool counted = false;
    if (paimon_table_open(&t, table, &err) != 0)
        return;
    if (pm_options_get_i64(&t->schema->options, "bucket", &buckets, &err) != 0 || buckets <= 0 ||
        pm_table_snapshot(t, -1, &snap, &err) != 0) {
        paimon_table_free(t);
        return;
    }
    pm_arena_init(&arena, 64 * 1024);
    if (pm_snapshot_live_entries(t->fs, t->path, snap, &arena, &live, &count, &err) != 0)
        goto done; /* ORC manifests: not readable yet */
    for (size_t i = 0; i < count; i++) {
        const pm_manifest_entry *e = live[i];
        pm_schema *s = NULL;
        const char *path;
        pm_data_file *f = NULL;
        pm_bucket_fn fn;
        pm_read_options ro;
        size_t len = strlen(e->file.file_name);
        if (len < 8 || strcmp(e->file.file_name + len - 8, ".parquet") != 0)
            continue;
        assert_int_equal(pm_table_schema(t, e->file.schema_id, &s, &err), 0);
        path = pm_data_file_path(t, s, e, &arena, &err);
        assert_non_null(path);
        assert_int_equal(pm_data_file_open(&f, t->fs, path, &err), 0);
        if (pm_bucket_fn_init(&fn, s, f->format->type(f->impl), &err) != 0)
            fail_msg("%s: %s", table, err.message);
        memset(&ro, 0, sizeof(ro));
        assert_int_equal(f->format->start(f->impl, &ro, &err), 0);
        for (;;) {
            pm_batch *b = NULL;
            int rc = f->format->next(f->impl, &b, &err);
            if (rc == PAIMON_ITEROVER)
                break;
            assert_int_equal(rc, 0);
            for (int64_t r = 0; r < b->row_count; r++) {
                int32_t bucket;
                assert_int_equal(pm_bucket_fn_bucket(&fn, b, r, &bucket, &err), 0);
                if (bucket != e->bucket)
                    fail_msg("%s %s row %lld: bucket %d, the entry says %d", table,
                             e->file.file_name, (long long)r, bucket, e->bucket);
                (*rows)++;
            }
            pm_batch_free(b);
        }
        if (!counted) {
            (*tables)++;
            counted = true;
        }
        pm_bucket_fn_free(&fn);
        pm_data_file_free(f);
        pm_table_schema_release(t, s);
    }
done:
    pm_arena_free(&arena);
    pm_snapshot_free(snap);
    paimon_table_free(t);
}

static void test_fixture_buckets(void **state)
{
    pm_strlist tables;
    size_t rows = 0, ntables = 0;
    (void)state;
    if (!pm_test_require_fixtures())
        skip();
    pm_strlist_init(&tables);
    pm_test_fixture_tables(&tables);
    for (size_t i = 0; i < tables.count; i++)
        check_table(tables.items[i], &rows, &ntables);
    printf("%zu rows of %zu fixed-bucket fixture tables re-bucketed into their buckets\n", rows,
           ntables);
    pm_strlist_free(&tables);
    assert_true(rows > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pinned_vectors),
        cmocka_unit_test(test_fixture_buckets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
