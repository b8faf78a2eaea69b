/* Deletion vectors: Java's 32-bit and 64-bit index files (the pinned positions of
 * DeletionVectorsIndexFileTest), re-encoded byte for byte; every DV range of the fixtures'
 * index manifests decodes with its recorded cardinality; corrupt records are refused. */
#include <string.h>
#include <unistd.h>

#include "testlib.h"

#include "lsm/deletion_vector.h"
#include "meta/manifest.h"
#include "util/alloc.h"
#include "util/bytes.h"
#include "util/hash.h"

static void check_java_file(const char *name, bool is64, const int32_t lengths[2])
{
    static const uint64_t positions[2][2] = {{2, 3}, {1, 0}};
    static const uint64_t cardinality[2] = {2, 1};
    char path[4096];
    size_t len, off = 1;
    uint8_t *data;
    snprintf(path, sizeof(path), "%s/java-compat-dvindex/%s", pm_test_fixtures(), name);
    data = pm_test_read_file(path, &len);
    assert_int_equal(data[0], PM_DV_INDEX_VERSION);
    for (int i = 0; i < 2; i++) {
        pm_dv *dv = NULL;
        paimon_error err = {0};
        pm_buf again;
        int32_t range;
        size_t record = 8 + ((size_t)data[off] << 24 | (size_t)data[off + 1] << 16 |
                             (size_t)data[off + 2] << 8 | data[off + 3]);
        if (pm_dv_decode(data + off, len - off, lengths[i], path, off, &dv, &err) != 0)
            fail_msg("%s", err.message);
        assert_int_equal(pm_dv_is_64(dv), is64);
        assert_int_equal(pm_dv_cardinality(dv), cardinality[i]);
        for (uint64_t k = 0; k < cardinality[i]; k++)
            assert_true(pm_dv_contains(dv, positions[i][k]));
        assert_false(pm_dv_contains(dv, 0));
        assert_false(pm_dv_contains(dv, 4));
        /* A wrong recorded length is refused, as Java refuses it. */
        pm_dv_free(dv);
        assert_int_equal(pm_dv_decode(data + off, len - off, lengths[i] + 1, path, off, &dv, &err),
                         PAIMON_ECORRUPT);
        /* Re-encoded: Java's bytes exactly. */
        assert_int_equal(pm_dv_decode(data + off, len - off, -1, path, off, &dv, &err), 0);
        pm_buf_init(&again, 0);
        assert_int_equal(pm_dv_encode(dv, is64, &again, &range, &err), 0);
        assert_int_equal(range, lengths[i]);
        assert_int_equal(again.len, record);
        assert_memory_equal(again.data, data + off, record);
        pm_buf_free(&again);
        pm_dv_free(dv);
        off += record;
    }
    assert_int_equal(off, len);
    pm_free(data);
}

static void test_java_files(void **state)
{
    static const int32_t l32[2] = {24, 22}, l64[2] = {44, 42};
    (void)state;
    if (!pm_test_require_fixtures())
        return;
    check_java_file("dvindex-32", false, l32);
    check_java_file("dvindex-64", true, l64);
}

