/*
 * ORC manifests written by paimon-c (manifest_orc.h): the three kinds round-trip through
 * the same structs with every field set and unset; their type trees are exactly Java
 * 1.4.2's (metadata.md §9A.2, with paimon.id attributes); an empty manifest list still
 * carries the type tree; manifest.format parsing; and a table with manifest.format=orc
 * committed through the commit layer has ORC manifest lists, manifests and index
 * manifests that read back to the committed files.
 */
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

#include "format/orc/orc_describe.h"
#include "meta/file_entry.h"
#include "meta/manifest.h"
#include "meta/manifest_orc.h"
#include "meta/paths.h"
#include "meta/snapshot.h"
#include "paimon.h"
#include "table/commit.h"
#include "util/alloc.h"

static void encode_all(const pm_avro_rdesc *rd, const void *records, size_t n, pm_buf *out)
{
    for (size_t i = 0; i < n; i++)
        assert_int_equal(pm_avro_encode(rd, (const uint8_t *)records + i * rd->size, out), 0);
}

/* Writes records as ORC, reads them back, and compares their Avro encodings. */
static void round_trip(const pm_avro_rdesc *rd, const void *records, size_t n, int32_t version)
{
    pm_buf file, a, b;
    pm_arena arena;
    void *back = NULL;
    size_t m = 0;
    paimon_error err = {0};
    pm_buf_init(&file, 0);
    pm_buf_init(&a, 0);
    pm_buf_init(&b, 0);
    pm_arena_init(&arena, 1 << 12);
    if (pm_manifest_encode_format(PM_MANIFEST_ORC, rd, records, n, "zstd", 1, &file, &err) != 0)
        fail_msg("%s", err.message);
    assert_memory_equal(file.data, "ORC", 3);
    if (pm_manifest_decode(file.data, file.len, "orc", rd, version, &arena, &back, &m, &err) != 0)
        fail_msg("%s", err.message);
    assert_int_equal(m, n);
    encode_all(rd, records, n, &a);
    encode_all(rd, back, m, &b);
    assert_int_equal(a.len, b.len);
    assert_memory_equal(a.data, b.data, a.len);
    pm_buf_free(&file);
    pm_buf_free(&a);
    pm_buf_free(&b);
    pm_arena_free(&arena);
}

static const uint8_t ROW[16] = {0, 0, 0, 1, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0};

static void test_entries_round_trip(void **state)
{
    pm_manifest_entry e[3];
    int64_t nulls[3] = {0, PM_AVRO_NULL_LONG, 5};
    const char *extra[2] = {"data-x.orc.index", "more"};
    const char *cols[2] = {"a", "b"};
    (void)state;
    memset(e, 0, sizeof(e));
    for (int i = 0; i < 3; i++) {
        pm_data_file_meta *f = &e[i].file;
        e[i].version = PM_MANIFEST_VERSION;
        e[i].kind = i == 1 ? PM_FILE_KIND_DELETE : PM_FILE_KIND_ADD;
        e[i].partition.ptr = ROW;
        e[i].partition.len = sizeof(ROW);
        e[i].bucket = i;
        e[i].total_buckets = 4;
        f->file_name = i == 0 ? "data-0.orc" : i == 1 ? "data-1.orc" : "";
        f->file_size = 1000 + i;
        f->row_count = 10 * i;
        f->min_key.ptr = ROW;
        f->min_key.len = i == 2 ? 0 : sizeof(ROW);
        f->max_key = f->min_key;
        f->key_stats.min_values = f->min_key;
        f->key_stats.max_values = f->min_key;
        f->key_stats.null_counts.items = nulls;
        f->key_stats.null_counts.count = (size_t)i + 1;
        f->key_stats.null_counts.present = i != 1;
        f->value_stats = f->key_stats;
        f->min_sequence_number = -i;
        f->max_sequence_number = INT64_MAX - i;
        f->schema_id = i;
        f->level = 5 - i;
        f->extra_files.items = (void *)extra;
        f->extra_files.count = (size_t)i;
        f->extra_files.present = true;
        f->has_creation_time = i != 2;
        f->creation_time = 1775678843861LL - 86400000LL * 400 * i; /* 2026, 2025, ... */
        f->has_delete_row_count = i == 0;
        f->delete_row_count = 3;
        f->embedded_file_index.ptr = i == 1 ? ROW : NULL;
        f->embedded_file_index.len = i == 1 ? 4 : 0;
        f->has_file_source = i != 0;
        f->file_source = 1;
        f->value_stats_cols.items = (void *)cols;
        f->value_stats_cols.count = 2;
        f->value_stats_cols.present = i == 2;
        f->external_path = i == 0 ? "s3://b/x" : NULL;
        f->has_first_row_id = i == 1;
        f->first_row_id = 99;
        f->write_cols = f->value_stats_cols;
    }
    round_trip(&PM_MANIFEST_ENTRY_DESC, e, 3, PM_MANIFEST_VERSION);
    round_trip(&PM_MANIFEST_ENTRY_DESC, e, 0, PM_MANIFEST_VERSION);
}

