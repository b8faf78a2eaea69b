/*
 * Manifest lists, manifests and index manifests: every one in the fixtures (Avro and ORC)
 * decodes, re-encodes and decodes to the same values; the writer schemas equal Java 1.4.2's (the
 * 1.4-era fixture files carry them verbatim); version checks and corrupt input.
 */
#include <string.h>

#include "testlib.h"

#include "format/avro/avro_container.h"
#include "meta/manifest.h"
#include "util/alloc.h"

typedef struct kind {
    const char *prefix;
    const pm_avro_rdesc *rd;
    int32_t version;
} kind;

static const kind *kind_of(const char *path)
{
    static const kind kinds[] = {
        {"manifest-list-", &PM_MANIFEST_FILE_META_DESC, PM_MANIFEST_LIST_VERSION},
        {"index-manifest-", &PM_INDEX_MANIFEST_ENTRY_DESC, PM_INDEX_MANIFEST_VERSION},
        {"manifest-", &PM_MANIFEST_ENTRY_DESC, PM_MANIFEST_VERSION},
    };
    const char *name = strrchr(path, '/') + 1;
    for (size_t i = 0; i < 2; i++)
        if (strncmp(name, kinds[i].prefix, strlen(kinds[i].prefix)) == 0)
            return &kinds[i];
    return &kinds[2]; /* the callers only list files named manifest-* */
}

/* Encodes decoded records to bytes: the canonical form two decodes are compared by. */
static void encode_all(const kind *k, const void *records, size_t n, pm_buf *out)
{
    for (size_t i = 0; i < n; i++)
        assert_int_equal(pm_avro_encode(k->rd, (const uint8_t *)records + i * k->rd->size, out), 0);
}

static void test_fixture_manifests_round_trip(void **state)
{
    pm_strlist tables, files;
    size_t checked = 0, avro = 0, orc = 0;
    (void)state;
    if (!pm_test_require_fixtures())
        return;
    pm_strlist_init(&files);
    pm_strlist_init(&tables);
    pm_test_find_files(pm_test_fixtures(), "manifest-", &files);
    pm_test_find_files(pm_test_fixtures(), "index-manifest-", &files);
    for (size_t i = 0; i < files.count; i++) {
        const char *path = files.items[i];
        const kind *k = kind_of(path);
        size_t len, n = 0, n2 = 0;
        uint8_t *data = pm_test_read_file(path, &len);
        pm_arena arena;
        void *records = NULL, *again = NULL;
        pm_buf first, file2, second;
        paimon_error err = {0};
        int rc;

        pm_arena_init(&arena, 1 << 16);
        rc = pm_manifest_decode(data, len, path, k->rd, k->version, &arena, &records, &n, &err);
        if (rc != 0)
            fail_msg("%s: %s", path, err.message);
        if (len >= 3 && memcmp(data, "ORC", 3) == 0)
            orc++;
        else
            avro++;
        /* decode -> encode (Avro) -> decode: the same values, whichever format was read */
        pm_buf_init(&first, 0);
        pm_buf_init(&file2, 0);
        pm_buf_init(&second, 0);
        encode_all(k, records, n, &first);
        assert_int_equal(pm_manifest_encode(k->rd, records, n, "zstandard", 1, &file2, &err), 0);
        rc = pm_manifest_decode(file2.data, file2.len, "re-encoded", k->rd, k->version, &arena,
                                &again, &n2, &err);
        if (rc != 0)
            fail_msg("%s re-encoded: %s", path, err.message);
        assert_int_equal(n, n2);
        encode_all(k, again, n2, &second);
        assert_int_equal(first.len, second.len);
        assert_memory_equal(first.data, second.data, first.len);
        pm_buf_free(&first);
        pm_buf_free(&file2);
        pm_buf_free(&second);
        checked++;
        pm_arena_free(&arena);
        pm_free(data);
    }
    printf("checked %zu manifest files (%zu Avro, %zu ORC)\n", checked, avro, orc);
    assert_true(avro > 20);
    assert_true(orc > 100);
    pm_strlist_free(&files);
    pm_strlist_free(&tables);
}

static bool accept_all(void *ctx, const pm_manifest_entry *e)
{
    (void)ctx;
    (void)e;
    return true;
}

