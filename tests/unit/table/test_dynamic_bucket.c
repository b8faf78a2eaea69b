/* Dynamic buckets (table/write/dynamic_bucket.h) and the fastutil-ordered int set behind
 * HASH index files (util/int_set.h). */
#include <string.h>

#include "testlib.h"

#include "table/write/dynamic_bucket.h"
#include "util/alloc.h"
#include "util/bytes.h"
#include "util/int_set.h"

static uint32_t mix(int32_t x)
{
    uint32_t h = (uint32_t)x * 0x9E3779B9u;
    return h ^ (h >> 16);
}

static void test_int_set_order(void **state)
{
    pm_int_set s;
    int32_t keys[200];
    (void)state;
    assert_int_equal(pm_int_set_init(&s, 16), 0);
    assert_int_equal(s.n, 32); /* arraySize(16, .75) */
    for (int32_t k = -50; k < 50; k++)
        assert_int_equal(pm_int_set_add(&s, k * 7919, NULL), 0);
    assert_int_equal(s.size, 100);
    assert_int_equal(s.n, 256); /* grown at maxFill: 24 -> 64 -> 128 (96) -> 256 */
    pm_int_set_keys(&s, keys);
    assert_int_equal(keys[0], 0); /* the zero key first */
    /* then slots from the top down: home positions never increase except where a probe
     * wrapped or displaced a key */
    for (int i = 1; i < 100; i++)
        assert_true(pm_int_set_contains(&s, keys[i]));
    {
        size_t mask = s.n - 1, ordered = 0;
        for (int i = 2; i < 100; i++)
            ordered += (mix(keys[i]) & mask) <= (mix(keys[i - 1]) & mask) + 2;
        assert_true(ordered >= 90);
    }
    pm_int_set_free(&s);
    /* a set sized for 3 keys: arraySize(3) = 4 slots, maxFill 3 */
    assert_int_equal(pm_int_set_init(&s, 3), 0);
    assert_int_equal(s.n, 4);
    assert_int_equal(s.max_fill, 3);
    pm_int_set_free(&s);
}

/* Iteration orders of fastutil 8.5.11's IntOpenHashSet (Debian's libfastutil-java, the
 * library Java Paimon shades), printed by a Java program for the scenarios of
 * test_int_set_java: B 40 keys into a default set; C B's keys into a set sized for them,
 * then 25 more; D 30 keys that collide. */
static const int32_t JAVA_B[40] = {
    142055923,  -793798619,  917426215,   2086349444, 1636646472, -1887757396, -1478117203,
    211381794,  296409997,   -214924607,  2052791210, -72769181,  -491241211,  1259214074,
    124943860,  1102670513,  -2089265373, -625790942, 952413222,  808177707,   1681453389,
    -42970578,  -1456566609, 1608813534,  1218522526, -746851295, 470636529,   -1965126601,
    -885328330, -410646432,  -1017071308, 791863149,  1139821166, 1429094936,  384185833,
    1557223610, 1946350587,  694250699,   -705502454, 1398574760,
};
static const int32_t JAVA_C[65] = {
    -1889570900, -1959438416, 142055923,   -793798619,  1636646472,  -1478117203, -1172176195,
    296409997,   -633961023,  -491241211,  1259214074,  1501044959,  124943860,   -2089265373,
    1395361192,  952413222,   -374007473,  -42970578,   -863030149,  808177707,   -1456566609,
    1218522526,  -746851295,  470636529,   -1965126601, 930565928,   1250936871,  -344107691,
    -2070054366, 1557223610,  694250699,   -705502454,  681718727,   238733440,   2067552989,
    -681617561,  917426215,   889900056,   54694431,    -1887757396, 2086349444,  211381794,
    -835747087,  -214924607,  2052791210,  -72769181,   538927638,   -606424278,  -625790942,
    1102670513,  1681453389,  1608813534,  48586938,    1390110928,  704795892,   -885328330,
    -410646432,  -1017071308, -1037919771, 791863149,   1139821166,  1429094936,  384185833,
    1946350587,  1398574760,
};
static const int32_t JAVA_D[30] = {
    0,      65544, 196611, 131088, 65565,  327706, 262155, 393222, 131095, 327685,
    196618, 65551, 28,     393243, 262148, 131081, 21,     262169, 393236, 65558,
    327692, 14,    196625, 131074, 7,      65537,  262162, 196632, 393229, 327699,
};