static void test_lists_and_index_round_trip(void **state)
{
    pm_manifest_file_meta m[2];
    pm_index_manifest_entry ie[2];
    pm_dv_range dv[2];
    int32_t extra_ids[2] = {4, 5};
    int64_t nulls[1] = {0};
    (void)state;
    memset(m, 0, sizeof(m));
    for (int i = 0; i < 2; i++) {
        m[i].version = PM_MANIFEST_LIST_VERSION;
        m[i].file_name = i == 0 ? "manifest-a-0" : "manifest-a-1";
        m[i].file_size = 3333 + i;
        m[i].num_added_files = 3;
        m[i].num_deleted_files = i;
        m[i].partition_stats.min_values.ptr = ROW;
        m[i].partition_stats.min_values.len = sizeof(ROW);
        m[i].partition_stats.max_values = m[i].partition_stats.min_values;
        m[i].partition_stats.null_counts.items = nulls;
        m[i].partition_stats.null_counts.count = 1;
        m[i].partition_stats.null_counts.present = true;
        m[i].schema_id = 1;
        m[i].has_min_bucket = m[i].has_max_bucket = m[i].has_min_level = m[i].has_max_level =
            i == 0;
        m[i].max_bucket = 3;
        m[i].max_level = 5;
        m[i].has_min_row_id = m[i].has_max_row_id = i == 1;
        m[i].max_row_id = 100;
    }
    round_trip(&PM_MANIFEST_FILE_META_DESC, m, 2, PM_MANIFEST_LIST_VERSION);
    memset(ie, 0, sizeof(ie));
    memset(dv, 0, sizeof(dv));
    dv[0].data_file = "data-0.orc";
    dv[0].offset = 1;
    dv[0].length = 22;
    dv[0].has_cardinality = true;
    dv[0].cardinality = 2;
    dv[1].data_file = "data-1.orc";
    dv[1].offset = 23;
    dv[1].length = 30;
    for (int i = 0; i < 2; i++) {
        ie[i].version = PM_INDEX_MANIFEST_VERSION;
        ie[i].kind = PM_FILE_KIND_ADD;
        ie[i].partition.ptr = ROW;
        ie[i].partition.len = sizeof(ROW);
        ie[i].bucket = i;
        ie[i].index_type = i == 0 ? "DELETION_VECTORS" : "HASH";
        ie[i].file_name = "index-0";
        ie[i].file_size = 77;
        ie[i].row_count = 2;
        ie[i].dv_ranges.items = dv;
        ie[i].dv_ranges.count = 2;
        ie[i].dv_ranges.present = i == 0;
        ie[i].external_path = i == 1 ? "oss://x" : NULL;
        ie[i].has_global_index = i == 1;
        ie[i].global_index.row_range_start = 5;
        ie[i].global_index.row_range_end = 9;
        ie[i].global_index.index_field_id = 3;
        ie[i].global_index.extra_field_ids.items = extra_ids;
        ie[i].global_index.extra_field_ids.count = 2;
        ie[i].global_index.extra_field_ids.present = true;
        ie[i].global_index.index_meta.ptr = ROW;
        ie[i].global_index.index_meta.len = 3;
    }
    round_trip(&PM_INDEX_MANIFEST_ENTRY_DESC, ie, 2, PM_INDEX_MANIFEST_VERSION);
}