static bool accept_odd_buckets(void *ctx, const pm_manifest_entry *e)
{
    (void)ctx;
    return e->bucket % 2 != 0;
}

/* A filtered read keeps exactly the entries its filter accepts, decoded as an unfiltered read
 * decodes them; the rejected ones are skipped by the compiled skipper (Avro) or dropped after
 * decoding (ORC). */
static void test_filtered_reads(void **state)
{
    pm_strlist files;
    size_t checked = 0, kept = 0, skipped = 0, orc = 0;
    (void)state;
    if (!pm_test_require_fixtures())
        return;
    pm_strlist_init(&files);
    pm_test_find_files(pm_test_fixtures(), "manifest-", &files);
    for (size_t i = 0; i < files.count; i++) {
        const char *path = files.items[i];
        size_t len, n = 0, na = 0, no = 0;
        uint8_t *data;
        pm_arena arena;
        pm_manifest_entry *all = NULL, *every = NULL, *odd = NULL;
        pm_manifest_filter f_all = {accept_all, NULL}, f_odd = {accept_odd_buckets, NULL};
        paimon_error err = {0};
        pm_buf a, b;
        if (strstr(path, "manifest-list-") != NULL || strstr(path, "index-manifest-") != NULL)
            continue;
        data = pm_test_read_file(path, &len);
        if (len < 3 || (memcmp(data, "Obj", 3) != 0 && memcmp(data, "ORC", 3) != 0)) {
            pm_free(data);
            continue;
        }
        orc += memcmp(data, "ORC", 3) == 0;
        pm_arena_init(&arena, 1 << 16);
        assert_int_equal(pm_manifest_decode(data, len, path, &PM_MANIFEST_ENTRY_DESC,
                                            PM_MANIFEST_VERSION, &arena, (void **)&all, &n, &err),
                         0);
        assert_int_equal(
            pm_manifest_decode_filtered(data, len, path, &f_all, &arena, &every, &na, &err), 0);
        assert_int_equal(
            pm_manifest_decode_filtered(data, len, path, &f_odd, &arena, &odd, &no, &err), 0);
        assert_int_equal(na, n);
        pm_buf_init(&a, 0);
        pm_buf_init(&b, 0);
        for (size_t k = 0, j = 0; k < n; k++) {
            pm_buf_reset(&a);
            assert_int_equal(pm_avro_encode(&PM_MANIFEST_ENTRY_DESC, &all[k], &a), 0);
            pm_buf_reset(&b);
            assert_int_equal(pm_avro_encode(&PM_MANIFEST_ENTRY_DESC, &every[k], &b), 0);
            assert_int_equal(a.len, b.len);
            assert_memory_equal(a.data, b.data, a.len);
            if (all[k].bucket % 2 == 0) {
                skipped++;
                continue;
            }
            assert_true(j < no);
            pm_buf_reset(&b);
            assert_int_equal(pm_avro_encode(&PM_MANIFEST_ENTRY_DESC, &odd[j++], &b), 0);
            assert_int_equal(a.len, b.len);
            assert_memory_equal(a.data, b.data, a.len);
            kept++;
        }
        pm_buf_free(&a);
        pm_buf_free(&b);
        pm_arena_free(&arena);
        pm_free(data);
        checked++;
    }
    printf("%zu manifests (%zu ORC): %zu entries kept, %zu skipped by the filter\n", checked, orc,
           kept, skipped);
    assert_true(checked > 20 && kept > 0 && skipped > 0 && orc > 30);
    pm_strlist_free(&files);
}