static uint64_t lcg = 12345;

/* The pseudo-random keys of the Java program (a 64-bit LCG, the high 32 bits). */
static int32_t lcg_next(void)
{
    lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
    return (int32_t)(lcg >> 32);
}

static void expect_order(const pm_int_set *s, const int32_t *want, size_t n)
{
    int32_t got[128];
    assert_int_equal(s->size, n);
    pm_int_set_keys(s, got);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(got[i], want[i]);
}

/* The same insertions as the Java program give the same iteration order (what a HASH index
 * file holds): a default set growing, a restored set (sized for its file, as
 * DynamicBucketIndexMaintainer restores) taking new keys, and colliding keys. */
static void test_int_set_java(void **state)
{
    pm_int_set b, c, d;
    int32_t keys[64];
    (void)state;
    assert_int_equal(pm_int_set_init(&b, 16), 0);
    for (int i = 0; i < 40; i++)
        assert_int_equal(pm_int_set_add(&b, lcg_next(), NULL), 0);
    expect_order(&b, JAVA_B, 40);
    assert_int_equal(pm_int_set_init(&c, b.size), 0);
    pm_int_set_keys(&b, keys);
    for (size_t i = 0; i < b.size; i++)
        assert_int_equal(pm_int_set_add(&c, keys[i], NULL), 0);
    for (int i = 0; i < 25; i++)
        assert_int_equal(pm_int_set_add(&c, lcg_next(), NULL), 0);
    expect_order(&c, JAVA_C, 65);
    assert_int_equal(pm_int_set_init(&d, 16), 0);
    for (int32_t i = 0; i < 30; i++)
        assert_int_equal(pm_int_set_add(&d, (i % 7) * 65536 + i, NULL), 0);
    expect_order(&d, JAVA_D, 30);
    pm_int_set_free(&b);
    pm_int_set_free(&c);
    pm_int_set_free(&d);
}

static int write_hash(pm_fs *fs, const char *path, const int32_t *hashes, size_t n)
{
    uint8_t buf[64];
    for (size_t i = 0; i < n; i++)
        pm_store_be32(buf + 4 * i, (uint32_t)hashes[i]);
    return pm_fs_write_file(fs, path, buf, 4 * n, NULL);
}