/* The "type" lines of a file's description. */
static void type_lines(const pm_buf *file, pm_buf *out)
{
    pm_orc_reader *r;
    pm_buf all;
    paimon_error err = {0};
    const char *p;
    pm_buf_init(&all, 0);
    assert_int_equal(pm_orc_reader_open_memory(&r, file->data, file->len, "types", &err), 0);
    assert_int_equal(pm_orc_describe(r, NULL, &all, &err), 0);
    for (p = pm_buf_cstr(&all); (p = strstr(p, "type ")) != NULL;) {
        const char *nl = strchr(p, '\n');
        pm_buf_append(out, p, (size_t)(nl - p) + 1);
        p = nl;
    }
    pm_orc_reader_free(r);
    pm_buf_free(&all);
}

/* metadata.md §9A.2: the 1.4 manifest list tree, and the 1.4.2 index manifest with
 * _GLOBAL_INDEX (derived there from the source). */
static const char LIST_TREE[] = "type 0 0 (root) struct\n"
                                "type 1 1 _VERSION int paimon.id=-1\n"
                                "type 2 1 _FILE_NAME string paimon.id=0\n"
                                "type 3 1 _FILE_SIZE bigint paimon.id=1\n"
                                "type 4 1 _NUM_ADDED_FILES bigint paimon.id=2\n"
                                "type 5 1 _NUM_DELETED_FILES bigint paimon.id=3\n"
                                "type 6 1 _PARTITION_STATS struct paimon.id=4\n"
                                "type 7 2 _MIN_VALUES binary paimon.id=0\n"
                                "type 8 2 _MAX_VALUES binary paimon.id=1\n"
                                "type 9 2 _NULL_COUNTS array paimon.id=2\n"
                                "type 10 3 (element) bigint paimon.id=536872960\n"
                                "type 11 1 _SCHEMA_ID bigint paimon.id=5\n"
                                "type 12 1 _MIN_BUCKET int paimon.id=6\n"
                                "type 13 1 _MAX_BUCKET int paimon.id=7\n"
                                "type 14 1 _MIN_LEVEL int paimon.id=8\n"
                                "type 15 1 _MAX_LEVEL int paimon.id=9\n"
                                "type 16 1 _MIN_ROW_ID bigint paimon.id=10\n"
                                "type 17 1 _MAX_ROW_ID bigint paimon.id=11\n";

static const char INDEX_TREE[] = "type 0 0 (root) struct\n"
                                 "type 1 1 _VERSION int paimon.id=-1\n"
                                 "type 2 1 _KIND tinyint paimon.id=0\n"
                                 "type 3 1 _PARTITION binary paimon.id=1\n"
                                 "type 4 1 _BUCKET int paimon.id=2\n"
                                 "type 5 1 _INDEX_TYPE string paimon.id=3\n"
                                 "type 6 1 _FILE_NAME string paimon.id=4\n"
                                 "type 7 1 _FILE_SIZE bigint paimon.id=5\n"
                                 "type 8 1 _ROW_COUNT bigint paimon.id=6\n"
                                 "type 9 1 _DELETIONS_VECTORS_RANGES array paimon.id=7\n"
                                 "type 10 2 (element) struct paimon.id=536878080\n"
                                 "type 11 3 f0 string paimon.id=0\n"
                                 "type 12 3 f1 int paimon.id=1\n"
                                 "type 13 3 f2 int paimon.id=2\n"
                                 "type 14 3 _CARDINALITY bigint paimon.id=3\n"
                                 "type 15 1 _EXTERNAL_PATH string paimon.id=8\n"
                                 "type 16 1 _GLOBAL_INDEX struct paimon.id=9\n"
                                 "type 17 2 _ROW_RANGE_START bigint paimon.id=0\n"
                                 "type 18 2 _ROW_RANGE_END bigint paimon.id=1\n"
                                 "type 19 2 _INDEX_FIELD_ID int paimon.id=2\n"
                                 "type 20 2 _EXTRA_FIELD_IDS array paimon.id=3\n"
                                 "type 21 3 (element) int paimon.id=536873984\n"
                                 "type 22 2 _INDEX_META binary paimon.id=4\n";