/* Java 1.4-era files carry the exact schema strings the writer must produce. */
static void test_writer_schemas_equal_java(void **state)
{
    static const struct {
        const char *file;
        const pm_avro_rdesc *rd;
    } cases[] = {
        /* 1.4 manifest list (with _MIN_ROW_ID/_MAX_ROW_ID) and 1.3/1.4 manifest with
         * _WRITE_COLS, from the Java-written cpp-avro-append-multiple table. */
        {"cpp-avro-append-multiple/manifest/manifest-list-21081c8d-4a00-4e90-a265-84f4487d1ec0-0",
         &PM_MANIFEST_FILE_META_DESC},
        {"cpp-avro-append-multiple/manifest/manifest-39146ee7-fda8-42a9-894d-5395bc44e8a2-0",
         &PM_MANIFEST_ENTRY_DESC},
    };
    (void)state;
    if (!pm_test_require_fixtures())
        return;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char path[4096];
        size_t len;
        uint8_t *data;
        pm_avro_reader r;
        paimon_error err = {0};
        pm_buf mine;
        snprintf(path, sizeof(path), "%s/%s", pm_test_fixtures(), cases[i].file);
        data = pm_test_read_file(path, &len);
        assert_int_equal(pm_avro_reader_open(&r, data, len, path, &err), 0);
        pm_buf_init(&mine, 0);
        assert_int_equal(pm_avro_schema_json(cases[i].rd, &mine), 0);
        if (mine.len != r.schema_json_len || memcmp(mine.data, r.schema_json, mine.len) != 0)
            fail_msg("schema differs for %s:\n java: %.*s\n ours: %s", cases[i].file,
                     (int)r.schema_json_len, r.schema_json, pm_buf_cstr(&mine));
        pm_buf_free(&mine);
        pm_avro_reader_close(&r);
        pm_free(data);
    }
}

/* The oracle's reference schema of the 1.4 index manifest, in Java's compact form. */
static void test_index_manifest_schema(void **state)
{
    static const char java14[] =
        "{\"type\":\"record\",\"name\":\"record\",\"namespace\":\"org.apache.paimon.avro."
        "generated\",\"fields\":[{\"name\":\"_VERSION\",\"type\":\"int\"},{\"name\":\"_KIND\","
        "\"type\":\"int\"},{\"name\":\"_PARTITION\",\"type\":\"bytes\"},{\"name\":\"_BUCKET\","
        "\"type\":\"int\"},{\"name\":\"_INDEX_TYPE\",\"type\":\"string\"},{\"name\":\"_FILE_"
        "NAME\",\"type\":\"string\"},{\"name\":\"_FILE_SIZE\",\"type\":\"long\"},{\"name\":\"_"
        "ROW_COUNT\",\"type\":\"long\"},{\"name\":\"_DELETIONS_VECTORS_RANGES\",\"type\":["
        "\"null\",{\"type\":\"array\",\"items\":[\"null\",{\"type\":\"record\",\"name\":"
        "\"record__DELETIONS_VECTORS_RANGES\",\"fields\":[{\"name\":\"f0\",\"type\":\"string\"}"
        ",{\"name\":\"f1\",\"type\":\"int\"},{\"name\":\"f2\",\"type\":\"int\"},{\"name\":\"_"
        "CARDINALITY\",\"type\":[\"null\",\"long\"],\"default\":null}]}]}],\"default\":null},{"
        "\"name\":\"_EXTERNAL_PATH\",\"type\":[\"null\",\"string\"],\"default\":null},{\"name\""
        ":\"_GLOBAL_INDEX\",\"type\":[\"null\",{\"type\":\"record\",\"name\":\"record__GLOBAL_"
        "INDEX\",\"fields\":[{\"name\":\"_ROW_RANGE_START\",\"type\":\"long\"},{\"name\":\"_"
        "ROW_RANGE_END\",\"type\":\"long\"},{\"name\":\"_INDEX_FIELD_ID\",\"type\":\"int\"},{"
        "\"name\":\"_EXTRA_FIELD_IDS\",\"type\":[\"null\",{\"type\":\"array\",\"items\":\"int\""
        "}],\"default\":null},{\"name\":\"_INDEX_META\",\"type\":[\"null\",\"bytes\"],\"default"
        "\":null}]}],\"default\":null}]}";
    pm_buf mine;
    (void)state;
    pm_buf_init(&mine, 0);
    assert_int_equal(pm_avro_schema_json(&PM_INDEX_MANIFEST_ENTRY_DESC, &mine), 0);
    assert_string_equal(pm_buf_cstr(&mine), java14);
    pm_buf_free(&mine);
}

static pm_manifest_file_meta sample_meta(int32_t version)
{
    static const uint8_t empty_row[12] = {0};
    pm_manifest_file_meta m;
    memset(&m, 0, sizeof(m));
    m.version = version;
    m.file_name = "manifest-x-0";
    m.file_size = 2111;
    m.num_added_files = 1;
    m.partition_stats.min_values.ptr = empty_row;
    m.partition_stats.min_values.len = 12;
    m.partition_stats.max_values = m.partition_stats.min_values;
    m.partition_stats.null_counts.present = true;
    m.has_min_bucket = m.has_max_bucket = m.has_min_level = m.has_max_level = true;
    return m;
}