/* Every deletion vector named by an Avro index manifest of the fixtures. */
static void test_fixture_index_manifests(void **state)
{
    pm_strlist files;
    size_t vectors = 0;
    (void)state;
    if (!pm_test_require_fixtures())
        return;
    pm_strlist_init(&files);
    pm_test_find_files(pm_test_fixtures(), "index-manifest-", &files);
    for (size_t f = 0; f < files.count; f++) {
        size_t len, n;
        uint8_t *data = pm_test_read_file(files.items[f], &len);
        pm_index_manifest_entry *e;
        pm_arena arena;
        paimon_error err = {0};
        char table[4096];
        if (memcmp(data, "Obj", 3) != 0) {
            pm_free(data);
            continue;
        }
        snprintf(table, sizeof(table), "%s", files.items[f]);
        *strstr(table, "/manifest/") = '\0';
        pm_arena_init(&arena, 1 << 14);
        assert_int_equal(pm_manifest_decode(data, len, files.items[f],
                                            &PM_INDEX_MANIFEST_ENTRY_DESC, 1, &arena, (void **)&e,
                                            &n, &err),
                         0);
        for (size_t i = 0; i < n; i++) {
            const pm_dv_range *r = e[i].dv_ranges.items;
            char path[4300];
            if (strcmp(e[i].index_type, "DELETION_VECTORS") != 0)
                continue;
            snprintf(path, sizeof(path), "%s/index/%s", table, e[i].file_name);
            if (access(path, R_OK) != 0) /* index-file-in-data-file-dir tables keep them
                                             beside the data; the read path finds those */
                continue;
            for (size_t k = 0; k < e[i].dv_ranges.count; k++) {
                pm_dv *dv = NULL;
                pm_fs *fs = pm_fs_local_new(false);
                if (pm_dv_read(fs, path, r[k].offset, r[k].length, &dv, &err) != 0)
                    fail_msg("%s", err.message);
                if (r[k].has_cardinality)
                    assert_int_equal(pm_dv_cardinality(dv), (uint64_t)r[k].cardinality);
                pm_dv_free(dv);
                pm_fs_free(fs);
                vectors++;
            }
        }
        pm_arena_free(&arena);
        pm_free(data);
    }
    printf("%zu deletion vectors of the fixtures decoded with their cardinality\n", vectors);
    assert_true(vectors >= 4);
    pm_strlist_free(&files);
}

static void test_round_trip_and_corruption(void **state)
{
    pm_dv *dv = pm_dv_new(), *back = NULL;
    pm_buf rec;
    int32_t range;
    paimon_error err = {0};
    (void)state;
    for (uint64_t p = 0; p < 200000; p += 3)
        assert_int_equal(pm_dv_add(dv, p), 0);
    assert_int_equal(pm_dv_add(dv, 5000000000ULL), 0); /* beyond 2^32 */
    pm_buf_init(&rec, 0);
    assert_int_equal(pm_dv_encode(dv, false, &rec, &range, &err), PAIMON_EINVALID);
    pm_buf_reset(&rec);
    assert_int_equal(pm_dv_encode(dv, true, &rec, &range, &err), 0);
    assert_int_equal(pm_dv_decode(rec.data, rec.len, range, "mem", 1, &back, &err), 0);
    assert_int_equal(pm_dv_cardinality(back), pm_dv_cardinality(dv));
    assert_true(pm_dv_contains(back, 5000000000ULL));
    assert_true(pm_dv_contains(back, 199998));
    assert_false(pm_dv_contains(back, 199999));
    pm_dv_free(back);
    /* Every single-byte flip is an error or a valid vector, never a crash. */
    for (size_t i = 0; i < rec.len; i++) {
        rec.data[i] ^= 0x5a;
        if (pm_dv_decode(rec.data, rec.len, -1, "mem", 1, &back, &err) == 0)
            pm_dv_free(back);
        else
            assert_int_equal(err.code, PAIMON_ECORRUPT);
        rec.data[i] ^= 0x5a;
    }
    pm_buf_free(&rec);
    pm_dv_free(dv);
}

/* A record with a valid size and CRC but no bitmap after the magic is corrupt (it crashed
 * the reader before; found by fuzz_bitmaps). */
static void test_empty_bitmap_is_corrupt(void **state)
{
    uint8_t rec[12];
    pm_dv *dv = NULL;
    paimon_error err = {0};
    (void)state;
    pm_store_be32(rec, 4);
    pm_store_be32(rec + 4, PM_DV_MAGIC_32);
    pm_store_be32(rec + 8, pm_crc32(rec + 4, 4));
    assert_int_equal(pm_dv_decode(rec, sizeof(rec), -1, "t", 0, &dv, &err), PAIMON_ECORRUPT);
    assert_null(dv);
    assert_non_null(strstr(err.message, "malformed bitmap"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_java_files),
        cmocka_unit_test(test_fixture_index_manifests),
        cmocka_unit_test(test_round_trip_and_corruption),
        cmocka_unit_test(test_empty_bitmap_is_corrupt),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