static void test_type_trees_and_empty_file(void **state)
{
    pm_buf file, lines;
    pm_orc_reader *r;
    paimon_error err = {0};
    pm_arena arena;
    void *back;
    size_t n = 1;
    (void)state;
    pm_buf_init(&file, 0);
    pm_buf_init(&lines, 0);
    /* an empty manifest list: no stripes, the full tree (Java's first base list) */
    assert_int_equal(
        pm_manifest_orc_encode(&PM_MANIFEST_FILE_META_DESC, NULL, 0, "zstd", 1, &file, &err), 0);
    type_lines(&file, &lines);
    assert_string_equal(pm_buf_cstr(&lines), LIST_TREE);
    assert_int_equal(pm_orc_reader_open_memory(&r, file.data, file.len, "empty", &err), 0);
    assert_int_equal(pm_orc_reader_footer(r)->stripe_count, 0);
    assert_int_equal(pm_orc_reader_footer(r)->number_of_rows, 0);
    /* the writer's block size for 18 columns, as Java chooses it */
    assert_int_equal(pm_orc_reader_postscript(r)->compression_block_size, 262144);
    pm_orc_reader_free(r);
    pm_arena_init(&arena, 1024);
    assert_int_equal(pm_manifest_decode(file.data, file.len, "empty", &PM_MANIFEST_FILE_META_DESC,
                                        PM_MANIFEST_LIST_VERSION, &arena, &back, &n, &err),
                     0);
    assert_int_equal(n, 0);
    pm_arena_free(&arena);
    pm_buf_reset(&file);
    pm_buf_reset(&lines);
    assert_int_equal(
        pm_manifest_orc_encode(&PM_INDEX_MANIFEST_ENTRY_DESC, NULL, 0, "none", 0, &file, &err), 0);
    type_lines(&file, &lines);
    assert_string_equal(pm_buf_cstr(&lines), INDEX_TREE);
    pm_buf_free(&file);
    pm_buf_free(&lines);
}

static void test_format_option(void **state)
{
    pm_manifest_format f = PM_MANIFEST_ORC;
    paimon_error err = {0};
    pm_buf out;
    (void)state;
    assert_int_equal(pm_manifest_format_parse(NULL, &f, &err), 0);
    assert_int_equal(f, PM_MANIFEST_AVRO);
    assert_int_equal(pm_manifest_format_parse("ORC", &f, &err), 0);
    assert_int_equal(f, PM_MANIFEST_ORC);
    assert_int_equal(pm_manifest_format_parse("Avro", &f, &err), 0);
    assert_int_equal(f, PM_MANIFEST_AVRO);
    assert_int_equal(pm_manifest_format_parse("parquet", &f, &err), PAIMON_EUNSUPPORTED);
    assert_int_equal(pm_manifest_format_parse("csv", &f, &err), PAIMON_EINVALID);
    pm_buf_init(&out, 0);
    assert_int_equal(
        pm_manifest_orc_encode(&PM_MANIFEST_FILE_META_DESC, NULL, 0, "brotli", 0, &out, &err),
        PAIMON_EINVALID);
    pm_buf_free(&out);
}

/* A data-file entry for the commit test. */
static void add_file(pm_commit_messages *m, int kind, const char *name, int64_t rows)
{
    static const uint8_t empty_row[12] = {0};
    pm_manifest_entry e;
    int64_t nulls[1] = {0};
    memset(&e, 0, sizeof(e));
    e.kind = kind;
    e.partition.ptr = empty_row;
    e.partition.len = sizeof(empty_row);
    e.bucket = 0;
    e.total_buckets = 1;
    e.file.file_name = name;
    e.file.file_size = 100;
    e.file.row_count = rows;
    e.file.min_key.ptr = empty_row;
    e.file.min_key.len = sizeof(empty_row);
    e.file.max_key = e.file.min_key;
    e.file.key_stats.min_values = e.file.min_key;
    e.file.key_stats.max_values = e.file.min_key;
    e.file.key_stats.null_counts.present = true;
    e.file.value_stats = e.file.key_stats;
    e.file.value_stats.null_counts.items = nulls;
    e.file.has_creation_time = true;
    e.file.creation_time = 1700000000000;
    e.file.has_delete_row_count = true;
    e.file.has_file_source = true;
    assert_int_equal(pm_commit_messages_add_data(m, &e), 0);
}