/* metadata.md §6.3: the 92-byte record Java writes, byte for byte. */
static void test_manifest_list_record_bytes(void **state)
{
    uint8_t want[128];
    size_t want_len = pm_test_unhex(
        "04 5e 6d616e69666573742d61643931356162652d333465612d343733642d393865372d346464386461"
        "6363636236642d30 fe20 02 00 18 000000000000000000000000 18 000000000000000000000000"
        "02 00 00 0200 0200 0200 0200 00 00",
        want, sizeof(want));
    pm_manifest_file_meta m = sample_meta(2);
    pm_buf out;
    (void)state;
    m.file_name = "manifest-ad915abe-34ea-473d-98e7-4dd8dacccb6d-0";
    pm_buf_init(&out, 0);
    assert_int_equal(pm_avro_encode(&PM_MANIFEST_FILE_META_DESC, &m, &out), 0);
    assert_int_equal(out.len, 92);
    assert_int_equal(want_len, 92);
    assert_memory_equal(out.data, want, 92);
    pm_buf_free(&out);
}

static void test_version_checked(void **state)
{
    pm_manifest_file_meta m = sample_meta(1);
    pm_buf file;
    pm_arena arena;
    void *records;
    size_t n;
    paimon_error err = {0};
    (void)state;
    pm_buf_init(&file, 0);
    pm_arena_init(&arena, 4096);
    assert_int_equal(pm_manifest_encode(&PM_MANIFEST_FILE_META_DESC, &m, 1, "null", 0, &file, &err),
                     0);
    assert_int_equal(pm_manifest_decode(file.data, file.len, "list", &PM_MANIFEST_FILE_META_DESC, 2,
                                        &arena, &records, &n, &err),
                     PAIMON_ECORRUPT);
    assert_non_null(strstr(err.message, "_VERSION 1"));
    pm_arena_free(&arena);
    pm_buf_free(&file);
}

/* Every codec the reader supports round-trips through the writer. */
static void test_codecs(void **state)
{
    static const char *codecs[] = {"null", "deflate", "snappy", "zstandard"};
    (void)state;
    for (size_t c = 0; c < 4; c++) {
        enum { N = 5000 };
        pm_manifest_file_meta *ms = pm_calloc(N, sizeof(*ms)), *back;
        pm_buf file;
        pm_arena arena;
        size_t n;
        paimon_error err = {0};
        char names[N][24];
        for (int i = 0; i < N; i++) {
            ms[i] = sample_meta(2);
            snprintf(names[i], sizeof(names[i]), "manifest-%d", i);
            ms[i].file_name = names[i];
            ms[i].file_size = i * 1000003LL;
            ms[i].schema_id = i % 7;
            ms[i].has_min_row_id = i % 2;
            ms[i].min_row_id = -i;
        }
        pm_buf_init(&file, 0);
        pm_arena_init(&arena, 1 << 16);
        assert_int_equal(
            pm_manifest_encode(&PM_MANIFEST_FILE_META_DESC, ms, N, codecs[c], 0, &file, &err), 0);
        assert_int_equal(pm_manifest_decode(file.data, file.len, codecs[c],
                                            &PM_MANIFEST_FILE_META_DESC, 2, &arena, (void **)&back,
                                            &n, &err),
                         0);
        assert_int_equal(n, N);
        for (int i = 0; i < N; i++) {
            assert_string_equal(back[i].file_name, names[i]);
            assert_int_equal(back[i].file_size, i * 1000003LL);
            assert_int_equal(back[i].has_min_row_id, i % 2);
            if (i % 2)
                assert_int_equal(back[i].min_row_id, -i);
            assert_int_equal(back[i].partition_stats.min_values.len, 12);
        }
        pm_arena_free(&arena);
        pm_buf_free(&file);
        pm_free(ms);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture_manifests_round_trip),
        cmocka_unit_test(test_filtered_reads),
        cmocka_unit_test(test_writer_schemas_equal_java),
        cmocka_unit_test(test_index_manifest_schema),
        cmocka_unit_test(test_manifest_list_record_bytes),
        cmocka_unit_test(test_version_checked),
        cmocka_unit_test(test_codecs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
