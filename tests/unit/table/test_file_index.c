/* Bloom-filter file indexes: XXH64 and Java's long hash (reference values from libxxhash
 * and from Java's own arithmetic), BloomFilter64 sizes, the FileIndexFormat container,
 * the column order Java's HashMaps give, and a scan that skips the files whose bloom
 * filter excludes an equality or IN literal (embedded indexes and `.index` files). */
#include <string.h>

#include "testlib.h"

#include "data/expr.h"
#include "format/file_index.h"
#include "paimon.h"
#include "table/commit.h"
#include "table/scan.h"
#include "table/table.h"
#include "table/write/file_index_writer.h"
#include "table/write/table_write.h"
#include "util/alloc.h"
#include "util/hash.h"

static void test_hashes(void **state)
{
    pm_type *big = pm_type_new(PM_TYPE_BIGINT), *f = pm_type_new(PM_TYPE_FLOAT),
            *d = pm_type_new(PM_TYPE_DOUBLE);
    pm_datum x;
    uint8_t seq[100];
    (void)state;
    /* XXH64, seed 0 (libxxhash 0.8) */
    assert_true(pm_xxh64("", 0, 0) == 0xef46db3751d8e999ull);
    assert_true(pm_xxh64("a", 1, 0) == 0xd24ec4f1a98c6e5bull);
    assert_true(pm_xxh64("abc", 3, 0) == 0x44bc2cf5ad770999ull);
    assert_true(pm_xxh64("hello world!", 12, 0) == 0x9bb9a01dc10f4709ull);
    assert_true(pm_xxh64("Nobody inspects the spammish repetition", 39, 0) ==
                0xfbcea83c8a378bf1ull);
    for (int i = 0; i < 100; i++)
        seq[i] = (uint8_t)i;
    assert_true(pm_xxh64(seq, 100, 0) == 0x6ac1e58032166597ull);
    /* FastHash.getLongHash, values computed by Java */
    x = pm_datum_int(0);
    assert_true(pm_bloom_hash(big, &x) == 0);
    x = pm_datum_int(1);
    assert_true(pm_bloom_hash(big, &x) == 0x5bca7c69b794f8ceull);
    x = pm_datum_int(-1);
    assert_true(pm_bloom_hash(big, &x) == 0x5bca868437950d03ull);
    x = pm_datum_int(123456789);
    assert_true(pm_bloom_hash(big, &x) == 0xe61ef031a43fdaf8ull);
    x = pm_datum_int(INT64_MIN);
    assert_true(pm_bloom_hash(big, &x) == 0x3be7d0f7780de548ull);
    x.v.f = 1.5f;
    assert_true(pm_bloom_hash(f, &x) == 0xad39e1c6b4e29348ull);
    x.v.d = -2.25;
    assert_true(pm_bloom_hash(d, &x) == 0xdbe5444d8edc516cull);
    pm_type_free(big);
    pm_type_free(f);
    pm_type_free(d);
}

static void test_bloom(void **state)
{
    pm_bloom b, v;
    pm_buf out;
    (void)state;
    assert_int_equal(pm_bloom_init(&b, 100, 0.01), 0);
    assert_int_equal(b.num_bits, 960);
    assert_int_equal(b.num_hashes, 7);
    for (uint64_t h = 1; h <= 50; h++)
        pm_bloom_add(&b, h * 0x9E3779B97F4A7C15ull);
    for (uint64_t h = 1; h <= 50; h++)
        assert_true(pm_bloom_test(&b, h * 0x9E3779B97F4A7C15ull));
    pm_buf_init(&out, 0);
    assert_int_equal(pm_bloom_serialize(&b, &out), 0);
    assert_int_equal(out.len, 124);
    assert_int_equal(pm_bloom_view(&v, out.data, out.len, NULL), 0);
    assert_int_equal(v.num_hashes, 7);
    assert_int_equal(v.num_bits, 960);
    assert_true(pm_bloom_test(&v, 3 * 0x9E3779B97F4A7C15ull));
    pm_bloom_free(&v);
    pm_bloom_free(&b);
    pm_buf_free(&out);
    /* Java's defaults: 1,000,000 items at 0.1 */
    assert_int_equal(pm_bloom_init(&b, 1000000, 0.1), 0);
    assert_int_equal(b.num_bits, 4792536);
    assert_int_equal(b.num_hashes, 3);
    pm_bloom_free(&b);
}