static bool is_orc(pm_fs *fs, const char *table, const char *name)
{
    char *path = pm_table_file(table, PM_DIR_MANIFEST, name);
    uint8_t head[3];
    paimon_error err;
    bool orc;
    assert_int_equal(pm_fs_read_range(fs, path, 0, 3, head, &err), 0);
    orc = memcmp(head, "ORC", 3) == 0;
    pm_free(path);
    return orc;
}

static void test_commit_writes_orc_manifests(void **state)
{
    char *dir = pm_test_tmpdir("orc-commit");
    char *table = pm_path_join(dir, "t");
    paimon_create_options co = PAIMON_CREATE_OPTIONS_INIT;
    const char *keys[] = {"manifest.format", "bucket"}, *values[] = {"orc", "1"};
    const char *pks[] = {"id"};
    pm_fs *fs = pm_fs_local_new(false);
    pm_commit_opts o;
    paimon_error err = {0};
    int64_t id = 0;
    (void)state;
    co.columns = "id BIGINT, v STRING";
    co.primary_keys = pks;
    co.primary_key_count = 1;
    co.option_keys = keys;
    co.option_values = values;
    co.option_count = 2;
    assert_int_equal(paimon_table_create(table, &co, &err), 0);
    memset(&o, 0, sizeof(o));
    o.commit_user = "test";
    o.kind = PM_COMMIT_APPEND;
    for (int c = 0; c < 3; c++) {
        pm_commit_messages m;
        char name[32];
        pm_commit_messages_init(&m);
        snprintf(name, sizeof(name), "data-%d.parquet", c);
        add_file(&m, PM_FILE_KIND_ADD, name, 10 + c);
        if (c == 2)
            add_file(&m, PM_FILE_KIND_DELETE, "data-0.parquet", 10);
        o.identifier = c;
        if (pm_commit(fs, table, &m, &o, &id, &err) != 0)
            fail_msg("commit %d: %s", c, err.message);
        pm_commit_messages_release(&m);
    }
    {
        pm_snapshot *s = NULL;
        pm_arena a;
        const pm_manifest_entry **live;
        pm_manifest_file_meta *metas;
        size_t n = 0, nm = 0;
        int64_t rows = 0;
        pm_arena_init(&a, 4096);
        assert_int_equal(pm_snapshot_read(fs, table, id, &s, &err), 0);
        assert_true(is_orc(fs, table, s->base_manifest_list));
        assert_true(is_orc(fs, table, s->delta_manifest_list));
        assert_int_equal(pm_snapshot_data_manifests(fs, table, s, &a, &metas, &nm, &err), 0);
        assert_true(nm >= 1);
        for (size_t i = 0; i < nm; i++)
            assert_true(is_orc(fs, table, metas[i].file_name));
        assert_int_equal(pm_snapshot_live_entries(fs, table, s, &a, &live, &n, &err), 0);
        assert_int_equal(n, 2);
        for (size_t i = 0; i < n; i++)
            rows += live[i]->file.row_count;
        assert_int_equal(rows, 11 + 12);
        assert_int_equal(rows, s->total_record_count);
        pm_snapshot_free(s);
        pm_arena_free(&a);
    }
    {
        /* the CLI lists the same files */
        pm_buf out;
        char cmd[1024];
        pm_buf_init(&out, 0);
        snprintf(cmd, sizeof(cmd), "\"%s\" inspect '%s' files --format jsonl", getenv("PAIMON_CLI"),
                 table);
        if (getenv("PAIMON_CLI") != NULL) {
            assert_int_equal(pm_test_run(cmd, &out), 0);
            assert_non_null(strstr(pm_buf_cstr(&out), "\"file_name\":\"data-1.parquet\""));
            assert_non_null(strstr(pm_buf_cstr(&out), "\"file_name\":\"data-2.parquet\""));
            assert_null(strstr(pm_buf_cstr(&out), "data-0.parquet"));
        }
        pm_buf_free(&out);
    }
    pm_fs_free(fs);
    pm_test_rmtree(dir);
    pm_free(table);
    pm_free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_entries_round_trip),
        cmocka_unit_test(test_lists_and_index_round_trip),
        cmocka_unit_test(test_type_trees_and_empty_file),
        cmocka_unit_test(test_format_option),
        cmocka_unit_test(test_commit_writes_orc_manifests),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