static void test_assign(void **state)
{
    pm_fs *fs = pm_fs_memory_new();
    pm_dynamic_assigner *a;
    pm_index_manifest_entry e[2];
    static const uint8_t EMPTY[12] = {0};
    int32_t b;
    const int32_t b0[] = {11, 12}, b1[] = {21};
    (void)state;
    /* a fresh partition: target 2 hashes per bucket */
    assert_int_equal(pm_dynamic_assigner_new(&a, fs, "/t", NULL, 0, 2, -1, NULL), 0);
    for (int32_t h = 1; h <= 5; h++) {
        assert_int_equal(pm_dynamic_assign(a, 0, EMPTY, sizeof(EMPTY), h, &b, NULL), 0);
        assert_int_equal(b, (h - 1) / 2);
    }
    assert_int_equal(pm_dynamic_assign(a, 0, EMPTY, sizeof(EMPTY), 1, &b, NULL), 0);
    assert_int_equal(b, 0); /* a known hash keeps its bucket */
    pm_dynamic_assigner_free(a);

    /* restored from HASH files: bucket 0 full, bucket 1 with room */
    assert_int_equal(write_hash(fs, "/t/index/index-a-0", b0, 2), 0);
    assert_int_equal(write_hash(fs, "/t/index/index-a-1", b1, 1), 0);
    memset(e, 0, sizeof(e));
    for (int i = 0; i < 2; i++) {
        e[i].partition.ptr = EMPTY;
        e[i].partition.len = sizeof(EMPTY);
        e[i].index_type = "HASH";
        e[i].bucket = i;
        e[i].file_name = i == 0 ? "index-a-0" : "index-a-1";
        e[i].row_count = i == 0 ? 2 : 1;
    }
    assert_int_equal(pm_dynamic_assigner_new(&a, fs, "/t", e, 2, 2, -1, NULL), 0);
    assert_int_equal(pm_dynamic_assign(a, 0, EMPTY, sizeof(EMPTY), 12, &b, NULL), 0);
    assert_int_equal(b, 0);
    assert_int_equal(pm_dynamic_assign(a, 0, EMPTY, sizeof(EMPTY), 99, &b, NULL), 0);
    assert_int_equal(b, 1);
    assert_int_equal(pm_dynamic_assign(a, 0, EMPTY, sizeof(EMPTY), 98, &b, NULL), 0);
    assert_int_equal(b, 2); /* 0 and 1 full: the smallest unused id */
    pm_dynamic_assigner_free(a);

    /* dynamic-bucket.max-buckets = 1: beyond the cap, an existing bucket */
    assert_int_equal(pm_dynamic_assigner_new(&a, fs, "/t", NULL, 0, 1, 1, NULL), 0);
    for (int32_t h = 1; h <= 4; h++) {
        assert_int_equal(pm_dynamic_assign(a, 0, EMPTY, sizeof(EMPTY), h, &b, NULL), 0);
        assert_int_equal(b, 0);
    }
    pm_dynamic_assigner_free(a);
    pm_fs_free(fs);
}

static void test_hash_index_file(void **state)
{
    pm_fs *fs = pm_fs_memory_new();
    pm_hash_index h, again;
    pm_path_factory names;
    pm_index_manifest_entry e;
    pm_arena arena;
    bool written;
    static const uint8_t EMPTY[12] = {0};
    uint8_t *data;
    size_t len;
    char path[256];
    (void)state;
    pm_arena_init(&arena, 1024);
    assert_int_equal(pm_path_factory_init(&names), 0);
    assert_int_equal(pm_hash_index_init(&h, fs, "/t", NULL, NULL), 0);
    assert_int_equal(
        pm_hash_index_flush(&h, fs, "/t", &names, EMPTY, 12, 3, &arena, &e, &written, NULL), 0);
    assert_false(written); /* nothing changed: no file */
    for (int32_t k = 0; k < 10; k++)
        assert_int_equal(pm_hash_index_add(&h, k * 1000003), 0);
    assert_int_equal(pm_hash_index_add(&h, 1000003), 0); /* a repeat changes nothing */
    assert_int_equal(
        pm_hash_index_flush(&h, fs, "/t", &names, EMPTY, 12, 3, &arena, &e, &written, NULL), 0);
    assert_true(written);
    assert_string_equal(e.index_type, "HASH");
    assert_int_equal(e.row_count, 10);
    assert_int_equal(e.file_size, 40);
    assert_int_equal(e.bucket, 3);
    snprintf(path, sizeof(path), "/t/index/%s", e.file_name);
    assert_int_equal(pm_fs_read_all(fs, path, 0, &data, &len, NULL), 0);
    assert_int_equal(len, 40);
    {
        int32_t keys[10];
        pm_int_set_keys(&h.set, keys);
        for (int i = 0; i < 10; i++)
            assert_int_equal((int32_t)pm_load_be32(data + 4 * i), keys[i]);
    }
    pm_free(data);
    /* restored: the same hashes */
    assert_int_equal(pm_hash_index_init(&again, fs, "/t", &e, NULL), 0);
    assert_int_equal(again.set.size, 10);
    assert_false(again.modified);
    pm_hash_index_free(&again);
    pm_hash_index_free(&h);
    pm_arena_free(&arena);
    pm_fs_free(fs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_int_set_order),
        cmocka_unit_test(test_int_set_java),
        cmocka_unit_test(test_assign),
        cmocka_unit_test(test_hash_index_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