static void test_container(void **state)
{
    pm_file_index_item in[3] = {{"a", "bloom-filter", (const uint8_t *)"xyz", 3},
                                {"b", "bloom-filter", NULL, 0},
                                {"b", "bitmap", (const uint8_t *)"pq", 2}};
    pm_file_index_item *out;
    size_t n;
    pm_buf buf;
    pm_arena arena;
    int64_t head;
    (void)state;
    pm_buf_init(&buf, 0);
    pm_arena_init(&arena, 1024);
    assert_int_equal(pm_file_index_serialize(in, 3, &buf, NULL), 0);
    /* 8+4+4+4 + 3 index entries * 8 + 2 columns * 4 + 4 + writeUTF("a","bloom-filter","b",
     * "bloom-filter","bitmap") = 3 + 14 + 3 + 14 + 8 */
    head = 20 + 24 + 8 + 4 + 42;
    assert_int_equal(buf.len, (size_t)head + 5);
    assert_int_equal(pm_file_index_parse(buf.data, buf.len, "t", &arena, &out, &n, NULL), 0);
    assert_int_equal(n, 3);
    assert_string_equal(out[0].column, "a");
    assert_int_equal(out[0].len, 3);
    assert_memory_equal(out[0].data, "xyz", 3);
    assert_null(out[1].data);
    assert_string_equal(out[2].type, "bitmap");
    assert_memory_equal(out[2].data, "pq", 2);
    /* truncated heads are corrupt, never a crash */
    for (size_t len = 0; len < buf.len - 5; len++)
        assert_int_not_equal(pm_file_index_parse(buf.data, len, "t", &arena, &out, &n, NULL), 0);
    pm_arena_free(&arena);
    pm_buf_free(&buf);
}

static void test_java_column_order(void **state)
{
    pm_schema *s = pm_calloc(1, sizeof(*s));
    pm_file_index_conf c;
    paimon_error err;
    /* java.util.HashMap's order (computed by Java 17 with these two maps) */
    const char *expect[] = {"zeta", "c3", "x9", "amount", "éclair", "v", "name", "id", "c1", "c2"};
    (void)state;
    assert_int_equal(pm_columns_parse("zeta INT, id BIGINT, v STRING, name STRING, amount INT, "
                                      "c1 INT, c2 INT, c3 INT, `éclair` INT, x9 INT",
                                      &s->row, &err),
                     0);
    pm_options_init(&s->options);
    pm_options_set(&s->options, "file-index.bloom-filter.columns",
                   "zeta,id,v,name,amount,c1,c2,c3,éclair,x9");
    pm_options_set(&s->options, "file-index.bloom-filter.id.items", "100");
    if (pm_file_index_conf_init(&c, s, s->row, &err) != 0)
        fail_msg("%s", err.message);
    assert_int_equal(c.count, 10);
    for (size_t i = 0; i < 10; i++)
        assert_string_equal(c.columns[i].name, expect[i]); /* as java.util.HashMap iterates */
    assert_string_equal(c.columns[7].name, "id");
    assert_int_equal(c.columns[7].items, 100);
    pm_file_index_conf_free(&c);
    /* refusals */
    pm_options_set(&s->options, "file-index.bloom-filter.nope.fpp", "0.5");
    assert_int_equal(pm_file_index_conf_init(&c, s, s->row, &err), PAIMON_EINVALID);
    pm_schema_free(s);
}

/* An append table of three files (ids 0..99, 100..199, 200..299), indexed on id and v. */
static char *indexed_table(const char *tag, const char *items)
{
    char *path = pm_test_table_path(tag);
    paimon_create_options co = PAIMON_CREATE_OPTIONS_INIT;
    const char *keys[3] = {"file-index.bloom-filter.columns", "file-index.bloom-filter.id.items",
                           "file-index.bloom-filter.v.items"};
    const char *vals[3] = {"id,v", items, items};
    pm_fs *fs = pm_fs_local_new(false);
    paimon_error err;
    co.columns = "id BIGINT, v STRING";
    co.option_keys = keys;
    co.option_values = vals;
    co.option_count = items != NULL ? 3 : 1;
    assert_int_equal(paimon_table_create(path, &co, &err), 0);
    for (int f = 0; f < 3; f++) {
        pm_table_write *w;
        pm_batch *b;
        pm_commit_messages m;
        pm_commit_opts o;
        int64_t id;
        assert_int_equal(pm_table_write_new(&w, fs, path, NULL, &err), 0);
        assert_int_equal(pm_batch_new(&b, pm_table_write_type(w), &err), 0);
        for (int i = 0; i < 100; i++) {
            char v[16];
            int n = snprintf(v, sizeof(v), "v%d", f * 100 + i);
            pm_column_append_i64(b->columns[0], f * 100 + i);
            pm_column_append_bytes(b->columns[1], v, (size_t)n);
        }
        assert_int_equal(pm_batch_set_rows(b, 100, &err), 0);
        pm_commit_messages_init(&m);
        assert_int_equal(pm_table_write_batch(w, b, NULL, &err), 0);
        assert_int_equal(pm_table_write_prepare(w, &m, &err), 0);
        memset(&o, 0, sizeof(o));
        o.commit_user = "u";
        o.identifier = f;
        assert_int_equal(pm_commit(fs, path, &m, &o, &id, &err), 0);
        pm_commit_messages_release(&m);
        pm_batch_free(b);
        pm_table_write_free(w);
    }
    pm_fs_free(fs);
    return path;
}

static size_t files_read(const char *path, const char *where)
{
    paimon_table *t;
    pm_scan_options so;
    pm_scan_plan *plan;
    pm_predicate *filter = NULL;
    paimon_error err;
    size_t files = 0;
    assert_int_equal(paimon_table_open(&t, path, &err), 0);
    if (pm_expr_parse(where, t->schema->row, &filter, &err) != 0)
        fail_msg("%s", err.message);
    memset(&so, 0, sizeof(so));
    so.snapshot.by = PM_SNAPSHOT_LATEST;
    so.filter = filter;
    if (pm_scan_plan_build(t, &so, &plan, &err) != 0)
        fail_msg("%s", err.message);
    for (size_t i = 0; i < plan->split_count; i++)
        files += plan->splits[i].file_count;
    pm_scan_plan_free(plan);
    pm_predicate_free(filter);
    paimon_table_free(t);
    return files;
}

static void check_skipping(const char *path)
{
    assert_int_equal(files_read(path, "id > -1"), 3);
    /* equalities: min/max statistics cannot exclude 150 from file 2 (100..199), the bloom
     * filter of every other file can */
    assert_int_equal(files_read(path, "id = 150"), 1);
    assert_int_equal(files_read(path, "v = 'v150'"), 1);
    assert_int_equal(files_read(path, "v = 'nothing'"), 0);
    assert_int_equal(files_read(path, "id IN (5, 250)"), 2);
    assert_int_equal(files_read(path, "id = 5 OR v = 'v299'"), 2);
    assert_int_equal(files_read(path, "id = 5 AND v = 'v299'"), 0);
}

static void test_scan_skips_embedded(void **state)
{
    char *path = indexed_table("findex-embedded", "100");
    pm_strlist idx;
    (void)state;
    /* small filters fit the manifest: no .index files */
    pm_strlist_init(&idx);
    pm_test_find_files(path, "data-", &idx);
    for (size_t i = 0; i < idx.count; i++)
        assert_null(strstr(idx.items[i], ".index"));
    pm_strlist_free(&idx);
    check_skipping(path);
    pm_free(path);
}

static void test_scan_skips_index_files(void **state)
{
    char *path = indexed_table("findex-files", NULL);
    pm_strlist files;
    size_t index_files = 0;
    (void)state;
    /* default items (1,000,000): 599,071-byte filters, written as <data file>.index */
    pm_strlist_init(&files);
    pm_test_find_files(path, "data-", &files);
    for (size_t i = 0; i < files.count; i++)
        index_files += strstr(files.items[i], ".index") != NULL;
    assert_int_equal(index_files, 3);
    pm_strlist_free(&files);
    check_skipping(path);
    pm_free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hashes),
        cmocka_unit_test(test_bloom),
        cmocka_unit_test(test_container),
        cmocka_unit_test(test_java_column_order),
        cmocka_unit_test(test_scan_skips_embedded),
        cmocka_unit_test(test_scan_skips_index_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
